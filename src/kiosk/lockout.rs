//! Wrong staff PINs: a few free tries, then a lock-out that doubles with every further
//! miss (30 s, 1 min, 2 min … up to 15 min), so guessing a 4-digit PIN takes days.

use crate::platform::time::{Duration, Instant};

/// Wrong PINs allowed before the first lock-out.
pub const FREE_TRIES: u32 = 3;
/// The first lock-out.
pub const FIRST_LOCK: Duration = Duration::from_secs(30);
/// The longest lock-out.
pub const LONGEST_LOCK: Duration = Duration::from_secs(15 * 60);

/// The count of wrong PINs since the last right one, and the lock they earned.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lockout {
    failures: u32,
    locked_until: Option<Instant>,
}

impl Lockout {
    /// How long entries stay refused from `now` (`None`: a PIN may be tried).
    pub fn remaining(&self, now: Instant) -> Option<Duration> {
        self.locked_until
            .and_then(|until| until.checked_duration_since(now))
            .filter(|d| !d.is_zero())
    }

    /// A wrong PIN at `now`; returns the lock-out it starts, if any.
    pub fn fail(&mut self, now: Instant) -> Option<Duration> {
        self.failures = self.failures.saturating_add(1);
        if self.failures < FREE_TRIES {
            return None;
        }
        let doublings = (self.failures - FREE_TRIES).min(16);
        let lock = FIRST_LOCK.saturating_mul(1 << doublings).min(LONGEST_LOCK);
        self.locked_until = Some(now + lock);
        Some(lock)
    }

    /// The right PIN: the count starts again.
    pub fn succeed(&mut self) {
        *self = Lockout::default();
    }

    /// Wrong PINs since the last right one.
    pub fn failures(&self) -> u32 {
        self.failures
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_misses_lock_and_further_misses_lock_longer() {
        let t0 = Instant::now();
        let mut l = Lockout::default();
        assert_eq!(l.fail(t0), None);
        assert_eq!(l.fail(t0), None);
        assert_eq!(l.remaining(t0), None);
        assert_eq!(l.fail(t0), Some(FIRST_LOCK));
        assert_eq!(l.remaining(t0), Some(FIRST_LOCK));
        let later = t0 + FIRST_LOCK;
        assert_eq!(l.remaining(later), None);
        assert_eq!(l.fail(later), Some(FIRST_LOCK * 2));
        for _ in 0..20 {
            l.fail(later);
        }
        assert_eq!(l.remaining(later), Some(LONGEST_LOCK));
        l.succeed();
        assert_eq!(l.remaining(later), None);
        assert_eq!(l.failures(), 0);
    }
}
