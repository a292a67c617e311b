//! Two phones in the browser (issue 31): the host and join screens pair two pages by
//! pairing texts (`net::pairing`, carried by copy and paste, or shown as a QR code that the
//! other phone's camera reads: `platform::camera`), and
//! the page drivers (`net::page`) run the match over the WebRTC data channel
//! (`net::rtc`) on the page's one thread, from a Slint timer. What the drivers report goes
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
use crate::net::rtc::{Pairing, RtcChannel, RtcFault, Waker};
use crate::net::{NetError, NetReason};
use crate::platform::camera::{self, CameraScan};
use crate::platform::time::{Duration, Instant};
use slint::{ComponentHandle, Image, Rgba8Pixel, SharedPixelBuffer};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

/// How often the page's timer feeds the drivers the clock (heartbeats, silences, the
/// camera's frames, ICE gathering): well under the 1 s heartbeat. What arrives on the data
/// channel does not wait for it: the channel's own events wake the driver
/// (`Pairing::wake_with`, issue 40).
const TICK: Duration = Duration::from_millis(100);

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
/// And for the camera (`tests/browser/rtc.py`): Scan pressed, and from there to the other
/// phone's text read.
const SCAN_MARK: &str = "hotseat-scan-start";
const SCAN_READ: &str = "hotseat-scan-read";

type HostDriver = PageHost<RtcChannel<HostMsg, ClientMsg>>;
type JoinDriver = PageJoiner<RtcChannel<ClientMsg, HostMsg>>;

enum Role {
    Host(HostDriver),
    /// None until the first channel opens (then the join code is known).
    Join(Option<JoinDriver>),
}

/// A pairing attempt under way, with what the page has shown of it.
struct Attempt {
    pairing: Pairing,
    /// This page's text, once made.
    text: Option<String>,
    /// When the other phone's text was taken in (the channel should open soon after).
    answered: Option<Instant>,
    /// The joining side: when its answer showed (`Some(None)` until then).
    joined: Option<Option<Instant>>,
}

/// A camera frame for the viewfinder: width, height, RGBA.
type Frame = (u32, u32, Vec<u8>);

/// The camera reading the other phone's code: what it has read and seen waits here for the
/// page's next beat (the camera's own timer never reaches into the page's state).
struct Scan {
    camera: CameraScan,
    read: Rc<RefCell<Option<String>>>,
    /// The latest frame for the viewfinder.
    frame: Rc<RefCell<Option<Frame>>>,
}

impl Scan {
    fn failed(&self) -> Option<String> {
        self.camera.failed()
    }
}

struct PageState {
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

/// The browser's two-phone link: the driver and its timer.
pub struct PageLink {
    state: Rc<RefCell<PageState>>,
    _timer: slint::Timer,
}

fn say(language: &str, text: LanText) -> String {
    texts::say(&text, language)
}

fn said(language: &str, reason: &NetReason) -> String {
    reasons::say(reason, language)
}

/// A pairing fault in the player's words.
fn fault_text(language: &str, fault: RtcFault) -> String {
    let text = match fault {
        RtcFault::NoWebRtc => LanText::NoWebRtc,
        RtcFault::CannotDescribe => LanText::CannotDescribe,
        RtcFault::Refused => LanText::TextRefused,
        RtcFault::LinkFailed => LanText::NoLink,
    };
    say(language, text)
}

fn message(app: &AppWindow, text: &str, warning: bool) {
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
    match Pairing::offer() {
        Ok(pairing) => {
            if let Some(wake) = &s.wake {
                pairing.wake_with(wake.clone());
            }
            s.attempt = Some(Attempt {
                pairing,
                text: None,
                answered: None,
                joined: None,
            });
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
                        *joiner = Some(PageJoiner::join(&code, RTC_TIMING, channel, store, now));
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
                Role::Host(driver),
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

    /// Starts the camera to read the other phone's code (Scan pressed); what it reads goes
    /// where a pasted text goes. A camera that cannot start says why; paste still works.
    pub fn scan(&self, app: &AppWindow) {
        let mut state = self.state.borrow_mut();
        if state.scan.is_some() {
            return;
        }
        let language = state.language;
        crate::platform::mark(SCAN_MARK);
        let read = Rc::new(RefCell::new(None));
        let frame = Rc::new(RefCell::new(None));
        let started = {
            let (read, frame) = (read.clone(), frame.clone());
            camera::start(
                move |text| *read.borrow_mut() = Some(text),
                move |w, h, rgba: &[u8]| *frame.borrow_mut() = Some((w, h, rgba.to_vec())),
            )
        };
        match started {
            Ok(camera) => {
                state.scan = Some(Scan {
                    camera,
                    read,
                    frame,
                });
                let b = app.global::<LanBridge>();
                b.set_scan_view(Image::default());
                b.set_scanning(true);
                message(app, "", false);
            }
            Err(why) => message(app, &say(language, camera_text(why)), true),
        }
    }

    /// Switches the camera off (Cancel pressed).
    pub fn stop_scan(&self, app: &AppWindow) {
        self.state.borrow_mut().scan = None;
        scan_off(app);
    }
}

/// The camera's failure in the player's words: refused, none there, or the browser's own.
fn camera_text(why: String) -> LanText {
    if why.contains("NotAllowedError") || why.contains("SecurityError") {
        LanText::CameraRefused
    } else if why.contains("NotFoundError")
        || why.contains("OverconstrainedError")
        || why.contains("cannot use a camera")
    {
        LanText::NoCamera
    } else {
        LanText::CameraFailed { why }
    }
}

/// The scanning state off the screen: no viewfinder, the Scan button back.
fn scan_off(app: &AppWindow) {
    let b = app.global::<LanBridge>();
    b.set_scanning(false);
    b.set_scan_view(Image::default());
}

/// The camera's news on the page's beat: a text read goes where a pasted one goes (the
/// camera is off by then); a failure is said; a new frame shows in the viewfinder.
fn scan_step(app: &AppWindow, s: &mut PageState) {
    let Some(scan) = s.scan.as_ref() else {
        return;
    };
    let read = scan.read.borrow_mut().take();
    if let Some(text) = read {
        crate::platform::measure(SCAN_READ, SCAN_MARK);
        // Shown in the paste field too, so that the player sees what was read.
        app.global::<LanBridge>()
            .set_pasted_text(text.as_str().into());
        // take_text ends the scan.
        take_text(app, s, &text);
        return;
    }
    if let Some(why) = scan.failed() {
        s.scan = None;
        scan_off(app);
        message(app, &say(s.language, camera_text(why)), true);
        return;
    }
    let frame = scan.frame.borrow_mut().take();
    if let Some((w, h, rgba)) = frame {
        let mut pixels = SharedPixelBuffer::<Rgba8Pixel>::new(w, h);
        let bytes = pixels.make_mut_bytes();
        if bytes.len() == rgba.len() {
            bytes.copy_from_slice(&rgba);
            app.global::<LanBridge>()
                .set_scan_view(Image::from_rgba8(pixels));
        }
    }
}

/// The other phone's text, pasted or read by the camera: the host takes the answer in, the
/// joiner answers the offer. Every fault is said on the screen; nothing panics.
fn take_text(app: &AppWindow, s: &mut PageState, text: &str) {
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
                attempt.pairing.take_answer(&read.sdp);
                attempt.answered = Some(Instant::now());
                message(app, &say(language, LanText::Connecting), false);
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
    match Pairing::answer(&read.sdp) {
        Ok(pairing) => {
            if let Some(wake) = &s.wake {
                pairing.wake_with(wake.clone());
            }
            s.attempt = Some(Attempt {
                pairing,
                text: None,
                answered: None,
                joined: Some(None),
            });
            show_own(app, "");
            message(app, &say(language, LanText::PairMaking), false);
        }
        Err(fault) => {
            let why = fault_text(language, fault);
            message(app, &say(language, LanText::PairFailed { why }), true);
        }
    }
}

/// Copies this page's pairing text to the clipboard (the player pastes it in a message
/// to the other phone, or the other phone's field).
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
