//! `hotseat mirror`: the app in the headless software renderer, driven one line at a time,
//! telling where each control a player can tap is drawn. The browser build draws into a
//! canvas, which has no element tree a test could query; the same `.slint` screens with
//! the same fonts lay out the same way here, so the browser test (`tests/browser/play.py`)
//! asks the mirror where "Start" is, taps that point in Chromium, and presses "Start"
//! here too, so that both stay on the same screen.
//!
//! Commands on standard input, one per line; each answer ends with a line `.`:
//! - `find LABEL` — `X Y W H` of the first shown element reading exactly LABEL, or `none`
//! - `find-part TEXT` — the same for the first label containing TEXT, then its label
//! - `press LABEL` — its default action, as a tap would do; `ok` or `none`
//! - `labels` — every shown labelled element: `X Y W H<TAB>LABEL`
//! - `shot FILE` — the screen as a PNG; `ok`
//! - `restart` — the app closed and opened again on the same data folder
//!   (`HOTSEAT_DATA_DIR`, as a page reload does in the browser); `ok`
//! - `restart-kiosk` — the same, in kiosk mode (as the page opened with `?kiosk`): the
//!   welcome screen, or the PIN pad when no staff PIN is set. The mirror's kiosk never
//!   ticks (no idle question, no attract loop): it only follows the presses; `ok`
//! - `quit`

use crate::devtools::screenshot::{write_png, Headless};
use crate::platform::time::Instant;
use crate::ui::{bots, build, AppWindow};
use i_slint_backend_testing::{ElementHandle, ElementQuery};
use slint::platform::software_renderer::{MinimalSoftwareWindow, RepaintBufferType};
use slint::platform::WindowEvent;
use slint::{ComponentHandle, PhysicalSize, Rgb8Pixel, SharedPixelBuffer};
use std::io::{BufRead, Write};
use std::path::Path;

/// One shown element with a label, in logical px.
struct Shown {
    label: String,
    rect: (f32, f32, f32, f32),
}

/// `hotseat mirror --size WxH --lang en|ru`, reading commands from `input`.
pub fn command(args: &[String], input: impl BufRead, mut out: impl Write) -> Result<(), String> {
    let (mut width, mut height, mut language) = (412u32, 915u32, "en".to_string());
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let value = it.next().ok_or_else(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--size" => {
                let (w, h) = value
                    .split_once('x')
                    .ok_or("--size is WIDTHxHEIGHT, e.g. 412x915")?;
                width = w.parse().map_err(|_| "bad width in --size")?;
                height = h.parse().map_err(|_| "bad height in --size")?;
            }
            "--lang" => language = value.clone(),
            other => return Err(format!("unknown option {other}")),
        }
    }
    let window = MinimalSoftwareWindow::new(RepaintBufferType::NewBuffer);
    slint::platform::set_platform(Box::new(Headless {
        window: window.clone(),
    }))
    .map_err(|e| format!("cannot start the headless renderer: {e}"))?;
    // The app's opponents answer at once, on this thread: there is no event loop here.
    bots::set_synchronous(true);
    let open = |kiosk: bool| -> Result<_, String> {
        let (app, controller) = build(crate::store::data_dir()).map_err(|e| e.to_string())?;
        if kiosk {
            // No timer of kiosk mode's own: nothing changes here but by a press.
            crate::ui::kiosk::start_with_clock(&app, &controller, std::rc::Rc::new(Instant::now));
        }
        {
            let mut c = controller.borrow_mut();
            c.settings.language = crate::store::Language::from_code(&language);
            crate::ui::refresh_all(&app, &c);
        }
        window.set_size(PhysicalSize::new(width, height));
        window.dispatch_event(WindowEvent::ScaleFactorChanged { scale_factor: 1.0 });
        app.show().map_err(|e| e.to_string())?;
        Ok((app, controller))
    };
    let (mut app, mut _controller) = open(false)?;
    let say = |out: &mut dyn Write, text: &str| -> Result<(), String> {
        writeln!(out, "{text}\n.")
            .and_then(|_| out.flush())
            .map_err(|e| e.to_string())
    };
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        slint::platform::update_timers_and_animations();
        let (verb, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        match verb {
            "find" => {
                let hit = shown(&app, width, height)
                    .into_iter()
                    .find(|s| s.label == rest);
                say(&mut out, &hit.map_or("none".into(), |s| rect(&s)))?;
            }
            "find-part" => {
                let hit = shown(&app, width, height)
                    .into_iter()
                    .find(|s| s.label.contains(rest));
                say(
                    &mut out,
                    &hit.map_or("none".into(), |s| format!("{}\n{}", rect(&s), s.label)),
                )?;
            }
            "press" => {
                // Drawn and on show: the screens a player comes back to stay in the
                // tree when left, parked beyond the window's right edge (stage.slint).
                let hit = ElementHandle::find_by_accessible_label(&app, rest).find(|e| {
                    e.computed_opacity() >= 0.01 && e.absolute_position().x < width as f32
                });
                let answer = match hit {
                    Some(e) => {
                        e.invoke_accessible_default_action();
                        "ok"
                    }
                    None => "none",
                };
                say(&mut out, answer)?;
            }
            "labels" => {
                let all: Vec<String> = shown(&app, width, height)
                    .iter()
                    .map(|s| format!("{}\t{}", rect(s), s.label))
                    .collect();
                say(&mut out, &all.join("\n"))?;
            }
            "shot" => {
                let mut buffer = SharedPixelBuffer::<Rgb8Pixel>::new(width, height);
                window.request_redraw();
                window.draw_if_needed(|r| {
                    r.render(buffer.make_mut_slice(), width as usize);
                });
                write_png(Path::new(rest), &buffer)?;
                say(&mut out, "ok")?;
            }
            "restart" | "restart-kiosk" => {
                app.hide().map_err(|e| e.to_string())?;
                (app, _controller) = open(verb == "restart-kiosk")?;
                say(&mut out, "ok")?;
            }
            "quit" => break,
            "" => {}
            other => say(&mut out, &format!("error unknown command '{other}'"))?,
        }
    }
    Ok(())
}

fn rect(s: &Shown) -> String {
    let (x, y, w, h) = s.rect;
    format!("{x:.1} {y:.1} {w:.1} {h:.1}")
}

/// Labelled elements that are drawn (not transparent, not empty, inside the window), in
/// tree order, each once.
fn shown(app: &AppWindow, width: u32, height: u32) -> Vec<Shown> {
    let mut out: Vec<Shown> = Vec::new();
    for e in ElementQuery::from_root(app).match_descendants().find_all() {
        // One line per element in the protocol: a label's own line breaks become spaces.
        let Some(label) = e.accessible_label().map(|l| l.replace('\n', " ")) else {
            continue;
        };
        let (p, s) = (e.absolute_position(), e.size());
        let inside = p.x >= -0.5
            && p.y >= -0.5
            && p.x + s.width <= width as f32 + 0.5
            && p.y + s.height <= height as f32 + 0.5;
        if label.is_empty() || e.computed_opacity() < 0.01 || s.width < 1.0 || !inside {
            continue;
        }
        let rect = (p.x, p.y, s.width, s.height);
        if !out.iter().any(|o| o.label == label && o.rect == rect) {
            out.push(Shown { label, rect });
        }
    }
    out
}
