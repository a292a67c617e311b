//! The tests of `ui/iota.rs` (their own file, so that the code's file reads on its own).

use super::*;

fn two() -> Vec<Player> {
    super::super::play::players(&["Anna".into(), "Boris".into()], &[0, 1], &[None, None])
}

/// Every reason the core actually gives while players stage cards anywhere round the
/// grid (many games, random cards and cells) is a typed refusal, not `Other`, so
/// `ui::refusals` words it in the player's language (tests/translations.rs proves
/// each typed refusal has a Russian text).
#[test]
fn every_reason_met_in_play_is_typed() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut seen = BTreeSet::new();
    for seed in 0..40u64 {
        let Ok(mut table) = IotaTable::start(two(), seed, 0) else {
            panic!("a game starts");
        };
        for _turn in 0..30 {
            if table.session.outcome().is_over() {
                break;
            }
            table.session.reveal();
            let Some(desk) = table.desk() else { break };
            let seat = desk.seat();
            let hand = desk.view().hand;
            let cells: Vec<Cell> = table.board().cells.iter().map(|(c, _)| *c).collect();
            for _ in 0..30 {
                let n = rng.random_range(1..=hand.len().max(1));
                let mut tried = Vec::new();
                for k in 0..n {
                    let card = hand.get(k).copied().unwrap_or(Card::WILD);
                    let cell = cells[rng.random_range(0..cells.len())];
                    tried.push((card, cell));
                }
                if let Err(e) = desk.check_placement(&tried) {
                    assert!(
                        !matches!(e, crate::games::RuleError::Other(_)),
                        "untyped: {e}"
                    );
                    seen.insert(e.to_string());
                }
                let cell = cells[rng.random_range(0..cells.len())];
                if let Some(&card) = hand.first() {
                    if let Err(e) = desk.check_swap(cell, card) {
                        assert!(
                            !matches!(e, crate::games::RuleError::Other(_)),
                            "untyped: {e}"
                        );
                        seen.insert(e.to_string());
                    }
                }
            }
            let best = desk
                .legal_placements()
                .into_iter()
                .max_by_key(|p| desk.check_placement(p).ok());
            let action = best.map_or(Action::Pass(Vec::new()), Action::Place);
            if table.session.act(seat, &action).is_err() {
                break;
            }
        }
    }
    assert!(seen.len() >= 8, "enough different reasons met: {seen:?}");
}

#[test]
fn the_first_seat_is_chosen_at_random() {
    let mut firsts = BTreeSet::new();
    for _ in 0..64 {
        let Ok(mut table) = start(two()) else {
            panic!("a game starts");
        };
        let Some(t) = table.as_any_mut().downcast_mut::<IotaTable>() else {
            panic!("an IOTA table");
        };
        firsts.insert(t.session().public().turn);
    }
    assert_eq!(firsts, BTreeSet::from([0, 1]));
}

#[test]
fn the_hint_stages_a_placement_scoring_the_most() {
    let mut table = IotaTable::start(two(), 3, 0).expect("a game starts");
    table.session.reveal();
    table.hint().expect("something fits next to the starter");
    let staged = table.staged_cards();
    let desk = table.desk().expect("revealed");
    let hinted = desk.check_placement(&staged).expect("the hint is legal");
    let best = desk
        .legal_placements()
        .iter()
        .filter_map(|p| desk.check_placement(p).ok())
        .max()
        .expect("legal placements");
    assert_eq!(hinted, best);
}
