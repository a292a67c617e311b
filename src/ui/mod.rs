//! The Slint bridge: fills the screens from the app's state and turns taps into changes.
//! No rule is decided here; games are played through `session`.

pub mod access;
pub mod bots;
pub mod chrome;
mod history;
pub mod inbox;
pub mod iota;
pub mod kiosk;
pub mod lan;
pub mod lessons;
mod lifecycle;
pub mod mobile;
pub mod omiga;
pub mod omiga_models;
pub mod ovo;
pub mod play;
pub mod puzzles;
pub mod qr;
pub mod reasons;
pub mod refusals;
pub mod replay;
pub mod rows;
#[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
pub mod rtc;
pub mod rules_text;
pub mod setup;
pub mod sound;
mod staged;
pub mod tables;
pub mod texts;

slint::include_modules!();

use crate::games::registry::GameKind;
use crate::store::{self, Language, Settings, ThemeChoice};
use setup::SetupState;
use slint::{ComponentHandle, SharedString};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

/// Everything the screens show that is not a game: settings, setup, rules.
pub struct Controller {
    pub(crate) settings: Settings,
    pub(crate) data_dir: Option<PathBuf>,
    pub(crate) setup: SetupState,
    rules_game: crate::games::registry::GameKind,
    /// The game on screen, if any.
    pub(crate) table: Option<Box<dyn play::Table>>,
    /// Saving, resuming and recording the match on screen.
    pub(crate) life: lifecycle::Life,
    /// Omiga on two devices, when hosting, joining or playing over the network.
    pub(crate) lan: Option<lan::Lan>,
    /// The recorded game opened on the history screen, if any.
    pub(crate) history_opened: Option<replay::Opened>,
    /// A recorded game being stepped through on its board (never saved, never played).
    pub(crate) replay: Option<replay::Replay>,
    /// Kiosk mode, when on (`--kiosk` or the setting).
    pub(crate) kiosk: Option<kiosk::KioskUi>,
    /// The table's sound cues and the phone's buzz.
    pub sound: sound::Sound,
    /// The day the puzzles are made for, when pinned (tests, pictures).
    pub(crate) puzzle_day: Option<crate::puzzles::Day>,
    /// The puzzles' results, once read (`puzzles::puzzle_book`).
    pub(crate) puzzle_book: Option<crate::store::puzzles::PuzzleBook>,
    /// The puzzles made in this run (each takes a few milliseconds to make).
    pub(crate) puzzles_made: Vec<crate::puzzles::Puzzle>,
}

impl Controller {
    /// A controller with the settings found in `data_dir` (defaults if none or damaged).
    pub fn new(data_dir: Option<PathBuf>) -> Self {
        let settings = load_or_default(data_dir.as_deref(), Settings::load);
        let mut c = Controller {
            setup: SetupState::default(),
            settings,
            data_dir,
            rules_game: crate::games::registry::GameKind::Ovo,
            table: None,
            life: lifecycle::Life::default(),
            lan: None,
            history_opened: None,
            replay: None,
            kiosk: None,
            sound: sound::Sound::default(),
            puzzle_day: None,
            puzzle_book: None,
            puzzles_made: Vec::new(),
        };
        c.setup = SetupState::new(GameKind::Ovo, &c.settings, c.language());
        c
    }

    /// The settings as chosen (and saved).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The language shown now (`en` or `ru`).
    pub fn language(&self) -> &'static str {
        let locale = std::env::var("LC_ALL")
            .or_else(|_| std::env::var("LANG"))
            .ok();
        self.settings.language.resolve(locale.as_deref())
    }

    /// The table on screen as game `T`'s table (tests, the screenshot command).
    pub fn table_as<T: 'static>(&mut self) -> Option<&mut T> {
        self.table
            .as_mut()
            .and_then(|t| t.as_any_mut().downcast_mut::<T>())
    }

    /// The table on screen, whatever its game (tests: a lesson's board or a game's).
    pub fn on_table(&self) -> Option<&dyn play::Table> {
        self.table.as_deref()
    }

    fn save(&self) {
        if let Some(dir) = &self.data_dir {
            if let Err(e) = self.settings.save(dir) {
                crate::note!("settings could not be saved in {}: {e}", dir.display());
            }
        }
    }
}

/// A callback with no argument that runs `f` with the window and the controller while
/// the window lives: the one shape of the shell's many buttons.
pub(crate) fn on_tap(
    app: &AppWindow,
    controller: &Rc<RefCell<Controller>>,
    f: fn(&AppWindow, &mut Controller),
) -> impl Fn() + 'static {
    let weak = app.as_weak();
    let controller = controller.clone();
    move || {
        if let Some(app) = weak.upgrade() {
            f(&app, &mut controller.borrow_mut());
        }
    }
}

/// Creates the main window wired to a controller whose files live in `data_dir`.
pub fn build(
    data_dir: Option<PathBuf>,
) -> Result<(AppWindow, Rc<RefCell<Controller>>), slint::PlatformError> {
    use crate::platform::mark;
    mark("hs-build");
    let app = AppWindow::new()?;
    mark("hs-window-made");
    refusals::install(&app);
    app.set_lan_available(crate::platform::HAS_LAN);
    // Two phones by pairing texts over WebRTC: the browser's own, or the app's (str0m).
    app.set_pair_available(cfg!(any(target_arch = "wasm32", feature = "webrtc")));
    let controller = Rc::new(RefCell::new(Controller::new(data_dir)));
    refresh_all(&app, &controller.borrow());
    lifecycle::show_continue(&app, &controller.borrow());
    wire(&app, &controller);
    Ok((app, controller))
}

/// What `load` reads from the data folder, or the defaults without one. A damaged file
/// is set aside by `load`; its note goes to stderr and the app carries on.
pub(crate) fn load_or_default<T: Default>(
    dir: Option<&std::path::Path>,
    load: fn(&std::path::Path) -> (T, Option<String>),
) -> T {
    let Some(dir) = dir else {
        return T::default();
    };
    let (value, note) = load(dir);
    if let Some(note) = note {
        crate::note!("{note}");
    }
    value
}

/// Starts the app on the desktop (and, through `android_main`, on Android).
pub fn run_app() -> Result<(), slint::PlatformError> {
    run_app_with(false)
}

/// Starts the app, in kiosk mode when `kiosk` or when the settings say so.
pub fn run_app_with(kiosk: bool) -> Result<(), slint::PlatformError> {
    let (app, _controller) = start_app(kiosk)?;
    app.run()
}

/// The app's window, wired and ready to run (the desktop and the browser run it their way).
pub fn start_app(
    kiosk: bool,
) -> Result<(AppWindow, Rc<RefCell<Controller>>), slint::PlatformError> {
    let (app, controller) = build(store::data_dir())?;
    crate::platform::touch::route(app.window());
    mobile::register(&app, &controller);
    crate::platform::mark("hs-mobile");
    if kiosk || controller.borrow().settings.start_in_kiosk {
        kiosk::start(&app, &controller);
        // Settings' sound switch shows the kiosk's default (off) until staff choose.
        app.set_sound_on(controller.borrow().settings.sound_on(true));
    }
    Ok((app, controller))
}

/// Shows the controller's settings, setup and rules on every screen.
pub(crate) fn refresh_all(app: &AppWindow, c: &Controller) {
    apply_settings(app, c);
    show_setup(app, c);
    show_rules(app, c);
}

fn apply_settings(app: &AppWindow, c: &Controller) {
    let language = c.language();
    // The default (English) needs no bundle; a failure only means English stays.
    if let Err(e) = slint::select_bundled_translation(if language == "en" { "" } else { language })
    {
        crate::note!("language {language} unavailable: {e}");
    }
    app.set_language(c.settings.language.code().into());
    // The page's screen-reader layer (web/a11y) speaks the app's words: a reader picks its
    // voice by the page's language.
    crate::platform::set_page_language(language);
    app.global::<Theme>().set_mode(match c.settings.theme {
        ThemeChoice::Light => ThemeMode::Light,
        ThemeChoice::Dark => ThemeMode::Dark,
        ThemeChoice::HighContrast => ThemeMode::HighContrast,
    });
    app.set_default_variants(setup::variants_to_ui(&c.settings.variants));
    app.set_sound_on(c.settings.sound_on(c.kiosk.is_some()));
    app.set_volume(i32::from(c.settings.volume));
    app.set_vibration(c.settings.vibration);
}

fn show_setup(app: &AppWindow, c: &Controller) {
    let s = &c.setup;
    app.set_setup_game(s.game.name().into());
    app.set_setup_title(setup::title(s.game, c.language()).into());
    // Rows are updated in place, not replaced: a replaced model rebuilds every row under
    // recycled accessibility ids, which Orca 43 holds for defunct on the next visit
    // (ui/widgets/stage.slint).
    rows::update_rows(
        app.get_allowed_counts(),
        s.game.seat_counts().iter().map(|n| *n as i32).collect(),
        |m| app.set_allowed_counts(m),
    );
    app.set_player_count(s.names.len() as i32);
    let rows: Vec<PlayerRow> = s
        .names
        .iter()
        .zip(&s.colors)
        .enumerate()
        .map(|(i, (n, c))| PlayerRow {
            name: n.into(),
            color: *c as i32,
            kind: s.kinds.get(i).copied().unwrap_or(0) as i32,
        })
        .collect();
    rows::update_rows(app.get_players(), rows, |m| app.set_players(m));
    app.set_setup_variants(setup::variants_to_ui(&s.variants));
}

fn show_rules(app: &AppWindow, c: &Controller) {
    let blocks: Vec<RulesBlock> = rules_text::blocks(c.rules_game, c.language())
        .into_iter()
        .map(|b| RulesBlock {
            heading: b.heading,
            text: b.text.into(),
        })
        .collect();
    app.set_rules_game(c.rules_game.name().into());
    // In place: paragraphs made again would take recycled accessibility ids.
    rows::update_rows(app.get_rules_blocks(), blocks, |m| app.set_rules_blocks(m));
}

fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    iota::wire(app, controller);
    // Each handler upgrades the weak window and borrows the controller for its body.
    macro_rules! handler {
        ($setter:ident, |$app:ident, $c:ident $(, $arg:ident : $ty:ty)*| $body:block) => {{
            let weak = app.as_weak();
            let controller = controller.clone();
            app.$setter(move |$($arg: $ty),*| {
                if let Some($app) = weak.upgrade() {
                    let mut guard = controller.borrow_mut();
                    let $c: &mut Controller = &mut guard;
                    $body
                }
            });
        }};
    }

    handler!(on_open_game, |app, c, game: SharedString| {
        // The edge where a game's name comes in from the screens.
        let Ok(game) = game.parse::<GameKind>() else {
            return;
        };
        c.setup = SetupState::new(game, &c.setup_source(), c.language());
        show_setup(&app, c);
        // The last game's move, banner, cursor and summary belong to it, not to the new
        // setup (the live text and the game frame stay in the tree on every screen).
        let chrome = app.global::<GameChrome>();
        chrome.set_message("".into());
        chrome.set_banner("".into());
        chrome.set_end_words("".into());
        access::reset(&app);
        app.set_screen(Screen::Setup);
    });
    handler!(on_set_count, |app, c, n: i32| {
        let language = c.language();
        c.setup
            .set_count(n.max(0) as usize, &c.setup_source(), language);
        show_setup(&app, c);
    });
    handler!(on_rename, |_app, c, seat: i32, name: SharedString| {
        c.setup.rename(seat.max(0) as usize, &name);
    });
    handler!(on_next_color, |app, c, seat: i32| {
        c.setup.next_color(seat.max(0) as usize);
        show_setup(&app, c);
    });
    handler!(on_set_kind, |app, c, seat: i32, kind: i32| {
        let seat = seat.max(0) as usize;
        if !c.setup.set_kind(seat, kind.clamp(0, 3) as u8) {
            crate::note!("seat {seat} stays a person: at least one person plays");
        }
        show_setup(&app, c);
    });
    handler!(on_set_language, |app, c, code: SharedString| {
        c.settings.language = Language::from_code(&code);
        c.save();
        apply_settings(&app, c);
        show_rules(&app, c);
    });
    handler!(on_set_theme, |app, c, mode: ThemeMode| {
        c.settings.theme = match mode {
            ThemeMode::Light => ThemeChoice::Light,
            ThemeMode::Dark => ThemeChoice::Dark,
            ThemeMode::HighContrast => ThemeChoice::HighContrast,
        };
        c.save();
        apply_settings(&app, c);
    });
    handler!(
        on_sound_changed,
        |app, c, on: bool, volume: i32, buzz: bool| {
            c.settings.sound = Some(on);
            c.settings.volume = volume.clamp(0, 100) as u8;
            c.settings.vibration = buzz;
            c.save();
            apply_settings(&app, c);
        }
    );
    handler!(on_variants_changed, |_app, c, v: Variants| {
        c.settings.variants = setup::variants_from_ui(&v);
        c.save();
    });
    handler!(on_show_rules, |app, c, game: SharedString| {
        // The edge where the rules screen's game name is read; the screen only offers
        // the three games, so a name it does not know keeps the rules on show.
        if let Ok(kind) = game.parse() {
            c.rules_game = kind;
        }
        show_rules(&app, c);
    });
    handler!(on_start_game, |app, c| {
        if c.replay.is_some() {
            // A replayed board's "New game" is not a way to start one.
            return;
        }
        c.setup.variants = setup::variants_from_ui(&app.get_setup_variants());
        // A kiosk remembers nobody's names for the next group.
        if c.kiosk.is_none() {
            c.setup.remember(&mut c.settings);
            c.save();
        }
        let language = c.language();
        let started = lifecycle::start_table(c);
        match started {
            Ok(table) => {
                access::reset(&app);
                chrome::show_message(&app, "", false);
                table.show(&app, language);
                c.table = Some(table);
                c.begin_match();
                c.after_change(&app);
                app.set_screen(Screen::Game);
            }
            Err(e) => crate::note!("the game could not start: {e}"),
        }
    });
    ovo::wire(app, controller);
    omiga::wire(app, controller);
    lan::wire(app, controller);
    handler!(on_reveal, |app, c| {
        let language = c.language();
        if let Some(table) = c.table.as_mut() {
            table.reveal();
            table.show(&app, language);
        }
        c.after_change(&app);
    });
    lifecycle::wire(app, controller);
    mobile::wire(app);
    history::wire(app, controller);
    replay::wire(app, controller);
    bots::wire(app, controller);
    access::wire(app, controller);
    kiosk::wire(app, controller);
    lessons::wire(app, controller);
    puzzles::wire(app, controller);
}
