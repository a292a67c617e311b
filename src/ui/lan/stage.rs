//! The networked screens staged for the `lan-host`, `lan-join` and `lan-play` screenshots
//! (`hotseat screenshot`, src/devtools/screenshot.rs).

use super::events::drain;
use super::host_screen::host;
use super::join_screen::join;
use super::table::{show, tap, Tap};
use super::{lan_of, HostOptions};
use crate::games::omiga::Action;
use crate::games::Params;
use crate::net::{legal_from_view, Host, HostConfig, Timing};
use crate::platform::time::Duration;
use crate::ui::{AppWindow, Controller, LanBridge, LanHostUi, Screen};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::cell::RefCell;
use std::net::{Ipv4Addr, SocketAddr};
use std::rc::Rc;

/// Stages a networked table for the `lan-host` / `lan-join` screenshots: a host on
/// loopback, and (for `lan-join`) the join screen with it listed.
pub fn stage(app: &AppWindow, controller: &Rc<RefCell<Controller>>, screen: &str) {
    app.invoke_open_game("omiga".into());
    let mut c = controller.borrow_mut();
    if screen == "lan-host" {
        let options = HostOptions {
            bind: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            announce: false,
            timing: Timing::default(),
            params: Params::new().with("seed", 7),
            name: "Ana".into(),
        };
        host(app, &mut c, Some(options));
        // A fixed example address, so that the picture is the same on every machine.
        if let Some(port) = c.lan.as_ref().and_then(|l| l.host_addr()) {
            let b = app.global::<LanBridge>();
            b.set_address(format!("192.168.1.20:{}", port.port()).into());
        }
    } else if screen == "lan-play" {
        // The joined device's table, mid-game, against a host on loopback with no UI.
        let mut config = HostConfig::new(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)), "2468", 7);
        config.timing.countdown = Duration::ZERO;
        let Ok(remote) = Host::start(config) else {
            return;
        };
        join(app, &mut c, remote.addr(), "2468");
        for _ in 0..100 {
            std::thread::sleep(Duration::from_millis(20));
            drain(app, &mut c);
            if c.lan.as_ref().is_some_and(|l| l.game.is_some()) {
                break;
            }
        }
        for _ in 0..3 {
            let white = remote
                .legal()
                .ok()
                .and_then(|l| l.into_iter().find(|a| matches!(a, Action::Place { .. })));
            if let Some(a) = white {
                let _ = remote.act(a);
            }
            std::thread::sleep(Duration::from_millis(100));
            drain(app, &mut c);
            let language = c.language();
            if let Some(lan) = c.lan.as_mut() {
                let black = lan.game.as_ref().and_then(|g| {
                    legal_from_view(&g.view)
                        .into_iter()
                        .find(|a| matches!(a, Action::Place { .. }))
                });
                if let Some(Action::Place {
                    card,
                    x,
                    y,
                    rotated,
                }) = black
                {
                    if let Some(i) = lan
                        .game
                        .as_ref()
                        .and_then(|g| g.view.hand.iter().position(|h| *h == card))
                    {
                        let _ = tap(lan, Tap::Hand(i), language);
                        if rotated {
                            let _ = tap(lan, Tap::Hand(i), language);
                        }
                        let _ = tap(lan, Tap::Cell(x, y), language);
                    }
                }
            }
            std::thread::sleep(Duration::from_millis(100));
            drain(app, &mut c);
        }
        // Select a card so its legal cells show.
        let language = c.language();
        if let Some(lan) = c.lan.as_mut() {
            let _ = tap(lan, Tap::Hand(0), language);
            show(app, lan, language);
        }
        // The host lives until the picture is taken (the process ends then).
        std::mem::forget(remote);
    } else {
        let lan = lan_of(&mut c, app);
        lan.found.clear();
        app.set_screen(Screen::LanJoin);
        let rows = vec![LanHostUi {
            name: "Ana".into(),
            game: "Omiga".into(),
            address: "192.168.1.20:40123".into(),
            label: "Join Ana, Omiga, 192.168.1.20:40123".into(),
        }];
        app.global::<LanBridge>()
            .set_found(ModelRc::new(VecModel::from(rows)));
        app.global::<LanBridge>().set_searching(true);
    }
}

/// Stages "Two phones" for the `pair-host` / `pair-join` screenshots, on loopback: the
/// host's pairing text and QR code, or the joiner's answer to a host's text.
#[cfg(feature = "webrtc")]
pub fn stage_pair(app: &AppWindow, controller: &Rc<RefCell<Controller>>, screen: &str) {
    use crate::net::pairing::{encode, PairingKind};
    use crate::net::rtc_native::NativePairing;
    use std::net::IpAddr;
    let loopback = vec![IpAddr::V4(Ipv4Addr::LOCALHOST)];
    crate::ui::rtc::use_addresses(Some(loopback.clone()));
    app.invoke_open_game("omiga".into());
    let mut c = controller.borrow_mut();
    if screen == "pair-host" {
        super::host_pair(app, &mut c);
        return;
    }
    super::join_pair(app, &mut c);
    drop(c);
    let offer = NativePairing::offer(&loopback, std::time::Instant::now());
    let text = offer
        .as_ref()
        .ok()
        .and_then(|o| encode(PairingKind::Offer, o.local_sdp(), Some("2468")).ok());
    if let Some(text) = text {
        let b = app.global::<LanBridge>();
        b.set_pasted_text(text.as_str().into());
        b.invoke_use_text(text.into());
    }
}
