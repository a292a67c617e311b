//! The clock. `std::time::Instant::now()` panics in the browser; `web-time` is the standard
//! library's own types on every other target and the browser's `performance.now()` and
//! `Date.now()` on the web, so the rest of the crate uses these names and works on both.

pub use web_time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Seconds since 1970 by the wall clock (0 if the clock is set before it): when a game was
/// played, and a seed for a new deal.
pub fn unix_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Nanoseconds since 1970 by the wall clock (0 if before): a seed that differs between
/// two games started in the same second.
pub fn unix_nanos() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}
