//! The host: the authority of a two-device Omiga game. It plays White (seat 0) on this
//! device and Black (seat 1) for the joined device, validates every action with the rules
//! core, and sends the other device only its own seat's view and events.
//!
//! Threads: one accepts connections and reads every stranger's hello itself, without a
//! thread per stranger (at most [`MAX_PENDING`] wait, each for at most the hello time in
//! all); one reads the joined device's connection (bounded lines, read timeouts); one
//! core thread owns the game. All talk to the core over a channel, so the core applies
//! actions in arrival order. The UI (or the headless `host` command) drives it through
//! [`Host`] and reads [`HostEvent`]s from a channel in its event loop.
//!
//! With a data folder the match is saved after every action (`saved::HOST_FILE`), so a
//! host whose app was killed starts again into the same match; a match whose other device
//! never came back goes to the history as unfinished.

use super::protocol::{
    decode_client, send, ClientMsg, HostMsg, LineReader, ProtocolError, RateLimit, Read1, Timing,
    PROTOCOL_VERSION,
};
use super::reason::NetReason;
use super::saved::{self, HostSave};
use super::NetError;
use crate::games::omiga::{Action, Omiga, OmigaEvent, OmigaView};
use crate::games::{Game, Outcome, Params, Seat};
use std::collections::VecDeque;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The host's seat (White).
pub const HOST_SEAT: Seat = 0;
/// The joined device's seat (Black).
pub const CLIENT_SEAT: Seat = 1;
/// How many connections may wait for their hello at once; a newer one pushes the oldest
/// out (a real device says hello at once, an idle stranger never does).
pub const MAX_PENDING: usize = 32;

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
    /// The data folder the match is saved in after every action (`None`: not saved).
    pub store: Option<PathBuf>,
    /// A saved match to go on with (its code, port and token replace the others).
    pub resume: Option<HostSave>,
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
            store: None,
            resume: None,
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
        Err(NetError::Setup(NetReason::BadCode {
            got: code.chars().take(12).collect(),
        }))
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
        reason: NetReason,
    },
    /// The other device is back; the game goes on where it was.
    Resumed,
    /// The other player asks for a rematch.
    RematchOffered,
    /// The pairing is over.
    Ended {
        /// Why.
        reason: NetReason,
    },
    /// Something the host refused or noticed (a wrong code, a second joiner, a flood).
    Notice(NetReason),
}

impl HostEvent {
    /// One line for a person, no debug formats.
    pub fn describe(&self) -> String {
        match self {
            HostEvent::Joined => "joined".into(),
            HostEvent::Started {
                game, countdown, ..
            } => format!("started game {game} countdown {}", countdown.as_secs_f64()),
            HostEvent::OpponentActed { event, .. } => super::headless::describe(event),
            HostEvent::Paused { reason } => format!("paused {reason}"),
            HostEvent::Resumed => "resumed".into(),
            HostEvent::RematchOffered => "rematch offered".into(),
            HostEvent::Ended { reason } => format!("ended {reason}"),
            HostEvent::Notice(n) => format!("notice {n}"),
        }
    }
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
    /// The greeter refused a stranger (told to the local player).
    Notice(NetReason),
    Msg(u64, ClientMsg),
    Bad(u64, NetReason),
    Gone(u64, NetReason),
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
        let mut config = config;
        if let Some(save) = &config.resume {
            config.code = save.code.clone();
            config.bind.set_port(save.port);
            config.params = Params::parse(save.saved.params.split_whitespace()).map_err(|e| {
                NetError::Setup(NetReason::BadSave {
                    detail: e.to_string(),
                })
            })?;
        }
        check_code(&config.code)?;
        let game = match (&config.resume, &config.position) {
            // Only a damaged file meets this: its words stay English.
            (Some(save), _) => save.game().map_err(|e| NetError::Setup(e.into())),
            (None, Some(p)) => Omiga::from_position(p).map_err(|e| NetError::Setup(e.into())),
            (None, None) => Omiga::new_game(&config.params).map_err(|e| NetError::Setup(e.into())),
        }?;
        let listener = TcpListener::bind(config.bind).map_err(|e| {
            NetError::Setup(NetReason::CannotListen {
                addr: config.bind.to_string(),
                detail: e.to_string(),
            })
        })?;
        let addr = listener
            .local_addr()
            .map_err(|e| NetError::Setup(e.to_string().into()))?;
        // Non-blocking accept, polled, so the thread notices `stop`.
        listener
            .set_nonblocking(true)
            .map_err(|e| NetError::Setup(e.to_string().into()))?;
        let (to_core, inputs) = mpsc::channel();
        let (events_tx, events) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let mut core = Core {
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
            store: config.store.clone(),
            game_id: new_token(),
            port: addr.port(),
            last_act: 0,
        };
        if let Some(save) = config.resume {
            core.game_id = save.game_id;
            core.games = save.game;
            core.last_act = save.last_act;
            core.actions = save.saved.actions;
            // The countdown ran before the crash.
            core.play_from = Some(Instant::now());
            if let Some(token) = save.token {
                core.token = Some(token);
                core.peer = Peer::Lost {
                    deadline: Instant::now() + config.timing.resume_within,
                };
            }
        }
        core.save();
        let core_stop = stop.clone();
        let core_thread = thread::spawn(move || core.run(inputs, core_stop));
        let accept_stop = stop.clone();
        let accept_tx = to_core.clone();
        let greeter = Greeter {
            timing: config.timing,
            code: config.code.clone(),
            to_core: accept_tx,
            stop: accept_stop,
        };
        let accept_thread = thread::spawn(move || greeter.run(listener));
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

/// A connection that has not said hello yet.
struct Pending {
    id: u64,
    stream: TcpStream,
    reader: LineReader<TcpStream>,
    since: Instant,
}

/// What reading a waiting connection gave.
enum Greeting {
    /// Nothing whole yet.
    Wait,
    /// The connection is done with (refused, or gone).
    Drop,
    /// A hello with the right version and code.
    Hello(ClientMsg),
}

/// Accepts connections and reads their hellos on one thread: strangers cost a socket,
/// not a thread, and no more than [`MAX_PENDING`] of them are kept.
struct Greeter {
    timing: Timing,
    code: String,
    to_core: Sender<Input>,
    stop: Arc<AtomicBool>,
}

impl Greeter {
    fn run(self, listener: TcpListener) {
        let mut pending: VecDeque<Pending> = VecDeque::new();
        let mut next_id = 1u64;
        while !self.stop.load(Ordering::SeqCst) {
            let mut busy = false;
            // Every connection the kernel has queued, then every waiting one read once.
            while let Ok((stream, _)) = listener.accept() {
                busy = true;
                let id = next_id;
                next_id += 1;
                let Some(mut p) = pending_of(id, stream) else {
                    continue;
                };
                // A real device sends its hello right behind the handshake, so it is
                // usually read here at once, before a crowd of idle strangers could push
                // it out of the queue.
                match self.greet(&mut p) {
                    Greeting::Wait => pending.push_back(p),
                    Greeting::Drop => continue,
                    Greeting::Hello(hello) => {
                        self.welcome(p, hello);
                        continue;
                    }
                }
                if pending.len() > MAX_PENDING {
                    if let Some(mut oldest) = pending.pop_front() {
                        refuse(&mut oldest.stream, &NetReason::Crowded);
                    }
                }
            }
            let mut i = 0;
            while i < pending.len() {
                match self.greet(&mut pending[i]) {
                    Greeting::Wait => i += 1,
                    Greeting::Drop => {
                        busy = true;
                        pending.remove(i);
                    }
                    Greeting::Hello(hello) => {
                        busy = true;
                        if let Some(p) = pending.remove(i) {
                            self.welcome(p, hello);
                        }
                    }
                }
            }
            if !busy {
                thread::sleep(POLL / 2);
            }
        }
    }

    /// Reads what a waiting connection sent. The hello time counts from the accept, in
    /// all: a sender that drips a byte at a time is refused when it runs out, like one
    /// that sends nothing.
    fn greet(&self, p: &mut Pending) -> Greeting {
        if p.since.elapsed() >= self.timing.hello_within {
            refuse(
                &mut p.stream,
                &NetReason::NoHello {
                    ms: millis(self.timing.hello_within),
                },
            );
            return Greeting::Drop;
        }
        let line = match p.reader.read_line() {
            Ok(Read1::Idle) => return Greeting::Wait,
            Ok(Read1::Line(line)) => line,
            Err(ProtocolError::Closed) => return Greeting::Drop,
            Err(e) => {
                refuse(&mut p.stream, &e.into());
                return Greeting::Drop;
            }
        };
        let reason = match decode_client(&line) {
            Ok(ClientMsg::Hello { version, .. }) if version != PROTOCOL_VERSION => {
                NetReason::Version {
                    host: PROTOCOL_VERSION,
                    device: version,
                }
            }
            Ok(ClientMsg::Hello { ref code, .. }) if *code != self.code => NetReason::WrongCode,
            Ok(hello @ ClientMsg::Hello { .. }) => {
                // A device that gave up waiting (the host was paused) has closed its end;
                // its hello is stale and must not displace the attempt it is making now.
                let mut probe = [0u8; 1];
                if matches!(p.stream.peek(&mut probe), Ok(0)) {
                    let _ = self.to_core.send(Input::Notice(NetReason::StaleHello));
                    return Greeting::Drop;
                }
                return Greeting::Hello(hello);
            }
            Ok(_) => NetReason::HelloFirst,
            Err(e) => e.into(),
        };
        let _ = self.to_core.send(Input::Notice(NetReason::RefusedDevice {
            why: Box::new(reason.clone()),
        }));
        refuse(&mut p.stream, &reason);
        Greeting::Drop
    }

    /// Hands a greeted connection to the core, with a reader thread of its own.
    fn welcome(&self, p: Pending, hello: ClientMsg) {
        let Pending {
            id, stream, reader, ..
        } = p;
        let setup = stream
            .set_nonblocking(false)
            .and_then(|()| stream.set_read_timeout(Some(Duration::from_millis(50))))
            .and_then(|()| stream.set_write_timeout(Some(Duration::from_secs(2))));
        let Ok(writer) = setup.and_then(|()| stream.try_clone()) else {
            return;
        };
        if self.to_core.send(Input::Hello(id, writer, hello)).is_err() {
            return;
        }
        let tx = self.to_core.clone();
        let stop = self.stop.clone();
        let timing = self.timing;
        // Reader threads end on their own: on EOF, an error, silence, or `stop`.
        thread::spawn(move || read_loop(id, stream, reader, tx, timing, stop));
    }
}

/// A freshly accepted connection, non-blocking, to be read by the greeter.
fn pending_of(id: u64, stream: TcpStream) -> Option<Pending> {
    stream.set_nonblocking(true).ok()?;
    stream.set_nodelay(true).ok()?;
    let reader = LineReader::new(stream.try_clone().ok()?);
    Some(Pending {
        id,
        stream,
        reader,
        since: Instant::now(),
    })
}

/// Refuses a connection that never got to the core, and closes it.
fn refuse(stream: &mut TcpStream, reason: &NetReason) {
    // A stranger that reads nothing must not hold the greeter: the line goes out at once
    // or not at all.
    let _ = stream.set_nonblocking(true);
    let _ = send(stream, &HostMsg::refused(reason));
    let _ = stream.shutdown(Shutdown::Both);
}

/// Reads the joined device's messages for the core.
fn read_loop(
    id: u64,
    stream: TcpStream,
    mut reader: LineReader<TcpStream>,
    to_core: Sender<Input>,
    timing: Timing,
    stop: Arc<AtomicBool>,
) {
    let mut last_heard = Instant::now();
    loop {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        // Checked on every turn, not only when a read times out: a peer dripping bytes
        // without a newline is as silent as one sending nothing.
        if last_heard.elapsed() >= timing.silent_after {
            let reason = NetReason::DeviceSilent {
                ms: millis(timing.silent_after),
            };
            let _ = to_core.send(Input::Gone(id, reason));
            let _ = stream.shutdown(Shutdown::Both);
            return;
        }
        match reader.read_line() {
            Ok(Read1::Idle) => {}
            Ok(Read1::Line(line)) => {
                last_heard = Instant::now();
                let input = match decode_client(&line) {
                    Ok(msg) => Input::Msg(id, msg),
                    Err(e) => Input::Bad(id, e.into()),
                };
                if to_core.send(input).is_err() {
                    return;
                }
            }
            Err(e) => {
                // Too long, closed (mid-line or not), or a socket error: the line cannot be
                // resynchronised, so the connection ends; the game waits for a resume.
                let reason = match e {
                    ProtocolError::Closed => NetReason::DeviceClosed,
                    other => other.into(),
                };
                let _ = to_core.send(Input::Gone(id, reason));
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
        /// The device has spoken on this connection since its welcome: only then is it
        /// really back (a welcome written into a dead connection proves nothing).
        confirmed: bool,
        /// It came back after a drop (told as `Resumed` once confirmed).
        resuming: bool,
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
    /// Where the match is saved after every action.
    store: Option<PathBuf>,
    /// Names the match for the joiner's saved seat.
    game_id: String,
    /// Where the host listens (saved, so a restart listens there again).
    port: u16,
    /// The number of the joiner's last applied action.
    last_act: u64,
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

    /// Saves the match, as after every action of a local game. A failed save is told
    /// once per failure and the game goes on.
    fn save(&self) {
        let Some(dir) = &self.store else { return };
        if matches!(self.peer, Peer::Over) {
            return;
        }
        let save = HostSave {
            game_id: self.game_id.clone(),
            code: self.code.clone(),
            port: self.port,
            token: self.token.clone(),
            game: self.games,
            last_act: self.last_act,
            saved_at: saved::now_secs(),
            saved: saved::to_saved(&self.params.to_string(), &self.actions, &self.game),
        };
        if let Err(detail) = saved::save_host(dir, &save) {
            self.notify(HostEvent::Notice(NetReason::NotSaved { detail }));
        }
    }

    /// The pairing is over: a game still going goes to the history as unfinished, and
    /// the save is removed.
    fn close_match(&self) {
        let Some(dir) = &self.store else { return };
        if !self.game.outcome().is_over() && !self.actions.is_empty() {
            let saved = saved::to_saved(&self.params.to_string(), &self.actions, &self.game);
            if let Err(detail) = saved::record(dir, &saved, &self.game) {
                self.notify(HostEvent::Notice(NetReason::NotSaved { detail }));
            }
        }
        saved::clear_host(dir);
    }

    /// A game of the pairing ended: it goes to the history with its result.
    fn record_finished(&self) {
        let Some(dir) = &self.store else { return };
        let saved = saved::to_saved(&self.params.to_string(), &self.actions, &self.game);
        if let Err(detail) = saved::record(dir, &saved, &self.game) {
            self.notify(HostEvent::Notice(NetReason::NotSaved { detail }));
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
            self.lose(NetReason::CannotReachDevice {
                detail: e.to_string(),
            });
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
            Input::Notice(n) => self.notify(HostEvent::Notice(n)),
            Input::Msg(id, msg) if self.current(id) => {
                self.confirm();
                self.message(msg);
            }
            Input::Bad(id, reason) if self.current(id) => {
                self.notify(HostEvent::Notice(NetReason::RefusedMessage {
                    why: Box::new(reason.clone()),
                }));
                self.tell_client(&HostMsg::error(&reason));
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
                self.tell_client(&HostMsg::ended(&NetReason::HostLeft));
                self.end_pairing();
            }
        }
    }

    /// The current connection spoke: if it came back after a drop, it is back now.
    fn confirm(&mut self) {
        if let Peer::Connected {
            confirmed,
            resuming,
            ..
        } = &mut self.peer
        {
            if !*confirmed {
                *confirmed = true;
                if *resuming {
                    self.notify(HostEvent::Resumed);
                }
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
            Some(NetReason::Version {
                host: PROTOCOL_VERSION,
                device: version,
            })
        } else if code != self.code {
            Some(NetReason::WrongCode)
        } else {
            match (&self.peer, &resume, &self.token) {
                // A token this host never gave: the device was in a game the host no
                // longer has (restarted after the resume time, or another host).
                (Peer::Waiting, Some(_), _) => Some(NetReason::HostForgot),
                (Peer::Waiting, None, _) => None,
                // Its own player on a new connection while the old one still looks alive
                // (the Wi-Fi dropped without a goodbye): the token proves who it is.
                (Peer::Connected { .. }, Some(t), Some(mine)) if t == mine => None,
                (Peer::Connected { .. }, _, _) => Some(NetReason::AlreadyJoined),
                (Peer::Lost { .. }, Some(t), Some(mine)) if t == mine => None,
                (Peer::Lost { .. }, _, _) => Some(NetReason::AwaitingOwnPlayer),
                (Peer::Over, _, _) => Some(NetReason::PairingOver),
            }
        };
        if let Some(reason) = refusal {
            self.notify(HostEvent::Notice(NetReason::RefusedDevice {
                why: Box::new(reason.clone()),
            }));
            refuse(&mut stream, &reason);
            return;
        }
        let resuming = matches!(self.peer, Peer::Lost { .. } | Peer::Connected { .. });
        let first = self.token.is_none();
        let token = self.token.get_or_insert_with(new_token).clone();
        if self.play_from.is_none() {
            self.play_from = Some(Instant::now() + self.timing.countdown);
        }
        let welcome = HostMsg::Welcome {
            version: PROTOCOL_VERSION,
            seat: CLIENT_SEAT,
            token,
            view: self.game.view(CLIENT_SEAT),
            countdown_ms: millis(self.countdown_left()),
            game_id: self.game_id.clone(),
            last_act: self.last_act,
        };
        // The welcome is written before the new connection replaces anything: one that
        // cannot take it leaves the game as it was (still waiting, same deadline).
        if let Err(e) = send(&mut stream, &welcome) {
            self.notify(HostEvent::Notice(NetReason::LostAgain {
                detail: e.to_string(),
            }));
            let _ = stream.shutdown(Shutdown::Both);
            return;
        }
        if let Peer::Connected { stream: old, .. } = &self.peer {
            // The old connection's reader reports it gone; `current` ignores that id.
            let _ = old.shutdown(Shutdown::Both);
        }
        self.peer = Peer::Connected {
            id,
            stream,
            bucket: Bucket::new(self.rate),
            last_sent: Instant::now(),
            confirmed: false,
            resuming,
        };
        if first {
            self.save();
        }
        if !resuming {
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
            ClientMsg::Hello { .. } => self.tell_client(&HostMsg::error(&NetReason::HelloTwice)),
            ClientMsg::Ping => {}
            ClientMsg::Rematch => self.vote_rematch(CLIENT_SEAT),
            ClientMsg::Bye => {
                self.notify(HostEvent::Ended {
                    reason: NetReason::OtherLeft,
                });
                self.end_pairing();
            }
            ClientMsg::Act { id, .. } if id <= self.last_act => {
                // Numbers only grow: an old number is an action sent again after a drop,
                // already applied once; it must not be applied twice.
                self.tell_client(&HostMsg::rejected(id, &NetReason::AlreadyReceived));
            }
            ClientMsg::Act { id, action } => {
                let allowed = match &mut self.peer {
                    Peer::Connected { bucket, .. } => bucket.take(),
                    _ => false,
                };
                if !allowed {
                    let reason = NetReason::Flood {
                        per_second: self.rate.per_second,
                    };
                    self.notify(HostEvent::Notice(NetReason::RefusedFlood {
                        why: Box::new(reason.clone()),
                    }));
                    self.tell_client(&HostMsg::rejected(id, &reason));
                    return;
                }
                let result = action
                    .parse::<Action>()
                    .map_err(|e| NetError::Refused(e.into()))
                    .and_then(|a| self.act_numbered(CLIENT_SEAT, &a, id));
                match result {
                    Ok(event) => {
                        let msg = HostMsg::Accepted {
                            id,
                            event: Omiga::event_for(&event, CLIENT_SEAT),
                            view: self.game.view(CLIENT_SEAT),
                        };
                        self.tell_client(&msg);
                    }
                    Err(e) => self.tell_client(&HostMsg::rejected(id, &e.reason())),
                }
            }
        }
    }

    /// Applies an action of `seat` and tells the other seat; refuses while the game cannot
    /// take actions (nobody joined, countdown, paused, over).
    fn act(&mut self, seat: Seat, action: &Action) -> Result<OmigaEvent, NetError> {
        self.act_numbered(seat, action, self.last_act)
    }

    /// Applies an action; `id` is the joiner's number for its own (saved with the match
    /// before anything is sent, so after a crash the welcome still tells what was applied).
    fn act_numbered(
        &mut self,
        seat: Seat,
        action: &Action,
        id: u64,
    ) -> Result<OmigaEvent, NetError> {
        match self.peer {
            Peer::Waiting => return Err(NetError::Refused(NetReason::WaitForJoin)),
            Peer::Lost { .. } => return Err(NetError::Refused(NetReason::Paused)),
            Peer::Over => return Err(NetError::Refused(NetReason::PairingOver)),
            Peer::Connected { .. } => {}
        }
        if !self.countdown_left().is_zero() {
            return Err(NetError::Refused(NetReason::Countdown));
        }
        let event = self
            .game
            .play(seat, action)
            .map_err(|e| NetError::Refused(e.into()))?;
        self.actions.push((seat, action.to_string()));
        self.last_act = id;
        self.save();
        if event.outcome.is_over() {
            self.record_finished();
        }
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
            if seat == CLIENT_SEAT {
                self.tell_client(&HostMsg::error(&NetReason::RematchNotNow));
            } else {
                self.notify(HostEvent::Notice(NetReason::RematchNotNow));
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
                self.notify(HostEvent::Notice(NetReason::NoRematchDeal {
                    detail: e.to_string(),
                }));
                return;
            }
        }
        self.games += 1;
        self.rematch = [false, false];
        self.actions.clear();
        self.play_from = Some(Instant::now() + self.timing.countdown);
        self.save();
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
    fn lose(&mut self, reason: NetReason) {
        if let Peer::Connected { stream, .. } = &self.peer {
            let _ = stream.shutdown(Shutdown::Both);
        }
        self.peer = Peer::Lost {
            deadline: Instant::now() + self.timing.resume_within,
        };
        self.notify(HostEvent::Paused {
            reason: NetReason::ConnectionLost {
                why: Box::new(reason),
            },
        });
    }

    fn end_pairing(&mut self) {
        if let Peer::Connected { stream, .. } = &self.peer {
            let _ = stream.shutdown(Shutdown::Both);
        }
        self.close_match();
        self.peer = Peer::Over;
    }

    fn tick(&mut self) {
        match &self.peer {
            Peer::Lost { deadline } if Instant::now() >= *deadline => {
                let secs = self.timing.resume_within.as_secs();
                let reason = if self.store.is_some() && !self.game.outcome().is_over() {
                    NetReason::DeviceGoneKept { secs }
                } else {
                    NetReason::DeviceGone { secs }
                };
                self.close_match();
                self.peer = Peer::Over;
                self.notify(HostEvent::Ended { reason });
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
