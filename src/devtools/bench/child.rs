//! What a process spawned by the bench runs (`hotseat bench --child MODE`): the app as
//! `hotseat` starts it, the app resuming its save, one scene, or the floor — the smallest
//! Slint window — all in a real window on the desktop's own backend and renderer.

use super::scenes;
use crate::ui::{build, AppWindow};
use slint::{ComponentHandle, RenderingState};
use std::io::Write;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

slint::slint! {
    // The floor: what any Slint app costs before it draws anything of its own.
    export component FloorWindow inherits Window {
        title: "Hotseat floor";
        preferred-width: 412px;
        preferred-height: 780px;
        Text { text: "Hotseat"; }
    }
}

/// The line a child prints when its first frame is on screen, before the wall-clock
/// nanoseconds since the Unix epoch.
pub const FIRST_FRAME: &str = "first-frame";
/// The line a child prints, likewise, once its window is built and before it is shown:
/// what comes before is process start, the platform and the UI's elements; what comes
/// after is the renderer's first frame.
pub const BUILT: &str = "built";

/// Prints `label` and the wall clock in nanoseconds since the Unix epoch.
fn stamp(label: &str) {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{label} {now}");
    let _ = out.flush();
}

/// A child that never draws (no display, a broken driver) gives up after this long.
const WATCHDOG: Duration = Duration::from_secs(30);

/// Runs child `mode` (`floor`, `home`, `resume` or `scene:NAME`) until killed, or until its
/// first frame is presented when `first_frame`.
pub fn run(mode: &str, first_frame: bool) -> Result<(), String> {
    let data_dir = crate::store::data_dir();
    let window_of_app;
    let floor;
    // The controller lives as long as the window (the callbacks hold it, but say so).
    let mut _controller = None;
    let window = match mode {
        "floor" => {
            floor = FloorWindow::new().map_err(|e| e.to_string())?;
            floor.window()
        }
        "home" | "resume" => {
            let (app, controller) = build(data_dir).map_err(|e| e.to_string())?;
            if mode == "resume" {
                app.invoke_continue_game();
            }
            _controller = Some(controller);
            window_of_app = app;
            window_of_app.window()
        }
        _ => {
            let scene = mode
                .strip_prefix("scene:")
                .ok_or_else(|| format!("unknown child mode '{mode}'"))?;
            let (app, controller): (AppWindow, _) = scenes::show(scene)?;
            _controller = Some(controller);
            window_of_app = app;
            window_of_app.window()
        }
    };
    if first_frame {
        stamp(BUILT);
        window
            .set_rendering_notifier(|state, _| {
                if matches!(state, RenderingState::AfterRendering) {
                    stamp(FIRST_FRAME);
                    std::process::exit(0);
                }
            })
            .map_err(|e| {
                format!(
                    "this renderer cannot report its first frame ({e:?}); \
                     run without SLINT_BACKEND=…-software"
                )
            })?;
        slint::Timer::single_shot(WATCHDOG, || {
            eprintln!("hotseat: no frame was drawn in {}s", WATCHDOG.as_secs());
            std::process::exit(2);
        });
    }
    window.show().map_err(|e| e.to_string())?;
    slint::run_event_loop().map_err(|e| e.to_string())
}
