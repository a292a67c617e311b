//! When a match is written down: the save policy, the same for every game, screen and
//! target, free of Slint. After every change the match is saved if it changed; when it
//! has ended it goes to the history once and its save is cleared, so Continue never
//! offers a finished game. Where the bytes go is the platform's storage seam (files, or
//! the browser's storage).

use super::{history, saves};
use crate::platform::time::Instant;
use crate::session::AnySession;
use std::path::Path;

/// What is remembered about the match on screen, to keep it.
#[derive(Debug, Default)]
pub struct Keeping {
    /// How many actions the last save held (`None`: not saved yet).
    saved_actions: Option<usize>,
    /// When this match was started or resumed here (for "fastest win").
    started: Option<Instant>,
    /// The match was written to the history already (or, in a kiosk, counted).
    recorded: bool,
}

impl Keeping {
    /// A match starts or resumes on screen now.
    pub fn begin(&mut self) {
        *self = Keeping {
            started: Some(Instant::now()),
            ..Keeping::default()
        };
    }

    /// The next [`Keeping::keep`] writes the match even if it did not change (the app
    /// is leaving the screen).
    pub fn force(&mut self) {
        self.saved_actions = None;
    }

    /// Saves `game` in `dir` if it changed since the last save, and records it in the
    /// history once it has ended. On an error the game goes on in memory and the next
    /// change tries again.
    pub fn keep(&mut self, game: &dyn AnySession, dir: &Path) -> std::io::Result<()> {
        if game.is_over() && self.recorded {
            // In the history already, its save cleared: writing it again (the app paused
            // on the result screen) would offer it as Continue and record it twice.
            return Ok(());
        }
        let saved = game.saved();
        if self.saved_actions != Some(saved.actions.len()) {
            saves::save(dir, &saved)?;
            self.saved_actions = Some(saved.actions.len());
        }
        if game.is_over() {
            let now = crate::platform::time::unix_seconds();
            let duration = self.started.map(|s| s.elapsed().as_secs());
            if let Some(entry) = game.finished_entry(now, duration) {
                history::record(dir, entry)?;
                self.recorded = true;
                saves::clear(dir);
            }
        }
        Ok(())
    }

    /// A kiosk keeps no game: true once, when the match on screen has just ended (to
    /// count it).
    pub fn ended_now(&mut self, game: &dyn AnySession) -> bool {
        let now = game.is_over() && !self.recorded;
        self.recorded |= now;
        now
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ovo::{Ovo, OvoAction};
    use crate::games::Params;
    use crate::session::{Player, Session, Sharing};
    use std::path::PathBuf;

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hotseat-keeping-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_file(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir
    }

    fn match_of_two() -> Session<Ovo> {
        let players = Player::people(&["Anna", "Boris"]);
        let params = Params::new().with("players", 2).with("first", 0);
        Session::start(params, players, Sharing::PassAndPlay).expect("a match")
    }

    #[test]
    fn a_match_is_saved_as_it_changes_and_recorded_once_when_it_ends() {
        let dir = folder("end");
        let mut s = match_of_two();
        let mut keeping = Keeping::default();
        keeping.begin();
        keeping.keep(&s, &dir).expect("saved");
        assert!(saves::exists(&dir), "a new match is saved");
        s.reveal();
        s.act(0, &"a1-a2".parse().expect("a step")).expect("legal");
        keeping.keep(&s, &dir).expect("saved");
        let kept = saves::load(&dir).expect("readable").expect("a save");
        assert_eq!(kept.actions.len(), 1, "the save follows the match");
        // A wrong «Ovo!» with two players ends the game.
        s.reveal();
        s.act(1, &OvoAction::Ovo).expect("a declaration");
        assert!(s.outcome().is_over());
        keeping.keep(&s, &dir).expect("recorded");
        assert!(
            !saves::exists(&dir),
            "Continue never offers a finished game"
        );
        assert_eq!(history::list(&dir).0.len(), 1);
        // Kept again (the app paused on the result screen): nothing is written twice.
        keeping.force();
        keeping.keep(&s, &dir).expect("nothing to do");
        assert!(!saves::exists(&dir));
        assert_eq!(history::list(&dir).0.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_save_that_fails_is_said_and_tried_again_at_the_next_change() {
        let dir = folder("fail");
        std::fs::remove_dir_all(&dir).expect("removed");
        // A file where the folder should be: nothing can be written inside it.
        std::fs::write(&dir, b"not a folder").expect("a file");
        let s = match_of_two();
        let mut keeping = Keeping::default();
        keeping.begin();
        assert!(keeping.keep(&s, &dir).is_err(), "the failure is reported");
        std::fs::remove_file(&dir).expect("removed");
        std::fs::create_dir_all(&dir).expect("a folder again");
        keeping.keep(&s, &dir).expect("saved now");
        assert!(saves::exists(&dir));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_kiosk_counts_a_finished_match_once() {
        let mut s = match_of_two();
        let mut keeping = Keeping::default();
        keeping.begin();
        assert!(!keeping.ended_now(&s));
        s.reveal();
        s.act(0, &OvoAction::Ovo).expect("a declaration");
        assert!(keeping.ended_now(&s));
        assert!(!keeping.ended_now(&s), "counted once");
    }
}
