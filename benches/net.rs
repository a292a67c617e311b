//! Tap-to-confirm latency on loopback: a client action goes to the host, is validated by
//! the rules core, and the client receives its `Accepted` with the new view. p50 and p99
//! over 1,000 placements (games are rematched as they end). Three ways: `Client` (its own
//! reader thread), `Joiner` (the app's: its state machine polled on the caller's thread),
//! and the two state machines over the in-memory channel with no socket (what the
//! protocol's own work costs, without any transport).
//!
//! Run: `CARGO_TARGET_DIR=/tmp/t-net cargo bench --no-default-features --bench net`

use hotseat::games::omiga::{Action, OmigaView};
use hotseat::net::mem_pair::MemPairing;
use hotseat::net::{
    legal_from_view, Client, ClientEvent, Host, HostConfig, Joiner, JoinerEvent, RateLimit, Timing,
};
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
    report("Client on loopback", &mut times, games);
    drop(client);
    drop(host);
    joiner_on_loopback(timing);
    in_memory(timing);
}

fn report(what: &str, times: &mut [Duration], games: u32) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "net tap-to-confirm, {what}, over {} placements in {games} games: p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        times.len(),
        at(0.50).as_secs_f64() * 1e6,
        at(0.99).as_secs_f64() * 1e6,
        at(1.0).as_secs_f64() * 1e6,
    );
}

/// The action this tap plays: varied so that games move across the table.
fn pick(view: &OmigaView, n: usize) -> Option<Action> {
    let legal = legal_from_view(view);
    legal.get(n * 7 % legal.len().max(1)).copied()
}

/// The same through `Joiner`, as the app and `hotseat join` play.
fn joiner_on_loopback(timing: Timing) {
    let mut config = HostConfig::new(([127, 0, 0, 1], 0).into(), "2468", 1);
    config.timing = timing;
    config.rate = RateLimit {
        burst: 1e9,
        per_second: 1e9,
    };
    let host = match Host::start(config) {
        Ok(h) => h,
        Err(e) => return eprintln!("cannot host: {e}"),
    };
    let mut joiner = match Joiner::join(host.addr(), "2468", timing, None) {
        Ok(j) => j,
        Err(e) => return eprintln!("cannot join: {e}"),
    };
    let mut times = Vec::with_capacity(PLACEMENTS);
    let mut games = 1;
    while times.len() < PLACEMENTS {
        let Some(view) = joiner.view().cloned() else {
            return eprintln!("no view");
        };
        if view.outcome.is_over() {
            let _ = joiner.rematch();
            let _ = host.rematch();
            let deadline = Instant::now() + Duration::from_secs(5);
            while !joiner
                .poll(Duration::from_millis(20))
                .iter()
                .any(|e| matches!(e, JoinerEvent::Started { .. }))
            {
                if Instant::now() > deadline {
                    return eprintln!("no rematch");
                }
            }
            games += 1;
            continue;
        }
        let Some(action) = pick(&view, times.len()) else {
            return eprintln!("no legal action in an ongoing game");
        };
        let started = Instant::now();
        if let Err(e) = joiner.act(action) {
            return eprintln!("cannot act: {e}");
        }
        let deadline = started + Duration::from_secs(5);
        'answer: loop {
            for event in joiner.poll(Duration::from_millis(50)) {
                match event {
                    JoinerEvent::Accepted { .. } => {
                        if matches!(action, Action::Place { .. }) {
                            times.push(started.elapsed());
                        }
                        break 'answer;
                    }
                    JoinerEvent::Rejected { reason, .. } => return eprintln!("refused: {reason}"),
                    _ => {}
                }
            }
            if Instant::now() > deadline {
                return eprintln!("no answer");
            }
        }
    }
    report("Joiner on loopback", &mut times, games);
}

/// The same between the two state machines over the in-memory channel (a fake clock that
/// moves 50 ms between taps, so the rate limit refills as it would for a person).
fn in_memory(timing: Timing) {
    let mut pairing = match MemPairing::new(1, timing) {
        Ok(p) if !p.failed => p,
        _ => return eprintln!("cannot pair in memory"),
    };
    let mut times = Vec::with_capacity(PLACEMENTS);
    let mut games = 1;
    while times.len() < PLACEMENTS {
        pairing.pass(Duration::from_millis(50));
        let view = pairing.joiner_view();
        if view.outcome.is_over() {
            match pairing.joiner.rematch(pairing.now) {
                Ok(outs) => pairing.joiner_do(outs),
                Err(e) => return eprintln!("no rematch: {e}"),
            }
            pairing.settle();
            let outs = pairing.host.rematch(pairing.now);
            pairing.host_do(outs);
            pairing.settle();
            games += 1;
            continue;
        }
        let Some(action) = pick(&view, times.len()) else {
            return eprintln!("no legal action in an ongoing game");
        };
        let before = pairing.joiner_events.len();
        let started = Instant::now();
        match pairing.joiner.act(action, pairing.now) {
            Ok(outs) => pairing.joiner_do(outs),
            Err(e) => return eprintln!("cannot act: {e}"),
        }
        pairing.settle();
        let answered = pairing.joiner_events[before..]
            .iter()
            .any(|e| matches!(e, JoinerEvent::Accepted { .. }));
        if !answered {
            return eprintln!("no answer in memory");
        }
        if matches!(action, Action::Place { .. }) {
            times.push(started.elapsed());
        }
    }
    report("the state machines in memory", &mut times, games);
}
