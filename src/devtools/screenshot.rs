//! `hotseat screenshot`: renders a screen to PNG with Slint's software renderer, with no
//! display, so anyone can look at what a player sees (and `docs/screenshots/` stays current).

use crate::games::registry::GameKind;
use crate::ui::play::Table;
use crate::ui::{build, AppWindow, Screen};
use slint::platform::software_renderer::{MinimalSoftwareWindow, RepaintBufferType};
use slint::platform::{Platform, WindowAdapter, WindowEvent};
use slint::{ComponentHandle, PhysicalSize, Rgb8Pixel, SharedPixelBuffer};
use std::path::Path;
use std::rc::Rc;

/// The screens `screenshot` knows, by name.
pub const SCREENS: &[&str] = &[
    "home",
    "setup",
    "setup-app",
    "settings",
    "rules",
    "cover",
    "ovo",
    "ovo4",
    "ovo-peek",
    "ovo-end",
    "ovo-app",
    "iota",
    "iota-end",
    "iota-illegal",
    "omiga",
    "omiga-end",
    "omiga-behind",
    "omiga-app",
    "history",
    "history-game",
    "history-replay",
    "lan-host",
    "lan-join",
    "lan-play",
    "pair-host",
    "pair-join",
    "kiosk-welcome",
    "kiosk-demo",
    "kiosk-pin",
    "kiosk-staff",
    "kiosk-idle",
    "lesson-ovo",
    "lesson-iota",
    "lesson-omiga",
    "puzzles",
    "puzzle-archive",
    "puzzle-ovo",
    "puzzle-iota",
    "puzzle-omiga",
    "puzzle-clock",
    "puzzle-answer-ovo",
    "puzzle-answer-iota",
    "puzzle-answer-omiga",
];

/// The sizes `screenshot --all` renders: phone portrait and landscape, tablet landscape and
/// portrait (logical px of a typical 6.7" phone and a 10" tablet).
pub const SIZES: &[(&str, u32, u32)] = &[
    ("phone", 412, 915),
    ("phone-landscape", 915, 412),
    ("tablet", 1280, 800),
    ("tablet-portrait", 800, 1280),
];

/// A platform whose one window is drawn in memory (no display).
pub(crate) struct Headless {
    pub(crate) window: Rc<MinimalSoftwareWindow>,
}

impl Platform for Headless {
    fn create_window_adapter(&self) -> Result<Rc<dyn WindowAdapter>, slint::PlatformError> {
        Ok(self.window.clone())
    }
}

/// One picture to take.
#[derive(Debug, Clone)]
pub struct Shot {
    /// A name from [`SCREENS`].
    pub screen: String,
    /// Logical width and height.
    pub width: u32,
    /// Logical height.
    pub height: u32,
    /// `en` or `ru`.
    pub language: String,
    /// `light`, `dark` or `high-contrast`.
    pub theme: String,
}

/// A renderer bound to this process (Slint allows one platform per process).
pub struct Camera {
    window: Rc<MinimalSoftwareWindow>,
}

impl Camera {
    /// Installs the headless platform. Fails if another platform was installed first.
    pub fn new() -> Result<Self, String> {
        let window = MinimalSoftwareWindow::new(RepaintBufferType::NewBuffer);
        slint::platform::set_platform(Box::new(Headless {
            window: window.clone(),
        }))
        .map_err(|e| format!("cannot start the headless renderer: {e}"))?;
        Ok(Camera { window })
    }

    /// Renders `shot` and returns the RGB pixels.
    pub fn take(&self, shot: &Shot) -> Result<SharedPixelBuffer<Rgb8Pixel>, String> {
        if !SCREENS.contains(&shot.screen.as_str()) {
            return Err(format!(
                "unknown screen '{}' (screens: {})",
                shot.screen,
                SCREENS.join(", ")
            ));
        }
        // A fresh, empty data folder: pictures never show anybody's saved names.
        let (app, controller) = build(None).map_err(|e| e.to_string())?;
        {
            let mut c = controller.borrow_mut();
            c.settings.language = crate::store::Language::from_code(&shot.language);
            c.settings.theme = match shot.theme.as_str() {
                "dark" => crate::store::ThemeChoice::Dark,
                "high-contrast" => crate::store::ThemeChoice::HighContrast,
                _ => crate::store::ThemeChoice::Light,
            };
            crate::ui::refresh_all(&app, &c);
        }
        stage(&app, &controller, &shot.screen, &shot.language);
        self.window
            .set_size(PhysicalSize::new(shot.width, shot.height));
        self.window
            .dispatch_event(WindowEvent::ScaleFactorChanged { scale_factor: 1.0 });
        app.show().map_err(|e| e.to_string())?;
        slint::platform::update_timers_and_animations();
        let mut buffer = SharedPixelBuffer::<Rgb8Pixel>::new(shot.width, shot.height);
        let stride = shot.width as usize;
        self.window.request_redraw();
        self.window.draw_if_needed(|renderer| {
            renderer.render(buffer.make_mut_slice(), stride);
        });
        app.hide().map_err(|e| e.to_string())?;
        Ok(buffer)
    }
}

/// Puts the app on the named screen (one of [`SCREENS`]) with example content.
pub fn stage(
    app: &AppWindow,
    controller: &std::rc::Rc<std::cell::RefCell<crate::ui::Controller>>,
    screen: &str,
    language: &str,
) {
    match screen {
        "ovo" | "ovo4" | "ovo-peek" | "ovo-end" => {
            crate::ui::ovo::show_demo(app, controller, screen)
        }
        "iota" | "iota-end" | "iota-illegal" => {
            app.invoke_open_game("iota".into());
            let mut c = controller.borrow_mut();
            let language = c.language();
            let players = crate::ui::play::players(
                &c.setup.final_names(language),
                &c.setup.colors,
                &c.setup.levels(),
            );
            let table = match screen {
                "iota-end" => crate::ui::iota::demo_end_table(players),
                "iota-illegal" => crate::ui::iota::demo_illegal_table(players),
                _ => crate::ui::iota::demo_table(players),
            };
            match table {
                Ok(table) => {
                    table.show(app, language);
                    c.table = Some(Box::new(table));
                    app.set_screen(Screen::Game);
                }
                Err(e) => eprintln!("hotseat: the IOTA example could not be set up: {e}"),
            }
        }
        "setup" => {
            app.invoke_open_game("ovo".into());
        }
        "setup-app" => {
            app.invoke_open_game("ovo".into());
            app.invoke_set_kind(1, 3);
        }
        "lesson-ovo" | "lesson-iota" | "lesson-omiga" => stage_lesson(app, controller, screen),
        "puzzles"
        | "puzzle-archive"
        | "puzzle-ovo"
        | "puzzle-iota"
        | "puzzle-omiga"
        | "puzzle-clock"
        | "puzzle-answer-ovo"
        | "puzzle-answer-iota"
        | "puzzle-answer-omiga" => crate::ui::puzzles::stage(app, controller, screen),
        "ovo-app" => stage_ovo_app(app, controller),
        "omiga-app" => stage_omiga_app(app, controller),
        "settings" => app.set_screen(Screen::Settings),
        "history" => stage_history(app, controller, language, false),
        "history-game" => stage_history(app, controller, language, true),
        "history-replay" => stage_replay(app, controller, language),
        "rules" => app.set_screen(Screen::Rules),
        "cover" => {
            app.invoke_open_game("iota".into());
            app.invoke_start_game();
        }
        "omiga" => crate::ui::omiga::stage_midgame(app, controller, language),
        "omiga-end" => crate::ui::omiga::stage_end(app, controller, language),
        "omiga-behind" => crate::ui::omiga::stage_behind(app, controller, language),
        "lan-host" | "lan-join" | "lan-play" => crate::ui::lan::stage(app, controller, screen),
        #[cfg(feature = "webrtc")]
        "pair-host" | "pair-join" => crate::ui::lan::stage_pair(app, controller, screen),
        "kiosk-welcome" | "kiosk-demo" | "kiosk-pin" | "kiosk-staff" | "kiosk-idle" => {
            crate::ui::kiosk::stage(app, controller, screen)
        }
        _ => app.set_screen(Screen::Home),
    }
}

/// The history with three finished example games (played out as the `-end` screens are),
/// and with the newest opened at its moves when `open`.
/// A lesson step of each game, as "Learn to play" opens it: a step that shows what the
/// game is about (Ovo's turning chain, after a try that missed; IOTA's line of three;
/// Omiga's matching colours).
fn stage_lesson(
    app: &AppWindow,
    controller: &std::rc::Rc<std::cell::RefCell<crate::ui::Controller>>,
    screen: &str,
) {
    let (game, step) = match screen {
        "lesson-iota" => ("iota", 1),
        "lesson-omiga" => ("omiga", 0),
        _ => ("ovo", 2),
    };
    controller
        .borrow_mut()
        .settings
        .lessons
        .insert(game.to_string(), step);
    app.global::<crate::ui::LessonBridge>()
        .invoke_open(game.into());
    if game == "ovo" {
        // A try that misses, so that the picture shows the hint beside the board as it
        // was: one jump from a2 to c4 (a1 is cell 0, so a2 is 6 and c4 is 20), ended
        // there, where the step asks for a chain that turns.
        let ovo = app.global::<crate::ui::OvoBridge>();
        ovo.invoke_tap(6);
        ovo.invoke_tap(20);
        ovo.invoke_stop();
    }
}

fn stage_history(
    app: &AppWindow,
    controller: &std::rc::Rc<std::cell::RefCell<crate::ui::Controller>>,
    language: &str,
    open: bool,
) {
    let dir = std::env::temp_dir().join(format!("hotseat-screenshot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let ended = ["ovo-end", "omiga-end", "iota-end"];
    for (day, base) in (0u64..).zip(ended) {
        stage(app, controller, base, language);
        let Some(table) = controller.borrow_mut().table.take() else {
            continue;
        };
        let when = 1_795_910_400 + day * 86_400;
        if let Some(entry) = table.session().finished_entry(when, Some(240 + day * 300)) {
            if let Err(e) = crate::store::history::record(&dir, entry) {
                eprintln!("hotseat: the example history could not be written: {e}");
            }
        }
    }
    controller.borrow_mut().data_dir = Some(dir.clone());
    app.invoke_show_history();
    if open {
        app.invoke_open_history(0);
    }
    app.set_screen(Screen::History);
    // Everything is on screen now; the pictures keep no files behind.
    let _ = std::fs::remove_dir_all(&dir);
}

/// The IOTA example game stepped back one move on the history's replay.
fn stage_replay(
    app: &AppWindow,
    controller: &std::rc::Rc<std::cell::RefCell<crate::ui::Controller>>,
    language: &str,
) {
    // Any staged game replays the same way; the IOTA example shows the most.
    stage(app, controller, "iota", language);
    let mut c = controller.borrow_mut();
    let Some(table) = c.table.take() else {
        return;
    };
    let saved = table.session().saved();
    let step = saved.actions.len().saturating_sub(1);
    let title = saved.game.parse::<GameKind>().map_or("", GameKind::title);
    let opened = crate::ui::replay::Opened {
        saved,
        title: title.into(),
    };
    crate::ui::replay::start(app, &mut c, opened, step);
}

/// Ovo against the app (hard), three moves each, played through the board.
fn stage_ovo_app(
    app: &AppWindow,
    controller: &std::rc::Rc<std::cell::RefCell<crate::ui::Controller>>,
) {
    use crate::games::ovo::OvoAction;
    crate::ui::bots::set_synchronous(true);
    app.invoke_open_game("ovo".into());
    app.invoke_set_kind(1, 3);
    app.invoke_start_game();
    if app.get_cover_up() {
        app.invoke_reveal();
    }
    let bridge = app.global::<crate::ui::OvoBridge>();
    for _ in 0..3 {
        let step = controller
            .borrow_mut()
            .table_as::<crate::ui::ovo::OvoTable>()
            .and_then(|t| {
                let legal = t.session().desk(0)?.legal_actions();
                legal
                    .into_iter()
                    .rev()
                    .find(|a| matches!(a, OvoAction::Step { ovo: false, .. }))
            });
        if let Some(OvoAction::Step { from, to, .. }) = step {
            bridge.invoke_tap(from.index() as i32);
            bridge.invoke_tap(to.index() as i32);
        }
    }
    bridge.set_anim_active(false);
}

/// Omiga against the app (medium): a few cards laid by each side.
fn stage_omiga_app(
    app: &AppWindow,
    controller: &std::rc::Rc<std::cell::RefCell<crate::ui::Controller>>,
) {
    crate::ui::bots::set_synchronous(true);
    app.invoke_open_game("omiga".into());
    app.invoke_set_kind(1, 2);
    app.invoke_start_game();
    let bridge = app.global::<crate::ui::OmigaBridge>();
    for _ in 0..3 {
        bridge.invoke_tick();
    }
    for _ in 0..3 {
        crate::ui::bots::wake_paced();
        let cell = controller
            .borrow_mut()
            .table_as::<crate::ui::omiga::OmigaTable>()
            .and_then(|t| {
                let desk = t.session().desk(0)?;
                let card = *desk.view().hand.first()?;
                desk.legal_cells(card, false).first().copied()
            });
        if let Some((x, y)) = cell {
            bridge.invoke_tap_hand(0, 0, false);
            bridge.invoke_tap_cell(x.into(), y.into());
        }
    }
}

/// Writes RGB pixels as a PNG file.
pub fn write_png(path: &Path, pixels: &SharedPixelBuffer<Rgb8Pixel>) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(
        std::io::BufWriter::new(file),
        pixels.width(),
        pixels.height(),
    );
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer
        .write_image_data(pixels.as_bytes())
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// `hotseat screenshot …`: one picture, or `--all DIR` for every screen at the four sizes.
pub fn command(args: &[String]) -> Result<(), String> {
    let mut shot = Shot {
        screen: "home".into(),
        width: 412,
        height: 915,
        language: "en".into(),
        theme: "light".into(),
    };
    let mut out = None;
    let mut all = None;
    let mut cvd: Option<crate::devtools::cvd::Deficiency> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value"))
        };
        match arg.as_str() {
            "--all" => all = Some(value()?),
            "--out" | "-o" => out = Some(value()?),
            "--lang" => shot.language = value()?,
            "--theme" => shot.theme = value()?,
            "--cvd" => cvd = Some(value()?.parse()?),
            "--size" => {
                let v = value()?;
                let (w, h) = v
                    .split_once('x')
                    .ok_or("--size is WIDTHxHEIGHT, e.g. 412x915")?;
                shot.width = w.parse().map_err(|_| "bad width in --size")?;
                shot.height = h.parse().map_err(|_| "bad height in --size")?;
                if !(100..=4096).contains(&shot.width) || !(100..=4096).contains(&shot.height) {
                    return Err("--size must be between 100 and 4096 on each side".into());
                }
            }
            s if !s.starts_with('-') => shot.screen = s.to_string(),
            other => return Err(format!("unknown option {other}")),
        }
    }
    let camera = Camera::new()?;
    if let Some(dir) = all {
        let dir = Path::new(&dir);
        for screen in SCREENS {
            for (size, w, h) in SIZES {
                for lang in ["en", "ru"] {
                    let shot = Shot {
                        screen: screen.to_string(),
                        width: *w,
                        height: *h,
                        language: lang.into(),
                        theme: "light".into(),
                    };
                    let path = dir.join(format!("{screen}-{size}-{lang}.png"));
                    write_png(&path, &camera.take(&shot)?)?;
                    println!("{}", path.display());
                }
            }
        }
        for theme in ["dark", "high-contrast"] {
            let shot = Shot {
                screen: "home".into(),
                width: 412,
                height: 915,
                language: "en".into(),
                theme: theme.into(),
            };
            let path = dir.join(format!("home-phone-en-{theme}.png"));
            write_png(&path, &camera.take(&shot)?)?;
            println!("{}", path.display());
        }
        return Ok(());
    }
    let out = out.unwrap_or_else(|| format!("{}-{}x{}.png", shot.screen, shot.width, shot.height));
    let mut pixels = camera.take(&shot)?;
    if let Some(d) = cvd {
        d.simulate_image(pixels.make_mut_bytes());
    }
    write_png(Path::new(&out), &pixels)?;
    println!("{out}");
    Ok(())
}
