//! The table's sound cues, free of any device: which [`Cue`]s a change on the table
//! sounds (this file and `events.rs`), and how each cue sounds (`synth`, samples).
//! `platform::audio` plays them; `ui::sound` connects the two to the screen.
//!
//! Only public information reaches a cue: the [`Ear`] reads a match's public log
//! (`Match::log`, every event through `Game::public_event`), its gate, whether the app is
//! thinking and how it ended, never a seat's view. So a peek sounds the same whatever the
//! egg was, and a hidden egg's move the same whoever owns it (docs/sound.md).

mod events;
pub mod synth;

use crate::ai::Opponents;
use crate::games::{Game, Outcome, Seat};
use crate::session::{Gate, Match, SeatKind, Sharing};

/// One short sound with one meaning, the same in every game where the meaning is the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cue {
    /// Ovo: an egg stepped to a neighbouring cell.
    Step,
    /// Ovo: one hop of a jump (a chain sounds one per landing).
    Hop,
    /// Ovo: an egg turned face up on an opposing camp.
    Flip,
    /// Ovo: someone peeked at a hidden egg (the same sound whatever it was).
    Peek,
    /// Ovo: «Ovo!» declared, and right.
    OvoRight,
    /// Ovo: «Ovo!» declared, and wrong.
    OvoWrong,
    /// A seat passed without moving (Ovo).
    Pass,
    /// IOTA: one card laid on the grid.
    CardPlaced,
    /// IOTA: a line scored; higher for more points (capped at 24).
    LineScored {
        /// The line's points, capped at 24.
        points: u8,
    },
    /// IOTA: a lot (four cards in a line) completed.
    Lot,
    /// IOTA: a wild on the grid swapped for a hand card.
    WildsSwapped,
    /// Cards went back without being played: IOTA's pass, Omiga's discard.
    CardsReturned,
    /// Omiga: a card laid by a person at this device (White's side, face to face).
    PlacedNear,
    /// Omiga: a card laid by the other side (the app, the other device, or Black face
    /// to face).
    PlacedFar,
    /// Omiga's "Ready?": a beep per second left, and a higher one at the start (`0`).
    Countdown {
        /// Seconds left; 0 when play starts.
        left: u8,
    },
    /// The privacy cover went up: pass the device on.
    CoverUp,
    /// The person behind the cover revealed the table.
    Reveal,
    /// An action was refused.
    Refused,
    /// The app started thinking about its move.
    Thinking,
    /// The game ended with a winner (or winners).
    Won,
    /// The game ended in a draw.
    Drawn,
}

impl Cue {
    /// Every cue (with one example of each parameter), for tests and docs/sound.md.
    pub fn all() -> Vec<Cue> {
        vec![
            Cue::Step,
            Cue::Hop,
            Cue::Flip,
            Cue::Peek,
            Cue::OvoRight,
            Cue::OvoWrong,
            Cue::Pass,
            Cue::CardPlaced,
            Cue::LineScored { points: 3 },
            Cue::LineScored { points: 12 },
            Cue::Lot,
            Cue::WildsSwapped,
            Cue::CardsReturned,
            Cue::PlacedNear,
            Cue::PlacedFar,
            Cue::Countdown { left: 2 },
            Cue::Countdown { left: 0 },
            Cue::CoverUp,
            Cue::Reveal,
            Cue::Refused,
            Cue::Thinking,
            Cue::Won,
            Cue::Drawn,
        ]
    }

    /// True for the cues that end a game: they may last longer than 300 ms.
    pub fn is_ending(self) -> bool {
        matches!(self, Cue::Won | Cue::Drawn)
    }
}

/// What one change on the table sounds like, and whether the phone should buzz.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Heard {
    /// The cues, in the order they happened.
    pub cues: Vec<Cue>,
    /// A short vibration: a seat's turn came in pass-and-play (the cover went up), or an
    /// Omiga placement won.
    pub buzz: bool,
}

impl Heard {
    /// Nothing to hear or feel.
    pub fn is_empty(&self) -> bool {
        self.cues.is_empty() && !self.buzz
    }
}

/// Who laid a card, as far as its sound goes (public: the seats' kinds are on screen).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// A person at this device (White's side when two people share it face to face).
    Near,
    /// The other side: the app, the other device, or Black face to face.
    Far,
}

/// Each game's public events as cues.
pub trait Sounds: Game {
    /// The cues of one event as everyone may know it (`Game::public_event`), laid by
    /// `side`. Pushes the cues in order; returns true when the event calls for a buzz.
    fn cues(event: &Self::Event, side: Side, out: &mut Vec<Cue>) -> bool;
}

/// Follows one match on screen and says what each change sounds like. It remembers only
/// public things: how many actions it has heard, the gate, whether the app was thinking,
/// whether the game was over, the countdown.
#[derive(Debug, Clone, Default)]
pub struct Ear {
    /// `None` until the first listen (which hears nothing of what was already played).
    last: Option<Moment>,
}

/// What the ear remembers of the table between two listens (all public).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Moment {
    actions: usize,
    gate: Gate,
    thinking: bool,
    over: bool,
    countdown: u8,
}

impl Ear {
    /// An ear that has heard nothing yet.
    pub fn new() -> Self {
        Ear::default()
    }

    /// What changed on `game` since the last listen, as cues. `countdown`: the seconds
    /// of Omiga's "Ready?" left (0 elsewhere). The first listen of a match already under
    /// way (resumed, replayed) sounds only the cover and the countdown.
    pub fn listen<G: Sounds + Opponents>(&mut self, game: &Match<G>, countdown: u8) -> Heard {
        let glance = Glance {
            actions: game.actions().len(),
            gate: game.gate(),
            thinking: game.thinking(),
            outcome: game.outcome(),
            countdown,
        };
        self.hear::<G, _>(glance, |from| {
            game.log()
                .skip(from)
                .map(|(seat, _, event)| (side_of(game, seat), event))
        })
    }

    /// What changed on any table since the last listen: `now` as the table shows it, and
    /// `events(n)` its public events after the first `n` (each with the side that acted).
    /// [`Ear::listen`] hears a local match through this; the networked Omiga table, which
    /// holds no `Match` (only its seat's view and the events the network brought), hears
    /// through it too, so both are heard by the same rules.
    pub fn hear<G: Sounds, I: Iterator<Item = (Side, G::Event)>>(
        &mut self,
        now: Glance,
        events: impl FnOnce(usize) -> I,
    ) -> Heard {
        let draw = now.outcome == Outcome::Draw;
        let now = Moment {
            actions: now.actions,
            gate: now.gate,
            thinking: now.thinking,
            over: now.outcome.is_over(),
            countdown: now.countdown,
        };
        let before = self.last.unwrap_or(Moment {
            actions: now.actions,
            gate: Gate::Closed,
            thinking: now.thinking,
            over: now.over,
            countdown: if now.countdown > 0 {
                now.countdown + 1
            } else {
                0
            },
        });
        self.last = Some(now);
        let mut heard = Heard::default();
        // A take-back shortens the log: nothing to hear, start again from there.
        if now.actions > before.actions {
            for (side, event) in events(before.actions) {
                heard.buzz |= G::cues(&event, side, &mut heard.cues);
            }
        }
        if now.over && !before.over {
            heard.cues.push(if draw { Cue::Drawn } else { Cue::Won });
        }
        if now.countdown < before.countdown && !now.over {
            heard.cues.push(Cue::Countdown {
                left: now.countdown,
            });
        }
        match (before.gate, now.gate) {
            (Gate::Covered(a), Gate::Covered(b)) if a == b => {}
            (_, Gate::Covered(_)) => {
                heard.cues.push(Cue::CoverUp);
                heard.buzz = true;
            }
            (Gate::Covered(_), Gate::Open(_)) => heard.cues.push(Cue::Reveal),
            _ => {}
        }
        if now.thinking && !before.thinking && !now.over {
            heard.cues.push(Cue::Thinking);
        }
        heard
    }
}

/// A table as an [`Ear`] sees it at one moment: all public.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glance {
    /// How many actions were played so far (the public log's length).
    pub actions: usize,
    /// The cover: who is called, who sees the screen.
    pub gate: Gate,
    /// Whether the app is thinking about its move.
    pub thinking: bool,
    /// How the game stands.
    pub outcome: Outcome,
    /// The seconds of Omiga's "Ready?" left (0 elsewhere).
    pub countdown: u8,
}

/// Whose side laid `seat`'s card, for the two Omiga placement sounds.
fn side_of<G: Opponents>(game: &Match<G>, seat: Seat) -> Side {
    let players = game.players();
    let here = |s: Seat| players.get(s).map(|p| p.kind) == Some(SeatKind::Human);
    let both_here = players.len() == 2 && here(0) && here(1);
    if here(seat) && !(both_here && game.sharing() == Sharing::FaceToFace && seat == 1) {
        Side::Near
    } else {
        Side::Far
    }
}

/// When each cue of one change starts, in milliseconds after the first: one after
/// another, each waiting for the one before up to 110 ms (a jump's hops tick in a row,
/// a line's score follows its cards), so that a burst stays short.
pub fn schedule(cues: &[Cue]) -> Vec<(u32, Cue)> {
    let mut at = 0;
    cues.iter()
        .map(|&cue| {
            let start = at;
            at += synth::length_ms(cue).min(110);
            (start, cue)
        })
        .collect()
}

#[cfg(test)]
mod tests;
