//! Kiosk mode on screen: the welcome screen instead of home, the staff corner and PIN pad,
//! the staff menu, "Still playing?" after the idle time, and a clean table for every
//! group. The rules of it (PIN hash, lock-out, idle timer) live in `crate::kiosk`; this
//! file only connects them to the window. The clock is injectable so that tests drive it.

use super::chrome;
use super::texts::{self, KioskText};
use super::{setup::SetupState, AppWindow, Controller, KioskBridge, KioskOverlay, Screen};
use crate::games::registry::GameKind;
use crate::kiosk::{valid_pin, Idle, IdleStep, Lockout, PinRecord};
use crate::platform::time::{Duration, Instant};
use crate::store::kiosk::{self as kstore, KioskConfig, IDLE_CHOICES};
use crate::store::Settings;
use slint::{CloseRequestResponse, ComponentHandle};
use std::cell::RefCell;
use std::path::Path;
use std::rc::{Rc, Weak};

/// How long the welcome screen rests untouched before the attract loop starts.
pub const ATTRACT_AFTER: Duration = Duration::from_secs(30);
/// The longest a demo game runs before the next title takes over.
pub const DEMO_LONGEST: Duration = Duration::from_secs(180);
/// The titles the attract loop cycles through.
pub const DEMO_GAMES: [GameKind; 3] = GameKind::ALL;

/// Where kiosk mode reads the time (a real clock in the app, a hand-set one in tests).
pub type Clock = Rc<dyn Fn() -> Instant>;

/// What the PIN pad is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PinStage {
    /// Staff unlock the menu.
    Unlock,
    /// The first kiosk start: choose a PIN.
    Choose,
    /// The first kiosk start: the same PIN again.
    Confirm(String),
}

/// Kiosk mode's state while it is on.
pub struct KioskUi {
    config: KioskConfig,
    lockout: Lockout,
    idle: Idle,
    clock: Clock,
    /// The digits typed on the PIN pad (never shown, only counted).
    entry: String,
    stage: PinStage,
    /// Ticks the idle timer once a second in the running app.
    timer: Option<slint::Timer>,
    /// Since when the welcome screen rests untouched.
    rest_since: Option<Instant>,
    /// The attract loop's game on screen: which title, and since when.
    demo: Option<(usize, Instant)>,
    /// Demo games started so far (the next title is this modulo three).
    demos_started: usize,
}

impl KioskUi {
    /// Adds a finished game to the per-title counts, when staff turned counting on.
    pub(crate) fn count_finished(&mut self, dir: Option<&Path>, game: &str) {
        if !self.config.count_games || self.demo.is_some() {
            return;
        }
        if let Some(dir) = dir {
            if let Err(e) = kstore::count_game(dir, game) {
                crate::note!("the kiosk count could not be kept: {e}");
            }
        }
    }

    fn now(&self) -> Instant {
        (self.clock)()
    }

    /// The soak run's kiosk: a PIN is set (cheap to check) so that no PIN pad waits.
    #[cfg(feature = "devtools")]
    pub(crate) fn set_pin_for_soak(&mut self) {
        self.config.pin = Some(PinRecord::with_salt("2468", b"soak", 1));
    }

    /// Whether the attract loop's demo game is on screen (its app seats move on the
    /// kiosk's tick, one action each, so that passers-by can follow).
    pub(crate) fn demo_running(&self) -> bool {
        self.demo.is_some()
    }
}

impl Controller {
    /// The settings a new setup starts from: in kiosk mode nobody's remembered names,
    /// colours or seats, only the variant defaults.
    pub(crate) fn setup_source(&self) -> Settings {
        if self.kiosk.is_some() {
            Settings {
                variants: self.settings.variants,
                language: self.settings.language,
                ..Settings::default()
            }
        } else {
            self.settings.clone()
        }
    }
}

/// Turns kiosk mode on for a built window: full screen without a frame, the window's
/// close button refused, the welcome screen, and the PIN pad if no PIN was set yet.
pub fn start(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    start_with_clock(app, controller, Rc::new(Instant::now));
    let weak = app.as_weak();
    let ctl = Rc::downgrade(controller);
    let timer = slint::Timer::default();
    timer.start(
        slint::TimerMode::Repeated,
        Duration::from_secs(1),
        move || {
            if let (Some(app), Some(c)) = (weak.upgrade(), ctl.upgrade()) {
                tick(&app, &c);
            }
        },
    );
    if let Some(k) = controller.borrow_mut().kiosk.as_mut() {
        k.timer = Some(timer);
    }
    // Some window systems take full screen only once the window exists.
    if crate::platform::WINDOW_TAKES_FULL_SCREEN {
        let weak = app.as_weak();
        slint::Timer::single_shot(Duration::from_millis(200), move || {
            if let Some(app) = weak.upgrade() {
                app.window().set_fullscreen(true);
            }
        });
    }
}

/// Kiosk mode with a given clock and no timer of its own: tests call [`tick`] themselves.
pub fn start_with_clock(app: &AppWindow, controller: &Rc<RefCell<Controller>>, clock: Clock) {
    let mut guard = controller.borrow_mut();
    let c: &mut Controller = &mut guard;
    let config = super::load_or_default(c.data_dir.as_deref(), KioskConfig::load);
    let now = clock();
    let limit = Duration::from_secs(config.idle_seconds.into());
    c.kiosk = Some(KioskUi {
        config,
        lockout: Lockout::default(),
        idle: Idle::new(limit, now),
        clock,
        entry: String::new(),
        stage: PinStage::Unlock,
        timer: None,
        rest_since: None,
        demo: None,
        demos_started: 0,
    });
    if crate::platform::WINDOW_TAKES_FULL_SCREEN {
        app.window().set_fullscreen(true);
    }
    let weak = app.as_weak();
    app.window()
        .on_close_requested(move || match weak.upgrade() {
            Some(app) if app.global::<KioskBridge>().get_active() => {
                CloseRequestResponse::KeepWindowShown
            }
            _ => CloseRequestResponse::HideWindow,
        });
    app.global::<KioskBridge>().set_active(true);
    to_welcome(app, c);
    if c.kiosk.as_ref().is_some_and(|k| k.config.pin.is_none()) {
        open_pin_pad(app, c);
    }
}

/// Advances kiosk mode to the clock's time: asks "Still playing?" after the idle time and
/// clears the table for the next group when nobody answers.
pub fn tick(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let Ok(mut guard) = controller.try_borrow_mut() else {
        return;
    };
    let c: &mut Controller = &mut guard;
    let language = c.language();
    let bridge = app.global::<KioskBridge>();
    let overlay = bridge.get_overlay();
    let Some(k) = c.kiosk.as_mut() else {
        return;
    };
    let now = k.now();
    if let Some((index, since)) = k.demo {
        let over = c.table.as_ref().is_none_or(|t| t.session().is_over());
        if over || now.saturating_duration_since(since) >= DEMO_LONGEST {
            start_demo(app, c, index + 1);
        } else {
            super::bots::kick(app, c);
        }
        return;
    }
    // The welcome screen waits for the next group; nothing there to time out. Neither
    // does the first PIN, which must be chosen before the kiosk can be used.
    let resting = app.get_screen() == Screen::Home && overlay == KioskOverlay::None;
    if resting || k.config.pin.is_none() {
        k.idle.input(now);
        let since = *k.rest_since.get_or_insert(now);
        if resting && now.saturating_duration_since(since) >= ATTRACT_AFTER {
            let next = k.demos_started;
            start_demo(app, c, next);
        }
        return;
    }
    k.rest_since = None;
    match k.idle.tick(now) {
        IdleStep::Nothing => {}
        // Staff dialogs and settings are closed at once: nothing of theirs is a game.
        IdleStep::Ask if overlay != KioskOverlay::None || app.get_screen() == Screen::Settings => {
            to_welcome(app, c);
            return;
        }
        IdleStep::Ask => bridge.set_overlay(KioskOverlay::Idle),
        IdleStep::Return => {
            to_welcome(app, c);
            return;
        }
    }
    if let Some(left) = k.idle.answer_left(now) {
        let secs = left.as_secs().to_string();
        bridge.set_idle_message(say(language, KioskText::IdleWarning { secs }).into());
    }
}

/// `text` in the app's language.
fn say(language: &str, text: KioskText) -> String {
    texts::say(&text, language)
}

/// Back to the welcome screen with a clean table: the running game discarded, setup
/// emptied of names, every dialog closed.
fn to_welcome(app: &AppWindow, c: &mut Controller) {
    c.table = None;
    super::lan::leave(c);
    app.set_cover_up(false);
    let language = c.language();
    c.setup = SetupState::new(c.setup.game, &c.setup_source(), language);
    super::refresh_all(app, c);
    super::lifecycle::show_continue(app, c);
    chrome::show_message(app, "", false);
    if let Some(k) = c.kiosk.as_mut() {
        let now = k.now();
        k.idle.input(now);
        k.entry.clear();
        k.demo = None;
        k.rest_since = Some(now);
    }
    let bridge = app.global::<KioskBridge>();
    bridge.set_demo(false);
    bridge.set_overlay(KioskOverlay::None);
    bridge.set_pin_length(0);
    app.set_screen(Screen::Home);
}

/// Starts the attract loop's game number `index` (cycling through the titles): every
/// seat is the app at its easy level, so that a game ends within a few minutes.
fn start_demo(app: &AppWindow, c: &mut Controller, index: usize) {
    let language = c.language();
    let game = DEMO_GAMES[index % DEMO_GAMES.len()];
    let mut setup = SetupState::new(game, &c.setup_source(), language);
    setup.kinds = vec![1; setup.names.len()];
    let previous = std::mem::replace(&mut c.setup, setup);
    let started = super::lifecycle::start_table(c);
    c.setup = previous;
    let mut table = match started {
        Ok(table) => table,
        Err(e) => {
            crate::note!("the demo game could not start: {e}");
            return;
        }
    };
    table.reveal();
    c.table = None;
    if let Some(k) = c.kiosk.as_mut() {
        let now = k.now();
        k.demo = Some((index, now));
        k.demos_started = index + 1;
        k.rest_since = None;
    }
    chrome::show_message(app, "", false);
    table.show(app, language);
    c.table = Some(table);
    c.begin_match();
    c.after_change(app);
    app.global::<KioskBridge>().set_demo(true);
    app.set_screen(Screen::Game);
}

fn open_pin_pad(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(k) = c.kiosk.as_mut() else {
        return;
    };
    k.entry.clear();
    k.stage = if k.config.pin.is_some() {
        PinStage::Unlock
    } else {
        PinStage::Choose
    };
    let bridge = app.global::<KioskBridge>();
    let locked = k.lockout.remaining(k.now());
    bridge.set_pin_message(
        locked
            .map(|d| locked_text(language, d))
            .unwrap_or_default()
            .into(),
    );
    show_pin(app, k, language);
    bridge.set_overlay(KioskOverlay::Pin);
}

fn show_pin(app: &AppWindow, k: &KioskUi, language: &str) {
    let bridge = app.global::<KioskBridge>();
    let title = match k.stage {
        PinStage::Unlock => say(language, KioskText::StaffPin),
        PinStage::Choose => say(language, KioskText::ChoosePin),
        PinStage::Confirm(_) => say(language, KioskText::ConfirmPin),
    };
    bridge.set_pin_title(title.into());
    bridge.set_pin_length(k.entry.chars().count() as i32);
    bridge.set_pin_can_cancel(k.config.pin.is_some());
}

fn locked_text(language: &str, left: Duration) -> String {
    // Whole seconds, rounded up: "0 s" would read as unlocked.
    let secs = left.as_millis().div_ceil(1000).to_string();
    say(language, KioskText::Locked { secs })
}

fn pin_key(app: &AppWindow, c: &mut Controller, key: &str) {
    let language = c.language();
    let data_dir = c.data_dir.clone();
    let Some(k) = c.kiosk.as_mut() else {
        return;
    };
    let bridge = app.global::<KioskBridge>();
    match key {
        "delete" => {
            k.entry.pop();
        }
        "ok" => {
            let entry = std::mem::take(&mut k.entry);
            let message = submit(app, k, data_dir.as_deref(), &entry, language);
            bridge.set_pin_message(message.into());
        }
        // Digits beyond the longest PIN are dropped.
        digit
            if digit.len() == 1
                && digit.chars().all(|ch| ch.is_ascii_digit())
                && k.entry.len() < 8 =>
        {
            k.entry.push_str(digit);
        }
        _ => {}
    }
    if bridge.get_overlay() == KioskOverlay::Pin {
        show_pin(app, k, language);
    }
}

/// Checks or sets the PIN typed; returns the line to show under the pad.
fn submit(
    app: &AppWindow,
    k: &mut KioskUi,
    dir: Option<&Path>,
    entry: &str,
    language: &str,
) -> String {
    let bridge = app.global::<KioskBridge>();
    let now = k.now();
    match k.stage.clone() {
        PinStage::Unlock => {
            if let Some(left) = k.lockout.remaining(now) {
                return locked_text(language, left);
            }
            let right = k.config.pin.as_ref().is_some_and(|p| p.verify(entry));
            if right {
                k.lockout.succeed();
                show_staff(app, k, dir, language);
                bridge.set_overlay(KioskOverlay::Staff);
                return String::new();
            }
            match k.lockout.fail(now) {
                Some(lock) => locked_text(language, lock),
                None => say(language, KioskText::WrongPin),
            }
        }
        PinStage::Choose if !valid_pin(entry) => say(language, KioskText::PinLength),
        PinStage::Choose => {
            k.stage = PinStage::Confirm(entry.to_string());
            String::new()
        }
        PinStage::Confirm(first) if first != entry => {
            k.stage = PinStage::Choose;
            say(language, KioskText::PinsDiffer)
        }
        PinStage::Confirm(first) => {
            let mut config = k.config.clone();
            config.pin = Some(PinRecord::new(&first));
            if let Some(dir) = dir {
                if let Err(e) = config.save(dir) {
                    k.stage = PinStage::Choose;
                    return say(language, KioskText::PinNotSaved { why: e.to_string() });
                }
            }
            k.config = config;
            k.stage = PinStage::Unlock;
            bridge.set_overlay(KioskOverlay::None);
            String::new()
        }
    }
}

fn show_staff(app: &AppWindow, k: &KioskUi, dir: Option<&Path>, language: &str) {
    let bridge = app.global::<KioskBridge>();
    bridge.set_idle_seconds(k.config.idle_seconds as i32);
    bridge.set_count_games(k.config.count_games);
    let counts = dir.map(kstore::load_counts).unwrap_or_default();
    let n = |g: &str| counts.get(g).copied().unwrap_or(0);
    let line = format!(
        "Ovo {} · IOTA {} · Omiga {}",
        n("ovo"),
        n("iota"),
        n("omiga")
    );
    bridge.set_counts(say(language, KioskText::GamesFinished { counts: line }).into());
}

fn save_config(c: &Controller) {
    if let (Some(dir), Some(k)) = (&c.data_dir, &c.kiosk) {
        if let Err(e) = k.config.save(dir) {
            crate::note!("the kiosk settings could not be saved: {e}");
        }
    }
}

/// Connects the kiosk's dialogs, the staff corner, the idle watch and the setting that
/// starts kiosk mode at launch.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let bridge = app.global::<KioskBridge>();
    bridge.set_start_at_launch(controller.borrow().settings.start_in_kiosk);
    let with = |f: fn(&AppWindow, &mut Controller)| {
        let call = with_arg(app, controller, move |app, c, ()| f(app, c));
        move || call(())
    };
    bridge.on_input(with(|app, c| {
        if let Some(k) = c.kiosk.as_mut() {
            let now = k.now();
            k.idle.input(now);
            k.rest_since = Some(now);
            if k.demo.is_some() {
                // A tap anywhere ends the demo and shows the welcome screen.
                to_welcome(app, c);
            }
        }
    }));
    bridge.on_stop_demo(with(|app, c| {
        if c.kiosk.as_ref().is_some_and(|k| k.demo.is_some()) {
            to_welcome(app, c);
        }
    }));
    bridge.on_staff_corner(with(|app, c| {
        if c.kiosk.is_some() && app.global::<KioskBridge>().get_overlay() == KioskOverlay::None {
            open_pin_pad(app, c);
        }
    }));
    bridge.on_pin_cancel(with(|app, c| {
        if let Some(k) = c.kiosk.as_mut() {
            if k.config.pin.is_some() {
                k.entry.clear();
                app.global::<KioskBridge>().set_overlay(KioskOverlay::None);
            }
        }
    }));
    bridge.on_staff_close(with(|app, _c| {
        app.global::<KioskBridge>().set_overlay(KioskOverlay::None);
    }));
    bridge.on_staff_settings(with(|app, c| {
        if app.global::<KioskBridge>().get_overlay() == KioskOverlay::Staff {
            app.global::<KioskBridge>().set_overlay(KioskOverlay::None);
            super::refresh_all(app, c);
            app.set_screen(Screen::Settings);
        }
    }));
    bridge.on_exit_kiosk(with(|app, c| {
        if app.global::<KioskBridge>().get_overlay() != KioskOverlay::Staff {
            return;
        }
        c.table = None;
        c.kiosk = None;
        let bridge = app.global::<KioskBridge>();
        bridge.set_overlay(KioskOverlay::None);
        bridge.set_active(false);
        if let Err(e) = app.hide() {
            crate::note!("the window could not be closed: {e}");
        }
        if let Err(e) = slint::quit_event_loop() {
            crate::note!("the app could not quit: {e}");
        }
    }));
    bridge.on_still_playing(with(|app, c| {
        if let Some(k) = c.kiosk.as_mut() {
            let now = k.now();
            k.idle.input(now);
        }
        app.global::<KioskBridge>().set_overlay(KioskOverlay::None);
    }));
    bridge.on_end_game(with(|app, c| {
        if app.global::<KioskBridge>().get_overlay() == KioskOverlay::Idle {
            to_welcome(app, c);
        }
    }));
    bridge.on_set_start_at_launch(with_arg(app, controller, |app, c, on: bool| {
        c.settings.start_in_kiosk = on;
        c.save();
        app.global::<KioskBridge>().set_start_at_launch(on);
    }));
    bridge.on_set_idle(with_arg(app, controller, |app, c, secs: i32| {
        let Ok(secs) = u32::try_from(secs) else {
            return;
        };
        if !IDLE_CHOICES.contains(&secs) {
            return;
        }
        if let Some(k) = c.kiosk.as_mut() {
            k.config.idle_seconds = secs;
            k.idle.limit = Duration::from_secs(secs.into());
        }
        save_config(c);
        app.global::<KioskBridge>().set_idle_seconds(secs as i32);
    }));
    bridge.on_set_count_games(with_arg(app, controller, |app, c, on: bool| {
        if let Some(k) = c.kiosk.as_mut() {
            k.config.count_games = on;
        }
        save_config(c);
        app.global::<KioskBridge>().set_count_games(on);
    }));
    bridge.on_pin_key(with_arg(
        app,
        controller,
        |app, c, key: slint::SharedString| pin_key(app, c, &key),
    ));
}

/// A kiosk callback with one argument: runs `f` with the window and the controller while
/// both live. The idle watch may fire while another handler holds the controller; then
/// the call is skipped rather than borrowed twice.
fn with_arg<A: 'static>(
    app: &AppWindow,
    controller: &Rc<RefCell<Controller>>,
    f: impl Fn(&AppWindow, &mut Controller, A) + 'static,
) -> impl Fn(A) + 'static {
    let weak = app.as_weak();
    let controller: Weak<RefCell<Controller>> = Rc::downgrade(controller);
    move |arg| {
        if let (Some(app), Some(c)) = (weak.upgrade(), controller.upgrade()) {
            if let Ok(mut c) = c.try_borrow_mut() {
                f(&app, &mut c, arg);
            }
        }
    }
}

/// Puts kiosk mode on screen for the `screenshot` command: `kiosk-welcome`, `kiosk-demo`
/// (the attract loop, a dozen moves into a demo game), `kiosk-staff` (the staff menu),
/// `kiosk-pin`
/// (two digits typed after a wrong PIN) or `kiosk-idle` (an IOTA game left alone).
#[cfg(feature = "devtools")]
pub(crate) fn stage(app: &AppWindow, controller: &Rc<RefCell<Controller>>, screen: &str) {
    let time = Rc::new(std::cell::Cell::new(Instant::now()));
    let clock = time.clone();
    start_with_clock(app, controller, Rc::new(move || clock.get()));
    if let Some(k) = controller.borrow_mut().kiosk.as_mut() {
        // An example PIN, cheap to check; the picture never shows digits anyway.
        k.set_pin_for_soak();
    }
    app.global::<KioskBridge>().set_overlay(KioskOverlay::None);
    let bridge = app.global::<KioskBridge>();
    match screen {
        "kiosk-pin" => {
            bridge.invoke_staff_corner();
            for key in ["1", "1", "1", "1", "ok", "7", "3"] {
                bridge.invoke_pin_key(key.into());
            }
        }
        "kiosk-staff" => {
            bridge.invoke_staff_corner();
            for key in ["2", "4", "6", "8", "ok"] {
                bridge.invoke_pin_key(key.into());
            }
            bridge.invoke_set_count_games(true);
        }
        "kiosk-demo" => {
            crate::ui::bots::set_synchronous(true);
            time.set(time.get() + ATTRACT_AFTER + Duration::from_secs(1));
            tick(app, controller);
            tick(app, controller);
            for _ in 0..12 {
                time.set(time.get() + Duration::from_secs(1));
                tick(app, controller);
            }
        }
        "kiosk-idle" => {
            app.invoke_open_game("iota".into());
            app.invoke_start_game();
            if app.get_cover_up() {
                app.invoke_reveal();
            }
            time.set(time.get() + crate::kiosk::DEFAULT_IDLE + Duration::from_secs(1));
            tick(app, controller);
            time.set(time.get() + Duration::from_secs(8));
            tick(app, controller);
        }
        _ => {}
    }
}

/// The attract loop's game on screen: its title and how many actions were played
/// (`None`: no demo running). For the soak run and tests.
pub fn demo_progress(c: &Controller) -> Option<(&'static str, usize)> {
    let (index, _) = c.kiosk.as_ref()?.demo?;
    let actions = c.table.as_ref()?.session().saved().actions.len();
    Some((DEMO_GAMES[index % DEMO_GAMES.len()].name(), actions))
}
