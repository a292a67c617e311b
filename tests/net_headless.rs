//! Two `hotseat` processes, `host` and `join`, play a whole Omiga game on loopback through
//! the referee notation on standard input, with no UI.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// A data folder of its own for one process (its LAN saves live there).
fn data_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hotseat-net-headless-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Player {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    outcome: Option<String>,
    log: Vec<String>,
}

impl Player {
    fn spawn(args: &[&str], data: &Path) -> Player {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hotseat"))
            .args(args)
            .env("HOTSEAT_DATA_DIR", data)
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
        self.line_within(Duration::from_secs(10))
    }

    fn line_within(&mut self, wait: Duration) -> String {
        let line = self
            .lines
            .recv_timeout(wait)
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

    /// Reads lines until one starts with `prefix`.
    fn expect(&mut self, prefix: &str, wait: Duration) -> String {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.line_within(left.max(Duration::from_millis(1)));
            if line.starts_with(prefix) {
                return line;
            }
        }
    }

    /// The table as this device sees it (the cells of `view`).
    fn table(&mut self) -> String {
        let (answer, end) = self.ask("view");
        assert_eq!(end, "ok");
        let view: serde_json::Value = serde_json::from_str(&answer[0]["view ".len()..]).unwrap();
        view["cells"].to_string()
    }

    /// Plays up to `n` rounds of legal actions with the other player.
    fn play_rounds(players: [&mut Player; 2], n: usize) {
        let [a, b] = players;
        for round in 0..n {
            for player in [&mut *a, &mut *b] {
                if player.outcome.is_some() {
                    continue;
                }
                let (legal, _) = player.ask("legal");
                if let Some(action) = legal.get(round % legal.len().max(1)) {
                    player.ask(action);
                }
            }
        }
    }
}

fn host_args(port: &str) -> Vec<&str> {
    vec![
        "host",
        "--code",
        "1234",
        "--port",
        port,
        "--bind",
        "127.0.0.1",
        "--seed",
        "7",
        "--countdown",
        "0",
    ]
}

/// A free loopback port (a restarted host must find its port again).
fn free_port() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port().to_string()
}

#[test]
fn a_killed_joiner_started_again_takes_its_seat_back() {
    let (hdata, jdata) = (data_dir("kj-host"), data_dir("kj-join"));
    let mut host = Player::spawn(&host_args("0"), &hdata);
    let address = host.line()["address ".len()..].to_string();
    let mut join = Player::spawn(&["join", &address, "--code", "1234"], &jdata);
    join.expect("joined ", Duration::from_secs(10));
    Player::play_rounds([&mut host, &mut join], 2);
    let before = host.table();
    join.child.kill().unwrap();
    join.child.wait().unwrap();
    host.expect("# paused", Duration::from_secs(10));
    // No address or code: the seat kept on disk is enough.
    let mut again = Player::spawn(&["join"], &jdata);
    again.expect("# coming back", Duration::from_secs(10));
    again.expect("# resumed", Duration::from_secs(10));
    host.expect("# resumed", Duration::from_secs(10));
    assert_eq!(again.table(), before);
    assert_eq!(host.table(), before);
    assert_eq!(again.ask("quit").1, "ok");
    host.expect("# ended the other player left", Duration::from_secs(10));
    assert_eq!(host.ask("quit").1, "ok");
    // The pairing is over: nothing is left to come back to.
    assert!(!jdata.join("lan-seat.json").exists());
    assert!(!hdata.join("lan-host.json").exists());
}

#[test]
fn a_killed_host_started_again_goes_on_with_the_same_match() {
    let (hdata, jdata) = (data_dir("kh-host"), data_dir("kh-join"));
    let port = free_port();
    let mut host = Player::spawn(&host_args(&port), &hdata);
    let address = host.line()["address ".len()..].to_string();
    let mut join = Player::spawn(&["join", &address, "--code", "1234"], &jdata);
    join.expect("joined ", Duration::from_secs(10));
    Player::play_rounds([&mut host, &mut join], 2);
    let before = join.table();
    host.child.kill().unwrap();
    host.child.wait().unwrap();
    join.expect("# paused", Duration::from_secs(10));
    let mut again = Player::spawn(&host_args(&port), &hdata);
    assert_eq!(again.line(), format!("address {address}"));
    again.expect("# continuing the saved game", Duration::from_secs(5));
    join.expect("# resumed", Duration::from_secs(15));
    again.expect("# resumed", Duration::from_secs(5));
    assert_eq!(again.table(), before);
    assert_eq!(join.table(), before);
    assert_eq!(join.ask("quit").1, "ok");
    again.expect("# ended", Duration::from_secs(10));
    assert_eq!(again.ask("quit").1, "ok");
    // Left before its end: in the host's history as unfinished.
    let history = std::fs::read_to_string(hdata.join("history.json")).unwrap();
    assert!(history.contains("\"unfinished\":true"), "{history}");
}

#[test]
fn two_processes_play_a_whole_game() {
    let mut host = Player::spawn(&host_args("0"), &data_dir("whole-host"));
    let address = host.line();
    let address = address.strip_prefix("address ").unwrap().to_string();
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    assert_eq!(host.line(), "code 1234");
    let mut wrong = Player::spawn(&["join", &address, "--code", "9999"], &data_dir("wrong"));
    let status = wrong.child.wait().unwrap();
    assert!(!status.success());
    let mut join = Player::spawn(
        &["join", &address, "--code", "1234"],
        &data_dir("whole-join"),
    );
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
