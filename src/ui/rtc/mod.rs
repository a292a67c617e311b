//! Two phones (issue 31; the app's end, issue 40): the host and join screens pair two
//! devices by pairing texts (`net::pairing`, carried by copy and paste, or shown as a QR
//! code that the other phone's camera reads: `platform::camera`, the browser only), and
//! the page drivers (`net::page`) run the match over the WebRTC data channel on the UI
//! thread, from a Slint timer. The engine under it is the browser's (`net::rtc`) or, in
//! the app, str0m's (`net::rtc_native`): `engine` is the one seam between them. What the drivers report goes
//! into the same inbox as the LAN's network threads fill (`ui::inbox`), so the networked
//! table is `ui::lan`'s, drawn the same on both transports; `ui::lan` holds the
//! [`PageLink`] these screens make.

use super::inbox::{Inbox, LanMsg};
use super::texts::{self, LanText};
use super::{reasons, AppWindow, LanBridge, Screen};
use crate::games::omiga::{Action, OmigaEvent, OmigaView};
use crate::games::Params;
use crate::net::joiner::{JoinerEvent, JoinerUpdate};
use crate::net::page::{PageHost, PageJoiner, RTC_TIMING};
use crate::net::pairing::{self, PairingKind};
use crate::net::protocol::{ClientMsg, HostMsg};
use crate::net::{NetError, NetReason};
use crate::platform::time::{Duration, Instant};
use engine::{Channel, Engine, Fault, Waker, TICK};
use scan::{scan_off, scan_step, Scan};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

mod engine;
mod scan;

#[cfg(not(target_arch = "wasm32"))]
pub use engine::use_addresses;

/// A pairing whose answer the host took in and whose channel has not opened in this time
/// has met a network that keeps the phones apart (or texts from two different attempts):
/// the players are told why.
const OPEN_WITHIN: Duration = Duration::from_secs(20);

/// The joining page cannot know when the host takes its answer in: a person walks over
/// and scans it, or it goes through a messenger. Its answer stays good this long, and
/// only then does the page say the phones did not connect. Its engine may give its own
/// checks up long before (Firefox after 5 s, Mozilla bug 1647289; Chromium says "failed"):
/// the connection is kept all the same, since the host's checks, once it has the answer,
/// still reach it and connect (`net::rtc`: a joining page's early "failed" is no failure).
const ANSWER_WAITS: Duration = Duration::from_secs(180);

/// The browser bench's User Timing names (`tests/browser/rtc.py --bench`): the joiner's
/// action sent, and from there to the host's answer taken in (one round trip over the
/// data channel; each page takes a message in as its event fires, no timer between).
const ACT_MARK: &str = "hotseat-rtc-act";
const ROUND_TRIP: &str = "hotseat-rtc-round-trip";

type HostDriver = PageHost<Channel<HostMsg, ClientMsg>>;
type JoinDriver = PageJoiner<Channel<ClientMsg, HostMsg>>;

enum Role {
    Host(Box<HostDriver>),
    /// None until the first channel opens (then the join code is known). Both boxed:
    /// the app's channel holds its whole WebRTC engine.
    Join(Option<Box<JoinDriver>>),
}

/// A pairing attempt under way, with what the page has shown of it.
struct Attempt {
    pairing: Engine,
    /// This page's text, once made.
    text: Option<String>,
    /// When the other phone's text was taken in (the channel should open soon after).
    answered: Option<Instant>,
    /// The joining side: when its answer showed (`Some(None)` until then).
    joined: Option<Option<Instant>>,
}

pub(super) struct PageState {
    role: Role,
    attempt: Option<Attempt>,
    /// The camera, while it reads the other phone's code.
    scan: Option<Scan>,
    /// The join code the host's text carried (the joiner's first hello says it).
    code: String,
    /// The joiner has been welcomed once (its table is on).
    welcomed: bool,
    /// The page said "pair again" for the current loss.
    asked_again: bool,
    /// When the host's last channel opened: its hello is awaited before a new offer.
    connected_at: Option<Instant>,
    language: &'static str,
    /// Where the joiner keeps its seat (the browser's storage; `None` keeps nothing).
    store: Option<PathBuf>,
    /// Runs a beat at once when the data channel has news (set once the state exists).
    wake: Option<Waker>,
}

impl PageState {
    /// A new attempt at pairing with `pairing`'s engine, woken by this page's waker; a
    /// joining attempt waits for its answer to show.
    fn begin(&mut self, pairing: Engine, joining: bool) {
        if let Some(wake) = &self.wake {
            pairing.wake_with(wake.clone());
        }
        self.attempt = Some(Attempt {
            pairing,
            text: None,
            answered: None,
            joined: joining.then_some(None),
        });
    }
}

/// The two-phone link (a browser page's, or the app's): the driver and its timer.
pub struct PageLink {
    state: Rc<RefCell<PageState>>,
    _timer: slint::Timer,
}

pub(super) fn say(language: &str, text: LanText) -> String {
    texts::say(&text, language)
}

fn said(language: &str, reason: &NetReason) -> String {
    reasons::say(reason, language)
}

/// A pairing fault in the player's words.
fn fault_text(language: &str, fault: Fault) -> String {
    let web = cfg!(target_arch = "wasm32");
    let text = match fault {
        Fault::NoWebRtc => LanText::NoWebRtc,
        Fault::CannotDescribe if web => LanText::CannotDescribe,
        Fault::CannotDescribe => LanText::AppCannotDescribe,
        Fault::Refused if web => LanText::TextRefused,
        Fault::Refused => LanText::AppTextRefused,
        Fault::LinkFailed => LanText::NoLink,
        Fault::NoNetwork => LanText::NoNetwork,
        Fault::NoPort(why) => LanText::NoPort { why },
    };
    say(language, text)
}

pub(super) fn message(app: &AppWindow, text: &str, warning: bool) {
    let b = app.global::<LanBridge>();
    b.set_pair_message(text.into());
    b.set_pair_message_warning(warning);
}

impl PageLink {
    fn start(
        app: &AppWindow,
        inbox: Inbox,
        role: Role,
        language: &'static str,
        store: Option<PathBuf>,
    ) -> PageLink {
        let code = match &role {
            Role::Host(h) => h.code().to_string(),
            Role::Join(_) => String::new(),
        };
        let state = Rc::new(RefCell::new(PageState {
            role,
            attempt: None,
            scan: None,
            code,
            welcomed: false,
            asked_again: false,
            connected_at: None,
            language,
            store,
            wake: None,
        }));
        // A beat as soon as a message (or the channel's opening or end) arrives: the
        // answer goes out within the same event, not on the next timer. Weak both ways:
        // the waker lives in the channels the state owns.
        let waker: Waker = {
            let (weak, state, inbox) = (app.as_weak(), Rc::downgrade(&state), inbox.clone());
            Rc::new(move || {
                let (Some(app), Some(state)) = (weak.upgrade(), state.upgrade()) else {
                    return;
                };
                // Busy means a beat is under way (an event fired inside it): it sees the news.
                if state.try_borrow_mut().is_ok() {
                    tick(&app, &state, &inbox);
                }
            })
        };
        state.borrow_mut().wake = Some(waker);
        // The first beat now: the host's first offer (and, in the app, its text) shows
        // with the screen, not a beat later.
        tick(app, &state, &inbox);
        let timer = slint::Timer::default();
        let weak = app.as_weak();
        let ticked = state.clone();
        timer.start(slint::TimerMode::Repeated, TICK, move || {
            if let Some(app) = weak.upgrade() {
                tick(&app, &ticked, &inbox);
            }
        });
        PageLink {
            state,
            _timer: timer,
        }
    }

    /// Whether this page hosts.
    pub fn hosts(&self) -> bool {
        matches!(self.state.borrow().role, Role::Host(_))
    }

    /// Plays White's action on the hosting page.
    pub fn host_act(&self, action: Action) -> Result<(OmigaEvent, OmigaView), NetError> {
        let mut state = self.state.borrow_mut();
        match &mut state.role {
            Role::Host(h) => {
                let event = h.act(&action, Instant::now())?;
                Ok((event, h.view()))
            }
            Role::Join(_) => Err(NetError::Stopped),
        }
    }

    /// The host's view of its match, on the hosting page.
    pub fn host_view(&self) -> Option<OmigaView> {
        match &self.state.borrow().role {
            Role::Host(h) => Some(h.view()),
            Role::Join(_) => None,
        }
    }

    /// Sends Black's action from the joining page (its fate comes as an update).
    pub fn join_act(&self, action: Action) -> Result<(), NetError> {
        let mut state = self.state.borrow_mut();
        match &mut state.role {
            Role::Join(Some(j)) => {
                j.act(action, Instant::now())?;
                crate::platform::mark(ACT_MARK);
                Ok(())
            }
            _ => Err(NetError::Refused(NetReason::WaitForReconnect)),
        }
    }

    /// Asks for (or agrees to) a rematch.
    pub fn rematch(&self) -> Result<(), NetError> {
        let mut state = self.state.borrow_mut();
        match &mut state.role {
            Role::Host(h) => {
                h.rematch(Instant::now());
                Ok(())
            }
            Role::Join(Some(j)) => j.rematch(Instant::now()),
            Role::Join(None) => Err(NetError::Refused(NetReason::RematchNeedsBoth)),
        }
    }

    /// Ends the pairing on purpose: the other page is told (and the camera goes off).
    pub fn leave(&self) {
        let mut state = self.state.borrow_mut();
        state.attempt = None;
        state.scan = None;
        match &mut state.role {
            Role::Host(h) => h.leave(Instant::now()),
            Role::Join(Some(j)) => j.leave(Instant::now()),
            Role::Join(None) => {}
        }
    }
}

/// This page's pairing text on screen, with its QR code ("" while there is none).
fn show_own(app: &AppWindow, text: &str) {
    let b = app.global::<LanBridge>();
    b.set_own_text(text.into());
    let qr = if text.is_empty() {
        None
    } else {
        super::qr::qr_image(text)
    };
    b.set_own_qr(qr.unwrap_or_default());
}

/// One beat of the page: the pairing under way, then the driver; what the players are
/// told goes to the LAN inbox (the table) or the pairing screens.
fn tick(app: &AppWindow, state: &Rc<RefCell<PageState>>, inbox: &Inbox) {
    let now = Instant::now();
    let mut guard = state.borrow_mut();
    // Through the guard once, so that the fields borrow apart.
    let s: &mut PageState = &mut guard;
    let language = s.language;
    scan_step(app, s);
    pair_step(app, s, now);
    let mut to_table = Vec::new();
    let mut offer_again = false;
    let mut lost = false;
    match &mut s.role {
        Role::Host(h) => {
            to_table.extend(h.step(now).into_iter().map(LanMsg::Host));
            // Nobody in the game: a fresh offer, for the first join or to come back (not
            // while a channel just opened waits for its hello).
            let greeting = s.connected_at.is_some_and(|at| {
                now.saturating_duration_since(at) < RTC_TIMING.hello_within + TICK
            });
            let empty = !h.has_device() && !h.over();
            offer_again = empty && s.attempt.is_none() && !greeting;
            lost = empty && s.welcomed && !s.asked_again;
            if h.has_device() {
                s.welcomed = true;
                s.asked_again = false;
            }
        }
        Role::Join(Some(j)) => {
            for event in j.step(now) {
                if matches!(
                    event,
                    JoinerEvent::Accepted { .. } | JoinerEvent::Rejected { .. }
                ) {
                    crate::platform::measure(ROUND_TRIP, ACT_MARK);
                }
                to_table.push(LanMsg::Joiner(JoinerUpdate {
                    event,
                    view: j.view().cloned(),
                    countdown: j.countdown(),
                }));
            }
            if let Some(e) = j.take_failure() {
                let why = said(language, &e.reason());
                message(app, &say(language, LanText::CouldNotJoin { why }), true);
                s.role = Role::Join(None);
            } else if j.connected() {
                if !s.welcomed {
                    s.welcomed = true;
                    if let Some(view) = j.view().cloned() {
                        to_table.push(LanMsg::PageJoined {
                            view,
                            countdown: j.countdown(),
                        });
                    }
                }
                s.asked_again = false;
            } else if j.wants_link() && s.welcomed && !s.asked_again && s.attempt.is_none() {
                // The channel is gone for good: the players pair the pages again.
                s.asked_again = true;
                let b = app.global::<LanBridge>();
                show_own(app, "");
                b.set_pasted_text("".into());
                message(app, &say(language, LanText::PairAgainJoin), true);
                app.set_screen(Screen::LanJoin);
            }
        }
        Role::Join(None) => {}
    }
    if offer_again {
        start_offer(app, s, language);
    }
    if lost {
        // The game was on: the host's player shows the new text to the other phone.
        s.asked_again = true;
        app.global::<LanBridge>()
            .set_host_status(say(language, LanText::PairAgainHost).into());
        // The last pairing's "Joining…" would read as if the new one were under way.
        message(app, "", false);
        app.set_screen(Screen::LanHost);
    }
    drop(guard);
    for msg in to_table {
        inbox.push(msg);
    }
}

/// Starts an offer on the hosting page (its text is shown once made).
fn start_offer(app: &AppWindow, s: &mut PageState, language: &str) {
    let b = app.global::<LanBridge>();
    show_own(app, "");
    b.set_pasted_text("".into());
    match Engine::offer() {
        Ok(pairing) => {
            s.begin(pairing, false);
            // The app's text is ready at once (the browser's once gathered, later).
            pair_step(app, s, Instant::now());
        }
        Err(fault) => {
            let why = fault_text(language, fault);
            b.set_host_status(say(language, LanText::CannotHost { why }).into());
        }
    }
}

/// The pairing under way: its text once made, its failure, its channel once open.
fn pair_step(app: &AppWindow, s: &mut PageState, now: Instant) {
    let code = s.code.clone();
    let language = s.language;
    let store = s.store.clone();
    let Some(attempt) = s.attempt.as_mut() else {
        return;
    };
    let hosting = matches!(s.role, Role::Host(_));
    attempt.pairing.poll(now);
    if let Some(fault) = attempt.pairing.failure() {
        s.attempt = None;
        let why = fault_text(language, fault);
        message(app, &say(language, LanText::PairFailed { why }), true);
        // The host makes a new offer at its next beat; the joiner waits for a new text.
        return;
    }
    if attempt.text.is_none() {
        if let Some(sdp) = attempt.pairing.local_sdp() {
            let (kind, code) = if hosting {
                (PairingKind::Offer, Some(code.as_str()))
            } else {
                (PairingKind::Answer, None)
            };
            match pairing::encode(kind, &sdp, code) {
                Ok(text) => {
                    crate::platform::mark(if hosting {
                        "hs-offer-shown"
                    } else {
                        "hs-answer-shown"
                    });
                    show_own(app, &text);
                    if !hosting {
                        // The joiner's part is done when its answer shows: the channel
                        // opens once the host has taken it in.
                        attempt.answered = Some(now);
                        if let Some(shown @ None) = &mut attempt.joined {
                            *shown = Some(now);
                        }
                        message(app, &say(language, LanText::AnswerReady), false);
                    }
                    attempt.text = Some(text);
                }
                Err(problem) => {
                    s.attempt = None;
                    let why = said(language, &NetReason::Pairing { problem });
                    message(app, &say(language, LanText::PairFailed { why }), true);
                    return;
                }
            }
        }
    }
    // The host counts from the answer taken in; the joiner from its first answer shown.
    let (since, within) = match attempt.joined {
        Some(shown) => (shown, ANSWER_WAITS),
        None => (attempt.answered, OPEN_WITHIN),
    };
    if since.is_some_and(|at| now.saturating_duration_since(at) >= within) {
        s.attempt = None;
        message(app, &say(language, LanText::NoLink), true);
        return;
    }
    let opened = match &mut s.role {
        Role::Host(h) => match attempt.pairing.channel() {
            Some(channel) => {
                h.connect(channel, now);
                s.connected_at = Some(now);
                true
            }
            None => false,
        },
        Role::Join(joiner) => match attempt.pairing.channel() {
            Some(channel) => {
                match joiner {
                    Some(j) => j.linked(channel, now),
                    None => {
                        *joiner = Some(Box::new(PageJoiner::join(
                            &code, RTC_TIMING, channel, store, now,
                        )));
                    }
                }
                true
            }
            None => false,
        },
    };
    if opened {
        crate::platform::mark("hs-channel-open");
        s.attempt = None;
        message(app, &say(language, LanText::Joining), false);
    }
}

/// Clears the pairing screens for a new attempt: no text of this page's yet, nothing
/// pasted, no message, no camera.
fn fresh_pairing_screen(app: &AppWindow) {
    let b = app.global::<LanBridge>();
    b.set_paired_by_text(true);
    b.set_can_scan(engine::CAN_SCAN);
    show_own(app, "");
    b.set_pasted_text("".into());
    message(app, "", false);
    // A scan left running when the screen was left went off with its link.
    scan_off(app);
}

/// The hosting page: a match (the saved one if it is recent enough, `PageHost::open`) and
/// its first offer; `None` when no match could be opened (the host screen says why).
pub fn host(
    app: &AppWindow,
    language: &'static str,
    params: Params,
    store: Option<PathBuf>,
    inbox: Inbox,
) -> Option<PageLink> {
    fresh_pairing_screen(app);
    let b = app.global::<LanBridge>();
    app.set_screen(Screen::LanHost);
    match PageHost::open(params, RTC_TIMING, store.clone(), Instant::now()) {
        Ok((driver, resumed)) => {
            let status = if resumed {
                LanText::ContinuingSaved
            } else {
                LanText::WaitingToJoin
            };
            b.set_host_status(say(language, status).into());
            Some(PageLink::start(
                app,
                inbox,
                Role::Host(Box::new(driver)),
                language,
                store,
            ))
        }
        Err(e) => {
            let why = said(language, &e.reason());
            b.set_host_status(say(language, LanText::CannotHost { why }).into());
            None
        }
    }
}

/// The joining page: a seat kept from before a reload comes back once paired again.
pub fn open_join(
    app: &AppWindow,
    language: &'static str,
    store: Option<PathBuf>,
    inbox: Inbox,
) -> PageLink {
    fresh_pairing_screen(app);
    let kept = store.clone().and_then(|dir| {
        PageJoiner::restore(dir, RTC_TIMING, Instant::now())
            .map_err(|e| crate::note!("{e}"))
            .ok()
            .flatten()
            .map(Box::new)
    });
    if kept.is_some() {
        message(app, &say(language, LanText::ComingBackPaste), false);
    }
    app.set_screen(Screen::LanJoin);
    PageLink::start(app, inbox, Role::Join(kept), language, store)
}

impl PageLink {
    /// The other phone's text, pasted: the host takes the answer in, the joiner answers
    /// the offer. Every fault is said on the screen; nothing panics.
    pub fn use_text(&self, app: &AppWindow, text: &str) {
        take_text(app, &mut self.state.borrow_mut(), text);
    }
}

/// The other phone's text, pasted or read by the camera: the host takes the answer in, the
/// joiner answers the offer. Every fault is said on the screen; nothing panics.
pub(super) fn take_text(app: &AppWindow, s: &mut PageState, text: &str) {
    if s.scan.take().is_some() {
        scan_off(app);
    }
    let language = s.language;
    let hosting = matches!(s.role, Role::Host(_));
    let wanted = if hosting {
        PairingKind::Answer
    } else {
        PairingKind::Offer
    };
    let read = match pairing::decode(text).and_then(|p| p.expect(wanted)) {
        Ok(read) => read,
        Err(problem) => {
            let why = said(language, &NetReason::Pairing { problem });
            message(app, &why, true);
            return;
        }
    };
    if hosting {
        match s.attempt.as_mut() {
            Some(attempt) if attempt.text.is_some() => {
                match attempt.pairing.take_answer(&read.sdp) {
                    Ok(()) => {
                        attempt.answered = Some(Instant::now());
                        message(app, &say(language, LanText::Connecting), false);
                    }
                    Err(fault) => {
                        // A text from an older attempt, or not an answer to this offer:
                        // said, and the same offer still waits for the right answer.
                        let why = fault_text(language, fault);
                        message(app, &say(language, LanText::PairFailed { why }), true);
                    }
                }
            }
            _ => message(app, &say(language, LanText::PairMaking), false),
        }
        return;
    }
    // A kept seat keeps its own code (the host checks the token); a first join takes
    // the offer's.
    if let Some(code) = read.join_code {
        if matches!(s.role, Role::Join(None)) {
            s.code = code;
        }
    }
    match Engine::answer(&read.sdp) {
        Ok(pairing) => {
            s.begin(pairing, true);
            show_own(app, "");
            message(app, &say(language, LanText::PairMaking), false);
            // The app's answer is ready at once (the browser's once gathered, later).
            pair_step(app, s, Instant::now());
        }
        Err(fault) => {
            let why = fault_text(language, fault);
            message(app, &say(language, LanText::PairFailed { why }), true);
        }
    }
}

/// Copies this page's pairing text to the clipboard (the player pastes it in a message
/// to the other phone, or the other phone's field).
#[cfg(target_arch = "wasm32")]
pub fn copy_text(app: &AppWindow, language: &'static str) {
    let text = app.global::<LanBridge>().get_own_text().to_string();
    let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else {
        message(app, &say(language, LanText::CannotCopy), true);
        return;
    };
    let weak = app.as_weak();
    wasm_bindgen_futures::spawn_local(async move {
        let done = wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&text)).await;
        if let Some(app) = weak.upgrade() {
            match done {
                Ok(_) => message(&app, &say(language, LanText::Copied), false),
                Err(_) => message(&app, &say(language, LanText::CannotCopy), true),
            }
        }
    });
}

/// The app: the screen's Copy button copied the text through its own hidden text field
/// (Slint has no clipboard call for Rust); this says so.
#[cfg(not(target_arch = "wasm32"))]
pub fn copy_text(app: &AppWindow, language: &'static str) {
    message(app, &say(language, LanText::Copied), false);
}
