//! Omiga's table as Slint models and words: the cells, a hand, a card said aloud. The
//! face-to-face table (`omiga`) and the two-device one (`lan`) both draw with them.

use super::texts::{self, OmigaText};
use super::{OmigaCardUi, OmigaCellUi, OmigaHandUi};
use crate::games::omiga::{Action, Card, Colour, Figure, Side};
use crate::games::Seat;

/// The hand of `seat` as its owner sees it, with the selected card (already turned when
/// `turned`) marked, and the cards that fit no cell now, either way up (`nowhere`, by
/// index; empty while nobody may play): a reader's player learns it from the card, as a
/// sighted one does from a glance at the table.
pub fn hand_models(
    seat: Seat,
    hand: &[Card],
    selected: Option<usize>,
    turned: bool,
    nowhere: &[bool],
    language: &str,
) -> Vec<OmigaHandUi> {
    let whose = side_word(seat, language);
    let n = hand.len();
    hand.iter()
        .enumerate()
        .map(|(i, card)| {
            let selected = selected == Some(i);
            let turned = selected && turned;
            let shown = card.oriented(turned);
            let mut label = card_label(&whose, i, n, &card_parts(shown, language), language);
            if nowhere.get(i).copied().unwrap_or(false) {
                label = say(language, OmigaText::FitsNowhere { label });
            }
            if selected {
                label = say(language, OmigaText::Selected { label });
            }
            if turned {
                label = say(language, OmigaText::Turned { label });
            }
            OmigaHandUi {
                card: card_ui(shown),
                selected,
                turned,
                label: label.into(),
                back: false,
            }
        })
        .collect()
}

/// For each card of `hand`, whether none of `legal` (the seat's legal actions now, from
/// the rules core: every card, as held and turned) places it: what "fits nowhere" says.
pub fn fits_nowhere(hand: &[Card], legal: &[Action]) -> Vec<bool> {
    hand.iter()
        .map(|c| {
            !legal
                .iter()
                .any(|a| matches!(a, Action::Place { card, .. } if card == c))
        })
        .collect()
}

/// "White's card 2/4: …": the `i`-th (from 0) of `n` cards of a side, and what it shows.
pub fn card_label(whose: &str, i: usize, n: usize, shows: &str, language: &str) -> String {
    let side = whose.to_string();
    format!(
        "{} {}/{n}: {shows}",
        say(language, OmigaText::CardOf { side }),
        i + 1
    )
}

/// The cells of a `w`×`h` table in screen order (Black's edge y = H-1 at the top, the
/// order the face-to-face screen and the host's screen draw; the joined device turns the
/// whole board). `placed` tells what lies on a cell, `legal` the cells each seat's
/// selected card may go to (from the rules core), `last` the last card laid, `over`
/// whether it decided the game, and `pending` a card this device sent and the host has
/// not confirmed yet (drawn in place, labelled as waiting). `from_black` turns the board
/// to Black's edge (the joined device): cells in reverse order, each card drawn turned,
/// labels unchanged.
#[allow(clippy::too_many_arguments)]
pub fn board_cells(
    (w, h): (u8, u8),
    placed: impl Fn(u8, u8) -> Option<(Side, Card)>,
    legal: [&[(u8, u8)]; 2],
    last: Option<(u8, u8)>,
    over: bool,
    pending: Option<(u8, u8, Side, Card)>,
    from_black: bool,
    language: &str,
) -> Vec<OmigaCellUi> {
    let mut cells = Vec::with_capacity(usize::from(w) * usize::from(h));
    // A chosen card with somewhere to go: the other cells are closed to it.
    let choosing = legal.iter().any(|l| !l.is_empty());
    // Rows from the top of the screen (Black's edge, y = H-1) down to White's (y = 0).
    for y in (0..h).rev() {
        for x in 0..w {
            let waiting = pending.filter(|p| p.0 == x && p.1 == y && placed(x, y).is_none());
            let here = placed(x, y).or(waiting.map(|p| (p.2, p.3)));
            let lw = legal[0].contains(&(x, y));
            let lb = legal[1].contains(&(x, y));
            let content = match here {
                Some((side, card)) => format!(
                    "{}, {}",
                    say(
                        language,
                        match side {
                            Side::White => OmigaText::WhiteCard,
                            Side::Black => OmigaText::BlackCard,
                        }
                    ),
                    card_parts(card, language)
                ),
                None => say(language, OmigaText::Empty),
            };
            let mut label = format!("x {x}, y {y}: {content}");
            if waiting.is_some() {
                label = say(language, OmigaText::WaitingForHost { label });
            }
            if lw {
                label = say(language, OmigaText::WhiteMay { label });
            }
            if lb {
                label = say(language, OmigaText::BlackMay { label });
            }
            let is_last = last == Some((x, y));
            cells.push(OmigaCellUi {
                x: x.into(),
                y: y.into(),
                filled: here.is_some(),
                side: here.map_or(0, |p| p.0.seat() as i32),
                card: here.map_or_else(Default::default, |p| card_ui(p.1.oriented(from_black))),
                legal_white: lw,
                legal_black: lb,
                last: is_last,
                deciding: is_last && over,
                label: label.into(),
                answer: false,
                closed: choosing && !lw && !lb,
            });
        }
    }
    if from_black {
        cells.reverse();
    }
    cells
}

pub fn side_word(seat: Seat, language: &str) -> String {
    say(
        language,
        if seat == 0 {
            OmigaText::White
        } else {
            OmigaText::Black
        },
    )
}

fn figure_index(f: Figure) -> i32 {
    match f {
        Figure::Diagonal => 0,
        Figure::Point => 1,
        Figure::Notch => 2,
    }
}

pub fn card_ui(card: Card) -> OmigaCardUi {
    OmigaCardUi {
        top: figure_index(card.top),
        bottom: figure_index(card.bottom),
        left_pink: card.left == Colour::Pink,
        right_pink: card.right == Colour::Pink,
    }
}

fn figure_word(f: Figure, language: &str) -> String {
    let word = match f {
        Figure::Diagonal => OmigaText::Diagonal,
        Figure::Point => OmigaText::Point,
        Figure::Notch => OmigaText::Notch,
    };
    say(language, word)
}

fn colour_word(c: Colour, language: &str) -> String {
    let word = match c {
        Colour::Green => OmigaText::Green,
        Colour::Pink => OmigaText::Pink,
    };
    say(language, word)
}

/// "point top, notch bottom, green left, pink right".
pub fn card_parts(card: Card, language: &str) -> String {
    let parts = OmigaText::CardParts {
        top: figure_word(card.top, language),
        bottom: figure_word(card.bottom, language),
        left: colour_word(card.left, language),
        right: colour_word(card.right, language),
    };
    say(language, parts)
}

/// `text` in the app's language.
pub fn say(language: &str, text: OmigaText) -> String {
    texts::say(&text, language)
}
