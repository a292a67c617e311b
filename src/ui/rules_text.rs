//! The rules screens' text: one plain-text file per game and language in `ui/rules/`,
//! bundled into the binary. A line starting with `# ` is a heading; paragraphs are
//! separated by blank lines.

use crate::games::registry::GameKind;

/// One block of rules text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// True for a heading.
    pub heading: bool,
    /// The text, one paragraph.
    pub text: String,
}

fn source(game: GameKind, language: &str) -> &'static str {
    let russian = language == "ru";
    match game {
        GameKind::Ovo if russian => include_str!("../../ui/rules/ovo.ru.txt"),
        GameKind::Iota if russian => include_str!("../../ui/rules/iota.ru.txt"),
        GameKind::Omiga if russian => include_str!("../../ui/rules/omiga.ru.txt"),
        GameKind::Ovo => include_str!("../../ui/rules/ovo.en.txt"),
        GameKind::Iota => include_str!("../../ui/rules/iota.en.txt"),
        GameKind::Omiga => include_str!("../../ui/rules/omiga.en.txt"),
    }
}

/// The rules of `game` in `language` (`en` or `ru`), as blocks.
pub fn blocks(game: GameKind, language: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut paragraph = String::new();
    let flush = |paragraph: &mut String, blocks: &mut Vec<Block>| {
        if !paragraph.is_empty() {
            blocks.push(Block {
                heading: false,
                text: std::mem::take(paragraph),
            });
        }
    };
    for line in source(game, language).lines() {
        let line = line.trim_end();
        if let Some(h) = line.strip_prefix("# ") {
            flush(&mut paragraph, &mut blocks);
            blocks.push(Block {
                heading: true,
                text: h.to_string(),
            });
        } else if line.is_empty() {
            flush(&mut paragraph, &mut blocks);
        } else {
            if !paragraph.is_empty() {
                paragraph.push(if line.starts_with("• ") { '\n' } else { ' ' });
            }
            paragraph.push_str(line);
        }
    }
    flush(&mut paragraph, &mut blocks);
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_rules_in_both_languages_with_the_same_sections() {
        for game in GameKind::ALL {
            let en = blocks(game, "en");
            let ru = blocks(game, "ru");
            let headings = |b: &[Block]| b.iter().filter(|b| b.heading).count();
            assert!(
                headings(&en) >= 4,
                "{game:?} en has {} sections",
                headings(&en)
            );
            assert_eq!(
                headings(&en),
                headings(&ru),
                "{game:?}: en and ru differ in sections"
            );
            assert!(
                en.len() >= 8 && ru.len() >= 8,
                "{game:?} rules are too short"
            );
            assert!(ru
                .iter()
                .any(|b| b.text.chars().any(|c| ('а'..='я').contains(&c))));
            assert_ne!(en, ru);
        }
    }
}
