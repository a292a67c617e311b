//! Two `hotseat` processes, `host` and `join`, play a whole Omiga game on loopback through
//! the referee notation on standard input, with no UI.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

struct Player {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    outcome: Option<String>,
    log: Vec<String>,
}

impl Player {
    fn spawn(args: &[&str]) -> Player {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hotseat"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Player {
            child,
            stdin,
            lines,
            outcome: None,
            log: Vec::new(),
        }
    }

    fn line(&mut self) -> String {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_else(|_| panic!("no output; so far: {:#?}", self.log));
        if let Some(o) = line.strip_prefix("# outcome ") {
            self.outcome = Some(o.to_string());
        }
        self.log.push(line.clone());
        line
    }

    /// Sends a command; returns its answer lines (without notices) and the final line.
    fn ask(&mut self, command: &str) -> (Vec<String>, String) {
        writeln!(self.stdin, "{command}").unwrap();
        let mut answer = Vec::new();
        loop {
            let line = self.line();
            if line == "ok" || line.starts_with("error ") {
                return (answer, line);
            }
            if !line.starts_with("# ") {
                answer.push(line);
            }
        }
    }
}

#[test]
fn two_processes_play_a_whole_game() {
    let mut host = Player::spawn(&[
        "host",
        "--code",
        "1234",
        "--port",
        "0",
        "--bind",
        "127.0.0.1",
        "--seed",
        "7",
        "--countdown",
        "0",
    ]);
    let address = host.line();
    let address = address.strip_prefix("address ").unwrap().to_string();
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    assert_eq!(host.line(), "code 1234");
    let mut wrong = Player::spawn(&["join", &address, "--code", "9999"]);
    let status = wrong.child.wait().unwrap();
    assert!(!status.success());
    let mut join = Player::spawn(&["join", &address, "--code", "1234"]);
    assert!(join.line().starts_with("joined 127.0.0.1:"));
    let mut moves = 0;
    for round in 0..400 {
        for player in [&mut host, &mut join] {
            if player.outcome.is_some() {
                continue;
            }
            let (legal, end) = player.ask("legal");
            assert_eq!(end, "ok");
            // Vary the choice so the game moves across the table.
            if let Some(action) = legal.get(round % legal.len().max(1)) {
                let (_, end) = player.ask(action);
                if end == "ok" {
                    moves += 1;
                }
            }
        }
        let (answer, _) = host.ask("outcome");
        if answer[0] != "outcome ongoing" {
            break;
        }
    }
    let (host_says, _) = host.ask("outcome");
    // The joined side learns the end from its own update.
    thread::sleep(Duration::from_millis(200));
    let (join_says, _) = join.ask("outcome");
    assert_ne!(host_says[0], "outcome ongoing", "{:#?}", host.log);
    assert_eq!(host_says, join_says);
    assert!(moves >= 2);
    assert_eq!(join.ask("quit").1, "ok");
    assert!(join.child.wait().unwrap().success());
    assert_eq!(host.ask("quit").1, "ok");
    assert!(host.child.wait().unwrap().success());
}
