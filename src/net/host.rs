//! The host: the authority of a two-device Omiga game. It plays White (seat 0) on this
//! device and Black (seat 1) for the joined device, validates every action with the rules
//! core, and sends the other device only its own seat's view and events.
//!
//! Threads: one accepts connections, one reads each connection (bounded lines, read
//! timeouts), and one core thread owns the game; all talk to the core over a channel, so
//! the core applies actions in arrival order. The UI (or the headless `host` command)
//! drives it through [`Host`] and reads [`HostEvent`]s from a channel in its event loop.

use super::protocol::{
    decode_client, send, ClientMsg, HostMsg, LineReader, ProtocolError, RateLimit, Read1, Timing,
    PROTOCOL_VERSION,
};
use super::NetError;
use crate::games::omiga::{Action, Omiga, OmigaEvent, OmigaView};
use crate::games::{Game, Outcome, Params, Seat};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The host's seat (White).
pub const HOST_SEAT: Seat = 0;
/// The joined device's seat (Black).
pub const CLIENT_SEAT: Seat = 1;

/// How a host starts.
#[derive(Debug, Clone)]
pub struct HostConfig {
    /// Where to listen (`0.0.0.0:0` on the LAN, `127.0.0.1:0` in tests).
    pub bind: SocketAddr,
    /// The 4-digit join code.
    pub code: String,
    /// How the first game is dealt: the parameters of `new omiga` (`seed=7`).
    pub params: Params,
    /// Start from this position instead (tests, puzzles); rematches deal from `params`.
    pub position: Option<String>,
    /// Heartbeats, timeouts and the countdown.
    pub timing: Timing,
    /// How many actions the client may send.
    pub rate: RateLimit,
}

impl HostConfig {
    /// A host on `bind` with `code`, dealing from `seed`, with the default timings.
    pub fn new(bind: SocketAddr, code: &str, seed: u64) -> Self {
        HostConfig {
            bind,
            code: code.to_string(),
            params: Params::new().with("seed", seed),
            position: None,
            timing: Timing::default(),
            rate: RateLimit::default(),
        }
    }
}

/// A fresh random 4-digit join code.
pub fn random_code() -> String {
    use rand::Rng;
    format!("{:04}", rand::rng().random_range(0..10_000u32))
}

/// Checks that a join code is exactly 4 digits.
pub fn check_code(code: &str) -> Result<(), NetError> {
    if code.len() == 4 && code.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(NetError::Setup(format!(
            "the join code must be 4 digits, got '{}'",
            code.chars().take(12).collect::<String>()
        )))
    }
}

/// What the host tells its own player (the UI or the headless command).
#[derive(Debug, Clone, PartialEq)]
pub enum HostEvent {
    /// A device joined (or came back); the game runs.
    Joined,
    /// A game starts: the countdown begins now.
    Started {
        /// Which game of this pairing.
        game: u32,
        /// White's view.
        view: OmigaView,
        /// The countdown.
        countdown: Duration,
    },
    /// The other device acted.
    OpponentActed {
        /// The event as White may know it.
        event: OmigaEvent,
        /// White's view after it.
        view: OmigaView,
    },
    /// The connection was lost: the game is paused, waiting up to the resume time.
    Paused {
        /// Why.
        reason: String,
    },
    /// The other device is back; the game goes on where it was.
    Resumed,
    /// The other player asks for a rematch.
    RematchOffered,
    /// The pairing is over.
    Ended {
        /// Why.
        reason: String,
    },
    /// Something the host refused or noticed (a wrong code, a second joiner, a flood).
    Notice(String),
}

/// A running host. Dropping it stops every thread.
pub struct Host {
    addr: SocketAddr,
    code: String,
    to_core: Sender<Input>,
    events: Receiver<HostEvent>,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

type Reply<T> = Sender<T>;

enum Input {
    /// A connection said `Hello`; the reader keeps reading and forwards what follows.
    Hello(u64, TcpStream, ClientMsg),
    Msg(u64, ClientMsg),
    Bad(u64, String),
    Gone(u64, String),
    Act(Action, Reply<Result<OmigaEvent, NetError>>),
    View(Reply<OmigaView>),
    Legal(Reply<Vec<Action>>),
    Position(Reply<(String, Vec<(Seat, String)>)>),
    Rematch,
    Bye,
}

impl Host {
    /// Listens on `config.bind` and deals the first game; the countdown starts when a
    /// device joins.
    pub fn start(config: HostConfig) -> Result<Host, NetError> {
        check_code(&config.code)?;
        let game = match &config.position {
            Some(p) => Omiga::from_position(p),
            None => Omiga::new_game(&config.params),
        }
        .map_err(|e| NetError::Setup(e.to_string()))?;
        let listener = TcpListener::bind(config.bind)
            .map_err(|e| NetError::Setup(format!("cannot listen on {}: {e}", config.bind)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| NetError::Setup(e.to_string()))?;
        // Non-blocking accept, polled, so the thread notices `stop`.
        listener
            .set_nonblocking(true)
            .map_err(|e| NetError::Setup(e.to_string()))?;
        let (to_core, inputs) = mpsc::channel();
        let (events_tx, events) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let core = Core {
            game,
            params: config.params.clone(),
            code: config.code.clone(),
            timing: config.timing,
            rate: config.rate,
            peer: Peer::Waiting,
            token: None,
            games: 1,
            play_from: None,
            rematch: [false, false],
            actions: Vec::new(),
            events: events_tx,
        };
        let core_stop = stop.clone();
        let core_thread = thread::spawn(move || core.run(inputs, core_stop));
        let accept_stop = stop.clone();
        let accept_tx = to_core.clone();
        let timing = config.timing;
        let accept_thread =
            thread::spawn(move || accept_loop(listener, accept_tx, timing, accept_stop));
        Ok(Host {
            addr,
            code: config.code,
            to_core,
            events,
            stop,
            threads: vec![core_thread, accept_thread],
        })
    }

    /// The address the host listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The join code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// What happened, for the UI's event loop (`try_recv` each frame, or `recv_timeout`).
    pub fn events(&self) -> &Receiver<HostEvent> {
        &self.events
    }

    /// Hands the events over to a thread that blocks on them (the UI's forwarding thread,
    /// so no timer polls); `events()` is empty afterwards.
    pub fn take_events(&mut self) -> Receiver<HostEvent> {
        std::mem::replace(&mut self.events, mpsc::channel().1)
    }

    fn ask<T>(&self, make: impl FnOnce(Reply<T>) -> Input) -> Result<T, NetError> {
        let (tx, rx) = mpsc::channel();
        self.to_core.send(make(tx)).map_err(|_| NetError::Stopped)?;
        rx.recv().map_err(|_| NetError::Stopped)
    }

    /// Plays White's `action`; the answer is the event, or why it was refused.
    pub fn act(&self, action: Action) -> Result<OmigaEvent, NetError> {
        self.ask(|r| Input::Act(action, r))?
    }

    /// White's view now.
    pub fn view(&self) -> Result<OmigaView, NetError> {
        self.ask(Input::View)
    }

    /// White's legal actions now.
    pub fn legal(&self) -> Result<Vec<Action>, NetError> {
        self.ask(Input::Legal)
    }

    /// The authority's whole position and the actions so far (diagnostics and tests; it
    /// holds both hands, so it never goes on the wire).
    pub fn position(&self) -> Result<(String, Vec<(Seat, String)>), NetError> {
        self.ask(Input::Position)
    }

    /// Asks for (or agrees to) a rematch once the game is over.
    pub fn rematch(&self) -> Result<(), NetError> {
        self.to_core
            .send(Input::Rematch)
            .map_err(|_| NetError::Stopped)
    }

    /// Ends the pairing on purpose: the other device is told, then the host stops.
    pub fn leave(mut self) {
        let _ = self.to_core.send(Input::Bye);
        // Wait for the core to tell the other device before everything stops: stopping
        // first raced the goodbye, and the other device saw a lost connection instead.
        if !self.threads.is_empty() {
            let core = self.threads.remove(0);
            let _ = core.join();
        }
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

const POLL: Duration = Duration::from_millis(20);

fn accept_loop(
    listener: TcpListener,
    to_core: Sender<Input>,
    timing: Timing,
    stop: Arc<AtomicBool>,
) {
    let mut next_id = 1u64;
    while !stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                let id = next_id;
                next_id += 1;
                let tx = to_core.clone();
                let stop = stop.clone();
                // Reader threads end on their own: on EOF, an error, silence, or `stop`.
                thread::spawn(move || read_loop(id, stream, tx, timing, stop));
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => thread::sleep(POLL),
            Err(_) => thread::sleep(POLL),
        }
    }
}

/// Refuses a connection that never got to the core, and closes it.
fn refuse(stream: &mut TcpStream, reason: &str) {
    let _ = send(
        stream,
        &HostMsg::Refused {
            reason: reason.to_string(),
        },
    );
    let _ = stream.shutdown(Shutdown::Both);
}

fn read_loop(
    id: u64,
    mut stream: TcpStream,
    to_core: Sender<Input>,
    timing: Timing,
    stop: Arc<AtomicBool>,
) {
    let setup = stream
        .set_nonblocking(false)
        .and_then(|()| stream.set_nodelay(true))
        .and_then(|()| stream.set_read_timeout(Some(Duration::from_millis(50))))
        .and_then(|()| stream.set_write_timeout(Some(Duration::from_secs(2))));
    let Ok(read_half) = setup.and_then(|()| stream.try_clone()) else {
        return;
    };
    let mut reader = LineReader::new(read_half);
    let mut greeted = false;
    let mut last_heard = Instant::now();
    loop {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let limit = if greeted {
            timing.silent_after
        } else {
            timing.hello_within
        };
        match reader.read_line() {
            Ok(Read1::Idle) => {
                if last_heard.elapsed() >= limit {
                    let reason = if greeted {
                        format!("the other device was silent for {} s", limit.as_secs_f64())
                    } else {
                        format!("no hello within {} s", limit.as_secs_f64())
                    };
                    if greeted {
                        let _ = to_core.send(Input::Gone(id, reason));
                    } else {
                        refuse(&mut stream, &reason);
                    }
                    let _ = stream.shutdown(Shutdown::Both);
                    return;
                }
            }
            Ok(Read1::Line(line)) => {
                last_heard = Instant::now();
                match (greeted, decode_client(&line)) {
                    (false, Ok(hello @ ClientMsg::Hello { .. })) => {
                        let Ok(writer) = stream.try_clone() else {
                            return;
                        };
                        greeted = true;
                        if to_core.send(Input::Hello(id, writer, hello)).is_err() {
                            return;
                        }
                    }
                    (false, Ok(_)) => {
                        refuse(&mut stream, "say hello first (version and join code)");
                        return;
                    }
                    (false, Err(e)) => {
                        refuse(&mut stream, &e.to_string());
                        return;
                    }
                    (true, Ok(msg)) => {
                        if to_core.send(Input::Msg(id, msg)).is_err() {
                            return;
                        }
                    }
                    (true, Err(e)) => {
                        if to_core.send(Input::Bad(id, e.to_string())).is_err() {
                            return;
                        }
                    }
                }
            }
            Err(e) => {
                // Too long, closed (mid-line or not), or a socket error: the line cannot be
                // resynchronised, so the connection ends; the game waits for a resume.
                let reason = match e {
                    ProtocolError::Closed => "the other device closed the connection".to_string(),
                    other => other.to_string(),
                };
                if greeted {
                    let _ = to_core.send(Input::Gone(id, reason));
                } else {
                    refuse(&mut stream, &reason);
                }
                let _ = stream.shutdown(Shutdown::Both);
                return;
            }
        }
    }
}

/// Who is on the other end.
enum Peer {
    /// Nobody joined yet.
    Waiting,
    /// Playing.
    Connected {
        id: u64,
        stream: TcpStream,
        bucket: Bucket,
        last_sent: Instant,
    },
    /// Lost; may come back until `deadline`.
    Lost { deadline: Instant },
    /// The pairing is over.
    Over,
}

/// A token bucket for the client's actions.
struct Bucket {
    tokens: f64,
    at: Instant,
    rate: RateLimit,
}

impl Bucket {
    fn new(rate: RateLimit) -> Self {
        Bucket {
            tokens: rate.burst,
            at: Instant::now(),
            rate,
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.rate.per_second;
        self.tokens = (self.tokens + refill).min(self.rate.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

struct Core {
    game: Omiga,
    params: Params,
    code: String,
    timing: Timing,
    rate: RateLimit,
    peer: Peer,
    token: Option<String>,
    games: u32,
    /// When actions start being taken (end of the countdown); `None` before anyone joined.
    play_from: Option<Instant>,
    rematch: [bool; 2],
    actions: Vec<(Seat, String)>,
    events: Sender<HostEvent>,
}

impl Core {
    fn run(mut self, inputs: Receiver<Input>, stop: Arc<AtomicBool>) {
        while !stop.load(Ordering::SeqCst) {
            match inputs.recv_timeout(POLL) {
                Ok(input) => {
                    let bye = matches!(input, Input::Bye);
                    self.handle(input);
                    if bye {
                        // The other device has been told; nothing more to do.
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            self.tick();
        }
        if let Peer::Connected { stream, .. } = &self.peer {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    fn notify(&self, event: HostEvent) {
        // The local player may have stopped listening; the game goes on regardless.
        let _ = self.events.send(event);
    }

    /// Sends to the connected client; a failed write loses the connection.
    fn tell_client(&mut self, msg: &HostMsg) {
        let failed = match &mut self.peer {
            Peer::Connected {
                stream, last_sent, ..
            } => {
                *last_sent = Instant::now();
                send(stream, msg).err()
            }
            _ => None,
        };
        if let Some(e) = failed {
            self.lose(format!("cannot reach the other device: {e}"));
        }
    }

    fn current(&self, id: u64) -> bool {
        matches!(self.peer, Peer::Connected { id: c, .. } if c == id)
    }

    fn countdown_left(&self) -> Duration {
        self.play_from.map_or(Duration::ZERO, |t| {
            t.saturating_duration_since(Instant::now())
        })
    }

    fn handle(&mut self, input: Input) {
        match input {
            Input::Hello(id, stream, hello) => self.hello(id, stream, hello),
            Input::Msg(id, msg) if self.current(id) => self.message(msg),
            Input::Bad(id, reason) if self.current(id) => {
                self.notify(HostEvent::Notice(format!("refused a message: {reason}")));
                self.tell_client(&HostMsg::Error { reason });
            }
            Input::Gone(id, reason) if self.current(id) => self.lose(reason),
            Input::Msg(..) | Input::Bad(..) | Input::Gone(..) => {}
            Input::Act(action, reply) => {
                let _ = reply.send(self.act(HOST_SEAT, &action));
            }
            Input::View(reply) => {
                let _ = reply.send(self.game.view(HOST_SEAT));
            }
            Input::Legal(reply) => {
                let _ = reply.send(self.game.legal_actions(HOST_SEAT));
            }
            Input::Position(reply) => {
                let _ = reply.send((self.game.position(), self.actions.clone()));
            }
            Input::Rematch => self.vote_rematch(HOST_SEAT),
            Input::Bye => {
                self.tell_client(&HostMsg::Ended {
                    reason: "the host left the game".into(),
                });
                self.end_pairing();
            }
        }
    }

    fn hello(&mut self, id: u64, mut stream: TcpStream, hello: ClientMsg) {
        let ClientMsg::Hello {
            version,
            code,
            resume,
        } = hello
        else {
            return;
        };
        let refusal = if version != PROTOCOL_VERSION {
            Some(format!(
                "this host speaks protocol version {PROTOCOL_VERSION}, the device speaks {version}: update the app"
            ))
        } else if code != self.code {
            Some("wrong join code".to_string())
        } else {
            match (&self.peer, &resume, &self.token) {
                (Peer::Waiting, _, _) => None,
                // Its own player on a new connection while the old one still looks alive
                // (the Wi-Fi dropped without a goodbye): the token proves who it is.
                (Peer::Connected { .. }, Some(t), Some(mine)) if t == mine => None,
                (Peer::Connected { .. }, _, _) => {
                    Some("another device has already joined this game".to_string())
                }
                (Peer::Lost { .. }, Some(t), Some(mine)) if t == mine => None,
                (Peer::Lost { .. }, _, _) => {
                    Some("this game is waiting for its own player to come back".to_string())
                }
                (Peer::Over, _, _) => Some("this game is over".to_string()),
            }
        };
        if let Some(reason) = refusal {
            self.notify(HostEvent::Notice(format!("refused a device: {reason}")));
            refuse(&mut stream, &reason);
            return;
        }
        let resuming = matches!(self.peer, Peer::Lost { .. } | Peer::Connected { .. });
        if let Peer::Connected { stream: old, .. } = &self.peer {
            // The old connection's reader reports it gone; `current` ignores that id.
            let _ = old.shutdown(Shutdown::Both);
        }
        let token = self.token.get_or_insert_with(new_token).clone();
        if self.play_from.is_none() {
            self.play_from = Some(Instant::now() + self.timing.countdown);
        }
        self.peer = Peer::Connected {
            id,
            stream,
            bucket: Bucket::new(self.rate),
            last_sent: Instant::now(),
        };
        let welcome = HostMsg::Welcome {
            version: PROTOCOL_VERSION,
            seat: CLIENT_SEAT,
            token,
            view: self.game.view(CLIENT_SEAT),
            countdown_ms: millis(self.countdown_left()),
        };
        self.tell_client(&welcome);
        if resuming {
            self.notify(HostEvent::Resumed);
        } else {
            self.notify(HostEvent::Joined);
            self.notify(HostEvent::Started {
                game: self.games,
                view: self.game.view(HOST_SEAT),
                countdown: self.countdown_left(),
            });
        }
    }

    fn message(&mut self, msg: ClientMsg) {
        match msg {
            ClientMsg::Hello { .. } => self.tell_client(&HostMsg::Error {
                reason: "already joined: hello is only the first message".into(),
            }),
            ClientMsg::Ping => {}
            ClientMsg::Rematch => self.vote_rematch(CLIENT_SEAT),
            ClientMsg::Bye => {
                self.notify(HostEvent::Ended {
                    reason: "the other player left the game".into(),
                });
                self.end_pairing();
            }
            ClientMsg::Act { id, action } => {
                let allowed = match &mut self.peer {
                    Peer::Connected { bucket, .. } => bucket.take(),
                    _ => false,
                };
                if !allowed {
                    let reason = format!(
                        "too many actions: at most {} a second",
                        self.rate.per_second
                    );
                    self.notify(HostEvent::Notice(format!("refused a flood: {reason}")));
                    self.tell_client(&HostMsg::Rejected { id, reason });
                    return;
                }
                let result = action
                    .parse::<Action>()
                    .map_err(|e| NetError::Refused(e.to_string()))
                    .and_then(|a| self.act(CLIENT_SEAT, &a));
                match result {
                    Ok(event) => {
                        let msg = HostMsg::Accepted {
                            id,
                            event: Omiga::event_for(&event, CLIENT_SEAT),
                            view: self.game.view(CLIENT_SEAT),
                        };
                        self.tell_client(&msg);
                    }
                    Err(e) => self.tell_client(&HostMsg::Rejected {
                        id,
                        reason: e.to_string(),
                    }),
                }
            }
        }
    }

    /// Applies an action of `seat` and tells the other seat; refuses while the game cannot
    /// take actions (nobody joined, countdown, paused, over).
    fn act(&mut self, seat: Seat, action: &Action) -> Result<OmigaEvent, NetError> {
        match self.peer {
            Peer::Waiting => {
                return Err(NetError::Refused(
                    "wait for the other device to join".into(),
                ))
            }
            Peer::Lost { .. } => {
                return Err(NetError::Refused(
                    "the game is paused: connection lost — waiting".into(),
                ))
            }
            Peer::Over => return Err(NetError::Refused("this game is over".into())),
            Peer::Connected { .. } => {}
        }
        if !self.countdown_left().is_zero() {
            return Err(NetError::Refused("wait for the countdown to end".into()));
        }
        let event = self
            .game
            .play(seat, action)
            .map_err(|e| NetError::Refused(e.0))?;
        self.actions.push((seat, action.to_string()));
        if seat == HOST_SEAT {
            let msg = HostMsg::Update {
                event: Omiga::event_for(&event, CLIENT_SEAT),
                view: self.game.view(CLIENT_SEAT),
            };
            self.tell_client(&msg);
        } else {
            self.notify(HostEvent::OpponentActed {
                event: Omiga::event_for(&event, HOST_SEAT),
                view: self.game.view(HOST_SEAT),
            });
        }
        Ok(Omiga::event_for(&event, seat))
    }

    fn vote_rematch(&mut self, seat: Seat) {
        if self.game.outcome() == Outcome::Ongoing || !matches!(self.peer, Peer::Connected { .. }) {
            let reason = "a rematch is possible once the game is over, with both devices here";
            if seat == CLIENT_SEAT {
                self.tell_client(&HostMsg::Error {
                    reason: reason.into(),
                });
            } else {
                self.notify(HostEvent::Notice(reason.into()));
            }
            return;
        }
        self.rematch[seat] = true;
        if self.rematch != [true, true] {
            if seat == CLIENT_SEAT {
                self.notify(HostEvent::RematchOffered);
            } else {
                self.tell_client(&HostMsg::RematchOffered);
            }
            return;
        }
        // Each rematch is dealt from the next seed, so a pairing's games differ but replay.
        let seed = self
            .params
            .get("seed")
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(0)
            .wrapping_add(u64::from(self.games));
        match Omiga::new_game(&self.params.clone().with("seed", seed)) {
            Ok(game) => self.game = game,
            Err(e) => {
                self.notify(HostEvent::Notice(format!("cannot deal a rematch: {e}")));
                return;
            }
        }
        self.games += 1;
        self.rematch = [false, false];
        self.actions.clear();
        self.play_from = Some(Instant::now() + self.timing.countdown);
        let countdown = self.countdown_left();
        let msg = HostMsg::Started {
            game: self.games,
            view: self.game.view(CLIENT_SEAT),
            countdown_ms: millis(countdown),
        };
        self.tell_client(&msg);
        self.notify(HostEvent::Started {
            game: self.games,
            view: self.game.view(HOST_SEAT),
            countdown,
        });
    }

    /// The connection is gone: pause and wait for the same device to come back.
    fn lose(&mut self, reason: String) {
        if let Peer::Connected { stream, .. } = &self.peer {
            let _ = stream.shutdown(Shutdown::Both);
        }
        self.peer = Peer::Lost {
            deadline: Instant::now() + self.timing.resume_within,
        };
        self.notify(HostEvent::Paused {
            reason: format!("Connection lost — waiting ({reason})"),
        });
    }

    fn end_pairing(&mut self) {
        if let Peer::Connected { stream, .. } = &self.peer {
            let _ = stream.shutdown(Shutdown::Both);
        }
        self.peer = Peer::Over;
    }

    fn tick(&mut self) {
        match &self.peer {
            Peer::Lost { deadline } if Instant::now() >= *deadline => {
                self.peer = Peer::Over;
                self.notify(HostEvent::Ended {
                    reason: format!(
                        "the other device did not come back within {} s; the game ends here",
                        self.timing.resume_within.as_secs()
                    ),
                });
            }
            Peer::Connected { last_sent, .. } if last_sent.elapsed() >= self.timing.heartbeat => {
                self.tell_client(&HostMsg::Ping);
            }
            _ => {}
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn new_token() -> String {
    use rand::Rng;
    format!("{:032x}", rand::rng().random::<u128>())
}
