//! The joining device: connects with the join code, then sends actions and receives only
//! its own seat's views and events. A reader thread turns host messages into
//! [`ClientEvent`]s on a channel, so the UI reads them in its event loop; a heartbeat
//! thread keeps the connection alive. After a drop, [`Client::resume`] comes back with the
//! token the host gave. Tests and `benches/net.rs` use it for one connection at a time;
//! the app and `hotseat join` use [`super::Joiner`], whose rules live in
//! [`super::joiner::JoinerCore`].

use super::protocol::{
    decode_host, send, ClientMsg, HostMsg, LineReader, ProtocolError, Read1, Timing,
    PROTOCOL_VERSION,
};
use super::reason::{heard, NetReason};
use super::NetError;
use crate::games::omiga::{Action, Omiga, OmigaEvent, OmigaView};
use crate::games::{Game, Seat};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// What the client's player learns.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientEvent {
    /// A game starts (a rematch): the countdown begins now.
    Started {
        /// Which game of this pairing.
        game: u32,
        /// This seat's view.
        view: OmigaView,
        /// The countdown.
        countdown: Duration,
    },
    /// This device's action `id` was applied.
    Accepted {
        /// The number [`Client::act`] returned.
        id: u64,
        /// What it did.
        event: OmigaEvent,
        /// The view after it.
        view: OmigaView,
    },
    /// This device's action `id` was refused (the card snaps back), with the reason.
    Rejected {
        /// The number [`Client::act`] returned (0 when the host could not read it).
        id: u64,
        /// Why (typed when the host said it typed; else its English).
        reason: NetReason,
    },
    /// The host's player acted.
    OpponentActed {
        /// What they did, as this seat may know it.
        event: OmigaEvent,
        /// The view after it.
        view: OmigaView,
    },
    /// The host's player asks for a rematch.
    RematchOffered,
    /// The host refused something this device sent (not an action).
    Error(NetReason),
    /// The host ended the pairing.
    Ended(NetReason),
    /// The connection is lost, with why; call [`Client::resume`].
    Lost(NetReason),
}

/// A joined device.
pub struct Client {
    addr: SocketAddr,
    code: String,
    token: String,
    game_id: String,
    last_act: u64,
    seat: Seat,
    welcome_view: OmigaView,
    countdown: Duration,
    writer: Arc<Mutex<TcpStream>>,
    events: Receiver<ClientEvent>,
    next_id: AtomicU64,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Client {
    /// Joins the host at `addr` with its 4-digit `code`.
    pub fn join(addr: SocketAddr, code: &str, timing: Timing) -> Result<Client, NetError> {
        Self::connect(addr, code, None, 1, timing)
    }

    /// Comes back after a drop, with the token of the earlier join; the game goes on where
    /// it was.
    pub fn resume(&self, timing: Timing) -> Result<Client, NetError> {
        Self::connect(
            self.addr,
            &self.code,
            Some(self.token.clone()),
            self.next_id.load(Ordering::SeqCst),
            timing,
        )
    }

    /// Comes back with a token kept on disk (the app was killed and started again);
    /// actions are numbered from `next_id` on, above every number sent before.
    pub fn rejoin(
        addr: SocketAddr,
        code: &str,
        token: &str,
        next_id: u64,
        timing: Timing,
    ) -> Result<Client, NetError> {
        Self::connect(addr, code, Some(token.to_string()), next_id, timing)
    }

    fn connect(
        addr: SocketAddr,
        code: &str,
        resume: Option<String>,
        next_id: u64,
        timing: Timing,
    ) -> Result<Client, NetError> {
        let io = |e: std::io::Error| {
            NetError::Connection(NetReason::CannotReachHost {
                addr: addr.to_string(),
                detail: e.to_string(),
            })
        };
        let mut stream = TcpStream::connect_timeout(&addr, timing.hello_within).map_err(io)?;
        stream.set_nodelay(true).map_err(io)?;
        stream
            .set_read_timeout(Some(Duration::from_millis(50)))
            .map_err(io)?;
        stream
            .set_write_timeout(Some(Duration::from_secs(2)))
            .map_err(io)?;
        send(
            &mut stream,
            &ClientMsg::Hello {
                version: PROTOCOL_VERSION,
                code: code.to_string(),
                resume,
            },
        )
        .map_err(io)?;
        let mut reader = LineReader::new(stream.try_clone().map_err(io)?);
        let started = Instant::now();
        let welcome = loop {
            match reader.read_line() {
                Ok(Read1::Line(line)) => match decode_host(&line) {
                    Ok(HostMsg::Ping) => {}
                    Ok(msg) => break msg,
                    Err(e) => {
                        return Err(NetError::Connection(NetReason::FromHost {
                            problem: Box::new(e.into()),
                        }))
                    }
                },
                Ok(Read1::Idle) if started.elapsed() < timing.hello_within => {}
                Ok(Read1::Idle) => return Err(NetError::Connection(NetReason::HostMute)),
                Err(ProtocolError::Closed) => {
                    return Err(NetError::Connection(NetReason::HostClosed))
                }
                Err(e) => return Err(NetError::Connection(e.into())),
            }
        };
        let (seat, token, view, countdown_ms, game_id, last_act) = match welcome {
            HostMsg::Welcome {
                seat,
                token,
                view,
                countdown_ms,
                game_id,
                last_act,
                ..
            } => (seat, token, view, countdown_ms, game_id, last_act),
            HostMsg::Refused { reason, why } | HostMsg::Ended { reason, why } => {
                return Err(NetError::Refused(heard(reason, why)))
            }
            _ => return Err(NetError::Connection(NetReason::NotAHost)),
        };
        // Said at once, so the host knows this device is really here (not a welcome
        // written into a connection this device has already given up).
        send(&mut stream, &ClientMsg::Ping).map_err(io)?;
        let writer = Arc::new(Mutex::new(stream));
        let (tx, events) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let reader_thread = {
            let stop = stop.clone();
            let writer = writer.clone();
            thread::spawn(move || read_loop(reader, tx, timing, stop, writer))
        };
        let beat_thread = {
            let stop = stop.clone();
            let writer = writer.clone();
            thread::spawn(move || heartbeat(writer, timing.heartbeat, stop))
        };
        Ok(Client {
            addr,
            code: code.to_string(),
            token,
            game_id,
            last_act,
            seat,
            welcome_view: view,
            countdown: Duration::from_millis(countdown_ms),
            writer,
            events,
            next_id: AtomicU64::new(next_id.max(1)),
            stop,
            threads: vec![reader_thread, beat_thread],
        })
    }

    /// This device's seat (1, Black).
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The view the host sent on joining (or resuming).
    pub fn first_view(&self) -> &OmigaView {
        &self.welcome_view
    }

    /// The countdown left when the host welcomed this device.
    pub fn countdown(&self) -> Duration {
        self.countdown
    }

    /// The token that lets this device resume.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The match this device plays (from the host's welcome).
    pub fn game_id(&self) -> &str {
        &self.game_id
    }

    /// The number of this device's last action the host had applied when it welcomed
    /// this connection: an action without an answer was applied if its number is at
    /// most this.
    pub fn last_act(&self) -> u64 {
        self.last_act
    }

    /// Where the host is.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The host's join code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The number the next action will get.
    pub fn next_id(&self) -> u64 {
        self.next_id.load(Ordering::SeqCst)
    }

    /// What happened, for the UI's event loop.
    pub fn events(&self) -> &Receiver<ClientEvent> {
        &self.events
    }

    /// Hands the events over to a thread that blocks on them (the UI's forwarding thread,
    /// so no timer polls); `events()` is empty afterwards.
    pub fn take_events(&mut self) -> Receiver<ClientEvent> {
        std::mem::replace(&mut self.events, mpsc::channel().1)
    }

    fn send(&self, msg: &ClientMsg) -> Result<(), NetError> {
        let mut stream = self
            .writer
            .lock()
            .map_err(|_| NetError::Connection(NetReason::Broke))?;
        send(&mut *stream, msg).map_err(|e| NetError::Connection(e.to_string().into()))
    }

    /// Sends an action; the answer comes as `Accepted` or `Rejected` with the returned id.
    pub fn act(&self, action: &Action) -> Result<u64, NetError> {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        self.send(&ClientMsg::Act {
            id,
            action: action.to_string(),
        })?;
        Ok(id)
    }

    /// Sends an action and waits for its answer, handing every other event to `other`.
    pub fn act_and_wait(
        &self,
        action: &Action,
        wait: Duration,
        mut other: impl FnMut(ClientEvent),
    ) -> Result<(OmigaEvent, OmigaView), NetError> {
        let id = self.act(action)?;
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(ClientEvent::Accepted {
                    id: got,
                    event,
                    view,
                }) if got == id => return Ok((event, view)),
                Ok(ClientEvent::Rejected { id: got, reason }) if got == id => {
                    return Err(NetError::Refused(reason))
                }
                Ok(ClientEvent::Lost(reason)) => {
                    other(ClientEvent::Lost(reason.clone()));
                    return Err(NetError::Connection(reason));
                }
                Ok(ev) => other(ev),
                Err(_) => return Err(NetError::Connection(NetReason::NoReply)),
            }
        }
    }

    /// Asks for (or agrees to) a rematch once the game is over.
    pub fn rematch(&self) -> Result<(), NetError> {
        self.send(&ClientMsg::Rematch)
    }

    /// Leaves on purpose: the host ends the pairing at once.
    pub fn leave(self) {
        let _ = self.send(&ClientMsg::Bye);
    }

    /// Cuts the connection without a goodbye, as a dropped Wi-Fi would (tests, and the app
    /// when the phone goes to sleep).
    pub fn drop_connection(&self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Ok(stream) = self.writer.lock() {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.drop_connection();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

fn heartbeat(writer: Arc<Mutex<TcpStream>>, every: Duration, stop: Arc<AtomicBool>) {
    let mut last = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        thread::sleep(Duration::from_millis(20).min(every));
        if last.elapsed() < every {
            continue;
        }
        last = Instant::now();
        let Ok(mut stream) = writer.lock() else {
            return;
        };
        if send(&mut *stream, &ClientMsg::Ping).is_err() {
            return;
        }
    }
}

fn read_loop(
    mut reader: LineReader<TcpStream>,
    tx: Sender<ClientEvent>,
    timing: Timing,
    stop: Arc<AtomicBool>,
    writer: Arc<Mutex<TcpStream>>,
) {
    let mut last_heard = Instant::now();
    let lost = |reason: NetReason| {
        stop.store(true, Ordering::SeqCst);
        if let Ok(stream) = writer.lock() {
            let _ = stream.shutdown(Shutdown::Both);
        }
        let _ = tx.send(ClientEvent::Lost(reason));
    };
    loop {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let line = match reader.read_line() {
            Ok(Read1::Line(line)) => line,
            Ok(Read1::Idle) => {
                if last_heard.elapsed() >= timing.silent_after {
                    lost(NetReason::HostSilent {
                        ms: u64::try_from(timing.silent_after.as_millis()).unwrap_or(u64::MAX),
                    });
                    return;
                }
                continue;
            }
            Err(e) => {
                if !stop.load(Ordering::SeqCst) {
                    lost(e.into());
                }
                return;
            }
        };
        last_heard = Instant::now();
        let event = match decode_host(&line) {
            Ok(HostMsg::Ping) => continue,
            Ok(HostMsg::Accepted { id, event, view }) => ClientEvent::Accepted { id, event, view },
            Ok(HostMsg::Rejected { id, reason, why }) => ClientEvent::Rejected {
                id,
                reason: heard(reason, why),
            },
            Ok(HostMsg::Update { event, view }) => ClientEvent::OpponentActed { event, view },
            Ok(HostMsg::Started {
                game,
                view,
                countdown_ms,
            }) => ClientEvent::Started {
                game,
                view,
                countdown: Duration::from_millis(countdown_ms),
            },
            Ok(HostMsg::RematchOffered) => ClientEvent::RematchOffered,
            Ok(HostMsg::Error { reason, why }) => ClientEvent::Error(heard(reason, why)),
            Ok(HostMsg::Ended { reason, why }) | Ok(HostMsg::Refused { reason, why }) => {
                stop.store(true, Ordering::SeqCst);
                let _ = tx.send(ClientEvent::Ended(heard(reason, why)));
                return;
            }
            Ok(HostMsg::Welcome { .. }) => ClientEvent::Error(NetReason::WelcomedTwice),
            Err(e) => ClientEvent::Error(NetReason::Unreadable {
                problem: Box::new(e.into()),
            }),
        };
        if tx.send(event).is_err() {
            return;
        }
    }
}

/// Every legal action of the view's seat, worked out from the view alone (the table and
/// the own hand are all that placement needs), so the UI can highlight legal cells.
pub fn legal_from_view(view: &OmigaView) -> Vec<Action> {
    if view.outcome.is_over() {
        return Vec::new();
    }
    let cells: Vec<String> = view
        .cells
        .iter()
        .map(|c| {
            let side = match c.side {
                crate::games::omiga::Side::White => 'w',
                crate::games::omiga::Side::Black => 'b',
            };
            format!("{},{}:{side}:{}", c.x, c.y, c.card)
        })
        .collect();
    let hand = view
        .hand
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let hands = if view.seat == 0 {
        format!("{hand}|")
    } else {
        format!("|{hand}")
    };
    let mut position = format!(
        "table={}x{} cells={} hands={hands} decks=|",
        view.width,
        view.height,
        cells.join(";")
    );
    if !view.allow_rotation {
        position.push_str(" allow_rotation=off");
    }
    match Omiga::from_position(&position) {
        Ok(game) => {
            let mut legal: Vec<Action> = game
                .legal_actions(view.seat)
                .into_iter()
                .filter(|a| *a != Action::Discard)
                .collect();
            if view.can_discard {
                legal.push(Action::Discard);
            }
            legal
        }
        // A view from the host is always consistent; if not, nothing is offered.
        Err(_) => Vec::new(),
    }
}
