//! The Ovo lesson (docs/rules.md §1). The learner plays seat 0: the diamonds of a
//! two-player game, whose camp is rank 1, then the circles of a four-player game.

use super::{Lesson, Step};
use crate::games::ovo::{Happened, Ovo, OvoAction, OvoEvent};
use crate::games::registry::GameKind;
use crate::games::{Game, Outcome};

/// The lesson, first step to last.
pub fn lesson() -> Lesson<Ovo> {
    Lesson {
        kind: GameKind::Ovo,
        steps: vec![
            Step {
                name: "step",
                position: "players=2 turn=0 board=....B./....../....../..A.../....../......",
                seat: 0,
                words: "Your eggs are the diamonds; the stars are your opponent's. An egg steps one cell in any of the eight directions, diagonals too.",
                task: "Step your egg on c3 diagonally.",
                hint: "A diagonal step changes both the letter and the number: from c3 to b2, d2, b4 or d4.",
                goal: diagonal_step,
                replies: &[],
            },
            Step {
                name: "jump",
                position: "players=2 turn=0 board=....B./....../....../...B../..A.../......",
                seat: 0,
                words: "Instead of stepping, an egg may jump over a neighbouring egg, any egg, onto the empty cell just beyond it.",
                task: "Jump your egg on c2 over the star on d3.",
                hint: "A jump goes in a straight line: over d3, the egg lands on e4.",
                goal: jump,
                replies: &[],
            },
            Step {
                name: "chain",
                position: "players=2 turn=0 board=....../....../...B../.B..../A...../......",
                seat: 0,
                words: "One move may chain several jumps, and the chain may turn between them. It may stop after any jump.",
                task: "Make a chain of two jumps that changes direction.",
                hint: "Jump from a2 over b3 to c4, then straight on to the right, over d4 to e4.",
                goal: turning_chain,
                replies: &[],
            },
            Step {
                name: "flip",
                position: "players=2 turn=0 board=....B./..B.../.A..../....../....../......",
                seat: 0,
                words: "When your visible egg lands in an opposing camp, it is flipped face down at once and the move ends there. The stars' camp is rank 6.",
                task: "Land your egg in the stars' camp.",
                hint: "Jump from b4 over c5 onto d6. The chain cannot go on from there.",
                goal: flipped,
                replies: &[],
            },
            Step {
                name: "hidden",
                position: "players=2 turn=0 board=...B../....../....a./..b.../....../A.....",
                seat: 0,
                words: "A flipped egg is hidden: nobody can tell whose it is, not even its owner. On your turn you may move any hidden egg, yours or not.",
                task: "Move one of the hidden eggs.",
                hint: "The hidden eggs stand on c3 and e4; step or jump one of them.",
                goal: moved_hidden,
                replies: &[],
            },
            Step {
                name: "peek",
                position: "players=2 turn=0 board=.B..../....../..a.b./....../....../A.....",
                seat: 0,
                words: "Instead of moving, you may peek at a hidden egg. Only you see its symbol; the others learn only that you peeked.",
                task: "Peek at a hidden egg.",
                hint: "Choose the hidden egg on c4 or e4 and peek at it.",
                goal: peeked,
                replies: &[],
            },
            Step {
                name: "no move-back",
                position: "players=2 turn=0 board=....B./....../...b../....../.A..../...... last=d4",
                seat: 0,
                words: "The egg moved in the turn just before yours may not move now, whoever moved it. The hidden egg on d4 has just moved.",
                task: "Move an egg that may move.",
                hint: "Leave the egg on d4 where it is: move your diamond on b2.",
                goal: moved,
                replies: &[],
            },
            Step {
                name: "pass",
                position: "players=2 turn=0 board=....../....../....../B.B.../BB..../ABB...",
                seat: 0,
                words: "You pass only when you can neither move nor peek. Your diamond on a1 is hemmed in and no egg is hidden.",
                task: "Pass.",
                hint: "No step or jump is open to a1, and with no hidden egg there is nothing to peek at: pass.",
                goal: passed,
                replies: &[],
            },
            Step {
                name: "ovo",
                position: "players=2 turn=0 board=.....B/....../....../...b../..a.../aa....",
                seat: 0,
                words: "You win by declaring «Ovo!» when every egg of yours is hidden in your own camp; a wrong declaration loses the game. Your hidden eggs are on a1, b1 and c2.",
                task: "Bring the hidden egg on c2 home and declare «Ovo!» with that move.",
                hint: "Declare only when all your eggs are hidden on rank 1: step c2 to rank 1 and declare with the move.",
                goal: won_by_declaring,
                replies: &[],
            },
            Step {
                name: "four camps",
                position: "players=4 turn=0 board=B....C/....../....../....../...A../.....D",
                seat: 0,
                words: "With four players each camp is a corner of four cells: yours, the circles', is a1 to b2. Any of the three other corners flips your egg.",
                task: "Move your circle into another player's corner.",
                hint: "The corner e1, f1, e2, f2 is one step from d2.",
                goal: flipped,
                replies: &[],
            },
            Step {
                name: "out",
                position: "players=4 turn=0 board=B....C/....../....../....../.A..../a....D",
                seat: 0,
                words: "With four players a wrong «Ovo!» does not end the game: your eggs leave the board and you are out, while the others play on. Your circle on b2 is still visible.",
                task: "Declare «Ovo!» now, to see a wrong declaration.",
                hint: "Declare «Ovo!» as your whole turn, without moving.",
                goal: out_by_declaring,
                replies: &[],
            },
        ],
    }
}

/// No declaration: outside the declaration steps a declaration (always wrong there) would
/// end the game, which is not what the step teaches.
fn quiet(event: &OvoEvent) -> bool {
    event.declaration.is_none()
}

fn diagonal_step(action: &OvoAction, event: &OvoEvent, _: &Ovo) -> bool {
    quiet(event)
        && match action {
            OvoAction::Step { from, to, .. } => {
                from.file() != to.file() && from.rank() != to.rank()
            }
            _ => false,
        }
}

fn jump(action: &OvoAction, event: &OvoEvent, _: &Ovo) -> bool {
    quiet(event) && matches!(action, OvoAction::Jump { .. })
}

/// A chain of at least two jumps whose direction changes at some landing.
fn turning_chain(action: &OvoAction, event: &OvoEvent, _: &Ovo) -> bool {
    let OvoAction::Jump { from, landings, .. } = action else {
        return false;
    };
    if !quiet(event) {
        return false;
    }
    let mut cells = vec![*from];
    cells.extend(landings.iter().copied());
    let directions: Vec<(i32, i32)> = cells
        .windows(2)
        .map(|w| (w[1].file() - w[0].file(), w[1].rank() - w[0].rank()))
        .collect();
    directions.windows(2).any(|d| d[0] != d[1])
}

fn flipped(_: &OvoAction, event: &OvoEvent, _: &Ovo) -> bool {
    quiet(event) && matches!(event.happened, Happened::Moved { flipped: true, .. })
}

/// A move of an egg that was hidden before it moved (it is hidden after, and was not
/// flipped by this move).
fn moved_hidden(_: &OvoAction, event: &OvoEvent, after: &Ovo) -> bool {
    if !quiet(event) {
        return false;
    }
    match &event.happened {
        Happened::Moved {
            landings,
            flipped: false,
            ..
        } => landings
            .last()
            .and_then(|cell| after.board().get(*cell))
            .is_some_and(|egg| egg.hidden),
        _ => false,
    }
}

/// A peek whose symbol reached the peeker (the event is the learner's copy).
fn peeked(_: &OvoAction, event: &OvoEvent, _: &Ovo) -> bool {
    quiet(event)
        && matches!(
            event.happened,
            Happened::Peeked {
                symbol: Some(_),
                ..
            }
        )
}

fn moved(_: &OvoAction, event: &OvoEvent, _: &Ovo) -> bool {
    quiet(event) && matches!(event.happened, Happened::Moved { .. })
}

fn passed(_: &OvoAction, event: &OvoEvent, _: &Ovo) -> bool {
    matches!(event.happened, Happened::Passed)
}

fn won_by_declaring(_: &OvoAction, event: &OvoEvent, after: &Ovo) -> bool {
    event.declaration.as_ref().is_some_and(|d| d.correct)
        && after.outcome() == Outcome::Win { seat: event.seat }
}

fn out_by_declaring(_: &OvoAction, event: &OvoEvent, after: &Ovo) -> bool {
    event.declaration.as_ref().is_some_and(|d| d.seat_out) && after.is_out(event.seat)
}
