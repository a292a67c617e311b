//! Which table plays which game: a saved match back on screen, or its public table at
//! some step of a replay. The one place in the UI that names the three games' tables.

use super::play::Table;
use crate::games::registry::GameKind;
use crate::session::Match;

/// A saved match back on screen, behind the cover of whoever acts next (Omiga: behind
/// its countdown).
pub fn restore(saved: &crate::session::SavedGame) -> crate::games::RuleResult<Box<dyn Table>> {
    table_of(saved, None)
}

/// The public table after the first `upto` actions of a saved match, for stepping through
/// it in the history: nobody's hand or peek is on it, and nothing can be played on it.
pub fn public_at(
    saved: &crate::session::SavedGame,
    upto: usize,
) -> crate::games::RuleResult<Box<dyn Table>> {
    table_of(saved, Some(upto))
}

/// The whole saved match (`None`: checked against its position, behind the cover), or its
/// public table after some actions.
fn table_of(
    saved: &crate::session::SavedGame,
    upto: Option<usize>,
) -> crate::games::RuleResult<Box<dyn Table>> {
    use crate::games::{iota::Iota, omiga::Omiga, ovo::Ovo, RuleResult};
    fn session<G: crate::ai::Opponents>(
        saved: &crate::session::SavedGame,
        upto: Option<usize>,
    ) -> RuleResult<Match<G>> {
        match upto {
            None => Match::from_saved(saved),
            Some(n) => Match::public_at(saved, n),
        }
    }
    // The edge where a saved game's name is read.
    match saved.game.parse::<GameKind>()? {
        GameKind::Ovo => Ok(Box::new(super::ovo::OvoTable::from_match(session::<Ovo>(
            saved, upto,
        )?))),
        GameKind::Iota => Ok(Box::new(super::iota::IotaTable::from_match(
            session::<Iota>(saved, upto)?,
        ))),
        GameKind::Omiga => {
            let mut table = super::omiga::OmigaTable::from_match(session::<Omiga>(saved, upto)?);
            if upto.is_some() {
                // A replay has no "Ready?": play is already on in every position shown.
                table.skip_countdown();
            }
            Ok(Box::new(table))
        }
    }
}
