//! The IOTA lesson (docs/rules.md §2). The learner plays seat 0 of two; cells are `x,y`
//! with `x` to the right and `y` downward, the starter at `0,0`.

use super::{Lesson, Step};
use crate::games::iota::{Action, Iota, IotaEvent};
use crate::games::registry::GameKind;
use crate::games::Game;

/// The lesson, first step to last.
pub fn lesson() -> Lesson<Iota> {
    Lesson {
        kind: GameKind::Iota,
        steps: vec![
            Step {
                name: "touch",
                position: "players=2 turn=0 grid=0,0:Rt2 hands=Bx2,Gc3,Ys1,Rs4|Gx1,Yt4,Bs3,Rc2 pile=Bt1,Gs2,Yx3 scores=0,0",
                seat: 0,
                words: "Cards go on the table in rows and columns. A card you place must touch the side of a card already there.",
                task: "Place one card beside the red triangle.",
                hint: "Choose a card and put it right next to the red triangle: left, right, above or below it.",
                goal: placed,
                replies: &[],
            },
            Step {
                name: "same or different",
                position: "players=2 turn=0 grid=0,0:Rt2;1,0:Bt2 hands=Yc3,Gt2,Rs1,Bx4|Gx1,Yt4,Bs3,Rc2 pile=Bt1,Gs2,Yx3 scores=0,0",
                seat: 0,
                words: "In a line, each of colour, shape and number must be all the same or all different. Here the shapes are the same, the numbers the same, the colours different.",
                task: "Make a line of three cards.",
                hint: "To lengthen the row, the third card must be a triangle, a two, and neither red nor blue.",
                goal: line_of_three,
                replies: &[],
            },
            Step {
                name: "lot",
                position: "players=2 turn=0 grid=0,0:Rt2;1,0:Bt2;2,0:Gt2 hands=Rc1,Gs3,Yt2,Bx4|Gx1,Yt4,Bs3,Rc2 pile=Bt1,Gs2,Yx3 scores=0,0",
                seat: 0,
                words: "A line holds at most four cards. A line of four is a lot, and a lot doubles the score of your turn.",
                task: "Complete a lot.",
                hint: "Add a yellow triangle two at either end of the row.",
                goal: completed_lot,
                replies: &[],
            },
            Step {
                name: "several cards",
                position: "players=2 turn=0 grid=0,0:Rc1 hands=Yx4,Bc2,Rs4,Gc3|Gx1,Yt4,Bs3,Rt2 pile=Bt1,Gs2,Yx3 scores=0,0",
                seat: 0,
                words: "In one turn you may place up to four cards, all in one row or one column, on both sides of cards already there.",
                task: "Place two cards in one line, one on each side of the red circle.",
                hint: "Two circles of other colours and numbers fit left and right of the red circle one, in the same turn.",
                goal: placed_around,
                replies: &[],
            },
            Step {
                name: "two lines",
                position: "players=2 turn=0 grid=0,0:Rt1;0,1:Bs2;1,1:Gc3 hands=Rc2,Yx4,Gt2,Bt4|Gx1,Yt4,Bs3,Rs1 pile=Bt1,Gs2,Yx3 scores=0,0",
                seat: 0,
                words: "Every line that holds a card you placed scores the sum of its numbers, so a card in a row and a column counts in both.",
                task: "Place one card that scores in two lines at once.",
                hint: "The empty corner right of the red triangle touches a row and a column.",
                goal: scored_two_lines,
                replies: &[],
            },
            Step {
                name: "wild",
                position: "players=2 turn=0 grid=0,0:Rt2;1,0:Bt2 hands=Rs1,W,Gx4,Yc3|Gx1,Yt4,Bs3,Rc2 pile=Bt1,Gs2,Yx3 scores=0,0",
                seat: 0,
                words: "A wild card stands for whatever card its lines need. It is worth nothing itself.",
                task: "Place the wild.",
                hint: "Put the wild at either end of the row, or next to either card.",
                goal: placed_wild,
                replies: &[],
            },
            Step {
                name: "swap",
                position: "players=2 turn=0 grid=0,0:Rt2;1,0:W;2,0:Gt2 hands=Rc1,Ys3,Bt2,Gx4|Gx1,Yt4,Bs3,Rc2 pile=Bt1,Gs2,Yx3 scores=0,0",
                seat: 0,
                words: "Before your move you may swap a wild on the table for a card of yours that fits in its place; the wild joins your hand.",
                task: "Swap the wild for one of your cards.",
                hint: "The wild stands between a red and a green triangle two: a blue triangle two fits there.",
                goal: swapped,
                replies: &[],
            },
            Step {
                name: "pass",
                position: "players=2 turn=0 grid=0,0:Rt2;1,0:Rt3;2,0:Rt4 hands=Rc1,Bs3,Gx4,Yc4|Gx1,Yt4,Bs1,Rc2 pile=Bt1,Gs2,Yx3,Gc1 scores=0,0",
                seat: 0,
                words: "Instead of placing you may pass, returning any of your cards to the bottom of the pile and drawing as many.",
                task: "Pass and return at least one card.",
                hint: "Pass, choosing one or more cards to give back.",
                goal: passed_returning,
                replies: &[],
            },
            Step {
                name: "the end",
                position: "players=2 turn=0 grid=0,0:Rt2;1,0:Bs2 hands=Gc2|Gx1,Yt4 pile= scores=14,18",
                seat: 0,
                words: "When the pile is empty, the player who places their last card ends the game, and that turn scores double. The highest score wins.",
                task: "Place your last card to end the game.",
                hint: "Your green circle two fits at the end of the row.",
                goal: ended_the_game,
                replies: &[],
            },
        ],
    }
}

fn placed(_: &Action, event: &IotaEvent, _: &Iota) -> bool {
    matches!(event, IotaEvent::Placed { .. })
}

fn line_of_three(_: &Action, event: &IotaEvent, _: &Iota) -> bool {
    match event {
        IotaEvent::Placed { score, .. } => score.lines.iter().any(|l| l.cells.len() == 3),
        _ => false,
    }
}

fn completed_lot(_: &Action, event: &IotaEvent, _: &Iota) -> bool {
    matches!(event, IotaEvent::Placed { score, .. } if score.lots > 0)
}

/// Two or more cards with a card already on the table between two of them.
fn placed_around(_: &Action, event: &IotaEvent, _: &Iota) -> bool {
    let IotaEvent::Placed { cards, .. } = event else {
        return false;
    };
    if cards.len() < 2 {
        return false;
    }
    let in_row = cards.iter().all(|(_, c)| c.y == cards[0].1.y);
    let along: Vec<i32> = cards
        .iter()
        .map(|(_, c)| if in_row { c.x } else { c.y })
        .collect();
    let (lo, hi) = (
        along.iter().min().copied().unwrap_or(0),
        along.iter().max().copied().unwrap_or(0),
    );
    // The placement is one contiguous run (the engine checked), so a span longer than
    // the placed cards means a card already there fills a gap.
    (hi - lo + 1) as usize > cards.len()
}

fn scored_two_lines(_: &Action, event: &IotaEvent, _: &Iota) -> bool {
    matches!(event, IotaEvent::Placed { cards, score, .. } if cards.len() == 1 && score.lines.len() >= 2)
}

fn placed_wild(_: &Action, event: &IotaEvent, _: &Iota) -> bool {
    matches!(event, IotaEvent::Placed { cards, .. } if cards.iter().any(|(card, _)| card.is_wild()))
}

fn swapped(_: &Action, event: &IotaEvent, _: &Iota) -> bool {
    matches!(event, IotaEvent::Swapped { .. })
}

fn passed_returning(_: &Action, event: &IotaEvent, _: &Iota) -> bool {
    matches!(event, IotaEvent::Passed { returned_count, .. } if *returned_count > 0)
}

fn ended_the_game(_: &Action, event: &IotaEvent, after: &Iota) -> bool {
    matches!(event, IotaEvent::Placed { score, .. } if score.game_end) && after.outcome().is_over()
}
