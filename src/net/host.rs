//! The host: the authority of a two-device Omiga game. It plays White (seat 0) on this
//! device and Black (seat 1) for the joined device, validates every action with the rules
//! core, and sends the other device only its own seat's view and events. The rules of
//! the pairing live in [`HostMatch`] (no thread, no socket); this is its TCP driver.
//!
//! Threads: one accepts connections and reads every stranger's hello itself, without a
//! thread per stranger (at most [`MAX_PENDING`] wait, each for at most the hello time in
//! all); one reads the joined device's connection (bounded lines, read timeouts); one
//! core thread owns the match, ticks its clock and carries out what it asks. All talk to the core over a channel, so the core applies
//! actions in arrival order. The UI (or the headless `host` command) drives it through
//! [`Host`] and reads [`HostEvent`]s from a channel in its event loop.
//!
//! With a data folder the match is saved after every action (`saved::HOST_FILE`), so a
//! host whose app was killed starts again into the same match; a match whose other device
//! never came back goes to the history as unfinished.

use super::channel::{MessageChannel, Received, TcpChannel};
use super::host_match::{millis, ConnId, HostMatch, HostOut, MatchSetup};
pub use super::hosting::{check_code, random_code, HostEvent, CLIENT_SEAT, HOST_SEAT, MAX_PENDING};
use super::protocol::{
    decode_client, send, ClientMsg, HostMsg, LineReader, ProtocolError, RateLimit, Read1, Timing,
    PROTOCOL_VERSION,
};
use super::reason::NetReason;
use super::saved::HostSave;
use super::NetError;
use crate::games::omiga::{Action, Omiga, OmigaEvent, OmigaView};
use crate::games::{Game, Params, Seat};
use crate::platform::time::{Duration, Instant};
use std::collections::{HashMap, VecDeque};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

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
    /// A connection said `Hello` (its writing end); the reader keeps reading and
    /// forwards what follows.
    Hello(u64, TcpChannel<HostMsg, ClientMsg>, ClientMsg),
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
        let game = match (&config.resume, &config.position) {
            (Some(save), _) => {
                let (game, params) = save.resumed()?;
                config.code = save.code.clone();
                config.bind.set_port(save.port);
                config.params = params;
                game
            }
            (None, Some(p)) => Omiga::from_position(p).map_err(|e| NetError::Setup(e.into()))?,
            (None, None) => {
                Omiga::new_game(&config.params).map_err(|e| NetError::Setup(e.into()))?
            }
        };
        check_code(&config.code)?;
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
        let setup = MatchSetup {
            game,
            params: config.params.clone(),
            code: config.code.clone(),
            timing: config.timing,
            rate: config.rate,
            keeps: config.store.is_some(),
            port: addr.port(),
            resume: config.resume,
        };
        let (host, first) = HostMatch::new(setup, Instant::now())?;
        let mut core = Core {
            host,
            conns: HashMap::new(),
            events: events_tx,
            store: config.store.clone(),
        };
        core.carry_out(first);
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
        let Ok(channel) = TcpChannel::from_parts(stream, reader) else {
            return;
        };
        let Ok(writer) = channel.try_clone() else {
            return;
        };
        if self.to_core.send(Input::Hello(id, writer, hello)).is_err() {
            return;
        }
        let tx = self.to_core.clone();
        let stop = self.stop.clone();
        // Reader threads end on their own: on EOF, an error, or `stop`; the match closes
        // a silent connection, which ends its reader too.
        thread::spawn(move || read_loop(id, channel, tx, stop));
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
    mut channel: TcpChannel<HostMsg, ClientMsg>,
    to_core: Sender<Input>,
    stop: Arc<AtomicBool>,
) {
    while !stop.load(Ordering::SeqCst) {
        let input = match channel.recv() {
            Received::Nothing => continue,
            Received::Msg(msg) => Input::Msg(id, msg),
            Received::Bad(e) => Input::Bad(id, e.into()),
            Received::Closed(e) => {
                // Too long, closed (mid-line or not), or a socket error: the line cannot
                // be resynchronised, so the connection ends; the game waits for a resume.
                let reason = match e {
                    ProtocolError::Closed => NetReason::DeviceClosed,
                    other => other.into(),
                };
                let _ = to_core.send(Input::Gone(id, reason));
                return;
            }
        };
        if to_core.send(input).is_err() {
            return;
        }
    }
}

/// Drives a [`HostMatch`] on the core thread: connections by their number, the data
/// folder, and the local player's event channel.
struct Core {
    host: HostMatch,
    /// The writing end of every connection the match knows (the reader threads own the
    /// reading ends).
    conns: HashMap<ConnId, TcpChannel<HostMsg, ClientMsg>>,
    events: Sender<HostEvent>,
    /// Where the match is saved after every action.
    store: Option<PathBuf>,
}

impl Core {
    fn run(mut self, inputs: Receiver<Input>, stop: Arc<AtomicBool>) {
        'run: while !stop.load(Ordering::SeqCst) {
            let first = match inputs.recv_timeout(POLL) {
                Ok(input) => Some(input),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return,
            };
            // Everything that has arrived is handled before the clock is looked at: a
            // message read just before a pause must count before the silence does.
            let mut next = first;
            while let Some(input) = next {
                let bye = matches!(input, Input::Bye);
                self.handle(input);
                if bye {
                    // The other device has been told; nothing more to do.
                    break 'run;
                }
                next = inputs.try_recv().ok();
            }
            let outs = self.host.on_tick(Instant::now());
            self.carry_out(outs);
        }
        for (_, mut conn) in self.conns.drain() {
            conn.close();
        }
    }

    fn handle(&mut self, input: Input) {
        let now = Instant::now();
        let outs = match input {
            Input::Hello(id, channel, hello) => {
                self.conns.insert(id, channel);
                let mut outs = self.host.on_connect(id, now);
                outs.extend(self.host.on_message(id, hello, now));
                outs
            }
            Input::Notice(n) => vec![HostOut::Event(HostEvent::Notice(n))],
            Input::Msg(id, msg) => self.host.on_message(id, msg, now),
            Input::Bad(id, reason) => self.host.on_bad(id, reason, now),
            Input::Gone(id, reason) => {
                let outs = self.host.on_closed(id, reason, now);
                self.conns.remove(&id);
                outs
            }
            Input::Act(action, reply) => {
                let (result, outs) = self.host.act(&action, now);
                // The answer comes after the save and the other device's update, as
                // before: the action is kept before anyone hears of it.
                self.carry_out(outs);
                let _ = reply.send(result);
                return;
            }
            Input::View(reply) => {
                let _ = reply.send(self.host.view());
                return;
            }
            Input::Legal(reply) => {
                let _ = reply.send(self.host.legal());
                return;
            }
            Input::Position(reply) => {
                let _ = reply.send(self.host.position());
                return;
            }
            Input::Rematch => self.host.rematch(now),
            Input::Bye => self.host.leave(now),
        };
        self.carry_out(outs);
    }

    /// Does what the match asks, in order; what fails goes back to it.
    fn carry_out(&mut self, outs: Vec<HostOut>) {
        let events = &self.events;
        // The local player may have stopped listening; the game goes on regardless.
        let mut notify = |event| {
            let _ = events.send(event);
        };
        super::host_match::carry_out(
            &mut self.host,
            &mut self.conns,
            self.store.as_deref(),
            &mut notify,
            outs,
        );
    }
}
