//! Two-device Omiga over the local network (issue 6): the wire `protocol`, the `host`
//! (the authority, White), the `client` (the joined device, Black), `discovery` on the LAN,
//! the `headless` `host`/`join` commands that play through the referee notation, and the
//! `pairing` text two browsers exchange by QR code (issue 31) and its `qr` code.
//! docs/network.md describes the messages, limits, timeouts and choices.

pub mod channel;
pub mod client;
pub mod discovery;
pub mod headless;
#[cfg(all(feature = "webrtc", not(target_arch = "wasm32")))]
pub mod headless_rtc;
pub mod host;
pub mod host_match;
pub mod hosting;
pub mod joiner;
pub mod mem_pair;
pub mod page;
pub mod pairing;
pub mod protocol;
pub mod qr;
pub mod reason;
#[cfg(target_arch = "wasm32")]
pub mod rtc;
#[cfg(all(feature = "webrtc", not(target_arch = "wasm32")))]
pub mod rtc_native;
pub mod saved;
#[cfg(test)]
mod sim_tests;
pub mod wire;

pub use client::{legal_from_view, Client, ClientEvent};
pub use host::{Host, HostConfig, HostEvent};
pub use host_match::{HostMatch, HostOut, MatchSetup};
pub use joiner::{Joiner, JoinerEvent};
pub use protocol::{RateLimit, Timing};
pub use reason::NetReason;

/// Why a network operation failed: the typed reason, whose `Display` is the English.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NetError {
    /// The host could not start or the command line was wrong.
    #[error("{0}")]
    Setup(NetReason),
    /// The other side refused (a wrong code, a full game, an illegal action).
    #[error("{0}")]
    Refused(NetReason),
    /// The connection failed or broke.
    #[error("{0}")]
    Connection(NetReason),
    /// The host has stopped.
    #[error("the host has stopped")]
    Stopped,
}

impl NetError {
    /// Why, typed (the app words it in its player's language).
    pub fn reason(&self) -> NetReason {
        match self {
            NetError::Setup(r) | NetError::Refused(r) | NetError::Connection(r) => r.clone(),
            NetError::Stopped => NetReason::Stopped,
        }
    }
}
