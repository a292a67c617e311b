//! A puzzle a day for each game (issue 43), made from the date alone: the same puzzle on
//! every device, offline, from a generator over the real engines (never a list). No UI
//! and no clock here: the day comes in as a number (days since 1970-01-01) or a date.
//!
//! How a puzzle is made and judged (docs/puzzles.md): a seeded ChaCha stream, keyed by
//! the game and the day, stages a position through the engine's own actions; the engine
//! then enumerates every legal action of the solver's seat and plays each on a copy, so
//! the answer is proven (IOTA: every play scored, the best known; Ovo and Omiga: every
//! winning action found). A candidate whose difficulty misses the weekday's band is
//! dropped and the next attempt of the same stream is tried. Nothing that decides a
//! puzzle uses floating point or `usize`-sized random draws, so desktop, Android and the
//! browser make the same puzzle bit for bit (the digests in `tests.rs` pin it).

pub mod iota;
pub mod omiga;
pub mod ovo;
#[cfg(test)]
mod tests;

use crate::games::registry::GameKind;
use crate::games::{Game, RuleError, Seat};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

/// A calendar day: days since 1970-01-01 (negative before).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub i64);

impl Day {
    /// The day of a proleptic Gregorian date, if the date exists.
    pub fn from_ymd(year: i32, month: u32, day: u32) -> Option<Day> {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        let length = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        if day == 0 || day > length {
            return None;
        }
        // Howard Hinnant's days_from_civil: exact integer arithmetic.
        let y = i64::from(year) - i64::from(month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Day(era * 146_097 + doe - 719_468))
    }

    /// The date of this day: (year, month, day).
    pub fn ymd(self) -> (i32, u32, u32) {
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        let y = yoe + era * 400 + i64::from(m <= 2);
        (y as i32, m as u32, d as u32)
    }

    /// The day before.
    pub fn previous(self) -> Day {
        Day(self.0 - 1)
    }

    /// The weekday's level: 1 on Monday (easiest) rising to 7 on Sunday.
    pub fn level(self) -> u8 {
        // 1970-01-01 was a Thursday (level 4).
        ((self.0 + 3).rem_euclid(7) + 1) as u8
    }
}

impl std::fmt::Display for Day {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// What the solver is asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goal {
    /// IOTA: score as many points as possible this turn; `best` is the proven maximum.
    BestScore {
        /// The highest score any legal play makes.
        best: u32,
    },
    /// Ovo and Omiga: win with this action.
    WinNow,
}

/// One day's puzzle of one game, with its proven answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// Which game.
    pub kind: GameKind,
    /// The day it belongs to.
    pub day: Day,
    /// 1 (Monday) to 7 (Sunday).
    pub level: u8,
    /// The position, in the setup format of docs/rules.md §5.
    pub position: String,
    /// The seat the solver plays.
    pub seat: Seat,
    /// What the solver must do.
    pub goal: Goal,
    /// Every action that meets the goal, in the game's notation (the proven answers).
    pub answers: Vec<String>,
    /// How many legal actions the solver's seat had (the search the judge made).
    pub legal: usize,
    /// Measured difficulty: legal tries per right answer, in tenths (docs/puzzles.md).
    pub difficulty: u32,
    /// Ovo: the cells of the solver's hidden eggs, which the puzzle tells (a player would
    /// remember them; the board shows every hidden egg alike). Empty for other games.
    pub known: Vec<String>,
    /// Which attempt of the day's stream made it (for the figures in docs/puzzles.md).
    pub attempt: u32,
}

impl Puzzle {
    /// IOTA's best score (None for a puzzle to win).
    pub fn goal_best(&self) -> Option<u32> {
        match self.goal {
            Goal::BestScore { best } => Some(best),
            Goal::WinNow => None,
        }
    }

    /// A short stable fingerprint of everything that decides the puzzle: equal on every
    /// platform, so a list of them pins the generator (tests.rs, and the browser build).
    pub fn digest(&self) -> String {
        let mut h = Sha256::new();
        h.update(self.kind.name().as_bytes());
        h.update(self.day.0.to_le_bytes());
        h.update(self.position.as_bytes());
        h.update([0]);
        for a in &self.answers {
            h.update(a.as_bytes());
            h.update([0]);
        }
        for k in &self.known {
            h.update(k.as_bytes());
            h.update([1]);
        }
        if let Goal::BestScore { best } = self.goal {
            h.update(best.to_le_bytes());
        }
        h.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// Why a day's puzzle could not be made (never met for real days: tests.rs makes a year
/// of them; kept as an error so a bad edit shows as a message, not a crash).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// Every attempt of the day's stream missed the band.
    #[error("no {kind} puzzle for {day} within {attempts} attempts")]
    NoPuzzle {
        /// The game's name.
        kind: &'static str,
        /// The day.
        day: Day,
        /// How many candidates were tried.
        attempts: u32,
    },
}

/// Candidates tried per day before giving up.
pub const ATTEMPTS: u32 = 400;

/// The day's puzzle of `kind`.
pub fn daily(kind: GameKind, day: Day) -> Result<Puzzle, PuzzleError> {
    match kind {
        GameKind::Iota => iota::daily(day),
        GameKind::Ovo => ovo::daily(day),
        GameKind::Omiga => omiga::daily(day),
    }
}

/// The difficulty band of each game's level (inclusive): a puzzle of level `l` has
/// between `band(l).0` and `band(l).1` tenths of a legal try per right answer.
/// Adjacent bands do not overlap, so difficulty rises strictly from Monday to Sunday.
pub fn band(kind: GameKind, level: u8) -> (u32, u32) {
    let bands: &[(u32, u32); 7] = match kind {
        GameKind::Iota => &iota::BANDS,
        GameKind::Ovo => &ovo::BANDS,
        GameKind::Omiga => &omiga::BANDS,
    };
    bands[usize::from(level.clamp(1, 7) - 1)]
}

/// The random stream of one game's day: the same on every platform.
pub(crate) fn stream(kind: GameKind, day: Day) -> ChaCha8Rng {
    let mut seed = [0u8; 32];
    let tag = kind.name().as_bytes();
    seed[..tag.len()].copy_from_slice(tag);
    seed[16..24].copy_from_slice(&day.0.to_le_bytes());
    seed[24..].copy_from_slice(b"puzzle43");
    ChaCha8Rng::from_seed(seed)
}

/// A number in `0..n` from 32-bit draws only (a `usize` draw would differ between the
/// 32-bit browser and 64-bit machines). The slight modulo bias does not matter here.
pub(crate) fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    (rng.next_u32() % n as u32) as usize
}

/// Fisher–Yates with `pick`, portable for the same reason.
pub(crate) fn shuffle<T>(rng: &mut ChaCha8Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = pick(rng, i + 1);
        items.swap(i, j);
    }
}

/// Every legal action of `seat` that meets `wins`, and how many legal actions there were.
pub(crate) fn winners<G: Game>(
    game: &G,
    seat: Seat,
    wins: impl Fn(&G) -> bool,
) -> (Vec<G::Action>, usize) {
    let legal = game.legal_actions(seat);
    let count = legal.len();
    let won = legal
        .into_iter()
        .filter(|a| {
            let mut after = game.clone();
            after.play(seat, a).is_ok() && wins(&after)
        })
        .collect();
    (won, count)
}

/// How one try was judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It meets the goal: solved. `score` is IOTA's (equal to the best).
    Solved {
        /// IOTA: the points it scored.
        score: Option<u32>,
    },
    /// IOTA: legal and scored, but below the best ("23 of 31"). A try that counts.
    Scored {
        /// Its score.
        score: u32,
        /// The best score.
        best: u32,
    },
    /// Legal, but it does not win (Ovo: the declaration would be wrong or the move does
    /// not bring every egg home; Omiga: the card is laid but wins nothing).
    DoesNotWin,
    /// The engine refused it: its reason, said in words by the UI (`ui::refusals`).
    Refused(RuleError),
    /// The puzzle is already solved or given up.
    Finished,
}

/// A puzzle being played: tries are judged on a copy of the position, which never changes.
pub struct PuzzleRun<G: Game> {
    puzzle: Puzzle,
    game: G,
    tries: u32,
    best_try: Option<u32>,
    finished: bool,
    solved: bool,
}

impl<G: Game> PuzzleRun<G> {
    /// Sets the puzzle's position up.
    pub fn new(puzzle: Puzzle) -> Result<Self, RuleError> {
        let game = G::from_position(&puzzle.position)?;
        Ok(PuzzleRun {
            puzzle,
            game,
            tries: 0,
            best_try: None,
            finished: false,
            solved: false,
        })
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The board as the solver's seat sees it.
    pub fn view(&self) -> G::View {
        self.game.view(self.puzzle.seat)
    }

    /// The solver's legal actions (none once finished).
    pub fn legal_actions(&self) -> Vec<G::Action> {
        if self.finished {
            return Vec::new();
        }
        self.game.legal_actions(self.puzzle.seat)
    }

    /// Tries that counted (legal ones), so far.
    pub fn tries(&self) -> u32 {
        self.tries
    }

    /// IOTA: the best score of the tries so far.
    pub fn best_try(&self) -> Option<u32> {
        self.best_try
    }

    /// True once solved.
    pub fn solved(&self) -> bool {
        self.solved
    }

    /// True once solved or given up.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Gives up: the answer may be shown, and no more tries are judged.
    pub fn give_up(&mut self) -> &[String] {
        self.finished = true;
        &self.puzzle.answers
    }

    /// A try that missed with no action played: the player's clock ran out (the clock
    /// itself is the screen's, docs/puzzles.md). It counts as a try, as a wrong card would.
    pub fn time_up(&mut self) -> Verdict {
        if self.finished {
            return Verdict::Finished;
        }
        self.tries += 1;
        Verdict::DoesNotWin
    }

    /// Judges a try written in the game's notation.
    pub fn try_line(&mut self, line: &str) -> Verdict {
        match line.trim().parse::<G::Action>() {
            Ok(action) => self.try_action(&action),
            Err(reason) => Verdict::Refused(reason),
        }
    }

    /// Judges a try: played on a copy; the position stays as it was whatever happens.
    pub fn try_action(&mut self, action: &G::Action) -> Verdict {
        if self.finished {
            return Verdict::Finished;
        }
        let seat = self.puzzle.seat;
        let mut after = self.game.clone();
        if let Err(reason) = after.play(seat, action) {
            return Verdict::Refused(reason);
        }
        self.tries += 1;
        let verdict = match self.puzzle.goal {
            Goal::BestScore { best } => {
                let gained = after.scores()[seat] - self.game.scores()[seat];
                let score = u32::try_from(gained).unwrap_or(0);
                self.best_try = Some(self.best_try.map_or(score, |b| b.max(score)));
                if score >= best {
                    Verdict::Solved { score: Some(score) }
                } else {
                    Verdict::Scored { score, best }
                }
            }
            Goal::WinNow => {
                if after.outcome() == (crate::games::Outcome::Win { seat }) {
                    Verdict::Solved { score: None }
                } else {
                    Verdict::DoesNotWin
                }
            }
        };
        if matches!(verdict, Verdict::Solved { .. }) {
            self.solved = true;
            self.finished = true;
        }
        verdict
    }
}
