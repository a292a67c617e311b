//! Placement legality, the legal action list, applying an action, and judging wins and
//! draws (docs/rules.md §3 and the Omiga edge cases of docs/referee.md).

use super::cards::{fits_above, fits_beside, Card};
use super::notation::Action;
use super::table::{Placed, Side, Table};
use super::view::{Act, Drew, OmigaEvent};
use super::Omiga;
use crate::games::{Outcome, RuleError, RuleResult, Seat};

/// Why a card may not lie on a cell. An enum, not a string, because the legal-action
/// search asks this hundreds of times per call. Serialized (snake_case) in the LAN
/// protocol's `why`, so the joined device words a host's rejection in its own language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// The cell is not on the table.
    Outside,
    /// A card already lies there.
    Taken,
    /// No orthogonal neighbour is the placer's own card.
    NoOwnNeighbour,
    /// None of the 8 surrounding cells holds an opponent card.
    NoOpponentNear,
    /// The left neighbour's right colour differs from the card's left colour.
    ColoursLeft,
    /// The right neighbour's left colour differs from the card's right colour.
    ColoursRight,
    /// The card's top does not fit the bottom of the card above (row y+1).
    FiguresAbove,
    /// The card's bottom does not fit the top of the card below (row y-1).
    FiguresBelow,
}

/// Why Omiga refuses an action (the referee's English; see `RuleError`). Serialized in
/// the LAN protocol's `why` (docs/network.md): `{"kind":"placement","why":"taken",…}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OmigaError {
    /// A seat other than 0 and 1.
    #[error("there is no seat {seat} in Omiga (0 = White, 1 = Black)")]
    NoSeat {
        /// The seat asked for.
        seat: Seat,
    },
    /// A turned card while turning is off.
    #[error("Turning cards is off in this game")]
    TurningOff,
    /// A card the hand does not hold.
    #[error("{card} is not in your hand")]
    NotInHand {
        /// The card.
        card: Card,
    },
    /// A cell where the card may not lie.
    #[error("{}", placement_text(*.why, *.x, *.y))]
    Placement {
        /// Why not.
        why: Refusal,
        /// The cell's column.
        x: i32,
        /// The cell's row.
        y: i32,
    },
    /// A discard while a card could be placed.
    #[error("You may discard only when no card in your hand can be placed")]
    MayNotDiscard,
}

/// The English for a refused placement at `x,y`: the neighbour that does not fit is
/// named by its cell.
fn placement_text(why: Refusal, x: i32, y: i32) -> String {
    match why {
        Refusal::Outside => format!("{x},{y} is outside the table"),
        Refusal::Taken => "That cell is taken".into(),
        Refusal::NoOwnNeighbour => "No neighbour of yours".into(),
        Refusal::NoOpponentNear => "No opponent card nearby".into(),
        // Saturating: a refusal read from the network may carry any number.
        Refusal::ColoursLeft => {
            format!(
                "Colours do not match on the left ({},{y})",
                x.saturating_sub(1)
            )
        }
        Refusal::ColoursRight => {
            format!(
                "Colours do not match on the right ({},{y})",
                x.saturating_add(1)
            )
        }
        Refusal::FiguresAbove => {
            format!("Figures do not match above ({x},{})", y.saturating_add(1))
        }
        Refusal::FiguresBelow => {
            format!("Figures do not match below ({x},{})", y.saturating_sub(1))
        }
    }
}

impl OmigaError {
    /// One of each (see `RuleError::examples`).
    pub fn examples() -> Vec<OmigaError> {
        use super::cards::{Colour, Figure};
        let card = Card::new(Figure::Point, Figure::Notch, Colour::Green, Colour::Pink);
        let mut all = vec![
            OmigaError::NoSeat { seat: 2 },
            OmigaError::TurningOff,
            OmigaError::NotInHand { card },
            OmigaError::MayNotDiscard,
        ];
        let every_why = [
            Refusal::Outside,
            Refusal::Taken,
            Refusal::NoOwnNeighbour,
            Refusal::NoOpponentNear,
            Refusal::ColoursLeft,
            Refusal::ColoursRight,
            Refusal::FiguresAbove,
            Refusal::FiguresBelow,
        ];
        all.extend(
            every_why
                .into_iter()
                .map(|why| OmigaError::Placement { why, x: 3, y: 5 }),
        );
        // No wildcard: a new variant (or reason) must be added here, and an example above.
        for e in &all {
            match e {
                OmigaError::NoSeat { .. }
                | OmigaError::TurningOff
                | OmigaError::NotInHand { .. }
                | OmigaError::MayNotDiscard => {}
                OmigaError::Placement { why, .. } => match why {
                    Refusal::Outside
                    | Refusal::Taken
                    | Refusal::NoOwnNeighbour
                    | Refusal::NoOpponentNear
                    | Refusal::ColoursLeft
                    | Refusal::ColoursRight
                    | Refusal::FiguresAbove
                    | Refusal::FiguresBelow => {}
                },
            }
        }
        all
    }
}

const ORTHOGONAL: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// Whether `side` may lay `laid` (as it will lie) at `x,y` on `table`: the cell is empty
/// and inside, an orthogonal neighbour is its own, an opponent card is among the 8
/// around, and the card matches every orthogonal neighbour, whoever owns it.
pub fn placement(table: &Table, side: Side, laid: Card, x: i32, y: i32) -> Result<(), Refusal> {
    if !table.contains(x, y) {
        return Err(Refusal::Outside);
    }
    if table.get(x, y).is_some() {
        return Err(Refusal::Taken);
    }
    let own = ORTHOGONAL
        .iter()
        .any(|(dx, dy)| table.get(x + dx, y + dy).is_some_and(|p| p.side == side));
    if !own {
        return Err(Refusal::NoOwnNeighbour);
    }
    let opponent = side.opponent();
    let near = crate::games::AROUND.iter().any(|(dx, dy)| {
        table
            .get(x + dx, y + dy)
            .is_some_and(|p| p.side == opponent)
    });
    if !near {
        return Err(Refusal::NoOpponentNear);
    }
    let card_at = |dx: i32, dy: i32| table.get(x + dx, y + dy).map(|p| p.card);
    if card_at(-1, 0).is_some_and(|left| !fits_beside(left, laid)) {
        return Err(Refusal::ColoursLeft);
    }
    if card_at(1, 0).is_some_and(|right| !fits_beside(laid, right)) {
        return Err(Refusal::ColoursRight);
    }
    if card_at(0, -1).is_some_and(|lower| !fits_above(lower, laid)) {
        return Err(Refusal::FiguresBelow);
    }
    if card_at(0, 1).is_some_and(|upper| !fits_above(laid, upper)) {
        return Err(Refusal::FiguresAbove);
    }
    Ok(())
}

fn side_of(seat: Seat) -> RuleResult<Side> {
    Side::of_seat(seat).ok_or(RuleError::Omiga(OmigaError::NoSeat { seat }))
}

impl Omiga {
    /// Whether `seat` may lay `card` (as held; `rotated` turns it) at `x,y` on the table
    /// now, with the reason when not. Checks the table and the rotation setting only, not
    /// the hand, so the UI can explain a drop before it is sent.
    pub fn check_place(
        &self,
        seat: Seat,
        card: Card,
        rotated: bool,
        x: i32,
        y: i32,
    ) -> RuleResult<()> {
        let side = side_of(seat)?;
        if rotated && !self.allow_rotation {
            return Err(OmigaError::TurningOff.into());
        }
        placement(&self.table, side, card.oriented(rotated), x, y)
            .map_err(|why| OmigaError::Placement { why, x, y }.into())
    }

    /// Every cell where `seat` may lay `card` (as held; `rotated` turns it), sorted by `y`
    /// then `x`: what the UI highlights. Empty for a turned card when turning is off.
    pub fn legal_cells(&self, seat: Seat, card: Card, rotated: bool) -> Vec<(u8, u8)> {
        let Some(side) = Side::of_seat(seat) else {
            return Vec::new();
        };
        if rotated && !self.allow_rotation {
            return Vec::new();
        }
        let laid = card.oriented(rotated);
        let mut cells = Vec::new();
        for y in 0..self.table.height() {
            for x in 0..self.table.width() {
                if placement(&self.table, side, laid, x.into(), y.into()).is_ok() {
                    cells.push((x, y));
                }
            }
        }
        cells
    }

    /// Whether some card of `side`'s hand has a legal placement anywhere, in either
    /// orientation the settings allow.
    pub fn has_placement(&self, seat: Seat) -> bool {
        let Some(side) = Side::of_seat(seat) else {
            return false;
        };
        let mut laids: Vec<Card> = Vec::with_capacity(6);
        for &card in &self.hands[side.seat()] {
            laids.push(card);
            if self.allow_rotation && !card.is_symmetric() {
                laids.push(card.turned());
            }
        }
        if laids.is_empty() {
            return false;
        }
        self.table.placed().any(|(px, py, p)| {
            // Only cells orthogonally next to an own card can be legal: search around them.
            p.side == side
                && ORTHOGONAL.iter().any(|(dx, dy)| {
                    let (x, y) = (i32::from(px) + dx, i32::from(py) + dy);
                    laids
                        .iter()
                        .any(|&laid| placement(&self.table, side, laid, x, y).is_ok())
                })
        })
    }

    /// Whether `seat` may discard its hand now: always with `free_discard`, otherwise only
    /// when no hand card has a legal placement.
    pub fn can_discard(&self, seat: Seat) -> bool {
        seat < 2 && (self.free_discard || !self.has_placement(seat))
    }

    /// Whether `side`'s card at `x,y` wins: behind an opponent card, or on the far edge.
    fn wins_at(&self, side: Side, x: i32, y: i32) -> bool {
        let (behind_y, edge_y) = match side {
            Side::White => (y - 1, i32::from(self.table.height()) - 1),
            Side::Black => (y + 1, 0),
        };
        let behind = self
            .table
            .get(x, behind_y)
            .is_some_and(|p| p.side == side.opponent());
        behind || y == edge_y
    }

    /// The draw conditions, judged after an action that did not win.
    fn is_draw(&self) -> bool {
        let last = i32::from(self.table.width()) - 1;
        let reached = |side: Side, x: i32| {
            (0..i32::from(self.table.height()))
                .any(|y| self.table.get(x, y).is_some_and(|p| p.side == side))
        };
        let both_edges = [Side::White, Side::Black]
            .into_iter()
            .all(|s| reached(s, 0) && reached(s, last));
        let stuck = (0..2).any(|s| self.decks[s].is_empty() && !self.has_placement(s));
        both_edges || stuck
    }
}

/// Every legal action of `seat`, each once in canonical spelling: each hand card as held
/// on each legal cell, turned only where turning changes the card, then `discard` when
/// allowed. Nothing once the game is over.
pub fn legal_actions(game: &Omiga, seat: Seat) -> Vec<Action> {
    let Some(side) = Side::of_seat(seat) else {
        return Vec::new();
    };
    if game.outcome.is_over() {
        return Vec::new();
    }
    let mut actions = Vec::new();
    for &card in &game.hands[side.seat()] {
        let mut turns = vec![false];
        if game.allow_rotation && !card.is_symmetric() {
            turns.push(true);
        }
        for rotated in turns {
            for (x, y) in game.legal_cells(seat, card, rotated) {
                actions.push(Action::Place {
                    card,
                    rotated,
                    x: x.into(),
                    y: y.into(),
                });
            }
        }
    }
    // Same as `can_discard`, without searching the table a second time.
    if game.free_discard || actions.is_empty() {
        actions.push(Action::Discard);
    }
    actions
}

/// Applies `action` for `seat`: validates everything first, so a refusal changes nothing.
pub fn apply(game: &mut Omiga, seat: Seat, action: &Action) -> RuleResult<OmigaEvent> {
    let side = side_of(seat)?;
    if game.outcome.is_over() {
        return Err(RuleError::GameOver);
    }
    let s = side.seat();
    let act = match *action {
        Action::Place {
            card,
            rotated,
            x,
            y,
        } => {
            if rotated && !game.allow_rotation {
                return Err(OmigaError::TurningOff.into());
            }
            let at = game.hands[s]
                .iter()
                .position(|&c| c == card)
                .ok_or(OmigaError::NotInHand { card })?;
            let laid = card.oriented(rotated);
            placement(&game.table, side, laid, x, y).map_err(|why| OmigaError::Placement {
                why,
                x,
                y,
            })?;
            // Validated: from here on nothing can fail.
            game.table.put(x, y, Placed { side, card: laid })?;
            game.hands[s].remove(at);
            let won = game.wins_at(side, x, y);
            // Inside the table, so both fit in u8.
            Act::Placed {
                card: laid,
                x: x as u8,
                y: y as u8,
                won,
            }
        }
        Action::Discard => {
            if !game.can_discard(seat) {
                return Err(OmigaError::MayNotDiscard.into());
            }
            let cards = std::mem::take(&mut game.hands[s]);
            Act::Discarded {
                count: cards.len(),
                cards: Some(cards),
            }
        }
    };
    let won = matches!(act, Act::Placed { won: true, .. });
    let mut drew = None;
    if won {
        // A winning placement ends the game at once: nothing is drawn after it.
        game.outcome = Outcome::Win { seat };
    } else {
        if game.hands[s].is_empty() {
            let cards = game.draw(side);
            if !cards.is_empty() {
                drew = Some(Drew {
                    count: cards.len(),
                    cards: Some(cards),
                });
            }
        }
        // The hand is refilled first; the draws are judged after.
        if game.is_draw() {
            game.outcome = Outcome::Draw;
        }
    }
    Ok(OmigaEvent {
        seat,
        act,
        drew,
        outcome: game.outcome.clone(),
    })
}

#[cfg(test)]
mod tests;
