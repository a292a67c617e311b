//! The Omiga lesson (docs/rules.md §3). The learner plays White (seat 0), who sits at
//! row 0; Black sits at the far edge. Black never acts on its own in a lesson: the
//! lesson holds it still while its words are read, and a step that shows the table
//! answering says so with a scripted reply.

use super::{Lesson, Step};
use crate::games::omiga::{Act, Action, Omiga, OmigaEvent};
use crate::games::registry::GameKind;
use crate::games::{Game, Outcome};

/// The lesson, first step to last.
pub fn lesson() -> Lesson<Omiga> {
    Lesson {
        kind: GameKind::Omiga,
        steps: vec![
            Step {
                name: "colours",
                position: "table=7x8 cells=3,3:w:PN-GK;3,4:b:DN-KG hands=DD-KG,NP-GG,PP-KK|NN-GK,DP-GG,PD-KK decks=ND-GK,DN-GG,PN-KK|PP-GG,ND-KG,DD-GK",
                seat: 0,
                words: "You are White, at the near edge. A card goes next to one of your own cards and near one of Black's, and where two cards meet side by side their half-circles must share a colour.",
                task: "Lay a card beside your card.",
                hint: "Right of your card the half-circle must be pink; left of it, green.",
                goal: placed,
                replies: &[],
            },
            Step {
                name: "figures",
                position: "table=7x8 cells=3,3:w:PN-GK;4,3:w:DD-KG;3,4:b:DN-KG hands=PD-GK,NN-KG,DP-KK|NN-GK,DP-GG,PD-KK decks=ND-GK,DN-GG,PN-KK|PP-GG,ND-KG,DD-GK",
                seat: 0,
                words: "Where cards meet above and below, the figures must fit: a point into a notch, a diagonal against a diagonal. A card must fit every neighbour, Black's included.",
                task: "Lay a card on top of one of your cards, further from you.",
                hint: "Above your card on the right, the card's lower end must be a diagonal and its left half-circle green.",
                goal: placed_above_own,
                replies: &[],
            },
            Step {
                name: "turn",
                position: "table=7x8 cells=3,3:w:PN-GK;3,4:b:DN-KG hands=NP-GK,DD-GK,PP-GK|NN-GK,DP-GG,PD-KK decks=ND-GK,DN-GG,PN-KK|PP-GG,ND-KG,DD-KG",
                seat: 0,
                words: "You may turn a card around before you lay it: top and bottom swap, and so do left and right.",
                task: "Turn a card and lay it.",
                hint: "None of your cards fits as it is held: turn one so that its pink half-circle meets your card's pink side.",
                goal: placed_turned,
                replies: &[],
            },
            Step {
                name: "at once",
                position: "table=7x8 cells=3,3:w:PN-GK;3,4:b:DN-KG hands=DD-GG,PN-GG,NN-GG|PD-GK,DP-GG,NN-KK decks=ND-GK,DN-GG,PN-KK|PP-GG,ND-KG,DD-KG",
                seat: 0,
                words: "Omiga has no turns: both players lay cards as fast as they can, and a cell goes to whoever is first. Here Black waits while you read, then answers your card.",
                task: "Lay a card, then watch Black answer.",
                hint: "Your cards are green on both sides: they fit left of your card.",
                goal: placed,
                replies: &[(1, "place PD-GK@4,4")],
            },
            Step {
                name: "discard",
                position: "table=7x8 cells=0,3:w:PN-GK;0,4:b:DN-KG hands=DD-GG,PN-GG,NN-GG|PD-GK,DP-GG,NN-KK decks=ND-GK,DN-KK,PN-KK|PP-GG,ND-KG,DD-KG",
                seat: 0,
                words: "When no card in your hand fits anywhere, even turned, you may discard the whole hand and draw three new cards.",
                task: "Discard your hand.",
                hint: "The only open cell needs a pink half-circle on its left, and your cards are green on both sides: discard.",
                goal: discarded,
                replies: &[],
            },
            Step {
                name: "win",
                position: "table=7x8 cells=3,3:w:PN-GK;4,3:w:DD-KG;3,4:b:DN-KG;4,4:w:PD-GK;4,5:w:NN-KG hands=DD-GK,PP-GG,NP-KK|NN-GK,DP-GG,PD-KK decks=ND-GK,DN-GG,PN-KK|PP-GG,ND-KG,DD-KG",
                seat: 0,
                words: "You win at once by laying a card directly behind one of Black's cards, as Black sees it, or by reaching Black's edge.",
                task: "Win: lay a card right behind Black's card.",
                hint: "Behind Black's card is the cell just beyond it, beside your top card: it needs a diagonal at its lower end and a pink right half-circle.",
                goal: won,
                replies: &[],
            },
            Step {
                name: "draw",
                position: "table=7x8 cells=3,3:w:PN-GK;3,4:b:DN-KG hands=DD-KG,NP-GG,PP-KK| decks=ND-GK,DN-GG,PN-KK|",
                seat: 0,
                words: "The game is a draw when a player's deck is empty and no card in their hand can be laid, or when both players have reached both side edges. Black has no cards left.",
                task: "Lay a card to end the game in a draw.",
                hint: "Any card you can lay ends it: beside your card, pink on the right, green on the left.",
                goal: drawn,
                replies: &[],
            },
        ],
    }
}

fn placed(_: &Action, event: &OmigaEvent, _: &Omiga) -> bool {
    matches!(event.act, Act::Placed { .. })
}

/// A card laid directly above (further from White than) one of White's own cards.
fn placed_above_own(_: &Action, event: &OmigaEvent, after: &Omiga) -> bool {
    match event.act {
        Act::Placed { x, y, .. } => after
            .table()
            .get(i32::from(x), i32::from(y) - 1)
            .is_some_and(|below| below.side.seat() == event.seat),
        Act::Discarded { .. } => false,
    }
}

fn placed_turned(action: &Action, event: &OmigaEvent, _: &Omiga) -> bool {
    matches!(action, Action::Place { rotated: true, .. }) && matches!(event.act, Act::Placed { .. })
}

fn discarded(_: &Action, event: &OmigaEvent, _: &Omiga) -> bool {
    matches!(event.act, Act::Discarded { .. })
}

fn won(_: &Action, event: &OmigaEvent, after: &Omiga) -> bool {
    after.outcome() == Outcome::Win { seat: event.seat }
}

fn drawn(_: &Action, _: &OmigaEvent, after: &Omiga) -> bool {
    after.outcome() == Outcome::Draw
}
