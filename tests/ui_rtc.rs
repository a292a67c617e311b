//! Omiga's "Two phones" in the app (issue 40, point 4): two app windows in this process
//! pair by their pairing texts over the app's own WebRTC (`net::rtc_native`, str0m) on
//! real UDP on 127.0.0.1, through the setup screen's buttons and the host and join
//! screens, driven by the screens' own Slint timer (mock time here) and reach the
//! networked table, where a card placed on one shows on the other. Then the joining app
//! is gone without a word, opened again, and pairs again with the host's new text: its
//! seat and the board are as they were, and play goes on.
#![cfg(all(feature = "devtools", feature = "webrtc"))]

use hotseat::ui::lan;
use hotseat::ui::{LanBridge, Screen};
use slint::ComponentHandle;
use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;
use std::time::Duration;

mod common;
use common::devices::{device_in, Device};
use common::{cell_prefix, labels_starting, on_screen, press, select_playable, temp_data};
use i_slint_backend_testing::ElementHandle;

/// An app in English on show, with a data folder of its own (kept where it is: the same
/// phone opens the app again there).
fn device(data: &Path) -> Device {
    let d = device_in(Some(data.to_path_buf()));
    d.app.invoke_set_language("en".into());
    d
}

/// Runs the devices' timers (the pairing screens' own) and takes in their net events
/// until `done` holds.
fn pump(devices: &[&Device], what: &str, done: impl Fn() -> bool) {
    common::devices::pump(devices, what, Duration::from_millis(20), done)
}

/// `d`'s "Discard hand" button, when it shows (only while no card of the hand fits).
fn discard_button(d: &Device) -> Option<ElementHandle> {
    ElementHandle::find_by_accessible_label(&d.app, "Discard hand").find(|e| on_screen(&d.app, e))
}

/// A card of `side` on `d` that fits, selected, and its cell. While none of the hand fits
/// either way up, the player discards it and waits for the new one (the other `devices`
/// taking in their news meanwhile), as a player would.
fn fitting_card(devices: &[&Device], d: &Device, side: &str) -> String {
    let hand = || labels_starting(&d.app, &format!("{side} card "));
    loop {
        let cell = std::cell::RefCell::new(None);
        pump(
            devices,
            &format!("{side} has a card that fits, or may discard"),
            || {
                *cell.borrow_mut() = select_playable(&d.app, side);
                cell.borrow().is_some() || discard_button(d).is_some()
            },
        );
        if let Some(cell) = cell.into_inner() {
            return cell;
        }
        let before = hand();
        if let Some(button) = discard_button(d) {
            button.invoke_accessible_default_action();
        }
        pump(devices, &format!("{side}'s new hand"), || hand() != before);
    }
}

#[test]
fn two_apps_pair_by_texts_over_webrtc_and_play() {
    // Both windows offer this machine's loopback (the test has no Wi-Fi to count on).
    hotseat::ui::rtc::use_addresses(Some(vec![IpAddr::V4(Ipv4Addr::LOCALHOST)]));
    let host = device(&temp_data("rtc-host"));
    let joiner_data = temp_data("rtc-join");
    let joiner = device(&joiner_data);
    for d in [&host, &joiner] {
        d.app.invoke_open_game("omiga".into());
        assert_eq!(d.app.get_screen(), Screen::Setup);
        // Both ways to play on two devices are offered: the LAN's and "Two phones".
        assert!(d.app.get_lan_available() && d.app.get_pair_available());
    }

    // The host: its pairing text and QR code; no Scan button (no camera here).
    host.app.invoke_host_pair();
    assert_eq!(host.app.get_screen(), Screen::LanHost);
    let hb = host.app.global::<LanBridge>();
    assert!(hb.get_paired_by_text());
    assert!(!hb.get_can_scan());
    pump(&[&host], "the host's text shows", || {
        hb.get_own_text() != ""
    });
    let offer = hb.get_own_text().to_string();
    assert!(offer.len() < 1000, "{offer}");
    assert!(hb.get_own_qr().size().width > 0, "the QR code shows");
    assert!(!labels_starting(&host.app, "QR code of the pairing text").is_empty());
    assert!(labels_starting(&host.app, "Scan the other phone's QR code").is_empty());

    // A text that is none is refused with a reason, and the offer still waits; an empty
    // paste (the copy did not take) is told apart from a wrong text.
    hb.set_pasted_text("hello".into());
    press(&host.app, "Use the answer");
    assert!(hb.get_pair_message_warning(), "{}", hb.get_pair_message());
    assert!(hb.get_pair_message().contains("not a Hotseat pairing code"));
    hb.set_pasted_text(" \n".into());
    press(&host.app, "Use the answer");
    assert!(hb.get_pair_message_warning(), "{}", hb.get_pair_message());
    assert!(hb.get_pair_message().contains("nothing was pasted"));
    assert_eq!(hb.get_own_text(), offer.as_str());

    // The joiner pastes the host's text and shows its answer.
    joiner.app.invoke_join_pair();
    assert_eq!(joiner.app.get_screen(), Screen::LanJoin);
    let jb = joiner.app.global::<LanBridge>();
    // The offer is no answer: pasting it back on the host is refused.
    hb.set_pasted_text(offer.as_str().into());
    press(&host.app, "Use the answer");
    assert!(hb.get_pair_message_warning(), "{}", hb.get_pair_message());
    jb.set_pasted_text(offer.as_str().into());
    press(&joiner.app, "Use this text");
    pump(&[&host, &joiner], "the joiner's answer shows", || {
        jb.get_own_text() != ""
    });
    let answer = jb.get_own_text().to_string();
    assert_ne!(answer, offer);
    assert!(
        jb.get_own_qr().size().width > 0,
        "the answer's QR code shows"
    );
    assert!(jb.get_pair_message().contains("answer is ready"));

    // The host takes the answer in: both reach the networked table.
    hb.set_pasted_text(answer.as_str().into());
    press(&host.app, "Use the answer");
    assert!(!hb.get_pair_message_warning(), "{}", hb.get_pair_message());
    pump(&[&host, &joiner], "both tables come up", || {
        host.app.get_screen() == Screen::Game && joiner.app.get_screen() == Screen::Game
    });
    assert!(!labels_starting(&host.app, "White card ").is_empty());
    assert!(!labels_starting(&joiner.app, "Black card ").is_empty());
    assert!(labels_starting(&joiner.app, "White card ").is_empty());

    // White places on the host: the card shows on the joiner's board.
    let cell = fitting_card(&[&host, &joiner], &host, "White");
    press(&host.app, &cell);
    let at = cell_prefix(&cell);
    pump(&[&host, &joiner], "the joiner sees White's card", || {
        labels_starting(&joiner.app, &at)
            .first()
            .is_some_and(|l| l.contains("white card"))
    });
    // Black answers on the joiner: the host judges it and both show it.
    let cell = fitting_card(&[&host, &joiner], &joiner, "Black");
    press(&joiner.app, &cell);
    let at = cell_prefix(&cell);
    pump(&[&host, &joiner], "the host sees Black's card", || {
        labels_starting(&host.app, &at)
            .first()
            .is_some_and(|l| l.contains("black card"))
    });
    pump(&[&host, &joiner], "the joiner's card is confirmed", || {
        labels_starting(&joiner.app, &at)
            .first()
            .is_some_and(|l| l.contains("black card") && !l.contains("waiting"))
    });

    // The cards on a board, where and whose ("x 3, y 4: white").
    let board = |d: &Device| {
        let mut cards: Vec<String> = labels_starting(&d.app, "x ")
            .iter()
            .filter_map(|l| {
                let colour = ["white card", "black card"]
                    .into_iter()
                    .find(|c| l.contains(c))?;
                Some(format!("{} {colour}", cell_prefix(l)))
            })
            .collect();
        cards.sort();
        cards
    };
    let before = board(&host);
    assert!(before.len() >= 2, "{before:?}");

    // The joining phone is gone without a word (the app killed, the phone's battery
    // flat): its window and its link drop. The host's player is asked to pair again,
    // with a new text; the game stands.
    lan::close_without_leaving(&mut joiner.c.borrow_mut());
    drop(joiner);
    pump(&[&host], "the host asks to pair again", || {
        host.app.get_screen() == Screen::LanHost && hb.get_own_text() != ""
    });
    assert!(
        hb.get_host_status().contains("pair again"),
        "{}",
        hb.get_host_status()
    );
    let offer_again = hb.get_own_text().to_string();
    assert_ne!(offer_again, offer, "a new pairing, not the spent one");

    // The same phone opens the app again (its data kept) and Join under Two phones: its
    // seat is kept; it pastes the host's new text, the host takes its answer in, and both
    // are back at the same table, the joiner still Black.
    let back = device(&joiner_data);
    back.app.invoke_open_game("omiga".into());
    back.app.invoke_join_pair();
    let bb = back.app.global::<LanBridge>();
    assert!(
        bb.get_pair_message().contains("seat in the game is kept"),
        "{}",
        bb.get_pair_message()
    );
    bb.set_pasted_text(offer_again.as_str().into());
    press(&back.app, "Use this text");
    pump(&[&host, &back], "the answer to the new text shows", || {
        bb.get_own_text() != ""
    });
    hb.set_pasted_text(bb.get_own_text());
    press(&host.app, "Use the answer");
    pump(&[&host, &back], "both tables come up again", || {
        host.app.get_screen() == Screen::Game && back.app.get_screen() == Screen::Game
    });
    pump(&[&host, &back], "the joiner's board is the host's", || {
        board(&back) == before
    });
    assert_eq!(board(&host), before);
    assert!(!labels_starting(&back.app, "Black card ").is_empty());
    assert!(labels_starting(&back.app, "White card ").is_empty());

    // Play goes on (after the countdown the host gives a device that comes back): White's
    // next card shows on the joiner that came back.
    let cell = fitting_card(&[&host, &back], &host, "White");
    press(&host.app, &cell);
    let at = cell_prefix(&cell);
    pump(
        &[&host, &back],
        "the joiner that came back sees White's card",
        || {
            labels_starting(&back.app, &at)
                .first()
                .is_some_and(|l| l.contains("white card"))
        },
    );
    lan::leave(&mut host.c.borrow_mut());
    lan::leave(&mut back.c.borrow_mut());
    hotseat::ui::rtc::use_addresses(None);
}
