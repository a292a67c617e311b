//! Every lesson checked against the rules core: its positions, its solutions, its
//! replies, and how tries are judged.

use super::{iota, omiga, ovo, Lesson, LessonRun, Step, Verdict};
use crate::games::{Game, RuleError};

/// The legal actions of the step's seat in its position that meet the goal.
fn solutions<G: Game>(step: &Step<G>) -> Vec<G::Action> {
    let Ok(game) = G::from_position(step.position) else {
        return Vec::new();
    };
    game.legal_actions(step.seat)
        .into_iter()
        .filter(|action| {
            let mut after = game.clone();
            match after.play(step.seat, action) {
                Ok(event) => (step.goal)(action, &G::event_for(&event, step.seat), &after),
                Err(_) => false,
            }
        })
        .collect()
}

/// The legal actions that are accepted but miss the goal.
fn misses<G: Game>(step: &Step<G>) -> Vec<G::Action> {
    let Ok(game) = G::from_position(step.position) else {
        return Vec::new();
    };
    let good = solutions(step);
    game.legal_actions(step.seat)
        .into_iter()
        .filter(|a| !good.contains(a))
        .collect()
}

fn check_positions<G: Game>(lesson: &Lesson<G>) {
    assert!(!lesson.steps.is_empty());
    for step in &lesson.steps {
        // The same code `setup` runs (src/referee.rs): the registry's from_position.
        let game = lesson
            .kind
            .from_position(step.position)
            .unwrap_or_else(|e| panic!("{} step '{}': {e}", lesson.kind, step.name));
        assert!(!game.result().is_over(), "{}", step.name);
        let typed = G::from_position(step.position).expect("read by the game too");
        assert!(
            typed.to_act().contains(&step.seat),
            "{} step '{}': the learner cannot act",
            lesson.kind,
            step.name
        );
        assert!(!step.words.is_empty() && !step.task.is_empty() && !step.hint.is_empty());
        // The issue asks for one or two sentences on what to notice.
        let sentences = step.words.trim_end().matches(". ").count() + 1;
        assert!(
            step.words.ends_with('.') && sentences <= 2,
            "{} step '{}': {sentences} sentences",
            lesson.kind,
            step.name
        );
    }
}

fn check_solutions<G: Game>(lesson: &Lesson<G>) {
    for step in &lesson.steps {
        let good = solutions(step);
        assert!(
            !good.is_empty(),
            "{} step '{}' has no solution",
            lesson.kind,
            step.name
        );
        // The scripted replies must follow every solution, not just the expected one.
        for action in &good {
            let mut game = G::from_position(step.position).expect("checked above");
            game.play(step.seat, action).expect("a legal action");
            for (seat, line) in step.replies {
                let reply: G::Action = line.parse().expect("a reply in notation");
                if let Err(e) = game.play(*seat, &reply) {
                    panic!(
                        "{} step '{}': after {action}, reply {line} is refused: {e}",
                        lesson.kind, step.name
                    );
                }
            }
        }
    }
}

/// Plays the lesson from the first step to the last through a `LessonRun`, one
/// solution a step, and checks that the run ends there.
fn walk<G: Game>(lesson: Lesson<G>) {
    let count = lesson.steps.len();
    let solutions: Vec<G::Action> = lesson
        .steps
        .iter()
        .map(|s| solutions(s).remove(0))
        .collect();
    let mut run = LessonRun::new(lesson, 0).expect("the lesson starts");
    for (i, action) in solutions.iter().enumerate() {
        assert_eq!(run.index(), i);
        assert_eq!(run.try_action(action), Verdict::Passed);
        assert!(run.done().is_some());
        assert_eq!(
            run.step().replies.len(),
            run.done().map_or(0, |d| d.replies.len())
        );
        assert_eq!(run.try_action(action), Verdict::AlreadyPassed);
        assert!(run.legal_actions().is_empty());
        assert_eq!(run.next_step(), Ok(i + 1 < count));
    }
    assert!(run.is_last());
}

/// Every legal action that misses a step's goal is judged `NotTheGoal` with the hint, and
/// leaves the board as it was.
fn check_misses<G: Game>(lesson: Lesson<G>) -> usize {
    let steps: Vec<(usize, Vec<G::Action>)> = lesson
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (i, misses(s)))
        .collect();
    let mut run = LessonRun::new(lesson, 0).expect("the lesson starts");
    let mut judged = 0;
    for (i, wrong) in steps {
        run.go_to(i).expect("the step exists");
        let before = run.game().position();
        for action in wrong.iter().take(20) {
            assert_eq!(
                run.try_action(action),
                Verdict::NotTheGoal {
                    hint: run.step().hint
                },
                "step '{}' {action}",
                run.step().name
            );
            assert_eq!(run.game().position(), before);
            assert!(run.done().is_none());
            judged += 1;
        }
    }
    judged
}

/// An illegal try gets the engine's own reason, and the board stays as it was.
fn check_refused<G: Game>(lesson: Lesson<G>, step: usize, line: &str) -> RuleError {
    let mut run = LessonRun::new(lesson, step).expect("the step exists");
    let before = run.game().position();
    let expected = {
        let mut copy = run.game().clone();
        let action: G::Action = line.parse().expect("a try in notation");
        copy.play(run.step().seat, &action)
            .expect_err("the try is illegal")
    };
    match run.try_line(line) {
        Verdict::Refused { reason, hint } => {
            assert_eq!(reason, expected);
            assert_eq!(hint, run.step().hint);
            assert_eq!(run.game().position(), before);
            assert!(run.done().is_none());
            reason
        }
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn every_position_is_accepted_by_setup() {
    check_positions(&ovo::lesson());
    check_positions(&iota::lesson());
    check_positions(&omiga::lesson());
}

#[test]
fn every_position_is_answered_ok_by_the_referees_setup() {
    let mut referee = crate::referee::Referee::new();
    let kinds_and_positions = ovo::lesson()
        .steps
        .iter()
        .map(|s| ("ovo", s.position))
        .chain(iota::lesson().steps.iter().map(|s| ("iota", s.position)))
        .chain(omiga::lesson().steps.iter().map(|s| ("omiga", s.position)))
        .collect::<Vec<_>>();
    assert_eq!(kinds_and_positions.len(), 27);
    for (game, position) in kinds_and_positions {
        let answer = referee.answer(&format!("setup {game} {position}"));
        assert_eq!(answer, vec!["ok".to_string()], "{game} {position}");
        // What `setup` read prints back as a position `setup` reads again unchanged.
        let printed = referee.answer("position");
        let line = printed[0].trim_start_matches("position ").to_string();
        assert_eq!(
            referee.answer(&format!("setup {game} {line}")),
            vec!["ok".to_string()]
        );
    }
}

#[test]
fn every_step_has_a_solution_the_engine_accepts_and_its_replies_follow() {
    check_solutions(&ovo::lesson());
    check_solutions(&iota::lesson());
    check_solutions(&omiga::lesson());
}

#[test]
fn each_lesson_plays_from_first_step_to_last() {
    walk(ovo::lesson());
    walk(iota::lesson());
    walk(omiga::lesson());
}

#[test]
fn a_legal_try_that_misses_the_goal_is_judged_not_the_goal() {
    let judged =
        check_misses(ovo::lesson()) + check_misses(iota::lesson()) + check_misses(omiga::lesson());
    // Most steps have legal tries that miss; the count keeps this test from passing
    // on nothing.
    assert!(judged > 50, "only {judged} wrong tries judged");
}

#[test]
fn an_illegal_try_gets_the_engines_reason() {
    use crate::games::omiga::OmigaError;
    use crate::games::ovo::OvoError;
    let e = check_refused(ovo::lesson(), 0, "c3-c5");
    assert!(
        matches!(e, RuleError::Ovo(OvoError::NotAStep { .. })),
        "{e:?}"
    );
    let e = check_refused(ovo::lesson(), 3, "b4xd6xf6");
    assert!(
        matches!(e, RuleError::Ovo(OvoError::FlippedEnds { .. })),
        "{e:?}"
    );
    let e = check_refused(ovo::lesson(), 6, "d4-d5");
    assert!(
        matches!(e, RuleError::Ovo(OvoError::MovedLast { .. })),
        "{e:?}"
    );
    let e = check_refused(ovo::lesson(), 7, "a1-a2");
    assert!(matches!(e, RuleError::Ovo(_)), "{e:?}");
    let e = check_refused(iota::lesson(), 0, "place Bx2@3,3");
    assert!(matches!(e, RuleError::Iota(_)), "{e:?}");
    let e = check_refused(iota::lesson(), 1, "place Yc3@2,0");
    assert!(matches!(e, RuleError::Iota(_)), "{e:?}");
    let e = check_refused(omiga::lesson(), 2, "place NP-GK@4,3");
    assert!(matches!(e, RuleError::Omiga(_)), "{e:?}");
    let e = check_refused(omiga::lesson(), 4, "place DD-GG@1,3");
    assert!(matches!(e, RuleError::Omiga(_)), "{e:?}");
    let e = check_refused(omiga::lesson(), 1, "discard");
    assert!(
        matches!(e, RuleError::Omiga(OmigaError::MayNotDiscard)),
        "{e:?}"
    );
}

#[test]
fn a_try_that_is_no_action_is_refused_with_the_notation_reason() {
    let mut run = LessonRun::new(ovo::lesson(), 0).expect("starts");
    let before = run.game().position();
    assert!(matches!(run.try_line("c3 to d4"), Verdict::Refused { .. }));
    assert_eq!(run.game().position(), before);
}

#[test]
fn a_peek_shows_its_symbol_to_the_peeker_alone() {
    let mut run = LessonRun::new(ovo::lesson(), 5).expect("the peek step");
    assert_eq!(run.step().name, "peek");
    assert_eq!(run.try_line("peek c4"), Verdict::Passed);
    let done = run.done().expect("passed");
    let crate::games::ovo::Happened::Peeked { symbol, .. } = &done.event.happened else {
        panic!("{:?}", done.event);
    };
    assert!(symbol.is_some());
    let public = crate::games::ovo::Ovo::public_event(&done.event);
    assert!(matches!(
        public.happened,
        crate::games::ovo::Happened::Peeked { symbol: None, .. }
    ));
}

#[test]
fn a_wrong_declaration_in_the_ovo_step_loses_and_is_not_kept() {
    let mut run = LessonRun::new(ovo::lesson(), 8).expect("the declaration step");
    assert_eq!(run.step().name, "ovo");
    let before = run.game().position();
    assert!(matches!(run.try_line("ovo"), Verdict::NotTheGoal { .. }));
    assert_eq!(run.game().position(), before);
    assert!(!run.game().outcome().is_over());
    assert_eq!(run.try_line("c2-c1 ovo"), Verdict::Passed);
}

#[test]
fn black_answers_in_the_omiga_step_that_shows_both_acting() {
    let mut run = LessonRun::new(omiga::lesson(), 3).expect("the step");
    assert_eq!(run.try_line("place DD-GG@2,3"), Verdict::Passed);
    let done = run.done().expect("passed");
    assert_eq!(done.replies.len(), 1);
    assert_eq!(done.replies[0].1.to_string(), "place PD-GK@4,4");
}

#[test]
fn a_saved_step_resumes_there_and_a_stale_one_starts_over() {
    let run = LessonRun::new(iota::lesson(), 4).expect("starts");
    assert_eq!(run.index(), 4);
    let run = LessonRun::new(iota::lesson(), 99).expect("starts");
    assert_eq!(run.index(), 0);
}

#[test]
fn next_waits_for_the_step_to_be_passed() {
    let mut run = LessonRun::new(omiga::lesson(), 0).expect("starts");
    assert_eq!(run.next_step(), Ok(false));
    assert_eq!(run.index(), 0);
}

/// What every action that passes a step shows of the rules, computed from the events
/// alone (not from the goals), gathered over every solution of every step.
fn shown<G: Game>(
    lesson: &Lesson<G>,
    features: fn(&G::Action, &G::Event, &G) -> Vec<&'static str>,
) -> std::collections::BTreeSet<&'static str> {
    let mut all = std::collections::BTreeSet::new();
    for step in &lesson.steps {
        for action in solutions(step) {
            let mut game = G::from_position(step.position).expect("checked");
            let event = game.play(step.seat, &action).expect("legal");
            all.extend(features(&action, &G::event_for(&event, step.seat), &game));
            for (seat, line) in step.replies {
                if let Ok(reply) = line.parse::<G::Action>() {
                    if let Ok(event) = game.play(*seat, &reply) {
                        all.extend(features(&reply, &event, &game));
                    }
                }
            }
        }
    }
    all
}

#[test]
fn the_lessons_meet_every_rule_the_issue_lists() {
    use crate::games::iota::IotaEvent;
    use crate::games::omiga::{Act, Action as OmigaAction};
    use crate::games::ovo::{Happened, Ovo, OvoAction, OvoEvent};
    use crate::games::Outcome;

    fn ovo_features(action: &OvoAction, event: &OvoEvent, after: &Ovo) -> Vec<&'static str> {
        let mut f = Vec::new();
        match (&event.happened, action) {
            (
                Happened::Moved {
                    jump: false,
                    from,
                    landings,
                    ..
                },
                _,
            ) => {
                let to = landings[0];
                f.push(if from.file() != to.file() && from.rank() != to.rank() {
                    "diagonal step"
                } else {
                    "straight step"
                });
            }
            (
                Happened::Moved {
                    jump: true,
                    landings,
                    ..
                },
                _,
            ) if landings.len() > 1 => f.push("jump chain"),
            (Happened::Moved { jump: true, .. }, _) => f.push("jump"),
            (
                Happened::Peeked {
                    symbol: Some(_), ..
                },
                _,
            ) => f.push("peek seen by the peeker"),
            (Happened::Passed, _) => f.push("pass"),
            _ => {}
        }
        if let Happened::Moved {
            flipped: true,
            landings,
            ..
        } = &event.happened
        {
            f.push(if after.players() == 4 {
                "flip in a corner camp"
            } else {
                "flip"
            });
            if landings
                .last()
                .and_then(|c| after.board().get(*c))
                .is_some_and(|e| e.hidden)
            {
                f.push("flipped egg is hidden");
            }
        }
        if let Happened::Moved {
            flipped: false,
            landings,
            ..
        } = &event.happened
        {
            if landings
                .last()
                .and_then(|c| after.board().get(*c))
                .is_some_and(|e| e.hidden)
            {
                f.push("hidden egg moved");
            }
        }
        match &event.declaration {
            Some(d) if d.correct && after.outcome() == (Outcome::Win { seat: event.seat }) => {
                f.push("right declaration wins")
            }
            Some(d) if d.seat_out => f.push("wrong declaration puts a seat out"),
            _ => {}
        }
        f
    }
    let ovo = shown(&ovo::lesson(), ovo_features);
    for rule in [
        "diagonal step",
        "straight step",
        "jump",
        "jump chain",
        "flip",
        "flipped egg is hidden",
        "hidden egg moved",
        "peek seen by the peeker",
        "pass",
        "right declaration wins",
        "flip in a corner camp",
        "wrong declaration puts a seat out",
    ] {
        assert!(ovo.contains(rule), "Ovo lesson lacks: {rule} ({ovo:?})");
    }

    fn iota_features(
        _: &crate::games::iota::Action,
        event: &IotaEvent,
        after: &crate::games::iota::Iota,
    ) -> Vec<&'static str> {
        let mut f = Vec::new();
        match event {
            IotaEvent::Placed { cards, score, .. } => {
                f.push("placement");
                if score.lines.iter().any(|l| l.cells.len() == 3) {
                    f.push("line of three");
                }
                if score.lots > 0 && score.total == score.base * 2 {
                    f.push("lot doubles");
                }
                let (xs, ys): (Vec<i32>, Vec<i32>) = cards.iter().map(|(_, c)| (c.x, c.y)).unzip();
                let span = |v: &[i32]| {
                    v.iter().max().copied().unwrap_or(0) - v.iter().min().copied().unwrap_or(0) + 1
                };
                if cards.len() > 1 && span(&xs).max(span(&ys)) as usize > cards.len() {
                    f.push("several cards around a card");
                }
                if score.lines.len() > 1 && cards.len() == 1 {
                    f.push("one card in two lines");
                }
                if cards.iter().any(|(c, _)| c.is_wild()) {
                    f.push("wild placed");
                }
                if score.game_end && after.outcome().is_over() {
                    f.push("last card ends the game, doubled");
                }
            }
            IotaEvent::Swapped { .. } => f.push("wild swapped"),
            IotaEvent::Passed { returned_count, .. } if *returned_count > 0 => {
                f.push("pass returning cards")
            }
            IotaEvent::Passed { .. } => {}
        }
        f
    }
    let iota = shown(&iota::lesson(), iota_features);
    for rule in [
        "placement",
        "line of three",
        "lot doubles",
        "several cards around a card",
        "one card in two lines",
        "wild placed",
        "wild swapped",
        "pass returning cards",
        "last card ends the game, doubled",
    ] {
        assert!(iota.contains(rule), "IOTA lesson lacks: {rule} ({iota:?})");
    }

    fn omiga_features(
        action: &OmigaAction,
        event: &crate::games::omiga::OmigaEvent,
        after: &crate::games::omiga::Omiga,
    ) -> Vec<&'static str> {
        let mut f = Vec::new();
        match event.act {
            Act::Placed { x, y, .. } => {
                let (x, y) = (i32::from(x), i32::from(y));
                let t = after.table();
                if t.get(x - 1, y).is_some() || t.get(x + 1, y).is_some() {
                    f.push("half-circles matched");
                }
                if t.get(x, y - 1).is_some() || t.get(x, y + 1).is_some() {
                    f.push("figures matched");
                }
                if matches!(action, OmigaAction::Place { rotated: true, .. }) {
                    f.push("card turned");
                }
                if event.seat == 1 {
                    f.push("Black acts too");
                }
            }
            Act::Discarded { .. } => f.push("hand discarded"),
        }
        match after.outcome() {
            Outcome::Win { seat: 0 } => f.push("winning placement"),
            Outcome::Draw => f.push("draw"),
            _ => {}
        }
        f
    }
    let omiga = shown(&omiga::lesson(), omiga_features);
    for rule in [
        "half-circles matched",
        "figures matched",
        "card turned",
        "Black acts too",
        "hand discarded",
        "winning placement",
        "draw",
    ] {
        assert!(
            omiga.contains(rule),
            "Omiga lesson lacks: {rule} ({omiga:?})"
        );
    }
}
