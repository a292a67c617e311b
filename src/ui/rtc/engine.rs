//! The seam between the two-phone screens and the WebRTC engine under them: the
//! browser's own (`net::rtc`, in the web build) or the app's (`net::rtc_native`, str0m,
//! on the desktop and Android with the `webrtc` feature). Both give the same [`Engine`]
//! (one pairing attempt) and [`Channel`]; the screens' logic (`ui::rtc`) is written once
//! against them, and this file is the only place that knows which engine it is.

use crate::platform::time::Duration;
use std::rc::Rc;

/// What wakes the screens' driver when something arrived (the browser's channel events;
/// the app's engine is polled on the timer instead).
pub type Waker = Rc<dyn Fn()>;

/// Why a pairing attempt failed, for the player's words (`ui::rtc::fault_text`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The browser has no WebRTC.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    NoWebRtc,
    /// This side could not make its description.
    CannotDescribe,
    /// The other side's text was refused by the engine.
    Refused,
    /// The link failed before its channel opened.
    LinkFailed,
    /// The device has no local network address to offer (the app).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    NoNetwork,
    /// A UDP socket could not be opened (the app): why, in English from the system.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    NoPort(String),
}

#[cfg(target_arch = "wasm32")]
pub use web::*;

#[cfg(target_arch = "wasm32")]
mod web {
    use super::{Duration, Fault, Waker};
    use crate::net::rtc::{Pairing, RtcChannel, RtcFault};
    use crate::platform::time::Instant;

    /// The data channel as a `MessageChannel`.
    pub type Channel<Out, In> = RtcChannel<Out, In>;

    /// How often the page's timer feeds the drivers the clock (heartbeats, silences, the
    /// camera's frames, ICE gathering): well under the 1 s heartbeat. What arrives on the
    /// data channel does not wait for it: the channel's own events wake the driver
    /// (`Pairing::wake_with`, issue 40).
    pub const TICK: Duration = Duration::from_millis(100);

    /// The page may ask for the camera to read the other phone's code.
    pub const CAN_SCAN: bool = true;

    fn fault(f: RtcFault) -> Fault {
        match f {
            RtcFault::NoWebRtc => Fault::NoWebRtc,
            RtcFault::CannotDescribe => Fault::CannotDescribe,
            RtcFault::Refused => Fault::Refused,
            RtcFault::LinkFailed => Fault::LinkFailed,
        }
    }

    /// One pairing attempt: the browser's peer connection.
    pub struct Engine(Pairing);

    impl Engine {
        pub fn offer() -> Result<Engine, Fault> {
            Pairing::offer().map(Engine).map_err(fault)
        }
        pub fn answer(offer_sdp: &str) -> Result<Engine, Fault> {
            Pairing::answer(offer_sdp).map(Engine).map_err(fault)
        }
        pub fn wake_with(&self, waker: Waker) {
            self.0.wake_with(waker);
        }
        pub fn poll(&mut self, _now: Instant) {}
        pub fn local_sdp(&self) -> Option<String> {
            self.0.local_sdp()
        }
        /// A refusal shows later, as [`Engine::failure`] (the browser answers by a promise).
        pub fn take_answer(&mut self, answer_sdp: &str) -> Result<(), Fault> {
            self.0.take_answer(answer_sdp);
            Ok(())
        }
        pub fn failure(&self) -> Option<Fault> {
            self.0.failure().map(fault)
        }
        pub fn channel<Out, In>(&mut self) -> Option<Channel<Out, In>> {
            self.0.channel()
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub use native::*;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::{Duration, Fault, Waker};
    use crate::net::rtc_native::{host_addresses, NativeChannel, NativePairing, NativeRtcError};
    use crate::platform::time::Instant;
    use std::cell::RefCell;
    use std::net::IpAddr;

    /// The data channel as a `MessageChannel`.
    pub type Channel<Out, In> = NativeChannel<Out, In>;

    /// How often the screen's timer polls the engine: str0m is sans-IO, so what arrives
    /// waits in its UDP socket until the next beat. 15 ms keeps a round trip well under
    /// the 20 ms goal (issue 40) at little cost (a few non-blocking reads).
    pub const TICK: Duration = Duration::from_millis(15);

    /// The desktop has no camera to ask for (the phone scans the app's code instead).
    pub const CAN_SCAN: bool = false;

    thread_local! {
        /// The addresses to offer instead of this device's own (tests: 127.0.0.1).
        static ADDRESSES: RefCell<Option<Vec<IpAddr>>> = const { RefCell::new(None) };
    }

    /// Offers (and answers) from `addrs` on this thread instead of this device's own
    /// network addresses (`None`: its own again). For tests, on one machine's loopback.
    pub fn use_addresses(addrs: Option<Vec<IpAddr>>) {
        ADDRESSES.with(|a| *a.borrow_mut() = addrs);
    }

    fn addresses() -> Vec<IpAddr> {
        ADDRESSES
            .with(|a| a.borrow().clone())
            .unwrap_or_else(host_addresses)
    }

    fn fault(e: NativeRtcError) -> Fault {
        match e {
            NativeRtcError::NoAddress => Fault::NoNetwork,
            NativeRtcError::Socket { why, .. } => Fault::NoPort(why),
            NativeRtcError::CannotDescribe(why) => {
                crate::note!("WebRTC: {why}");
                Fault::CannotDescribe
            }
            NativeRtcError::Refused(why) => {
                crate::note!("WebRTC: the other side's text was refused: {why}");
                Fault::Refused
            }
            NativeRtcError::NotWaiting => Fault::Refused,
        }
    }

    /// One pairing attempt: str0m and its sockets (`None` once its channel is taken).
    pub struct Engine(Option<NativePairing>);

    impl Engine {
        pub fn offer() -> Result<Engine, Fault> {
            NativePairing::offer(&addresses(), Instant::now())
                .map(|p| Engine(Some(p)))
                .map_err(fault)
        }
        pub fn answer(offer_sdp: &str) -> Result<Engine, Fault> {
            NativePairing::answer(offer_sdp, &addresses(), Instant::now())
                .map(|p| Engine(Some(p)))
                .map_err(fault)
        }
        /// Nothing wakes the screen: its timer polls ([`TICK`]).
        pub fn wake_with(&self, _waker: Waker) {}
        pub fn poll(&mut self, now: Instant) {
            if let Some(p) = self.0.as_mut() {
                p.poll(now);
            }
        }
        /// Ready at once: str0m knows every candidate when it describes its side.
        pub fn local_sdp(&self) -> Option<String> {
            self.0.as_ref().map(|p| p.local_sdp().to_string())
        }
        pub fn take_answer(&mut self, answer_sdp: &str) -> Result<(), Fault> {
            match self.0.as_mut() {
                Some(p) => p.take_answer(answer_sdp).map_err(fault),
                None => Err(Fault::Refused),
            }
        }
        pub fn failure(&self) -> Option<Fault> {
            self.0
                .as_ref()
                .and_then(|p| p.failure())
                .map(|_| Fault::LinkFailed)
        }
        pub fn channel<Out, In>(&mut self) -> Option<Channel<Out, In>> {
            if !self.0.as_ref()?.is_open() {
                return None;
            }
            match self.0.take()?.channel() {
                Ok(channel) => Some(channel),
                Err(pairing) => {
                    self.0 = Some(*pairing);
                    None
                }
            }
        }
    }
}
