//! Property test: many seeded random Ovo games, played to the end (or a move cap) by
//! random legal actions, with the invariants checked after every step.

use hotseat::games::ovo::{eggs_per_seat, Cell, Ovo, OvoAction, CELLS};
use hotseat::games::{rng_from_seed, Game, Outcome, Params};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// Egg counts, `last`, the turn and the pass count are consistent.
fn check_invariants(g: &Ovo) {
    let players = g.players();
    for seat in 0..players {
        let want = if g.is_out(seat) {
            0
        } else {
            eggs_per_seat(players)
        };
        assert_eq!(
            g.board().count(seat),
            want,
            "seat {seat} eggs in {}",
            g.position()
        );
    }
    assert_eq!(
        g.board().eggs().count(),
        (0..players).map(|s| g.board().count(s)).sum::<usize>()
    );
    if let Some(last) = g.last() {
        assert!(g.board().get(last).is_some(), "last on an empty cell");
    }
    assert!(!g.is_out(g.turn()) || g.outcome().is_over());
    if !g.outcome().is_over() {
        assert!(g.passes() < g.remaining());
        let line = g.position();
        let back = Ovo::from_position(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(back.position(), line);
        assert_eq!(back, *g, "the position carries the whole state");
    }
}

/// No view tells a hidden egg's owner or symbol, and peeked symbols stay private.
fn check_views(g: &Ovo) {
    let hidden = g.board().eggs().filter(|(_, e)| e.hidden).count();
    let visible = g.board().eggs().count() - hidden;
    for seat in 0..g.players() {
        let json = serde_json::to_string(&g.view(seat)).unwrap();
        if g.outcome().is_over() {
            assert_eq!(json.matches("symbol").count(), visible + hidden);
        } else {
            assert_eq!(json.matches(r#"{"kind":"hidden"}"#).count(), hidden);
            assert_eq!(json.matches("symbol").count(), visible, "{json}");
            assert!(!json.contains("revealed"));
        }
    }
}

/// Views differ only in the seat they are for: nothing private to one seat is in them.
fn check_views_agree(g: &Ovo) {
    let mut first = g.view(0);
    for seat in 1..g.players() {
        first.seat = seat;
        assert_eq!(g.view(seat), first);
    }
}

/// A random action that may or may not be legal, to compare `apply` with the list.
fn random_action(rng: &mut ChaCha8Rng) -> OvoAction {
    let cell = |rng: &mut ChaCha8Rng| Cell::from_index(rng.random_range(0..CELLS)).unwrap();
    let ovo = rng.random_bool(0.1);
    match rng.random_range(0..10) {
        0..=3 => {
            let from = cell(rng);
            let to = from
                .offset(rng.random_range(-1..=1), rng.random_range(-1..=1))
                .unwrap_or(from);
            OvoAction::Step { from, to, ovo }
        }
        4..=7 => {
            let from = cell(rng);
            let mut at = from;
            let mut landings = Vec::new();
            for _ in 0..rng.random_range(1..=4) {
                let (df, dr) = (rng.random_range(-1..=1) * 2, rng.random_range(-1..=1) * 2);
                at = at.offset(df, dr).unwrap_or(at);
                landings.push(at);
            }
            OvoAction::Jump {
                from,
                landings,
                ovo,
            }
        }
        8 => OvoAction::Peek {
            cell: cell(rng),
            ovo,
        },
        _ => {
            if rng.random_bool(0.5) {
                OvoAction::Pass
            } else {
                OvoAction::Ovo
            }
        }
    }
}

fn play_one(seed: u64) -> (Outcome, usize) {
    let mut rng = rng_from_seed(seed);
    let players = if seed % 2 == 0 { 2 } else { 4 };
    let params = Params::new()
        .with("players", players)
        .with("first", seed % players as u64)
        .with("no_move_back", if seed % 5 == 0 { "off" } else { "on" });
    let mut g = Ovo::new_game(&params).unwrap();
    let mut steps = 0;
    while !g.outcome().is_over() && steps < 200 {
        check_invariants(&g);
        check_views(&g);
        check_views_agree(&g);
        let seat = g.turn();
        let legal = g.legal_actions(seat);
        let spelled: HashSet<String> = legal.iter().map(|a| a.to_string()).collect();
        assert_eq!(spelled.len(), legal.len(), "duplicates in {spelled:?}");
        for other in (0..g.players()).filter(|&s| s != seat) {
            assert!(g.legal_actions(other).is_empty());
        }
        for a in &legal {
            let mut copy = g.clone();
            copy.play(seat, a)
                .unwrap_or_else(|e| panic!("{a} listed but refused: {e}"));
            assert_eq!(a.to_string().parse::<OvoAction>().as_ref(), Ok(a));
        }
        for _ in 0..20 {
            let a = random_action(&mut rng);
            let mut copy = g.clone();
            let listed = spelled.contains(&a.to_string());
            match copy.play(seat, &a) {
                Ok(_) => assert!(listed, "{a} applied but not listed"),
                Err(_) => {
                    assert!(!listed, "{a} listed but refused");
                    assert_eq!(copy, g, "a refused action changed the state");
                }
            }
        }
        let (declaring, plain): (Vec<_>, Vec<_>) = legal.iter().partition(|a| a.declares());
        let pool = if plain.is_empty() || rng.random_bool(0.01) {
            &declaring
        } else {
            &plain
        };
        let action = pool[rng.random_range(0..pool.len())].clone();
        let event = g.play(seat, &action).unwrap();
        for s in 0..g.players() {
            let private = Ovo::event_for(&event, s);
            let json = serde_json::to_string(&private).unwrap();
            if s != seat {
                assert!(!json.contains("\"symbol\":\""), "{json}");
            }
        }
        steps += 1;
    }
    check_invariants(&g);
    check_views(&g);
    if g.outcome().is_over() {
        assert!(g.play(g.turn(), &OvoAction::Ovo).is_err());
    }
    (g.outcome(), steps)
}

#[test]
fn random_games_keep_every_invariant() {
    let (mut ended, mut draws, mut total) = (0, 0, 0);
    for seed in 0..100 {
        let (outcome, steps) = play_one(seed);
        ended += usize::from(outcome.is_over());
        draws += usize::from(outcome == Outcome::Draw);
        total += steps;
    }
    eprintln!("100 games: {ended} ended ({draws} draws), {total} turns");
    assert!(ended > 30, "only {ended} games ended");
}
