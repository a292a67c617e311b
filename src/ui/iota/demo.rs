//! Tables in the middle or at the end of a game, for the screenshots and the frame bench
//! (the `devtools` feature).

use super::IotaTable;
use crate::games::iota::{Action, Cell};
use crate::games::RuleResult;
use crate::session::Player;

/// A realistic table in the middle of a game, for the screenshot: two players, a few turns
/// played by always taking the legal placement with the most cards, the next player's
/// screen revealed and one card staged.
pub fn demo_table(players: Vec<Player>) -> RuleResult<IotaTable> {
    demo_table_with(players, 10)
}

/// As [`demo_table`], played on until the grid holds at least `cards` cards (the frame
/// bench's crowded table).
pub fn demo_table_with(players: Vec<Player>, cards: usize) -> RuleResult<IotaTable> {
    let mut table = IotaTable::start(players, 20_261_129, 0)?;
    for _ in 0..cards * 2 {
        if table.session.grid().len() >= cards || table.session.outcome().is_over() {
            break;
        }
        table.session.reveal();
        let Some(desk) = table.desk() else { break };
        let seat = desk.seat();
        let best = desk
            .legal_placements()
            .into_iter()
            .max_by_key(|p| (p.len(), desk.check_placement(p).ok()));
        let action = match best {
            Some(p) => Action::Place(p),
            None => Action::Pass(Vec::new()),
        };
        table.session.act(seat, &action)?;
    }
    table.session.reveal();
    if table.viewer().is_some() {
        let hand = table.hand();
        if let Some(p) = table
            .desk()
            .and_then(|d| d.legal_placements().into_iter().next())
        {
            if let Some((card, cell)) = p.first() {
                if let Some(i) = hand.iter().position(|c| c == card) {
                    table.staged.push((i, *cell));
                }
            }
        }
        table.selected = (0..hand.len()).find(|i| !table.staged.iter().any(|(h, _)| h == i));
    }
    Ok(table)
}

/// The mid-game table with one card staged where it may not go, so the reason shows (the
/// `iota-illegal` screenshot).
pub fn demo_illegal_table(players: Vec<Player>) -> RuleResult<IotaTable> {
    let mut table = demo_table(players)?;
    table.staged.clear();
    let Some(desk) = table.desk() else {
        return Ok(table);
    };
    let hand = table.hand();
    let grid = table.session.grid();
    let empty_neighbours: Vec<Cell> = grid
        .sorted()
        .iter()
        .flat_map(|(cell, _)| cell.neighbours())
        .filter(|c| grid.get(*c).is_none())
        .collect();
    let refused = hand.iter().enumerate().find_map(|(i, card)| {
        empty_neighbours
            .iter()
            .find(|cell| desk.check_placement(&[(*card, **cell)]).is_err())
            .map(|cell| (i, *cell))
    });
    if let Some(staged) = refused {
        table.staged.push(staged);
        table.selected = None;
    }
    Ok(table)
}

/// A finished game for the screenshot: two players always taking the best-scoring legal
/// placement (passing when none fits) until the game ends.
pub fn demo_end_table(players: Vec<Player>) -> RuleResult<IotaTable> {
    let mut table = IotaTable::start(players, 20_261_129, 0)?;
    for _ in 0..400 {
        if table.session.outcome().is_over() {
            break;
        }
        table.session.reveal();
        let Some(desk) = table.desk() else { break };
        let seat = desk.seat();
        let action = desk
            .best_placement()
            .map_or(Action::Pass(Vec::new()), Action::Place);
        table.session.act(seat, &action)?;
    }
    Ok(table)
}
