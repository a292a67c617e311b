//! Ovo's daily puzzle: win this turn. Every one of your diamonds is hidden (you have
//! peeked at them, so the puzzle tells you where they are); all but one already stand in
//! your camp, rank 1. Bring the last one home and declare «Ovo!» with the move. From
//! Tuesday on the way home is a jump chain, longer as the week goes on, among stars that
//! block and hidden eggs that are not yours. The engine plays every legal action of the
//! position on a copy, so every winning one is known, and checks that none is shorter
//! than the day asks.

use super::{pick, stream, winners, Day, Goal, Puzzle, PuzzleError, ATTEMPTS};
use crate::games::ovo::{Cell, Ovo, OvoAction, SIDE};
use crate::games::registry::GameKind;
use crate::games::{Game, Outcome};
use rand_chacha::ChaCha8Rng;

/// Legal actions per winning one, in tenths, by level (Monday first): inclusive, not overlapping.
pub const BANDS: [(u32, u32); 7] = [
    (100, 309),
    (310, 459),
    (460, 629),
    (630, 809),
    (810, 1009),
    (1010, 1259),
    (1260, 100_000),
];

/// Jumps the shortest way home takes, by level.
pub(crate) const JUMPS: [usize; 7] = [0, 1, 1, 2, 2, 3, 3];

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (10, 9),
    (-1, 1),
    (0, 19),
    (10, 19),
];

/// The day's Ovo puzzle.
pub fn daily(day: Day) -> Result<Puzzle, PuzzleError> {
    let mut rng = stream(GameKind::Ovo, day);
    let level = day.level();
    let (low, high) = super::band(GameKind::Ovo, level);
    for attempt in 0..ATTEMPTS {
        let Some(p) = candidate(&mut rng, day, level, attempt) else {
            continue;
        };
        if (low..=high).contains(&p.difficulty) {
            return Ok(p);
        }
    }
    Err(PuzzleError::NoPuzzle {
        kind: "ovo",
        day,
        attempts: ATTEMPTS,
    })
}

/// How many jumps an action makes (0 for a step).
fn jumps(action: &OvoAction) -> usize {
    match action {
        OvoAction::Jump { landings, .. } => landings.len(),
        _ => 0,
    }
}

/// A random empty cell among `cells` (None when all are taken).
fn empty_among(rng: &mut ChaCha8Rng, board: &Layout, cells: &[Cell]) -> Option<Cell> {
    let free: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|c| board[c.index()] == '.')
        .collect();
    (!free.is_empty()).then(|| free[pick(rng, free.len())])
}

/// Cells a board line reserves, by index: '.' empty, 'a' yours hidden, 'B' a visible
/// star, 'b' a hidden star.
type Layout = [char; 36];

/// Puts `n` eggs on random empty `cells` off the way home.
fn reserve(
    board: &mut Layout,
    path: &[Cell],
    cells: &[Cell],
    egg: char,
    n: usize,
    rng: &mut ChaCha8Rng,
) {
    let cells: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|c| !path.contains(c))
        .collect();
    for _ in 0..n {
        if let Some(c) = empty_among(rng, board, &cells) {
            board[c.index()] = egg;
        }
    }
}

/// A way home of exactly `want` jumps (a step when 0), built backwards from a camp cell:
/// the eggs jumped over, and the path from the camp cell back to the start. None when
/// the random directions run off the board or back onto the way.
fn way_home(rng: &mut ChaCha8Rng, want: usize) -> Option<(Layout, Vec<Cell>)> {
    let mut board = ['.'; 36];
    let target = Cell::new(pick(rng, SIDE) as i32, 0)?;
    let mut path = vec![target];
    let mut at = target;
    if want == 0 {
        let (df, dr) = [(-1, 1), (0, 19), (1, 1)][pick(rng, 3)];
        path.push(at.offset(df, dr)?);
        return Some((board, path));
    }
    for _ in 0..want {
        let (df, dr) = DIRECTIONS[pick(rng, 8)];
        let over = at.offset(-df, -dr)?;
        let from = at.offset(-2 * df, -2 * dr)?;
        // Only the last landing is in the camp, and the start is out of a step's reach.
        if from.rank() < 2 || path.contains(&from) || path.contains(&over) {
            return None;
        }
        if board[over.index()] != '.' {
            return None;
        }
        // On your camp only a hidden star can stand (a visible one would have flipped).
        board[over.index()] = if over.rank() == 0 || pick(rng, 3) == 0 {
            'b'
        } else {
            'B'
        };
        path.push(from);
        at = from;
    }
    Some((board, path))
}

/// One candidate position, judged. None when the draw cannot make a fair puzzle.
pub(crate) fn candidate(rng: &mut ChaCha8Rng, day: Day, level: u8, attempt: u32) -> Option<Puzzle> {
    let want = JUMPS[usize::from(level - 1)];
    let home: Vec<Cell> = (0..SIDE as i32).filter_map(|f| Cell::new(f, 0)).collect();
    let away: Vec<Cell> = Cell::all().filter(|c| c.rank() > 0).collect();
    let (mut board, path) = (0..30).find_map(|_| way_home(rng, want))?;
    let start = *path.last()?;
    // Two to four diamonds already home, stars in the way, hidden eggs that are not yours.
    reserve(&mut board, &path, &home, 'a', 2 + pick(rng, 3), rng);
    // A side has six eggs: those not jumped over stand elsewhere, more of them hidden
    // (so indistinguishable from yours) as the week goes on.
    let stars = 6 - want - pick(rng, 2);
    let decoys = usize::from(level / 2).min(stars);
    reserve(&mut board, &path, &away, 'b', decoys, rng);
    reserve(&mut board, &path, &away, 'B', stars - decoys, rng);
    board[start.index()] = 'a';
    let ranks: Vec<String> = (0..SIDE as i32)
        .rev()
        .map(|r| {
            (0..SIDE as i32)
                .filter_map(|f| Cell::new(f, r))
                .map(|c| board[c.index()])
                .collect()
        })
        .collect();
    let position = format!("players=2 turn=0 board={}", ranks.join("/"));
    let game = Ovo::from_position(&position).ok()?;
    let (answers, legal) = winners(&game, 0, |g| g.outcome() == Outcome::Win { seat: 0 });
    // The shortest way home must take exactly the day's jumps: a stray star that opens a
    // shorter way makes another (easier) puzzle.
    if answers.iter().map(jumps).min()? != want {
        return None;
    }
    let known = Cell::all()
        .filter(|c| board[c.index()] == 'a')
        .map(|c| c.to_string())
        .collect();
    Some(Puzzle {
        kind: GameKind::Ovo,
        day,
        level,
        position: game.position(),
        seat: 0,
        goal: Goal::WinNow,
        difficulty: (legal * 10 / answers.len()) as u32,
        answers: answers.iter().map(|a| a.to_string()).collect(),
        legal,
        known,
        attempt,
    })
}
