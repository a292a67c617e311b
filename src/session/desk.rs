//! A seat's place at the table while the privacy gate shows it: its own view and the
//! rules' answers about its own actions. The only way a screen reaches the rules state.
//!
//! A [`Desk`] is handed out by [`super::Session::desk`] only for a seat whose private
//! state may be on screen now, and every question it answers is about that seat. So what
//! the UI may show while the cover is up is a type: with no desk it has only the public
//! view ([`crate::games::Game::public_view`]).

use crate::games::iota::{self, Iota, ScoreBreakdown};
use crate::games::omiga::{self, Omiga};
use crate::games::ovo::{self, Ovo, OvoAction};
use crate::games::{Game, RuleResult, Seat};

/// One seat's side of the table, while the gate shows it.
pub struct Desk<'a, G: Game> {
    game: &'a G,
    seat: Seat,
}

impl<'a, G: Game> Desk<'a, G> {
    pub(super) fn new(game: &'a G, seat: Seat) -> Self {
        Desk { game, seat }
    }

    /// The seat at this desk.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// What this seat may know.
    pub fn view(&self) -> G::View {
        self.game.view(self.seat)
    }

    /// True when this seat may act now.
    pub fn may_act(&self) -> bool {
        self.game.to_act().contains(&self.seat)
    }

    /// Every legal action of this seat now.
    pub fn legal_actions(&self) -> Vec<G::Action> {
        self.game.legal_actions(self.seat)
    }

    /// True when `action` is legal for this seat now.
    pub fn is_legal(&self, action: &G::Action) -> bool {
        self.legal_actions().contains(action)
    }

    /// What `action` would do, as this seat would learn of it, without playing it (the
    /// table is untouched); or why it would be refused.
    pub fn try_action(&self, action: &G::Action) -> RuleResult<G::Event> {
        let mut trial = self.game.clone();
        trial
            .play(self.seat, action)
            .map(|event| G::event_for(&event, self.seat))
    }
}

impl Desk<'_, Ovo> {
    /// The moves of this seat's egg on `cell` (none when it may not move).
    pub fn moves_from(&self, cell: ovo::Cell) -> Vec<OvoAction> {
        self.game.moves_from(self.seat, cell)
    }
}

impl Desk<'_, Iota> {
    /// Every legal placement of this seat's hand.
    pub fn legal_placements(&self) -> Vec<Vec<(iota::Card, iota::Cell)>> {
        self.game.legal_placements(self.seat)
    }

    /// The score of placing `cards`, or why it is refused.
    pub fn check_placement(&self, cards: &[(iota::Card, iota::Cell)]) -> RuleResult<u32> {
        self.game.check_placement(self.seat, cards)
    }

    /// How placing `cards` would score, line by line, or why it is refused.
    pub fn score_placement(
        &self,
        cards: &[(iota::Card, iota::Cell)],
    ) -> RuleResult<ScoreBreakdown> {
        self.game.score_placement(self.seat, cards)
    }

    /// Whether this seat may swap `card` from its hand for the wild on `cell`.
    pub fn check_swap(&self, cell: iota::Cell, card: iota::Card) -> RuleResult<()> {
        self.game.check_swap(self.seat, cell, card)
    }

    /// The best-scoring legal placement (the most cards on a tie): the hint.
    pub fn best_placement(&self) -> Option<Vec<(iota::Card, iota::Cell)>> {
        self.legal_placements()
            .into_iter()
            .filter_map(|p| self.check_placement(&p).ok().map(|s| (s, p)))
            .max_by_key(|(score, p)| (*score, p.len()))
            .map(|(_, p)| p)
    }
}

impl Desk<'_, Omiga> {
    /// Every cell where this seat may lay `card` (`turned`: turned round).
    pub fn legal_cells(&self, card: omiga::Card, turned: bool) -> Vec<(u8, u8)> {
        self.game.legal_cells(self.seat, card, turned)
    }

    /// Whether this seat may lay `card` at `x,y` now, with the reason when not.
    pub fn check_place(&self, card: omiga::Card, turned: bool, x: i32, y: i32) -> RuleResult<()> {
        self.game.check_place(self.seat, card, turned, x, y)
    }
}
