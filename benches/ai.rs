//! Times one decision of each opponent level in each game, on mid-game positions reached
//! by seeded play between bots of that level (so the timed bot has followed the game and
//! remembers what it saw), with its deadline and without.
//! Run: `cargo bench --no-default-features --bench ai`.

use hotseat::ai::{Level, Opponents, Told};
use hotseat::games::iota::Iota;
use hotseat::games::omiga::Omiga;
use hotseat::games::ovo::Ovo;
use hotseat::games::{rng_from_seed, Params};
use std::time::{Duration, Instant};

/// Plays `plies` actions between bots of `level`, then times the next decision of the
/// seat to act; `None` if the game ended first.
fn time_one<G: Opponents>(
    params: &Params,
    level: Level,
    timed: bool,
    plies: usize,
    seed: u64,
) -> Option<Duration> {
    let mut game = G::new_game(params).ok()?;
    let limit = timed.then(|| level.think_limit());
    let mut bots: Vec<_> = (0..game.seats()).map(|_| G::bot(level, limit)).collect();
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
    let view = game.view(seat);
    let started = Instant::now();
    let action = bots[seat].choose(&view, &mut rng);
    let took = started.elapsed();
    action.map(|_| took)
}

fn bench<G: Opponents>(name: &str, params: impl Fn(u64) -> Params, plies: usize) {
    for level in Level::ALL {
        for timed in [false, true] {
            let times: Vec<Duration> = (0..16)
                .filter_map(|seed| time_one::<G>(&params(seed), level, timed, plies, seed))
                .collect();
            if times.is_empty() {
                continue;
            }
            let total: Duration = times.iter().sum();
            let max = times.iter().max().copied().unwrap_or_default();
            println!(
                "{name:<6} {level:<7} {:<8} mean {:>8.2} ms  max {:>8.2} ms  ({} positions)",
                if timed { "deadline" } else { "budget" },
                total.as_secs_f64() * 1000.0 / times.len() as f64,
                max.as_secs_f64() * 1000.0,
                times.len()
            );
        }
    }
}

fn main() {
    bench::<Ovo>("ovo", |s| Params::new().with("first", s % 2), 30);
    bench::<Ovo>(
        "ovo4",
        |s| Params::new().with("players", 4).with("first", s % 4),
        30,
    );
    bench::<Iota>("iota", |s| Params::new().with("seed", s), 12);
    bench::<Omiga>("omiga", |s| Params::new().with("seed", s), 4);
}
