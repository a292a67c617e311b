//! `rtc-host` and `rtc-join` against each other on loopback, each on its own thread with
//! its standard input and output in memory, as two terminals would run them.

use super::*;
use std::io::{BufReader, Read};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread;

/// Standard input: lines sent by the test.
struct Input {
    rx: Receiver<Vec<u8>>,
    left: Vec<u8>,
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left.is_empty() {
            match self.rx.recv() {
                Ok(bytes) => self.left = bytes,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.left.len());
        buf[..n].copy_from_slice(&self.left[..n]);
        self.left.drain(..n);
        Ok(n)
    }
}

/// Standard output: everything written, for the test to read.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `host_command` or `join_command` over the in-memory input and output.
type Command = fn(&[String], BufReader<Input>, Output) -> Result<(), String>;

struct Terminal {
    input: Sender<Vec<u8>>,
    output: Output,
    seen: usize,
    done: thread::JoinHandle<Result<(), String>>,
}

impl Terminal {
    fn start(command: Command, args: &[&str]) -> Terminal {
        let (tx, rx) = mpsc::channel();
        let output = Output::default();
        let out = output.clone();
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let done = thread::spawn(move || {
            command(
                &args,
                BufReader::new(Input {
                    rx,
                    left: Vec::new(),
                }),
                out,
            )
        });
        Terminal {
            input: tx,
            output,
            seen: 0,
            done,
        }
    }

    fn send(&self, line: &str) {
        self.input.send(format!("{line}\n").into_bytes()).unwrap();
    }

    /// The next line starting with `prefix` (at most 10 s), the lines before it skipped.
    fn line(&mut self, prefix: &str) -> String {
        let end = Instant::now() + Duration::from_secs(10);
        loop {
            let text = String::from_utf8_lossy(&self.output.0.lock().unwrap()).to_string();
            let lines: Vec<&str> = text.lines().collect();
            // Only whole lines (the last one may be half written).
            let whole = if text.ends_with('\n') {
                lines.len()
            } else {
                lines.len().saturating_sub(1)
            };
            while self.seen < whole {
                self.seen += 1;
                if lines[self.seen - 1].starts_with(prefix) {
                    return lines[self.seen - 1].to_string();
                }
            }
            assert!(Instant::now() < end, "no '{prefix}' in:\n{text}");
            thread::sleep(Duration::from_millis(2));
        }
    }
}

/// The host prints an offer text and the joiner an answer text for it; a wrong text is
/// refused with the reason and asked for again; once paired the two play by the
/// line protocol of `host`/`join` (a refused action, an accepted one with its round trip,
/// the other side seeing each); `quit` on the host ends the joiner's game.
#[test]
fn rtc_host_and_rtc_join_pair_by_texts_and_play() {
    let mut host = Terminal::start(
        host_command,
        &[
            "--code",
            "4821",
            "--seed",
            "7",
            "--countdown",
            "0",
            "--bind",
            "127.0.0.1",
        ],
    );
    let offer = host.line("offer ");
    let offer = offer.trim_start_matches("offer ").to_string();
    assert!(offer.starts_with("HS2O"), "{offer}");
    assert_eq!(host.line("code "), "code 4821");

    let mut join = Terminal::start(join_command, &["--bind", "127.0.0.1"]);
    join.send("hello");
    assert!(join.line("error ").contains("not a Hotseat pairing code"));
    join.send(&offer);
    let answer = join
        .line("answer ")
        .trim_start_matches("answer ")
        .to_string();
    assert!(answer.starts_with("HS2A"), "{answer}");

    // The offer given back to the host instead of the answer: said, and asked again.
    host.send(&offer);
    assert!(
        host.line("error ").contains("scan the answer"),
        "an offer is not an answer"
    );
    host.send(&answer);
    let said = host.line("# the answer's candidates: ");
    assert!(said.contains(" 127.0.0.1:"), "{said}");
    assert!(host.line("# paired in ").ends_with(" ms"));
    assert!(join.line("joined seat 1").contains(" ms"));
    host.line("# started game 1");

    // A discard while a card fits is refused with the host's reason.
    join.send("discard");
    assert!(join.line("error ").contains("discard only when"));
    host.send("legal");
    let white = host.line("place ");
    host.line("ok");
    host.send(&white);
    host.line("ok");
    join.line("# seat 0 placed");
    join.send("legal");
    let black = join.line("place ");
    join.line("ok");
    join.send(&black);
    assert!(join.line("# round trip ").ends_with(" ms"));
    join.line("ok");
    host.line("# seat 1 placed");

    host.send("quit");
    host.line("ok");
    assert!(join.line("# ended").len() > 8);
    drop(join.input);
    drop(host.input);
    assert_eq!(host.done.join().ok(), Some(Ok(())));
    assert_eq!(join.done.join().ok(), Some(Ok(())));
}
