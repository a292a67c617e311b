//! A year of days per game, each puzzle checked again through `PuzzleRun` (the path the
//! screens take), and the digests every platform must agree on.

use super::*;
use crate::games::iota::Iota;
use crate::games::omiga::Omiga;
use crate::games::ovo::{Cell, Ovo};
use crate::games::Outcome;

const GAMES: [GameKind; 3] = [GameKind::Iota, GameKind::Ovo, GameKind::Omiga];

/// Day → digest for a few fixed days: the native test here and the browser build
/// (.ci/puzzles-wasm) both check this list.
const DIGESTS: &str = include_str!("digests.txt");

fn year() -> impl Iterator<Item = Day> {
    let first = Day::from_ymd(2027, 1, 1).map_or(0, |d| d.0);
    (first..first + 365).map(Day)
}

#[test]
fn dates_round_trip_and_weeks_start_on_monday() {
    assert_eq!(Day::from_ymd(1970, 1, 1), Some(Day(0)));
    assert_eq!(
        Day::from_ymd(2026, 12, 7).map(Day::level),
        Some(1),
        "a Monday"
    );
    assert_eq!(
        Day::from_ymd(2026, 12, 13).map(Day::level),
        Some(7),
        "a Sunday"
    );
    assert_eq!(Day::from_ymd(2027, 2, 29), None);
    assert_eq!(
        Day::from_ymd(2028, 2, 29).map(|d| d.to_string()),
        Some("2028-02-29".into())
    );
    for n in -800..80_000 {
        let (y, m, d) = Day(n).ymd();
        assert_eq!(Day::from_ymd(y, m, d), Some(Day(n)));
    }
}

#[test]
fn bands_rise_from_monday_to_sunday_without_overlap() {
    for kind in GAMES {
        for level in 1..7 {
            let (low, high) = band(kind, level);
            let (next_low, _) = band(kind, level + 1);
            assert!(low <= high && high < next_low, "{kind:?} level {level}");
        }
    }
}

/// What every puzzle must be, whatever the game.
fn check_common(p: &Puzzle, day: Day) {
    assert_eq!(p.day, day);
    assert_eq!(p.level, day.level());
    let (low, high) = band(p.kind, p.level);
    assert!(
        (low..=high).contains(&p.difficulty),
        "{day} {:?}: difficulty {} outside {low}..={high}",
        p.kind,
        p.difficulty
    );
    assert!(!p.answers.is_empty());
    // A second making is the same puzzle: nothing depends on anything but the day.
    if day.0 % 7 == 0 {
        assert_eq!(daily(p.kind, day).as_ref(), Ok(p));
    }
}

/// Every legal action of the puzzle's seat, played on a copy through `Game::play`: the
/// ones that `meets` are exactly the puzzle's answers, so the answer is proven.
fn check_every_action<G: Game>(p: &Puzzle, meets: impl Fn(&G, &G) -> bool) {
    let game = G::from_position(&p.position).expect("the puzzle's position is valid");
    let mut found = Vec::new();
    for action in game.legal_actions(p.seat) {
        let mut after = game.clone();
        after.play(p.seat, &action).expect("a legal action plays");
        if meets(&game, &after) {
            found.push(action.to_string());
        }
    }
    let mut want = p.answers.clone();
    want.sort();
    found.sort();
    assert_eq!(found, want, "{} {:?}", p.day, p.kind);
}

/// Each answer solves the puzzle on a fresh run, and the position never changes.
fn check_answers<G: Game>(p: &Puzzle) {
    for answer in &p.answers {
        let mut run = PuzzleRun::<G>::new(p.clone()).expect("the position is valid");
        let solved = run.try_line(answer);
        assert!(
            matches!(solved, Verdict::Solved { .. }),
            "{answer}: {solved:?}"
        );
        assert_eq!(run.try_line(answer), Verdict::Finished);
    }
}

#[test]
fn a_year_of_iota_puzzles() {
    for day in year() {
        let p = daily(GameKind::Iota, day).expect("a puzzle every day");
        check_common(&p, day);
        check_answers::<Iota>(&p);
        let Goal::BestScore { best } = p.goal else {
            panic!("IOTA asks for the best score");
        };
        assert!(best > 0);
        if day.level() >= 4 {
            assert!(
                p.answers.iter().all(|a| a.split_whitespace().count() >= 3),
                "{day}: {:?}",
                p.answers
            );
        }
        // Weekly, the whole proof again: no play beats the best, and every play that
        // reaches it is an answer.
        if day.0 % 7 == 0 {
            let gain =
                |before: &Iota, after: &Iota| after.scores()[p.seat] - before.scores()[p.seat];
            check_every_action::<Iota>(&p, |b, a| gain(b, a) == i64::from(best));
            let game = Iota::from_position(&p.position).expect("valid");
            for action in game.legal_actions(p.seat) {
                let mut after = game.clone();
                after.play(p.seat, &action).expect("legal");
                assert!(
                    gain(&game, &after) <= i64::from(best),
                    "{day}: {action} beats the best"
                );
            }
        }
    }
}

#[test]
fn a_year_of_ovo_puzzles() {
    for day in year() {
        let p = daily(GameKind::Ovo, day).expect("a puzzle every day");
        check_common(&p, day);
        check_answers::<Ovo>(&p);
        let game = Ovo::from_position(&p.position).expect("valid");
        // The eggs the puzzle names are exactly the solver's, all hidden, one away from
        // the camp.
        let mine: Vec<String> = Cell::all()
            .filter(|c| game.board().get(*c).is_some_and(|e| e.owner == 0))
            .map(|c| c.to_string())
            .collect();
        assert_eq!(p.known, mine, "{day}");
        assert!(Cell::all().all(|c| game.board().get(c).is_none_or(|e| e.owner != 0 || e.hidden)));
        let away = Cell::all()
            .filter(|c| c.rank() > 0 && game.board().get(*c).is_some_and(|e| e.owner == 0))
            .count();
        assert_eq!(away, 1, "{day}");
        // The shortest winning move takes the day's jumps.
        let jumps = |a: &String| a.matches('x').count();
        assert_eq!(
            p.answers.iter().map(jumps).min(),
            Some(ovo::JUMPS[usize::from(p.level - 1)]),
            "{day}: {:?}",
            p.answers
        );
        if day.0 % 7 == 0 {
            check_every_action::<Ovo>(&p, |_, a| a.outcome() == Outcome::Win { seat: 0 });
        }
    }
}

#[test]
fn a_year_of_omiga_puzzles() {
    for day in year() {
        let p = daily(GameKind::Omiga, day).expect("a puzzle every day");
        check_common(&p, day);
        check_answers::<Omiga>(&p);
        assert!(p.answers.len() < p.legal, "{day}: every legal card wins");
        if day.0 % 7 == 0 {
            check_every_action::<Omiga>(&p, |_, a| a.outcome() == Outcome::Win { seat: 0 });
        }
    }
}

#[test]
fn digests_are_the_pinned_ones() {
    let mut checked = 0;
    for line in DIGESTS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [game, date, digest] = words[..] else {
            panic!("bad line {line}");
        };
        let kind: GameKind = game.parse().expect("a game");
        let ymd: Vec<u32> = date
            .split('-')
            .map(|n| n.parse().expect("a number"))
            .collect();
        let day = Day::from_ymd(ymd[0] as i32, ymd[1], ymd[2]).expect("a date");
        let p = daily(kind, day).expect("a puzzle");
        assert_eq!(p.digest(), digest, "{game} {date}");
        checked += 1;
    }
    assert!(checked >= 21);
}

#[test]
fn a_try_is_judged_by_the_engine_and_leaves_the_board_alone() {
    let day = Day::from_ymd(2027, 3, 3).expect("a date");
    // IOTA: a legal play below the best counts as a scored try; the best solves.
    let p = daily(GameKind::Iota, day).expect("a puzzle");
    let Goal::BestScore { best } = p.goal else {
        panic!("IOTA asks for the best score");
    };
    let mut run = PuzzleRun::<Iota>::new(p.clone()).expect("valid");
    let game = Iota::from_position(&p.position).expect("valid");
    let worse = game
        .legal_actions(p.seat)
        .into_iter()
        .map(|a| a.to_string())
        .find(|a| a.starts_with("place") && !p.answers.contains(a))
        .expect("a play below the best");
    assert!(
        matches!(run.try_line(&worse), Verdict::Scored { best: b, score } if b == best && score < best)
    );
    assert_eq!(run.tries(), 1);
    assert!(matches!(
        run.try_line("place Rt2@40,40"),
        Verdict::Refused(_)
    ));
    assert_eq!(run.tries(), 1, "a refused try does not count");
    assert_eq!(
        run.try_line(&p.answers[0]),
        Verdict::Solved { score: Some(best) }
    );
    assert!(run.solved());
    // Ovo: a wrong declaration does not win; giving up shows the answers.
    let p = daily(GameKind::Ovo, day).expect("a puzzle");
    let mut run = PuzzleRun::<Ovo>::new(p.clone()).expect("valid");
    assert_eq!(run.try_line("ovo"), Verdict::DoesNotWin);
    assert!(matches!(run.try_line("a1-a9"), Verdict::Refused(_)));
    assert_eq!(run.give_up(), p.answers.as_slice());
    assert!(!run.solved());
    assert_eq!(run.try_line(&p.answers[0]), Verdict::Finished);
}

/// Prints three days of each game with their answers (docs/puzzles.md quotes them):
/// `cargo test --no-default-features --lib puzzles::tests::show -- --ignored --nocapture`.
#[test]
#[ignore]
fn show() {
    for (y, m, d) in [(2027, 3, 1), (2027, 3, 4), (2027, 3, 7)] {
        let day = Day::from_ymd(y, m, d).expect("a date");
        for kind in GAMES {
            let p = daily(kind, day).expect("a puzzle");
            println!(
                "{kind:?} {day} level {} attempt {} legal {} difficulty {} digest {}\n  {}\n  known {:?}\n  goal {:?}\n  answers {:?}",
                p.level, p.attempt, p.legal, p.difficulty, p.digest(), p.position, p.known, p.goal, p.answers
            );
        }
    }
    for kind in GAMES {
        let mut attempts = Vec::new();
        for day in year() {
            attempts.push(daily(kind, day).expect("a puzzle").attempt);
        }
        attempts.sort();
        println!(
            "{kind:?}: attempts per day median {} max {}",
            attempts[attempts.len() / 2],
            attempts[attempts.len() - 1]
        );
    }
}

/// Prints the digest list (to refresh digests.txt after a deliberate change).
#[test]
#[ignore]
fn print_digests() {
    for kind in GAMES {
        for n in 0..7 {
            let day = Day(Day::from_ymd(2027, 1, 4).map_or(0, |d| d.0) + n * 53);
            let p = daily(kind, day).expect("a puzzle");
            println!("{} {day} {}", kind.name(), p.digest());
        }
    }
}

/// Prints the difficulty of a game's first candidates per level (to choose the bands).
#[test]
#[ignore]
fn omiga_distribution() {
    for level in 1..=7u8 {
        let mut ds = Vec::new();
        let mut rng = stream(GameKind::Omiga, Day(20_000 + i64::from(level)));
        for attempt in 0..60 {
            if let Some(p) = omiga::candidate(&mut rng, Day(0), level, attempt, (1, 100_000)) {
                ds.push(p.difficulty);
            }
        }
        ds.sort();
        println!("Omiga {level}: {ds:?}");
    }
}

#[test]
fn a_clock_run_out_counts_as_a_try_that_missed_until_the_run_ends() {
    let day = Day::from_ymd(2027, 3, 4).expect("a date");
    let p = daily(GameKind::Omiga, day).expect("a puzzle");
    let mut run = PuzzleRun::<crate::games::omiga::Omiga>::new(p.clone()).expect("valid");
    assert_eq!(run.time_up(), Verdict::DoesNotWin);
    assert_eq!(run.tries(), 1);
    assert!(!run.finished() && !run.solved());
    assert_eq!(run.try_line(&p.answers[0]), Verdict::Solved { score: None });
    assert_eq!(run.tries(), 2);
    assert_eq!(
        run.time_up(),
        Verdict::Finished,
        "a solved run has no clock"
    );
    assert_eq!(run.tries(), 2);
}
