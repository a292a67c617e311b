#!/usr/bin/env python3
"""Two-device Omiga across two network namespaces joined by a veth pair (issue #20).

Run by .ci/net-namespaces as root. The real `hotseat host` runs in one namespace and the
real `hotseat join` in the other, as two phones on one Wi-Fi; faults are made with
iproute2 (link down, a tbf qdisc that starves one direction) and signals (SIGSTOP, kill).
Only the private addresses inside the namespaces this script creates are ever targets.
Every wait is bounded; a failure raises, prints the processes' output and exits non-zero.

Usage: net_namespaces.py HOTSEAT_BINARY
       net_namespaces.py idle ADDR COUNT SECONDS   (helper, run inside the joiner's namespace)
       net_namespaces.py drip ADDR                 (helper, run inside the joiner's namespace)
"""

import json
import os
import queue
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HOST_NS = f"hs-host-{os.getpid()}"
JOIN_NS = f"hs-join-{os.getpid()}"
HOST_IF, JOIN_IF = "hsv-host", "hsv-join"
HOST_IP, JOIN_IP = "10.77.0.1", "10.77.0.2"
PORT = 40720
CODE = "2468"
RESULTS = []


def sh(*args, check=True):
    r = subprocess.run(args, capture_output=True, text=True, timeout=20)
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {r.stderr.strip()}")
    return r


def setup(multicast_route=True):
    sh("ip", "netns", "add", HOST_NS)
    sh("ip", "netns", "add", JOIN_NS)
    sh("ip", "link", "add", HOST_IF, "netns", HOST_NS, "type", "veth", "peer", "name", JOIN_IF,
       "netns", JOIN_NS)
    for ns, dev, ip in ((HOST_NS, HOST_IF, HOST_IP), (JOIN_NS, JOIN_IF, JOIN_IP)):
        sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "-n", ns, "addr", "add", f"{ip}/24", "brd", "+", "dev", dev)
        sh("ip", "-n", ns, "link", "set", dev, "up")
        if multicast_route:
            sh("ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", dev)


def teardown():
    for ns in (HOST_NS, JOIN_NS):
        sh("ip", "netns", "del", ns, check=False)


def link(up):
    sh("ip", "-n", JOIN_NS, "link", "set", JOIN_IF, "up" if up else "down")


class Proc:
    """A hotseat process in a namespace, with its output read on a thread."""

    def __init__(self, ns, args, data, name):
        self.name = name
        env = dict(os.environ, HOTSEAT_DATA_DIR=data)
        self.p = subprocess.Popen(
            ["ip", "netns", "exec", ns, BIN] + args, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1, env=env)
        self.q = queue.Queue()
        self.log = []
        self.outcome = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def line(self, timeout=15):
        try:
            line = self.q.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"{self.name}: no output within {timeout} s")
        if line is None:
            raise RuntimeError(f"{self.name}: exited ({self.p.wait()})")
        self.log.append(line)
        if line.startswith("# outcome "):
            self.outcome = line[len("# outcome "):]
        return line

    def expect(self, prefix, timeout=15):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"{self.name}: no line starting {prefix!r} within {timeout} s")
            line = self.line(left)
            if line.startswith(prefix):
                return line

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def ask(self, command, timeout=90):
        """Sends a command; its answer lines (without notices) and its last line."""
        self.send(command)
        answer = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.line(max(0.1, deadline - time.monotonic()))
            if line == "ok" or line.startswith("error "):
                return answer, line
            if not line.startswith("# "):
                answer.append(line)

    def view(self):
        answer, end = self.ask("view")
        assert end == "ok", end
        return json.loads(answer[0][len("view "):])

    def stop(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait(timeout=5)

    def dump(self):
        print(f"---- {self.name} output (last 40 lines)")
        for line in self.log[-40:]:
            print("   ", line)


def table(view):
    return sorted((c["x"], c["y"], json.dumps(c["card"], sort_keys=True)) for c in view["cells"])


def agree(host, join, what):
    """Both devices see the same table, and no card lies on it while still in a hand."""
    time.sleep(0.3)
    hv, jv = host.view(), join.view()
    assert table(hv) == table(jv), f"{what}: the tables differ\nhost {table(hv)}\njoin {table(jv)}"
    assert hv["hand_sizes"] == jv["hand_sizes"], f"{what}: hand sizes differ"
    return hv


def play_one(player, rnd):
    legal, end = player.ask("legal")
    assert end == "ok", end
    if not legal:
        return None
    action = legal[rnd.randrange(len(legal))]
    return action


def play_to_end(host, join, rnd, rounds=400):
    moves = 0
    for _ in range(rounds):
        for p in (host, join):
            if p.outcome:
                continue
            action = play_one(p, rnd)
            if action and p.ask(action)[1] == "ok":
                moves += 1
        if host.ask("outcome")[0][0] != "outcome ongoing":
            break
    time.sleep(0.3)
    h, j = host.ask("outcome")[0], join.ask("outcome")[0]
    assert h[0] != "outcome ongoing", "the game did not end"
    assert h == j, f"the devices disagree on the outcome: {h} / {j}"
    return moves, h[0]


def threads_of(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def hotseat_pid(proc):
    # `ip netns exec` execs the command, so the child's pid is hotseat's.
    return proc.p.pid


def start_host(data, extra=()):
    host = Proc(HOST_NS, ["host", "--code", CODE, "--port", str(PORT), "--countdown", "0",
                          "--name", "CI host", "--seed", str(random.randrange(1 << 30))]
                + list(extra), data, "host")
    address = host.expect("address ")
    return host, address.split(" ", 1)[1]


def join_to(address, data, args=None):
    join = Proc(JOIN_NS, ["join"] + (args if args is not None else [address, "--code", CODE]),
                data, "join")
    return join


def fresh():
    return tempfile.mkdtemp(prefix="hotseat-ns-")


def record(name, ok, detail):
    RESULTS.append((name, ok, detail))
    print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)


def scenario(name):
    def wrap(fn):
        def run():
            procs = []
            t0 = time.monotonic()
            try:
                detail = fn(procs)
                record(name, True, f"{detail} ({time.monotonic() - t0:.1f} s)")
            except Exception as e:  # noqa: BLE001 - every failure is reported the same way
                record(name, False, str(e))
                for p in procs:
                    p.dump()
            finally:
                for p in procs:
                    p.stop()
        run.__name__ = fn.__name__
        return run
    return wrap


@scenario("discovery and a whole game")
def whole_game(procs):
    host, address = start_host(fresh())
    procs.append(host)
    assert address.startswith(HOST_IP + ":"), f"the host shows {address}, not its LAN address"
    t0 = time.monotonic()
    join = join_to(address, fresh(), ["--code", CODE])
    procs.append(join)
    found = join.expect("# found ")
    join.expect("joined ")
    took = time.monotonic() - t0
    assert took < 2.5, f"discovery took {took:.2f} s"
    moves, outcome = play_to_end(host, join, random.Random(1))
    return f"host shows {address}; {found[2:]}; joined {took * 1000:.0f} ms after start; {moves} moves, {outcome}"


def fault_during_action(procs, fault, heal, wait):
    """Starts a game, makes a fault, sends an action of the joiner during it, heals it, and
    checks that the joiner comes back, learns the action's fate, and both tables agree."""
    host, address = start_host(fresh())
    procs.append(host)
    join = join_to(address, fresh())
    procs.append(join)
    join.expect("joined ")
    rnd = random.Random(2)
    for _ in range(3):
        for p in (host, join):
            a = play_one(p, rnd)
            if a:
                p.ask(a)
    action = play_one(join, rnd)
    fault()
    join.send(action)
    time.sleep(wait)
    healed = time.monotonic()
    heal()
    answer = None
    settled = None
    while answer is None:
        line = join.line(90)
        if line.startswith("# settled"):
            settled = line
        if line == "ok" or line.startswith("error "):
            answer = line
    back = time.monotonic() - healed
    assert any(l.startswith("# paused") for l in join.log), "the joiner never said it was paused"
    assert any(l == "# resumed" for l in join.log), "the joiner never came back"
    assert not any("Lost(" in l or "Broken pipe" in l for l in join.log), "a debug format"
    hv = agree(host, join, "after the fault")
    applied = answer == "ok"
    if action.startswith("place "):
        # The joiner's answer and the host's own record tell the same story.
        spot = "@" + action.split("@")[1]
        placed = any(l.startswith("# seat 1 placed ") and l.endswith(spot) for l in host.log)
        assert placed == applied, f"the joiner says {answer!r}, the host placed it: {placed}"
        on_table = any(f"@{c['x']},{c['y']}" == spot for c in hv["cells"])
        assert on_table == applied, f"the joiner says {answer!r}, on the table: {on_table}"
    moves, outcome = play_to_end(host, join, rnd)
    return (f"back {back:.1f} s after healing; {action}: {'applied' if applied else 'not applied'}"
            f" on both ({settled or answer}); then {moves} moves to {outcome}")


@scenario("link down 5 s during an action")
def link_down(procs):
    return fault_during_action(procs, lambda: link(False), lambda: link(True), 6)


@scenario("host stopped (SIGSTOP) 10 s during an action")
def host_stopped(procs):
    box = {}

    def stop():
        box["host"] = procs[0]
        os.kill(hotseat_pid(procs[0]), signal.SIGSTOP)

    def cont():
        os.kill(hotseat_pid(box["host"]), signal.SIGCONT)
    detail = fault_during_action(procs, stop, cont, 10)
    resumed = [l for l in procs[0].log if l == "# resumed"]
    assert len(resumed) == 1, f"the host said resumed {len(resumed)} times"
    return detail


@scenario("answers lost on the way back (tbf starves the host's sending) during an action")
def answers_lost(procs):
    def starve():
        sh("ip", "netns", "exec", HOST_NS, "tc", "qdisc", "add", "dev", HOST_IF, "root", "tbf",
           "rate", "8bit", "burst", "200", "limit", "200")

    def feed():
        sh("ip", "netns", "exec", HOST_NS, "tc", "qdisc", "del", "dev", HOST_IF, "root")
    return fault_during_action(procs, starve, feed, 7)


def paired_and_played(procs, hdata, jdata, seed):
    """A host and a joiner on their own data folders, three rounds played: what the kill
    scenarios start from. Returns the host, its address, the joiner, the game's random
    source and the table both agree on."""
    host, address = start_host(hdata)
    procs.append(host)
    join = join_to(address, jdata)
    procs.append(join)
    join.expect("joined ")
    rnd = random.Random(seed)
    for _ in range(3):
        for p in (host, join):
            a = play_one(p, rnd)
            if a:
                p.ask(a)
    return host, address, join, rnd, agree(host, join, "before the kill")


@scenario("joiner killed and started again")
def joiner_killed(procs):
    jdata = fresh()
    host, address, join, rnd, before = paired_and_played(procs, fresh(), jdata, 3)
    join.p.kill()
    join.p.wait()
    host.expect("# paused", 10)
    t0 = time.monotonic()
    again = join_to(address, jdata, [])
    procs.append(again)
    again.expect("# coming back")
    again.expect("# resumed", 30)
    back = time.monotonic() - t0
    host.expect("# resumed", 10)
    after = agree(host, again, "after the restart")
    assert table(after) == table(before), "the table changed across the restart"
    moves, outcome = play_to_end(host, again, rnd)
    return f"back {back:.2f} s after the restart, same table; then {moves} moves to {outcome}"


@scenario("host killed and started again")
def host_killed(procs):
    hdata = fresh()
    host, address, join, rnd, before = paired_and_played(procs, hdata, fresh(), 4)
    host.p.kill()
    host.p.wait()
    join.expect("# paused", 10)
    t0 = time.monotonic()
    again, address2 = start_host(hdata)
    procs.append(again)
    assert address2 == address, f"the host came back on {address2}, not {address}"
    again.expect("# continuing the saved game")
    join.expect("# resumed", 30)
    back = time.monotonic() - t0
    after = agree(again, join, "after the restart")
    assert table(after) == table(before), "the table changed across the restart"
    moves, outcome = play_to_end(again, join, rnd)
    return f"back {back:.2f} s after the restart, same table; then {moves} moves to {outcome}"


@scenario("a slow-drip sender is cut at the hello deadline")
def slow_drip(procs):
    host, address = start_host(fresh())
    procs.append(host)
    r = subprocess.run(["ip", "netns", "exec", JOIN_NS, sys.executable, __file__, "drip",
                        address], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stdout + r.stderr
    took = float(r.stdout.split()[0])
    assert took < 6.5, f"the drip was held {took:.1f} s"
    return f"closed after {took:.2f} s ({r.stdout.strip().split(' ', 1)[1]})"


@scenario("300 idle connections while a game starts and finishes")
def idle_crowd(procs):
    host, address = start_host(fresh())
    procs.append(host)
    pid = hotseat_pid(host)
    calm = threads_of(pid)
    crowd = subprocess.Popen(["ip", "netns", "exec", JOIN_NS, sys.executable, __file__, "idle",
                              address, "300", "60"], stdout=subprocess.PIPE, text=True)
    most = [calm]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            most.append(threads_of(pid))
            time.sleep(0.05)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        time.sleep(2)
        join = join_to(address, fresh())
        procs.append(join)
        join.expect("joined ", 20)
        moves, outcome = play_to_end(host, join, random.Random(5))
    finally:
        stop.set()
        sampler.join()
        crowd.terminate()
        out, _ = crowd.communicate(timeout=10)
    assert max(most) <= calm + 4, f"threads grew from {calm} to {max(most)}"
    assert int(out.split()[0]) >= 300, f"the crowd was smaller: {out}"
    return (f"host threads {calm} before, at most {max(most)} during; {out.strip()}; "
            f"{moves} moves to {outcome}")


def subnet_only():
    """No multicast route (and no default route): the address shown must still be the
    LAN one, and join without an address must work or say plainly to type it."""
    t0 = time.monotonic()
    procs = []
    try:
        teardown()
        setup(multicast_route=False)
        host, address = start_host(fresh())
        procs.append(host)
        assert address.startswith(HOST_IP + ":"), f"the host shows {address}"
        seek = join_to(address, fresh(), ["--code", CODE])
        procs.append(seek)
        first = seek.line(10)
        while not (first.startswith("joined ") or "hotseat:" in first):
            first = seek.line(10)
        if first.startswith("joined "):
            how = "join without an address found the host by broadcast"
            seek.ask("quit")
        else:
            assert "type the address" in first, first
            how = f"join without an address said: {first}"
        assert not any("os error" in l for l in seek.log), "a raw system error"
        seek.stop()
        host.stop()
        host, address = start_host(fresh(), ["--new"])
        procs.append(host)
        join = join_to(address, fresh())
        procs.append(join)
        join.expect("joined ")
        moves, outcome = play_to_end(host, join, random.Random(6))
        record("subnet route only", True,
               f"host shows {address}; {how}; by address: {moves} moves to {outcome}"
               f" ({time.monotonic() - t0:.1f} s)")
    except Exception as e:  # noqa: BLE001
        record("subnet route only", False, str(e))
        for p in procs:
            p.dump()
    finally:
        for p in procs:
            p.stop()


def idle_helper(address, count, seconds):
    """Holds `count` idle connections to the host for `seconds`, opening a new one for
    each the host closes; prints how many were opened and refused."""
    host, port = address.rsplit(":", 1)
    end = time.monotonic() + seconds
    opened = closed = 0
    socks = []

    def report(*_):
        print(f"{opened} idle connections opened, {closed} closed by the host, "
              f"{len(socks)} open at the end", flush=True)
        sys.exit(0)
    signal.signal(signal.SIGTERM, report)
    while time.monotonic() < end:
        while len(socks) < count:
            s = socket.socket()
            s.settimeout(2)
            try:
                s.connect((host, int(port)))
                s.setblocking(False)
                socks.append(s)
                opened += 1
            except OSError:
                s.close()
                break
        for s in list(socks):
            try:
                if s.recv(4096) == b"":
                    raise OSError
            except BlockingIOError:
                continue
            except OSError:
                pass
            socks.remove(s)
            s.close()
            closed += 1
        time.sleep(0.05)
    report()


def drip_helper(address):
    host, port = address.rsplit(":", 1)
    s = socket.create_connection((host, int(port)), timeout=2)
    s.settimeout(0.02)
    t0 = time.monotonic()
    got = b""
    while time.monotonic() - t0 < 20:
        try:
            s.send(b"{")
        except OSError:
            break
        try:
            chunk = s.recv(4096)
            if chunk == b"":
                break
            got += chunk
        except socket.timeout:
            pass
        except OSError:
            break
        time.sleep(random.uniform(0.01, 0.04))
    print(f"{time.monotonic() - t0:.2f} host said: {got.decode(errors='replace').strip()}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "idle":
        return idle_helper(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    if len(sys.argv) > 1 and sys.argv[1] == "drip":
        return drip_helper(sys.argv[2])
    global BIN
    BIN = os.path.abspath(sys.argv[1])
    started = time.monotonic()
    try:
        setup()
    except Exception as e:  # noqa: BLE001
        teardown()
        print(f"SKIP network namespaces cannot be made here ({e}); the loopback tests still run")
        return 0
    signal.signal(signal.SIGTERM, lambda *_: (teardown(), sys.exit(1)))
    try:
        for run in (whole_game, link_down, host_stopped, answers_lost, joiner_killed,
                    host_killed, slow_drip, idle_crowd):
            run()
        subnet_only()
    finally:
        teardown()
        for d in os.listdir(tempfile.gettempdir()):
            if d.startswith("hotseat-ns-"):
                shutil.rmtree(os.path.join(tempfile.gettempdir(), d), ignore_errors=True)
    failed = [r for r in RESULTS if not r[1]]
    print(f"== network namespaces: {len(RESULTS) - len(failed)} of {len(RESULTS)} passed in"
          f" {time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
