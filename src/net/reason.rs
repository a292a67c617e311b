//! Why the network refused, rejected, paused or ended something, typed, so that each
//! device words it in its own player's language (the app through ui/texts/lan.slint and
//! ui/refusals.slint) while `Display` stays the English that `hotseat host` / `join` print
//! and that goes on the wire as `reason`.
//!
//! On the wire a host's `refused`, `rejected`, `ended` and `error` carry the English
//! `reason` and, beside it, `why`: this enum as JSON. A device that cannot read `why` (an
//! older version, a newer reason, a wrong shape) keeps the English: [`lenient`] reads it
//! as `None`, never as a broken message, and [`heard`] falls back to `Other`.

use super::pairing::PairingError;
use super::wire::ProtocolError;
use crate::games::omiga::OmigaError;
use crate::games::{RuleError, Seat};
use serde::{Deserialize, Deserializer, Serialize};

/// Milliseconds as the English says seconds ("5", "0.3").
fn secs(ms: &u64) -> f64 {
    *ms as f64 / 1000.0
}

/// Why, typed; `Display` is the English (docs/network.md quotes it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NetReason {
    /// The rules of Omiga refused the move (the app words it with `ui::refusals`).
    #[error("{refusal}")]
    Omiga {
        /// The rules core's refusal.
        refusal: OmigaError,
    },
    /// The game on the table has ended (the rules core's `RuleError::GameOver`).
    #[error("the game is over")]
    RuleGameOver,
    /// Another seat is to act (the rules core's `RuleError::NotYourTurn`).
    #[error("it is not seat {seat}'s turn")]
    NotYourTurn {
        /// The seat that tried.
        seat: Seat,
    },
    /// No such seat (the rules core's `RuleError::NoSeat`).
    #[error("there is no seat {seat} in this game (seats 0 to {last})")]
    NoSeat {
        /// The seat asked for.
        seat: Seat,
        /// The game's last seat.
        last: Seat,
    },

    /// The two devices speak different protocol versions.
    #[error(
        "this host speaks protocol version {host}, the device speaks {device}: update the app"
    )]
    Version {
        /// The host's version.
        host: u32,
        /// The joining device's version.
        device: u32,
    },
    /// The join code does not match the host's.
    #[error("wrong join code")]
    WrongCode,
    /// The device comes back to a game this host no longer has.
    #[error("the game this device was in is over: the host no longer has it")]
    HostForgot,
    /// The game has its second player already.
    #[error("another device has already joined this game")]
    AlreadyJoined,
    /// The game waits for its own dropped player, nobody else.
    #[error("this game is waiting for its own player to come back")]
    AwaitingOwnPlayer,
    /// The pairing is over.
    #[error("this game is over")]
    PairingOver,
    /// A connection said nothing usable in time.
    #[error("no hello within {} s", secs(.ms))]
    NoHello {
        /// The hello time, in milliseconds.
        ms: u64,
    },
    /// Too many strangers at once; the oldest is pushed out.
    #[error("too many devices are connecting at once; try again")]
    Crowded,
    /// The first message was not a hello.
    #[error("say hello first (version and join code)")]
    HelloFirst,
    /// A second hello on a joined connection.
    #[error("already joined: hello is only the first message")]
    HelloTwice,

    /// An action number at or below one already applied.
    #[error("this action was already received")]
    AlreadyReceived,
    /// Actions faster than the rate limit.
    #[error("too many actions: at most {per_second} a second")]
    Flood {
        /// The sustained rate allowed.
        per_second: f64,
    },
    /// Nobody has joined yet.
    #[error("wait for the other device to join")]
    WaitForJoin,
    /// The connection is lost; the game waits.
    #[error("the game is paused: connection lost — waiting")]
    Paused,
    /// The countdown still runs.
    #[error("wait for the countdown to end")]
    Countdown,
    /// A rematch asked too early or alone.
    #[error("a rematch is possible once the game is over, with both devices here")]
    RematchNotNow,
    /// The joined device's last action has no answer yet.
    #[error("wait for the answer to your last action")]
    AwaitAnswer,
    /// The joined device is trying to come back.
    #[error("the connection is lost; wait until it comes back")]
    WaitForReconnect,
    /// A rematch while the connection is down.
    #[error("a rematch needs both devices connected")]
    RematchNeedsBoth,

    /// The host's player left.
    #[error("the host left the game")]
    HostLeft,
    /// The joined device's player left.
    #[error("the other player left the game")]
    OtherLeft,
    /// The joined device did not come back in time.
    #[error("the other device did not come back within {secs} s; the game ends here")]
    DeviceGone {
        /// The resume time.
        secs: u64,
    },
    /// The same, and the game went to the history as unfinished.
    #[error("the other device did not come back within {secs} s; the game ends here; it is kept in the history as unfinished")]
    DeviceGoneKept {
        /// The resume time.
        secs: u64,
    },
    /// The host did not come back in time.
    #[error("the host did not come back within {secs} s; the game is over")]
    HostGone {
        /// The resume time.
        secs: u64,
    },
    /// The host refused this device's comeback.
    #[error("the host did not take this device back: {why}")]
    NotTakenBack {
        /// The host's reason.
        why: Box<NetReason>,
    },

    /// The joined device sent nothing for too long.
    #[error("the other device was silent for {} s", secs(.ms))]
    DeviceSilent {
        /// The silence, in milliseconds.
        ms: u64,
    },
    /// The host sent nothing for too long.
    #[error("the host was silent for {} s", secs(.ms))]
    HostSilent {
        /// The silence, in milliseconds.
        ms: u64,
    },
    /// The joined device closed its end.
    #[error("the other device closed the connection")]
    DeviceClosed,
    /// The host closed its end before welcoming.
    #[error("the host closed the connection")]
    HostClosed,
    /// The host said nothing after the hello.
    #[error("the host did not answer")]
    HostMute,
    /// An action's answer did not come in time.
    #[error("no answer from the host")]
    NoReply,
    /// The other end does not speak this protocol.
    #[error("the host did not answer as a Hotseat host does")]
    NotAHost,
    /// A second welcome on one connection.
    #[error("the host welcomed this device twice")]
    WelcomedTwice,
    /// This device cut its own connection (asleep, tests).
    #[error("this device went away")]
    WentAway,
    /// The joined device cannot be written to.
    #[error("cannot reach the other device: {detail}")]
    CannotReachDevice {
        /// The system's words.
        detail: String,
    },
    /// The host cannot be connected to.
    #[error("{addr}: {detail}")]
    CannotReachHost {
        /// The host's address.
        addr: String,
        /// The system's words.
        detail: String,
    },
    /// Sending an action broke the connection.
    #[error("the connection dropped while sending: {why}")]
    SendDropped {
        /// Why it broke.
        why: Box<NetReason>,
    },
    /// The connection's lock was poisoned (a thread died).
    #[error("the connection broke")]
    Broke,
    /// The host's first answer could not be read.
    #[error("from the host: {problem}")]
    FromHost {
        /// What was wrong with it.
        problem: Box<NetReason>,
    },
    /// A later message from the host could not be read.
    #[error("unreadable message from the host: {problem}")]
    Unreadable {
        /// What was wrong with it.
        problem: Box<NetReason>,
    },
    /// A line could not be read or used (the protocol's own errors).
    #[error("{problem}")]
    Protocol {
        /// The protocol error.
        problem: ProtocolError,
    },
    /// Two browsers' pairing code could not be made or read (`net::pairing`).
    #[error("{problem}")]
    Pairing {
        /// What is wrong with the code.
        problem: PairingError,
    },
    /// The host's core has stopped.
    #[error("the host has stopped")]
    Stopped,

    /// The host refused a connection (told to the host's player).
    #[error("refused a device: {why}")]
    RefusedDevice {
        /// Why.
        why: Box<NetReason>,
    },
    /// The host refused a flood of actions (told to the host's player).
    #[error("refused a flood: {why}")]
    RefusedFlood {
        /// Why.
        why: Box<NetReason>,
    },
    /// The host refused a message it could not use (told to the host's player).
    #[error("refused a message: {why}")]
    RefusedMessage {
        /// Why.
        why: Box<NetReason>,
    },
    /// A hello whose device had already given up.
    #[error("ignored a connection its device had already given up")]
    StaleHello,
    /// A device that came back could not take its welcome.
    #[error("a device that came back was lost again at once: {detail}")]
    LostAgain {
        /// The system's words.
        detail: String,
    },
    /// The rematch's deal failed.
    #[error("cannot deal a rematch: {detail}")]
    NoRematchDeal {
        /// The rules core's words.
        detail: String,
    },
    /// The connection is lost (the host's pause), with why.
    #[error("Connection lost — waiting ({why})")]
    ConnectionLost {
        /// Why.
        why: Box<NetReason>,
    },
    /// The match could not be saved or recorded.
    #[error("{detail}")]
    NotSaved {
        /// The store's words (a file and the system's error).
        detail: String,
    },

    /// The host cannot listen.
    #[error("cannot listen on {addr}: {detail}")]
    CannotListen {
        /// Where it tried.
        addr: String,
        /// The system's words.
        detail: String,
    },
    /// A join code that is not 4 digits.
    #[error("the join code must be 4 digits, got '{got}'")]
    BadCode {
        /// What was given (at most 12 characters).
        got: String,
    },
    /// A saved LAN game that cannot go on.
    #[error("the saved LAN game: {detail}")]
    BadSave {
        /// What is wrong with it.
        detail: String,
    },
    /// Beacons cannot be sent.
    #[error("cannot announce: {detail}")]
    CannotAnnounce {
        /// The system's words.
        detail: String,
    },
    /// Beacons cannot be heard.
    #[error("cannot listen for hosts on {addr}: {detail}")]
    CannotBrowse {
        /// Where it tried.
        addr: String,
        /// The system's words.
        detail: String,
    },

    /// English only, by design: the command line's words, a move's notation, or a reason
    /// from another version this one cannot read.
    #[error("{text}")]
    Other {
        /// The English.
        text: String,
    },
}

impl From<String> for NetReason {
    fn from(text: String) -> Self {
        NetReason::Other { text }
    }
}

impl From<&str> for NetReason {
    fn from(text: &str) -> Self {
        NetReason::Other { text: text.into() }
    }
}

impl From<ProtocolError> for NetReason {
    fn from(problem: ProtocolError) -> Self {
        NetReason::Protocol { problem }
    }
}

impl From<PairingError> for NetReason {
    fn from(problem: PairingError) -> Self {
        NetReason::Pairing { problem }
    }
}

impl From<RuleError> for NetReason {
    /// A refusal of the rules core; what only the referee meets (notation) stays English.
    fn from(e: RuleError) -> Self {
        match e {
            RuleError::Omiga(refusal) => NetReason::Omiga { refusal },
            RuleError::GameOver => NetReason::RuleGameOver,
            RuleError::NotYourTurn { seat } => NetReason::NotYourTurn { seat },
            RuleError::NoSeat { seat, last } => NetReason::NoSeat { seat, last },
            other => NetReason::Other {
                text: other.to_string(),
            },
        }
    }
}

impl NetReason {
    /// The rules core's refusal this is, if it is one (the app words it as a refusal).
    pub fn rule(&self) -> Option<RuleError> {
        match self {
            NetReason::Omiga { refusal } => Some(RuleError::Omiga(refusal.clone())),
            NetReason::RuleGameOver => Some(RuleError::GameOver),
            NetReason::NotYourTurn { seat } => Some(RuleError::NotYourTurn { seat: *seat }),
            NetReason::NoSeat { seat, last } => Some(RuleError::NoSeat {
                seat: *seat,
                last: *last,
            }),
            _ => None,
        }
    }

    /// What goes on the wire as `why`: nothing for English-only reasons (the `reason`
    /// beside it says all there is).
    pub fn wire(&self) -> Option<NetReason> {
        match self {
            NetReason::Other { .. } => None,
            typed => Some(typed.clone()),
        }
    }

    /// One of every variant (with every protocol error and every Omiga refusal), for
    /// tests/translations.rs, which proves each has a Russian text. The `match` below has
    /// no wildcard, so a new variant does not compile until it is listed here.
    pub fn examples() -> Vec<NetReason> {
        let why = || Box::new(NetReason::WrongCode);
        let detail = || "Connection refused (os error 111)".to_string();
        let addr = || "192.168.1.20:40123".to_string();
        let mut all: Vec<NetReason> = OmigaError::examples()
            .into_iter()
            .map(|refusal| NetReason::Omiga { refusal })
            .collect();
        all.extend([
            NetReason::RuleGameOver,
            NetReason::NotYourTurn { seat: 1 },
            NetReason::NoSeat { seat: 2, last: 1 },
            NetReason::Version { host: 1, device: 2 },
            NetReason::WrongCode,
            NetReason::HostForgot,
            NetReason::AlreadyJoined,
            NetReason::AwaitingOwnPlayer,
            NetReason::PairingOver,
            NetReason::NoHello { ms: 5000 },
            NetReason::Crowded,
            NetReason::HelloFirst,
            NetReason::HelloTwice,
            NetReason::AlreadyReceived,
            NetReason::Flood { per_second: 20.0 },
            NetReason::WaitForJoin,
            NetReason::Paused,
            NetReason::Countdown,
            NetReason::RematchNotNow,
            NetReason::AwaitAnswer,
            NetReason::WaitForReconnect,
            NetReason::RematchNeedsBoth,
            NetReason::HostLeft,
            NetReason::OtherLeft,
            NetReason::DeviceGone { secs: 60 },
            NetReason::DeviceGoneKept { secs: 60 },
            NetReason::HostGone { secs: 60 },
            NetReason::NotTakenBack { why: why() },
            NetReason::DeviceSilent { ms: 5000 },
            NetReason::HostSilent { ms: 5000 },
            NetReason::DeviceClosed,
            NetReason::HostClosed,
            NetReason::HostMute,
            NetReason::NoReply,
            NetReason::NotAHost,
            NetReason::WelcomedTwice,
            NetReason::WentAway,
            NetReason::CannotReachDevice { detail: detail() },
            NetReason::CannotReachHost {
                addr: addr(),
                detail: detail(),
            },
            NetReason::SendDropped { why: why() },
            NetReason::Broke,
            NetReason::FromHost { problem: why() },
            NetReason::Unreadable { problem: why() },
            NetReason::Stopped,
            NetReason::RefusedDevice { why: why() },
            NetReason::RefusedFlood { why: why() },
            NetReason::RefusedMessage { why: why() },
            NetReason::StaleHello,
            NetReason::LostAgain { detail: detail() },
            NetReason::NoRematchDeal {
                detail: "give both decks".into(),
            },
            NetReason::ConnectionLost { why: why() },
            NetReason::NotSaved {
                detail: "cannot write /data/lan-host.json".into(),
            },
            NetReason::CannotListen {
                addr: addr(),
                detail: detail(),
            },
            NetReason::BadCode { got: "12a".into() },
            NetReason::BadSave {
                detail: "table=9x9".into(),
            },
            NetReason::CannotAnnounce { detail: detail() },
            NetReason::CannotBrowse {
                addr: addr(),
                detail: detail(),
            },
        ]);
        all.extend(
            [
                ProtocolError::TooLong,
                ProtocolError::NotText,
                ProtocolError::Malformed("expected value at line 1 column 1".into()),
                ProtocolError::Closed,
                ProtocolError::ClosedMidLine,
                ProtocolError::Silent(5),
                ProtocolError::Io(detail()),
            ]
            .into_iter()
            .map(NetReason::from),
        );
        all.extend(PairingError::examples().into_iter().map(NetReason::from));
        for r in &all {
            match r {
                NetReason::Omiga { .. }
                | NetReason::RuleGameOver
                | NetReason::NotYourTurn { .. }
                | NetReason::NoSeat { .. }
                | NetReason::Version { .. }
                | NetReason::WrongCode
                | NetReason::HostForgot
                | NetReason::AlreadyJoined
                | NetReason::AwaitingOwnPlayer
                | NetReason::PairingOver
                | NetReason::NoHello { .. }
                | NetReason::Crowded
                | NetReason::HelloFirst
                | NetReason::HelloTwice
                | NetReason::AlreadyReceived
                | NetReason::Flood { .. }
                | NetReason::WaitForJoin
                | NetReason::Paused
                | NetReason::Countdown
                | NetReason::RematchNotNow
                | NetReason::AwaitAnswer
                | NetReason::WaitForReconnect
                | NetReason::RematchNeedsBoth
                | NetReason::HostLeft
                | NetReason::OtherLeft
                | NetReason::DeviceGone { .. }
                | NetReason::DeviceGoneKept { .. }
                | NetReason::HostGone { .. }
                | NetReason::NotTakenBack { .. }
                | NetReason::DeviceSilent { .. }
                | NetReason::HostSilent { .. }
                | NetReason::DeviceClosed
                | NetReason::HostClosed
                | NetReason::HostMute
                | NetReason::NoReply
                | NetReason::NotAHost
                | NetReason::WelcomedTwice
                | NetReason::WentAway
                | NetReason::CannotReachDevice { .. }
                | NetReason::CannotReachHost { .. }
                | NetReason::SendDropped { .. }
                | NetReason::Broke
                | NetReason::FromHost { .. }
                | NetReason::Unreadable { .. }
                | NetReason::Stopped
                | NetReason::RefusedDevice { .. }
                | NetReason::RefusedFlood { .. }
                | NetReason::RefusedMessage { .. }
                | NetReason::StaleHello
                | NetReason::LostAgain { .. }
                | NetReason::NoRematchDeal { .. }
                | NetReason::ConnectionLost { .. }
                | NetReason::NotSaved { .. }
                | NetReason::CannotListen { .. }
                | NetReason::BadCode { .. }
                | NetReason::BadSave { .. }
                | NetReason::CannotAnnounce { .. }
                | NetReason::CannotBrowse { .. }
                // PairingError::examples lists each of its own.
                | NetReason::Pairing { .. } => {}
                NetReason::Protocol { problem } => match problem {
                    ProtocolError::TooLong
                    | ProtocolError::NotText
                    | ProtocolError::Malformed(_)
                    | ProtocolError::Closed
                    | ProtocolError::ClosedMidLine
                    | ProtocolError::Silent(_)
                    | ProtocolError::Io(_) => {}
                },
                // Not worded: it stays English by design.
                NetReason::Other { .. } => {}
            }
        }
        all
    }
}

/// The reason a device heard: the typed `why` when it could be read, else the English
/// `reason` as it came (an older host, or a reason this version does not know).
pub fn heard(reason: String, why: Option<NetReason>) -> NetReason {
    why.unwrap_or(NetReason::Other { text: reason })
}

/// Reads the optional `why` of a host's message without ever failing the message: a
/// value that is not a reason this version knows (an unknown kind, a wrong shape, a
/// hostile peer's junk) is `None`, and the English `reason` beside it stands.
pub fn lenient<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NetReason>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(serde_json::from_value(value).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_round_trips_through_json() {
        for r in NetReason::examples() {
            let json = serde_json::to_string(&r).unwrap();
            let back: NetReason = serde_json::from_str(&json).unwrap();
            assert_eq!(back, r, "{json}");
            assert_eq!(back.to_string(), r.to_string());
        }
    }

    #[test]
    fn the_english_is_what_the_headless_commands_always_printed() {
        assert_eq!(
            NetReason::NoHello { ms: 300 }.to_string(),
            "no hello within 0.3 s"
        );
        assert_eq!(
            NetReason::DeviceSilent { ms: 5000 }.to_string(),
            "the other device was silent for 5 s"
        );
        assert_eq!(
            NetReason::Flood { per_second: 20.0 }.to_string(),
            "too many actions: at most 20 a second"
        );
        assert_eq!(
            NetReason::from(ProtocolError::TooLong).to_string(),
            "message longer than 16384 bytes"
        );
        assert_eq!(
            NetReason::RefusedDevice {
                why: Box::new(NetReason::WrongCode)
            }
            .to_string(),
            "refused a device: wrong join code"
        );
    }

    #[test]
    fn rule_refusals_keep_their_type_and_notation_errors_stay_english() {
        let e = OmigaError::examples().remove(0);
        let r = NetReason::from(RuleError::Omiga(e.clone()));
        assert_eq!(r.rule(), Some(RuleError::Omiga(e)));
        let r = NetReason::from(RuleError::new("'fly' is not an Omiga action"));
        assert_eq!(r.rule(), None);
        assert_eq!(r.wire(), None);
        assert_eq!(r.to_string(), "'fly' is not an Omiga action");
    }
}
