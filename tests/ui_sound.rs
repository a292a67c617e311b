//! What a player hears while playing through the real screens: the shell hears every
//! change on the table (src/ui/sound.rs) and the settings turn the cues and the buzz on
//! and off. (The cues themselves, per game, are tested in src/sound/tests.rs; playing
//! them on a device in src/platform/audio.rs.)
#![cfg(feature = "devtools")]

use hotseat::sound::Cue;
use hotseat::ui::{build, Controller, Screen};
use i_slint_backend_testing::init_no_event_loop;
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::Rc;

mod common;
use common::{english_app, press, tap_cell as tap, temp_data};

fn heard(c: &Rc<RefCell<Controller>>) -> Vec<Cue> {
    c.borrow().sound.heard().to_vec()
}

#[test]
fn a_game_from_setup_sounds_the_hand_off_the_reveal_the_step_and_a_refusal() {
    let (app, c) = english_app("sound-game");
    press(&app, "Ovo");
    press(&app, "Start");
    assert_eq!(app.get_screen(), Screen::Game);
    assert_eq!(heard(&c), [Cue::CoverUp], "the first player is called");
    let first = app.get_cover_name().to_string();
    let (from, to, other) = common::first_step(&first);
    press(&app, &format!("{first}, tap to reveal"));
    assert_eq!(heard(&c)[1..], [Cue::Reveal]);
    // An empty cell with nothing picked up: refused, and heard as such.
    tap(&app, "c4");
    assert_eq!(heard(&c)[2..], [Cue::Refused]);
    tap(&app, from);
    tap(&app, to);
    assert_eq!(heard(&c)[3..], [Cue::Step, Cue::CoverUp]);
    assert_eq!(app.get_cover_name(), other);
}

#[test]
fn settings_turn_the_cues_and_the_buzz_off_and_keep_the_choice() {
    init_no_event_loop();
    let dir = temp_data("sound-settings");
    let (app, c) = build(Some(dir.clone())).unwrap();
    app.invoke_set_language("en".into());
    app.show().unwrap();
    assert!(
        app.get_sound_on(),
        "on by default, for a screen reader's user too"
    );
    press(&app, "Settings");
    press(&app, "Sound cues");
    press(&app, "Vibration");
    assert!(!app.get_sound_on() && !app.get_vibration());
    press(&app, "Sound cues");
    press(&app, "Loud");
    assert_eq!(app.get_volume(), 100);
    assert_eq!(c.borrow().settings().sound, Some(true));
    drop((app, c));
    let (again, c) = build(Some(dir)).unwrap();
    assert!(again.get_sound_on() && !again.get_vibration());
    assert_eq!(again.get_volume(), 100);
    assert_eq!(c.borrow().settings().volume, 100);
}
