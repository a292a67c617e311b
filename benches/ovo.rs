//! Times the hot Ovo rules calls: `legal_actions` (the UI and bots call it every turn)
//! and `apply` of a long jump chain. Run with
//! `cargo bench --no-default-features --bench ovo`.

use hotseat::games::ovo::{Ovo, OvoAction};
use hotseat::games::{rng_from_seed, Game, Params};
use rand::seq::SliceRandom;
use std::hint::black_box;
use std::time::Instant;

/// Times `f` over `iterations` calls and prints the time per call.
fn time<T>(name: &str, iterations: u32, mut f: impl FnMut() -> T) {
    for _ in 0..iterations / 10 {
        black_box(f());
    }
    let start = Instant::now();
    for _ in 0..iterations {
        black_box(f());
    }
    let per_call = start.elapsed() / iterations;
    println!("{name:<48} {per_call:>10.2?} per call ({iterations} calls)");
}

/// The most crowded-with-chains 4-player board among many random ones: 16 hidden eggs
/// (anyone may move every one of them), picked for the longest legal-action list.
fn crowded() -> Ovo {
    let mut rng = rng_from_seed(2013);
    let mut best: Option<(usize, Ovo)> = None;
    for _ in 0..2000 {
        let mut cells: Vec<char> = "aaaabbbbccccdddd".chars().collect();
        cells.resize(36, '.');
        cells.shuffle(&mut rng);
        let ranks: Vec<String> = cells.chunks(6).map(|r| r.iter().collect()).collect();
        let line = format!("players=4 turn=0 board={}", ranks.join("/"));
        if let Ok(game) = Ovo::from_position(&line) {
            let n = game.legal_actions(0).len();
            if best.as_ref().is_none_or(|(m, _)| n > *m) {
                best = Some((n, game));
            }
        }
    }
    best.map(|(_, g)| g).unwrap_or_else(|| {
        Ovo::new_game(&Params::new().with("players", 4)).unwrap_or_else(|e| panic!("{e}"))
    })
}

fn main() {
    let start = Ovo::new_game(&Params::new()).unwrap_or_else(|e| panic!("{e}"));
    let crowded = crowded();
    let actions = crowded.legal_actions(0);
    let longest = actions
        .iter()
        .filter(|a| !a.declares())
        .max_by_key(|a| a.landings().len())
        .cloned()
        .unwrap_or(OvoAction::Ovo);
    println!("crowded board: {}", crowded.position());
    println!(
        "  {} legal actions, longest chain {} ({} landings)",
        actions.len(),
        longest,
        longest.landings().len()
    );
    time("legal_actions, 2-player start", 100_000, || {
        start.legal_actions(0)
    });
    time("legal_actions, crowded 4-player board", 20_000, || {
        crowded.legal_actions(0)
    });
    time("moves_from one egg, crowded board", 100_000, || {
        crowded.moves_from(
            0,
            longest.from_cell().unwrap_or_else(|| "a1".parse().unwrap()),
        )
    });
    time("apply longest chain (on a clone)", 100_000, || {
        let mut g = crowded.clone();
        g.apply(0, &longest).map(|_| ())
    });
    time("position() + from_position()", 100_000, || {
        Ovo::from_position(&crowded.position()).map(|g| g.turn())
    });
}
