//! The text a player shares after a day's puzzle, in English or Russian: the game, the
//! date, the result and the streak, and nothing of the position or the answer, so a
//! friend who has not played yet loses nothing by reading it.

use super::Day;
use crate::games::registry::GameKind;
use crate::store::puzzles::DayResult;

/// One line per part of the result: "Hotseat IOTA · 2027-03-01" then the outcome.
pub fn share_text(
    kind: GameKind,
    day: Day,
    result: &DayResult,
    streak: u32,
    russian: bool,
) -> String {
    let (y, m, d) = day.ymd();
    let title = kind.title();
    let mut lines = Vec::new();
    if russian {
        lines.push(format!("Hotseat {title} · {d:02}.{m:02}.{y}"));
    } else {
        lines.push(format!("Hotseat {title} · {y}-{m:02}-{d:02}"));
    }
    let tries = result.tries;
    let outcome = match (result.solved, result.score, result.best, russian) {
        (_, Some(score), Some(best), false) => {
            format!("{score} of {best} points, {tries} {}", plural_en(tries))
        }
        (_, Some(score), Some(best), true) => {
            format!("очки: {score} из {best}, {tries} {}", plural_ru(tries))
        }
        (true, _, _, false) => format!("solved in {tries} {}", plural_en(tries)),
        (true, _, _, true) => format!("решено за {tries} {}", plural_ru(tries)),
        (false, _, _, false) if result.gave_up => {
            format!("answer shown after {tries} {}", plural_en(tries))
        }
        (false, _, _, true) if result.gave_up => {
            format!("ответ показан после {tries} {}", plural_ru(tries))
        }
        (false, _, _, false) => format!("not solved yet, {tries} {}", plural_en(tries)),
        (false, _, _, true) => format!("пока не решено, {tries} {}", plural_ru(tries)),
    };
    lines.push(outcome);
    // A row of squares: one per try, the last green when solved (no position in it).
    let mut squares: String = "⬜".repeat(tries.saturating_sub(u32::from(result.solved)) as usize);
    if result.solved {
        squares.push('🟩');
    }
    if !squares.is_empty() {
        lines.push(squares);
    }
    if streak > 1 {
        lines.push(if russian {
            format!("дней подряд: {streak}")
        } else {
            format!("{streak} days in a row")
        });
    }
    lines.join("\n")
}

fn plural_en(n: u32) -> &'static str {
    if n == 1 {
        "try"
    } else {
        "tries"
    }
}

/// Russian plural of «попытка» after a number: 1 попытка, 2–4 попытки, 5+ попыток (and
/// 11–14 попыток).
fn plural_ru(n: u32) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=14) => "попыток",
        (1, _) => "попытка",
        (2..=4, _) => "попытки",
        _ => "попыток",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::daily;

    #[test]
    fn the_shared_text_says_the_result_in_both_languages_and_spoils_nothing() {
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
            };
            for russian in [false, true] {
                let text = share_text(kind, day, &result, 4, russian);
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
            let en = share_text(kind, day, &result, 4, false);
            let ru = share_text(kind, day, &result, 4, true);
            assert!(
                en.contains("2027-03-04") && en.contains("4 days in a row"),
                "{en}"
            );
            assert!(
                ru.contains("04.03.2027") && ru.contains("дней подряд: 4"),
                "{ru}"
            );
        }
    }

    #[test]
    fn iota_says_the_score_against_the_best_and_russian_counts_tries_right() {
        let day = Day::from_ymd(2027, 3, 1).expect("a date");
        let r = DayResult {
            game: "iota".into(),
            day: day.0,
            tries: 2,
            solved: false,
            gave_up: true,
            score: Some(23),
            best: Some(31),
        };
        assert!(share_text(GameKind::Iota, day, &r, 0, false).contains("23 of 31 points, 2 tries"));
        assert!(share_text(GameKind::Iota, day, &r, 0, true).contains("очки: 23 из 31, 2 попытки"));
        assert_eq!(plural_ru(1), "попытка");
        assert_eq!(plural_ru(5), "попыток");
        assert_eq!(plural_ru(12), "попыток");
        assert_eq!(plural_ru(22), "попытки");
    }
}
