//! The rules core's refusals in the player's language, through Slint's translations.
//!
//! The core's `RuleError` prints the referee's English. Each player-facing variant is
//! named here by an id, with what varies (cell, card, line, seat) as arguments, and
//! `ui/refusals.slint` words it with `@tr`, so the Russian lives in the .po file with
//! every other text of the app. Errors only the referee and save files meet
//! (`RuleError::Other`) stay in English.

use super::{AppWindow, Refusals};
use crate::games::iota::{Attribute, IotaError};
use crate::games::omiga::{OmigaError, Refusal};
use crate::games::ovo::OvoError;
use crate::games::RuleError;
use slint::ComponentHandle;
use std::cell::RefCell;

thread_local! {
    /// The window whose translations word the refusals. The bridges make their
    /// messages inside table methods that do not hold the window, and Slint's
    /// translations are reached only through a component. Set by `ui::build`.
    static WINDOW: RefCell<Option<slint::Weak<AppWindow>>> = const { RefCell::new(None) };
}

/// Makes `app` the window that words refusals on this thread.
pub fn install(app: &AppWindow) {
    WINDOW.with(|w| *w.borrow_mut() = Some(app.as_weak()));
}

/// The window installed on this thread, if it is still up (src/ui/texts.rs words its
/// texts through it too).
pub(super) fn window() -> Option<AppWindow> {
    WINDOW.with(|w| w.borrow().as_ref().and_then(|w| w.upgrade()))
}

/// A refusal in `language`: the referee's English as is, any other language from the
/// window's translations (English again when no window is up, as in unit tests).
pub fn say(e: &RuleError, language: &str) -> String {
    if language == "en" {
        return e.to_string();
    }
    match window() {
        Some(app) => in_window(&app, e),
        None => e.to_string(),
    }
}

/// A refusal in the language `app` has selected (`slint::select_bundled_translation`).
pub fn in_window(app: &AppWindow, e: &RuleError) -> String {
    let words = app.global::<Refusals>();
    let Some((id, args)) = parts(e, |w| words.invoke_word(w.into()).to_string()) else {
        return e.to_string();
    };
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default().into();
    let text = words.invoke_text(id.into(), arg(0), arg(1), arg(2));
    // An id the .slint file does not know yet: English beats an empty message line.
    if text.is_empty() {
        e.to_string()
    } else {
        text.into()
    }
}

/// What varies in a refusal, in English and in the order of its text (empty for
/// `RuleError::Other`): tests/translations.rs checks that the Russian keeps each.
pub fn arguments(e: &RuleError) -> Vec<String> {
    parts(e, str::to_string).map_or_else(Vec::new, |(_, args)| args)
}

/// The refusal's id in ui/refusals.slint and its arguments in the order of the English
/// text; `word` translates an IOTA colour or shape. `None` for `RuleError::Other`.
fn parts(e: &RuleError, word: impl Fn(&str) -> String) -> Option<(&'static str, Vec<String>)> {
    let one = |id, a: &dyn ToString| Some((id, vec![a.to_string()]));
    let two =
        |id, a: &dyn ToString, b: &dyn ToString| Some((id, vec![a.to_string(), b.to_string()]));
    let none = |id| Some((id, Vec::new()));
    match e {
        RuleError::NoSeat { seat, last } => two("no-seat", seat, last),
        RuleError::NoSuchSeat { seat } => one("no-such-seat", seat),
        RuleError::GameOver => none("game-over"),
        RuleError::NotYourTurn { seat } => one("not-your-turn", seat),
        RuleError::RevealFirst => none("reveal-first"),
        RuleError::CannotTakeBack => none("cannot-take-back"),
        RuleError::Ovo(e) => match e {
            OvoError::Empty { cell } => one("ovo-empty", cell),
            OvoError::NotYours { cell } => one("ovo-not-yours", cell),
            OvoError::MovedLast { cell } => one("ovo-moved-last", cell),
            OvoError::NotAStep { from, to } => two("ovo-not-a-step", from, to),
            OvoError::NotEmpty { cell } => one("not-empty", cell),
            OvoError::NotHidden { cell } => one("ovo-not-hidden", cell),
            OvoError::MayNotPass => none("ovo-may-not-pass"),
            OvoError::NoLanding => none("ovo-no-landing"),
            OvoError::NotAJump { from, to } => two("ovo-not-a-jump", from, to),
            OvoError::BackToStart { cell } => one("ovo-back-to-start", cell),
            OvoError::LandsTwice { cell } => one("ovo-lands-twice", cell),
            OvoError::NothingToJump { cell } => one("ovo-nothing-to-jump", cell),
            OvoError::FlippedEnds { cell } => one("ovo-flipped-ends", cell),
        },
        RuleError::Iota(e) => match e {
            IotaError::HoldOnlyOne { card } => one("iota-hold-only-one", card),
            IotaError::NotHeld { card } => one("iota-not-held", card),
            IotaError::LineTooLong { from, to, count } => Some((
                "iota-line-too-long",
                vec![from.to_string(), to.to_string(), count.to_string()],
            )),
            IotaError::SameCardTwice { from, to } => two("iota-same-card-twice", from, to),
            IotaError::Mixed {
                attribute,
                from,
                to,
                cards,
            } => {
                let id = match attribute {
                    Attribute::Colours => "iota-mixed-colours",
                    Attribute::Shapes => "iota-mixed-shapes",
                    Attribute::Numbers => "iota-mixed-numbers",
                };
                let values: Vec<String> = cards
                    .iter()
                    .map(|c| word(&attribute.value_of(*c)))
                    .collect();
                Some((
                    id,
                    vec![from.to_string(), to.to_string(), values.join(", ")],
                ))
            }
            IotaError::PlaceOneToFour => none("iota-place-one-to-four"),
            IotaError::TooFarOut { cell } => one("iota-too-far-out", cell),
            IotaError::TwoOnOne { cell } => one("iota-two-on-one", cell),
            IotaError::NotEmpty { cell } => one("not-empty", cell),
            IotaError::NotOneLine => none("iota-not-one-line"),
            IotaError::Gap { cell } => one("iota-gap", cell),
            IotaError::CoverCentre => none("iota-cover-centre"),
            IotaError::MustTouch => none("iota-must-touch"),
            IotaError::WildsDontFit => none("iota-wilds-dont-fit"),
            IotaError::NoWild { cell } => one("iota-no-wild", cell),
            IotaError::EmptyNoWild { cell } => one("iota-empty-no-wild", cell),
            IotaError::WildForWild => none("iota-wild-for-wild"),
            IotaError::DoesNotFit { card, cell } => two("iota-does-not-fit", card, cell),
            IotaError::ReturnAtMostFour => none("iota-return-at-most-four"),
        },
        RuleError::Omiga(e) => match e {
            OmigaError::NoSeat { seat } => one("omiga-no-seat", seat),
            OmigaError::TurningOff => none("omiga-turning-off"),
            OmigaError::NotInHand { card } => one("omiga-not-in-hand", card),
            OmigaError::MayNotDiscard => none("omiga-may-not-discard"),
            OmigaError::Placement { why, x, y } => {
                // The English names the neighbour that does not fit by its cell
                // (saturating: a refusal from the network may carry any number).
                let (x, y) = (*x, *y);
                match why {
                    Refusal::Outside => one("omiga-outside", &format!("{x},{y}")),
                    Refusal::Taken => none("omiga-taken"),
                    Refusal::NoOwnNeighbour => none("omiga-no-own-neighbour"),
                    Refusal::NoOpponentNear => none("omiga-no-opponent-near"),
                    Refusal::ColoursLeft => one(
                        "omiga-colours-left",
                        &format!("{},{y}", x.saturating_sub(1)),
                    ),
                    Refusal::ColoursRight => one(
                        "omiga-colours-right",
                        &format!("{},{y}", x.saturating_add(1)),
                    ),
                    Refusal::FiguresAbove => one(
                        "omiga-figures-above",
                        &format!("{x},{}", y.saturating_add(1)),
                    ),
                    Refusal::FiguresBelow => one(
                        "omiga-figures-below",
                        &format!("{x},{}", y.saturating_sub(1)),
                    ),
                }
            }
        },
        RuleError::Other(_) => None,
    }
}
