//! Omiga's "Two phones" in the app (issue 40, point 4): two app windows in this process
//! pair by their pairing texts over the app's own WebRTC (`net::rtc_native`, str0m) on
//! real UDP on 127.0.0.1, through the setup screen's buttons and the host and join
//! screens, driven by the screens' own Slint timer (mock time here) and reach the
//! networked table, where a card placed on one shows on the other.
#![cfg(all(feature = "devtools", feature = "webrtc"))]

use hotseat::ui::lan;
use hotseat::ui::{LanBridge, Screen};
use slint::ComponentHandle;
use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

mod common;
use common::devices::{device_in, Device};
use common::{cell_prefix, labels_starting, press, select_playable, temp_data};

/// An app in English on show, with a data folder of its own.
fn device(tag: &str) -> Device {
    let d = device_in(Some(temp_data(tag)));
    d.app.invoke_set_language("en".into());
    d
}

/// Runs the devices' timers (the pairing screens' own) and takes in their net events
/// until `done` holds.
fn pump(devices: &[&Device], what: &str, done: impl Fn() -> bool) {
    common::devices::pump(devices, what, Duration::from_millis(20), done)
}

#[test]
fn two_apps_pair_by_texts_over_webrtc_and_play() {
    // Both windows offer this machine's loopback (the test has no Wi-Fi to count on).
    hotseat::ui::rtc::use_addresses(Some(vec![IpAddr::V4(Ipv4Addr::LOCALHOST)]));
    let host = device("rtc-host");
    let joiner = device("rtc-join");
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

    // A text that is none is refused with a reason, and the offer still waits.
    hb.set_pasted_text("hello".into());
    press(&host.app, "Use the answer");
    assert!(hb.get_pair_message_warning(), "{}", hb.get_pair_message());
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
    let cell = select_playable(&host.app, "White").expect("White has a move");
    press(&host.app, &cell);
    let at = cell_prefix(&cell);
    pump(&[&host, &joiner], "the joiner sees White's card", || {
        labels_starting(&joiner.app, &at)
            .first()
            .is_some_and(|l| l.contains("white card"))
    });
    // Black answers on the joiner: the host judges it and both show it.
    let cell = select_playable(&joiner.app, "Black").expect("Black has a move");
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
    lan::leave(&mut host.c.borrow_mut());
    lan::leave(&mut joiner.c.borrow_mut());
    hotseat::ui::rtc::use_addresses(None);
}
