//! The joined device's whole life in a pairing, free of any UI: connect, play, lose the
//! connection, come back (on its own, for as long as the host waits), learn the fate of
//! an action whose answer never came, rematch, and after a restart of the app take the
//! seat back from what is kept on disk. [`JoinerCore`] is all of that as a state machine
//! with no thread, no socket and no clock of its own (any transport, a fake clock in
//! tests); [`Joiner`] drives it over TCP on the caller's thread. `hotseat join` and the
//! app's LAN screen (through [`JoinerThread`]) both drive a [`Joiner`] and only print or
//! draw what it reports.
//!
//! An action is applied on both devices or on neither: the host applies it and answers;
//! if the answer is lost with the connection, the host's welcome on coming back carries
//! the number of the last action it applied, and the joiner reports
//! [`JoinerEvent::Settled`] with whether it was applied.

mod machine;
mod thread;

pub use machine::{JoinerCore, JoinerEvent, JoinerOut, KeptSeat, RETRY_EVERY};
pub use thread::{JoinerThread, JoinerUpdate};

use super::channel::{MessageChannel, Received, TcpChannel, READ_TIMEOUT};
use super::protocol::{ClientMsg, HostMsg, Timing};
use super::reason::NetReason;
use super::saved::{self, SeatHost, SeatSave};
use super::{legal_from_view, NetError};
use crate::games::omiga::{Action, OmigaView};
use crate::games::Seat;
use crate::platform::time::{Duration, Instant};
use std::collections::VecDeque;
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;

/// The joined device over TCP: drives a [`JoinerCore`] on the caller's thread, and keeps
/// the seat in the data folder.
pub struct Joiner {
    core: JoinerCore,
    host: SocketAddr,
    channel: Option<TcpChannel<ClientMsg, HostMsg>>,
    store: Option<PathBuf>,
    /// Events made by the driver itself (a drop it caused), reported at the next poll.
    queued: Vec<JoinerEvent>,
    /// Why the first join failed.
    failed: Option<NetError>,
}

impl Joiner {
    /// Joins the host at `addr` with its code; with a data folder the seat is kept there
    /// so a restarted app takes it back.
    pub fn join(
        addr: SocketAddr,
        code: &str,
        timing: Timing,
        store: Option<PathBuf>,
    ) -> Result<Joiner, NetError> {
        let (core, first) = JoinerCore::join(code, timing);
        let mut joiner = Joiner {
            core,
            host: addr,
            channel: None,
            store,
            queued: Vec::new(),
            failed: None,
        };
        joiner.carry_out(first);
        while !joiner.core.connected() {
            if let Some(e) = joiner.failed.take() {
                return Err(e);
            }
            if joiner.core.over() {
                // Every way a first join ends says why (above); this is only a guard.
                return Err(NetError::Stopped);
            }
            joiner.step(Duration::from_millis(50));
        }
        Ok(joiner)
    }

    /// The seat kept in `store` from an earlier run, if any: the joiner starts lost and
    /// comes back through [`Joiner::poll`] (the host decides whether the seat is still
    /// its own; the pairing ends plainly if not).
    pub fn restore(store: PathBuf, timing: Timing) -> Result<Option<Joiner>, String> {
        let Some(seat) = saved::load_seat(&store)? else {
            return Ok(None);
        };
        // A seat kept by a browser's page has no address to dial: not this driver's.
        let SeatHost::Tcp(host) = seat.host else {
            return Ok(None);
        };
        let kept = KeptSeat {
            code: seat.code,
            token: seat.token,
            game_id: seat.game_id,
            next_id: seat.next_id,
            pending: seat.pending,
        };
        Ok(Some(Joiner {
            core: JoinerCore::restore(kept, timing, Instant::now()),
            host,
            channel: None,
            store: Some(store),
            queued: Vec::new(),
            failed: None,
        }))
    }

    /// Where the host is.
    pub fn host(&self) -> SocketAddr {
        self.host
    }

    /// This device's seat (Black).
    pub fn seat(&self) -> Seat {
        super::hosting::CLIENT_SEAT
    }

    /// This seat's view (none until the host has welcomed this device).
    pub fn view(&self) -> Option<&OmigaView> {
        self.core.view()
    }

    /// The countdown the last welcome or start announced.
    pub fn countdown(&self) -> Duration {
        self.core.countdown()
    }

    /// Which game of the pairing is on.
    pub fn game(&self) -> u32 {
        self.core.game()
    }

    /// This seat's legal actions now.
    pub fn legal(&self) -> Vec<Action> {
        self.view().map(legal_from_view).unwrap_or_default()
    }

    /// Whether the connection is up.
    pub fn connected(&self) -> bool {
        self.core.connected()
    }

    /// Whether the pairing is over.
    pub fn over(&self) -> bool {
        self.core.over()
    }

    /// The action sent whose answer has not come yet.
    pub fn pending(&self) -> Option<&Action> {
        self.core.pending()
    }

    /// Sends an action; its answer comes from [`Joiner::poll`] as `Accepted`, `Rejected`
    /// or, after a drop, `Settled`.
    pub fn act(&mut self, action: Action) -> Result<(), NetError> {
        let out = self.core.act(action, Instant::now())?;
        let before = self.queued.len();
        self.carry_out(out);
        // A send that failed lost the connection: the action's fate is settled on
        // coming back.
        let lost = self.queued[before..].iter().find_map(|e| match e {
            JoinerEvent::Lost(why) => Some(why.clone()),
            _ => None,
        });
        match lost {
            Some(why) => Err(NetError::Connection(NetReason::SendDropped {
                why: Box::new(why),
            })),
            None => Ok(()),
        }
    }

    /// Asks for (or agrees to) a rematch once the game is over.
    pub fn rematch(&mut self) -> Result<(), NetError> {
        let out = self.core.rematch(Instant::now())?;
        self.carry_out(out);
        Ok(())
    }

    /// Cuts the connection without a goodbye, as a dropped Wi-Fi would (tests, and the
    /// app when the phone sleeps); the joiner then comes back on its own.
    pub fn drop_connection(&mut self) {
        let out = self.core.drop_link(Instant::now());
        self.carry_out(out);
    }

    /// Leaves on purpose: the host ends the pairing at once and the seat is forgotten.
    pub fn leave(mut self) {
        let out = self.core.leave(Instant::now());
        self.carry_out(out);
    }

    /// Waits up to `wait` for what happens next (and, while lost, tries to come back).
    pub fn poll(&mut self, wait: Duration) -> Vec<JoinerEvent> {
        let deadline = Instant::now() + wait;
        loop {
            if !self.queued.is_empty() {
                return std::mem::take(&mut self.queued);
            }
            let now = Instant::now();
            if now >= deadline {
                return Vec::new();
            }
            self.step(deadline - now);
        }
    }

    /// One look at the connection (waiting at most `wait`), then the clock.
    fn step(&mut self, wait: Duration) {
        let wait = wait.clamp(Duration::from_millis(1), READ_TIMEOUT);
        let received = match &mut self.channel {
            Some(channel) => {
                let _ = channel.set_wait(wait);
                channel.recv()
            }
            None => {
                std::thread::sleep(wait);
                Received::Nothing
            }
        };
        let now = Instant::now();
        let out = match received {
            Received::Msg(msg) => self.core.on_message(msg, now),
            Received::Bad(e) => self.core.on_bad(e.into(), now),
            Received::Closed(e) => self.core.on_closed(e.into(), now),
            Received::Nothing => Vec::new(),
        };
        self.carry_out(out);
        let out = self.core.on_tick(Instant::now());
        self.carry_out(out);
    }

    /// Does what the core asks, in order; what fails goes back to it.
    fn carry_out(&mut self, out: Vec<JoinerOut>) {
        let mut todo: VecDeque<JoinerOut> = out.into();
        while let Some(out) = todo.pop_front() {
            match out {
                JoinerOut::Connect => {
                    let more = match self.connect() {
                        Ok(channel) => {
                            self.channel = Some(channel);
                            self.core.on_open(Instant::now())
                        }
                        Err(why) => self.core.on_connect_failed(why, Instant::now()),
                    };
                    for o in more.into_iter().rev() {
                        todo.push_front(o);
                    }
                }
                JoinerOut::Send(msg) => {
                    let failed = match &mut self.channel {
                        Some(channel) => channel.send(&msg).err(),
                        None => None,
                    };
                    if let Some(e) = failed {
                        let more = self.core.on_closed(e.to_string().into(), Instant::now());
                        todo.extend(more);
                    }
                }
                JoinerOut::Close => {
                    if let Some(mut channel) = self.channel.take() {
                        channel.close();
                    }
                }
                JoinerOut::Event(event) => self.queued.push(event),
                JoinerOut::Failed(e) => self.failed = Some(e),
                JoinerOut::Keep(kept) => {
                    if let Some(dir) = &self.store {
                        let seat = SeatSave {
                            host: SeatHost::Tcp(self.host),
                            code: kept.code,
                            token: kept.token,
                            game_id: kept.game_id,
                            next_id: kept.next_id,
                            pending: kept.pending,
                        };
                        // Not fatal: the game goes on, only a restart could not come back.
                        let _ = saved::save_seat(dir, &seat);
                    }
                }
                JoinerOut::Forget => {
                    if let Some(dir) = &self.store {
                        saved::clear_seat(dir);
                    }
                }
            }
        }
    }

    fn connect(&self) -> Result<TcpChannel<ClientMsg, HostMsg>, NetReason> {
        let io = |e: std::io::Error| NetReason::CannotReachHost {
            addr: self.host.to_string(),
            detail: e.to_string(),
        };
        let stream =
            TcpStream::connect_timeout(&self.host, self.core.timing.hello_within).map_err(io)?;
        TcpChannel::new(stream).map_err(io)
    }
}
