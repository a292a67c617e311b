//! The benches that need whole processes in a real window: start-up time to the first
//! frame, peak memory, and CPU time while nobody touches the screen. Each spawns this
//! same binary as `hotseat bench --child …` (see `child.rs`).

use super::child::{BUILT, FIRST_FRAME};
use super::scenes;
use crate::devtools::measure::report::Row;
use crate::devtools::measure::{procfs, stats};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a spawned app is given to open and settle before it is observed: longer than
/// a start-up on a busy machine plus Omiga's three-second "Ready?" countdown, which is
/// meant to move.
const SETTLE: Duration = Duration::from_secs(8);

/// A scratch data folder, removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    /// An empty folder under the system's temp dir, named after this process and `what`.
    pub fn new(what: &str) -> Result<Self, String> {
        let dir = std::env::temp_dir().join(format!("hotseat-bench-{}-{what}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Scratch(dir))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Fails unless a window can open (the benches spawn real windows).
pub fn need_display() -> Result<(), String> {
    if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some() {
        Ok(())
    } else {
        Err(
            "needs a display: e.g. `Xvfb :97 -screen 0 1280x800x24 & DISPLAY=:97 hotseat bench`"
                .into(),
        )
    }
}

fn child(mode: &str, data: &Path, first_frame: bool) -> Result<Command, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args(["bench", "--child", mode])
        .env("HOTSEAT_DATA_DIR", data)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit());
    if first_frame {
        cmd.arg("--first-frame");
    }
    Ok(cmd)
}

/// A save of a mid-game IOTA table (four dozen actions) in `dir`, as "Continue" finds it.
fn write_save(dir: &Path) -> Result<(), String> {
    use crate::session::AnySession;
    let players = crate::ui::play::players(&["Ana".into(), "Boris".into()], &[0, 1], &[]);
    let table = crate::ui::iota::demo_table_with(players, 24).map_err(|e| e.to_string())?;
    let saved = table.session().saved();
    crate::store::saves::save(dir, &saved).map_err(|e| format!("{}: {e}", dir.display()))
}

/// One start: process start to the window built, and to its first presented frame.
#[derive(Debug, Clone, Copy)]
struct Start {
    built: Duration,
    first_frame: Duration,
}

/// Process start to first presented frame of `mode`, once; a start that never reaches the
/// display (an X server busy with other clients may refuse one) is retried twice.
fn first_frame(mode: &str, data: &Path) -> Result<Start, String> {
    let mut tried = first_frame_once(mode, data);
    for _ in 0..2 {
        if tried.is_ok() {
            break;
        }
        tried = first_frame_once(mode, data);
    }
    tried
}

fn first_frame_once(mode: &str, data: &Path) -> Result<Start, String> {
    let before = SystemTime::now();
    let out = child(mode, data, true)?
        .stdout(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot start the app: {e}"))?;
    let start = before
        .duration_since(UNIX_EPOCH)
        .map_err(|e| e.to_string())?
        .as_nanos();
    read_start(&String::from_utf8_lossy(&out.stdout), start)
        .map_err(|e| format!("{mode}: {e} ({})", out.status))
}

/// The child's stamps in `text`, as times since `start` (nanoseconds since the epoch).
fn read_start(text: &str, start: u128) -> Result<Start, String> {
    let since_start = |label: &str| -> Result<Duration, String> {
        let nanos: u128 = text
            .lines()
            .find_map(|l| l.strip_prefix(label)?.trim().parse().ok())
            .ok_or_else(|| format!("no '{label}' line"))?;
        let elapsed = nanos.checked_sub(start).ok_or("the clock went backwards")?;
        Ok(Duration::from_nanos(
            u64::try_from(elapsed).unwrap_or(u64::MAX),
        ))
    };
    Ok(Start {
        built: since_start(BUILT)?,
        first_frame: since_start(FIRST_FRAME)?,
    })
}

/// Start-up: the floor, the home screen and a resumed game, `runs` times each, interleaved
/// so that a busy moment of the machine hits all three alike.
pub fn startup(runs: usize) -> Result<Vec<Row>, String> {
    need_display()?;
    let fresh = Scratch::new("fresh")?;
    let saved = Scratch::new("saved")?;
    write_save(saved.path())?;
    let modes = [
        ("floor", fresh.path(), "minimal Slint window (floor)"),
        ("home", fresh.path(), "home screen"),
        ("resume", saved.path(), "resumed IOTA game (cover)"),
    ];
    let mut samples = vec![Vec::new(); modes.len()];
    // One unmeasured round: the first start pays for the disk cache.
    for (mode, data, _) in &modes {
        first_frame(mode, data)?;
    }
    for _ in 0..runs {
        for (i, (mode, data, _)) in modes.iter().enumerate() {
            samples[i].push(first_frame(mode, data)?);
        }
    }
    let median_of =
        |s: &[Start], part: fn(&Start) -> Duration| stats::median_by(s, part).unwrap_or_default();
    let floor = median_of(&samples[0], |s| s.first_frame);
    let renderer =
        std::env::var("SLINT_BACKEND").unwrap_or_else(|_| "winit, FemtoVG (default)".into());
    Ok(modes
        .iter()
        .zip(&samples)
        .enumerate()
        .map(|(i, ((_, _, what), s))| {
            let median = median_of(s, |s| s.first_frame);
            // Where the time goes: building the window, then drawing its first frame.
            let note = format!(
                "median of {runs}; window built at {}, first frame {} later; {renderer}",
                stats::ms(median_of(s, |s| s.built)),
                stats::ms(median_of(s, |s| s.first_frame.saturating_sub(s.built))),
            );
            let row = Row::new(
                "startup",
                format!("process start → first frame: {what}"),
                stats::ms(median),
            );
            if i == 0 {
                row.note(note)
            } else {
                let r = median.as_secs_f64() / floor.as_secs_f64().max(1e-9);
                row.goal("≤ 1.2× floor", r <= 1.2)
                    .note(format!("{} the floor; {note}", stats::ratio(median, floor)))
            }
        })
        .collect())
}

struct Watched {
    what: String,
    child: Child,
}

impl Drop for Watched {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Peak memory of the floor and of each scene and, when `seconds` > 0, the CPU time each
/// spends in `seconds` with nobody touching it. All run side by side.
pub fn observe(seconds: u64) -> Result<Vec<Row>, String> {
    need_display()?;
    let fresh = Scratch::new("observe")?;
    let mut watched = Vec::new();
    let mut modes = vec!["floor".to_string()];
    modes.extend(scenes::SCENES.iter().map(|s| format!("scene:{s}")));
    for mode in &modes {
        let child = child(mode, fresh.path(), false)?
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the app: {e}"))?;
        watched.push(Watched {
            what: mode.strip_prefix("scene:").unwrap_or(mode).to_string(),
            child,
        });
    }
    std::thread::sleep(SETTLE);
    let before: Vec<Result<Duration, String>> = watched
        .iter()
        .map(|w| procfs::cpu_time(w.child.id()))
        .collect();
    std::thread::sleep(Duration::from_secs(seconds));
    let mut rows = Vec::new();
    let floor_kib = procfs::peak_rss_kib(watched[0].child.id()).unwrap_or(0);
    for (w, before) in watched.iter_mut().zip(before) {
        if let Ok(Some(status)) = w.child.try_wait() {
            return Err(format!("{}: the app ended early ({status})", w.what));
        }
        let pid = w.child.id();
        let kib = procfs::peak_rss_kib(pid)?;
        let mut row = Row::new(
            "memory",
            format!("peak resident: {}", w.what),
            stats::mib(kib),
        );
        if w.what != "floor" && floor_kib > 0 {
            row = row.note(format!(
                "{:+.1} MiB over the floor",
                (kib as f64 - floor_kib as f64) / 1024.0
            ));
        }
        rows.push(row);
        if seconds > 0 {
            let used = procfs::cpu_time(pid)?.saturating_sub(before?);
            let share = used.as_secs_f64() / seconds as f64 * 100.0;
            rows.push(
                Row::new(
                    "idle",
                    format!("CPU over {seconds} s untouched: {}", w.what),
                    stats::ms(used),
                )
                .goal("≈ 0 (< 0.1% of a core)", share < 0.1)
                .note(format!("{share:.3}% of one core; real window")),
            );
        }
    }
    rows.sort_by(|a, b| a.bench.cmp(&b.bench));
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_childs_stamps_become_times_since_its_start() {
        let text = "built 1250000000\nfirst-frame 1900000000\n";
        let s = read_start(text, 1_000_000_000).expect("both stamps");
        assert_eq!(s.built, Duration::from_millis(250));
        assert_eq!(s.first_frame, Duration::from_millis(900));
    }

    #[test]
    fn a_child_that_never_drew_or_ran_backwards_is_an_error() {
        assert!(read_start("built 1250000000\n", 1_000_000_000)
            .unwrap_err()
            .contains("first-frame"));
        assert!(read_start("built 5\nfirst-frame 6\n", 1_000_000_000).is_err());
        assert!(read_start("first-frame soon\nbuilt 1250000000\n", 1_000_000_000).is_err());
    }
}
