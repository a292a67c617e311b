//! How IOTA's cards and cells are read out (accessibility labels and messages), in the
//! app's language.

use crate::games::iota::{Card, Cell};
use crate::ui::texts::{self, IotaText};

/// How a card reads aloud: "red triangle two".
pub fn card_words(card: Card, language: &str) -> String {
    use IotaText::*;
    if card.is_wild() {
        return texts::say(&Wild, language);
    }
    let pick = |list: [IotaText; 4], i: u8| {
        list.get(usize::from(i))
            .map(|t| texts::say(t, language))
            .unwrap_or_default()
    };
    format!(
        "{} {} {}",
        pick([Red, Green, Blue, Yellow], card.colour()),
        pick([Circle, Square, Triangle, Cross], card.shape()),
        pick([One, Two, Three, Four], card.number().saturating_sub(1)),
    )
}

fn coord_words(v: i32, language: &str) -> String {
    if v < 0 {
        texts::say(
            &IotaText::Minus {
                n: v.unsigned_abs(),
            },
            language,
        )
    } else {
        v.to_string()
    }
}

/// How a cell reads aloud: "column 2, row minus 1".
pub fn cell_words(cell: Cell, language: &str) -> String {
    let col = coord_words(cell.x, language);
    let row = coord_words(cell.y, language);
    texts::say(&IotaText::CellWords { col, row }, language)
}
