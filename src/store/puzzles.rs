//! The daily puzzles' results (`puzzles.json`): per game and day, the tries, whether it
//! was solved or given up, and IOTA's best score; from them a streak and the last 30
//! days' archive. A kiosk keeps its book in memory only ([`PuzzleBook::save`] is given no
//! folder there), so nothing is written on a shared tablet.

use super::write_atomically;
use crate::games::registry::GameKind;
use crate::platform::storage;
use crate::puzzles::{Day, Puzzle, Verdict};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The results file in the data folder.
pub const PUZZLES_FILE: &str = "puzzles.json";
/// Days of results kept (older ones go when the book is saved).
pub const KEEP_DAYS: i64 = 400;
/// Days the archive offers, today included.
pub const ARCHIVE_DAYS: i64 = 30;

/// One game's result on one day.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayResult {
    /// The game's name (`iota`, `ovo`, `omiga`).
    pub game: String,
    /// The day (days since 1970-01-01).
    pub day: i64,
    /// Legal tries made (a refused one does not count).
    pub tries: u32,
    /// Solved (on the puzzle's own day or later, from the archive).
    pub solved: bool,
    /// Given up before solving: the answer was shown.
    pub gave_up: bool,
    /// IOTA: the best score of the tries.
    pub score: Option<u32>,
    /// IOTA: the puzzle's best score, for "23 of 31".
    pub best: Option<u32>,
    /// Seconds the solve took on the clock (Omiga's optional clock; `None`: no clock).
    #[serde(default)]
    pub seconds: Option<u32>,
}

/// Every result kept, in the order first met.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleBook {
    /// The results.
    pub results: Vec<DayResult>,
}

impl PuzzleBook {
    /// Reads the book from `dir`. A missing file is an empty book; a damaged one reads as
    /// empty with a log line, and is set aside by the next save rather than overwritten.
    pub fn load(dir: &Path) -> (PuzzleBook, Option<String>) {
        let path = dir.join(PUZZLES_FILE);
        match storage::read(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (PuzzleBook::default(), None),
            Err(e) => (
                PuzzleBook::default(),
                Some(format!("puzzles: could not read {}: {e}", path.display())),
            ),
            Ok(bytes) => match serde_json::from_slice(&bytes) {
                Ok(book) => (book, None),
                Err(e) => (
                    PuzzleBook::default(),
                    Some(format!("puzzles: {} is damaged: {e}", path.display())),
                ),
            },
        }
    }

    /// Writes the book to `dir`, dropping results older than [`KEEP_DAYS`] before
    /// `today`; with no folder (a kiosk) nothing is written.
    pub fn save(&mut self, dir: Option<&Path>, today: Day) -> std::io::Result<()> {
        self.results.retain(|r| r.day > today.0 - KEEP_DAYS);
        let Some(dir) = dir else {
            return Ok(());
        };
        let path = dir.join(PUZZLES_FILE);
        if storage::exists(&path) && Self::load(dir).1.is_some() {
            storage::rename(&path, &dir.join("puzzles.broken.json"))?;
        }
        let json = serde_json::to_vec(self)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        write_atomically(&path, &json)
    }

    /// The result of `kind` on `day`, if any try was made.
    pub fn get(&self, kind: GameKind, day: Day) -> Option<&DayResult> {
        self.results
            .iter()
            .find(|r| r.game == kind.name() && r.day == day.0)
    }

    fn entry(&mut self, puzzle: &Puzzle) -> &mut DayResult {
        let (game, day) = (puzzle.kind.name(), puzzle.day.0);
        let at = match self
            .results
            .iter()
            .position(|r| r.game == game && r.day == day)
        {
            Some(at) => at,
            None => {
                self.results.push(DayResult {
                    game: game.to_string(),
                    day,
                    best: match puzzle.goal {
                        crate::puzzles::Goal::BestScore { best } => Some(best),
                        crate::puzzles::Goal::WinNow => None,
                    },
                    ..DayResult::default()
                });
                self.results.len() - 1
            }
        };
        &mut self.results[at]
    }

    /// Notes a judged try of `puzzle`: legal tries count, a solve stays a solve.
    pub fn note_try(&mut self, puzzle: &Puzzle, verdict: &Verdict) {
        let (counts, solved, score) = match verdict {
            Verdict::Solved { score } => (true, true, *score),
            Verdict::Scored { score, .. } => (true, false, Some(*score)),
            Verdict::DoesNotWin => (true, false, None),
            Verdict::Refused(_) | Verdict::Finished => (false, false, None),
        };
        if !counts {
            return;
        }
        let r = self.entry(puzzle);
        if r.solved || r.gave_up {
            // Played again from the archive after the day was settled: the record stands.
            return;
        }
        r.tries += 1;
        r.solved = solved;
        if let Some(s) = score {
            r.score = Some(r.score.map_or(s, |b| b.max(s)));
        }
    }

    /// Notes the seconds a solve of `puzzle` took on the clock: kept with the solve that
    /// settled the day, never changed after.
    pub fn note_seconds(&mut self, puzzle: &Puzzle, seconds: u32) {
        let r = self.entry(puzzle);
        if r.solved && r.seconds.is_none() {
            r.seconds = Some(seconds);
        }
    }

    /// Notes that the answer of `puzzle` was shown before it was solved.
    pub fn note_gave_up(&mut self, puzzle: &Puzzle) {
        let r = self.entry(puzzle);
        if !r.solved {
            r.gave_up = true;
        }
    }

    /// Days in a row solved, counting back from `today` (or from yesterday while today's
    /// puzzle is still open, so that a streak does not look broken in the morning).
    pub fn streak(&self, kind: GameKind, today: Day) -> u32 {
        let solved = |d: Day| self.get(kind, d).is_some_and(|r| r.solved);
        let mut day = if solved(today) {
            today
        } else {
            today.previous()
        };
        let mut n = 0;
        while solved(day) {
            n += 1;
            day = day.previous();
        }
        n
    }

    /// The archive: the last [`ARCHIVE_DAYS`] days, today first, each with its result.
    pub fn archive(&self, kind: GameKind, today: Day) -> Vec<(Day, Option<&DayResult>)> {
        (0..ARCHIVE_DAYS)
            .map(|back| Day(today.0 - back))
            .map(|d| (d, self.get(kind, d)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::iota::Iota;
    use crate::puzzles::{daily, PuzzleRun};

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("hotseat-puzzles-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("a temporary folder");
        d
    }

    #[test]
    fn tries_solves_and_streaks_are_kept_and_read_back() {
        let dir = dir("keep");
        let monday = Day::from_ymd(2027, 3, 1).expect("a date");
        let mut book = PuzzleBook::default();
        for back in (0..3).rev() {
            let day = Day(monday.0 + 2 - back);
            let p = daily(GameKind::Iota, day).expect("a puzzle");
            let mut run = PuzzleRun::<Iota>::new(p.clone()).expect("valid");
            let refused = run.try_line("place Rt2@40,40");
            book.note_try(&p, &refused);
            let solved = run.try_line(&p.answers[0]);
            book.note_try(&p, &solved);
        }
        let today = Day(monday.0 + 2);
        let r = book.get(GameKind::Iota, today).expect("a result");
        assert_eq!(
            (r.tries, r.solved),
            (1, true),
            "the refused try did not count"
        );
        assert_eq!(r.score, r.best);
        assert_eq!(book.streak(GameKind::Iota, today), 3);
        assert_eq!(
            book.streak(GameKind::Iota, Day(today.0 + 1)),
            3,
            "today still open"
        );
        assert_eq!(
            book.streak(GameKind::Iota, Day(today.0 + 2)),
            0,
            "a day missed"
        );
        assert_eq!(book.streak(GameKind::Ovo, today), 0);
        book.save(Some(&dir), today).expect("saved");
        let (read, note) = PuzzleBook::load(&dir);
        assert_eq!((read, note), (book.clone(), None));
        let archive = book.archive(GameKind::Iota, today);
        assert_eq!(archive.len(), 30);
        assert_eq!(archive[0].0, today);
        assert!(archive[..3]
            .iter()
            .all(|(_, r)| r.is_some_and(|r| r.solved)));
        assert!(archive[3].1.is_none());
        std::fs::remove_dir_all(dir).expect("cleaned");
    }

    #[test]
    fn giving_up_is_kept_and_a_later_solve_does_not_undo_it() {
        let day = Day::from_ymd(2027, 3, 2).expect("a date");
        let p = daily(GameKind::Omiga, day).expect("a puzzle");
        let mut book = PuzzleBook::default();
        book.note_try(&p, &Verdict::DoesNotWin);
        book.note_gave_up(&p);
        book.note_try(&p, &Verdict::Solved { score: None });
        let r = book.get(GameKind::Omiga, day).expect("a result");
        assert_eq!((r.tries, r.solved, r.gave_up), (1, false, true));
        assert_eq!(book.streak(GameKind::Omiga, day), 0);
    }

    #[test]
    fn a_kiosk_writes_nothing_and_a_damaged_file_is_set_aside() {
        let dir = dir("kiosk");
        let day = Day::from_ymd(2027, 3, 3).expect("a date");
        let p = daily(GameKind::Ovo, day).expect("a puzzle");
        let mut book = PuzzleBook::default();
        book.note_try(&p, &Verdict::Solved { score: None });
        book.save(None, day).expect("nothing to fail");
        assert_eq!(std::fs::read_dir(&dir).expect("listed").count(), 0);
        std::fs::write(dir.join(PUZZLES_FILE), b"{\"results\": [").expect("written");
        let (empty, note) = PuzzleBook::load(&dir);
        assert!(empty.results.is_empty() && note.is_some_and(|n| n.contains("damaged")));
        book.save(Some(&dir), day).expect("saved");
        assert!(
            dir.join("puzzles.broken.json").exists(),
            "the damaged file was kept"
        );
        assert_eq!(PuzzleBook::load(&dir).0, book);
        // Results older than the kept days go.
        book.save(Some(&dir), Day(day.0 + KEEP_DAYS))
            .expect("saved");
        assert!(PuzzleBook::load(&dir).0.results.is_empty());
        std::fs::remove_dir_all(dir).expect("cleaned");
    }
}
