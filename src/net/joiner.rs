//! The joined device's whole life in a pairing, free of any UI: connect, play, lose the
//! connection, come back (on its own, for as long as the host waits), learn the fate of
//! an action whose answer never came, rematch, and after a restart of the app take the
//! seat back from what is kept on disk. `hotseat join` and the app's LAN screen both
//! drive a [`Joiner`] and only print or draw what it reports.
//!
//! An action is applied on both devices or on neither: the host applies it and answers;
//! if the answer is lost with the connection, the host's welcome on coming back carries
//! the number of the last action it applied, and the joiner reports
//! [`JoinerEvent::Settled`] with whether it was applied.

use super::client::{Client, ClientEvent};
use super::protocol::Timing;
use super::reason::NetReason;
use super::saved::{self, SeatSave};
use super::{legal_from_view, NetError};
use crate::games::omiga::{Action, OmigaEvent, OmigaView};
use crate::games::Seat;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How often a lost device tries to come back.
pub const RETRY_EVERY: Duration = Duration::from_secs(1);

/// What the joined device's player learns.
#[derive(Debug, Clone, PartialEq)]
pub enum JoinerEvent {
    /// A game starts (a rematch): the countdown begins now.
    Started {
        /// Which game of the pairing.
        game: u32,
        /// The countdown.
        countdown: Duration,
    },
    /// This device's action was applied.
    Accepted {
        /// The action.
        action: Action,
        /// What it did.
        event: OmigaEvent,
    },
    /// This device's action was refused; nothing changed.
    Rejected {
        /// The action.
        action: Action,
        /// Why.
        reason: NetReason,
    },
    /// The host's player acted.
    OpponentActed {
        /// What they did, as this seat may know it.
        event: OmigaEvent,
    },
    /// The host's player asks for a rematch.
    RematchOffered,
    /// Something the host said that is not about an action.
    Notice(NetReason),
    /// The connection is lost: the game is paused while this device tries to come back.
    Lost(NetReason),
    /// A try to come back failed; the next one follows.
    Retrying(NetReason),
    /// Back in the game, where it was.
    Resumed,
    /// After coming back: the fate of the action whose answer was lost.
    Settled {
        /// The action.
        action: Action,
        /// Whether the host had applied it (its card is on the table) or not (nothing
        /// changed; it may be played again).
        applied: bool,
    },
    /// The pairing is over.
    Ended(NetReason),
}

impl JoinerEvent {
    /// One line for a person (the headless command prints it after `# `).
    pub fn describe(&self) -> String {
        match self {
            JoinerEvent::Started { game, countdown } => {
                format!("started game {game} countdown {}", countdown.as_secs_f64())
            }
            JoinerEvent::Accepted { event, .. } | JoinerEvent::OpponentActed { event } => {
                super::headless::describe(event)
            }
            JoinerEvent::Rejected { action, reason } => format!("rejected {action}: {reason}"),
            JoinerEvent::RematchOffered => "rematch offered".into(),
            JoinerEvent::Notice(n) => format!("notice {n}"),
            JoinerEvent::Lost(reason) => {
                format!("paused connection lost ({reason}); coming back when the host answers")
            }
            JoinerEvent::Retrying(reason) => format!("retrying: {reason}"),
            JoinerEvent::Resumed => "resumed".into(),
            JoinerEvent::Settled { action, applied } if *applied => {
                format!("settled {action} was applied before the connection dropped")
            }
            JoinerEvent::Settled { action, .. } => {
                format!("settled {action} never reached the host; nothing changed, play it again")
            }
            JoinerEvent::Ended(reason) => format!("ended {reason}"),
        }
    }
}

/// Where the joiner is in its life.
enum Link {
    /// Connected.
    Up(Box<Client>),
    /// Lost; trying to come back since `since`. The old client (if any) keeps the
    /// numbering for the resume.
    Down {
        since: Instant,
        next_try: Instant,
        old: Option<Box<Client>>,
    },
    /// The pairing is over.
    Over,
}

/// The joined device.
pub struct Joiner {
    link: Link,
    seat: SeatSave,
    view: Option<OmigaView>,
    pending: Option<(u64, Action)>,
    timing: Timing,
    store: Option<PathBuf>,
    countdown: Duration,
    game: u32,
    /// Events made by the joiner itself (a drop it caused), reported at the next poll.
    queued: Vec<JoinerEvent>,
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
        let client = Client::join(addr, code, timing)?;
        let seat = SeatSave {
            host: addr,
            code: code.to_string(),
            token: client.token().to_string(),
            game_id: client.game_id().to_string(),
            next_id: client.next_id(),
            pending: None,
        };
        let mut joiner = Joiner {
            view: Some(client.first_view().clone()),
            countdown: client.countdown(),
            link: Link::Up(Box::new(client)),
            seat,
            pending: None,
            timing,
            store,
            game: 1,
            queued: Vec::new(),
        };
        joiner.keep_seat();
        Ok(joiner)
    }

    /// The seat kept in `store` from an earlier run, if any: the joiner starts lost and
    /// comes back through [`Joiner::poll`] (the host decides whether the seat is still
    /// its own; the pairing ends plainly if not).
    pub fn restore(store: PathBuf, timing: Timing) -> Result<Option<Joiner>, String> {
        let Some(seat) = saved::load_seat(&store)? else {
            return Ok(None);
        };
        let pending = seat
            .pending
            .as_ref()
            .and_then(|(id, a)| a.parse::<Action>().ok().map(|a| (*id, a)));
        let now = Instant::now();
        Ok(Some(Joiner {
            link: Link::Down {
                since: now,
                next_try: now,
                old: None,
            },
            seat,
            view: None,
            pending,
            timing,
            store: Some(store),
            countdown: Duration::ZERO,
            game: 1,
            queued: Vec::new(),
        }))
    }

    /// Where the host is.
    pub fn host(&self) -> SocketAddr {
        self.seat.host
    }

    /// This device's seat (Black).
    pub fn seat(&self) -> Seat {
        super::host::CLIENT_SEAT
    }

    /// This seat's view (none until the host has welcomed this device).
    pub fn view(&self) -> Option<&OmigaView> {
        self.view.as_ref()
    }

    /// The countdown the last welcome or start announced.
    pub fn countdown(&self) -> Duration {
        self.countdown
    }

    /// Which game of the pairing is on.
    pub fn game(&self) -> u32 {
        self.game
    }

    /// This seat's legal actions now.
    pub fn legal(&self) -> Vec<Action> {
        self.view.as_ref().map(legal_from_view).unwrap_or_default()
    }

    /// Whether the connection is up.
    pub fn connected(&self) -> bool {
        matches!(self.link, Link::Up(_))
    }

    /// Whether the pairing is over.
    pub fn over(&self) -> bool {
        matches!(self.link, Link::Over)
    }

    /// The action sent whose answer has not come yet.
    pub fn pending(&self) -> Option<&Action> {
        self.pending.as_ref().map(|(_, a)| a)
    }

    /// Sends an action; its answer comes from [`Joiner::poll`] as `Accepted`, `Rejected`
    /// or, after a drop, `Settled`.
    pub fn act(&mut self, action: Action) -> Result<(), NetError> {
        if self.pending.is_some() {
            return Err(NetError::Refused(NetReason::AwaitAnswer));
        }
        let id = match &self.link {
            Link::Up(client) => client.next_id(),
            Link::Over => return Err(NetError::Refused(NetReason::PairingOver)),
            Link::Down { .. } => return Err(NetError::Refused(NetReason::WaitForReconnect)),
        };
        // Kept on disk before it leaves: if the app dies now, the next start still
        // learns whether the host applied it.
        self.pending = Some((id, action));
        self.seat.next_id = id + 1;
        self.keep_seat();
        let sent = match &self.link {
            Link::Up(client) => client.act(&action).map(|_| ()),
            _ => Ok(()),
        };
        if let Err(e) = sent {
            self.go_down(Instant::now());
            let why = e.reason();
            self.queued.push(JoinerEvent::Lost(why.clone()));
            return Err(NetError::Connection(NetReason::SendDropped {
                why: Box::new(why),
            }));
        }
        Ok(())
    }

    /// Asks for (or agrees to) a rematch once the game is over.
    pub fn rematch(&self) -> Result<(), NetError> {
        match &self.link {
            Link::Up(client) => client.rematch(),
            _ => Err(NetError::Refused(NetReason::RematchNeedsBoth)),
        }
    }

    /// Cuts the connection without a goodbye, as a dropped Wi-Fi would (tests, and the
    /// app when the phone sleeps); the joiner then comes back on its own.
    pub fn drop_connection(&mut self) {
        if let Link::Up(client) = &self.link {
            client.drop_connection();
            self.go_down(Instant::now());
            self.queued.push(JoinerEvent::Lost(NetReason::WentAway));
        }
    }

    /// Leaves on purpose: the host ends the pairing at once and the seat is forgotten.
    pub fn leave(mut self) {
        if let Link::Up(client) = std::mem::replace(&mut self.link, Link::Over) {
            client.leave();
        }
        self.forget_seat();
    }

    /// Waits up to `wait` for what happens next (and, while lost, tries to come back).
    pub fn poll(&mut self, wait: Duration) -> Vec<JoinerEvent> {
        if !self.queued.is_empty() {
            return std::mem::take(&mut self.queued);
        }
        match &mut self.link {
            Link::Over => {
                std::thread::sleep(wait);
                Vec::new()
            }
            Link::Up(client) => match client.events().recv_timeout(wait) {
                Ok(event) => {
                    let mut out = self.take(event);
                    while let Some(more) = self.next_now() {
                        out.extend(self.take(more));
                    }
                    out
                }
                Err(_) => Vec::new(),
            },
            Link::Down { next_try, .. } => {
                let now = Instant::now();
                if now < *next_try {
                    std::thread::sleep((*next_try - now).min(wait));
                    return Vec::new();
                }
                self.come_back()
            }
        }
    }

    /// An event already waiting, while connected.
    fn next_now(&self) -> Option<ClientEvent> {
        match &self.link {
            Link::Up(client) => client.events().try_recv().ok(),
            _ => None,
        }
    }

    fn take(&mut self, event: ClientEvent) -> Vec<JoinerEvent> {
        let answer_to = |pending: &Option<(u64, Action)>, id: u64| {
            pending.as_ref().filter(|(p, _)| *p == id).map(|(_, a)| *a)
        };
        let out = match event {
            ClientEvent::Started {
                game,
                view,
                countdown,
            } => {
                self.view = Some(view);
                self.countdown = countdown;
                self.game = game;
                JoinerEvent::Started { game, countdown }
            }
            ClientEvent::Accepted { id, event, view } => {
                self.view = Some(view);
                let Some(action) = answer_to(&self.pending, id) else {
                    return Vec::new();
                };
                self.pending = None;
                self.keep_seat();
                JoinerEvent::Accepted { action, event }
            }
            ClientEvent::Rejected { id, reason } => {
                let Some(action) = answer_to(&self.pending, id) else {
                    return vec![JoinerEvent::Notice(reason)];
                };
                self.pending = None;
                self.keep_seat();
                JoinerEvent::Rejected { action, reason }
            }
            ClientEvent::OpponentActed { event, view } => {
                self.view = Some(view);
                JoinerEvent::OpponentActed { event }
            }
            ClientEvent::RematchOffered => JoinerEvent::RematchOffered,
            ClientEvent::Error(e) => JoinerEvent::Notice(e),
            ClientEvent::Ended(reason) => {
                self.link = Link::Over;
                self.forget_seat();
                JoinerEvent::Ended(reason)
            }
            ClientEvent::Lost(reason) => {
                self.go_down(Instant::now());
                JoinerEvent::Lost(reason)
            }
        };
        vec![out]
    }

    fn go_down(&mut self, since: Instant) {
        let old = match std::mem::replace(&mut self.link, Link::Over) {
            Link::Up(client) => Some(client),
            Link::Down { old, .. } => old,
            Link::Over => None,
        };
        self.link = Link::Down {
            since,
            next_try: Instant::now(),
            old,
        };
    }

    /// One try to come back.
    fn come_back(&mut self) -> Vec<JoinerEvent> {
        let Link::Down { since, old, .. } = &self.link else {
            return Vec::new();
        };
        let since = *since;
        let tried = match old {
            Some(client) => client.resume(self.timing),
            None => Client::rejoin(
                self.seat.host,
                &self.seat.code,
                &self.seat.token,
                self.seat.next_id,
                self.timing,
            ),
        };
        match tried {
            Ok(client) => self.back(client),
            Err(NetError::Refused(reason)) => {
                self.link = Link::Over;
                self.forget_seat();
                vec![JoinerEvent::Ended(NetReason::NotTakenBack {
                    why: Box::new(reason),
                })]
            }
            Err(e) if since.elapsed() < self.timing.resume_within => {
                if let Link::Down { next_try, .. } = &mut self.link {
                    *next_try = Instant::now() + RETRY_EVERY;
                }
                vec![JoinerEvent::Retrying(e.reason())]
            }
            Err(_) => {
                self.link = Link::Over;
                self.forget_seat();
                vec![JoinerEvent::Ended(NetReason::HostGone {
                    secs: self.timing.resume_within.as_secs(),
                })]
            }
        }
    }

    fn back(&mut self, client: Client) -> Vec<JoinerEvent> {
        let mut out = vec![JoinerEvent::Resumed];
        self.view = Some(client.first_view().clone());
        self.countdown = client.countdown();
        if let Some((id, action)) = self.pending.take() {
            out.push(JoinerEvent::Settled {
                action,
                applied: id <= client.last_act(),
            });
        }
        self.seat.token = client.token().to_string();
        self.seat.game_id = client.game_id().to_string();
        self.seat.next_id = client.next_id();
        self.link = Link::Up(Box::new(client));
        self.keep_seat();
        out
    }

    fn keep_seat(&mut self) {
        self.seat.pending = self.pending.as_ref().map(|(id, a)| (*id, a.to_string()));
        if let Some(dir) = &self.store {
            // Not fatal: the game goes on, only a restart could not come back.
            let _ = saved::save_seat(dir, &self.seat);
        }
    }

    fn forget_seat(&self) {
        if let Some(dir) = &self.store {
            saved::clear_seat(dir);
        }
    }
}

/// What a [`JoinerThread`] is asked to do.
enum Command {
    Act(Action),
    Rematch,
    Drop,
    Leave,
}

/// One thing that happened, with the view after it, as a [`JoinerThread`] reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct JoinerUpdate {
    /// What happened.
    pub event: JoinerEvent,
    /// This seat's view after it (none before the host's first welcome).
    pub view: Option<OmigaView>,
    /// The countdown the last welcome or start announced.
    pub countdown: Duration,
}

/// A [`Joiner`] on a thread of its own, for a UI that must never block: commands go in,
/// [`JoinerUpdate`]s come out on a channel. Dropping it leaves the connection as a dropped
/// Wi-Fi would (the seat stays on disk); [`JoinerThread::leave`] ends the pairing.
pub struct JoinerThread {
    commands: std::sync::mpsc::Sender<Command>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl JoinerThread {
    /// Starts the thread; the updates arrive on the returned channel.
    pub fn spawn(mut joiner: Joiner) -> (JoinerThread, std::sync::mpsc::Receiver<JoinerUpdate>) {
        let (commands, inbox) = std::sync::mpsc::channel();
        let (updates, out) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let tell = |joiner: &Joiner, event: JoinerEvent| {
                updates
                    .send(JoinerUpdate {
                        event,
                        view: joiner.view().cloned(),
                        countdown: joiner.countdown(),
                    })
                    .is_ok()
            };
            loop {
                loop {
                    let command = match inbox.try_recv() {
                        Ok(command) => command,
                        Err(std::sync::mpsc::TryRecvError::Empty) => break,
                        // The handle is gone: the connection drops with the joiner.
                        Err(std::sync::mpsc::TryRecvError::Disconnected) => return,
                    };
                    match command {
                        Command::Act(action) => {
                            if let Err(e) = joiner.act(action) {
                                if joiner.pending().is_none() {
                                    let reason = e.reason();
                                    if !tell(&joiner, JoinerEvent::Rejected { action, reason }) {
                                        return;
                                    }
                                }
                            }
                        }
                        Command::Rematch => {
                            if let Err(e) = joiner.rematch() {
                                if !tell(&joiner, JoinerEvent::Notice(e.reason())) {
                                    return;
                                }
                            }
                        }
                        Command::Drop => joiner.drop_connection(),
                        Command::Leave => {
                            joiner.leave();
                            return;
                        }
                    }
                }
                for event in joiner.poll(Duration::from_millis(20)) {
                    if !tell(&joiner, event) {
                        return;
                    }
                }
                if joiner.over() {
                    return;
                }
            }
        });
        (
            JoinerThread {
                commands,
                thread: Some(thread),
            },
            out,
        )
    }

    fn send(&self, command: Command) -> Result<(), NetError> {
        self.commands.send(command).map_err(|_| NetError::Stopped)
    }

    /// Plays an action; its fate arrives as an update.
    pub fn act(&self, action: Action) -> Result<(), NetError> {
        self.send(Command::Act(action))
    }

    /// Asks for (or agrees to) a rematch.
    pub fn rematch(&self) -> Result<(), NetError> {
        self.send(Command::Rematch)
    }

    /// Cuts the connection as a dropped Wi-Fi would; it comes back on its own.
    pub fn drop_connection(&self) {
        let _ = self.send(Command::Drop);
    }

    /// Ends the pairing on purpose: the host is told and the seat forgotten.
    pub fn leave(mut self) {
        let _ = self.send(Command::Leave);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for JoinerThread {
    fn drop(&mut self) {
        // The thread ends when it sees the command channel gone at its next poll; it is
        // not joined here, so dropping never waits on the network.
        let (dead, _) = std::sync::mpsc::channel();
        self.commands = dead;
    }
}
