//! The joined device's whole life in a pairing as a state machine with no thread, no
//! socket and no clock of its own ([`JoinerCore`]): messages and time in, what to send,
//! keep and report out. Any transport drives it ([`super::Joiner`] over TCP, the page over
//! a data channel, tests over memory with a fake clock).

use super::super::protocol::{ClientMsg, HostMsg, ProtocolError, Timing, PROTOCOL_VERSION};
use super::super::reason::{heard, NetReason};
use super::super::NetError;
use crate::games::omiga::{Action, OmigaEvent, OmigaView};
use crate::platform::time::{Duration, Instant};

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
                super::super::hosting::describe(event)
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

/// What the joined device keeps so that a restarted app takes its seat back (the
/// transport adds where the host is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptSeat {
    /// The host's join code.
    pub code: String,
    /// The token that proves this device holds the seat.
    pub token: String,
    /// The match it plays.
    pub game_id: String,
    /// The number the next action gets (numbers never repeat within a pairing).
    pub next_id: u64,
    /// An action sent whose answer had not arrived, with its number.
    pub pending: Option<(u64, String)>,
}

/// What the joiner's driver must do, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum JoinerOut {
    /// Open a connection to the host; answer with [`JoinerCore::on_open`] or
    /// [`JoinerCore::on_connect_failed`].
    Connect,
    /// Send a message on the open connection (a failed send is reported with
    /// [`JoinerCore::on_closed`]).
    Send(ClientMsg),
    /// Close the connection.
    Close,
    /// Tell the player.
    Event(JoinerEvent),
    /// The first join failed (the driver's `join` returns this).
    Failed(NetError),
    /// Keep the seat (written before an action leaves).
    Keep(KeptSeat),
    /// Forget the kept seat: the pairing is over.
    Forget,
}

/// Where the joiner is in its life.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// A connection was asked for and is not open yet.
    Opening,
    /// The hello is sent; the welcome must come before `deadline`.
    Greeting { deadline: Instant },
    /// In the game.
    Up {
        last_heard: Instant,
        last_sent: Instant,
    },
    /// Lost; the next try is at `next_try`.
    Down { next_try: Instant },
    /// The pairing is over.
    Over,
}

/// The joined device as a state machine that needs no thread and no socket: host
/// messages, connection news and time in; messages, events and what to keep out. Its
/// driver ([`Joiner`] over TCP; in tests a loop over in-memory channels with a fake
/// clock) opens connections when asked and carries out every [`JoinerOut`] in order.
#[derive(Debug)]
pub struct JoinerCore {
    phase: Phase,
    /// The first join: its failures end it (no seat to come back to yet).
    first: bool,
    /// Since when the connection is lost (the resume time counts from here).
    down_since: Option<Instant>,
    seat: KeptSeat,
    view: Option<OmigaView>,
    pending: Option<(u64, Action)>,
    pub(super) timing: Timing,
    countdown: Duration,
    game: u32,
}

impl JoinerCore {
    /// A first join with the host's code: the first output asks for a connection.
    pub fn join(code: &str, timing: Timing) -> (JoinerCore, Vec<JoinerOut>) {
        let core = JoinerCore {
            phase: Phase::Opening,
            first: true,
            down_since: None,
            seat: KeptSeat {
                code: code.to_string(),
                token: String::new(),
                game_id: String::new(),
                next_id: 1,
                pending: None,
            },
            view: None,
            pending: None,
            timing,
            countdown: Duration::ZERO,
            game: 1,
        };
        (core, vec![JoinerOut::Connect])
    }

    /// A seat kept from an earlier run: lost, coming back at the first tick (the host
    /// decides whether the seat is still its own; the pairing ends plainly if not).
    pub fn restore(seat: KeptSeat, timing: Timing, now: Instant) -> JoinerCore {
        let pending = seat
            .pending
            .as_ref()
            .and_then(|(id, a)| a.parse::<Action>().ok().map(|a| (*id, a)));
        JoinerCore {
            phase: Phase::Down { next_try: now },
            first: false,
            down_since: Some(now),
            seat,
            view: None,
            pending,
            timing,
            countdown: Duration::ZERO,
            game: 1,
        }
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

    /// Whether the connection is up (welcomed).
    pub fn connected(&self) -> bool {
        matches!(self.phase, Phase::Up { .. })
    }

    /// Whether the pairing is over.
    pub fn over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The action sent whose answer has not come yet.
    pub fn pending(&self) -> Option<&Action> {
        self.pending.as_ref().map(|(_, a)| a)
    }

    /// What is kept of the seat.
    pub fn seat(&self) -> &KeptSeat {
        &self.seat
    }

    /// The connection asked for is open: say hello (with the token when coming back).
    pub fn on_open(&mut self, now: Instant) -> Vec<JoinerOut> {
        if self.phase != Phase::Opening {
            return vec![JoinerOut::Close];
        }
        self.phase = Phase::Greeting {
            deadline: now + self.timing.hello_within,
        };
        let resume = (!self.first).then(|| self.seat.token.clone());
        vec![JoinerOut::Send(ClientMsg::Hello {
            version: PROTOCOL_VERSION,
            code: self.seat.code.clone(),
            resume,
        })]
    }

    /// The driver holds a new connection that replaces whatever this device had (the
    /// players paired the pages again): it is used at once, whatever this device was
    /// doing — in the game (the old link counts as lost), greeting the host on the old
    /// link, or waiting for its next try. Out comes `Connect`, which the driver answers
    /// with `on_open` on the new connection, so the hello leaves now: the host gives a new
    /// connection only the hello time, and a device that first waited out its own
    /// welcome deadline (5 s) or its next try (1 s) was refused "no hello within 5 s".
    pub fn relink(&mut self, now: Instant) -> Vec<JoinerOut> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Over => return out,
            Phase::Up { .. } => self.lose(&mut out, NetReason::WentAway, now),
            Phase::Greeting { .. } => out.push(JoinerOut::Close),
            Phase::Opening | Phase::Down { .. } => {}
        }
        self.phase = Phase::Opening;
        out.push(JoinerOut::Connect);
        out
    }

    /// The connection asked for could not be opened.
    pub fn on_connect_failed(&mut self, why: NetReason, now: Instant) -> Vec<JoinerOut> {
        let mut out = Vec::new();
        if self.phase == Phase::Opening {
            self.failed(&mut out, NetError::Connection(why), now);
        }
        out
    }

    /// A whole message arrived from the host.
    pub fn on_message(&mut self, msg: HostMsg, now: Instant) -> Vec<JoinerOut> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Greeting { .. } => self.greeting(&mut out, msg, now),
            Phase::Up { .. } => {
                if let Phase::Up { last_heard, .. } = &mut self.phase {
                    *last_heard = now;
                }
                self.message(&mut out, msg);
            }
            Phase::Opening | Phase::Down { .. } | Phase::Over => {}
        }
        out
    }

    /// A message arrived that could not be read; the connection stays.
    pub fn on_bad(&mut self, why: NetReason, now: Instant) -> Vec<JoinerOut> {
        let mut out = Vec::new();
        match &mut self.phase {
            Phase::Greeting { .. } => {
                let problem = Box::new(why);
                self.failed(
                    &mut out,
                    NetError::Connection(NetReason::FromHost { problem }),
                    now,
                );
            }
            Phase::Up { last_heard, .. } => {
                *last_heard = now;
                out.push(JoinerOut::Event(JoinerEvent::Notice(
                    NetReason::Unreadable {
                        problem: Box::new(why),
                    },
                )));
            }
            _ => {}
        }
        out
    }

    /// The connection closed (or a send on it failed).
    pub fn on_closed(&mut self, why: NetReason, now: Instant) -> Vec<JoinerOut> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Greeting { .. } => {
                let why = match why {
                    NetReason::Protocol {
                        problem: ProtocolError::Closed,
                    } => NetReason::HostClosed,
                    other => other,
                };
                self.failed(&mut out, NetError::Connection(why), now);
            }
            Phase::Up { .. } => self.lose(&mut out, why, now),
            _ => {}
        }
        out
    }

    /// Time passed: a heartbeat due, a host silent too long, a welcome that did not
    /// come, the next try to come back.
    pub fn on_tick(&mut self, now: Instant) -> Vec<JoinerOut> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Greeting { deadline } if now >= deadline => {
                self.failed(&mut out, NetError::Connection(NetReason::HostMute), now);
            }
            Phase::Up { last_heard, .. }
                if now.saturating_duration_since(last_heard) >= self.timing.silent_after =>
            {
                let ms = u64::try_from(self.timing.silent_after.as_millis()).unwrap_or(u64::MAX);
                self.lose(&mut out, NetReason::HostSilent { ms }, now);
            }
            Phase::Up { last_sent, .. }
                if now.saturating_duration_since(last_sent) >= self.timing.heartbeat =>
            {
                self.send(&mut out, ClientMsg::Ping, now);
            }
            Phase::Down { next_try } if now >= next_try => {
                self.phase = Phase::Opening;
                out.push(JoinerOut::Connect);
            }
            _ => {}
        }
        out
    }

    /// Sends an action; its answer comes as `Accepted`, `Rejected` or, after a drop,
    /// `Settled`. The seat (with the action) is kept before the action leaves.
    pub fn act(&mut self, action: Action, now: Instant) -> Result<Vec<JoinerOut>, NetError> {
        if self.pending.is_some() {
            return Err(NetError::Refused(NetReason::AwaitAnswer));
        }
        match self.phase {
            Phase::Up { .. } => {}
            Phase::Over => return Err(NetError::Refused(NetReason::PairingOver)),
            _ => return Err(NetError::Refused(NetReason::WaitForReconnect)),
        }
        let id = self.seat.next_id;
        self.pending = Some((id, action));
        self.seat.next_id = id + 1;
        let mut out = vec![self.keep()];
        self.send(
            &mut out,
            ClientMsg::Act {
                id,
                action: action.to_string(),
            },
            now,
        );
        Ok(out)
    }

    /// Asks for (or agrees to) a rematch once the game is over.
    pub fn rematch(&mut self, now: Instant) -> Result<Vec<JoinerOut>, NetError> {
        if !self.connected() {
            return Err(NetError::Refused(NetReason::RematchNeedsBoth));
        }
        let mut out = Vec::new();
        self.send(&mut out, ClientMsg::Rematch, now);
        Ok(out)
    }

    /// Cuts the connection without a goodbye, as a dropped Wi-Fi would; the joiner then
    /// comes back on its own.
    pub fn drop_link(&mut self, now: Instant) -> Vec<JoinerOut> {
        let mut out = Vec::new();
        if self.connected() {
            self.lose(&mut out, NetReason::WentAway, now);
        }
        out
    }

    /// Leaves on purpose: the host ends the pairing at once and the seat is forgotten.
    pub fn leave(&mut self, now: Instant) -> Vec<JoinerOut> {
        let mut out = Vec::new();
        if self.connected() {
            self.send(&mut out, ClientMsg::Bye, now);
        }
        out.push(JoinerOut::Close);
        out.push(JoinerOut::Forget);
        self.phase = Phase::Over;
        out
    }

    fn send(&mut self, out: &mut Vec<JoinerOut>, msg: ClientMsg, now: Instant) {
        if let Phase::Up { last_sent, .. } = &mut self.phase {
            *last_sent = now;
        }
        out.push(JoinerOut::Send(msg));
    }

    fn keep(&mut self) -> JoinerOut {
        self.seat.pending = self.pending.as_ref().map(|(id, a)| (*id, a.to_string()));
        JoinerOut::Keep(self.seat.clone())
    }

    fn end(&mut self, out: &mut Vec<JoinerOut>, reason: NetReason) {
        out.push(JoinerOut::Close);
        out.push(JoinerOut::Forget);
        out.push(JoinerOut::Event(JoinerEvent::Ended(reason)));
        self.phase = Phase::Over;
    }

    /// A try to join or come back failed.
    fn failed(&mut self, out: &mut Vec<JoinerOut>, e: NetError, now: Instant) {
        if self.first {
            out.push(JoinerOut::Close);
            out.push(JoinerOut::Failed(e));
            self.phase = Phase::Over;
            return;
        }
        let since = self.down_since.unwrap_or(now);
        match e {
            NetError::Refused(reason) => self.end(
                out,
                NetReason::NotTakenBack {
                    why: Box::new(reason),
                },
            ),
            e if now.saturating_duration_since(since) < self.timing.resume_within => {
                out.push(JoinerOut::Close);
                out.push(JoinerOut::Event(JoinerEvent::Retrying(e.reason())));
                self.phase = Phase::Down {
                    next_try: now + RETRY_EVERY,
                };
            }
            _ => self.end(
                out,
                NetReason::HostGone {
                    secs: self.timing.resume_within.as_secs(),
                },
            ),
        }
    }

    fn lose(&mut self, out: &mut Vec<JoinerOut>, why: NetReason, now: Instant) {
        out.push(JoinerOut::Close);
        out.push(JoinerOut::Event(JoinerEvent::Lost(why)));
        self.down_since = Some(now);
        self.phase = Phase::Down { next_try: now };
    }

    /// Waiting for the welcome.
    fn greeting(&mut self, out: &mut Vec<JoinerOut>, msg: HostMsg, now: Instant) {
        let (token, view, countdown_ms, game_id, last_act) = match msg {
            HostMsg::Ping => return,
            HostMsg::Welcome {
                token,
                view,
                countdown_ms,
                game_id,
                last_act,
                ..
            } => (token, view, countdown_ms, game_id, last_act),
            HostMsg::Refused { reason, why } | HostMsg::Ended { reason, why } => {
                return self.failed(out, NetError::Refused(heard(reason, why)), now)
            }
            _ => return self.failed(out, NetError::Connection(NetReason::NotAHost), now),
        };
        self.view = Some(view);
        self.countdown = Duration::from_millis(countdown_ms);
        self.seat.token = token;
        self.seat.game_id = game_id;
        self.phase = Phase::Up {
            last_heard: now,
            last_sent: now,
        };
        // Said at once, so the host knows this device is really here (not a welcome
        // written into a connection this device has already given up).
        self.send(out, ClientMsg::Ping, now);
        if !self.first {
            out.push(JoinerOut::Event(JoinerEvent::Resumed));
            if let Some((id, action)) = self.pending.take() {
                out.push(JoinerOut::Event(JoinerEvent::Settled {
                    action,
                    applied: id <= last_act,
                }));
            }
        }
        self.first = false;
        self.down_since = None;
        out.push(self.keep());
    }

    /// In the game.
    fn message(&mut self, out: &mut Vec<JoinerOut>, msg: HostMsg) {
        let answer_to = |pending: &Option<(u64, Action)>, id: u64| {
            pending.as_ref().filter(|(p, _)| *p == id).map(|(_, a)| *a)
        };
        let event = match msg {
            HostMsg::Ping => return,
            HostMsg::Started {
                game,
                view,
                countdown_ms,
            } => {
                let countdown = Duration::from_millis(countdown_ms);
                self.view = Some(view);
                self.countdown = countdown;
                self.game = game;
                JoinerEvent::Started { game, countdown }
            }
            HostMsg::Accepted { id, event, view } => {
                self.view = Some(view);
                let Some(action) = answer_to(&self.pending, id) else {
                    return;
                };
                self.pending = None;
                out.push(self.keep());
                JoinerEvent::Accepted { action, event }
            }
            HostMsg::Rejected { id, reason, why } => {
                let reason = heard(reason, why);
                let Some(action) = answer_to(&self.pending, id) else {
                    out.push(JoinerOut::Event(JoinerEvent::Notice(reason)));
                    return;
                };
                self.pending = None;
                out.push(self.keep());
                JoinerEvent::Rejected { action, reason }
            }
            HostMsg::Update { event, view } => {
                self.view = Some(view);
                JoinerEvent::OpponentActed { event }
            }
            HostMsg::RematchOffered => JoinerEvent::RematchOffered,
            HostMsg::Error { reason, why } => JoinerEvent::Notice(heard(reason, why)),
            HostMsg::Ended { reason, why } | HostMsg::Refused { reason, why } => {
                return self.end(out, heard(reason, why));
            }
            HostMsg::Welcome { .. } => JoinerEvent::Notice(NetReason::WelcomedTwice),
        };
        out.push(JoinerOut::Event(event));
    }
}
