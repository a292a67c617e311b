//! The idle timer: after `limit` without input the game asks "Still playing?", and
//! `grace` later without an answer the table is cleared for the next group.

use crate::platform::time::{Duration, Instant};

/// Idle time before the question, unless staff set another.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(120);
/// How long the question waits for an answer.
pub const STILL_PLAYING_GRACE: Duration = Duration::from_secs(30);

/// What the screen should do after a tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdleStep {
    /// Nothing changes.
    Nothing,
    /// Show "Still playing?" now.
    Ask,
    /// Nobody answered: back to the welcome screen, the game discarded.
    Return,
}

/// When the last input came, and whether the question is up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Idle {
    /// Idle time before the question.
    pub limit: Duration,
    /// Time the question waits.
    pub grace: Duration,
    last_input: Instant,
    asked_at: Option<Instant>,
}

impl Idle {
    /// A timer that last saw input at `now`.
    pub fn new(limit: Duration, now: Instant) -> Self {
        Idle {
            limit,
            grace: STILL_PLAYING_GRACE,
            last_input: now,
            asked_at: None,
        }
    }

    /// Any input at `now` (a tap, a key, an answer to the question).
    pub fn input(&mut self, now: Instant) {
        self.last_input = self.last_input.max(now);
        self.asked_at = None;
    }

    /// Whether the question is up.
    pub fn asking(&self) -> bool {
        self.asked_at.is_some()
    }

    /// How long the question still waits at `now` (`None`: it is not up).
    pub fn answer_left(&self, now: Instant) -> Option<Duration> {
        self.asked_at.map(|asked| {
            self.grace
                .saturating_sub(now.saturating_duration_since(asked))
        })
    }

    /// Advances to `now`.
    pub fn tick(&mut self, now: Instant) -> IdleStep {
        match self.asked_at {
            Some(asked) if now.saturating_duration_since(asked) >= self.grace => {
                self.asked_at = None;
                self.last_input = now;
                IdleStep::Return
            }
            Some(_) => IdleStep::Nothing,
            None if now.saturating_duration_since(self.last_input) >= self.limit => {
                self.asked_at = Some(now);
                IdleStep::Ask
            }
            None => IdleStep::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asks_after_the_limit_then_returns_after_the_grace() {
        let t0 = Instant::now();
        let mut idle = Idle::new(DEFAULT_IDLE, t0);
        assert_eq!(idle.tick(t0 + Duration::from_secs(119)), IdleStep::Nothing);
        let asked = t0 + DEFAULT_IDLE;
        assert_eq!(idle.tick(asked), IdleStep::Ask);
        assert!(idle.asking());
        assert_eq!(
            idle.answer_left(asked + Duration::from_secs(10)),
            Some(Duration::from_secs(20))
        );
        assert_eq!(
            idle.tick(asked + Duration::from_secs(29)),
            IdleStep::Nothing
        );
        assert_eq!(idle.tick(asked + STILL_PLAYING_GRACE), IdleStep::Return);
        assert!(!idle.asking());
    }

    #[test]
    fn input_puts_the_question_away_and_restarts_the_wait() {
        let t0 = Instant::now();
        let mut idle = Idle::new(Duration::from_secs(60), t0);
        assert_eq!(idle.tick(t0 + Duration::from_secs(60)), IdleStep::Ask);
        idle.input(t0 + Duration::from_secs(70));
        assert!(!idle.asking());
        assert_eq!(idle.tick(t0 + Duration::from_secs(129)), IdleStep::Nothing);
        assert_eq!(idle.tick(t0 + Duration::from_secs(130)), IdleStep::Ask);
    }
}
