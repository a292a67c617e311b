//! Kiosk mode driven like staff and walk-up players would, without a display: the PIN
//! guards quitting and settings, wrong PINs are refused and rate-limited, an idle table
//! goes back to the welcome screen (the clock is set by the test, never waited for), and
//! the next group sees nothing of the last one.
#![cfg(feature = "devtools")]

use hotseat::kiosk::PinRecord;
use hotseat::store::kiosk::KioskConfig;
use hotseat::ui::kiosk::{start_with_clock, tick};
use hotseat::ui::{build, AppWindow, Controller, KioskBridge, KioskOverlay, Screen};
use i_slint_backend_testing::init_no_event_loop;
use slint::platform::{PointerEventButton, WindowEvent};
use slint::{ComponentHandle, LogicalPosition, Model};
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

mod common;
use common::{present, press, temp_data};

const PIN: &str = "2468";

/// A data folder whose kiosk PIN was set already (few rounds, so the test is quick).
fn with_pin(tag: &str) -> PathBuf {
    let dir = temp_data(tag);
    KioskConfig {
        pin: Some(PinRecord::with_salt(PIN, b"test-salt", 100)),
        ..KioskConfig::default()
    }
    .save(&dir)
    .unwrap();
    dir
}

fn type_pin(app: &AppWindow, pin: &str) {
    for digit in pin.chars() {
        press(app, &digit.to_string());
    }
    press(app, "OK");
}

/// A kiosk on a window of tablet size, with a clock the test moves.
struct Kiosk {
    app: AppWindow,
    controller: Rc<RefCell<Controller>>,
    time: Rc<Cell<Instant>>,
}

impl Kiosk {
    fn start(dir: PathBuf) -> Kiosk {
        let (app, controller) = build(Some(dir)).unwrap();
        app.window().set_size(slint::PhysicalSize::new(1280, 800));
        app.show().unwrap();
        let time = Rc::new(Cell::new(Instant::now()));
        let clock = time.clone();
        start_with_clock(&app, &controller, Rc::new(move || clock.get()));
        Kiosk {
            app,
            controller,
            time,
        }
    }

    /// Moves the clock on by `secs` and lets the idle timer look.
    fn wait(&self, secs: u64) {
        self.time.set(self.time.get() + Duration::from_secs(secs));
        tick(&self.app, &self.controller);
    }

    fn names(&self) -> Vec<String> {
        self.app
            .get_players()
            .iter()
            .map(|p| p.name.to_string())
            .collect()
    }
}

#[test]
fn quitting_and_settings_are_unreachable_without_the_pin() {
    init_no_event_loop();
    let dir = with_pin("locked");
    // An earlier, ordinary session left a game saved and names remembered.
    {
        let (app, _c) = build(Some(dir.clone())).unwrap();
        press(&app, "IOTA");
        app.invoke_rename(0, "Anna".into());
        press(&app, "Start");
        assert!(dir.join(hotseat::store::saves::SAVE_FILE).exists());
    }
    let k = Kiosk::start(dir.clone());
    let app = &k.app;
    assert!(present(app, "Pick a game"));
    for hidden in ["Settings", "History", "Continue the saved game", "Anna"] {
        assert!(
            !present(app, hidden),
            "'{hidden}' is reachable in kiosk mode"
        );
    }
    assert!(!app.get_can_continue());
    // The window's close button is refused while kiosk mode is on.
    app.window().dispatch_event(WindowEvent::CloseRequested);
    assert!(app.window().is_visible(), "the kiosk window closed");
    // The staff corner opens only the PIN pad; Cancel closes it with nothing unlocked.
    press(app, "Staff");
    assert!(present(app, "Staff PIN"));
    assert!(!present(app, "Exit kiosk mode"));
    press(app, "Cancel");
    assert_eq!(
        app.global::<KioskBridge>().get_overlay(),
        KioskOverlay::None
    );
    assert!(!present(app, "Settings") && !present(app, "Exit kiosk mode"));
    // A shared tablet neither hosts nor joins two-device games.
    press(app, "Omiga");
    assert!(!present(app, "Host a game on two devices"));
    assert!(!present(app, "Join a game on two devices"));
    press(app, "Back");
    // The rules are one tap away, and lead back to the welcome screen, not home.
    press(app, "How to play IOTA");
    assert_eq!(app.get_screen(), Screen::Rules);
    press(app, "Back");
    assert!(present(app, "Pick a game"));
    assert!(!present(app, "History"));
}

#[test]
fn outside_kiosk_mode_the_window_closes() {
    init_no_event_loop();
    let (app, _c) = build(Some(temp_data("plain"))).unwrap();
    app.show().unwrap();
    app.window().dispatch_event(WindowEvent::CloseRequested);
    assert!(!app.window().is_visible());
}

#[test]
fn a_wrong_pin_is_refused_and_rate_limited() {
    init_no_event_loop();
    let k = Kiosk::start(with_pin("wrong"));
    let app = &k.app;
    let bridge = app.global::<KioskBridge>();
    press(app, "Staff");
    type_pin(app, "1111");
    assert_eq!(bridge.get_pin_message(), "Wrong PIN.");
    assert!(!present(app, "Exit kiosk mode"));
    type_pin(app, "1112");
    type_pin(app, "1113");
    assert_eq!(
        bridge.get_pin_message(),
        "Too many wrong PINs. Try again in 30 s."
    );
    // Locked: even the right PIN is refused until the time is up.
    k.time.set(k.time.get() + Duration::from_secs(10));
    type_pin(app, PIN);
    assert!(!present(app, "Exit kiosk mode"));
    assert_eq!(
        bridge.get_pin_message(),
        "Too many wrong PINs. Try again in 20 s."
    );
    // A further miss after the lock doubles it.
    k.time.set(k.time.get() + Duration::from_secs(20));
    type_pin(app, "9999");
    assert_eq!(
        bridge.get_pin_message(),
        "Too many wrong PINs. Try again in 60 s."
    );
    k.time.set(k.time.get() + Duration::from_secs(60));
    // The pad never shows digits, only how many were typed.
    press(app, "2");
    press(app, "4");
    assert!(present(app, "2 digits entered"));
    press(app, "Delete");
    assert!(present(app, "1 digits entered"));
    press(app, "Delete");
    type_pin(app, PIN);
    assert!(present(app, "Exit kiosk mode"));
    // Staff reach the settings, and may leave kiosk mode, which quits.
    press(app, "Settings");
    assert_eq!(app.get_screen(), Screen::Settings);
    press(app, "Back");
    assert!(present(app, "Pick a game"));
    press(app, "Staff");
    type_pin(app, PIN);
    press(app, "Exit kiosk mode");
    assert!(!app.window().is_visible());
    assert!(!bridge.get_active());
}

#[test]
fn the_first_kiosk_start_asks_for_a_pin_twice_and_keeps_only_its_hash() {
    init_no_event_loop();
    let dir = temp_data("first");
    let k = Kiosk::start(dir.clone());
    let app = &k.app;
    let bridge = app.global::<KioskBridge>();
    assert_eq!(bridge.get_overlay(), KioskOverlay::Pin);
    assert!(!present(app, "Cancel"), "the first PIN may not be skipped");
    type_pin(app, "12");
    assert_eq!(bridge.get_pin_message(), "A PIN has 4 to 8 digits.");
    type_pin(app, "5791");
    assert_eq!(bridge.get_pin_title(), "Enter the same PIN again");
    type_pin(app, "5790");
    assert_eq!(
        bridge.get_pin_message(),
        "The two PINs differ. Choose one again."
    );
    // Left alone, the first-PIN pad stays: the kiosk is not usable without one.
    k.wait(3600);
    assert_eq!(bridge.get_overlay(), KioskOverlay::Pin);
    type_pin(app, "5791");
    type_pin(app, "5791");
    assert_eq!(bridge.get_overlay(), KioskOverlay::None);
    let text = std::fs::read_to_string(dir.join("kiosk.json")).unwrap();
    assert!(!text.contains("5791"), "{text}");
    let (config, _) = KioskConfig::load(&dir);
    assert!(config.pin.unwrap().verify("5791"));
}

#[test]
fn idle_returns_to_the_welcome_screen_and_the_next_group_sees_no_names() {
    init_no_event_loop();
    let dir = with_pin("idle");
    let k = Kiosk::start(dir.clone());
    let app = &k.app;
    press(app, "IOTA");
    app.invoke_rename(0, "Anna".into());
    app.invoke_rename(1, "Boris".into());
    press(app, "Start");
    assert_eq!(app.get_screen(), Screen::Game);
    let first = app.get_cover_name().to_string();
    press(app, &format!("{first}, tap to reveal"));
    assert!(present(app, "Leave the game"));
    // Nothing kept of a kiosk game: no save, no remembered names.
    assert!(!dir.join(hotseat::store::saves::SAVE_FILE).exists());
    let settings = std::fs::read_to_string(dir.join("settings.json")).unwrap_or_default();
    assert!(!settings.contains("Anna"), "{settings}");

    k.wait(119);
    assert!(!present(app, "Still playing?"));
    k.wait(1);
    assert!(present(app, "Still playing?"));
    // The empty table shows nothing of the last player's hand while it asks.
    assert!(!present(app, "Leave the game"));
    // An answer keeps the game.
    press(app, "Yes, keep playing");
    assert!(present(app, "Leave the game"));
    k.wait(120);
    assert!(present(app, "Still playing?"));
    k.wait(29);
    assert_eq!(app.get_screen(), Screen::Game);
    k.wait(1);
    assert_eq!(app.get_screen(), Screen::Home);
    assert!(present(app, "Pick a game"));
    assert!(!present(app, "Still playing?"));

    // The next group: default names, nothing of Anna or Boris anywhere.
    press(app, "IOTA");
    assert_eq!(k.names(), vec!["Player 1", "Player 2"]);
    assert!(!present(app, "Anna") && !present(app, "Boris"));
    press(app, "Start");
    let first = app.get_cover_name().to_string();
    assert!(first.starts_with("Player "), "{first}");
}

#[test]
fn a_tap_anywhere_on_a_game_counts_as_play() {
    init_no_event_loop();
    let k = Kiosk::start(with_pin("taps"));
    let app = &k.app;
    press(app, "Ovo");
    press(app, "Start");
    let first = app.get_cover_name().to_string();
    press(app, &format!("{first}, tap to reveal"));
    k.wait(100);
    // A real pointer tap on the board (not a call into the app): the idle watch sees it.
    let at = LogicalPosition::new(640.0, 420.0);
    app.window().dispatch_event(WindowEvent::PointerPressed {
        position: at,
        button: PointerEventButton::Left,
    });
    app.window().dispatch_event(WindowEvent::PointerReleased {
        position: at,
        button: PointerEventButton::Left,
    });
    slint::platform::update_timers_and_animations();
    k.wait(50);
    assert!(
        !present(app, "Still playing?"),
        "the tap 50 s ago was not seen"
    );
    k.wait(70);
    assert!(present(app, "Still playing?"));
}

#[test]
fn a_long_press_in_the_corner_opens_the_pin_pad_and_a_short_one_does_not() {
    init_no_event_loop();
    let k = Kiosk::start(with_pin("corner"));
    let app = &k.app;
    let bridge = app.global::<KioskBridge>();
    let corner = LogicalPosition::new(1270.0, 10.0);
    let press_for = |ms: u64| {
        app.window().dispatch_event(WindowEvent::PointerPressed {
            position: corner,
            button: PointerEventButton::Left,
        });
        i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(ms));
        app.window().dispatch_event(WindowEvent::PointerReleased {
            position: corner,
            button: PointerEventButton::Left,
        });
    };
    press_for(500);
    assert_eq!(bridge.get_overlay(), KioskOverlay::None);
    press_for(2100);
    assert_eq!(bridge.get_overlay(), KioskOverlay::Pin);
}

#[test]
fn a_resting_welcome_plays_demo_games_and_a_tap_anywhere_ends_them() {
    use hotseat::ui::kiosk::demo_progress;
    init_no_event_loop();
    hotseat::ui::bots::set_synchronous(true);
    let k = Kiosk::start(with_pin("demo"));
    let app = &k.app;
    let bridge = app.global::<KioskBridge>();
    k.wait(29);
    assert!(!bridge.get_demo());
    k.wait(1);
    assert!(bridge.get_demo());
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(present(app, "Tap anywhere to play"));
    let (game, before) = demo_progress(&k.controller.borrow()).unwrap();
    assert_eq!(game, "ovo");
    // The app's seats act one action per second, so passers-by can follow.
    for _ in 0..5 {
        k.wait(1);
    }
    let (_, after) = demo_progress(&k.controller.borrow()).unwrap();
    assert_eq!(after, before + 5);
    // The next title follows when a demo runs too long.
    k.wait(180);
    assert_eq!(demo_progress(&k.controller.borrow()).unwrap().0, "iota");
    // A real tap anywhere ends the demo and shows the welcome screen.
    let at = LogicalPosition::new(300.0, 300.0);
    app.window().dispatch_event(WindowEvent::PointerPressed {
        position: at,
        button: PointerEventButton::Left,
    });
    slint::platform::update_timers_and_animations();
    app.window().dispatch_event(WindowEvent::PointerReleased {
        position: at,
        button: PointerEventButton::Left,
    });
    assert!(!bridge.get_demo());
    assert_eq!(app.get_screen(), Screen::Home);
    assert!(demo_progress(&k.controller.borrow()).is_none());
    assert!(present(app, "Pick a game"));
}

/// Staff reading Russian see the PIN pad's refusals in Russian (ui/texts/kiosk.slint).
#[test]
fn pin_refusals_read_in_russian() {
    init_no_event_loop();
    let (app, controller) = build(Some(with_pin("russian"))).unwrap();
    app.invoke_set_language("ru".into());
    app.show().unwrap();
    let now = Instant::now();
    start_with_clock(&app, &controller, Rc::new(move || now));
    let bridge = app.global::<KioskBridge>();
    press(&app, "Персонал");
    let ok = |app: &AppWindow, pin: &str| {
        for digit in pin.chars() {
            press(app, &digit.to_string());
        }
        press(app, "ОК");
    };
    ok(&app, "1111");
    assert_eq!(bridge.get_pin_message(), "Неверный PIN.");
    ok(&app, "1112");
    ok(&app, "1113");
    assert_eq!(
        bridge.get_pin_message(),
        "Слишком много неверных PIN. Повторите через 30 с."
    );
    app.invoke_set_language("en".into());
}

/// Everything the kiosk handed to the speaker so far.
fn played(k: &Kiosk) -> usize {
    k.controller.borrow().sound.played()
}

#[test]
fn a_kiosk_plays_no_cue_until_staff_turn_sound_on_and_its_attract_loop_never_does() {
    use hotseat::store::Settings;
    use hotseat::ui::kiosk::demo_progress;
    init_no_event_loop();
    hotseat::ui::bots::set_synchronous(true);

    // The kiosk's default: a game is heard (the cover, the reveal) but nothing is played.
    let k = Kiosk::start(with_pin("sound-default"));
    press(&k.app, "IOTA");
    press(&k.app, "Start");
    let first = k.app.get_cover_name().to_string();
    press(&k.app, &format!("{first}, tap to reveal"));
    assert_eq!(k.controller.borrow().sound.heard().len(), 2);
    assert_eq!(played(&k), 0, "a café's kiosk is quiet by default");
    drop(k);

    // Staff turned sound on (Settings, behind the PIN; saved like any setting).
    let dir = with_pin("sound-on");
    Settings {
        sound: Some(true),
        ..Settings::default()
    }
    .save(&dir)
    .unwrap();
    let k = Kiosk::start(dir);
    k.wait(30);
    let (_, before) = demo_progress(&k.controller.borrow()).expect("a demo runs");
    for _ in 0..5 {
        k.wait(1);
    }
    let (_, after) = demo_progress(&k.controller.borrow()).expect("a demo runs");
    assert!(after > before, "the demo game moved");
    assert_eq!(played(&k), 0, "the attract loop plays by itself, silently");
    assert!(k.controller.borrow().sound.heard().is_empty());
    // A tap ends the demo; the group's own game is heard and played.
    k.app.global::<KioskBridge>().invoke_stop_demo();
    assert_eq!(k.app.get_screen(), Screen::Home);
    press(&k.app, "IOTA");
    press(&k.app, "Start");
    assert_eq!(played(&k), 1, "the cover's call, played");
}
