//! `hotseat bench`: start-up, idle CPU, frame times, memory and binary size of the whole
//! app, printed as one table (docs/performance.md explains each row and its command).
//! The rules' own per-call times are `cargo bench --bench ovo|iota|omiga|net|ai`.

mod child;
pub mod frame;
pub mod scenes;
mod spawned;

use crate::devtools::measure::report::{self, Row};
use crate::devtools::measure::stats;

const USAGE: &str = "usage: hotseat bench [startup|idle|frame|memory|binary|all] [--runs N] [--seconds S] [--scene NAME] [--markdown]
  startup   process start to first frame: minimal Slint window, home screen, resumed game
  idle      CPU time of each screen left alone for S seconds (default 30), real windows
  memory    peak resident memory of each screen and of the minimal window
  frame     software-renderer frames at phone and tablet size, and the frames of one move
  binary    size of this executable
  --scene   frame only that scene (home, cover, ovo4, iota-crowded, omiga-late, …), e.g. under perf
startup, idle and memory open real windows: run under a desktop or Xvfb (DISPLAY=:97).";

struct Options {
    which: String,
    runs: usize,
    seconds: u64,
    markdown: bool,
    /// The frame bench's one scene, for profiling it alone.
    scene: Option<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        which: "all".into(),
        runs: 7,
        seconds: 30,
        markdown: false,
        scene: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut number = |max: u64| -> Result<u64, String> {
            let v = it.next().ok_or_else(|| format!("{arg} needs a number"))?;
            match v.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(format!("{arg} must be a number from 1 to {max}, not '{v}'")),
            }
        };
        match arg.as_str() {
            "--runs" => o.runs = number(1000)? as usize,
            "--seconds" => o.seconds = number(3600)?,
            "--markdown" => o.markdown = true,
            "--scene" => {
                let name = it.next().ok_or("--scene needs a scene name")?;
                if !scenes::SCENES.contains(&name.as_str()) {
                    return Err(format!(
                        "unknown scene '{name}': one of {}",
                        scenes::SCENES.join(", ")
                    ));
                }
                o.scene = Some(name.clone());
            }
            "startup" | "idle" | "frame" | "memory" | "binary" | "all" => o.which = arg.clone(),
            "--help" | "-h" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    Ok(o)
}

/// `hotseat bench …` (and `hotseat bench --child MODE [--first-frame]`, the processes the
/// benches spawn).
pub fn command(args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("--child") {
        let mode = args.get(1).ok_or("--child needs a mode")?;
        let first_frame = args.get(2).map(String::as_str) == Some("--first-frame");
        return child::run(mode, first_frame);
    }
    let o = parse(args)?;
    let all = o.which == "all";
    let mut rows = Vec::new();
    if all || o.which == "startup" {
        rows.extend(spawned::startup(o.runs)?);
    }
    if all || o.which == "idle" || o.which == "memory" {
        let seconds = if all || o.which == "idle" {
            o.seconds
        } else {
            0
        };
        rows.extend(spawned::observe(seconds)?);
    }
    if all || o.which == "frame" || o.which == "idle" {
        let frame_rows = frame::rows(o.runs, o.scene.as_deref())?;
        // `idle` alone wants only the headless checks from the frame bench.
        rows.extend(frame_rows.into_iter().filter(|r| all || r.bench == o.which));
    }
    if all || o.which == "binary" {
        rows.push(binary()?);
    }
    println!("{}", machine());
    if o.markdown {
        print!("{}", report::markdown(&rows));
    } else {
        print!("{}", report::text(&rows));
    }
    Ok(())
}

fn binary() -> Result<Row, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let bytes = std::fs::metadata(&exe)
        .map_err(|e| format!("{}: {e}", exe.display()))?
        .len();
    let profile = if cfg!(debug_assertions) {
        "debug build: build with --release for the figure that ships"
    } else {
        "release profile"
    };
    Ok(Row::new(
        "binary",
        "size of this executable",
        stats::mib(bytes / 1024),
    )
    .note(format!("{}; {profile}", exe.display())))
}

/// The machine the figures come from: CPU model and cores.
fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                l.strip_prefix("model name")?
                    .split_once(':')
                    .map(|(_, m)| m.trim().to_string())
            })
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!("machine: {cpu}, {cores} core(s) available")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_default_to_every_bench() {
        let o = parse(&[]).expect("no arguments are fine");
        assert_eq!(
            (o.which.as_str(), o.runs, o.seconds, o.markdown),
            ("all", 7, 30, false)
        );
    }

    #[test]
    fn options_are_read() {
        let o = parse(&args("idle --seconds 5 --runs 3 --markdown")).expect("valid");
        assert_eq!(
            (o.which.as_str(), o.runs, o.seconds, o.markdown),
            ("idle", 3, 5, true)
        );
        let o = parse(&args("frame --scene ovo4")).expect("valid");
        assert_eq!(o.scene.as_deref(), Some("ovo4"));
    }

    #[test]
    fn bad_options_are_refused_with_a_reason() {
        for bad in [
            "--runs",
            "--runs 0",
            "--runs many",
            "--seconds -1",
            "speed",
            "--fast",
            "frame --scene",
            "frame --scene chess",
        ] {
            let e = parse(&args(bad)).err().unwrap_or_default();
            assert!(!e.is_empty(), "{bad} was accepted");
        }
    }
}
