//! Who is on the other end of a host's match, as the match sees it: nobody yet, a device
//! playing over a connection (with its rate limit), one lost that may come back, or none
//! any more; and the welcome offered to a device and not yet answered.

use super::super::protocol::RateLimit;
use super::ConnId;
use crate::platform::time::Instant;

/// Who is on the other end.
#[derive(Debug)]
pub(super) enum Peer {
    /// Nobody joined yet.
    Waiting,
    /// Playing over `conn`.
    Connected {
        conn: ConnId,
        bucket: Bucket,
        last_sent: Instant,
        last_heard: Instant,
        /// The device has spoken on this connection since its welcome: only then is it
        /// really back (a welcome written into a dead connection proves nothing).
        confirmed: bool,
        /// It came back after a drop (told as `Resumed` once confirmed).
        resuming: bool,
    },
    /// Lost; may come back until `deadline`.
    Lost { deadline: Instant },
    /// The pairing is over.
    Over,
}

/// A welcome handed to the driver and not yet answered.
#[derive(Debug)]
pub(super) struct Offer {
    pub(super) conn: ConnId,
    pub(super) first: bool,
    pub(super) resuming: bool,
}

/// A token bucket for the joined device's actions.
#[derive(Debug)]
pub(super) struct Bucket {
    tokens: f64,
    at: Instant,
    rate: RateLimit,
}

impl Bucket {
    pub(super) fn new(rate: RateLimit, now: Instant) -> Self {
        Bucket {
            tokens: rate.burst,
            at: now,
            rate,
        }
    }

    /// Whether one more action may pass now (a token is taken if so).
    pub(super) fn take(&mut self, now: Instant) -> bool {
        let refill = now.saturating_duration_since(self.at).as_secs_f64() * self.rate.per_second;
        self.tokens = (self.tokens + refill).min(self.rate.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
