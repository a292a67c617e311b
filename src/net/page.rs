//! Drivers of the host's match ([`HostMatch`]) and the joined device ([`JoinerCore`]) for
//! a place with one thread and nothing that may block: the browser's page. The page's
//! timer calls `step(now)` every few tens of milliseconds; each step takes in everything
//! that has arrived on the channel, then the clock, and carries out what the state
//! machine asks (sends, saves through `platform::storage`, the player's events, which the
//! step returns). They work over any [`MessageChannel`]: a WebRTC data channel in the
//! browser (`net::rtc`), the in-memory pair in the tests below.
//!
//! A data channel cannot be dialled again: a new one needs a new offer and answer, which
//! only the players can carry. So where the TCP joiner reconnects on its own, this one
//! waits: [`PageJoiner::wants_link`] says the players must pair again, and
//! [`PageJoiner::linked`] hands it the new channel. A blip of a few seconds never gets that
//! far (the channel survives it, `RTC_TIMING`).

use super::channel::{MessageChannel, Received};
use super::host_match::{carry_out, ConnId, HostMatch, MatchSetup};
use super::joiner::{JoinerCore, JoinerEvent, JoinerOut, KeptSeat};
use super::protocol::{ClientMsg, HostMsg, ProtocolError, RateLimit, Timing};
use super::reason::NetReason;
use super::saved::{self, SeatHost, SeatSave, Transport};
use super::{HostEvent, NetError};
use crate::games::omiga::{Action, Omiga, OmigaEvent, OmigaView};
use crate::games::{Game, Params, Seat};
use crate::platform::time::{Duration, Instant};
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;

/// The timings over a data channel. A browser marks its link "disconnected" after about
/// 5 s without an answer and heals it when packets flow again, and the channel survives
/// that; so silence counts only after 15 s (TCP: 5 s), or every Wi-Fi blip would end the
/// channel and ask the players to pair again. Coming back by pairing again takes people
/// walking over and copying or scanning a text, so the host waits 3 minutes (TCP: 60 s).
pub const RTC_TIMING: Timing = Timing {
    heartbeat: Duration::from_secs(1),
    silent_after: Duration::from_secs(15),
    hello_within: Duration::from_secs(5),
    resume_within: Duration::from_secs(180),
    countdown: Duration::from_secs(3),
};

/// At most this many messages are taken from one channel in one step: a flood cannot
/// hold the page (the rest wait for the next step, and the match's rate limit answers).
const PER_STEP: usize = 64;

/// The host's match driven from a page: connections by number (a new data channel after
/// each pairing), the storage, and the host player's events.
pub struct PageHost<C> {
    host: HostMatch,
    conns: HashMap<ConnId, C>,
    next_conn: ConnId,
    store: Option<PathBuf>,
    events: Vec<HostEvent>,
}

impl<C: MessageChannel<HostMsg, ClientMsg>> PageHost<C> {
    /// A match waiting for its device; with `store` it is saved there after every action
    /// (the browser's storage), so a reloaded page continues it.
    pub fn new(setup: MatchSetup, store: Option<PathBuf>, now: Instant) -> Result<Self, NetError> {
        let (host, first) = HostMatch::new(setup, now)?;
        let mut page = PageHost {
            host,
            conns: HashMap::new(),
            next_conn: 1,
            store,
            events: Vec::new(),
        };
        page.carry(first);
        Ok(page)
    }

    /// The hosting page's match: the one saved in `store` if it was left within the
    /// resume time (a reloaded host page goes on with it, same code), else a fresh deal
    /// from `params` with a new code. Says whether it continues a saved match.
    pub fn open(
        params: Params,
        timing: Timing,
        store: Option<PathBuf>,
        now: Instant,
    ) -> Result<(Self, bool), NetError> {
        let resume = store
            .as_deref()
            .and_then(|dir| saved::recent_host(dir, timing.resume_within));
        let (game, params, code) = match &resume {
            Some(save) => {
                let (game, params) = save.resumed()?;
                (game, params, save.code.clone())
            }
            None => {
                let game = Omiga::new_game(&params).map_err(|e| NetError::Setup(e.into()))?;
                (game, params, super::host::random_code())
            }
        };
        let resumed = resume.is_some();
        let setup = MatchSetup {
            game,
            params,
            code,
            timing,
            rate: RateLimit::default(),
            keeps: store.is_some(),
            port: 0,
            resume,
        };
        Ok((PageHost::new(setup, store, now)?, resumed))
    }

    fn carry(&mut self, outs: Vec<super::HostOut>) {
        let events = &mut self.events;
        let mut notify = |e| events.push(e);
        carry_out(
            &mut self.host,
            &mut self.conns,
            self.store.as_deref(),
            &mut notify,
            outs,
        );
    }

    /// The join code (it travels in the offer; the joiner's hello carries it back).
    pub fn code(&self) -> &str {
        self.host.code()
    }

    /// Whether a device is in the game now; when not, the page offers a pairing text.
    pub fn has_device(&self) -> bool {
        self.host.has_device()
    }

    /// Whether the pairing is over.
    pub fn over(&self) -> bool {
        self.host.over()
    }

    /// A data channel opened (a pairing finished): it must say hello in the hello time.
    pub fn connect(&mut self, channel: C, now: Instant) {
        let conn = self.next_conn;
        self.next_conn += 1;
        self.conns.insert(conn, channel);
        let outs = self.host.on_connect(conn, now);
        self.carry(outs);
    }

    /// Takes in what arrived on every channel, then the clock; returns what the host's
    /// player is told.
    pub fn step(&mut self, now: Instant) -> Vec<HostEvent> {
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        for id in ids {
            for _ in 0..PER_STEP {
                let Some(conn) = self.conns.get_mut(&id) else {
                    break;
                };
                let outs = match conn.recv() {
                    Received::Nothing => break,
                    Received::Msg(msg) => self.host.on_message(id, msg, now),
                    Received::Bad(e) => self.host.on_bad(id, e.into(), now),
                    Received::Closed(e) => {
                        self.conns.remove(&id);
                        let why = match e {
                            ProtocolError::Closed => NetReason::DeviceClosed,
                            other => other.into(),
                        };
                        let outs = self.host.on_closed(id, why, now);
                        self.carry(outs);
                        break;
                    }
                };
                self.carry(outs);
            }
        }
        let outs = self.host.on_tick(now);
        self.carry(outs);
        std::mem::take(&mut self.events)
    }

    /// Plays White's action: the event, or why not (the other device hears of it at once).
    pub fn act(&mut self, action: &Action, now: Instant) -> Result<OmigaEvent, NetError> {
        let (result, outs) = self.host.act(action, now);
        self.carry(outs);
        result
    }

    /// White's view now.
    pub fn view(&self) -> OmigaView {
        self.host.view()
    }

    /// White's legal actions now.
    pub fn legal(&self) -> Vec<Action> {
        self.host.legal()
    }

    /// The whole position and the actions so far (tests; never on the wire).
    pub fn position(&self) -> (String, Vec<(Seat, String)>) {
        self.host.position()
    }

    /// Asks for (or agrees to) a rematch.
    pub fn rematch(&mut self, now: Instant) {
        let outs = self.host.rematch(now);
        self.carry(outs);
    }

    /// Ends the pairing on purpose: the other device is told, every channel closed.
    pub fn leave(&mut self, now: Instant) {
        let outs = self.host.leave(now);
        self.carry(outs);
        for (_, mut conn) in self.conns.drain() {
            conn.close();
        }
    }

    /// What the player was told outside a step (by `connect`, `act`, `rematch`, `leave`).
    pub fn take_events(&mut self) -> Vec<HostEvent> {
        std::mem::take(&mut self.events)
    }
}

/// The joined device driven from a page, over a channel the players paired.
pub struct PageJoiner<C> {
    core: JoinerCore,
    channel: Option<C>,
    /// A freshly paired channel the core has not asked for yet.
    spare: Option<C>,
    /// The core asked for a connection and there is none: the players must pair again.
    wants_link: bool,
    store: Option<PathBuf>,
    events: VecDeque<JoinerEvent>,
    failed: Option<NetError>,
}

impl<C: MessageChannel<ClientMsg, HostMsg>> PageJoiner<C> {
    /// A first join over `channel` (open, the host's offer carried `code`); the hello
    /// goes at once. With `store` the seat is kept there, so a reloaded page comes back.
    pub fn join(
        code: &str,
        timing: Timing,
        channel: C,
        store: Option<PathBuf>,
        now: Instant,
    ) -> Self {
        let (core, first) = JoinerCore::join(code, timing);
        let mut page = PageJoiner {
            core,
            channel: None,
            spare: Some(channel),
            wants_link: false,
            store,
            events: VecDeque::new(),
            failed: None,
        };
        page.carry(first, now);
        page
    }

    /// The seat a page kept before it was reloaded, if any (a seat kept by the TCP
    /// joiner is not this driver's). It starts lost and asks to be paired again.
    pub fn restore(store: PathBuf, timing: Timing, now: Instant) -> Result<Option<Self>, String> {
        let Some(seat) = saved::load_seat(&store)? else {
            return Ok(None);
        };
        if seat.host != SeatHost::Other(Transport::Rtc) {
            return Ok(None);
        }
        let kept = KeptSeat {
            code: seat.code,
            token: seat.token,
            game_id: seat.game_id,
            next_id: seat.next_id,
            pending: seat.pending,
        };
        Ok(Some(PageJoiner {
            core: JoinerCore::restore(kept, timing, now),
            channel: None,
            spare: None,
            wants_link: false,
            store: Some(store),
            events: VecDeque::new(),
            failed: None,
        }))
    }

    /// The players paired again: the new channel replaces the old one (which is dropped
    /// as a lost link if the core still held it) and the seat is asked back with its token
    /// at once, whatever the core was doing (`JoinerCore::relink`).
    pub fn linked(&mut self, channel: C, now: Instant) {
        self.spare = Some(channel);
        self.wants_link = false;
        let outs = self.core.relink(now);
        self.carry(outs, now);
    }

    /// Whether the players must pair the pages again before the game can go on.
    pub fn wants_link(&self) -> bool {
        self.wants_link
    }

    fn carry(&mut self, outs: Vec<JoinerOut>, now: Instant) {
        let mut todo: VecDeque<JoinerOut> = outs.into();
        while let Some(out) = todo.pop_front() {
            match out {
                JoinerOut::Connect => match self.spare.take() {
                    Some(channel) => {
                        if let Some(mut old) = self.channel.replace(channel) {
                            old.close();
                        }
                        for o in self.core.on_open(now).into_iter().rev() {
                            todo.push_front(o);
                        }
                    }
                    // Nothing to dial: the core stays "opening" until the players pair.
                    None => self.wants_link = true,
                },
                JoinerOut::Send(msg) => {
                    let failed = self.channel.as_mut().and_then(|c| c.send(&msg).err());
                    if let Some(e) = failed {
                        todo.extend(self.core.on_closed(e.to_string().into(), now));
                    }
                }
                JoinerOut::Close => {
                    if let Some(mut channel) = self.channel.take() {
                        channel.close();
                    }
                }
                JoinerOut::Event(event) => self.events.push_back(event),
                JoinerOut::Failed(e) => self.failed = Some(e),
                JoinerOut::Keep(kept) => {
                    if let Some(dir) = &self.store {
                        let seat = SeatSave {
                            host: SeatHost::Other(Transport::Rtc),
                            code: kept.code,
                            token: kept.token,
                            game_id: kept.game_id,
                            next_id: kept.next_id,
                            pending: kept.pending,
                        };
                        // Not fatal: the game goes on, only a reload could not come back.
                        if let Err(e) = saved::save_seat(dir, &seat) {
                            crate::note!("{e}");
                        }
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

    /// Takes in what arrived, then the clock; returns what the player is told.
    pub fn step(&mut self, now: Instant) -> Vec<JoinerEvent> {
        for _ in 0..PER_STEP {
            let Some(channel) = self.channel.as_mut() else {
                break;
            };
            let outs = match channel.recv() {
                Received::Nothing => break,
                Received::Msg(msg) => self.core.on_message(msg, now),
                Received::Bad(e) => self.core.on_bad(e.into(), now),
                Received::Closed(e) => {
                    self.channel = None;
                    self.core.on_closed(e.into(), now)
                }
            };
            self.carry(outs, now);
        }
        let outs = self.core.on_tick(now);
        self.carry(outs, now);
        self.events.drain(..).collect()
    }

    /// Why the first join failed, once (then the page shows it and pairs anew).
    pub fn take_failure(&mut self) -> Option<NetError> {
        self.failed.take()
    }

    /// Sends an action; its fate comes from a later step.
    pub fn act(&mut self, action: Action, now: Instant) -> Result<(), NetError> {
        let outs = self.core.act(action, now)?;
        self.carry(outs, now);
        Ok(())
    }

    /// Asks for (or agrees to) a rematch.
    pub fn rematch(&mut self, now: Instant) -> Result<(), NetError> {
        let outs = self.core.rematch(now)?;
        self.carry(outs, now);
        Ok(())
    }

    /// Leaves on purpose: the host is told and the seat forgotten.
    pub fn leave(&mut self, now: Instant) {
        let outs = self.core.leave(now);
        self.carry(outs, now);
    }

    /// This seat's view (none before the host's welcome).
    pub fn view(&self) -> Option<&OmigaView> {
        self.core.view()
    }

    /// The countdown the last welcome or start announced.
    pub fn countdown(&self) -> Duration {
        self.core.countdown()
    }

    /// Whether the link is up (welcomed).
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Params;
    use crate::net::channel::mem::{pair, MemChannel};
    use crate::net::legal_from_view;

    type Host = PageHost<MemChannel<HostMsg, ClientMsg>>;
    type Join = PageJoiner<MemChannel<ClientMsg, HostMsg>>;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("hotseat-page-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn host(store: &std::path::Path, now: Instant) -> Host {
        let setup = crate::net::mem_pair::setup(11, RTC_TIMING).unwrap();
        PageHost::new(setup, Some(store.to_path_buf()), now).unwrap()
    }

    /// Steps both pages every 20 ms of a fake clock for `d`, as the page timers do.
    fn run(
        h: &mut Host,
        j: &mut Join,
        now: &mut Instant,
        d: Duration,
    ) -> (Vec<HostEvent>, Vec<JoinerEvent>) {
        let (mut he, mut je) = (Vec::new(), Vec::new());
        let end = *now + d;
        while *now < end {
            *now += Duration::from_millis(20);
            he.extend(h.step(*now));
            je.extend(j.step(*now));
        }
        (he, je)
    }

    /// Two pages paired once play a whole game to its end over the page drivers, both
    /// agree on the table and the result, the host's match is saved after every action and
    /// the joiner's seat kept; a link that goes quiet for 5 s heals with nothing lost; a
    /// joiner page reloaded comes back from its kept seat once paired again.
    #[test]
    fn two_pages_play_a_game_heal_a_blip_and_take_the_seat_back_after_a_reload() {
        let (hd, jd) = (dir("host"), dir("join"));
        let mut now = Instant::now();
        let mut h = host(&hd, now);
        let (je, he) = pair::<ClientMsg, HostMsg>();
        let first_link = je.faults();
        h.connect(he, now);
        let mut j = PageJoiner::join(h.code(), RTC_TIMING, je, Some(jd.clone()), now);
        let (events, _) = run(&mut h, &mut j, &mut now, Duration::from_millis(200));
        assert!(
            events
                .iter()
                .any(|e| matches!(e, HostEvent::Started { .. })),
            "{events:?}"
        );
        assert!(j.connected() && h.has_device());
        run(&mut h, &mut j, &mut now, RTC_TIMING.countdown);

        let mut turns = 0;
        let mut reloaded = false;
        while !h.view().outcome.is_over() {
            turns += 1;
            assert!(turns < 400, "the game did not end");
            let white = h.legal();
            let place = white.iter().find(|a| matches!(a, Action::Place { .. }));
            if let Some(a) = place.or(white.first()) {
                let _ = h.act(a, now);
            }
            run(&mut h, &mut j, &mut now, Duration::from_millis(60));
            if h.view().outcome.is_over() {
                break;
            }
            let black = legal_from_view(j.view().unwrap());
            let place = black.iter().find(|a| matches!(a, Action::Place { .. }));
            j.act(*place.or(black.first()).unwrap(), now).unwrap();
            let (he, je) = run(&mut h, &mut j, &mut now, Duration::from_millis(60));
            assert!(
                !he.iter().any(|e| matches!(e, HostEvent::Paused { .. })),
                "{he:?}"
            );
            let answered = je.iter().any(|e| {
                matches!(
                    e,
                    JoinerEvent::Accepted { .. } | JoinerEvent::Rejected { .. }
                )
            });
            assert!(answered, "{je:?}");
            if turns == 5 && !reloaded {
                reloaded = true;
                // The joiner's page reloads: the browser closes its channel as it goes.
                first_link.cut();
                drop(j);
                let mut he = Vec::new();
                for _ in 0..10 {
                    now += Duration::from_millis(20);
                    he.extend(h.step(now));
                }
                assert!(
                    he.iter().any(|e| matches!(e, HostEvent::Paused { .. })),
                    "{he:?}"
                );
                assert!(!h.has_device());
                j = PageJoiner::restore(jd.clone(), RTC_TIMING, now)
                    .unwrap()
                    .unwrap();
                let (_, je) = run(&mut h, &mut j, &mut now, Duration::from_millis(100));
                assert!(
                    j.wants_link(),
                    "a reloaded page asks to be paired again: {je:?}"
                );
                let (je2, he2) = pair::<ClientMsg, HostMsg>();
                h.connect(he2, now);
                j.linked(je2, now);
                let (he, je) = run(&mut h, &mut j, &mut now, Duration::from_millis(200));
                assert!(he.contains(&HostEvent::Resumed), "{he:?}");
                assert!(je.contains(&JoinerEvent::Resumed), "{je:?}");
            }
        }
        run(&mut h, &mut j, &mut now, Duration::from_millis(100));
        assert_eq!(j.view().unwrap().outcome, h.view().outcome);
        assert_eq!(j.view().unwrap().cells, h.view().cells);
        assert!(reloaded);
        // The save followed every action; the history got the game.
        let saved = saved::load_host(&hd).unwrap();
        let (_, actions) = h.position();
        assert_eq!(saved.map(|s| s.saved.actions), Some(actions));
        let _ = std::fs::remove_dir_all(&hd);
        let _ = std::fs::remove_dir_all(&jd);
    }

    /// A host page reloaded mid-game opens its saved match again (same code, same table,
    /// so the joiner's kept seat fits); a save older than the resume time, or one that
    /// cannot be read, gives a fresh deal instead.
    #[test]
    fn a_reloaded_host_page_goes_on_with_its_saved_match() {
        let (hd, jd) = (dir("reopen-host"), dir("reopen-join"));
        let mut now = Instant::now();
        let params = Params::new().with("seed", 11);
        let (mut h, resumed) =
            Host::open(params.clone(), RTC_TIMING, Some(hd.clone()), now).unwrap();
        assert!(!resumed);
        let (je, he) = pair::<ClientMsg, HostMsg>();
        h.connect(he, now);
        let mut j = PageJoiner::join(h.code(), RTC_TIMING, je, Some(jd.clone()), now);
        run(&mut h, &mut j, &mut now, Duration::from_millis(200));
        run(&mut h, &mut j, &mut now, RTC_TIMING.countdown);
        let place = h
            .legal()
            .into_iter()
            .find(|a| matches!(a, Action::Place { .. }));
        h.act(&place.expect("seed 11 deals White a card that fits"), now)
            .unwrap();
        let (code, cells) = (h.code().to_string(), h.view().cells);
        drop(h);

        let (h, resumed) = Host::open(params.clone(), RTC_TIMING, Some(hd.clone()), now).unwrap();
        assert!(resumed);
        assert_eq!(h.code(), code);
        assert_eq!(h.view().cells, cells);
        drop(h);

        // Left longer than the resume time: a new deal, not the old match.
        let file = hd.join(saved::HOST_FILE);
        let mut save = saved::load_host(&hd).unwrap().unwrap();
        save.saved_at -= RTC_TIMING.resume_within.as_secs() + 60;
        std::fs::write(&file, serde_json::to_string(&save).unwrap()).unwrap();
        let (h, resumed) = Host::open(params.clone(), RTC_TIMING, Some(hd.clone()), now).unwrap();
        assert!(!resumed);
        assert!(h.view().cells.len() < cells.len(), "a fresh table");
        drop(h);

        // A damaged file is not trusted: a new deal.
        std::fs::write(&file, "{ not a save").unwrap();
        let (_, resumed) = Host::open(params, RTC_TIMING, Some(hd.clone()), now).unwrap();
        assert!(!resumed);
        let _ = std::fs::remove_dir_all(&hd);
        let _ = std::fs::remove_dir_all(&jd);
    }

    /// A channel paired while the joiner still greets the host on an older one (its hello
    /// went into a link the host never took in) carries the hello at once: the host gives
    /// a new channel only the hello time (5 s), which the joiner's own welcome deadline
    /// (5 s) and next try (1 s) used to outlast, so the host refused it "no hello".
    #[test]
    fn a_channel_paired_while_greeting_says_hello_at_once() {
        let (hd, jd) = (dir("regreet-host"), dir("regreet-join"));
        let mut now = Instant::now();
        let mut h = host(&hd, now);
        // The first channel's host end is never taken in: the hello goes nowhere.
        let (je, _lost) = pair::<ClientMsg, HostMsg>();
        let mut j = PageJoiner::join(h.code(), RTC_TIMING, je, Some(jd.clone()), now);
        run(&mut h, &mut j, &mut now, Duration::from_millis(500));
        assert!(!j.connected() && !j.wants_link());
        let (je2, he2) = pair::<ClientMsg, HostMsg>();
        h.connect(he2, now);
        j.linked(je2, now);
        let (he, je) = run(&mut h, &mut j, &mut now, Duration::from_millis(100));
        assert!(h.has_device() && j.connected(), "{he:?} {je:?}");
        assert!(
            !he.iter().any(|e| matches!(e, HostEvent::Notice(_))),
            "{he:?}"
        );

        // Likewise a joiner waiting for its next try after a failed one: the device was
        // welcomed, lost its link, and the host did not answer its first try back.
        let (je3, _gone) = pair::<ClientMsg, HostMsg>();
        j.linked(je3, now);
        let (_, je) = run(&mut h, &mut j, &mut now, RTC_TIMING.hello_within);
        assert!(
            je.iter().any(|e| matches!(e, JoinerEvent::Retrying(_))),
            "{je:?}"
        );
        let (je4, he4) = pair::<ClientMsg, HostMsg>();
        h.connect(he4, now);
        j.linked(je4, now);
        let (he, je) = run(&mut h, &mut j, &mut now, Duration::from_millis(100));
        assert!(j.connected(), "{he:?} {je:?}");
        assert!(he.contains(&HostEvent::Resumed), "{he:?}");
        let _ = std::fs::remove_dir_all(&hd);
        let _ = std::fs::remove_dir_all(&jd);
    }

    /// A link silent for 5 s (a Wi-Fi blip) pauses nobody over the data channel's timings,
    /// and an action sent into it arrives once the link is back, counted once.
    #[test]
    fn a_five_second_blip_heals_by_itself() {
        let (hd, jd) = (dir("blip-host"), dir("blip-join"));
        let mut now = Instant::now();
        let mut h = host(&hd, now);
        let (je, he) = pair::<ClientMsg, HostMsg>();
        let link = je.faults();
        h.connect(he, now);
        let mut j = PageJoiner::join(h.code(), RTC_TIMING, je, Some(jd.clone()), now);
        run(
            &mut h,
            &mut j,
            &mut now,
            RTC_TIMING.countdown + Duration::from_millis(200),
        );
        let white = h.legal()[0];
        h.act(&white, now).unwrap();
        run(&mut h, &mut j, &mut now, Duration::from_millis(100));
        // A data channel holds what is sent while the link is down and delivers it after:
        // the in-memory link stands for that by holding its messages.
        link.hold(true);
        let black = legal_from_view(j.view().unwrap())[0];
        j.act(black, now).unwrap();
        let (he, je) = run(&mut h, &mut j, &mut now, Duration::from_secs(5));
        assert!(he.is_empty() && je.is_empty(), "{he:?} {je:?}");
        link.hold(false);
        let (he, je) = run(&mut h, &mut j, &mut now, Duration::from_millis(200));
        assert!(
            !he.iter().any(|e| matches!(e, HostEvent::Paused { .. })),
            "{he:?}"
        );
        assert!(
            je.iter().any(|e| matches!(e, JoinerEvent::Accepted { .. })),
            "{je:?}"
        );
        assert_eq!(h.position().1.len(), 2);
        let _ = std::fs::remove_dir_all(&hd);
        let _ = std::fs::remove_dir_all(&jd);
    }
}
