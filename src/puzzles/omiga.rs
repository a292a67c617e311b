//! Omiga's daily puzzle: a table and a hand; find the card and cell that win at once (a
//! card laid directly behind one of Black's, or on Black's edge). The table is staged by
//! dealing both decks and laying random legal cards for both sides; whenever White has a
//! winning placement the engine plays every legal action of White's on a copy, so every
//! winning one is known, and the position is kept when the share of winning tries fits
//! the day's band. Later in the week the table is fuller and the right card rarer.

use super::{pick, shuffle, stream, winners, Day, Goal, Puzzle, PuzzleError, ATTEMPTS};
use crate::games::omiga::{full_deck, Action, Card, Omiga};
use crate::games::registry::GameKind;
use crate::games::{Game, Outcome, Params};
use rand_chacha::ChaCha8Rng;

/// Tries weighed (`considered`) per winning one, in tenths, by level (Monday first): inclusive, not overlapping.
pub const BANDS: [(u32, u32); 7] = [
    (90, 179),
    (180, 219),
    (220, 259),
    (260, 329),
    (330, 429),
    (430, 599),
    (600, 100_000),
];

/// Cards laid (both sides together) before the first look for a puzzle, by level.
const LAID_BEFORE: [usize; 7] = [4, 5, 6, 7, 8, 9, 10];

/// The longest a staged game is played before it is dropped.
const MOST_LAID: usize = 40;

/// The day's Omiga puzzle.
pub fn daily(day: Day) -> Result<Puzzle, PuzzleError> {
    let mut rng = stream(GameKind::Omiga, day);
    let level = day.level();
    let band = super::band(GameKind::Omiga, level);
    for attempt in 0..ATTEMPTS {
        if let Some(p) = candidate(&mut rng, day, level, attempt, band) {
            return Ok(p);
        }
    }
    Err(PuzzleError::NoPuzzle {
        kind: "omiga",
        day,
        attempts: ATTEMPTS,
    })
}

fn deck(rng: &mut ChaCha8Rng) -> String {
    let mut cards: Vec<Card> = full_deck();
    shuffle(rng, &mut cards);
    let words: Vec<String> = cards.iter().map(Card::to_string).collect();
    words.join(",")
}

/// The tries a player weighs: every hand card, as held and turned, on every open cell
/// beside one of White's cards. In Omiga whether a card fits is the puzzle itself, so the
/// ones that do not fit count too (in IOTA and Ovo the legal actions already are many).
fn considered(game: &Omiga) -> usize {
    let table = game.table();
    let mut open = 0;
    for y in 0..i32::from(table.height()) {
        for x in 0..i32::from(table.width()) {
            let beside_white = [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|(dx, dy)| {
                table
                    .get(x + dx, y + dy)
                    .is_some_and(|p| p.side.seat() == 0)
            });
            if table.get(x, y).is_none() && beside_white {
                open += 1;
            }
        }
    }
    game.hand(0).len() * 2 * open
}

/// One staged game: the first position in it where White can win with a share of
/// winning tries inside `band`. None when the game ends or runs long first.
pub(crate) fn candidate(
    rng: &mut ChaCha8Rng,
    day: Day,
    level: u8,
    attempt: u32,
    band: (u32, u32),
) -> Option<Puzzle> {
    let params = Params::new()
        .with("white", deck(rng))
        .with("black", deck(rng));
    let mut game = Omiga::new_game(&params).ok()?;
    for laid in 0..MOST_LAID {
        if game.outcome().is_over() {
            return None;
        }
        if laid >= LAID_BEFORE[usize::from(level - 1)] {
            let (answers, legal) = winners(&game, 0, |g| g.outcome() == Outcome::Win { seat: 0 });
            // Not trivial: some legal card must fail to win (the board shows where a
            // chosen card fits, so with one legal card the puzzle would solve itself).
            if !answers.is_empty() && answers.len() < legal {
                let difficulty = (considered(&game) * 10 / answers.len()) as u32;
                if (band.0..=band.1).contains(&difficulty) {
                    return Some(Puzzle {
                        kind: GameKind::Omiga,
                        day,
                        level,
                        position: game.position(),
                        seat: 0,
                        goal: Goal::WinNow,
                        answers: answers.iter().map(Action::to_string).collect(),
                        legal,
                        difficulty,
                        known: Vec::new(),
                        attempt,
                    });
                }
            }
        }
        // Sides take turns in the staging (the real game has none): a random card that
        // fits and does not win, so the race goes on; else a discard. Cards are tried one
        // by one in random order rather than all judged first (half the staging's time).
        let seat = laid % 2;
        let legal = game.legal_actions(seat);
        let mut places: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| !matches!(a, Action::Discard))
            .collect();
        let mut chosen = None;
        while !places.is_empty() {
            let a = places.swap_remove(pick(rng, places.len()));
            let mut after = game.clone();
            if after.play(seat, &a).is_ok() && !after.outcome().is_over() {
                chosen = Some(a);
                break;
            }
        }
        let action = match chosen {
            Some(a) => a,
            None if legal.contains(&Action::Discard) => Action::Discard,
            None => return None,
        };
        game.play(seat, &action).ok()?;
    }
    None
}
