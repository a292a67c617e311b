//! Each game's public events as cues. Only what `Game::public_event` leaves in an event
//! is read here, and of that nothing secret-shaped: no peeked symbol, no drawn or
//! returned card, and in Ovo not even the mover's seat.

use super::{Cue, Side, Sounds};
use crate::games::iota::{Iota, IotaEvent};
use crate::games::omiga::{Act, Omiga, OmigaEvent};
use crate::games::ovo::{Happened, Ovo, OvoEvent};

impl Sounds for Ovo {
    fn cues(event: &OvoEvent, _side: Side, out: &mut Vec<Cue>) -> bool {
        match &event.happened {
            Happened::Moved {
                landings,
                jump,
                flipped,
                ..
            } => {
                if *jump {
                    out.extend(landings.iter().map(|_| Cue::Hop));
                } else {
                    out.push(Cue::Step);
                }
                if *flipped {
                    out.push(Cue::Flip);
                }
            }
            // `symbol` is never read: the peeker's own copy sounds like everyone's.
            Happened::Peeked { .. } => out.push(Cue::Peek),
            Happened::Passed => out.push(Cue::Pass),
            Happened::Nothing => {}
        }
        if let Some(declaration) = &event.declaration {
            out.push(if declaration.correct {
                Cue::OvoRight
            } else {
                Cue::OvoWrong
            });
        }
        false
    }
}

impl Sounds for Iota {
    fn cues(event: &IotaEvent, _side: Side, out: &mut Vec<Cue>) -> bool {
        match event {
            IotaEvent::Swapped { .. } => out.push(Cue::WildsSwapped),
            IotaEvent::Placed { cards, score, .. } => {
                out.extend(cards.iter().map(|_| Cue::CardPlaced));
                for line in &score.lines {
                    out.push(Cue::LineScored {
                        points: line.points.min(24) as u8,
                    });
                }
                out.extend(score.lines.iter().filter(|l| l.lot).map(|_| Cue::Lot));
            }
            // How many went back is public; which cards is not, and is not read.
            IotaEvent::Passed { .. } => out.push(Cue::CardsReturned),
        }
        false
    }
}

impl Sounds for Omiga {
    fn cues(event: &OmigaEvent, side: Side, out: &mut Vec<Cue>) -> bool {
        match &event.act {
            Act::Placed { won, .. } => {
                out.push(match side {
                    Side::Near => Cue::PlacedNear,
                    Side::Far => Cue::PlacedFar,
                });
                *won
            }
            Act::Discarded { .. } => {
                out.push(Cue::CardsReturned);
                false
            }
        }
    }
}
