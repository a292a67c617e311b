"""A `hotseat referee` process driven line by line, recording the conversation in the
transcript format of tests/transcripts.rs. Shared by the make_*_games.py scripts."""
import subprocess

BIN = "./target/debug/hotseat"


class Referee:
    def __init__(self):
        self.p = subprocess.Popen([BIN, "referee"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.out = []

    def ask(self, command, record=True):
        """Sends one line; returns every answer line up to the closing `ok` or `error`,
        recording both when `record`."""
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline().rstrip("\n")
            lines.append(line)
            if line == "ok" or line.startswith("error"):
                break
        if record:
            self.out.append("> " + command)
            self.out.extend(lines)
        return lines

    def close(self):
        self.p.stdin.close()
        self.p.wait()
