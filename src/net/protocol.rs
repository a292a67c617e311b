//! The wire protocol: serde JSON messages, one per line, with a size limit per line, a
//! version handshake carrying the 4-digit join code, and heartbeats. Both ends read lines
//! with [`LineReader`], which never holds more than [`MAX_LINE`] bytes of one message.

use super::reason::{lenient, NetReason};
pub use super::wire::{ProtocolError, MAX_LINE};
use crate::games::omiga::{OmigaEvent, OmigaView};
use crate::games::Seat;
use serde::{Deserialize, Serialize};
use std::io::{self, Read, Write};
use std::time::Duration;

/// The protocol version both ends must speak; `Hello` carries it.
pub const PROTOCOL_VERSION: u32 = 1;

/// The timings of one connection; tests shorten them, the app uses [`Timing::default`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// How often each end sends `Ping` when it has nothing else to say.
    pub heartbeat: Duration,
    /// A peer that sends nothing (not even a heartbeat) for this long is gone.
    pub silent_after: Duration,
    /// A new connection must say `Hello` within this.
    pub hello_within: Duration,
    /// A dropped player may come back within this; after it the game ends.
    pub resume_within: Duration,
    /// The countdown both players see before a game starts.
    pub countdown: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            heartbeat: Duration::from_secs(1),
            silent_after: Duration::from_secs(5),
            hello_within: Duration::from_secs(5),
            resume_within: Duration::from_secs(60),
            countdown: Duration::from_secs(3),
        }
    }
}

/// How many actions a client may send: a burst of `burst`, refilled at `per_second`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLimit {
    /// Actions allowed at once.
    pub burst: f64,
    /// Actions allowed per second, sustained.
    pub per_second: f64,
}

impl Default for RateLimit {
    fn default() -> Self {
        // A fast human taps a few cards a second; 20/s is far above that and far below a flood.
        RateLimit {
            burst: 10.0,
            per_second: 20.0,
        }
    }
}

/// What the joining device sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
// Unknown fields are ignored, so a later version may add fields without a new version.
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// The first message: protocol version, the host's join code and, to come back after a
    /// drop, the token the host gave at `Welcome`.
    Hello {
        /// Must equal [`PROTOCOL_VERSION`].
        version: u32,
        /// The 4-digit join code the host shows.
        code: String,
        /// The resume token from an earlier `Welcome` (absent on first join).
        #[serde(default)]
        resume: Option<String>,
    },
    /// An action in the notation of docs/rules.md §4, numbered by the client for its answer.
    Act {
        /// Echoed in `Accepted`/`Rejected`.
        id: u64,
        /// `place PN-GK@4,6` or `discard`.
        action: String,
    },
    /// Asks for (or agrees to) another game with the same pairing, once a game is over.
    Rematch,
    /// A heartbeat.
    Ping,
    /// The player leaves on purpose: the game ends at once, nobody waits 60 s.
    Bye,
}

/// What the host sends. A message with a human reason carries the English `reason`
/// (older devices and `hotseat join` read it) and, from this version on, `why`: the same
/// reason typed, so the joined device words it in its player's language. `why` is left
/// out when there is nothing typed to say, and read leniently: one this version cannot
/// read is `None` and the English stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostMsg {
    /// The join (or resume) was accepted.
    Welcome {
        /// The host's protocol version.
        version: u32,
        /// The seat this client plays (1, Black).
        seat: Seat,
        /// Present this token in `Hello` to resume after a drop.
        token: String,
        /// The client's own view now.
        view: OmigaView,
        /// Milliseconds until actions are taken (the countdown still running).
        countdown_ms: u64,
        /// The match this pairing plays: the joiner keeps it on disk with the token, to
        /// come back after its app was killed.
        #[serde(default)]
        game_id: String,
        /// The number of this device's last action that the host applied (0: none yet):
        /// after a drop, an action whose answer never arrived was applied exactly when
        /// its number is at most this.
        #[serde(default)]
        last_act: u64,
    },
    /// The connection is refused; the host closes it after this line.
    Refused {
        /// Why, in words a player understands.
        reason: String,
        /// Why, typed (absent from older hosts, or when only English can say it).
        #[serde(
            default,
            deserialize_with = "lenient",
            skip_serializing_if = "Option::is_none"
        )]
        why: Option<NetReason>,
    },
    /// A new game starts (first game or rematch): the countdown begins now on both ends.
    Started {
        /// Which game of this pairing (1 for the first).
        game: u32,
        /// The client's view.
        view: OmigaView,
        /// Milliseconds of countdown.
        countdown_ms: u64,
    },
    /// The client's action `id` was applied.
    Accepted {
        /// The client's number for the action.
        id: u64,
        /// What it did, as this seat may know it.
        event: OmigaEvent,
        /// The client's view after it.
        view: OmigaView,
    },
    /// The client's action `id` was refused; nothing changed.
    Rejected {
        /// The client's number for the action (0 when it could not be read).
        id: u64,
        /// Why.
        reason: String,
        /// Why, typed (absent from older hosts, or when only English can say it).
        #[serde(
            default,
            deserialize_with = "lenient",
            skip_serializing_if = "Option::is_none"
        )]
        why: Option<NetReason>,
    },
    /// The other seat acted.
    Update {
        /// What it did, as this seat may know it (no drawn or discarded cards).
        event: OmigaEvent,
        /// The client's view after it.
        view: OmigaView,
    },
    /// The other player asks for a rematch.
    RematchOffered,
    /// The pairing is over (a player left or did not come back in time).
    Ended {
        /// Why.
        reason: String,
        /// Why, typed (absent from older hosts, or when only English can say it).
        #[serde(
            default,
            deserialize_with = "lenient",
            skip_serializing_if = "Option::is_none"
        )]
        why: Option<NetReason>,
    },
    /// A message that could not be used (malformed, unknown); the connection stays.
    Error {
        /// Why.
        reason: String,
        /// Why, typed (absent from older hosts, or when only English can say it).
        #[serde(
            default,
            deserialize_with = "lenient",
            skip_serializing_if = "Option::is_none"
        )]
        why: Option<NetReason>,
    },
    /// A heartbeat.
    Ping,
}

impl HostMsg {
    /// `Refused` with the English and the typed reason.
    pub fn refused(why: &NetReason) -> HostMsg {
        HostMsg::Refused {
            reason: why.to_string(),
            why: why.wire(),
        }
    }

    /// `Rejected` for action `id`, with the English and the typed reason.
    pub fn rejected(id: u64, why: &NetReason) -> HostMsg {
        HostMsg::Rejected {
            id,
            reason: why.to_string(),
            why: why.wire(),
        }
    }

    /// `Ended` with the English and the typed reason.
    pub fn ended(why: &NetReason) -> HostMsg {
        HostMsg::Ended {
            reason: why.to_string(),
            why: why.wire(),
        }
    }

    /// `Error` with the English and the typed reason.
    pub fn error(why: &NetReason) -> HostMsg {
        HostMsg::Error {
            reason: why.to_string(),
            why: why.wire(),
        }
    }
}

/// Decodes one line (without its newline) as a client message.
pub fn decode_client(line: &[u8]) -> Result<ClientMsg, ProtocolError> {
    decode_msg(line)
}

/// Decodes one line (without its newline) as a host message.
pub fn decode_host(line: &[u8]) -> Result<HostMsg, ProtocolError> {
    decode_msg(line)
}

/// Decodes one line (without its newline) as a message of either side.
pub fn decode_msg<T: for<'de> Deserialize<'de>>(line: &[u8]) -> Result<T, ProtocolError> {
    if line.len() > MAX_LINE {
        return Err(ProtocolError::TooLong);
    }
    let text = std::str::from_utf8(line).map_err(|_| ProtocolError::NotText)?;
    serde_json::from_str(text).map_err(|e| {
        // serde's message names the field or type that was wrong; keep it short.
        let mut reason = e.to_string();
        reason.truncate(200);
        ProtocolError::Malformed(reason)
    })
}

/// Encodes a message as one line with its newline.
pub fn encode<T: Serialize>(msg: &T) -> Vec<u8> {
    // Our message types serialize infallibly (string keys, no maps with other keys).
    let mut line = serde_json::to_vec(msg).unwrap_or_else(|_| b"{\"type\":\"ping\"}".to_vec());
    line.push(b'\n');
    line
}

/// Writes one message as a line and flushes.
pub fn send<T: Serialize, W: Write>(out: &mut W, msg: &T) -> io::Result<()> {
    out.write_all(&encode(msg))?;
    out.flush()
}

/// What one attempt to read a line gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Read1 {
    /// A whole line, without its newline.
    Line(Vec<u8>),
    /// Nothing yet (the socket's read timeout passed); the partial line is kept.
    Idle,
}

/// Reads newline-terminated messages from a socket, at most [`MAX_LINE`] bytes each,
/// keeping a partial line across read timeouts.
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    limit: usize,
}

impl<R: Read> LineReader<R> {
    /// A reader with the protocol's limit.
    pub fn new(inner: R) -> Self {
        Self::with_limit(inner, MAX_LINE)
    }

    /// A reader with another limit (tests).
    pub fn with_limit(inner: R, limit: usize) -> Self {
        LineReader {
            inner,
            buf: Vec::new(),
            limit,
        }
    }

    /// Reads until a whole line, a timeout (`Idle`), the end, or an error.
    pub fn read_line(&mut self) -> Result<Read1, ProtocolError> {
        if let Some(line) = self.take_line()? {
            return Ok(Read1::Line(line));
        }
        let mut chunk = [0u8; 4096];
        loop {
            match self.inner.read(&mut chunk) {
                Ok(0) if self.buf.is_empty() => return Err(ProtocolError::Closed),
                Ok(0) => return Err(ProtocolError::ClosedMidLine),
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    if let Some(line) = self.take_line()? {
                        return Ok(Read1::Line(line));
                    }
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    return Ok(Read1::Idle)
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ProtocolError::Io(e.to_string())),
            }
        }
    }

    fn take_line(&mut self) -> Result<Option<Vec<u8>>, ProtocolError> {
        match self.buf.iter().position(|&b| b == b'\n') {
            Some(end) if end > self.limit => Err(ProtocolError::TooLong),
            Some(end) => {
                let mut line: Vec<u8> = self.buf.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                Ok(Some(line))
            }
            None if self.buf.len() > self.limit => Err(ProtocolError::TooLong),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn messages_round_trip_as_one_line() {
        for msg in [
            ClientMsg::Hello {
                version: 1,
                code: "1234".into(),
                resume: None,
            },
            ClientMsg::Act {
                id: 7,
                action: "place PN-GK@4,6".into(),
            },
            ClientMsg::Rematch,
            ClientMsg::Ping,
            ClientMsg::Bye,
        ] {
            let line = encode(&msg);
            assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
            assert_eq!(decode_client(&line[..line.len() - 1]), Ok(msg));
        }
        assert_eq!(
            decode_client(br#"{"type":"hello","version":1,"code":"0042"}"#),
            Ok(ClientMsg::Hello {
                version: 1,
                code: "0042".into(),
                resume: None
            })
        );
    }

    #[test]
    fn bad_lines_are_refused_with_a_reason() {
        for (line, reason) in [
            (&b"{not json"[..], "malformed"),
            (b"{\"type\":\"act\"}", "missing field"),
            (b"{\"type\":\"fly\"}", "unknown variant"),
            (b"\xff\xfe", "UTF-8"),
            (b"", "malformed"),
        ] {
            let e = decode_client(line).unwrap_err().to_string();
            assert!(e.contains(reason), "{line:?}: {e}");
        }
        let long = vec![b' '; MAX_LINE + 1];
        assert_eq!(decode_client(&long), Err(ProtocolError::TooLong));
    }

    #[test]
    fn the_line_reader_keeps_partial_lines_and_enforces_the_limit() {
        let mut r = LineReader::with_limit(&b"{\"a\":1}\r\nxyz\n0123456789abc"[..], 10);
        assert_eq!(r.read_line(), Ok(Read1::Line(b"{\"a\":1}".to_vec())));
        assert_eq!(r.read_line(), Ok(Read1::Line(b"xyz".to_vec())));
        assert_eq!(r.read_line(), Err(ProtocolError::TooLong));
        let mut r = LineReader::with_limit(&b"abc"[..], 10);
        assert_eq!(r.read_line(), Err(ProtocolError::ClosedMidLine));
        let mut r = LineReader::with_limit(&b""[..], 10);
        assert_eq!(r.read_line(), Err(ProtocolError::Closed));
        let mut r = LineReader::with_limit(&b"0123456789\n"[..], 10);
        assert_eq!(r.read_line(), Ok(Read1::Line(b"0123456789".to_vec())));
    }

    /// A host message from before `why` (or with nothing typed to say) still reads, and
    /// the English stands.
    #[test]
    fn a_message_without_why_reads_as_before() {
        let old = br#"{"type":"rejected","id":3,"reason":"That cell is taken"}"#;
        let Ok(HostMsg::Rejected { id, reason, why }) = decode_host(old) else {
            panic!("an old rejection must read");
        };
        assert_eq!((id, why.clone()), (3, None));
        assert_eq!(
            super::super::reason::heard(reason, why).to_string(),
            "That cell is taken"
        );
        for old in [
            &br#"{"type":"refused","reason":"wrong join code"}"#[..],
            br#"{"type":"ended","reason":"the host left the game"}"#,
            br#"{"type":"error","reason":"malformed message: x"}"#,
        ] {
            let msg = decode_host(old).expect("an old message reads");
            // Nothing typed: the line encodes exactly as an old host wrote it.
            let again = encode(&msg);
            assert_eq!(&again[..again.len() - 1], old);
        }
    }

    /// A typed reason goes out beside the English and comes back the same.
    #[test]
    fn a_typed_reason_round_trips_beside_the_english() {
        use crate::games::omiga::{OmigaError, Refusal};
        let why = NetReason::Omiga {
            refusal: OmigaError::Placement {
                why: Refusal::ColoursLeft,
                x: 4,
                y: 4,
            },
        };
        let line = encode(&HostMsg::rejected(7, &why));
        let text = String::from_utf8(line.clone()).unwrap();
        assert!(
            text.contains(r#""reason":"Colours do not match on the left (3,4)""#),
            "{text}"
        );
        assert!(text.contains(r#""why":{"kind":"omiga","refusal":{"kind":"placement","why":"colours_left","x":4,"y":4}}"#), "{text}");
        assert_eq!(
            decode_host(&line[..line.len() - 1]),
            Ok(HostMsg::Rejected {
                id: 7,
                reason: why.to_string(),
                why: Some(why)
            })
        );
        // English-only reasons send no `why`.
        let line = encode(&HostMsg::ended(&NetReason::from("bye")));
        assert!(!String::from_utf8(line).unwrap().contains("why"));
    }

    /// An older joiner, which knows no `why`, reads a newer host's messages: unknown fields
    /// are ignored.
    #[test]
    fn an_older_joiner_reads_a_newer_hosts_reasons() {
        #[derive(Debug, Deserialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        enum OldHostMsg {
            Refused { reason: String },
            Rejected { id: u64, reason: String },
            Ended { reason: String },
            Error { reason: String },
        }
        for why in NetReason::examples() {
            for msg in [
                HostMsg::refused(&why),
                HostMsg::rejected(2, &why),
                HostMsg::ended(&why),
                HostMsg::error(&why),
            ] {
                let line = encode(&msg);
                let old: OldHostMsg =
                    serde_json::from_slice(&line).expect("an old device reads it");
                let reason = match old {
                    OldHostMsg::Rejected { id, reason } => {
                        assert_eq!(id, 2);
                        reason
                    }
                    OldHostMsg::Refused { reason }
                    | OldHostMsg::Ended { reason }
                    | OldHostMsg::Error { reason } => reason,
                };
                assert_eq!(reason, why.to_string());
            }
        }
    }

    /// A `why` this version cannot read (a newer kind, a wrong shape, junk, numbers out of
    /// range) never breaks the message: it reads as `None` and the English stands.
    #[test]
    fn an_unreadable_why_falls_back_to_the_english() {
        for why in [
            r#"{"kind":"meteor_strike","size":3}"#,
            r#"{"kind":"omiga","refusal":{"kind":"placement","why":"taken"}}"#,
            r#"{"kind":"omiga","refusal":{"kind":"not_in_hand","card":"ZZ-ZZ"}}"#,
            r#"{"kind":"omiga","refusal":{"kind":"placement","why":"upside_down","x":1,"y":1}}"#,
            r#"{"kind":"no_hello","ms":-5}"#,
            r#"{"kind":"flood","per_second":"fast"}"#,
            r#"{"nokind":true}"#,
            r#""wrong_code""#,
            "42",
            "null",
            "[1,2,3]",
            r#"{"kind":"refused_device","why":{"kind":"refused_device","why":7}}"#,
        ] {
            for template in [
                r#"{"type":"rejected","id":4,"reason":"That cell is taken","why":WHY}"#,
                r#"{"type":"refused","reason":"That cell is taken","why":WHY}"#,
                r#"{"type":"ended","reason":"That cell is taken","why":WHY}"#,
                r#"{"type":"error","reason":"That cell is taken","why":WHY}"#,
            ] {
                let line = template.replace("WHY", why);
                let msg = decode_host(line.as_bytes()).unwrap_or_else(|e| panic!("{line}: {e}"));
                let (reason, got) = match msg {
                    HostMsg::Rejected { reason, why, .. }
                    | HostMsg::Refused { reason, why }
                    | HostMsg::Ended { reason, why }
                    | HostMsg::Error { reason, why } => (reason, why),
                    other => panic!("{other:?}"),
                };
                assert_eq!(got, None, "{line}");
                assert_eq!(
                    super::super::reason::heard(reason, got).to_string(),
                    "That cell is taken"
                );
            }
        }
        // A well-formed reason with numbers no table has reads, and words without panic.
        let line = br#"{"type":"rejected","id":1,"reason":"x","why":{"kind":"omiga","refusal":{"kind":"placement","why":"colours_left","x":-2147483648,"y":2147483647}}}"#;
        let Ok(HostMsg::Rejected { why: Some(why), .. }) = decode_host(line) else {
            panic!("in range for i32, so it reads");
        };
        assert!(why.to_string().contains("-2147483648"));
        let line = br#"{"type":"rejected","id":1,"reason":"x","why":{"kind":"omiga","refusal":{"kind":"placement","why":"figures_above","x":0,"y":2147483647}}}"#;
        let Ok(HostMsg::Rejected { why: Some(why), .. }) = decode_host(line) else {
            panic!("in range for i32, so it reads");
        };
        assert!(why.to_string().contains("2147483647"));
    }

    /// Random bytes, random JSON-ish fragments and mutated real messages never panic the
    /// decoders or the line reader, and never decode into anything but a real message.
    #[test]
    fn random_bytes_never_panic_the_decoder() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
        let real = [
            encode(&ClientMsg::Hello {
                version: 1,
                code: "1234".into(),
                resume: Some("ab".into()),
            }),
            encode(&ClientMsg::Act {
                id: 1,
                action: "place PN-GK@4,6".into(),
            }),
            encode(&HostMsg::Rejected {
                id: 3,
                reason: "taken".into(),
                why: None,
            }),
            encode(&HostMsg::rejected(
                3,
                &NetReason::Omiga {
                    refusal: crate::games::omiga::OmigaError::Placement {
                        why: crate::games::omiga::Refusal::FiguresBelow,
                        x: 3,
                        y: 0,
                    },
                },
            )),
            encode(&HostMsg::refused(&NetReason::RefusedDevice {
                why: Box::new(NetReason::NoHello { ms: 5000 }),
            })),
        ];
        let alphabet = b"{}[]\":,0123456789abcdefghijklmnopqrstuvwxyz-_@ \n\\\xff\x00";
        let mut decoded = 0;
        for i in 0..20_000 {
            let bytes: Vec<u8> = match i % 3 {
                0 => (0..rng.random_range(0..64)).map(|_| rng.random()).collect(),
                1 => (0..rng.random_range(0..64))
                    .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                    .collect(),
                _ => {
                    let mut b = real[rng.random_range(0..real.len())].clone();
                    for _ in 0..rng.random_range(1..4) {
                        let at = rng.random_range(0..b.len());
                        b[at] = rng.random();
                    }
                    b
                }
            };
            if let Ok(msg) = decode_client(&bytes) {
                // Whatever decodes must spell back to a message that decodes the same.
                let again = encode(&msg);
                assert_eq!(decode_client(&again[..again.len() - 1]), Ok(msg));
                decoded += 1;
            }
            // A reason that decodes (mutated or not) words without panicking.
            if let Ok(
                HostMsg::Rejected { why: Some(w), .. } | HostMsg::Refused { why: Some(w), .. },
            ) = decode_host(&bytes)
            {
                let _ = w.to_string();
            }
            let mut reader = LineReader::with_limit(&bytes[..], 32);
            for _ in 0..70 {
                match reader.read_line() {
                    Ok(Read1::Line(line)) => assert!(line.len() <= 32),
                    Ok(Read1::Idle) => unreachable!("a slice never times out"),
                    Err(_) => break,
                }
            }
        }
        // Mutations that hit the string contents keep real messages valid.
        assert!(decoded > 0);
    }
}
