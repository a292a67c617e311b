//! The text a player shares after a day's puzzle: the game, the date, the result and the
//! streak, and nothing of the position or the answer, so a friend who has not played yet
//! loses nothing by reading it. The words come in a [`ShareWords`]: English here, the
//! player's language from the UI's translations (Rust holds no Russian, tests/translations.rs).

use super::puzzles::DayResult;
use crate::games::registry::GameKind;
use crate::puzzles::Day;

/// How a language chooses the form of "try" after a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plural {
    /// 1 try, 2 tries.
    English,
    /// Russian's three forms: 1, 21 (one); 2–4, 22–24 (few); 0, 5–20, 25… (many).
    Russian,
}

/// The words of a share text in one language; `{}` is filled in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareWords {
    /// The date line: game title, date.
    pub title: String,
    /// The date as 04.03.2027 (else 2027-03-04).
    pub day_first: bool,
    /// IOTA: score, best, tries (with its word).
    pub points: String,
    /// Solved: tries.
    pub solved: String,
    /// Given up: tries.
    pub gave_up: String,
    /// Still open: tries.
    pub open: String,
    /// The streak: days.
    pub streak: String,
    /// A solve against the clock: seconds.
    pub clock: String,
    /// "try" in its forms: one, few (Russian), many.
    pub tries: [String; 3],
    /// Which form a count takes.
    pub plural: Plural,
}

impl ShareWords {
    /// The English words (the source the translations start from).
    pub fn english() -> ShareWords {
        ShareWords {
            title: "Hotseat {} · {}".into(),
            day_first: false,
            points: "{} of {} points, {}".into(),
            solved: "solved in {}".into(),
            gave_up: "answer shown after {}".into(),
            open: "not solved yet, {}".into(),
            streak: "{} days in a row".into(),
            clock: "against the clock: {} s".into(),
            tries: ["try".into(), "tries".into(), "tries".into()],
            plural: Plural::English,
        }
    }

    fn count(&self, n: u32) -> String {
        let form = match self.plural {
            Plural::English => usize::from(n != 1) * 2,
            Plural::Russian => match (n % 10, n % 100) {
                (_, 11..=14) => 2,
                (1, _) => 0,
                (2..=4, _) => 1,
                _ => 2,
            },
        };
        format!("{n} {}", self.tries[form])
    }
}

/// Fills `{}` in `template` with `args` in order (a missing argument leaves nothing);
/// the UI's English texts fill theirs with it too.
pub fn fill(template: &str, args: &[String]) -> String {
    let mut out = String::new();
    let mut rest = template;
    let mut next = args.iter();
    while let Some(i) = rest.find("{}") {
        out.push_str(&rest[..i]);
        out.push_str(next.next().map_or("", String::as_str));
        rest = &rest[i + 2..];
    }
    out.push_str(rest);
    out
}

/// The share text: the date line, the result, one square per try (the last green when
/// solved) and the streak when it is more than a day.
pub fn share_text(
    kind: GameKind,
    day: Day,
    result: &DayResult,
    streak: u32,
    words: &ShareWords,
) -> String {
    let (y, m, d) = day.ymd();
    let date = if words.day_first {
        format!("{d:02}.{m:02}.{y}")
    } else {
        format!("{y}-{m:02}-{d:02}")
    };
    let mut lines = vec![fill(&words.title, &[kind.title().to_string(), date])];
    let tries = words.count(result.tries);
    lines.push(match (result.score, result.best) {
        (Some(score), Some(best)) => {
            fill(&words.points, &[score.to_string(), best.to_string(), tries])
        }
        _ if result.solved => fill(&words.solved, &[tries]),
        _ if result.gave_up => fill(&words.gave_up, &[tries]),
        _ => fill(&words.open, &[tries]),
    });
    let mut squares = "⬜".repeat(result.tries.saturating_sub(u32::from(result.solved)) as usize);
    if result.solved {
        squares.push('🟩');
    }
    if !squares.is_empty() {
        lines.push(squares);
    }
    if let (true, Some(seconds)) = (result.solved, result.seconds) {
        lines.push(fill(&words.clock, &[seconds.to_string()]));
    }
    if streak > 1 {
        lines.push(fill(&words.streak, &[streak.to_string()]));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::daily;

    /// Russian words as the UI's translation would give them.
    fn russian() -> ShareWords {
        ShareWords {
            title: "Hotseat {} · {}".into(),
            day_first: true,
            points: "очки: {} из {}, {}".into(),
            solved: "решено за {}".into(),
            gave_up: "ответ показан после {}".into(),
            open: "пока не решено, {}".into(),
            streak: "дней подряд: {}".into(),
            clock: "на время: {} с".into(),
            tries: ["попытка".into(), "попытки".into(), "попыток".into()],
            plural: Plural::Russian,
        }
    }

    #[test]
    fn the_shared_text_says_the_result_and_spoils_nothing() {
        let day = Day::from_ymd(2027, 3, 4).expect("a date");
        for kind in [GameKind::Iota, GameKind::Ovo, GameKind::Omiga] {
            let p = daily(kind, day).expect("a puzzle");
            let result = DayResult {
                game: kind.name().into(),
                day: day.0,
                tries: 3,
                solved: true,
                gave_up: false,
                score: p.goal_best(),
                best: p.goal_best(),
                seconds: None,
            };
            for words in [ShareWords::english(), russian()] {
                let text = share_text(kind, day, &result, 4, &words);
                assert!(text.contains(kind.title()), "{text}");
                assert!(text.contains("⬜⬜🟩"), "{text}");
                // No cell, card or move of the position or the answer.
                for answer in &p.answers {
                    for word in answer
                        .split_whitespace()
                        .filter(|w| *w != "place" && *w != "ovo")
                    {
                        assert!(!text.contains(word), "{text} spoils {word}");
                    }
                }
                for cell in &p.known {
                    assert!(!text.contains(cell.as_str()), "{text} names {cell}");
                }
                assert!(!text.contains('@'), "{text}");
            }
            let en = share_text(kind, day, &result, 4, &ShareWords::english());
            assert!(
                en.contains("2027-03-04") && en.contains("4 days in a row"),
                "{en}"
            );
            assert!(en.contains("3 tries"), "{en}");
            let ru = share_text(kind, day, &result, 4, &russian());
            assert!(
                ru.contains("04.03.2027") && ru.contains("дней подряд: 4"),
                "{ru}"
            );
            assert!(ru.contains("3 попытки"), "{ru}");
        }
    }

    #[test]
    fn iota_says_the_score_against_the_best_and_counts_tries_in_each_language() {
        let day = Day::from_ymd(2027, 3, 1).expect("a date");
        let r = DayResult {
            game: "iota".into(),
            day: day.0,
            tries: 2,
            solved: false,
            gave_up: true,
            score: Some(23),
            best: Some(31),
            seconds: None,
        };
        let en = share_text(GameKind::Iota, day, &r, 0, &ShareWords::english());
        assert!(
            en.contains("23 of 31 points, 2 tries") && en.contains("⬜⬜"),
            "{en}"
        );
        let ru = share_text(GameKind::Iota, day, &r, 0, &russian());
        assert!(ru.contains("очки: 23 из 31, 2 попытки"), "{ru}");
        let (en, ru) = (ShareWords::english(), russian());
        assert_eq!(en.count(1), "1 try");
        assert_eq!(ru.count(1), "1 попытка");
        assert_eq!(ru.count(5), "5 попыток");
        assert_eq!(ru.count(12), "12 попыток");
        assert_eq!(ru.count(22), "22 попытки");
        assert_eq!(ru.count(21), "21 попытка");
    }

    #[test]
    fn the_clock_line_is_there_only_for_a_solve_against_the_clock() {
        let day = Day::from_ymd(2027, 3, 4).expect("a date");
        let mut r = DayResult {
            game: "omiga".into(),
            day: day.0,
            tries: 2,
            solved: true,
            ..DayResult::default()
        };
        let without = share_text(GameKind::Omiga, day, &r, 0, &ShareWords::english());
        assert!(!without.contains("clock"), "{without}");
        r.seconds = Some(42);
        let en = share_text(GameKind::Omiga, day, &r, 0, &ShareWords::english());
        assert!(en.ends_with("⬜🟩\nagainst the clock: 42 s"), "{en}");
        let ru = share_text(GameKind::Omiga, day, &r, 0, &russian());
        assert!(ru.ends_with("на время: 42 с"), "{ru}");
        // Given up: no time, whatever was kept.
        r.solved = false;
        r.gave_up = true;
        let gave_up = share_text(GameKind::Omiga, day, &r, 0, &ShareWords::english());
        assert!(!gave_up.contains("clock"), "{gave_up}");
    }
}
