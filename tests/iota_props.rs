//! Property tests: many seeded random IOTA games played to the end by random legal
//! actions, with the invariants checked on every step.

use hotseat::games::iota::{Action, Card, Cell, Iota, IotaEvent};
use hotseat::games::{Game, Params};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

fn new_game(seed: u64, players: usize) -> Iota {
    let params = Params::new()
        .with("players", players)
        .with("seed", seed)
        .with("first", seed as usize % players);
    Iota::new_game(&params).expect("a seeded game deals")
}

/// Every card of the state, from the full-state JSON (grid, hands, pile).
fn all_cards(game: &Iota) -> Vec<String> {
    let state = game.state_json();
    let mut cards = Vec::new();
    for g in state["grid"].as_array().into_iter().flatten() {
        cards.push(g["card"].as_str().unwrap_or("?").to_string());
    }
    for h in state["hands"].as_array().into_iter().flatten() {
        for c in h.as_array().into_iter().flatten() {
            cards.push(c.as_str().unwrap_or("?").to_string());
        }
    }
    for c in state["pile"].as_array().into_iter().flatten() {
        cards.push(c.as_str().unwrap_or("?").to_string());
    }
    cards
}

fn check_invariants(game: &Iota, deck_size: usize) {
    // Card counts: every card somewhere, each face once, W twice.
    let cards = all_cards(game);
    assert_eq!(cards.len(), deck_size);
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for c in &cards {
        *counts.entry(c.as_str()).or_default() += 1;
    }
    for (card, n) in counts {
        assert_eq!(n, if card == "W" { 2 } else { 1 }, "{card}");
    }
    for seat in 0..game.seats() {
        assert!(game.hand(seat).len() <= 4);
    }
    // Position round trip.
    let position = game.position();
    let back = Iota::from_position(&position).expect("own position reads back");
    assert_eq!(back.position(), position);
    assert_eq!(&back, game);
    // Views leak nothing: no other hand's card, no pile card.
    let state = game.state_json();
    let pile: Vec<String> = state["pile"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_str().map(String::from))
        .collect();
    for seat in 0..game.seats() {
        let json = serde_json::to_string(&game.view(seat)).expect("views serialize");
        assert!(!json.contains("\"pile\""), "no pile order in a view");
        let own: Vec<String> = game.hand(seat).iter().map(|c| c.to_string()).collect();
        let mut secrets: Vec<String> = pile.clone();
        for other in (0..game.seats()).filter(|&s| s != seat) {
            secrets.extend(game.hand(other).iter().map(|c| c.to_string()));
        }
        for secret in secrets {
            if secret == "W" && (own.contains(&secret) || json.contains("\"W\"")) {
                continue; // wilds are indistinguishable; the own or an open one may show
            }
            assert!(
                !json.contains(&format!("\"{secret}\"")),
                "seat {seat} sees {secret}: {json}"
            );
        }
    }
}

/// A random straight placement near the grid, for comparing `check_placement` with the
/// enumeration.
fn random_placement(game: &Iota, seat: usize, rng: &mut ChaCha8Rng) -> Vec<(Card, Cell)> {
    let hand = game.hand(seat).to_vec();
    let grid = game.grid().sorted();
    let (anchor, _) = grid[rng.random_range(0..grid.len())];
    let k = rng.random_range(1..=hand.len().max(1));
    let mut order: Vec<usize> = (0..hand.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    let row = rng.random_bool(0.5);
    let start = rng.random_range(-3..=1);
    let mut offsets: Vec<i32> = (0..5).map(|i| start + i).collect();
    for i in (1..offsets.len()).rev() {
        offsets.swap(i, rng.random_range(0..=i));
    }
    let mut cells: Vec<Cell> = offsets
        .iter()
        .take(k)
        .map(|&d| {
            if row {
                Cell::new(anchor.x + d, anchor.y)
            } else {
                Cell::new(anchor.x, anchor.y + d)
            }
        })
        .collect();
    cells.sort();
    order
        .iter()
        .take(k)
        .zip(cells)
        .map(|(&i, cell)| (hand[i], cell))
        .collect()
}

/// How many random staged placements turned out legal (so the comparison means something).
static STAGED_OK: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn play_random_game(seed: u64, players: usize, check_every_action: bool) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = new_game(seed, players);
    let mut steps = 0;
    while !game.outcome().is_over() {
        steps += 1;
        assert!(steps < 2000, "seed {seed}: the game does not end");
        check_invariants(&game, 66);
        let seat = game.turn();
        assert_eq!(game.to_act(), vec![seat]);
        let legal = game.legal_actions(seat);
        assert!(!legal.is_empty(), "pass is always legal");
        let lines: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
        let mut unique = lines.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(
            unique.len(),
            lines.len(),
            "seed {seed}: an action listed twice"
        );
        for a in &legal {
            assert_eq!(a.to_string().parse::<Action>().as_ref(), Ok(a));
        }
        if check_every_action {
            for a in &legal {
                let mut copy = game.clone();
                if let Err(e) = copy.play(seat, a) {
                    panic!("seed {seed}: listed {a} refused: {e}");
                }
            }
            // The enumeration and the checker agree on random staged placements.
            for _ in 0..30 {
                let staged = random_placement(&game, seat, &mut rng);
                let mut sorted = staged.clone();
                sorted.sort_by_key(|(_, c)| *c);
                let listed = legal.contains(&Action::Place(sorted));
                let ok = game.check_placement(seat, &staged).is_ok();
                if ok {
                    STAGED_OK.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                assert_eq!(
                    listed,
                    ok,
                    "seed {seed}: {} listed={listed} check={:?}",
                    Action::Place(staged.clone()),
                    game.check_placement(seat, &staged)
                );
            }
        }
        // Prefer placing, so that games reach a crowded late grid.
        let places: Vec<&Action> = legal
            .iter()
            .filter(|a| matches!(a, Action::Place(_)))
            .collect();
        let swaps: Vec<&Action> = legal
            .iter()
            .filter(|a| matches!(a, Action::Swap { .. }))
            .collect();
        let action = if !swaps.is_empty() && rng.random_bool(0.3) {
            swaps[rng.random_range(0..swaps.len())]
        } else if !places.is_empty() && rng.random_bool(0.85) {
            places[rng.random_range(0..places.len())]
        } else {
            &legal[rng.random_range(0..legal.len())]
        };
        let before = game.clone();
        let event = game.play(seat, action).expect("a legal action applies");
        assert!(game.play(seat + players, action).is_err());
        // Others learn neither drawn nor returned cards.
        for other in (0..players).filter(|&s| s != seat) {
            match Iota::event_for(&event, other) {
                IotaEvent::Placed { drawn, .. } => assert!(drawn.is_none()),
                IotaEvent::Passed {
                    drawn, returned, ..
                } => assert!(drawn.is_none() && returned.is_none()),
                IotaEvent::Swapped { .. } => {}
            }
        }
        if let IotaEvent::Placed { score, .. } = &event {
            let gained = game.scores()[seat] - before.scores()[seat];
            assert_eq!(gained, i64::from(score.total));
        }
    }
    check_invariants(&game, 66);
    assert!(game.legal_actions(game.turn()).is_empty());
    let best = game.scores().into_iter().max().unwrap_or(0);
    for w in game.outcome().winners() {
        assert_eq!(game.scores()[w], best);
    }
    steps
}

#[test]
fn random_games_keep_every_invariant_and_list_only_playable_actions() {
    for seed in 0..6 {
        play_random_game(seed, 2 + seed as usize % 3, true);
    }
    let ok = STAGED_OK.load(std::sync::atomic::Ordering::Relaxed);
    assert!(ok > 50, "only {ok} random staged placements were legal");
}

#[test]
fn many_random_games_end_without_panicking() {
    for seed in 100..160 {
        play_random_game(seed, 2 + seed as usize % 3, false);
    }
}

#[test]
fn garbage_lines_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let alphabet: Vec<char> = "place swap pass W Rt2 @ , ; | = - 0123456789 xyz\u{e9}"
        .chars()
        .collect();
    let mut game = new_game(1, 2);
    for _ in 0..3000 {
        let len = rng.random_range(0..40);
        let line: String = (0..len)
            .map(|_| alphabet[rng.random_range(0..alphabet.len())])
            .collect();
        if let Ok(action) = line.parse::<Action>() {
            let seat = game.turn();
            let _ = game.play(seat, &action);
        }
        let _ = Iota::from_position(&line);
        let _ = Iota::from_position(&format!(
            "players=2 turn=0 grid={line} hands=| pile= scores=0,0"
        ));
    }
}

/// Every ordered choice of `k` distinct hand positions.
fn arrangements(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for rest in arrangements(n, k - 1) {
        for i in (0..n).filter(|i| !rest.contains(i)) {
            let mut a = rest.clone();
            a.push(i);
            out.push(a);
        }
    }
    out
}

/// All legal placements by brute force: every run of 1 to 5 cells in every row and
/// column near the grid, filled with every arrangement of hand cards, judged by
/// `check_placement` alone.
fn brute_force_placements(game: &Iota, seat: usize) -> Vec<String> {
    let hand = game.hand(seat).to_vec();
    let grid = game.grid().sorted();
    let (x0, x1) = (
        grid.iter().map(|(c, _)| c.x).min().unwrap_or(0) - 5,
        grid.iter().map(|(c, _)| c.x).max().unwrap_or(0) + 5,
    );
    let (y0, y1) = (
        grid.iter().map(|(c, _)| c.y).min().unwrap_or(0) - 5,
        grid.iter().map(|(c, _)| c.y).max().unwrap_or(0) + 5,
    );
    let mut found = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            for row in [true, false] {
                for span in 1..=5 {
                    let empties: Vec<Cell> = (0..span)
                        .map(|d| {
                            if row {
                                Cell::new(x + d, y)
                            } else {
                                Cell::new(x, y + d)
                            }
                        })
                        .filter(|c| game.grid().get(*c).is_none())
                        .collect();
                    // Sets touching nothing are refused anyway; skipping them keeps this fast.
                    let touches = empties
                        .iter()
                        .any(|c| c.neighbours().iter().any(|n| game.grid().get(*n).is_some()));
                    if !touches || empties.len() > hand.len() {
                        continue;
                    }
                    for arrangement in arrangements(hand.len(), empties.len()) {
                        let staged: Vec<(Card, Cell)> = arrangement
                            .iter()
                            .zip(&empties)
                            .map(|(&i, &c)| (hand[i], c))
                            .collect();
                        if game.check_placement(seat, &staged).is_ok() {
                            found.push(Action::Place(staged).to_string());
                        }
                    }
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn the_fast_enumeration_finds_exactly_the_placements_brute_force_finds() {
    let mut compared = 0;
    let mut with_wilds = 0;
    for seed in 200..210 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = new_game(seed, 2);
        let mut step = 0;
        while !game.outcome().is_over() && step < 60 {
            step += 1;
            let seat = game.turn();
            let wild_involved = game.hand(seat).contains(&Card::WILD)
                || game.grid().sorted().iter().any(|(_, c)| c.is_wild());
            if wild_involved || step % 15 == 0 {
                let mut fast: Vec<String> = game
                    .legal_placements(seat)
                    .into_iter()
                    .map(|p| Action::Place(p).to_string())
                    .collect();
                fast.sort();
                assert_eq!(
                    fast,
                    brute_force_placements(&game, seat),
                    "seed {seed} step {step}: {}",
                    game.position()
                );
                compared += 1;
                with_wilds += usize::from(wild_involved);
            }
            let legal = game.legal_actions(seat);
            let places: Vec<&Action> = legal
                .iter()
                .filter(|a| !matches!(a, Action::Pass(_)))
                .collect();
            let action = if places.is_empty() {
                &legal[0]
            } else {
                places[rng.random_range(0..places.len())]
            };
            game.play(seat, action).expect("legal");
        }
    }
    assert!(
        compared > 10 && with_wilds > 5,
        "{compared} compared, {with_wilds} with wilds"
    );
}
