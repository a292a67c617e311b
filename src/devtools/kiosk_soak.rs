//! `hotseat kiosk-soak --minutes N`: runs the kiosk's attract loop for N minutes of
//! simulated time (one kiosk tick per simulated second, the app's seats thinking on the
//! calling thread, a frame drawn every simulated 10 s with the software renderer) and
//! prints the resident memory (VmRSS) at intervals, so a leak shows as a rising column.

use crate::ui::kiosk::{demo_progress, start_with_clock, tick};
use crate::ui::{build, OmigaBridge};
use slint::platform::software_renderer::{MinimalSoftwareWindow, RepaintBufferType};
use slint::platform::{Platform, WindowAdapter, WindowEvent};
use slint::{ComponentHandle, PhysicalSize, Rgb8Pixel, SharedPixelBuffer};
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

struct Headless {
    window: Rc<MinimalSoftwareWindow>,
}

impl Platform for Headless {
    fn create_window_adapter(&self) -> Result<Rc<dyn WindowAdapter>, slint::PlatformError> {
        Ok(self.window.clone())
    }
}

/// This process's resident memory in kB, from `/proc/self/status` (`None` off Linux).
pub fn resident_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs the soak; `args` are `--minutes N` (default 60) and `--every M` (report every M
/// simulated minutes, default 10).
pub fn command(args: &[String]) -> Result<(), String> {
    let mut minutes: u64 = 60;
    let mut every: u64 = 10;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let value = it.next().ok_or_else(|| format!("{arg} needs a value"))?;
        let n: u64 = value
            .parse()
            .map_err(|_| format!("{arg} takes a whole number, not '{value}'"))?;
        match arg.as_str() {
            "--minutes" if (1..=100_000).contains(&n) => minutes = n,
            "--every" if n >= 1 => every = n,
            _ => return Err(format!("kiosk-soak: bad option {arg} {value}")),
        }
    }
    let window = MinimalSoftwareWindow::new(RepaintBufferType::NewBuffer);
    slint::platform::set_platform(Box::new(Headless {
        window: window.clone(),
    }))
    .map_err(|e| format!("cannot start the headless renderer: {e}"))?;
    let (width, height) = (1280u32, 800u32);
    window.set_size(PhysicalSize::new(width, height));
    window.dispatch_event(WindowEvent::ScaleFactorChanged { scale_factor: 1.0 });
    crate::ui::bots::set_synchronous(true);
    let (app, controller) = build(None).map_err(|e| e.to_string())?;
    app.show().map_err(|e| e.to_string())?;
    let time = Rc::new(Cell::new(Instant::now()));
    let clock = time.clone();
    start_with_clock(&app, &controller, Rc::new(move || clock.get()));
    if let Some(k) = controller.borrow_mut().kiosk.as_mut() {
        k.set_pin_for_soak();
    }
    app.global::<crate::ui::KioskBridge>()
        .set_overlay(crate::ui::KioskOverlay::None);
    let mut buffer = SharedPixelBuffer::<Rgb8Pixel>::new(width, height);
    let started = Instant::now();
    let mut games = 0usize;
    let mut last_demo = None;
    let mut readings = Vec::new();
    println!("simulated_min  demo_games  actions_now  vmrss_kb");
    for second in 0..=minutes * 60 {
        time.set(time.get() + Duration::from_secs(1));
        tick(&app, &controller);
        crate::ui::bots::wake_paced();
        app.global::<OmigaBridge>().invoke_tick();
        slint::platform::update_timers_and_animations();
        let progress = demo_progress(&controller.borrow());
        if let Some((game, actions)) = progress {
            if last_demo.is_none_or(|(g, a)| g != game || actions < a) {
                games += 1;
            }
            last_demo = Some((game, actions));
        }
        if second % 10 == 0 {
            window.request_redraw();
            window.draw_if_needed(|r| {
                r.render(buffer.make_mut_slice(), width as usize);
            });
        }
        if second % (every * 60) == 0 {
            let rss = resident_kb().unwrap_or(0);
            readings.push(rss);
            println!(
                "{:>13}  {:>10}  {:>11}  {:>8}",
                second / 60,
                games,
                last_demo.map_or(0, |(_, a)| a),
                rss
            );
        }
    }
    let first = readings.get(1).or(readings.first()).copied().unwrap_or(0);
    let last = readings.last().copied().unwrap_or(0);
    let max = readings.iter().copied().max().unwrap_or(0);
    println!(
        "demo games started: {games}; VmRSS after warm-up {first} kB, at the end {last} kB, highest {max} kB; wall time {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
