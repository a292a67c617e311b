//! Public state a game's screen reads straight from the rules, for speed, where the
//! public view would copy it: everyone at the table sees these.

use super::Match;
use crate::games::iota::{Grid, Iota};
use crate::games::omiga::{self, Omiga};

impl Match<Iota> {
    /// The cards on the table (public).
    pub fn grid(&self) -> &Grid {
        self.session.game.grid()
    }
}

impl Match<Omiga> {
    /// The cards on the table (public).
    pub fn board(&self) -> &omiga::Table {
        self.session.game.table()
    }

    /// Whether cards may be turned round (a setting, public).
    pub fn allow_rotation(&self) -> bool {
        self.session.game.allow_rotation()
    }
}
