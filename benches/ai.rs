//! Times one decision of each opponent level in each game, on mid-game positions reached
//! by seeded easy-vs-easy play, with and without the deadline.
//! Run: `cargo bench --no-default-features --bench ai`.

use hotseat::ai::{Level, Opponents, Told};
use hotseat::games::iota::Iota;
use hotseat::games::omiga::Omiga;
use hotseat::games::ovo::Ovo;
use hotseat::games::{rng_from_seed, Params};
use std::time::{Duration, Instant};

/// The game after `plies` actions of easy bots (or earlier, if it ended), with the seat
/// to act; `None` if the game was over.
fn midgame<G: Opponents>(params: &Params, plies: usize, seed: u64) -> Option<(G, usize)> {
    let mut game = G::new_game(params).ok()?;
    let mut bots: Vec<_> = (0..game.seats())
        .map(|_| G::bot(Level::Easy, None))
        .collect();
    let mut rng = rng_from_seed(seed);
    for _ in 0..plies {
        let seat = *game.to_act().first()?;
        let action = bots[seat].choose(&game.view(seat), &mut rng)?;
        let event = game.play(seat, &action).ok()?;
        if game.outcome().is_over() {
            return None;
        }
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.observe(&Told::<G>::new(&event, s));
        }
    }
    let seat = *game.to_act().first()?;
    Some((game, seat))
}

fn bench<G: Opponents>(name: &str, params: impl Fn(u64) -> Params, plies: usize) {
    for level in Level::ALL {
        for timed in [false, true] {
            let (mut total, mut max, mut n) = (Duration::ZERO, Duration::ZERO, 0u32);
            for seed in 0..12 {
                let Some((game, seat)) = midgame::<G>(&params(seed), plies, seed) else {
                    continue;
                };
                let limit = timed.then(|| level.think_limit());
                let mut bot = G::bot(level, limit);
                let started = Instant::now();
                let action = bot.choose(&game.view(seat), &mut rng_from_seed(seed));
                let took = started.elapsed();
                assert!(action.is_some(), "{name} {level}: no decision");
                total += took;
                max = max.max(took);
                n += 1;
            }
            if n > 0 {
                println!(
                    "{name:<6} {level:<7} {:<8} mean {:>8.2} ms  max {:>8.2} ms  ({n} positions)",
                    if timed { "deadline" } else { "budget" },
                    total.as_secs_f64() * 1000.0 / f64::from(n),
                    max.as_secs_f64() * 1000.0
                );
            }
        }
    }
}

fn main() {
    bench::<Ovo>("ovo", |s| Params::new().with("first", s % 2), 40);
    bench::<Ovo>(
        "ovo4",
        |s| Params::new().with("players", 4).with("first", s % 4),
        40,
    );
    bench::<Iota>("iota", |s| Params::new().with("seed", s), 14);
    bench::<Omiga>("omiga", |s| Params::new().with("seed", s), 8);
}
