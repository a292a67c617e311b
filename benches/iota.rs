//! Times the hot IOTA rules calls on crowded late-game grids built by greedy seeded play.
//! Run: `cargo bench --no-default-features --bench iota`.

use hotseat::games::iota::{Action, Card, Iota};
use hotseat::games::{Game, Params};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Plays a seeded 2-player game greedily (best-scoring placement, else pass) until the
/// grid holds `cards` cards; returns the state then, if the game lasted that long.
fn crowded(seed: u64, cards: usize) -> Option<Iota> {
    let params = Params::new().with("seed", seed);
    let mut game = Iota::new_game(&params).ok()?;
    while !game.outcome().is_over() {
        if game.grid().len() >= cards && game.hand(game.turn()).len() == 4 {
            return Some(game);
        }
        let seat = game.turn();
        let best = game
            .legal_placements(seat)
            .into_iter()
            .max_by_key(|p| game.check_placement(seat, p).unwrap_or(0));
        let action = match best {
            Some(p) => Action::Place(p),
            None => Action::Pass(game.hand(seat).to_vec()),
        };
        game.play(seat, &action).ok()?;
    }
    None
}

/// The same position with a wild moved into the hand of the seat on turn (exchanged for
/// its first card, from the pile or another hand), so that the wild path is timed too.
fn with_wild_in_hand(game: &Iota) -> Option<Iota> {
    let seat = game.turn();
    if game.hand(seat).contains(&Card::WILD) {
        return Some(game.clone());
    }
    let first = game.hand(seat).first()?.to_string();
    let position = game.position();
    let mut fields: Vec<String> = position.split(' ').map(String::from).collect();
    let swap_in = |list: &str, sep: char| -> Option<String> {
        let mut cards: Vec<String> = list.split(sep).map(String::from).collect();
        let at = cards.iter().position(|c| c == "W")?;
        cards[at] = first.clone();
        Some(cards.join(&sep.to_string()))
    };
    let hands_at = fields.iter().position(|f| f.starts_with("hands="))?;
    let pile_at = fields.iter().position(|f| f.starts_with("pile="))?;
    let mut hands: Vec<String> = fields[hands_at]["hands=".len()..]
        .split('|')
        .map(String::from)
        .collect();
    if let Some(pile) = swap_in(&fields[pile_at]["pile=".len()..], ',') {
        fields[pile_at] = format!("pile={pile}");
    } else {
        let other =
            (0..hands.len()).find(|&s| s != seat && hands[s].split(',').any(|c| c == "W"))?;
        hands[other] = swap_in(&hands[other], ',')?;
    }
    hands[seat] = hands[seat].replacen(&first, "W", 1);
    fields[hands_at] = format!("hands={}", hands.join("|"));
    Iota::from_position(&fields.join(" ")).ok()
}

fn time<T>(label: &str, states: &[Iota], iterations: usize, f: impl Fn(&Iota) -> T) {
    let mut times: Vec<Duration> = Vec::new();
    for state in states {
        for _ in 0..iterations {
            let start = Instant::now();
            black_box(f(black_box(state)));
            times.push(start.elapsed());
        }
    }
    times.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    if let (Some(&max), false) = (times.last(), times.is_empty()) {
        let total: Duration = times.iter().sum();
        let p99 = times[times.len() * 99 / 100];
        println!(
            "{label:<42} {:>5} calls  mean {:>8.1} µs  p99 {:>8.1} µs  max {:>8.1} µs",
            times.len(),
            us(total) / times.len() as f64,
            us(p99),
            us(max)
        );
    }
}

fn main() {
    let states: Vec<Iota> = (0..400).filter_map(|s| crowded(s, 58)).take(20).collect();
    let wild: Vec<Iota> = states.iter().filter_map(with_wild_in_hand).collect();
    let grid_sizes: Vec<usize> = states.iter().map(|g| g.grid().len()).collect();
    println!(
        "{} crowded grids (cards: {:?}), {} of them with a wild in hand",
        states.len(),
        grid_sizes,
        wild.len()
    );
    let counts: Vec<usize> = states
        .iter()
        .map(|g| g.legal_actions(g.turn()).len())
        .collect();
    let wild_counts: Vec<usize> = wild
        .iter()
        .map(|g| g.legal_actions(g.turn()).len())
        .collect();
    println!("legal actions per state: {counts:?}; with a wild: {wild_counts:?}");
    time("legal_actions, 20 crowded grids", &states, 200, |g| {
        g.legal_actions(g.turn())
    });
    time("legal_actions, a wild in hand", &wild, 200, |g| {
        g.legal_actions(g.turn())
    });
    time("legal_placements, 20 crowded grids", &states, 200, |g| {
        g.legal_placements(g.turn())
    });
    // Per state, to tell a slow position from a preempted call (max and p99 above include
    // the scheduler: this machine has 2 cores shared with other work).
    let per_state: Vec<String> = states
        .iter()
        .chain(&wild)
        .map(|g| {
            let start = Instant::now();
            for _ in 0..50 {
                black_box(g.legal_actions(g.turn()));
            }
            format!("{:.0}", start.elapsed().as_secs_f64() * 1e6 / 50.0)
        })
        .collect();
    println!("legal_actions mean per state (µs): {}", per_state.join(" "));
    let staged: Vec<Iota> = states.clone();
    time(
        "check_placement of every legal placement",
        &staged,
        20,
        |g| {
            let seat = g.turn();
            g.legal_placements(seat)
                .iter()
                .map(|p| g.check_placement(seat, p).unwrap_or(0))
                .sum::<u32>()
        },
    );
    time("position + from_position", &states, 200, |g| {
        Iota::from_position(&g.position()).is_ok()
    });
}
