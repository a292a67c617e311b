//! The app's own WebRTC data channel (issue 40, point 4): what `net::rtc` is in the
//! browser, on the desktop and Android, with `str0m`. str0m is sans-IO: it owns no
//! socket, no thread and no clock; it is handed datagrams and the time and asked what
//! to send. So this module is polled like the rest of `net`: [`NativePairing::poll`] and
//! [`NativeChannel::recv`] read this side's UDP sockets without blocking, feed str0m what
//! came and the clock, and send what it asks, so that `PageHost` / `PageJoiner` (or the
//! headless commands) drive it from a thread or a timer with nothing else running.
//!
//! The offer and answer are standard SDP that `net::pairing` turns into the same pairing
//! text (and QR code) the browser makes, and reads back: a phone's browser and the app
//! pair by the same texts. Only this Wi-Fi: host candidates, one UDP socket bound to each
//! of this device's own IPv4 addresses (str0m needs to know which local address a
//! datagram came to, which a socket bound to 0.0.0.0 does not say), no STUN, no TURN.
//! The other side's `<uuid>.local` candidates (a browser that may not capture hides its
//! address so) are looked up by mDNS as its description is taken in ([`lookup`]), and
//! what answers is handed to str0m as a remote candidate.
//!
//! [`NativeChannel`] keeps [`super::rtc::RtcChannel`]'s rules: one JSON message per
//! data-channel message; a message over 16 KiB ends the link, as on TCP; binary data is
//! `Bad(NotText)` and the link stays; the channel's close ends it; ICE "disconnected" does
//! not (a blip heals by itself; a real loss is the match's silence, `RTC_TIMING`).

use super::channel::{MessageChannel, Received};
use super::protocol::{ProtocolError, MAX_LINE};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::VecDeque;
use std::io;
use std::marker::PhantomData;
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};
use str0m::change::{SdpAnswer, SdpOffer, SdpPendingOffer};
use str0m::channel::{ChannelConfig, ChannelId};
use str0m::net::{Protocol, Receive};
use str0m::{Candidate, Event, Input, Output, Rtc, RtcConfig};

mod lookup;
mod mdns;

use lookup::Lookup;

/// The data channel's label (the browser's is the same; nobody reads it).
const LABEL: &str = "hotseat";
/// At most this many datagrams are taken in one poll, so a flood cannot hold the caller.
const PER_POLL: usize = 256;
/// The largest datagram read (an SCTP-over-DTLS packet is at most str0m's MTU, ~1150).
const DATAGRAM: usize = 2048;
/// More than this waiting to leave means the other side takes nothing in: the link is
/// lost (as `RtcChannel`'s `MAX_BUFFERED`).
const MAX_BUFFERED: usize = 256 * 1024;

/// Why a native pairing could not be made or taken in. English; the screen words it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NativeRtcError {
    /// No IPv4 address of this device to offer (no Wi-Fi).
    #[error(
        "this device has no local network address to offer: join a Wi-Fi network and try again"
    )]
    NoAddress,
    /// A UDP socket could not be opened on one of this device's addresses.
    #[error("could not open a UDP socket on {addr}: {why}")]
    Socket { addr: IpAddr, why: String },
    /// The other side's SDP (rebuilt from its pairing text) was refused.
    #[error("the other device's pairing code was refused: {0}")]
    Refused(String),
    /// This side could not describe its data channel (a bug to report).
    #[error("could not make this device's pairing code: {0}")]
    CannotDescribe(String),
    /// An answer taken in by a side that made no offer, or twice.
    #[error("this device is not waiting for an answer")]
    NotWaiting,
}

/// This device's addresses to offer: its non-loopback IPv4 addresses (the LAN host's
/// own list, private networks first).
pub fn host_addresses() -> Vec<IpAddr> {
    super::discovery::lan_addresses()
        .into_iter()
        .map(IpAddr::V4)
        .collect()
}

/// While an mDNS lookup is under way, a wait lasts at most this, so its answer is taken
/// in within this of its arrival (the wait blocks on the channel's socket, not on it).
const LOOKUP_BEAT: Duration = Duration::from_millis(10);

/// str0m, its sockets and what came out of it for the channel.
struct Engine {
    rtc: Rtc,
    sockets: Vec<UdpSocket>,
    /// The other side's `.local` names being looked up, until found or given up.
    lookup: Option<Lookup>,
    /// The socket a datagram last came in on: the one the nominated pair uses, which
    /// [`Engine::wait`] waits on.
    last_in: usize,
    /// The data channel once str0m opened it (ours or the offerer's).
    channel: Option<ChannelId>,
    inbox: VecDeque<Result<String, ProtocolError>>,
    closed: Option<ProtocolError>,
    /// When str0m next wants the clock.
    next: Instant,
    buf: Vec<u8>,
}

impl Engine {
    fn new(addrs: &[IpAddr], now: Instant) -> Result<Engine, NativeRtcError> {
        if addrs.is_empty() {
            return Err(NativeRtcError::NoAddress);
        }
        let mut rtc = RtcConfig::new().build(now);
        let mut sockets = Vec::new();
        for &ip in addrs {
            let socket_error = |e: io::Error| NativeRtcError::Socket {
                addr: ip,
                why: e.to_string(),
            };
            let socket = UdpSocket::bind(SocketAddr::new(ip, 0)).map_err(socket_error)?;
            socket.set_nonblocking(true).map_err(socket_error)?;
            let local = socket.local_addr().map_err(socket_error)?;
            let candidate = Candidate::host(local, "udp")
                .map_err(|e| NativeRtcError::CannotDescribe(e.to_string()))?;
            rtc.add_local_candidate(candidate);
            sockets.push(socket);
        }
        let mut engine = Engine {
            rtc,
            sockets,
            lookup: None,
            last_in: 0,
            channel: None,
            inbox: VecDeque::new(),
            closed: None,
            next: now,
            buf: vec![0; DATAGRAM],
        };
        engine.drain();
        Ok(engine)
    }

    fn close(&mut self, why: ProtocolError) {
        if self.closed.is_none() {
            self.closed = Some(why);
        }
    }

    /// Takes everything str0m has to say until it asks for the clock again: datagrams
    /// out, events into the inbox. After every change to `rtc` (str0m's rule).
    fn drain(&mut self) {
        loop {
            let output = match self.rtc.poll_output() {
                Ok(output) => output,
                Err(e) => {
                    self.close(ProtocolError::Io(format!("the WebRTC link failed: {e}")));
                    return;
                }
            };
            match output {
                Output::Timeout(at) => {
                    self.next = at;
                    return;
                }
                Output::Transmit(t) => {
                    let socket = self
                        .sockets
                        .iter()
                        .find(|s| s.local_addr().ok() == Some(t.source));
                    // A datagram that cannot leave is lost, as on any network: SCTP
                    // retransmits it and ICE tries again.
                    if let Some(socket) = socket {
                        let _ = socket.send_to(&t.contents, t.destination);
                    }
                }
                Output::Event(event) => self.on_event(event),
            }
        }
    }

    fn on_event(&mut self, event: Event) {
        match event {
            // The first channel is the game's; a second one is none of ours.
            Event::ChannelOpen(id, _) if self.channel.is_none() => self.channel = Some(id),
            Event::ChannelData(data) if Some(data.id) == self.channel => {
                if self.closed.is_some() {
                    return;
                }
                if data.binary {
                    // Binary data is no protocol message: unreadable, the link stays.
                    self.inbox.push_back(Err(ProtocolError::NotText));
                } else if data.data.len() > MAX_LINE {
                    // As on TCP: a message over the limit ends the link.
                    self.close(ProtocolError::TooLong);
                    self.shut();
                } else {
                    match String::from_utf8(data.data) {
                        Ok(text) => self.inbox.push_back(Ok(text)),
                        Err(_) => self.inbox.push_back(Err(ProtocolError::NotText)),
                    }
                }
            }
            Event::ChannelClose(id) if Some(id) == self.channel => {
                self.close(ProtocolError::Closed)
            }
            // ICE "disconnected" is a blip str0m heals when packets flow again; the
            // match's own silence decides when it is a loss.
            _ => {}
        }
    }

    /// Starts looking up the `.local` host candidates of the other side's description
    /// (`sdp`, just taken in; str0m left them out, it reads only addresses).
    /// The queries leave from this side's own addresses, those its sockets are bound to.
    fn look_up(&mut self, sdp: &str, now: Instant) {
        let addrs: Vec<IpAddr> = self
            .sockets
            .iter()
            .filter_map(|s| s.local_addr().ok())
            .map(|a| a.ip())
            .collect();
        self.lookup = Lookup::start(lookup::local_names(sdp), &addrs, now);
        self.resolve(now);
    }

    /// Sends the lookup's due queries and gives str0m what it found. The lookup ends once
    /// it is done or the channel is open (the pair is chosen: nothing more is needed).
    fn resolve(&mut self, now: Instant) {
        let Some(lookup) = self.lookup.as_mut() else {
            return;
        };
        let found = lookup.poll(now);
        let over = self.channel.is_some() || lookup.done(now);
        for addr in found {
            match Candidate::host(addr, "udp") {
                Ok(candidate) => self.rtc.add_remote_candidate(candidate),
                Err(e) => crate::note!("WebRTC: {addr} is no candidate: {e}"),
            }
        }
        if over {
            self.lookup = None;
        }
        self.drain();
    }

    /// Takes in what arrived on the sockets, then the clock.
    fn poll(&mut self, now: Instant) {
        if !self.rtc.is_alive() {
            self.close(ProtocolError::Closed);
            return;
        }
        self.resolve(now);
        let mut taken = 0;
        for i in 0..self.sockets.len() {
            while taken < PER_POLL {
                let (n, source) = match self.sockets[i].recv_from(&mut self.buf) {
                    Ok(got) => got,
                    // WouldBlock: nothing more here. Another error (an ICMP port
                    // unreachable from the other side's old port) is one datagram's.
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(_) => {
                        taken += 1;
                        continue;
                    }
                };
                taken += 1;
                let Ok(destination) = self.sockets[i].local_addr() else {
                    break;
                };
                let Ok(receive) = Receive::new(Protocol::Udp, source, destination, &self.buf[..n])
                else {
                    // Not STUN, DTLS or RTP: none of ours.
                    continue;
                };
                self.last_in = i;
                if let Err(e) = self.rtc.handle_input(Input::Receive(now, receive)) {
                    crate::note!("WebRTC: a datagram was refused: {e}");
                }
                self.drain();
            }
        }
        if now >= self.next {
            if let Err(e) = self.rtc.handle_input(Input::Timeout(now)) {
                self.close(ProtocolError::Io(format!("the WebRTC link failed: {e}")));
            }
            self.drain();
        }
        if !self.rtc.is_alive() {
            self.close(ProtocolError::Io("the WebRTC link failed".into()));
        }
    }

    /// Blocks until a datagram may have come or str0m wants the clock, at most `at_most`
    /// (a driver on a thread of its own calls this between polls).
    fn wait(&mut self, at_most: Duration) {
        let until_next = self.next.saturating_duration_since(Instant::now());
        let mut wait = until_next.min(at_most).max(Duration::from_millis(1));
        if self.lookup.is_some() {
            wait = wait.min(LOOKUP_BEAT);
        }
        let Some(socket) = self.sockets.get(self.last_in) else {
            std::thread::sleep(wait);
            return;
        };
        // Blocking for `wait` on the socket in use; the others are looked at by the poll.
        let blocked = socket
            .set_nonblocking(false)
            .and_then(|()| socket.set_read_timeout(Some(wait)));
        if blocked.is_ok() {
            let _ = socket.peek_from(&mut self.buf);
        } else {
            std::thread::sleep(wait);
        }
        let _ = socket.set_nonblocking(true);
    }

    /// Closes the data channel (the other side sees it closed) and the connection.
    fn shut(&mut self) {
        if let Some(id) = self.channel {
            self.rtc.direct_api().close_data_channel(id);
            self.drain();
        }
    }

    /// Lets the close reach the other side, then ends the connection: the stream's reset
    /// leaves on str0m's next turns of the clock and may need sending again, so a closed
    /// engine is kept polled for a moment on a thread of its own (the caller's thread may
    /// be a screen's) and then dropped.
    fn linger(mut self) {
        if self.channel.is_none() || !self.rtc.is_alive() {
            return;
        }
        self.shut();
        let keep = move || {
            let end = Instant::now() + LINGER;
            while Instant::now() < end && self.rtc.is_alive() {
                self.poll(Instant::now());
                self.wait(Duration::from_millis(10));
            }
            self.rtc.disconnect();
        };
        if std::thread::Builder::new()
            .name("rtc-close".into())
            .spawn(keep)
            .is_err()
        {
            crate::note!(
                "WebRTC: no thread to close the channel; the other side will notice the silence"
            );
        }
    }
}

/// How long a closed channel's engine is kept polled so that its close reaches the other
/// side.
const LINGER: Duration = Duration::from_millis(500);

/// Which side of a pairing this device is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The host: makes the offer, takes the answer in.
    Offer,
    /// The joiner: answers an offer.
    Answer,
}

/// One attempt to pair this device with another (a browser or another app).
pub struct NativePairing {
    engine: Engine,
    side: Side,
    pending: Option<SdpPendingOffer>,
    local_sdp: String,
}

impl NativePairing {
    /// The host's side: a data channel on the sockets of `addrs` and its offer
    /// ([`NativePairing::local_sdp`], complete: every candidate is in it).
    pub fn offer(addrs: &[IpAddr], now: Instant) -> Result<NativePairing, NativeRtcError> {
        let mut engine = Engine::new(addrs, now)?;
        let mut api = engine.rtc.sdp_api();
        api.add_channel_with_config(ChannelConfig {
            label: LABEL.into(),
            ordered: true,
            ..ChannelConfig::default()
        });
        let Some((offer, pending)) = api.apply() else {
            return Err(NativeRtcError::CannotDescribe("no offer was made".into()));
        };
        engine.drain();
        Ok(NativePairing {
            engine,
            side: Side::Offer,
            pending: Some(pending),
            local_sdp: offer.to_sdp_string(),
        })
    }

    /// The joiner's side: answers the host's offer (`offer_sdp`, as `net::pairing`
    /// rebuilt it) from the sockets of `addrs`.
    pub fn answer(
        offer_sdp: &str,
        addrs: &[IpAddr],
        now: Instant,
    ) -> Result<NativePairing, NativeRtcError> {
        let offer = SdpOffer::from_sdp_string(offer_sdp)
            .map_err(|e| NativeRtcError::Refused(e.to_string()))?;
        let mut engine = Engine::new(addrs, now)?;
        let answer = engine
            .rtc
            .sdp_api()
            .accept_offer(offer)
            .map_err(|e| NativeRtcError::Refused(e.to_string()))?;
        engine.drain();
        engine.look_up(offer_sdp, now);
        Ok(NativePairing {
            engine,
            side: Side::Answer,
            pending: None,
            local_sdp: answer.to_sdp_string(),
        })
    }

    /// Which side this is.
    pub fn side(&self) -> Side {
        self.side
    }

    /// This side's SDP (the offer or the answer) for `net::pairing::encode`.
    pub fn local_sdp(&self) -> &str {
        &self.local_sdp
    }

    /// The host takes in the joiner's answer (its SDP, as `net::pairing` rebuilt it).
    pub fn take_answer(&mut self, answer_sdp: &str) -> Result<(), NativeRtcError> {
        let answer = SdpAnswer::from_sdp_string(answer_sdp)
            .map_err(|e| NativeRtcError::Refused(e.to_string()))?;
        let pending = self.pending.take().ok_or(NativeRtcError::NotWaiting)?;
        self.engine
            .rtc
            .sdp_api()
            .accept_answer(pending, answer)
            .map_err(|e| NativeRtcError::Refused(e.to_string()))?;
        self.engine.drain();
        self.engine.look_up(answer_sdp, Instant::now());
        Ok(())
    }

    /// Takes in what arrived and the clock: ICE checks, DTLS, SCTP, the channel's opening.
    pub fn poll(&mut self, now: Instant) {
        self.engine.poll(now);
    }

    /// Blocks at most `at_most`, or until something may have arrived.
    pub fn wait(&mut self, at_most: Duration) {
        self.engine.wait(at_most);
    }

    /// Whether the data channel is open (then [`NativePairing::channel`] gives it).
    pub fn is_open(&self) -> bool {
        self.engine.channel.is_some() && self.engine.closed.is_none()
    }

    /// Why the attempt ended before its channel opened, if it did.
    pub fn failure(&self) -> Option<&ProtocolError> {
        self.engine.closed.as_ref()
    }

    /// The open channel, or this pairing back while it is not open yet.
    pub fn channel<Out, In>(self) -> Result<NativeChannel<Out, In>, Box<NativePairing>> {
        if !self.is_open() {
            return Err(Box::new(self));
        }
        Ok(NativeChannel {
            engine: Some(self.engine),
            kinds: PhantomData,
        })
    }
}

/// An open data channel as a [`MessageChannel`]: sends `Out`, receives `In`. Every
/// `recv` polls the sockets and the clock first, so a driver that looks at its channel
/// keeps the link alive.
pub struct NativeChannel<Out, In> {
    /// None once closed here (the engine went on to linger: `Engine::linger`).
    engine: Option<Engine>,
    kinds: PhantomData<fn(Out) -> In>,
}

fn broken() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the data channel is closed")
}

impl<Out, In> NativeChannel<Out, In> {
    /// Blocks at most `at_most`, or until something may have arrived.
    pub fn wait(&mut self, at_most: Duration) {
        match self.engine.as_mut() {
            Some(engine) => engine.wait(at_most),
            None => std::thread::sleep(at_most),
        }
    }

    /// Whether the link has ended (the channel closed, failed or was closed here).
    pub fn is_closed(&self) -> bool {
        self.engine.as_ref().is_none_or(|e| e.closed.is_some())
    }
}

impl<Out: Serialize, In: DeserializeOwned> MessageChannel<Out, In> for NativeChannel<Out, In> {
    fn send(&mut self, msg: &Out) -> io::Result<()> {
        let engine = self.engine.as_mut().ok_or_else(broken)?;
        if engine.closed.is_some() {
            return Err(broken());
        }
        let text = serde_json::to_string(msg).map_err(io::Error::other)?;
        let id = engine.channel.ok_or_else(broken)?;
        let mut channel = engine.rtc.channel(id).ok_or_else(broken)?;
        if channel.buffered_amount() > MAX_BUFFERED {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the other device has taken nothing in for too long",
            ));
        }
        let written = channel.write(false, text.as_bytes());
        engine.drain();
        match written {
            Ok(true) => Ok(()),
            Ok(false) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the other device has taken nothing in for too long",
            )),
            Err(e) => Err(io::Error::new(io::ErrorKind::BrokenPipe, e.to_string())),
        }
    }

    fn recv(&mut self) -> Received<In> {
        let Some(engine) = self.engine.as_mut() else {
            return Received::Closed(ProtocolError::Closed);
        };
        if engine.inbox.is_empty() && engine.closed.is_none() {
            engine.poll(Instant::now());
        }
        Received::from_queue(engine.inbox.pop_front(), engine.closed.as_ref())
    }

    fn close(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.linger();
        }
    }
}

impl<Out, In> Drop for NativeChannel<Out, In> {
    fn drop(&mut self) {
        // A channel let go of is closed, so the other side learns it at once.
        if let Some(engine) = self.engine.take() {
            engine.linger();
        }
    }
}

#[cfg(test)]
#[path = "rtc_native/tests.rs"]
mod tests;
