//! The host's match as a state machine that needs no thread and no socket: messages and
//! time in, messages, events and saves out. [`HostMatch`] holds the game, the pairing
//! (who is connected, the token, the resume deadline), the rate limit and the countdown;
//! its driver owns the transport and the clock. On the desktop and Android the driver is
//! [`super::host::Host`] (TCP, a core thread); in tests it is a loop over in-memory
//! channels with a fake clock; in the browser it will be the page's event loop over a
//! WebRTC data channel. Every rule of the protocol lives here once, so it holds over
//! every transport: the join code and version, one joined device, the token, `last_act`,
//! the save after every action, resume within the resume time, heartbeats and silence.
//!
//! A driver feeds [`HostMatch::on_connect`], [`HostMatch::on_message`],
//! [`HostMatch::on_bad`], [`HostMatch::on_closed`] and, every few tens of milliseconds,
//! [`HostMatch::on_tick`], and carries out the returned [`HostOut`]s **in order** (a
//! save comes before the answer that follows it). A [`HostOut::Welcome`] is answered at
//! once with [`HostMatch::welcomed`]: a device joins only once its welcome is written.

mod carry_out;
mod peer;

pub use carry_out::carry_out;
use peer::{Bucket, Offer, Peer};

use super::hosting::{check_code, HostEvent, CLIENT_SEAT, HOST_SEAT, MAX_PENDING};
use super::protocol::{ClientMsg, HostMsg, RateLimit, Timing, PROTOCOL_VERSION};
use super::reason::NetReason;
use super::saved::{self, HostSave};
use super::NetError;
use crate::games::omiga::{Action, Omiga, OmigaEvent, OmigaView};
use crate::games::{Game, Outcome, Params, Seat};
use crate::platform::time::{Duration, Instant};
use crate::session::SavedGame;
use std::collections::VecDeque;

/// Names one connection for the lifetime of a host (a driver never reuses a number).
pub type ConnId = u64;

/// What the driver must do, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum HostOut {
    /// Send a message on a connection (a failed send is reported with
    /// [`HostMatch::on_closed`]).
    Send(ConnId, HostMsg),
    /// Send this welcome and answer at once with [`HostMatch::welcomed`].
    Welcome(ConnId, HostMsg),
    /// Close the connection (after what was sent on it before).
    Close(ConnId),
    /// Tell the host's own player.
    Event(HostEvent),
    /// Save the match (a driver without a data folder ignores it).
    Save(Box<HostSave>),
    /// Put a game of the pairing into the history (finished with its result, or
    /// unfinished when the pairing ended before it did).
    Record(Box<SavedGame>, Outcome),
    /// Forget the saved match: the pairing is over.
    Clear,
}

/// How a match starts.
#[derive(Debug, Clone)]
pub struct MatchSetup {
    /// The first game (a fresh deal, a position, or the saved match's).
    pub game: Omiga,
    /// How games are dealt (rematches deal from `seed + games so far`).
    pub params: Params,
    /// The 4-digit join code.
    pub code: String,
    /// Heartbeats, timeouts and the countdown.
    pub timing: Timing,
    /// How many actions the joined device may send.
    pub rate: RateLimit,
    /// Whether the driver keeps saves (an unfinished game then stays in the history).
    pub keeps: bool,
    /// Where the transport listens, kept in the save (the TCP port; 0 elsewhere).
    pub port: u16,
    /// A saved match to go on with (its code, game id, token and `last_act`).
    pub resume: Option<HostSave>,
}

/// The host's match: the authority of a two-device Omiga game, free of any transport.
#[derive(Debug)]
pub struct HostMatch {
    game: Omiga,
    params: Params,
    code: String,
    timing: Timing,
    rate: RateLimit,
    keeps: bool,
    port: u16,
    peer: Peer,
    /// Connections that have not said hello yet, oldest first, with when they came.
    pending: VecDeque<(ConnId, Instant)>,
    offer: Option<Offer>,
    token: Option<String>,
    games: u32,
    /// When actions start being taken (end of the countdown); `None` before anyone joined.
    play_from: Option<Instant>,
    rematch: [bool; 2],
    actions: Vec<(Seat, String)>,
    /// Names the match for the joiner's saved seat.
    game_id: String,
    /// The number of the joiner's last applied action.
    last_act: u64,
}

impl HostMatch {
    /// A match waiting for its device (or, from a save, for its device to come back);
    /// the first output is its save.
    pub fn new(setup: MatchSetup, now: Instant) -> Result<(HostMatch, Vec<HostOut>), NetError> {
        check_code(&setup.code)?;
        let mut m = HostMatch {
            game: setup.game,
            params: setup.params,
            code: setup.code,
            timing: setup.timing,
            rate: setup.rate,
            keeps: setup.keeps,
            port: setup.port,
            peer: Peer::Waiting,
            pending: VecDeque::new(),
            offer: None,
            token: None,
            games: 1,
            play_from: None,
            rematch: [false, false],
            actions: Vec::new(),
            game_id: new_token(),
            last_act: 0,
        };
        if let Some(save) = setup.resume {
            m.game_id = save.game_id;
            m.games = save.game;
            m.last_act = save.last_act;
            m.actions = save.saved.actions;
            // The countdown ran before the restart.
            m.play_from = Some(now);
            if let Some(token) = save.token {
                m.token = Some(token);
                m.peer = Peer::Lost {
                    deadline: now + m.timing.resume_within,
                };
            }
        }
        let mut out = Vec::new();
        m.save(&mut out);
        Ok((m, out))
    }

    /// The join code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// White's view now.
    pub fn view(&self) -> OmigaView {
        self.game.view(HOST_SEAT)
    }

    /// White's legal actions now.
    pub fn legal(&self) -> Vec<Action> {
        self.game.legal_actions(HOST_SEAT)
    }

    /// The authority's whole position and the actions so far (diagnostics and tests; it
    /// holds both hands, so it never goes on the wire).
    pub fn position(&self) -> (String, Vec<(Seat, String)>) {
        (self.game.position(), self.actions.clone())
    }

    /// The number of the joined device's last applied action.
    pub fn last_act(&self) -> u64 {
        self.last_act
    }

    /// Whether the pairing is over.
    pub fn over(&self) -> bool {
        matches!(self.peer, Peer::Over)
    }

    /// Whether a device is in the game now (welcomed and not lost): a browser's host
    /// offers a new pairing text whenever there is none.
    pub fn has_device(&self) -> bool {
        matches!(self.peer, Peer::Connected { .. })
    }

    /// A connection opened; it must say hello within the hello time. A newer one pushes
    /// the oldest waiting one out when [`MAX_PENDING`] wait.
    pub fn on_connect(&mut self, conn: ConnId, now: Instant) -> Vec<HostOut> {
        let mut out = Vec::new();
        self.pending.push_back((conn, now));
        if self.pending.len() > MAX_PENDING {
            if let Some((oldest, _)) = self.pending.pop_front() {
                refuse(&mut out, oldest, &NetReason::Crowded);
            }
        }
        out
    }

    /// A whole message arrived on `conn`.
    pub fn on_message(&mut self, conn: ConnId, msg: ClientMsg, now: Instant) -> Vec<HostOut> {
        let mut out = Vec::new();
        if let Some(at) = self.pending.iter().position(|(c, _)| *c == conn) {
            self.pending.remove(at);
            if matches!(msg, ClientMsg::Hello { .. }) {
                self.hello(&mut out, conn, msg, now);
            } else {
                self.refuse_device(&mut out, conn, NetReason::HelloFirst);
            }
        } else if self.current(conn) {
            self.confirm(&mut out, now);
            self.message(&mut out, msg, now);
        }
        self.stamp_sent(&out, now);
        out
    }

    /// A message arrived on `conn` that could not be used (`why`); the connection stays
    /// unless it has not said hello yet.
    pub fn on_bad(&mut self, conn: ConnId, why: NetReason, now: Instant) -> Vec<HostOut> {
        let mut out = Vec::new();
        if let Some(at) = self.pending.iter().position(|(c, _)| *c == conn) {
            self.pending.remove(at);
            self.refuse_device(&mut out, conn, why);
        } else if self.current(conn) {
            out.push(HostOut::Event(HostEvent::Notice(
                NetReason::RefusedMessage {
                    why: Box::new(why.clone()),
                },
            )));
            self.tell(&mut out, HostMsg::error(&why));
        }
        self.stamp_sent(&out, now);
        out
    }

    /// `conn` closed, or a send on it failed: the game pauses if it was the device's.
    pub fn on_closed(&mut self, conn: ConnId, why: NetReason, now: Instant) -> Vec<HostOut> {
        let mut out = Vec::new();
        self.pending.retain(|(c, _)| *c != conn);
        if self.current(conn) {
            self.lose(&mut out, why, now);
        }
        out
    }

    /// The driver's answer to a [`HostOut::Welcome`]: written (the device is in; the
    /// connection it replaces is closed) or not (nothing changes: the game waits as it
    /// did, with the same deadline).
    pub fn welcomed(
        &mut self,
        conn: ConnId,
        written: Result<(), String>,
        now: Instant,
    ) -> Vec<HostOut> {
        let mut out = Vec::new();
        let Some(offer) = self.offer.take_if(|o| o.conn == conn) else {
            return out;
        };
        if let Err(detail) = written {
            out.push(HostOut::Event(HostEvent::Notice(NetReason::LostAgain {
                detail,
            })));
            out.push(HostOut::Close(conn));
            return out;
        }
        if let Peer::Connected { conn: old, .. } = self.peer {
            out.push(HostOut::Close(old));
        }
        self.peer = Peer::Connected {
            conn,
            bucket: Bucket::new(self.rate, now),
            last_sent: now,
            last_heard: now,
            confirmed: false,
            resuming: offer.resuming,
        };
        if offer.first {
            self.save(&mut out);
        }
        if !offer.resuming {
            out.push(HostOut::Event(HostEvent::Joined));
            out.push(HostOut::Event(HostEvent::Started {
                game: self.games,
                view: self.game.view(HOST_SEAT),
                countdown: self.countdown_left(now),
            }));
        }
        out
    }

    /// Time passed: hellos that did not come, a device silent too long, a resume time
    /// run out, a heartbeat due.
    pub fn on_tick(&mut self, now: Instant) -> Vec<HostOut> {
        let mut out = Vec::new();
        while let Some(&(conn, since)) = self.pending.front() {
            if now.saturating_duration_since(since) < self.timing.hello_within {
                break;
            }
            self.pending.pop_front();
            let why = NetReason::NoHello {
                ms: millis(self.timing.hello_within),
            };
            self.refuse_device(&mut out, conn, why);
        }
        match &self.peer {
            Peer::Lost { deadline } if now >= *deadline => {
                let secs = self.timing.resume_within.as_secs();
                let reason = if self.keeps && !self.game.outcome().is_over() {
                    NetReason::DeviceGoneKept { secs }
                } else {
                    NetReason::DeviceGone { secs }
                };
                self.close_match(&mut out);
                self.peer = Peer::Over;
                out.push(HostOut::Event(HostEvent::Ended { reason }));
            }
            Peer::Connected { last_heard, .. }
                if now.saturating_duration_since(*last_heard) >= self.timing.silent_after =>
            {
                let why = NetReason::DeviceSilent {
                    ms: millis(self.timing.silent_after),
                };
                self.lose(&mut out, why, now);
            }
            Peer::Connected { last_sent, .. }
                if now.saturating_duration_since(*last_sent) >= self.timing.heartbeat =>
            {
                self.tell(&mut out, HostMsg::Ping);
            }
            _ => {}
        }
        self.stamp_sent(&out, now);
        out
    }

    /// Plays White's `action`: the event, or why it was refused.
    pub fn act(
        &mut self,
        action: &Action,
        now: Instant,
    ) -> (Result<OmigaEvent, NetError>, Vec<HostOut>) {
        let mut out = Vec::new();
        let id = self.last_act;
        let result = self.apply(&mut out, HOST_SEAT, action, id, now);
        self.stamp_sent(&out, now);
        (result, out)
    }

    /// Asks for (or agrees to) a rematch once the game is over.
    pub fn rematch(&mut self, now: Instant) -> Vec<HostOut> {
        let mut out = Vec::new();
        self.vote_rematch(&mut out, HOST_SEAT, now);
        self.stamp_sent(&out, now);
        out
    }

    /// Ends the pairing on purpose: the other device is told.
    pub fn leave(&mut self, _now: Instant) -> Vec<HostOut> {
        let mut out = Vec::new();
        self.tell(&mut out, HostMsg::ended(&NetReason::HostLeft));
        self.end_pairing(&mut out);
        out
    }

    fn current(&self, conn: ConnId) -> bool {
        matches!(self.peer, Peer::Connected { conn: c, .. } if c == conn)
    }

    fn countdown_left(&self, now: Instant) -> Duration {
        self.play_from
            .map_or(Duration::ZERO, |t| t.saturating_duration_since(now))
    }

    /// Sends to the connected device (nothing when none is).
    fn tell(&self, out: &mut Vec<HostOut>, msg: HostMsg) {
        if let Peer::Connected { conn, .. } = self.peer {
            out.push(HostOut::Send(conn, msg));
        }
    }

    /// Whatever went to the device counts as sent now (heartbeats follow silence).
    fn stamp_sent(&mut self, out: &[HostOut], now: Instant) {
        if let Peer::Connected {
            conn, last_sent, ..
        } = &mut self.peer
        {
            if out
                .iter()
                .any(|o| matches!(o, HostOut::Send(c, _) if *c == *conn))
            {
                *last_sent = now;
            }
        }
    }

    fn refuse_device(&self, out: &mut Vec<HostOut>, conn: ConnId, why: NetReason) {
        out.push(HostOut::Event(HostEvent::Notice(
            NetReason::RefusedDevice {
                why: Box::new(why.clone()),
            },
        )));
        refuse(out, conn, &why);
    }

    /// The current connection spoke: it is heard, and if it came back after a drop, it
    /// is back now.
    fn confirm(&mut self, out: &mut Vec<HostOut>, now: Instant) {
        if let Peer::Connected {
            confirmed,
            resuming,
            last_heard,
            ..
        } = &mut self.peer
        {
            *last_heard = now;
            if !*confirmed {
                *confirmed = true;
                if *resuming {
                    out.push(HostOut::Event(HostEvent::Resumed));
                }
            }
        }
    }

    fn hello(&mut self, out: &mut Vec<HostOut>, conn: ConnId, hello: ClientMsg, now: Instant) {
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
            self.refuse_device(out, conn, reason);
            return;
        }
        let resuming = matches!(self.peer, Peer::Lost { .. } | Peer::Connected { .. });
        let first = self.token.is_none();
        let token = self.token.get_or_insert_with(new_token).clone();
        if self.play_from.is_none() {
            self.play_from = Some(now + self.timing.countdown);
        }
        let welcome = HostMsg::Welcome {
            version: PROTOCOL_VERSION,
            seat: CLIENT_SEAT,
            token,
            view: self.game.view(CLIENT_SEAT),
            countdown_ms: millis(self.countdown_left(now)),
            game_id: self.game_id.clone(),
            last_act: self.last_act,
        };
        self.offer = Some(Offer {
            conn,
            first,
            resuming,
        });
        out.push(HostOut::Welcome(conn, welcome));
    }

    fn message(&mut self, out: &mut Vec<HostOut>, msg: ClientMsg, now: Instant) {
        match msg {
            ClientMsg::Hello { .. } => self.tell(out, HostMsg::error(&NetReason::HelloTwice)),
            ClientMsg::Ping => {}
            ClientMsg::Rematch => self.vote_rematch(out, CLIENT_SEAT, now),
            ClientMsg::Bye => {
                out.push(HostOut::Event(HostEvent::Ended {
                    reason: NetReason::OtherLeft,
                }));
                self.end_pairing(out);
            }
            ClientMsg::Act { id, .. } if id <= self.last_act => {
                // Numbers only grow: an old number is an action sent again after a drop,
                // already applied once; it must not be applied twice.
                self.tell(out, HostMsg::rejected(id, &NetReason::AlreadyReceived));
            }
            ClientMsg::Act { id, action } => {
                let allowed = match &mut self.peer {
                    Peer::Connected { bucket, .. } => bucket.take(now),
                    _ => false,
                };
                if !allowed {
                    let reason = NetReason::Flood {
                        per_second: self.rate.per_second,
                    };
                    out.push(HostOut::Event(HostEvent::Notice(NetReason::RefusedFlood {
                        why: Box::new(reason.clone()),
                    })));
                    self.tell(out, HostMsg::rejected(id, &reason));
                    return;
                }
                let result = action
                    .parse::<Action>()
                    .map_err(|e| NetError::Refused(e.into()))
                    .and_then(|a| self.apply(out, CLIENT_SEAT, &a, id, now));
                match result {
                    Ok(event) => {
                        let msg = HostMsg::Accepted {
                            id,
                            event,
                            view: self.game.view(CLIENT_SEAT),
                        };
                        self.tell(out, msg);
                    }
                    Err(e) => self.tell(out, HostMsg::rejected(id, &e.reason())),
                }
            }
        }
    }

    /// Applies an action of `seat`; `id` is the joiner's number for its own (saved with
    /// the match before anything is sent, so after a restart the welcome still tells what
    /// was applied). Refused while the game cannot take actions (nobody joined,
    /// countdown, paused, over).
    fn apply(
        &mut self,
        out: &mut Vec<HostOut>,
        seat: Seat,
        action: &Action,
        id: u64,
        now: Instant,
    ) -> Result<OmigaEvent, NetError> {
        match self.peer {
            Peer::Waiting => return Err(NetError::Refused(NetReason::WaitForJoin)),
            Peer::Lost { .. } => return Err(NetError::Refused(NetReason::Paused)),
            Peer::Over => return Err(NetError::Refused(NetReason::PairingOver)),
            Peer::Connected { .. } => {}
        }
        if !self.countdown_left(now).is_zero() {
            return Err(NetError::Refused(NetReason::Countdown));
        }
        let event = self
            .game
            .play(seat, action)
            .map_err(|e| NetError::Refused(e.into()))?;
        self.actions.push((seat, action.to_string()));
        self.last_act = id;
        self.save(out);
        if event.outcome.is_over() && self.keeps {
            out.push(HostOut::Record(Box::new(self.saved()), self.game.outcome()));
        }
        if seat == HOST_SEAT {
            let msg = HostMsg::Update {
                event: Omiga::event_for(&event, CLIENT_SEAT),
                view: self.game.view(CLIENT_SEAT),
            };
            self.tell(out, msg);
        } else {
            out.push(HostOut::Event(HostEvent::OpponentActed {
                event: Omiga::event_for(&event, HOST_SEAT),
                view: self.game.view(HOST_SEAT),
            }));
        }
        Ok(Omiga::event_for(&event, seat))
    }

    fn vote_rematch(&mut self, out: &mut Vec<HostOut>, seat: Seat, now: Instant) {
        if self.game.outcome() == Outcome::Ongoing || !matches!(self.peer, Peer::Connected { .. }) {
            if seat == CLIENT_SEAT {
                self.tell(out, HostMsg::error(&NetReason::RematchNotNow));
            } else {
                out.push(HostOut::Event(HostEvent::Notice(NetReason::RematchNotNow)));
            }
            return;
        }
        self.rematch[seat] = true;
        if self.rematch != [true, true] {
            if seat == CLIENT_SEAT {
                out.push(HostOut::Event(HostEvent::RematchOffered));
            } else {
                self.tell(out, HostMsg::RematchOffered);
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
                out.push(HostOut::Event(HostEvent::Notice(
                    NetReason::NoRematchDeal {
                        detail: e.to_string(),
                    },
                )));
                return;
            }
        }
        self.games += 1;
        self.rematch = [false, false];
        self.actions.clear();
        self.play_from = Some(now + self.timing.countdown);
        self.save(out);
        let countdown = self.countdown_left(now);
        let msg = HostMsg::Started {
            game: self.games,
            view: self.game.view(CLIENT_SEAT),
            countdown_ms: millis(countdown),
        };
        self.tell(out, msg);
        out.push(HostOut::Event(HostEvent::Started {
            game: self.games,
            view: self.game.view(HOST_SEAT),
            countdown,
        }));
    }

    /// The connection is gone: pause and wait for the same device to come back.
    fn lose(&mut self, out: &mut Vec<HostOut>, reason: NetReason, now: Instant) {
        if let Peer::Connected { conn, .. } = self.peer {
            out.push(HostOut::Close(conn));
        }
        self.peer = Peer::Lost {
            deadline: now + self.timing.resume_within,
        };
        out.push(HostOut::Event(HostEvent::Paused {
            reason: NetReason::ConnectionLost {
                why: Box::new(reason),
            },
        }));
    }

    fn end_pairing(&mut self, out: &mut Vec<HostOut>) {
        if let Peer::Connected { conn, .. } = self.peer {
            out.push(HostOut::Close(conn));
        }
        self.close_match(out);
        self.peer = Peer::Over;
    }

    /// The match in the local save format.
    fn saved(&self) -> SavedGame {
        saved::to_saved(&self.params.to_string(), &self.actions, &self.game)
    }

    /// Asks for a save, as after every action of a local game (none once it is over).
    fn save(&self, out: &mut Vec<HostOut>) {
        if !self.keeps || matches!(self.peer, Peer::Over) {
            return;
        }
        out.push(HostOut::Save(Box::new(HostSave {
            game_id: self.game_id.clone(),
            code: self.code.clone(),
            port: self.port,
            token: self.token.clone(),
            game: self.games,
            last_act: self.last_act,
            saved_at: saved::now_secs(),
            saved: self.saved(),
        })));
    }

    /// The pairing is over: a game still going goes to the history as unfinished, and
    /// the save is removed.
    fn close_match(&self, out: &mut Vec<HostOut>) {
        if !self.keeps {
            return;
        }
        if !self.game.outcome().is_over() && !self.actions.is_empty() {
            out.push(HostOut::Record(Box::new(self.saved()), self.game.outcome()));
        }
        out.push(HostOut::Clear);
    }
}

/// Refuses a connection (it never joined) and closes it.
fn refuse(out: &mut Vec<HostOut>, conn: ConnId, why: &NetReason) {
    out.push(HostOut::Send(conn, HostMsg::refused(why)));
    out.push(HostOut::Close(conn));
}

/// Milliseconds, saturating.
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// 128 random bits in hex: resume tokens and game ids.
pub fn new_token() -> String {
    use rand::Rng;
    format!("{:032x}", rand::rng().random::<u128>())
}
