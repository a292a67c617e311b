//! Times the hot Omiga rules calls on a late, crowded table: one placement check, the
//! full legal-action list, and applying a placement (clone included). A plain `main`
//! timed with `Instant`, so it needs no bench framework.

use hotseat::games::omiga::rules::placement;
use hotseat::games::omiga::{Omiga, Side};
use hotseat::games::{rng_from_seed, Game, Params};
use rand::Rng;
use std::hint::black_box;
use std::time::Instant;

/// The ongoing position with the most cards on the table seen in some random games.
fn crowded_table() -> Omiga {
    let mut best: Option<Omiga> = None;
    for seed in 0..300u64 {
        let mut rng = rng_from_seed(seed);
        let mut game = Omiga::new_game(&Params::new().with("seed", seed)).expect("seeded game");
        while !game.outcome().is_over() {
            let count = game.table().count();
            if best.as_ref().is_none_or(|b| b.table().count() < count) {
                best = Some(game.clone());
            }
            let seat = rng.random_range(0..2);
            let legal = game.legal_actions(seat);
            let action = legal[rng.random_range(0..legal.len())];
            game.play(seat, &action).expect("a listed action applies");
        }
    }
    best.expect("at least one game")
}

fn time<T>(name: &str, iterations: u32, mut f: impl FnMut() -> T) {
    for _ in 0..iterations / 10 {
        black_box(f());
    }
    let start = Instant::now();
    for _ in 0..iterations {
        black_box(f());
    }
    let per_call = start.elapsed().as_secs_f64() / f64::from(iterations);
    println!("{name:<40} {:>10.1} ns/call", per_call * 1e9);
}

fn main() {
    let game = crowded_table();
    println!("position: {}", game.position());
    println!(
        "cards on the table: {}, legal actions: white {}, black {}",
        game.table().count(),
        game.legal_actions(0).len(),
        game.legal_actions(1).len()
    );
    let (w, h) = (game.table().width(), game.table().height());
    let cells: Vec<(i32, i32)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (i32::from(x), i32::from(y))))
        .collect();
    let hand = game.hand(0).to_vec();
    let card = hand
        .first()
        .copied()
        .unwrap_or("DD-GG".parse().expect("a card"));
    let mut i = 0usize;
    time("check_place (one cell)", 2_000_000, || {
        i = (i + 1) % cells.len();
        let (x, y) = cells[i];
        game.check_place(0, card, i % 2 == 0, x, y).is_ok()
    });
    let mut j = 0usize;
    time("placement (one cell, no message)", 2_000_000, || {
        j = (j + 1) % cells.len();
        let (x, y) = cells[j];
        placement(game.table(), Side::White, card, x, y).is_ok()
    });
    time("legal_cells (one card, whole table)", 200_000, || {
        game.legal_cells(0, card, false)
    });
    time("legal_actions (white)", 100_000, || game.legal_actions(0));
    time("legal_actions (black)", 100_000, || game.legal_actions(1));
    let action = game.legal_actions(0)[0];
    time("clone + play (one placement)", 100_000, || {
        let mut g = game.clone();
        g.play(0, &action).is_ok()
    });
}
