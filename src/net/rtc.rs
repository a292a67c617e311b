//! Two browser pages over a WebRTC data channel (issue 31, docs/network.md): the page
//! cannot open a socket, but it can open a data channel to another page once the two
//! have traded an offer and an answer, which the players carry as pairing texts.
//!
//! [`Pairing`] is one attempt: the hosting page makes an offer (ICE gathering waited for
//! to its end, so one text carries every candidate: no trickle), the joining page answers
//! it, the host takes the answer in, and the channel opens. `iceServers` is empty: only
//! host candidates, no STUN, no TURN, nothing on the internet. [`RtcChannel`] is the
//! channel as a [`MessageChannel`]: ordered and reliable (the defaults), one protocol
//! message per data-channel message, the same 16 KiB limit and the same handling of
//! unreadable messages as the TCP transport.
//!
//! The page has one thread: the browser's callbacks only put what arrived in an inbox
//! (`Rc<RefCell<…>>`), which the page's driver (`net::page`) empties; a message, the
//! channel's opening or its end also wakes the driver at once ([`Pairing::wake_with`]),
//! so an answer waits for no timer (issue 40: the round trip at the network's speed).
//!
//! Every engine's quirks (issue 40, research/webrtc-engines.md): the offering page holds
//! the camera's permission before it makes its offer when it can, since Safari (and
//! every engine) shows its real addresses only then instead of mDNS names; messages are
//! JSON text of at most 16 KiB (every engine's safe size) and binary data is read as
//! array buffers (iOS cannot make Blobs of them).

use super::channel::{MessageChannel, Received};
use super::protocol::{ProtocolError, MAX_LINE};
use crate::platform::time::{Duration, Instant};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io;
use std::marker::PhantomData;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    MessageEvent, RtcConfiguration, RtcDataChannel, RtcDataChannelEvent, RtcDataChannelInit,
    RtcDataChannelState, RtcIceGatheringState, RtcPeerConnection, RtcPeerConnectionState,
    RtcSdpType, RtcSessionDescriptionInit,
};

/// A channel whose outgoing buffer holds more than this has a peer that takes nothing
/// in: the link counts as lost (the browser would throw at 16 MiB).
const MAX_BUFFERED: u32 = 256 * 1024;

/// Waited for ICE gathering at most this long; then the text carries the candidates
/// found so far (host candidates come within milliseconds; this is only a guard).
const GATHER_AT_MOST: Duration = Duration::from_secs(4);

/// The offering page waits at most this long for the player to answer the camera's
/// permission prompt before it makes its offer anyway (with mDNS names, then).
const CAMERA_PROMPT_AT_MOST_MS: i32 = 30_000;

/// A peer connection "failed" this long before its channel opened has failed.
const FAILED_FOR: Duration = Duration::from_secs(5);

/// What wakes the page's driver when something arrived.
pub type Waker = Rc<dyn Fn()>;

/// Why a pairing attempt failed, typed so that the app words it in the player's
/// language; the browser's own words go to the console (`note!`) for a bug report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RtcFault {
    /// This browser makes no WebRTC connection (too old, or switched off).
    NoWebRtc,
    /// The browser could not make this page's offer or answer.
    CannotDescribe,
    /// The browser refused the other phone's text (it belongs to another attempt).
    Refused,
    /// The link failed before the channel opened.
    LinkFailed,
}

/// What the browser's callbacks leave for the page's driver.
#[derive(Default)]
struct Inbox {
    /// Whole messages as they came: the text, or why it cannot be used.
    queue: VecDeque<Result<String, ProtocolError>>,
    /// The data channel is open.
    open: bool,
    /// The channel is gone, with why (after what was queued before it).
    closed: Option<ProtocolError>,
    /// Why the pairing failed before a channel opened (a refused offer or answer).
    failed: Option<RtcFault>,
    /// Called after anything arrived (outside the inbox's borrow).
    wake: Option<Waker>,
    /// Since when the peer connection has said "failed" before its channel opened: not
    /// yet the end, since libwebrtc says so when the pairs it learnt from the other
    /// phone's early checks fail and then connects by the answer's own candidates a moment
    /// later (seen with a slow scan, Chromium hosting Firefox). On the joining side it is
    /// never the end: its checks ran before the host had its answer, and the host's
    /// checks come once it has (the app's own wait decides, `ui::rtc::ANSWER_WAITS`).
    failed_since: Option<Instant>,
    /// When this page's description was set: ICE gathering runs from then (the offer
    /// may first wait for the camera's prompt).
    described: Option<Instant>,
}

impl Inbox {
    fn close(&mut self, why: ProtocolError) {
        if self.closed.is_none() {
            self.closed = Some(why);
        }
    }
}

/// Wakes the driver of `inbox`, if it has one, with the inbox no longer borrowed.
fn wake(inbox: &Rc<RefCell<Inbox>>) {
    let waker = inbox.borrow().wake.clone();
    if let Some(waker) = waker {
        waker();
    }
}

type Handler = Closure<dyn FnMut(JsValue)>;

/// The peer connection and its data channel, with the callbacks that fill the inbox.
struct Wire {
    pc: RtcPeerConnection,
    dc: Rc<RefCell<Option<RtcDataChannel>>>,
    inbox: Rc<RefCell<Inbox>>,
    /// The callbacks live as long as the wire (dropped, the browser may not call them).
    handlers: Rc<RefCell<Vec<Handler>>>,
}

impl Wire {
    fn new() -> Result<Wire, RtcFault> {
        let config = RtcConfiguration::new();
        // Only this Wi-Fi: no STUN, no TURN (docs/network.md).
        config.set_ice_servers(&js_sys::Array::new());
        let pc = RtcPeerConnection::new_with_configuration(&config)
            .map_err(|e| fault(RtcFault::NoWebRtc, &e))?;
        let wire = Wire {
            pc,
            dc: Rc::new(RefCell::new(None)),
            inbox: Rc::default(),
            handlers: Rc::default(),
        };
        // Gathering over: the text can be shown at once.
        let inbox = wire.inbox.clone();
        wire.on(
            |h| wire.pc.set_onicegatheringstatechange(h),
            move |_| wake(&inbox),
        );
        // "disconnected" is left alone: it is a blip the browser heals when packets flow
        // again, and the channel survives it. "failed" and "closed" end the channel (before
        // it opened, "failed" only when it lasts: `FAILED_FOR`).
        let (pc, inbox) = (wire.pc.clone(), wire.inbox.clone());
        wire.on(
            |h| wire.pc.set_onconnectionstatechange(h),
            move |_| {
                match pc.connection_state() {
                    RtcPeerConnectionState::Failed if !inbox.borrow().open => {
                        inbox
                            .borrow_mut()
                            .failed_since
                            .get_or_insert_with(Instant::now);
                    }
                    RtcPeerConnectionState::Connecting | RtcPeerConnectionState::Connected => {
                        inbox.borrow_mut().failed_since = None;
                        return;
                    }
                    RtcPeerConnectionState::Failed => inbox.borrow_mut().close(ProtocolError::Io(
                        "the link to the other phone failed".into(),
                    )),
                    RtcPeerConnectionState::Closed => {
                        inbox.borrow_mut().close(ProtocolError::Closed)
                    }
                    _ => return,
                }
                wake(&inbox);
            },
        );
        Ok(wire)
    }

    /// Sets a callback made from `f` with `set`, and keeps it.
    fn on(&self, set: impl FnOnce(Option<&js_sys::Function>), f: impl FnMut(JsValue) + 'static) {
        let handler = Closure::<dyn FnMut(JsValue)>::new(f);
        set(Some(handler.as_ref().unchecked_ref()));
        self.handlers.borrow_mut().push(handler);
    }

    /// Listens on a data channel: messages into the inbox (whole, each checked against the
    /// limit), its open and close.
    fn attach(
        dc: &RtcDataChannel,
        inbox: &Rc<RefCell<Inbox>>,
        handlers: &Rc<RefCell<Vec<Handler>>>,
    ) {
        let keep = |h: Handler| handlers.borrow_mut().push(h);
        // Binary data as array buffers in every engine (Firefox's default is Blob); it is
        // no protocol message either way, but a Blob costs an allocation for nothing.
        let _ = js_sys::Reflect::set(dc, &"binaryType".into(), &"arraybuffer".into());
        let i = inbox.clone();
        let open = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            i.borrow_mut().open = true;
            wake(&i);
        });
        dc.set_onopen(Some(open.as_ref().unchecked_ref()));
        keep(open);
        let (i, channel) = (inbox.clone(), dc.clone());
        let message = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
            let Some(event) = e.dyn_ref::<MessageEvent>() else {
                return;
            };
            {
                let mut inbox = i.borrow_mut();
                if inbox.closed.is_some() {
                    return;
                }
                match event.data().as_string() {
                    // As on TCP: a message over the limit ends the link.
                    Some(text) if text.len() > MAX_LINE => {
                        inbox.close(ProtocolError::TooLong);
                        channel.close();
                    }
                    Some(text) => inbox.queue.push_back(Ok(text)),
                    // Binary data is no protocol message: unreadable, the link stays.
                    None => inbox.queue.push_back(Err(ProtocolError::NotText)),
                }
            }
            wake(&i);
        });
        dc.set_onmessage(Some(message.as_ref().unchecked_ref()));
        keep(message);
        let i = inbox.clone();
        let close = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            i.borrow_mut().close(ProtocolError::Closed);
            wake(&i);
        });
        dc.set_onclose(Some(close.as_ref().unchecked_ref()));
        keep(close);
        let i = inbox.clone();
        let error = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            i.borrow_mut()
                .close(ProtocolError::Io("the data channel failed".into()));
            wake(&i);
        });
        dc.set_onerror(Some(error.as_ref().unchecked_ref()));
        keep(error);
    }

    fn shut(&self) {
        if let Some(dc) = self.dc.borrow().as_ref() {
            dc.set_onmessage(None);
            dc.set_onclose(None);
            dc.set_onerror(None);
            dc.set_onopen(None);
            dc.close();
        }
        self.pc.set_onconnectionstatechange(None);
        self.pc.set_onicegatheringstatechange(None);
        self.pc.set_ondatachannel(None);
        self.pc.close();
    }
}

/// Notes the browser's words in the console and gives the typed fault.
fn fault(kind: RtcFault, e: &JsValue) -> RtcFault {
    crate::note!("WebRTC: {kind:?}: {}", js_text(e));
    kind
}

/// The words of a JavaScript error (its `message`, else its text).
fn js_text(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "no reason given".into())
}

/// Which side of a pairing this page is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The hosting page: makes the offer, takes the answer in.
    Offer,
    /// The joining page: answers an offer.
    Answer,
}

/// One attempt to pair this page with another.
pub struct Pairing {
    wire: Option<Wire>,
    side: Side,
}

impl Pairing {
    /// The hosting side: a data channel and an offer for it. The offer's text is ready
    /// once [`Pairing::local_sdp`] gives it.
    pub fn offer() -> Result<Pairing, RtcFault> {
        let wire = Wire::new()?;
        let init = RtcDataChannelInit::new();
        // Ordered and reliable are the defaults; said here because the protocol needs both.
        init.set_ordered(true);
        let dc = wire
            .pc
            .create_data_channel_with_data_channel_dict("hotseat", &init);
        Wire::attach(&dc, &wire.inbox, &wire.handlers);
        *wire.dc.borrow_mut() = Some(dc);
        let (pc, inbox) = (wire.pc.clone(), wire.inbox.clone());
        wasm_bindgen_futures::spawn_local(async move {
            camera_permission().await;
            match describe_local(&pc, RtcSdpType::Offer).await {
                Ok(()) => inbox.borrow_mut().described = Some(Instant::now()),
                Err(e) => inbox.borrow_mut().failed = Some(e),
            }
            wake(&inbox);
        });
        Ok(Pairing {
            wire: Some(wire),
            side: Side::Offer,
        })
    }

    /// The joining side: answers the host's offer (its SDP); the answer's text is ready
    /// once [`Pairing::local_sdp`] gives it.
    pub fn answer(offer_sdp: &str) -> Result<Pairing, RtcFault> {
        let wire = Wire::new()?;
        let (dc_slot, inbox, handlers) =
            (wire.dc.clone(), wire.inbox.clone(), wire.handlers.clone());
        wire.on(
            |h| wire.pc.set_ondatachannel(h),
            move |e: JsValue| {
                let Some(event) = e.dyn_ref::<RtcDataChannelEvent>() else {
                    return;
                };
                let dc = event.channel();
                // A second channel from the other page is none of ours.
                if dc_slot.borrow().is_some() {
                    dc.close();
                    return;
                }
                Wire::attach(&dc, &inbox, &handlers);
                if dc.ready_state() == RtcDataChannelState::Open {
                    inbox.borrow_mut().open = true;
                }
                *dc_slot.borrow_mut() = Some(dc);
            },
        );
        let (pc, inbox) = (wire.pc.clone(), wire.inbox.clone());
        // A libwebrtc engine (Chromium, Safari) joining is not told the host's candidates:
        // checks it sent now would meet a host that has no answer yet and fail, and after
        // that it no longer took the host's checks when they came after a slow scan (seen
        // with Firefox hosting Chromium, tests/browser/rtc.py). The host checks this page's
        // candidates once it has the answer, and this page learns the host's address from
        // those checks (RFC 8445 §7.3.1.3, a peer-reflexive candidate). Firefox is told
        // them: it gives its own checks up after 5 s but still answers the host's, and
        // without candidates it did not connect (Chromium hosting Firefox, the same test).
        let offer: String = if gecko() {
            offer_sdp.to_string()
        } else {
            offer_sdp
                .split_inclusive('\n')
                .filter(|l| !l.starts_with("a=candidate:"))
                .collect()
        };
        wasm_bindgen_futures::spawn_local(async move {
            let remote = RtcSessionDescriptionInit::new(RtcSdpType::Offer);
            remote.set_sdp(&offer);
            let result = match wasm_bindgen_futures::JsFuture::from(
                pc.set_remote_description(&remote),
            )
            .await
            {
                Ok(_) => describe_local(&pc, RtcSdpType::Answer).await,
                Err(e) => Err(fault(RtcFault::Refused, &e)),
            };
            match result {
                Ok(()) => inbox.borrow_mut().described = Some(Instant::now()),
                Err(e) => inbox.borrow_mut().failed = Some(e),
            }
            wake(&inbox);
        });
        Ok(Pairing {
            wire: Some(wire),
            side: Side::Answer,
        })
    }

    /// Which side this page is.
    pub fn side(&self) -> Side {
        self.side
    }

    /// Calls `waker` whenever something arrives for this pairing or the channel it opens
    /// (a message, the opening, the end), after the browser's callback has filled the
    /// inbox. It must not hold what owns this pairing (a `Weak`), or neither is freed.
    pub fn wake_with(&self, waker: Waker) {
        if let Some(wire) = &self.wire {
            wire.inbox.borrow_mut().wake = Some(waker);
        }
    }

    /// This page's description with all its candidates, once ICE gathering is over (or
    /// after [`GATHER_AT_MOST`], with what was found).
    pub fn local_sdp(&self) -> Option<String> {
        let wire = self.wire.as_ref()?;
        let description = wire.pc.local_description()?;
        let gathered = wire.pc.ice_gathering_state() == RtcIceGatheringState::Complete;
        let described = wire.inbox.borrow().described?;
        (gathered || described.elapsed() >= GATHER_AT_MOST).then(|| description.sdp())
    }

    /// The hosting side takes the joining page's answer (its SDP) in.
    pub fn take_answer(&self, answer_sdp: &str) {
        let Some(wire) = &self.wire else {
            return;
        };
        let (pc, inbox) = (wire.pc.clone(), wire.inbox.clone());
        let remote = RtcSessionDescriptionInit::new(RtcSdpType::Answer);
        remote.set_sdp(answer_sdp);
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) =
                wasm_bindgen_futures::JsFuture::from(pc.set_remote_description(&remote)).await
            {
                inbox.borrow_mut().failed = Some(fault(RtcFault::Refused, &e));
            }
        });
    }

    /// Why the attempt failed, if it did (a text the browser refused, a link that failed
    /// before it opened).
    pub fn failure(&self) -> Option<RtcFault> {
        let wire = self.wire.as_ref()?;
        let inbox = wire.inbox.borrow();
        match (inbox.failed, &inbox.closed, inbox.open) {
            (Some(f), _, _) => Some(f),
            (None, Some(_), false) => Some(RtcFault::LinkFailed),
            (None, None, false)
                if self.side == Side::Offer
                    && inbox
                        .failed_since
                        .is_some_and(|at| at.elapsed() >= FAILED_FOR) =>
            {
                Some(RtcFault::LinkFailed)
            }
            _ => None,
        }
    }

    /// The channel, once open (then the attempt is used up).
    pub fn channel<Out, In>(&mut self) -> Option<RtcChannel<Out, In>> {
        if !self.wire.as_ref()?.inbox.borrow().open {
            return None;
        }
        let wire = self.wire.take()?;
        let dc = wire.dc.borrow().clone()?;
        Some(RtcChannel {
            dc,
            wire,
            kinds: PhantomData,
        })
    }
}

impl Drop for Pairing {
    fn drop(&mut self) {
        if let Some(wire) = &self.wire {
            wire.shut();
        }
    }
}

/// Asks for the camera and lets it go at once, so that the offer made next carries this
/// phone's real addresses: an engine shows them only to a page allowed to capture (Safari
/// otherwise gives nothing but mDNS names, which an Android phone cannot resolve). A page
/// that already has the permission gets it without a prompt; a refusal, no camera, or no
/// answer within [`CAMERA_PROMPT_AT_MOST_MS`] leaves the offer with what the engine gives.
async fn camera_permission() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(devices) = window.navigator().media_devices() else {
        return;
    };
    let constraints = web_sys::MediaStreamConstraints::new();
    constraints.set_video(&JsValue::TRUE);
    let Ok(asked) = devices.get_user_media_with_constraints(&constraints) else {
        return;
    };
    let waited = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            &resolve,
            CAMERA_PROMPT_AT_MOST_MS,
        );
    });
    // Whichever comes first; a stream that comes after the wait is let go when it comes.
    let late = asked.clone();
    let first = js_sys::Promise::race(&js_sys::Array::of2(&asked, &waited));
    match wasm_bindgen_futures::JsFuture::from(first).await {
        Ok(v) if v.is_instance_of::<web_sys::MediaStream>() => {
            stop_stream(&v);
            crate::note!("WebRTC: the camera's permission held before the offer");
        }
        Ok(_) => {
            crate::note!("WebRTC: no answer to the camera's prompt; the offer goes without it");
            wasm_bindgen_futures::spawn_local(async move {
                if let Ok(v) = wasm_bindgen_futures::JsFuture::from(late).await {
                    stop_stream(&v);
                }
            });
        }
        Err(e) => crate::note!("WebRTC: no camera before the offer: {}", js_text(&e)),
    }
}

/// Whether this page runs in Firefox's engine (Gecko: `Firefox/` in its user agent, on
/// Android too; Firefox on iOS is WebKit and says `FxiOS`).
fn gecko() -> bool {
    web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .is_some_and(|ua| ua.contains("Firefox/"))
}

/// Stops every track of a `MediaStream`.
fn stop_stream(stream: &JsValue) {
    let Some(stream) = stream.dyn_ref::<web_sys::MediaStream>() else {
        return;
    };
    for track in stream.get_tracks().iter() {
        if let Ok(track) = track.dyn_into::<web_sys::MediaStreamTrack>() {
            track.stop();
        }
    }
}

/// Makes this page's description (offer or answer) and sets it; ICE gathering starts.
async fn describe_local(pc: &RtcPeerConnection, kind: RtcSdpType) -> Result<(), RtcFault> {
    let made = match kind {
        RtcSdpType::Answer => pc.create_answer(),
        _ => pc.create_offer(),
    };
    let made = wasm_bindgen_futures::JsFuture::from(made)
        .await
        .map_err(|e| fault(RtcFault::CannotDescribe, &e))?;
    let sdp = js_sys::Reflect::get(&made, &"sdp".into())
        .ok()
        .and_then(|s| s.as_string())
        .ok_or(RtcFault::CannotDescribe)?;
    let local = RtcSessionDescriptionInit::new(kind);
    local.set_sdp(&sdp);
    wasm_bindgen_futures::JsFuture::from(pc.set_local_description(&local))
        .await
        .map_err(|e| fault(RtcFault::CannotDescribe, &e))?;
    Ok(())
}

/// An open data channel as a [`MessageChannel`]: sends `Out`, receives `In`.
pub struct RtcChannel<Out, In> {
    dc: RtcDataChannel,
    wire: Wire,
    kinds: PhantomData<fn(Out) -> In>,
}

impl<Out: Serialize, In: DeserializeOwned> MessageChannel<Out, In> for RtcChannel<Out, In> {
    fn send(&mut self, msg: &Out) -> io::Result<()> {
        if self.wire.inbox.borrow().closed.is_some()
            || self.dc.ready_state() != RtcDataChannelState::Open
        {
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the data channel is closed",
            ));
        }
        if self.dc.buffered_amount() > MAX_BUFFERED {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the other phone has taken nothing in for too long",
            ));
        }
        let text = serde_json::to_string(msg).map_err(io::Error::other)?;
        self.dc
            .send_with_str(&text)
            .map_err(|e| io::Error::new(io::ErrorKind::BrokenPipe, js_text(&e)))
    }

    fn recv(&mut self) -> Received<In> {
        let mut inbox = self.wire.inbox.borrow_mut();
        let next = inbox.queue.pop_front();
        Received::from_queue(next, inbox.closed.as_ref())
    }

    fn close(&mut self) {
        self.wire.inbox.borrow_mut().close(ProtocolError::Closed);
        self.wire.shut();
    }
}

impl<Out, In> Drop for RtcChannel<Out, In> {
    fn drop(&mut self) {
        // A channel let go of is closed, so the other page learns it at once.
        self.wire.shut();
    }
}
