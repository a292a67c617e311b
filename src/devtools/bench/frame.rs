//! Frame times with Slint's software renderer, in this process and with no display: a
//! full frame of each game's busiest screen at phone and tablet resolution, the frames
//! that follow one move (drawn into a reused buffer, so only the dirty region is
//! repainted), and whether a screen left alone still schedules timers or animations.
//!
//! The platform's clock is driven by hand, so animations advance by exactly one 60 Hz
//! frame per step however long a frame takes to draw.

use super::scenes;
use crate::devtools::measure::report::Row;
use crate::devtools::measure::stats;
use crate::ui::omiga::OmigaTable;
use crate::ui::ovo::OvoTable;
use crate::ui::{AppWindow, Controller, IotaBridge, OmigaBridge, OvoBridge};
use slint::platform::software_renderer::{MinimalSoftwareWindow, RepaintBufferType};
use slint::platform::{Platform, WindowAdapter, WindowEvent};
use slint::{ComponentHandle, PhysicalSize, Rgb8Pixel};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The hand-driven clock, in milliseconds since the bench started.
static CLOCK_MS: AtomicU64 = AtomicU64::new(0);
/// One frame at 60 Hz, rounded to whole milliseconds.
const FRAME_MS: u64 = 16;
/// A move's animations never take longer than this many frames; more means something loops.
const MAX_FRAMES: usize = 240;

/// A device screen: physical pixels and the scale factor that gives its logical size.
#[derive(Debug, Clone, Copy)]
pub struct Device {
    /// Short name for the table.
    pub name: &'static str,
    /// Physical width in pixels.
    pub width: u32,
    /// Physical height in pixels.
    pub height: u32,
    /// Physical pixels per logical pixel.
    pub scale: f32,
}

/// The phone (1080×2400, 411×914 logical) and tablet (2560×1600, 1280×800 logical) screens.
pub const DEVICES: &[Device] = &[
    Device {
        name: "phone 1080×2400",
        width: 1080,
        height: 2400,
        scale: 2.625,
    },
    Device {
        name: "tablet 2560×1600",
        width: 2560,
        height: 1600,
        scale: 2.0,
    },
];

struct Headless {
    window: Rc<MinimalSoftwareWindow>,
}

impl Platform for Headless {
    fn create_window_adapter(&self) -> Result<Rc<dyn WindowAdapter>, slint::PlatformError> {
        Ok(self.window.clone())
    }

    fn duration_since_start(&self) -> Duration {
        Duration::from_millis(CLOCK_MS.load(Ordering::Relaxed))
    }
}

/// The software renderer bound to this process (Slint allows one platform per process).
pub struct Bench {
    window: Rc<MinimalSoftwareWindow>,
    device: Device,
    buffer: Vec<Rgb8Pixel>,
}

/// What drawing one frame did: its time and how many pixels it repainted.
#[derive(Debug, Clone, Copy)]
pub struct Drawn {
    /// Time spent in the renderer.
    pub time: Duration,
    /// Pixels repainted (the dirty region's area).
    pub pixels: u64,
}

impl Bench {
    /// Installs the headless platform with its hand-driven clock.
    pub fn new() -> Result<Self, String> {
        let window = MinimalSoftwareWindow::new(RepaintBufferType::ReusedBuffer);
        slint::platform::set_platform(Box::new(Headless {
            window: window.clone(),
        }))
        .map_err(|e| format!("cannot start the headless renderer: {e}"))?;
        Ok(Bench {
            window,
            device: DEVICES[0],
            buffer: Vec::new(),
        })
    }

    /// Shows `app` on `device`'s screen.
    fn open(&mut self, app: &impl ComponentHandle, device: Device) -> Result<(), String> {
        self.device = device;
        self.window
            .set_size(PhysicalSize::new(device.width, device.height));
        self.window.dispatch_event(WindowEvent::ScaleFactorChanged {
            scale_factor: device.scale,
        });
        self.buffer = vec![Rgb8Pixel::default(); (device.width * device.height) as usize];
        app.show().map_err(|e| e.to_string())
    }

    /// Advances the clock one frame, runs due timers and animations, and draws if needed.
    fn step(&mut self) -> Option<Drawn> {
        self.draw(false)
    }

    /// As [`Self::step`]; `full` repaints the whole screen into a fresh buffer.
    fn draw(&mut self, full: bool) -> Option<Drawn> {
        CLOCK_MS.fetch_add(FRAME_MS, Ordering::Relaxed);
        slint::platform::update_timers_and_animations();
        let width = self.device.width as usize;
        let buffer = &mut self.buffer;
        let mut drawn = None;
        self.window.draw_if_needed(|renderer| {
            if full {
                renderer.set_repaint_buffer_type(RepaintBufferType::NewBuffer);
            }
            let start = Instant::now();
            let region = renderer.render(buffer, width);
            let time = start.elapsed();
            if full {
                renderer.set_repaint_buffer_type(RepaintBufferType::ReusedBuffer);
            }
            if std::env::var_os("HOTSEAT_BENCH_RECTS").is_some() {
                eprintln!("{:?}", region.iter().collect::<Vec<_>>());
            }
            let pixels = region
                .iter()
                .map(|(_, size)| u64::from(size.width) * u64::from(size.height))
                .sum();
            drawn = Some(Drawn { time, pixels });
        });
        drawn
    }

    /// A full frame: the whole screen repainted into a fresh buffer.
    fn full_frame(&mut self) -> Option<Drawn> {
        self.window.request_redraw();
        self.draw(true)
    }

    /// Draws frame after frame until nothing is left to draw and nothing is scheduled to
    /// change (or [`MAX_FRAMES`] passed): the frames one change costs.
    fn settle(&mut self) -> (Vec<Drawn>, bool) {
        let mut frames = Vec::new();
        for _ in 0..MAX_FRAMES {
            let drawn = self.step();
            if let Some(d) = drawn {
                frames.push(d);
            }
            if drawn.is_none() && self.quiet() {
                return (frames, true);
            }
        }
        (frames, false)
    }

    /// No animation runs and no timer is due within a minute.
    fn quiet(&self) -> bool {
        let timer_soon = slint::platform::duration_until_next_timer_update()
            .is_some_and(|d| d < Duration::from_secs(60));
        !self.window.has_active_animations() && !timer_soon
    }

    fn screen_pixels(&self) -> u64 {
        u64::from(self.device.width) * u64::from(self.device.height)
    }
}

/// What is still scheduled on `scene` once everything it started has settled (a minute
/// of its own time later): empty when the screen is truly idle.
pub fn idle_check(bench: &mut Bench, scene: &str) -> Result<Vec<String>, String> {
    let (app, _controller) = scenes::show(scene)?;
    bench.open(&app, DEVICES[0])?;
    // A minute of the scene's own clock: countdowns run out, entry animations end.
    for _ in 0..(60_000 / FRAME_MS) {
        bench.step();
    }
    let mut busy = Vec::new();
    if bench.window.has_active_animations() {
        busy.push("an animation is running".to_string());
    }
    if let Some(d) = slint::platform::duration_until_next_timer_update() {
        busy.push(format!("a timer fires in {}", stats::ms(d)));
    }
    if bench.step().is_some() {
        busy.push("it still redraws".to_string());
    }
    app.hide().map_err(|e| e.to_string())?;
    Ok(busy)
}

type Shared = Rc<RefCell<Controller>>;

/// A change a player makes, applied to the app on screen.
type Change = fn(&AppWindow, &Shared) -> Result<(), String>;

/// Full frames of the busiest screens, and the frames after one move at phone size; of
/// `only` that scene when given.
pub fn rows(runs: usize, only: Option<&str>) -> Result<Vec<Row>, String> {
    let mut bench = Bench::new()?;
    let mut rows = Vec::new();
    let wanted = |scene: &&&str| only.is_none_or(|o| o == **scene);
    for scene in scenes::BUSIEST.iter().filter(wanted) {
        for device in DEVICES {
            let (app, _controller) = scenes::show(scene)?;
            bench.open(&app, *device)?;
            let (_warm, _) = bench.settle();
            let times: Vec<Duration> = (0..runs)
                .filter_map(|_| bench.full_frame().map(|d| d.time))
                .collect();
            let median = stats::median(&times).ok_or("no frame was drawn")?;
            rows.push(
                Row::new(
                    "frame",
                    format!("{scene}: full frame, {}", device.name),
                    stats::ms(median),
                )
                .goal("< 16 ms", median < Duration::from_millis(16))
                .note(format!("software renderer, median of {}", times.len())),
            );
            app.hide().map_err(|e| e.to_string())?;
        }
        for play in moves(scene) {
            // The same move from the same position, `runs` times: one sample is at the
            // mercy of whatever else the machine does.
            let mut samples = Vec::new();
            for _ in 0..runs {
                samples.push(one_move(&mut bench, scene, &play)?);
            }
            let median_of = |part: fn(&MoveFrames) -> Duration| {
                stats::median_by(&samples, part).ok_or("no move was timed")
            };
            let first = median_of(|m| m.first)?;
            let worst = median_of(|m| m.worst)?;
            let total = median_of(|m| m.total)?;
            let m = &samples[0];
            rows.push(
                Row::new(
                    "frame",
                    format!("{scene}: {}, phone", play.what),
                    format!("{} first, {} worst", stats::ms(first), stats::ms(worst)),
                )
                .goal("< 8 ms", worst < Duration::from_millis(8))
                .note(format!(
                    "medians of {}; {} frame(s), {} in all, largest dirty region {:.0}% of the screen{}",
                    samples.len(),
                    m.frames,
                    stats::ms(total),
                    m.dirty * 100.0,
                    if samples.iter().all(|m| m.settled) { "" } else { "; never settled" }
                )),
            );
        }
    }
    for scene in scenes::SCENES.iter().filter(wanted) {
        let busy = idle_check(&mut bench, scene)?;
        rows.push(
            Row::new(
                "idle",
                format!("{scene}: left alone (headless check)"),
                if busy.is_empty() {
                    "nothing scheduled".to_string()
                } else {
                    busy.join("; ")
                },
            )
            .goal("nothing scheduled", busy.is_empty()),
        );
    }
    Ok(rows)
}

/// The frames one move cost, from the scene at rest until nothing moves any more.
struct MoveFrames {
    first: Duration,
    worst: Duration,
    total: Duration,
    frames: usize,
    /// The largest dirty region, as a share of the screen.
    dirty: f64,
    settled: bool,
}

/// Shows `scene` at phone size, lets it settle, makes the move and times every frame
/// until the screen is still again.
fn one_move(bench: &mut Bench, scene: &str, play: &Move) -> Result<MoveFrames, String> {
    let (app, controller) = scenes::show(scene)?;
    bench.open(&app, DEVICES[0])?;
    if let Some(before) = play.before {
        before(&app, &controller)?;
    }
    bench.settle();
    (play.change)(&app, &controller)?;
    let (frames, settled) = bench.settle();
    let times: Vec<Duration> = frames.iter().map(|d| d.time).collect();
    let first = times
        .first()
        .copied()
        .ok_or(format!("{scene}: {} drew nothing", play.what))?;
    let dirty =
        frames.iter().map(|d| d.pixels).max().unwrap_or(0) as f64 / bench.screen_pixels() as f64;
    app.hide().map_err(|e| e.to_string())?;
    Ok(MoveFrames {
        first,
        worst: stats::max(&times).unwrap_or_default(),
        total: times.iter().sum(),
        frames: frames.len(),
        dirty,
        settled,
    })
}

/// A move timed on a scene.
struct Move {
    what: &'static str,
    /// Brings the staged scene to where the move starts; its frames are not timed.
    before: Option<Change>,
    change: Change,
}

impl Move {
    fn new(what: &'static str, change: Change) -> Self {
        Move {
            what,
            before: None,
            change,
        }
    }
}

/// The moves timed on `scene`.
fn moves(scene: &str) -> Vec<Move> {
    match scene {
        "ovo4" => vec![
            Move {
                before: Some(ovo_at_rest),
                ..Move::new("select an egg", ovo_select)
            },
            Move::new("step an egg (animated)", ovo_step),
        ],
        "iota-crowded" => vec![
            Move::new("pick a hand card", iota_pick),
            Move::new("play the staged card", iota_play),
        ],
        "omiga-late" => vec![Move::new("place a card", omiga_place)],
        _ => Vec::new(),
    }
}

/// A selection starts from a player's turn at rest, as after any tap: the Ovo picture has
/// a jump chain under way, which a real turn does not start with.
fn ovo_at_rest(app: &AppWindow, _controller: &Shared) -> Result<(), String> {
    app.global::<OvoBridge>().invoke_cancel();
    Ok(())
}

/// A step the player to move may make on the Ovo table: (from, to) cell indices.
fn ovo_step_action(controller: &Shared) -> Option<(i32, i32)> {
    use crate::games::ovo::OvoAction;
    let mut c = controller.borrow_mut();
    let session = c.table_as::<OvoTable>()?.session();
    let seat = *session.to_act().first()?;
    let desk = session.desk(seat)?;
    desk.legal_actions().into_iter().find_map(|a| match a {
        OvoAction::Step {
            from,
            to,
            ovo: false,
        } => Some((from.index() as i32, to.index() as i32)),
        _ => None,
    })
}

fn ovo_select(app: &AppWindow, controller: &Shared) -> Result<(), String> {
    let (from, _) = ovo_step_action(controller).ok_or("no egg may step")?;
    app.global::<OvoBridge>().invoke_tap(from);
    Ok(())
}

fn ovo_step(app: &AppWindow, controller: &Shared) -> Result<(), String> {
    let (from, to) = ovo_step_action(controller).ok_or("no egg may step")?;
    let bridge = app.global::<OvoBridge>();
    bridge.invoke_tap(from);
    bridge.invoke_tap(to);
    Ok(())
}

fn iota_pick(app: &AppWindow, _controller: &Shared) -> Result<(), String> {
    // The staged table has one card laid and one picked; picking another is the usual tap.
    app.global::<IotaBridge>().invoke_tap_hand(3);
    Ok(())
}

fn iota_play(app: &AppWindow, _controller: &Shared) -> Result<(), String> {
    app.global::<IotaBridge>().invoke_play();
    Ok(())
}

fn omiga_place(app: &AppWindow, controller: &Shared) -> Result<(), String> {
    let bridge = app.global::<OmigaBridge>();
    let legal_cell = |seat| {
        let mut c = controller.borrow_mut();
        c.table_as::<OmigaTable>()
            .and_then(|t| t.a_legal_cell(seat))
    };
    // White's selected card, or the first card of White's hand that fits somewhere.
    let mut cell = legal_cell(0);
    for index in 0..8 {
        if cell.is_some() {
            break;
        }
        bridge.invoke_tap_hand(0, index, false);
        cell = legal_cell(0);
    }
    let (x, y) = cell.ok_or("no card of White's fits anywhere")?;
    bridge.invoke_tap_cell(x.into(), y.into());
    Ok(())
}
