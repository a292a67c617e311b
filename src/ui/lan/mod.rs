//! Omiga on two devices over the local network (issue 6), on screen: the host and join
//! screens, and the networked table drawn with the Omiga screen from this device's seat
//! only. The host device holds a `net::Host` (the authority, White); the joined device a
//! `net::JoinerThread` (Black): the UI-free joiner that loses, comes back and settles a lost
//! action on its own. No rule and no connection flow is decided here: legal cells come from
//! the rules core (`net::legal_from_view`), every action is judged by the host.
//!
//! Net events arrive on channels from network threads. A forwarding thread per channel
//! blocks on it, puts each event in the bridge's inbox and asks the UI thread to take it in
//! (`slint::invoke_from_event_loop` → `LanBridge.drain`); nothing polls, so an idle table
//! costs no CPU. Without an event loop (tests), [`drain`] takes the inbox in directly.
//!
//! A networked match is not a `play::Table`: that trait hands out a local `Session` to
//! save, undo and record, and the joined device has none (only its own view). It lives in
//! `Controller::lan` instead and offers no undo. With a data folder the host's match is
//! saved after every action and the joiner's seat is kept (`net::saved`): opening the host
//! or join screen again within the resume time continues that game.
//!
//! The files: `host_screen` and `join_screen` (with `discovery`, hosts heard on the LAN),
//! `table` (the networked table and its taps), `events` (what the network threads report),
//! `stage` (the screenshots' fixtures); here, the state they share and the callbacks.

mod discovery;
mod events;
mod host_screen;
mod join_screen;
mod stage;
mod table;

pub use events::drain;
use events::sound;
pub use host_screen::host;
pub use join_screen::{join, open_join};
pub use stage::stage;
#[cfg(feature = "webrtc")]
pub use stage::stage_pair;
use table::NetGame;
pub use table::{show, tap, Tap};

use super::chrome;
use super::inbox::{Inbox, LanMsg};
use super::reasons;
use super::texts::{self, LanText, Text};
use super::{AppWindow, Controller, LanBridge};
use crate::games::omiga::OmigaView;
use crate::games::{Params, Seat};
use crate::net::discovery::{Announcer, Found};
use crate::net::joiner::JoinerThread;
use crate::net::{Host, NetReason, Timing};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::net::{IpAddr, SocketAddr};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::thread;

/// `text` in the app's language.
fn say(language: &str, text: impl Text) -> String {
    texts::say(&text, language)
}

/// A reason from the network (a host's refusal, a rules refusal sent typed, a notice) in
/// the app's language.
fn said(language: &str, reason: &NetReason) -> String {
    reasons::say(reason, language)
}

/// How a host is started (the app: the LAN with the default timings; tests: loopback).
#[derive(Debug, Clone)]
pub struct HostOptions {
    /// Where to listen.
    pub bind: SocketAddr,
    /// Whether to announce on the LAN.
    pub announce: bool,
    /// Timings (tests shorten the countdown).
    pub timing: Timing,
    /// The deal (a seed is added when there is none).
    pub params: Params,
    /// The name announced to devices looking for a game.
    pub name: String,
}

pub(super) enum Link {
    Idle,
    Host {
        host: Host,
        _announcer: Option<Announcer>,
    },
    /// The joined device (it comes back on its own after a drop).
    Client(JoinerThread),
    /// Two phones by pairing texts: either side, over a WebRTC data channel, driven from
    /// the screen's timer (the browser's, or the app's with the `webrtc` feature).
    #[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
    Page(super::rtc::PageLink),
}

/// The two-device state of the app: the link, the hosts heard, and the game on screen.
pub struct Lan {
    inbox: Inbox,
    pub(super) link: Link,
    timing: Timing,
    browsing: Option<Arc<AtomicBool>>,
    /// Held while browsing or announcing: Android hears no beacons without it.
    multicast: Option<crate::platform::MulticastLock>,
    found: Vec<Found>,
    game: Option<NetGame>,
}

impl Lan {
    fn new(app: &AppWindow) -> Self {
        Lan {
            inbox: Inbox::new(app),
            link: Link::Idle,
            timing: Timing::default(),
            browsing: None,
            multicast: None,
            found: Vec::new(),
            game: None,
        }
    }

    /// This device's seat, once a game is on.
    pub fn seat(&self) -> Option<Seat> {
        self.game.as_ref().map(|g| g.seat)
    }

    /// Whether a game is on screen and not paused or over.
    pub fn playing(&self) -> bool {
        self.game.as_ref().is_some_and(|g| {
            g.paused.is_none()
                && g.ended.is_none()
                && !g.view.outcome.is_over()
                && g.countdown_left() == 0
        })
    }

    /// The address a host listens on (tests join it).
    pub fn host_addr(&self) -> Option<SocketAddr> {
        match &self.link {
            Link::Host { host, .. } => Some(host.addr()),
            _ => None,
        }
    }

    /// The host's own view of its match, when this device hosts.
    fn host_view(&self) -> Option<OmigaView> {
        match &self.link {
            Link::Host { host, .. } => host.view().ok(),
            #[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
            Link::Page(page) => page.host_view(),
            _ => None,
        }
    }

    /// The join code of the host on this device.
    pub fn host_code(&self) -> Option<String> {
        match &self.link {
            Link::Host { host, .. } => Some(host.code().to_string()),
            _ => None,
        }
    }

    /// Cuts the joined device's connection as a dropped Wi-Fi would (tests, and a phone
    /// going to sleep); it comes back on its own.
    pub fn drop_connection(&mut self) {
        if let Link::Client(joiner) = &self.link {
            joiner.drop_connection();
        }
    }

    /// Ends the pairing on purpose (the other device is told).
    pub(super) fn leave(&mut self) {
        self.stop_browsing();
        match std::mem::replace(&mut self.link, Link::Idle) {
            Link::Host { host, .. } => host.leave(),
            Link::Client(joiner) => joiner.leave(),
            #[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
            Link::Page(page) => page.leave(),
            Link::Idle => {}
        }
        self.game = None;
    }
}

impl Drop for Lan {
    fn drop(&mut self) {
        self.stop_browsing();
    }
}

/// Blocks on `rx` in a thread of its own and forwards every event; ends when the sender
/// is gone (the host or client was dropped).
fn forward<T: Send + 'static>(rx: Receiver<T>, inbox: Inbox, wrap: fn(T) -> LanMsg) {
    thread::spawn(move || {
        while let Ok(event) = rx.recv() {
            inbox.push(wrap(event));
        }
    });
}

pub(super) fn lan_of<'a>(c: &'a mut Controller, app: &AppWindow) -> &'a mut Lan {
    c.lan.get_or_insert_with(|| Lan::new(app))
}

/// The deal the setup screen's variants ask for, with a fresh seed.
pub(super) fn setup_params(c: &Controller) -> Params {
    let v = &c.setup.variants;
    let on_off = |b: bool| if b { "on" } else { "off" };
    Params::new()
        .with("table", v.omiga_table_param())
        .with("allow_rotation", on_off(v.omiga_allow_rotation))
        .with("free_discard", on_off(v.omiga_free_discard))
        .with("seed", fresh_seed())
}

/// Leaves the networked game or screen: the other device is told.
pub fn leave(c: &mut Controller) {
    if let Some(mut lan) = c.lan.take() {
        lan.leave();
    }
}

/// The app goes away without a goodbye (the system killed or closed it): the connection
/// drops as with a lost Wi-Fi, and the saved match or seat stays for the next start.
pub fn close_without_leaving(c: &mut Controller) {
    c.lan = None;
}

/// The host's address and join code on this device, if it hosts (tests).
pub fn host_info(c: &Controller) -> Option<(SocketAddr, String)> {
    let lan = c.lan.as_ref()?;
    Some((lan.host_addr()?, lan.host_code()?))
}

/// Cuts the joined device's connection as a dropped Wi-Fi would (tests); it comes back
/// on its own within the resume time.
pub fn drop_connection(c: &mut Controller) {
    if let Some(lan) = c.lan.as_mut() {
        lan.drop_connection();
    }
}

/// A seed for a new deal.
fn fresh_seed() -> u64 {
    crate::platform::time::unix_nanos().max(1)
}

/// Registers the two-device screens' callbacks.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    macro_rules! on {
        ($target:expr, $setter:ident, |$app:ident, $c:ident $(, $arg:ident : $ty:ty)*| $body:block) => {{
            let weak = app.as_weak();
            let controller = controller.clone();
            $target.$setter(move |$($arg: $ty),*| {
                if let Some($app) = weak.upgrade() {
                    let mut guard = controller.borrow_mut();
                    let $c: &mut Controller = &mut guard;
                    $body
                }
            });
        }};
    }
    let bridge = app.global::<LanBridge>();
    on!(app, on_host_lan, |app, c| { host(&app, c, None) });
    on!(app, on_join_lan, |app, c| { open_join(&app, c, None) });
    on!(bridge, on_host, |app, c| { host(&app, c, None) });
    on!(bridge, on_cancel, |_app, c| { leave(c) });
    on!(bridge, on_drain, |app, c| { drain(&app, c) });
    #[cfg(target_arch = "wasm32")]
    bridge.set_paired_by_text(true);
    #[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
    {
        bridge.set_copy_here(cfg!(not(target_arch = "wasm32")));
        on!(app, on_host_pair, |app, c| { host_pair(&app, c) });
        on!(app, on_join_pair, |app, c| { join_pair(&app, c) });
        on!(bridge, on_use_text, |app, c, text: slint::SharedString| {
            if let Some(Link::Page(link)) = c.lan.as_ref().map(|l| &l.link) {
                link.use_text(&app, &text);
            }
        });
        on!(bridge, on_copy_text, |app, c| {
            super::rtc::copy_text(&app, c.language())
        });
        // The camera reads the other phone's code (the browser only: `ui::rtc`).
        on!(bridge, on_scan, |app, c| {
            if let Some(Link::Page(link)) = c.lan.as_ref().map(|l| &l.link) {
                link.scan(&app);
            }
        });
        on!(bridge, on_stop_scan, |app, c| {
            if let Some(Link::Page(link)) = c.lan.as_ref().map(|l| &l.link) {
                link.stop_scan(&app);
            }
        });
    }
    on!(
        bridge,
        on_join_typed,
        |app, c, addr: slint::SharedString, code: slint::SharedString| {
            let language = c.language();
            let text = addr.trim();
            let parsed = text
                .parse::<SocketAddr>()
                .ok()
                .or_else(|| text.parse::<IpAddr>().ok().map(|ip| SocketAddr::new(ip, 0)));
            match parsed {
                Some(a) if a.port() != 0 => join(&app, c, a, &code),
                _ => {
                    let b = app.global::<LanBridge>();
                    b.set_join_message(say(language, LanText::TypeAddress).into());
                    b.set_join_message_warning(true);
                }
            }
        }
    );
    on!(
        bridge,
        on_join_found,
        |app, c, index: i32, code: slint::SharedString| {
            let addr = c
                .lan
                .as_ref()
                .and_then(|l| l.found.get(index.max(0) as usize))
                .map(|f| f.addr);
            match addr {
                Some(a) => join(&app, c, a, &code),
                None => {
                    let language = c.language();
                    let b = app.global::<LanBridge>();
                    b.set_join_message(say(language, LanText::GameGone).into());
                    b.set_join_message_warning(true);
                }
            }
        }
    );
}

/// Hosts "Two phones": a match and its pairing text (`ui::rtc`).
#[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
pub fn host_pair(app: &AppWindow, c: &mut Controller) {
    let (language, params, store) = (c.language(), setup_params(c), c.data_dir.clone());
    let lan = lan_of(c, app);
    lan.leave();
    if let Some(link) = super::rtc::host(app, language, params, store, lan.inbox.clone()) {
        lan.link = Link::Page(link);
    }
}

/// Joins "Two phones": the screen that takes the host's pairing text (`ui::rtc`).
#[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
pub fn join_pair(app: &AppWindow, c: &mut Controller) {
    let (language, store) = (c.language(), c.data_dir.clone());
    let lan = lan_of(c, app);
    lan.leave();
    lan.link = Link::Page(super::rtc::open_join(
        app,
        language,
        store,
        lan.inbox.clone(),
    ));
}

/// Runs a tap on the networked game if one is on screen; `None` when there is none (the
/// Omiga screen then belongs to the face-to-face table).
pub fn route(app: &AppWindow, c: &mut Controller, t: Tap) -> Option<()> {
    let language = c.language();
    let lan = c.lan.as_mut().filter(|l| l.game.is_some())?;
    let tick = matches!(t, Tap::Tick);
    let refused = match tap(lan, t, language) {
        Ok(()) if tick => false,
        Ok(()) => {
            chrome::show_message(app, "", false);
            false
        }
        Err(reason) => {
            chrome::show_message(app, &reason, true);
            true
        }
    };
    show(app, lan, language);
    if refused {
        c.sound.refused();
    }
    sound(c);
    Some(())
}
