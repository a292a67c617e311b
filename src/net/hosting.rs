//! What the host's three drivers share: the TCP host ([`super::host`]), the thread-free
//! match it drives ([`super::host_match`]) and the headless `host`/`join` commands
//! ([`super::headless`]). Its own module so that each of them imports it and none of
//! them imports another one's internals back (issue 42: no import circle).

use super::reason::NetReason;
use super::NetError;
use crate::games::omiga::{Act, OmigaEvent, OmigaView};
use crate::games::Seat;
use crate::platform::time::Duration;

/// The host's seat (White).
pub const HOST_SEAT: Seat = 0;
/// The joined device's seat (Black).
pub const CLIENT_SEAT: Seat = 1;
/// How many connections may wait for their hello at once; a newer one pushes the oldest
/// out (a real device says hello at once, an idle stranger never does).
pub const MAX_PENDING: usize = 32;

/// A fresh random 4-digit join code.
pub fn random_code() -> String {
    use rand::Rng;
    format!("{:04}", rand::rng().random_range(0..10_000u32))
}

/// Checks that a join code is exactly 4 digits.
pub fn check_code(code: &str) -> Result<(), NetError> {
    if code.len() == 4 && code.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(NetError::Setup(NetReason::BadCode {
            got: code.chars().take(12).collect(),
        }))
    }
}

/// What the host tells its own player (the UI or the headless command).
#[derive(Debug, Clone, PartialEq)]
pub enum HostEvent {
    /// A device joined (or came back); the game runs.
    Joined,
    /// A game starts: the countdown begins now.
    Started {
        /// Which game of this pairing.
        game: u32,
        /// White's view.
        view: OmigaView,
        /// The countdown.
        countdown: Duration,
    },
    /// The other device acted.
    OpponentActed {
        /// The event as White may know it.
        event: OmigaEvent,
        /// White's view after it.
        view: OmigaView,
    },
    /// The connection was lost: the game is paused, waiting up to the resume time.
    Paused {
        /// Why.
        reason: NetReason,
    },
    /// The other device is back; the game goes on where it was.
    Resumed,
    /// The other player asks for a rematch.
    RematchOffered,
    /// The pairing is over.
    Ended {
        /// Why.
        reason: NetReason,
    },
    /// Something the host refused or noticed (a wrong code, a second joiner, a flood).
    Notice(NetReason),
}

impl HostEvent {
    /// One line for a person, no debug formats.
    pub fn describe(&self) -> String {
        match self {
            HostEvent::Joined => "joined".into(),
            HostEvent::Started {
                game, countdown, ..
            } => format!("started game {game} countdown {}", countdown.as_secs_f64()),
            HostEvent::OpponentActed { event, .. } => describe(event),
            HostEvent::Paused { reason } => format!("paused {reason}"),
            HostEvent::Resumed => "resumed".into(),
            HostEvent::RematchOffered => "rematch offered".into(),
            HostEvent::Ended { reason } => format!("ended {reason}"),
            HostEvent::Notice(n) => format!("notice {n}"),
        }
    }
}

/// One line describing an event: `placed NP-KG@4,6`, `discarded 3, drew 3`.
pub fn describe(event: &OmigaEvent) -> String {
    let mut text = match &event.act {
        Act::Placed { card, x, y, .. } => format!("seat {} placed {card}@{x},{y}", event.seat),
        Act::Discarded { count, .. } => format!("seat {} discarded {count}", event.seat),
    };
    if let Some(drew) = &event.drew {
        text.push_str(&format!(", drew {}", drew.count));
    }
    if event.outcome.is_over() {
        text.push_str(&format!("\n# outcome {}", event.outcome));
    }
    text
}
