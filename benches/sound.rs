//! Times what the sound cues cost (docs/sound.md, docs/performance.md): on the UI thread,
//! hearing a move (`Ear::listen` on a match whose log holds a whole IOTA game, the
//! longest log); on the sound thread, rendering every cue once at 48 kHz (done once per
//! cue and kept). A plain `main` timed with `Instant`, as the other benches.

use hotseat::games::iota::Iota;
use hotseat::games::{Game, Params};
use hotseat::session::{Match, Player, SeatKind, Sharing};
use hotseat::sound::{schedule, synth, Cue, Ear};
use std::hint::black_box;
use std::time::Instant;

fn time<T>(name: &str, iterations: u32, mut f: impl FnMut() -> T) {
    for _ in 0..iterations / 10 {
        black_box(f());
    }
    let start = Instant::now();
    for _ in 0..iterations {
        black_box(f());
    }
    let per_call = start.elapsed().as_secs_f64() / f64::from(iterations);
    println!("{name:<48} {:>12.1} ns/call", per_call * 1e9);
}

fn main() {
    let players = (0..2)
        .map(|i| Player {
            name: format!("P{i}"),
            color: i,
            kind: SeatKind::Human,
            level: None,
        })
        .collect();
    let mut m: Match<Iota> =
        Match::start(Params::new().with("seed", 5), players, Sharing::PassAndPlay)
            .expect("a seeded game");
    // Play it out with each seat's first legal action (the last one is the pass that
    // returns nothing when nothing fits).
    let mut moves = 0;
    while !m.outcome().is_over() && moves < 400 {
        m.reveal();
        let Some(seat) = m.viewer() else { break };
        let Some(action) = m
            .desk(seat)
            .and_then(|d| d.legal_actions().into_iter().next())
        else {
            break;
        };
        if m.act(seat, &action).is_err() {
            break;
        }
        moves += 1;
    }
    println!(
        "IOTA game of {moves} actions, over: {}",
        m.outcome().is_over()
    );
    // What a listen after a move reads: the public log up to its last action.
    let n = m.actions().len();
    time("public log walked to its last action", 2000, || {
        m.log().skip(n.saturating_sub(1)).count()
    });
    let mut ear = Ear::new();
    ear.listen(&m, 0);
    time(
        "Ear::listen, nothing new (every other change)",
        20000,
        || ear.listen(&m, 0),
    );
    time("schedule of 6 cues", 100000, || {
        schedule(&[
            Cue::CardPlaced,
            Cue::CardPlaced,
            Cue::LineScored { points: 7 },
            Cue::Lot,
            Cue::CoverUp,
            Cue::Won,
        ])
    });
    let all = Cue::all();
    time("render every cue at 48 kHz (23 cues)", 20, || {
        all.iter()
            .map(|c| synth::render(*c, 48_000).len())
            .sum::<usize>()
    });
    let _ = Iota::NAME;
}
