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

use super::inbox::{Inbox, LanMsg};
use super::omiga_models::{board_cells, hand_models, side_word};
use super::reasons;
use super::texts::{self, LanText, OmigaText, Text};
use super::{chrome, rows};
use super::{AppWindow, Controller, GameChrome, LanBridge, LanHostUi, OmigaBridge, Screen};
use crate::games::omiga::{Action, Omiga, OmigaEvent, OmigaView, Side};
use crate::games::Game;
use crate::games::{Outcome, Params, Seat};
use crate::net::discovery::{Announcer, Beacon, Browser, Found};
use crate::net::host::random_code;
use crate::net::joiner::{JoinerThread, JoinerUpdate};
use crate::net::{
    legal_from_view, Host, HostConfig, HostEvent, Joiner, JoinerEvent, NetError, NetReason, Timing,
};
use crate::platform::time::{Duration, Instant};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::cell::RefCell;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// The browser: either side, over a data channel, driven from the page's timer.
    #[cfg(target_arch = "wasm32")]
    Page(super::rtc::PageLink),
}

/// One game on the networked table, as this device's seat knows it.
struct NetGame {
    seat: Seat,
    view: OmigaView,
    selected: Option<usize>,
    turned: bool,
    note: (String, bool),
    countdown_until: Option<Instant>,
    /// "Connection lost — waiting …" while paused.
    paused: Option<String>,
    /// The pairing is over, with why.
    ended: Option<String>,
    /// The joined device's placement sent and not answered yet.
    pending: Option<Action>,
    last: Option<(u8, u8)>,
    rematch_offered: bool,
    rematch_asked: bool,
    /// The game's public events as this device received them, each with the side that
    /// acted (this device's card or the other's): what the ear hears new.
    log: Vec<(crate::sound::Side, OmigaEvent)>,
    /// Hears this game only: a rematch is a new `NetGame`, with a new ear.
    ear: crate::sound::Ear,
    /// The host refused this device's action since the last listen.
    refused: bool,
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
            #[cfg(target_arch = "wasm32")]
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

    fn stop_browsing(&mut self) {
        if let Some(stop) = self.browsing.take() {
            stop.store(true, Ordering::SeqCst);
        }
        self.multicast = None;
    }

    /// Asks for the multicast lock (a no-op off Android); without it discovery may stay
    /// deaf, and joining by the typed address still works.
    fn hold_multicast(&mut self) {
        if self.multicast.is_none() {
            match crate::platform::MulticastLock::acquire() {
                Ok(lock) => self.multicast = Some(lock),
                Err(e) => crate::note!("{e}"),
            }
        }
    }

    /// Ends the pairing on purpose (the other device is told).
    pub(super) fn leave(&mut self) {
        self.stop_browsing();
        match std::mem::replace(&mut self.link, Link::Idle) {
            Link::Host { host, .. } => host.leave(),
            Link::Client(joiner) => joiner.leave(),
            #[cfg(target_arch = "wasm32")]
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

impl NetGame {
    fn new(seat: Seat, view: OmigaView, countdown: Duration) -> Self {
        NetGame {
            seat,
            view,
            selected: None,
            turned: false,
            note: Default::default(),
            countdown_until: (!countdown.is_zero()).then(|| Instant::now() + countdown),
            paused: None,
            ended: None,
            pending: None,
            last: None,
            rematch_offered: false,
            rematch_asked: false,
            log: Vec::new(),
            ear: crate::sound::Ear::new(),
            refused: false,
        }
    }

    fn countdown_left(&self) -> i32 {
        self.countdown_until.map_or(0, |until| {
            let left = until.saturating_duration_since(Instant::now());
            left.as_millis().div_ceil(1000) as i32
        })
    }

    fn selected_card(&self) -> Option<crate::games::omiga::Card> {
        self.selected.and_then(|i| self.view.hand.get(i).copied())
    }

    /// A new view from the host: keep the selection when the card is still in hand.
    fn set_view(&mut self, view: OmigaView) {
        let card = self.selected_card();
        self.view = view;
        self.selected = card.and_then(|c| self.view.hand.iter().position(|h| *h == c));
        if self.selected.is_none() {
            self.turned = false;
        }
    }

    /// An action taken on the table: `mine` when this device's seat acted. Kept in its
    /// public form only (what the other side's device may know), for the ear.
    fn acted(&mut self, event: &OmigaEvent, mine: bool) {
        if let crate::games::omiga::view::Act::Placed { x, y, .. } = event.act {
            self.last = Some((x, y));
        }
        let side = if mine {
            crate::sound::Side::Near
        } else {
            crate::sound::Side::Far
        };
        self.log.push((side, Omiga::public_event(event)));
    }

    /// What changed on this table since the last listen, heard by the same ear and the
    /// same Omiga cues as a table on one device (`sound::Ear::hear`).
    fn heard(&mut self) -> crate::sound::Heard {
        let glance = crate::sound::Glance {
            actions: self.log.len(),
            // This device's own seat always sees its own hand: no cover, no hand-off.
            gate: crate::session::Gate::Open(self.seat),
            thinking: false,
            outcome: self.view.outcome.clone(),
            countdown: u8::try_from(self.countdown_left()).unwrap_or(u8::MAX),
        };
        let log = &self.log;
        self.ear
            .hear::<Omiga, _>(glance, |from| log.iter().skip(from).cloned())
    }

    /// The cells the selected card may go to, from the rules core.
    fn legal(&self) -> Vec<(u8, u8)> {
        let Some(card) = self.selected_card() else {
            return Vec::new();
        };
        if self.pending.is_some() {
            return Vec::new();
        }
        legal_from_view(&self.view)
            .into_iter()
            .filter_map(|a| match a {
                Action::Place {
                    card: c,
                    rotated,
                    x,
                    y,
                } if c == card && rotated == self.turned => {
                    Some((u8::try_from(x).ok()?, u8::try_from(y).ok()?))
                }
                _ => None,
            })
            .collect()
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

/// The address other devices reach this one at: an interface's own address (also on a
/// hotspot without a default or multicast route).
fn lan_ip() -> Option<IpAddr> {
    crate::net::discovery::lan_addresses()
        .first()
        .map(|ip| IpAddr::V4(*ip))
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

/// Starts hosting from the setup screen's variants and shows the host screen (in the
/// browser: the pairing-text host, `ui::rtc`).
pub fn host(app: &AppWindow, c: &mut Controller, options: Option<HostOptions>) {
    #[cfg(target_arch = "wasm32")]
    if options.is_none() {
        let (language, params, store) = (c.language(), setup_params(c), c.data_dir.clone());
        let lan = lan_of(c, app);
        lan.leave();
        if let Some(link) = super::rtc::host(app, language, params, store, lan.inbox.clone()) {
            lan.link = Link::Page(link);
        }
        return;
    }
    let language = c.language();
    let options = options.unwrap_or_else(|| {
        let name = c.setup.final_names(language).into_iter().next();
        HostOptions {
            bind: SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0)),
            announce: true,
            timing: Timing::default(),
            params: setup_params(c),
            name: name.unwrap_or_else(|| "Hotseat".into()),
        }
    });
    let data_dir = c.data_dir.clone();
    let lan = lan_of(c, app);
    lan.leave();
    lan.timing = options.timing;
    let code = random_code();
    let mut config = HostConfig::new(options.bind, &code, fresh_seed());
    let mut params = options.params.clone();
    if params.get("seed").is_none() {
        params = params.with("seed", fresh_seed());
    }
    config.params = params;
    config.timing = options.timing;
    // Saved after every action; a match left within the resume time goes on (same code,
    // port and match), so a host whose app was killed gets its game back here.
    config.store = data_dir;
    config.resume = config
        .store
        .as_deref()
        .and_then(|dir| crate::net::saved::recent_host(dir, options.timing.resume_within));
    let resumed = config.resume.is_some();
    let bridge = app.global::<LanBridge>();
    match Host::start(config) {
        Ok(mut host) => {
            let addr = host.addr();
            // A continued match keeps its saved code.
            let code = host.code().to_string();
            let shown = if addr.ip().is_unspecified() {
                lan_ip().map_or_else(
                    || {
                        say(
                            language,
                            LanText::Port {
                                port: addr.port().into(),
                            },
                        )
                    },
                    |ip| SocketAddr::new(ip, addr.port()).to_string(),
                )
            } else {
                addr.to_string()
            };
            let announcer = if options.announce && !addr.ip().is_loopback() {
                match Announcer::on_lan(&Beacon::omiga(&options.name, addr.port())) {
                    Ok(a) => Some(a),
                    Err(e) => {
                        crate::note!("not announced on the network: {e}");
                        None
                    }
                }
            } else {
                None
            };
            forward(host.take_events(), lan.inbox.clone(), LanMsg::Host);
            if announcer.is_some() {
                // Some Wi-Fi drivers filter even outgoing broadcasts without the lock.
                lan.hold_multicast();
            }
            lan.link = Link::Host {
                host,
                _announcer: announcer,
            };
            let digits: Vec<slint::SharedString> =
                code.chars().map(|d| d.to_string().into()).collect();
            bridge.set_code_digits(ModelRc::new(VecModel::from(digits)));
            bridge.set_code(code.into());
            bridge.set_address(shown.into());
            bridge.set_host_status(
                if resumed {
                    say(language, LanText::ContinuingSaved)
                } else {
                    say(language, LanText::WaitingToJoin)
                }
                .into(),
            );
        }
        Err(e) => {
            bridge.set_code("".into());
            bridge.set_code_digits(ModelRc::default());
            bridge.set_address("".into());
            let why = said(language, &e.reason());
            bridge.set_host_status(say(language, LanText::CannotHost { why }).into());
        }
    }
    app.set_screen(Screen::LanHost);
}

/// Opens the join screen and starts listening for hosts on the network (in the browser:
/// the pairing-text join, `ui::rtc`).
pub fn open_join(app: &AppWindow, c: &mut Controller, browser: Option<Browser>) {
    #[cfg(target_arch = "wasm32")]
    if browser.is_none() {
        let (language, store) = (c.language(), c.data_dir.clone());
        let lan = lan_of(c, app);
        lan.leave();
        lan.link = Link::Page(super::rtc::open_join(
            app,
            language,
            store,
            lan.inbox.clone(),
        ));
        return;
    }
    let language = c.language();
    let data_dir = c.data_dir.clone();
    let lan = lan_of(c, app);
    lan.leave();
    lan.found.clear();
    let bridge = app.global::<LanBridge>();
    bridge.set_join_message("".into());
    bridge.set_found(ModelRc::new(VecModel::from(Vec::<LanHostUi>::new())));
    let browser = match browser.map_or_else(Browser::on_lan, Ok) {
        Ok(b) => Some(b),
        Err(e) => {
            let why = said(language, &e.reason());
            bridge.set_join_message(say(language, LanText::CannotLook { why }).into());
            bridge.set_join_message_warning(false);
            None
        }
    };
    bridge.set_searching(browser.is_some());
    if browser.as_ref().is_some_and(|b| !b.multicast()) {
        bridge.set_join_message(say(language, LanText::MayHideGames).into());
        bridge.set_join_message_warning(false);
    }
    // A seat kept from a game this device was in (the app was killed): take it back.
    if let Some(joiner) = data_dir.and_then(|dir| Joiner::restore(dir, lan.timing).ok().flatten()) {
        bridge.set_join_message(
            say(
                language,
                LanText::ComingBack {
                    host: joiner.host().to_string(),
                },
            )
            .into(),
        );
        joined(app, lan, Ok(Box::new(joiner)), language);
        return;
    }
    if let Some(browser) = browser {
        let stop = Arc::new(AtomicBool::new(false));
        lan.browsing = Some(stop.clone());
        lan.hold_multicast();
        let inbox = lan.inbox.clone();
        // Blocks on the socket a second at a time; ends when the screen is left.
        thread::spawn(move || {
            let mut seen: Vec<Found> = Vec::new();
            while !stop.load(Ordering::SeqCst) {
                // Short windows: a host shows in the list within a fifth of a second of
                // its beacon, and listening goes on for more.
                let heard = browser.listen(Duration::from_millis(200));
                let mut changed = false;
                for f in heard {
                    if f.beacon.game == "omiga" && !seen.iter().any(|s| s.addr == f.addr) {
                        seen.push(f);
                        changed = true;
                    }
                }
                if changed && !stop.load(Ordering::SeqCst) {
                    inbox.push(LanMsg::Found(seen.clone()));
                }
            }
        });
    }
    app.set_screen(Screen::LanJoin);
}

/// Joins the host at `addr` with `code`; a refusal is shown on the join screen.
pub fn join(app: &AppWindow, c: &mut Controller, addr: SocketAddr, code: &str) {
    let language = c.language();
    let store = c.data_dir.clone();
    let lan = lan_of(c, app);
    let bridge = app.global::<LanBridge>();
    let code = code.trim();
    if code.len() != 4 || !code.bytes().all(|b| b.is_ascii_digit()) {
        bridge.set_join_message(say(language, LanText::EnterCode).into());
        bridge.set_join_message_warning(true);
        return;
    }
    // Connecting may take a while on a poor Wi-Fi: never on the UI thread.
    bridge.set_join_message(say(language, LanText::Joining).into());
    bridge.set_join_message_warning(false);
    let (inbox, timing) = (lan.inbox.clone(), lan.timing);
    let code = code.to_string();
    thread::spawn(move || {
        let joined = Joiner::join(addr, &code, timing, store).map(Box::new);
        inbox.push(LanMsg::Joined(joined));
    });
}

fn joined(app: &AppWindow, lan: &mut Lan, joined: Result<Box<Joiner>, NetError>, language: &str) {
    let bridge = app.global::<LanBridge>();
    match joined {
        Ok(joiner) => {
            lan.stop_browsing();
            // A restored seat has no view until the host welcomes it back: the game
            // appears with the `Resumed` update.
            let game = joiner
                .view()
                .map(|view| NetGame::new(joiner.seat(), view.clone(), joiner.countdown()));
            let (thread, updates) = JoinerThread::spawn(*joiner);
            forward(updates, lan.inbox.clone(), LanMsg::Joiner);
            lan.link = Link::Client(thread);
            if let Some(game) = game {
                lan.game = Some(game);
                bridge.set_join_message("".into());
                chrome::show_message(app, "", false);
                app.set_screen(Screen::Game);
            }
        }
        Err(e) => {
            let why = said(language, &e.reason());
            bridge.set_join_message(say(language, LanText::CouldNotJoin { why }).into());
            bridge.set_join_message_warning(true);
        }
    }
}

/// Takes in everything the network threads left in the inbox, then redraws.
pub fn drain(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(lan) = c.lan.as_mut() else {
        return;
    };
    let msgs = lan.inbox.take();
    if msgs.is_empty() {
        return;
    }
    for msg in msgs {
        take_in(app, lan, msg, language);
    }
    if lan.game.is_some() {
        show(app, lan, language);
    }
    sound(c);
}

/// Plays what the networked game's last change sounds like, the way a table on one
/// device is heard (`ui::sound`): the refusal first, then the game's cues and buzz.
fn sound(c: &mut Controller) {
    let Some(g) = c.lan.as_mut().and_then(|l| l.game.as_mut()) else {
        return;
    };
    if std::mem::take(&mut g.refused) {
        c.sound.refused();
    }
    let heard = g.heard();
    c.sound.after_heard(heard, &c.settings, c.kiosk.is_some());
}

fn take_in(app: &AppWindow, lan: &mut Lan, msg: LanMsg, language: &str) {
    // The player reads that the connection is lost (the why is for `hotseat host`).
    let lost_text = || say(language, LanText::ConnectionLost);
    match msg {
        LanMsg::Found(found) => {
            lan.found = found;
            let rows: Vec<LanHostUi> = lan
                .found
                .iter()
                .map(|f| LanHostUi {
                    name: f.beacon.name.clone().into(),
                    game: "Omiga".into(),
                    address: f.addr.to_string().into(),
                    label: say(
                        language,
                        LanText::JoinHost {
                            name: f.beacon.name.clone(),
                            address: f.addr.to_string(),
                        },
                    )
                    .into(),
                })
                .collect();
            app.global::<LanBridge>()
                .set_found(ModelRc::new(VecModel::from(rows)));
        }
        LanMsg::Host(event) => match event {
            HostEvent::Joined => {
                app.global::<LanBridge>()
                    .set_host_status(say(language, LanText::Joined).into());
            }
            HostEvent::Started {
                view, countdown, ..
            } => {
                lan.game = Some(NetGame::new(0, view, countdown));
                chrome::show_message(app, "", false);
                app.set_screen(Screen::Game);
            }
            HostEvent::OpponentActed { event, view } => {
                if let Some(g) = lan.game.as_mut() {
                    g.acted(&event, false);
                    g.set_view(view);
                }
            }
            HostEvent::Paused { .. } => {
                if let Some(g) = lan.game.as_mut() {
                    g.paused = Some(lost_text());
                }
                chrome::show_message(app, &lost_text(), true);
            }
            HostEvent::Resumed => {
                if lan.game.is_none() {
                    // A host opened again on its saved match (the app was killed, the
                    // page reloaded): the table comes up as the other device is back.
                    if let Some(view) = lan.host_view() {
                        lan.game = Some(NetGame::new(0, view, Duration::ZERO));
                    }
                }
                if let Some(g) = lan.game.as_mut() {
                    g.paused = None;
                    // A browser's host paired again on its pairing screen.
                    app.set_screen(Screen::Game);
                }
                chrome::show_message(app, &say(language, LanText::ConnectedAgain), false);
            }
            HostEvent::RematchOffered => rematch_offered(app, lan, language),
            HostEvent::Ended { reason } => end(app, lan, &reason, language),
            HostEvent::Notice(reason) => {
                let text = said(language, &reason);
                if lan.game.is_some() {
                    chrome::show_message(app, &text, true);
                } else {
                    app.global::<LanBridge>().set_host_status(text.into());
                }
            }
        },
        LanMsg::Joiner(update) => joiner_update(app, lan, update, language),
        LanMsg::Joined(result) => joined(app, lan, result, language),
        LanMsg::PageJoined { view, countdown } => {
            lan.game = Some(NetGame::new(1, view, countdown));
            app.global::<LanBridge>().set_join_message("".into());
            chrome::show_message(app, "", false);
            app.set_screen(Screen::Game);
        }
    }
}

/// What the joined device's joiner reports, on screen.
fn joiner_update(app: &AppWindow, lan: &mut Lan, update: JoinerUpdate, language: &str) {
    let JoinerUpdate {
        event,
        view,
        countdown,
    } = update;
    if lan.game.is_none() {
        // Back in a game restored from disk: now there is a view to draw.
        if let (JoinerEvent::Resumed, Some(view)) = (&event, &view) {
            lan.game = Some(NetGame::new(1, view.clone(), countdown));
            app.global::<LanBridge>().set_join_message("".into());
            app.set_screen(Screen::Game);
        }
    }
    match event {
        JoinerEvent::Started { .. } => {
            if let Some(view) = view {
                lan.game = Some(NetGame::new(1, view, countdown));
            }
            chrome::show_message(app, "", false);
        }
        JoinerEvent::Accepted { event, .. } => {
            if let Some(g) = lan.game.as_mut() {
                g.pending = None;
                g.acted(&event, true);
                if let Some(view) = view {
                    g.set_view(view);
                }
                if let crate::games::omiga::view::Act::Placed { .. } = event.act {
                    g.selected = None;
                    g.turned = false;
                }
            }
        }
        JoinerEvent::Rejected { reason, .. } => {
            let text = said(language, &reason);
            if let Some(g) = lan.game.as_mut() {
                g.pending = None;
                g.note = (text.clone(), true);
                g.refused = true;
            }
            chrome::show_message(app, &text, true);
        }
        JoinerEvent::OpponentActed { event } => {
            if let Some(g) = lan.game.as_mut() {
                g.acted(&event, false);
                if let Some(view) = view {
                    g.set_view(view);
                }
            }
        }
        JoinerEvent::RematchOffered => rematch_offered(app, lan, language),
        JoinerEvent::Notice(reason) => chrome::show_message(app, &said(language, &reason), true),
        JoinerEvent::Lost(_) => {
            let text = say(language, LanText::ConnectionLost);
            if let Some(g) = lan.game.as_mut() {
                g.paused = Some(text.clone());
            }
            chrome::show_message(app, &text, true);
        }
        JoinerEvent::Retrying(_) => {}
        JoinerEvent::Resumed => {
            if let Some(g) = lan.game.as_mut() {
                g.paused = None;
                // A browser's joiner paired again on its pairing screen.
                app.set_screen(Screen::Game);
                if let Some(view) = view {
                    g.set_view(view);
                }
                if !countdown.is_zero() {
                    g.countdown_until = Some(Instant::now() + countdown);
                }
            }
            chrome::show_message(app, &say(language, LanText::ConnectedAgain), false);
        }
        JoinerEvent::Settled { applied, .. } => {
            let text = if applied {
                say(language, LanText::SettledApplied)
            } else {
                say(language, LanText::SettledLost)
            };
            if let Some(g) = lan.game.as_mut() {
                g.pending = None;
                if !applied {
                    // The action sent before the drop was lost: heard as refused.
                    g.note = (text.clone(), true);
                    g.refused = true;
                }
            }
            chrome::show_message(app, &text, !applied);
        }
        JoinerEvent::Ended(reason) => end(app, lan, &reason, language),
    }
}

/// The other device asks for a rematch (host or client alike).
fn rematch_offered(app: &AppWindow, lan: &mut Lan, language: &str) {
    if let Some(g) = lan.game.as_mut() {
        g.rematch_offered = true;
    }
    chrome::show_message(app, &say(language, LanText::PlayerAsksRematch), false);
}

fn end(app: &AppWindow, lan: &mut Lan, reason: &NetReason, language: &str) {
    let text = say(
        language,
        LanText::Ended {
            why: said(language, reason),
        },
    );
    if let Some(g) = lan.game.as_mut() {
        g.paused = None;
        g.ended = Some(text.clone());
    }
    chrome::show_message(app, &text, true);
}

/// Fills the Omiga screen from this device's seat only.
pub fn show(app: &AppWindow, lan: &Lan, language: &str) {
    let Some(g) = lan.game.as_ref() else {
        return;
    };
    app.set_playing("omiga".into());
    app.set_cover_up(false);
    let chrome = app.global::<GameChrome>();
    chrome.set_title(say(language, LanText::Title).into());
    chrome.set_undo_label("".into());
    let you = say(language, LanText::You);
    let them = say(language, LanText::OtherPhone);
    let name = |seat: Seat| {
        if seat == g.seat {
            you.clone()
        } else {
            them.clone()
        }
    };
    let (banner, banner_seat) = match (&g.ended, g.view.outcome.clone()) {
        (Some(text), _) => (text.clone(), None),
        (None, Outcome::Win { seat }) => (
            if seat == g.seat {
                say(language, LanText::YouWin)
            } else {
                say(language, LanText::OtherWins)
            },
            Some(seat),
        ),
        (None, Outcome::Draw) => (say(language, OmigaText::Draw), None),
        _ if g.paused.is_some() => (say(language, LanText::ConnectionLost), None),
        _ => (
            say(
                language,
                LanText::PlayYouAre {
                    side: side_word(g.seat, language).to_string(),
                },
            ),
            Some(g.seat),
        ),
    };
    chrome.set_banner(banner.into());
    chrome.set_banner_seat(banner_seat.map_or(-1, |s| s as i32));
    chrome.set_banner_color(banner_seat.map_or(0, |s| s as i32));

    let bridge = app.global::<OmigaBridge>();
    let (w, h) = (g.view.width, g.view.height);
    let legal = if lan.playing() { g.legal() } else { Vec::new() };
    let empty: Vec<(u8, u8)> = Vec::new();
    let legal_by_seat = if g.seat == 0 {
        [&legal[..], &empty[..]]
    } else {
        [&empty[..], &legal[..]]
    };
    let own_side = if g.seat == 0 {
        Side::White
    } else {
        Side::Black
    };
    let pending = g.pending.as_ref().and_then(|a| match a {
        Action::Place {
            card,
            rotated,
            x,
            y,
        } => Some((
            u8::try_from(*x).ok()?,
            u8::try_from(*y).ok()?,
            own_side,
            card.oriented(*rotated),
        )),
        Action::Discard => None,
    });
    let cells = board_cells(
        (w, h),
        |x, y| {
            g.view
                .cells
                .iter()
                .find(|c| c.x == x && c.y == y)
                .map(|c| (c.side, c.card))
        },
        legal_by_seat,
        g.last,
        g.view.outcome.is_over(),
        pending,
        g.seat == 1,
        language,
    );
    bridge.set_columns(w.into());
    bridge.set_rows(h.into());
    rows::update_rows(bridge.get_cells(), cells, |m| bridge.set_cells(m));
    // Only this seat's hand exists here; a card sent and not yet confirmed leaves it.
    let mut hand = g.view.hand.clone();
    let mut selected = g.selected;
    if g.pending.is_some() {
        if let Some(i) = g.selected {
            if i < hand.len() {
                hand.remove(i);
            }
        }
        selected = None;
    }
    let own = ModelRc::new(VecModel::from(hand_models(
        g.seat, &hand, selected, g.turned, language,
    )));
    let none = ModelRc::new(VecModel::from(Vec::new()));
    let far = 1 - g.seat;
    let far_count = g.view.hand_sizes.get(far).copied().unwrap_or(0);
    let deck = |seat: Seat| {
        say(
            language,
            OmigaText::InDeck {
                n: g.view.deck_counts.get(seat).copied().unwrap_or(0),
            },
        )
    };
    let playing = lan.playing();
    let can_discard = playing && g.view.can_discard && g.pending.is_none();
    let (note, warn) = g.note.clone();
    for seat in 0..2 {
        let mine = seat == g.seat;
        let hand = if mine { own.clone() } else { none.clone() };
        let label = say(
            language,
            OmigaText::Hand {
                name: name(seat).to_string(),
            },
        );
        let (note, warn) = if mine {
            (note.clone(), warn)
        } else {
            (String::new(), false)
        };
        if seat == 0 {
            bridge.set_white_hand(hand);
            bridge.set_white_name(name(0).into());
            bridge.set_white_color(0);
            bridge.set_white_deck(deck(0).into());
            bridge.set_white_can_discard(mine && can_discard);
            bridge.set_white_note(note.into());
            bridge.set_white_note_warning(warn);
            bridge.set_white_hand_label(label.into());
        } else {
            bridge.set_black_hand(hand);
            bridge.set_black_name(name(1).into());
            bridge.set_black_color(1);
            bridge.set_black_deck(deck(1).into());
            bridge.set_black_can_discard(mine && can_discard);
            bridge.set_black_note(note.into());
            bridge.set_black_note_warning(warn);
            bridge.set_black_hand_label(label.into());
        }
    }
    bridge.set_remote(true);
    bridge.set_near_seat(g.seat as i32);
    bridge.set_far_count(far_count as i32);
    bridge.set_far_label(
        format!(
            "{}: {}",
            say(
                language,
                OmigaText::Hand {
                    name: name(far).to_string()
                }
            ),
            say(language, LanText::FarCards { n: far_count })
        )
        .into(),
    );
    bridge.set_can_turn(g.view.allow_rotation);
    let over = g.view.outcome.is_over() || g.ended.is_some();
    bridge.set_countdown(if over || g.paused.is_some() {
        0
    } else {
        g.countdown_left()
    });
    bridge.set_paused(g.paused.clone().unwrap_or_default().into());
    bridge.set_over(over);
    let result = if let Some(text) = &g.ended {
        text.clone()
    } else if g.rematch_asked {
        say(language, LanText::RematchAsked)
    } else if g.rematch_offered {
        say(language, LanText::PhoneAsksRematch)
    } else {
        match g.view.outcome {
            Outcome::Win { seat } if seat == g.seat => say(language, LanText::YouWin),
            Outcome::Win { .. } => say(language, LanText::OtherWins),
            Outcome::Draw => say(language, OmigaText::Draw),
            _ => String::new(),
        }
    };
    bridge.set_result(result.into());
}

/// A tap from the Omiga screen while a networked game is on. `seat` is ignored: this
/// device only ever acts for its own seat.
pub enum Tap {
    /// A hand card.
    Hand(usize),
    /// A cell.
    Cell(i32, i32),
    /// The discard button.
    Discard,
    /// The countdown's second passed.
    Tick,
    /// Rematch.
    Rematch,
}

/// Handles a tap; a refusal comes back as a message (never a panic).
pub fn tap(lan: &mut Lan, tap: Tap, language: &str) -> Result<(), String> {
    let playing = lan.playing();
    let Some(g) = lan.game.as_mut() else {
        return Ok(());
    };
    let not_now = |g: &NetGame| {
        if let Some(p) = &g.paused {
            p.clone()
        } else if g.ended.is_some() || g.view.outcome.is_over() {
            say(language, OmigaText::GameOver)
        } else {
            say(language, OmigaText::WaitCountdown)
        }
    };
    match tap {
        Tap::Tick => {
            if g.countdown_left() == 0 {
                g.countdown_until = None;
            }
            Ok(())
        }
        Tap::Hand(index) => {
            if !playing {
                return Err(not_now(g));
            }
            if g.pending.is_some() {
                return Err(say(language, LanText::WaitForHost));
            }
            if index >= g.view.hand.len() {
                return Err(say(language, OmigaText::CardGone));
            }
            if g.selected == Some(index) {
                if g.view.allow_rotation {
                    g.turned = !g.turned;
                } else {
                    g.selected = None;
                }
            } else {
                g.selected = Some(index);
                g.turned = false;
            }
            g.note = Default::default();
            Ok(())
        }
        Tap::Cell(x, y) => {
            if !playing {
                return Err(not_now(g));
            }
            if g.pending.is_some() {
                return Err(say(language, LanText::WaitForHost));
            }
            let Some(card) = g.selected_card() else {
                return Err(say(language, OmigaText::PickFirst));
            };
            let action = Action::Place {
                card,
                rotated: g.turned,
                x,
                y,
            };
            send(&lan.link, g, action, language)
        }
        Tap::Discard => {
            if !playing {
                return Err(not_now(g));
            }
            send(&lan.link, g, Action::Discard, language)
        }
        Tap::Rematch => {
            let result = match &lan.link {
                Link::Host { host, .. } => host.rematch().map_err(|e| said(language, &e.reason())),
                Link::Client(joiner) => joiner.rematch().map_err(|e| said(language, &e.reason())),
                #[cfg(target_arch = "wasm32")]
                Link::Page(page) => page.rematch().map_err(|e| said(language, &e.reason())),
                _ => Err(not_now(g)),
            };
            if result.is_ok() {
                g.rematch_asked = true;
            }
            result
        }
    }
}

/// Sends an action: the host judges its own player's at once; the joined device's answer
/// comes back as an event (its card waits on the cell until then).
fn send(link: &Link, g: &mut NetGame, action: Action, language: &str) -> Result<(), String> {
    match link {
        Link::Host { host, .. } => match host.act(action) {
            Ok(event) => {
                g.acted(&event, true);
                if let Action::Place { .. } = action {
                    g.selected = None;
                    g.turned = false;
                }
                g.note = Default::default();
                if let Ok(view) = host.view() {
                    g.set_view(view);
                }
                Ok(())
            }
            Err(e) => {
                let text = said(language, &e.reason());
                g.note = (text.clone(), true);
                Err(text)
            }
        },
        #[cfg(target_arch = "wasm32")]
        Link::Page(page) if page.hosts() => match page.host_act(action) {
            Ok((event, view)) => {
                g.acted(&event, true);
                if let Action::Place { .. } = action {
                    g.selected = None;
                    g.turned = false;
                }
                g.note = Default::default();
                g.set_view(view);
                Ok(())
            }
            Err(e) => {
                let text = said(language, &e.reason());
                g.note = (text.clone(), true);
                Err(text)
            }
        },
        #[cfg(target_arch = "wasm32")]
        Link::Page(_) if g.paused.is_some() => Err(g.paused.clone().unwrap_or_default()),
        #[cfg(target_arch = "wasm32")]
        Link::Page(page) => match page.join_act(action) {
            Ok(()) => {
                g.note = Default::default();
                if let Action::Place { .. } = action {
                    g.pending = Some(action);
                }
                Ok(())
            }
            Err(e) => Err(said(language, &e.reason())),
        },
        Link::Client(_) | Link::Idle if g.paused.is_some() => {
            Err(g.paused.clone().unwrap_or_default())
        }
        Link::Client(joiner) => match joiner.act(action) {
            Ok(()) => {
                g.note = Default::default();
                if let Action::Place { .. } = action {
                    g.pending = Some(action);
                }
                Ok(())
            }
            Err(e) => Err(said(language, &e.reason())),
        },
        Link::Idle => Err(String::new()),
    }
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
    {
        bridge.set_paired_by_text(true);
        on!(bridge, on_use_text, |app, c, text: slint::SharedString| {
            if let Some(Link::Page(link)) = c.lan.as_ref().map(|l| &l.link) {
                link.use_text(&app, &text);
            }
        });
        on!(bridge, on_copy_text, |app, c| {
            super::rtc::copy_text(&app, c.language())
        });
        // The camera reads the other phone's code (only the browser pairs by texts).
        bridge.set_can_scan(true);
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

#[cfg(test)]
mod tests {
    use super::NetGame;
    use crate::games::omiga::Omiga;
    use crate::games::Game;
    use crate::platform::time::Duration;
    use crate::sound::Cue;

    /// White's card at 4,6 lies behind Black's 4,5 and wins at once (docs/rules-omiga.md).
    const WIN: &str =
        "table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG;3,6:w:DD-GG hands=ND-GG|DD-KK decks=PN-GK|";

    #[test]
    fn a_winning_card_buzzes_and_ends_the_game_on_both_devices() {
        let mut game = Omiga::from_position(WIN).unwrap();
        let mut host = NetGame::new(0, game.view(0), Duration::ZERO);
        let mut joiner = NetGame::new(1, game.view(1), Duration::ZERO);
        assert!(host.heard().is_empty() && joiner.heard().is_empty());
        let event = game.play(0, &"place ND-GG@4,6".parse().unwrap()).unwrap();
        // The host placed it; the joined device is told of the other side's card.
        host.acted(&event, true);
        host.set_view(game.view(0));
        joiner.acted(&event, false);
        joiner.set_view(game.view(1));
        let (here, there) = (host.heard(), joiner.heard());
        assert_eq!(here.cues, [Cue::PlacedNear, Cue::Won]);
        assert_eq!(there.cues, [Cue::PlacedFar, Cue::Won]);
        assert!(
            here.buzz && there.buzz,
            "both phones buzz at the winning card"
        );
        assert!(host.heard().is_empty(), "heard once");
    }
}
