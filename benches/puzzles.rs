//! Times making the daily puzzles (issue 43's goal: a day's three under 100 ms in the
//! browser's release build; `.ci/puzzles-wasm` gives that figure, this one is native):
//! each game's puzzle for 8 weeks of days, then the three together per day. A plain
//! `main` timed with `Instant`, like the other benches.

use hotseat::games::registry::GameKind;
use hotseat::puzzles::{daily, Day};
use std::hint::black_box;
use std::time::Instant;

const DAYS: i64 = 56;

fn summary(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    format!(
        "median {:6.2} ms, slowest {:6.2} ms",
        ms[ms.len() / 2],
        ms[ms.len() - 1]
    )
}

fn main() {
    let first = Day::from_ymd(2027, 3, 1).map_or(0, |d| d.0);
    let days: Vec<Day> = (first..first + DAYS).map(Day).collect();
    let kinds = [GameKind::Iota, GameKind::Ovo, GameKind::Omiga];
    println!("making daily puzzles, {DAYS} days from 2027-03-01 (native)");
    let mut per_day = vec![0.0; days.len()];
    for kind in kinds {
        let mut ms = Vec::new();
        let mut attempts = Vec::new();
        for (i, day) in days.iter().enumerate() {
            let t = Instant::now();
            let p = black_box(daily(kind, *day)).expect("a puzzle every day");
            let took = t.elapsed().as_secs_f64() * 1000.0;
            per_day[i] += took;
            ms.push(took);
            attempts.push(p.attempt + 1);
        }
        attempts.sort();
        println!(
            "{:6}: {}; candidates per day median {}, most {}",
            kind.name(),
            summary(ms),
            attempts[attempts.len() / 2],
            attempts[attempts.len() - 1]
        );
    }
    println!("a day's three: {}", summary(per_day));
}
