//! Tap-to-confirm latency on loopback: a client action goes to the host, is validated by
//! the rules core, and the client receives its `Accepted` with the new view. p50 and p99
//! over 1,000 placements (games are rematched as they end).
//!
//! Run: `CARGO_TARGET_DIR=/tmp/t-net cargo bench --no-default-features --bench net`

use hotseat::games::omiga::Action;
use hotseat::net::{legal_from_view, Client, ClientEvent, Host, HostConfig, RateLimit, Timing};
use std::time::{Duration, Instant};

const PLACEMENTS: usize = 1000;

fn main() {
    let timing = Timing {
        countdown: Duration::ZERO,
        ..Timing::default()
    };
    let mut config = HostConfig::new(([127, 0, 0, 1], 0).into(), "2468", 1);
    config.timing = timing;
    // The bench taps as fast as the loopback allows; the flood limit is not what is measured.
    config.rate = RateLimit {
        burst: 1e9,
        per_second: 1e9,
    };
    let host = match Host::start(config) {
        Ok(h) => h,
        Err(e) => return eprintln!("cannot host: {e}"),
    };
    let client = match Client::join(host.addr(), "2468", timing) {
        Ok(c) => c,
        Err(e) => return eprintln!("cannot join: {e}"),
    };
    let mut view = client.first_view().clone();
    let mut times = Vec::with_capacity(PLACEMENTS);
    let mut games = 1;
    while times.len() < PLACEMENTS {
        if view.outcome.is_over() {
            // Both ask for a rematch; the host deals the next game.
            let _ = client.rematch();
            let _ = host.rematch();
            loop {
                match client.events().recv_timeout(Duration::from_secs(5)) {
                    Ok(ClientEvent::Started { view: v, .. }) => {
                        view = v;
                        games += 1;
                        break;
                    }
                    Ok(_) => {}
                    Err(_) => return eprintln!("no rematch"),
                }
            }
            continue;
        }
        let legal = legal_from_view(&view);
        // Vary the choice so games move across the table.
        let Some(action) = legal.get(times.len() * 7 % legal.len().max(1)).copied() else {
            return eprintln!("no legal action in an ongoing game");
        };
        let started = Instant::now();
        match client.act_and_wait(&action, Duration::from_secs(5), |_| {}) {
            Ok((_, v)) => {
                if matches!(action, Action::Place { .. }) {
                    times.push(started.elapsed());
                }
                view = v;
            }
            Err(e) => return eprintln!("refused: {e}"),
        }
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "net tap-to-confirm on loopback over {} placements in {games} games: p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        times.len(),
        at(0.50).as_secs_f64() * 1e6,
        at(0.99).as_secs_f64() * 1e6,
        at(1.0).as_secs_f64() * 1e6,
    );
}
