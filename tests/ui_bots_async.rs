//! The app's opponents on their real path: thinking on a worker thread, the answer
//! delivered with `slint::invoke_from_event_loop`, Omiga's pace on a one-shot timer. One
//! test only: the testing backend's event loop can be set up once per process.
#![cfg(feature = "devtools")]

use hotseat::games::ovo::OvoAction;
use hotseat::ui::{build, omiga, ovo, AppWindow, Controller, GameChrome, OmigaBridge, OvoBridge};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Runs the event loop until `done` holds (checked every 20 ms by this test only) or
/// `limit` passes; true if it held.
fn run_until(limit: Duration, done: impl Fn() -> bool + 'static) -> bool {
    let start = Instant::now();
    let ok = Rc::new(std::cell::Cell::new(false));
    let timer = slint::Timer::default();
    let flag = ok.clone();
    timer.start(
        slint::TimerMode::Repeated,
        Duration::from_millis(20),
        move || {
            if done() {
                flag.set(true);
                let _ = slint::quit_event_loop();
            } else if start.elapsed() > limit {
                let _ = slint::quit_event_loop();
            }
        },
    );
    slint::run_event_loop_until_quit().unwrap();
    ok.get()
}

fn actions(c: &Rc<RefCell<Controller>>) -> usize {
    let mut guard = c.borrow_mut();
    if let Some(t) = guard.table_as::<ovo::OvoTable>() {
        return t.session().actions().len();
    }
    guard
        .table_as::<omiga::OmigaTable>()
        .map_or(0, |t| t.session().actions().len())
}

#[test]
fn the_app_thinks_on_a_worker_thread_and_answers_through_the_event_loop() {
    i_slint_backend_testing::init_integration_test_with_system_time();
    let dir = std::env::temp_dir().join(format!("hotseat-bots-async-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (app, c): (AppWindow, _) = build(Some(dir)).unwrap();
    app.invoke_set_language("en".into());
    app.show().unwrap();

    // Ovo against the app (easy): the person moves, the app answers in the background.
    app.invoke_open_game("ovo".into());
    app.invoke_set_kind(1, 1);
    app.invoke_start_game();
    // If the app moves first it is thinking already: let it answer.
    if app.get_cover_up() {
        app.invoke_reveal();
    } else {
        assert!(run_until(Duration::from_secs(5), {
            let c = c.clone();
            move || actions(&c) == 1
        }));
        // The person had not looked yet: now the cover names them.
        assert!(app.get_cover_up());
        app.invoke_reveal();
    }
    let n = actions(&c);
    let step = c
        .borrow_mut()
        .table_as::<ovo::OvoTable>()
        .and_then(|t| {
            t.session()
                .desk(0)?
                .legal_actions()
                .into_iter()
                .find(|a| matches!(a, OvoAction::Step { ovo: false, .. }))
        })
        .expect("a step");
    let OvoAction::Step { from, to, .. } = step else {
        unreachable!()
    };
    let bridge = app.global::<OvoBridge>();
    bridge.invoke_tap(from.index() as i32);
    bridge.invoke_tap(to.index() as i32);
    assert_eq!(actions(&c), n + 1);
    // The app has not answered yet: the UI thread did not wait for it.
    let chrome = app.global::<GameChrome>();
    assert_eq!(
        chrome.get_banner().to_string(),
        "The app (easy) is thinking…"
    );
    assert!(!app.get_cover_up());
    assert!(run_until(Duration::from_secs(5), {
        let c = c.clone();
        move || actions(&c) == n + 2
    }));
    assert_eq!(chrome.get_banner().to_string(), "Player 1's turn");
    let m = chrome.get_message().to_string();
    assert!(m.starts_with("The app (easy) "), "{m}");
    assert!(!app.get_cover_up(), "no cover between a person and the app");

    // Omiga against the app (hard): it places at its own pace while the person waits.
    chrome.invoke_leave();
    app.invoke_open_game("omiga".into());
    app.invoke_set_kind(1, 3);
    app.invoke_start_game();
    for _ in 0..3 {
        app.global::<OmigaBridge>().invoke_tick();
    }
    let placed = Instant::now();
    assert_eq!(actions(&c), 0);
    assert!(run_until(Duration::from_secs(5), {
        let c = c.clone();
        move || actions(&c) >= 1
    }));
    let waited = placed.elapsed();
    assert!(
        waited >= Duration::from_millis(900),
        "hard's pace is 1.4 s ± 0.4: {waited:?}"
    );
    // The message names what the app did: a placement, or — when the deal left it a hand
    // that fits nowhere, which the rules alone allow — a new hand.
    let first = c
        .borrow_mut()
        .table_as::<omiga::OmigaTable>()
        .and_then(|t| t.session().actions().first().cloned())
        .expect("the app's action");
    let m = chrome.get_message().to_string();
    let said = if first.1 == "discard" {
        "The app (hard) drew a new hand"
    } else {
        "The app (hard) placed"
    };
    assert!(m.starts_with(said), "{m} after {first:?}");
}
