//! How good an Ovo position looks to the bot: the board's geometry (distances to the
//! camps), each seat's standing, and the moves worth searching.

use crate::games::ovo::Cell;
use crate::games::ovo::{camp_owner, Ovo, OvoAction, CELLS};
use crate::games::{Game, Outcome, Seat};

/// The extra cost of a home cell another seat's egg stands on (it must be moved out).
const EVICT: i32 = 3;

/// How much the best opponent's distance counts against the bot's own: below 1, so that
/// it brings its own eggs home rather than trade moves pulling others' eggs out.
const SPITE: f64 = 0.5;

/// A value beyond any heuristic score: a won or lost game.
pub(super) const WIN: f64 = 1000.0;

/// Chebyshev distance between two cells.
pub(super) fn dist(a: Cell, b: Cell) -> i32 {
    (a.file() - b.file()).abs().max((a.rank() - b.rank()).abs())
}

/// The board's fixed distances for a number of players, worked out once per decision
/// (the evaluation runs thousands of times in a hard decision).
#[derive(Debug, Clone)]
pub(super) struct Geometry {
    pub(super) players: usize,
    /// Each seat's camp.
    home: Vec<Vec<Cell>>,
    /// Per seat and cell: what a visible egg there still costs (to an opposing camp,
    /// one step to flip, and the shortest way back home from there).
    visible_cost: Vec<[i32; CELLS]>,
}

impl Geometry {
    pub(super) fn new(players: usize) -> Geometry {
        let home: Vec<Vec<Cell>> = (0..players).map(|s| camp_of(players, s)).collect();
        let visible_cost = (0..players)
            .map(|seat| {
                let away: Vec<Cell> = Cell::all()
                    .filter(|&c| camp_owner(players, c).is_some_and(|o| o != seat))
                    .collect();
                let nearest = |cell: Cell, set: &[Cell]| set.iter().map(|&c| dist(cell, c)).min();
                let back = away
                    .iter()
                    .filter_map(|&c| nearest(c, &home[seat]))
                    .min()
                    .unwrap_or(0);
                let mut cost = [0; CELLS];
                for cell in Cell::all() {
                    cost[cell.index()] = nearest(cell, &away).unwrap_or(0) + back + 1;
                }
                cost
            })
            .collect();
        Geometry {
            players,
            home,
            visible_cost,
        }
    }
}

/// What the evaluation needs of every seat in one position.
pub(super) struct Standing {
    /// How far each seat is from winning: for each egg, the steps to flip it (a visible
    /// egg) plus the way back, or the steps home (a hidden egg).
    distance: Vec<f64>,
    /// Every egg of the seat hidden on its camp: it can declare.
    pub(super) all_home: Vec<bool>,
}

pub(super) fn standing(game: &Ovo, geo: &Geometry) -> Standing {
    let board = game.board();
    let mut distance = vec![0.0; geo.players];
    let mut all_home = vec![true; geo.players];
    let mut any = vec![false; geo.players];
    for seat in 0..geo.players {
        let home = &geo.home[seat];
        // A home cell taken by another seat's egg must be emptied first: it costs more.
        let mut open_home: Vec<(Cell, i32)> = Vec::with_capacity(home.len());
        for &h in home {
            match board.get(h) {
                None => open_home.push((h, 0)),
                Some(e) if e.owner == seat && e.hidden => {}
                Some(_) => open_home.push((h, EVICT)),
            }
        }
        let mut d = 0;
        for (cell, egg) in board.eggs().filter(|(_, e)| e.owner == seat) {
            any[seat] = true;
            let at_home = home.contains(&cell);
            if !(egg.hidden && at_home) {
                all_home[seat] = false;
            }
            d += if !egg.hidden {
                geo.visible_cost[seat][cell.index()]
            } else if at_home {
                0
            } else {
                open_home
                    .iter()
                    .map(|&(h, extra)| dist(cell, h) + extra)
                    .min()
                    .unwrap_or(0)
            };
        }
        distance[seat] = f64::from(d);
    }
    for (home, any) in all_home.iter_mut().zip(any) {
        *home &= any;
    }
    Standing { distance, all_home }
}

/// The value of `game` for `seat`: won, lost, or how much nearer it is than its best
/// opponent.
pub(super) fn evaluate(game: &Ovo, seat: Seat, geo: &Geometry) -> f64 {
    match game.outcome() {
        Outcome::Ongoing => {}
        Outcome::Win { seat: w } => return if w == seat { WIN } else { -WIN },
        Outcome::SharedWin { .. } | Outcome::Draw => return 0.0,
    }
    value_of(game, &standing(game, geo), seat)
}

/// The value for `seat` of an ongoing position whose standing is known.
pub(super) fn value_of(game: &Ovo, st: &Standing, seat: Seat) -> f64 {
    let others = || (0..game.players()).filter(move |&s| s != seat && !game.is_out(s));
    let best_other = others()
        .map(|s| st.distance[s])
        .fold(f64::INFINITY, f64::min);
    let best_other = if best_other.is_finite() {
        best_other
    } else {
        0.0
    };
    // An opponent whose eggs all stand hidden at home can win by declaring.
    let threat = others().any(|s| st.all_home[s]);
    SPITE * best_other - st.distance[seat] - if threat { WIN / 2.0 } else { 0.0 }
}

/// Moves only: no peeks, no declarations.
pub(super) fn moves(actions: Vec<OvoAction>) -> Vec<OvoAction> {
    actions
        .into_iter()
        .filter(|a| {
            matches!(
                a,
                OvoAction::Step { ovo: false, .. } | OvoAction::Jump { ovo: false, .. }
            )
        })
        .collect()
}

pub(super) fn camp_of(players: usize, seat: Seat) -> Vec<Cell> {
    Cell::all()
        .filter(|&c| camp_owner(players, c) == Some(seat))
        .collect()
}
