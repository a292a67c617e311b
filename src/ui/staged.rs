//! A game's own table held still around a staged position: a lesson's step
//! (src/ui/lessons.rs) and a puzzle (src/ui/puzzles/). The board plays taps as in a game;
//! the other seats never move, nothing is taken back, and a panel above the board says
//! what the position asks. What both wrappers give the shell is the same and is written
//! here once: a wrapper says only which board it holds and how its panel is filled.

use super::play::{GameScreen, Note, Table};
use super::texts::{self, OmigaText, ShellText};
use super::AppWindow;
use crate::games::{iota::Iota, omiga::Omiga, ovo::Ovo, RuleResult, Seat};
use crate::session::{Match, Player, SeatKind};
use std::any::Any;

/// A game whose own table can be staged around a position: its screen around a match
/// and how its seats are named there.
pub(crate) trait StagedGame:
    crate::ai::Opponents + crate::sound::Sounds + Sized + 'static
{
    type Screen: GameScreen<Game = Self>;
    fn screen(session: Match<Self>) -> Self::Screen;
    /// A seat's name on a staged board (else "Player n").
    fn seat_name(_seat: Seat, _language: &str) -> Option<String> {
        None
    }

    /// The game's table around `position`: `seat` plays, every other seat is held still.
    fn staged_table(position: &str, seat: Seat, language: &str) -> RuleResult<Box<dyn Table>> {
        let seats = Self::from_position(position)?.seats();
        let players = (0..seats)
            .map(|s| Player {
                name: Self::seat_name(s, language)
                    .unwrap_or_else(|| texts::say(&ShellText::Player { n: s + 1 }, language)),
                color: s as u8,
                kind: if s == seat {
                    SeatKind::Human
                } else {
                    SeatKind::Remote
                },
                level: None,
            })
            .collect();
        let session = Match::<Self>::lesson(position, players, seat)?;
        Ok(Box::new(Self::screen(session)))
    }

    /// The game's screen on `table`, and what `seat` played there since it was staged
    /// (`None`: nothing yet, or not this game's table).
    fn played(table: &mut dyn Table, seat: Seat) -> Option<(&mut Self::Screen, String)> {
        let screen = table.as_any_mut().downcast_mut::<Self::Screen>()?;
        let line = screen
            .game_match()
            .actions()
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, line)| line.clone())?;
        Some((screen, line))
    }
}

impl StagedGame for Ovo {
    type Screen = super::ovo::OvoTable;
    fn screen(session: Match<Self>) -> Self::Screen {
        super::ovo::OvoTable::from_match(session)
    }
}

impl StagedGame for Iota {
    type Screen = super::iota::IotaTable;
    fn screen(session: Match<Self>) -> Self::Screen {
        super::iota::IotaTable::from_match(session)
    }
}

impl StagedGame for Omiga {
    type Screen = super::omiga::OmigaTable;
    fn screen(session: Match<Self>) -> Self::Screen {
        let mut table = super::omiga::OmigaTable::from_match(session);
        // No "Ready?": a staged position's words are read first, then the player acts
        // (and there is no clock).
        table.skip_countdown();
        table
    }
    fn seat_name(seat: Seat, language: &str) -> Option<String> {
        // Lessons and puzzles speak of White (the player) and Black, as the cards are.
        let name = if seat == 0 {
            OmigaText::White
        } else {
            OmigaText::Black
        };
        Some(texts::say(&name, language))
    }
}

/// A staged board: a game's table, held still, with a panel of its own.
pub(crate) trait Staging: Any {
    /// A lesson's board (`true`) or a puzzle's (`false`): neither is saved, recorded or
    /// taken back; the shell leaves each to its own screen.
    const LESSON: bool;
    /// The game's table inside.
    fn board(&self) -> &dyn Table;
    /// The game's table inside, to change it.
    fn board_mut(&mut self) -> &mut dyn Table;
    /// Fills the panel above the board.
    fn fill_panel(&self, app: &AppWindow, language: &str);
    /// Keeps what the board said of the last tap, for the wrapper to judge it.
    fn keep_told(&mut self, note: &Note);
}

/// The shell's [`Table`] for a [`Staging`] wrapper: the game's board does the work, the
/// other seats are held still, nothing is taken back. A macro rather than a blanket impl,
/// because every [`GameScreen`](super::play::GameScreen) already has one.
macro_rules! staged_table {
    ($staged:ty) => {
        impl $crate::ui::play::Table for $staged {
            fn show(&self, app: &$crate::ui::AppWindow, language: &str) {
                self.board().show(app, language);
                self.fill_panel(app, language);
            }
            fn reveal(&mut self) {
                self.board_mut().reveal();
            }
            fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
                // The game's own callbacks find their table through this, as in a game.
                self.board_mut().as_any_mut()
            }
            fn session(&self) -> &dyn $crate::session::AnySession {
                self.board().session()
            }
            fn session_mut(&mut self) -> &mut dyn $crate::session::AnySession {
                self.board_mut().session_mut()
            }
            fn bot_job(&mut self) -> Option<$crate::session::Job> {
                // The other seats are held still: a lesson moves them only by its step's replies,
                // a puzzle never.
                None
            }
            fn cancel_selection(&mut self) {
                self.board_mut().cancel_selection();
            }
            fn pause(&mut self) {
                self.board_mut().pause();
            }
            fn bot_wake(&mut self, _token: u64) {}
            fn bot_done(
                &mut self,
                _reply: $crate::session::Reply,
                _language: &str,
            ) -> $crate::ui::play::Note {
                None
            }
            fn undo(&mut self) -> $crate::games::RuleResult<()> {
                // A try that misses is put back by the wrapper itself; a passed one stays.
                Err($crate::games::RuleError::CannotTakeBack)
            }
            fn heard(&self, ear: &mut crate::sound::Ear) -> crate::sound::Heard {
                self.board().heard(ear)
            }
            fn wrapper_mut(&mut self) -> Option<&mut dyn std::any::Any> {
                Some(self)
            }
            fn is_lesson(&self) -> bool {
                <$staged as $crate::ui::staged::Staging>::LESSON
            }
            fn is_puzzle(&self) -> bool {
                !<$staged as $crate::ui::staged::Staging>::LESSON
            }
            fn told(&mut self, note: &$crate::ui::play::Note) {
                self.keep_told(note);
            }
        }
    };
}
pub(crate) use staged_table;
