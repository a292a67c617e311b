//! A host and a joined device in one process, over in-memory links, with a fake clock:
//! the shape of a driver for [`HostMatch`] and [`JoinerCore`] (the TCP ones are
//! `Host` and `Joiner`; a page's would look like this one). The state-machine tests and
//! `benches/net.rs` play through it; nothing here waits or opens a socket.

use super::channel::mem::{pair, MemChannel};
use super::channel::{MessageChannel, Received};
use super::host_match::{ConnId, HostMatch, HostOut, MatchSetup};
use super::joiner::{JoinerCore, JoinerEvent, JoinerOut, KeptSeat};
use super::protocol::{ClientMsg, HostMsg, ProtocolError, RateLimit, Timing};
use super::reason::NetReason;
use super::saved::HostSave;
use super::{HostEvent, NetError};
use crate::games::omiga::{Omiga, OmigaView};
use crate::games::{Game, Outcome, Params};
use crate::platform::time::{Duration, Instant};
use std::collections::HashMap;

/// The join code of an in-memory pairing.
pub const CODE: &str = "4821";

/// A host and a joiner over in-memory links, with a fake clock.
pub struct MemPairing {
    /// The fake clock.
    pub now: Instant,
    /// The host's match.
    pub host: HostMatch,
    /// The host's ends of the links, by connection.
    pub links: HashMap<ConnId, MemChannel<HostMsg, ClientMsg>>,
    /// The number the next connection gets.
    pub next_conn: ConnId,
    /// What the host's player was told.
    pub host_events: Vec<HostEvent>,
    /// The host's save as it stands (none once cleared).
    pub last_save: Option<HostSave>,
    /// The outcomes put into the history.
    pub records: Vec<Outcome>,
    /// The joined device.
    pub joiner: JoinerCore,
    /// The joined device's end of its link.
    pub link: Option<MemChannel<ClientMsg, HostMsg>>,
    /// What the joined device's player was told.
    pub joiner_events: Vec<JoinerEvent>,
    /// The joined device's kept seat (none once forgotten).
    pub kept: Option<KeptSeat>,
    /// Whether a connection to the host can be opened now.
    pub reachable: bool,
    /// Whether the first join failed.
    pub failed: bool,
}

/// A match dealt from `seed` with the code [`CODE`], kept (saves asked for), the default
/// rate limit: what these pairings and the state machines' tests start from.
pub fn setup(seed: u64, timing: Timing) -> Result<MatchSetup, NetError> {
    let params = Params::new().with("seed", seed);
    Ok(MatchSetup {
        game: Omiga::new_game(&params).map_err(|e| NetError::Setup(e.into()))?,
        params,
        code: CODE.into(),
        timing,
        rate: RateLimit::default(),
        keeps: true,
        port: 0,
        resume: None,
    })
}

impl MemPairing {
    /// A pairing dealt from `seed`, the device joined (see `failed` if not).
    pub fn new(seed: u64, timing: Timing) -> Result<MemPairing, NetError> {
        let now = Instant::now();
        let (host, first) = HostMatch::new(setup(seed, timing)?, now)?;
        let (joiner, connect) = JoinerCore::join(CODE, timing);
        let mut sim = MemPairing {
            now,
            host,
            links: HashMap::new(),
            next_conn: 1,
            host_events: Vec::new(),
            last_save: None,
            records: Vec::new(),
            joiner,
            link: None,
            joiner_events: Vec::new(),
            kept: None,
            reachable: true,
            failed: false,
        };
        sim.host_do(first);
        sim.joiner_do(connect);
        sim.settle();
        Ok(sim)
    }

    /// Carries out the host's outputs.
    pub fn host_do(&mut self, outs: Vec<HostOut>) {
        let mut todo: std::collections::VecDeque<HostOut> = outs.into();
        while let Some(out) = todo.pop_front() {
            match out {
                HostOut::Send(c, m) => {
                    let failed = self.links.get_mut(&c).and_then(|l| l.send(&m).err());
                    if let Some(e) = failed {
                        todo.extend(self.host.on_closed(c, e.to_string().into(), self.now));
                    }
                }
                HostOut::Welcome(c, m) => {
                    let written = match self.links.get_mut(&c) {
                        Some(l) => l.send(&m).map_err(|e| e.to_string()),
                        None => Err("gone".into()),
                    };
                    for o in self.host.welcomed(c, written, self.now).into_iter().rev() {
                        todo.push_front(o);
                    }
                }
                HostOut::Close(c) => {
                    if let Some(mut l) = self.links.remove(&c) {
                        l.close();
                    }
                }
                HostOut::Event(e) => self.host_events.push(e),
                HostOut::Save(s) => self.last_save = Some(*s),
                HostOut::Record(_, outcome) => self.records.push(outcome),
                HostOut::Clear => self.last_save = None,
            }
        }
    }

    /// Carries out the joined device's outputs.
    pub fn joiner_do(&mut self, outs: Vec<JoinerOut>) {
        let mut todo: std::collections::VecDeque<JoinerOut> = outs.into();
        while let Some(out) = todo.pop_front() {
            match out {
                JoinerOut::Connect => {
                    let more = if self.reachable {
                        let (j, h) = pair();
                        let conn = self.next_conn;
                        self.next_conn += 1;
                        self.links.insert(conn, h);
                        let outs = self.host.on_connect(conn, self.now);
                        self.host_do(outs);
                        self.link = Some(j);
                        self.joiner.on_open(self.now)
                    } else {
                        let why = NetReason::CannotReachHost {
                            addr: "memory".into(),
                            detail: "unreachable".into(),
                        };
                        self.joiner.on_connect_failed(why, self.now)
                    };
                    for o in more.into_iter().rev() {
                        todo.push_front(o);
                    }
                }
                JoinerOut::Send(m) => {
                    let failed = self.link.as_mut().and_then(|l| l.send(&m).err());
                    if let Some(e) = failed {
                        todo.extend(self.joiner.on_closed(e.to_string().into(), self.now));
                    }
                }
                JoinerOut::Close => {
                    if let Some(mut l) = self.link.take() {
                        l.close();
                    }
                }
                JoinerOut::Event(e) => self.joiner_events.push(e),
                JoinerOut::Failed(_) => self.failed = true,
                JoinerOut::Keep(k) => self.kept = Some(k),
                JoinerOut::Forget => self.kept = None,
            }
        }
    }

    /// Delivers everything on the way, both ways, until nothing moves; then both clocks.
    pub fn settle(&mut self) {
        loop {
            let mut moved = false;
            let conns: Vec<ConnId> = self.links.keys().copied().collect();
            for c in conns {
                let got = match self.links.get_mut(&c) {
                    Some(l) => l.recv(),
                    None => continue,
                };
                let outs = match got {
                    Received::Nothing => continue,
                    Received::Msg(m) => self.host.on_message(c, m, self.now),
                    Received::Bad(e) => self.host.on_bad(c, e.into(), self.now),
                    Received::Closed(e) => {
                        self.links.remove(&c);
                        let why = match e {
                            ProtocolError::Closed => NetReason::DeviceClosed,
                            other => other.into(),
                        };
                        self.host.on_closed(c, why, self.now)
                    }
                };
                moved = true;
                self.host_do(outs);
            }
            let got = self.link.as_mut().map(|l| l.recv());
            let outs = match got {
                None | Some(Received::Nothing) => Vec::new(),
                Some(Received::Msg(m)) => self.joiner.on_message(m, self.now),
                Some(Received::Bad(e)) => self.joiner.on_bad(e.into(), self.now),
                Some(Received::Closed(e)) => {
                    self.link = None;
                    self.joiner.on_closed(e.into(), self.now)
                }
            };
            if !outs.is_empty() {
                moved = true;
            }
            self.joiner_do(outs);
            if !moved {
                break;
            }
        }
        let outs = self.host.on_tick(self.now);
        self.host_do(outs);
        let outs = self.joiner.on_tick(self.now);
        self.joiner_do(outs);
    }

    /// Lets `d` pass in steps of 50 ms, delivering as it goes.
    pub fn pass(&mut self, d: Duration) {
        let end = self.now + d;
        while self.now < end {
            self.now = (self.now + Duration::from_millis(50)).min(end);
            self.settle();
        }
        self.settle();
    }

    /// The joined device's view; panics if it was never welcomed (a test's mistake).
    pub fn joiner_view(&self) -> OmigaView {
        self.joiner.view().cloned().expect("welcomed")
    }
}
