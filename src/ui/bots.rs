//! The app's opponents at the table, for all three games.
//!
//! Each table keeps a [`Seats`]: one [`Bot`] per seat the app plays. When the session says
//! a bot seat is to act, the driver hands that bot ONLY `view(seat)` (in the background,
//! through `ai::background::decide` run by `platform::work`); the bot has already been
//! told, through [`Told::new`], every event its seat may know. The answer comes back to
//! the UI thread through the event loop (no polling timer) and is applied with
//! `Session::act_remote`. Omiga's bot first waits its level's pace (a one-shot
//! `slint::Timer`), then decides from the view of that moment.
//!
//! In tests without an event loop, [`set_synchronous`] makes the driver think at once on
//! the calling thread (`think` then `wait`), and [`wake_paced`] ends Omiga's waits.

use super::chrome;
use super::{AppWindow, Controller};
use crate::ai::{background, omiga_bot, Bot, Level, Opponents, Told};
use crate::games::{rng_from_seed, Game, Seat};
use crate::platform::time::Duration;
use crate::session::{SeatKind, Session};
use slint::ComponentHandle;
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

/// Work the driver runs for a table.
pub struct Job {
    token: u64,
    kind: JobKind,
}

enum JobKind {
    /// Think off the UI thread, one slice per call (`Some` once decided); the result
    /// goes back to the table's `bot_done`.
    #[allow(clippy::type_complexity)]
    Think(Box<dyn FnMut() -> Option<Box<dyn Any + Send>> + Send>),
    /// Omiga: wait this long, then call the table's `bot_wake`.
    Wait(Duration),
}

/// A bot's answer on its way back to the table.
struct Reply<G: Game> {
    token: u64,
    epoch: u64,
    seat: Seat,
    /// How many actions the match had when the bot started thinking, and the last one.
    actions: usize,
    last: Option<(Seat, String)>,
    answer: Option<background::Answer<G>>,
}

thread_local! {
    static SYNC: Cell<bool> = const { Cell::new(false) };
    static NEXT_TOKEN: Cell<u64> = const { Cell::new(1) };
    static WAITING: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
    #[allow(clippy::type_complexity)]
    static CTX: RefCell<Option<(slint::Weak<AppWindow>, Weak<RefCell<Controller>>)>> =
        const { RefCell::new(None) };
}

/// Tests: think on the calling thread at once instead of on a worker thread, and hold
/// Omiga's paced waits until [`wake_paced`].
pub fn set_synchronous(on: bool) {
    SYNC.with(|s| s.set(on));
}

/// One app seat.
struct Slot<G: Game> {
    level: Level,
    /// `None` while it thinks on another thread.
    bot: Option<Box<dyn Bot<G>>>,
}

/// The app's seats of one table, and what they were told so far.
pub struct Seats<G: Opponents> {
    slots: Vec<Option<Slot<G>>>,
    /// The referee's copy the driver replays the match on, to tell each bot the events
    /// (stripped by `Told::new` for its seat). Never handed to a bot.
    referee: Option<G>,
    /// Actions told to the bots so far.
    told: usize,
    /// Changes whenever the bots are rebuilt (undo): older answers are dropped.
    epoch: u64,
    token: u64,
    /// Omiga: a seat is waiting for its pace.
    waiting: bool,
    /// Omiga: the pace has passed; the bot may decide now.
    awake: bool,
    seed: u64,
}

impl<G: Opponents> Seats<G> {
    /// The app's seats of `session` (none when everybody is a person).
    pub fn new(session: &Session<G>) -> Self {
        let mut seats = Seats {
            slots: Vec::new(),
            referee: None,
            told: 0,
            epoch: 0,
            token: NEXT_TOKEN.with(|t| {
                let n = t.get();
                t.set(n + 1);
                n
            }),
            waiting: false,
            awake: false,
            seed: rand::random(),
        };
        seats.rebuild(session);
        seats
    }

    fn rebuild(&mut self, session: &Session<G>) {
        self.slots = session
            .players()
            .iter()
            .map(|p| {
                (p.kind == SeatKind::Bot).then(|| {
                    let level = p
                        .level
                        .as_deref()
                        .and_then(|l| l.parse().ok())
                        .unwrap_or(Level::Medium);
                    Slot {
                        level,
                        bot: Some(G::bot(level, Some(level.think_limit()))),
                    }
                })
            })
            .collect();
        self.referee = G::new_game(session.params()).ok();
        self.told = 0;
        self.epoch += 1;
        self.waiting = false;
        self.awake = false;
    }

    /// True when the app plays `seat`.
    pub fn is_bot(&self, seat: Seat) -> bool {
        self.slots.get(seat).is_some_and(|s| s.is_some())
    }

    /// True when the app plays some seat.
    pub fn any(&self) -> bool {
        self.slots.iter().any(|s| s.is_some())
    }

    /// The level of the app at `seat`.
    pub fn level(&self, seat: Seat) -> Option<Level> {
        self.slots
            .get(seat)
            .and_then(|s| s.as_ref())
            .map(|s| s.level)
    }

    /// True while an app seat thinks (or waits its pace).
    pub fn thinking(&self) -> bool {
        self.waiting || self.slots.iter().flatten().any(|s| s.bot.is_none())
    }

    /// Tells every bot what its seat learned from the actions it has not heard of yet.
    fn catch_up(&mut self, session: &Session<G>) {
        if session.actions().len() < self.told {
            // Taken back: start the bots' memories over from the replay.
            self.rebuild(session);
        }
        let Some(referee) = self.referee.as_mut() else {
            return;
        };
        for (seat, line) in &session.actions()[self.told..] {
            let event = line
                .parse::<G::Action>()
                .and_then(|a| referee.play(*seat, &a));
            let Ok(event) = event else {
                // Cannot happen: the session applied the same action.
                crate::note!("the bots could not follow '{line}'");
                self.referee = None;
                return;
            };
            for (bot_seat, slot) in self.slots.iter_mut().enumerate() {
                if let Some(bot) = slot.as_mut().and_then(|s| s.bot.as_mut()) {
                    bot.observe(&Told::new(&event, bot_seat));
                }
            }
        }
        self.told = session.actions().len();
    }

    /// What the driver should do for this table now: let a bot that is to act think (or,
    /// when `paced`, first wait its pace). `None` while one thinks or none is to act.
    pub fn job(&mut self, session: &Session<G>, paced: bool) -> Option<Job> {
        if !self.any() || session.outcome().is_over() || self.thinking() {
            return None;
        }
        self.catch_up(session);
        let seat = session
            .game()
            .to_act()
            .into_iter()
            .find(|s| self.is_bot(*s))?;
        let level = self.level(seat)?;
        if paced && !self.awake {
            self.waiting = true;
            let pace = omiga_bot::pace(level);
            let spread = pace.spread.as_millis() as u64;
            let jitter = if spread == 0 {
                0
            } else {
                rand::random_range(0..=2 * spread)
            };
            let ms = (pace.think.as_millis() as u64 + jitter).saturating_sub(spread);
            return Some(Job {
                token: self.token,
                kind: JobKind::Wait(Duration::from_millis(ms)),
            });
        }
        self.awake = false;
        let bot = self.slots.get_mut(seat)?.as_mut()?.bot.take()?;
        self.seed = self.seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut decision = decide_from_view(bot, session.game().view(seat), self.seed);
        let (token, epoch, actions) = (self.token, self.epoch, session.actions().len());
        let last = session.actions().last().cloned();
        Some(Job {
            token,
            kind: JobKind::Think(Box::new(move || {
                let background::Step::Done(answer) = decision.step() else {
                    return None;
                };
                Some(Box::new(Reply::<G> {
                    token,
                    epoch,
                    seat,
                    actions,
                    last: last.clone(),
                    answer,
                }) as Box<dyn Any + Send>)
            })),
        })
    }

    /// Omiga: the pace of the waiting seat has passed.
    pub fn wake(&mut self, token: u64) {
        if token == self.token && self.waiting {
            self.waiting = false;
            self.awake = true;
        }
    }

    /// Applies a bot's answer through `Session::act_remote`. `None` when the answer is
    /// stale (the match moved on meanwhile) or not for this table; otherwise the seat, its
    /// action and the event as that seat knows it, or why it was refused.
    #[allow(clippy::type_complexity)]
    pub fn finish(
        &mut self,
        session: &mut Session<G>,
        reply: Box<dyn Any + Send>,
    ) -> Option<Result<(Seat, G::Action, G::Event), String>> {
        let reply = reply.downcast::<Reply<G>>().ok()?;
        if reply.token != self.token {
            return None;
        }
        let Some((bot, action)) = reply.answer else {
            // The bot failed (a bug): play on with a fresh bot of the same level.
            let slot = self.slots.get_mut(reply.seat)?.as_mut()?;
            slot.bot = Some(G::bot(slot.level, Some(slot.level.think_limit())));
            return Some(Err("the app could not decide".into()));
        };
        if reply.epoch != self.epoch {
            return None;
        }
        if let Some(slot) = self.slots.get_mut(reply.seat).and_then(|s| s.as_mut()) {
            slot.bot = Some(bot);
        }
        if session.actions().len() != reply.actions
            || session.actions().last() != reply.last.as_ref()
        {
            // Someone acted while it thought (Omiga): decide again from the new view.
            self.awake = true;
            return None;
        }
        let action = action?;
        match session.act_remote(reply.seat, &action) {
            Ok(event) => Some(Ok((reply.seat, action, event))),
            Err(e) => {
                self.awake = true;
                Some(Err(e.to_string()))
            }
        }
    }
}

/// The one way a bot is asked to decide: with a seat's view, never the game state. The
/// decision is then made in slices (`Decision::step`, or `finish` to wait for it).
pub fn decide_from_view<G: Game>(
    bot: Box<dyn Bot<G>>,
    view: G::View,
    seed: u64,
) -> background::Decision<G> {
    background::Decision::new(bot, view, rng_from_seed(seed))
}

/// "The app (hard)" in the message line is the seat's name; this is its level's word.
pub fn level_word(level: Level, language: &str) -> String {
    use super::texts::ShellText;
    let word = match level {
        Level::Easy => ShellText::Easy,
        Level::Medium => ShellText::Medium,
        Level::Hard | Level::Random => ShellText::Hard,
    };
    super::texts::say(&word, language)
}

/// Remembers the window and controller, for answers arriving from worker threads.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    CTX.with(|c| *c.borrow_mut() = Some((app.as_weak(), Rc::downgrade(controller))));
}

/// Starts whatever the app's seats of the table on screen must do now. Called after
/// every change of the table (`Controller::after_change`).
pub(crate) fn kick(app: &AppWindow, c: &mut Controller) {
    let Some(job) = c.table.as_mut().and_then(|t| t.bot_job()) else {
        return;
    };
    let sync = SYNC.with(|s| s.get());
    match job.kind {
        JobKind::Think(mut work) if sync => {
            let reply = loop {
                if let Some(reply) = work() {
                    break reply;
                }
            };
            deliver_to(app, c, reply);
        }
        JobKind::Think(work) => crate::platform::work::run_in_steps(work, deliver),
        JobKind::Wait(_) if sync => WAITING.with(|w| w.borrow_mut().push(job.token)),
        JobKind::Wait(pace) => {
            let token = job.token;
            slint::Timer::single_shot(pace, move || wake(token));
        }
    }
}

/// Runs `f` with the window and controller; `false` when the controller is busy (it never
/// is between events, but then the caller retries on the next turn of the event loop).
fn with_ctx(f: impl FnOnce(&AppWindow, &mut Controller)) -> bool {
    let ctx = CTX.with(|c| c.borrow().clone());
    let Some((app, controller)) = ctx else {
        return true;
    };
    let (Some(app), Some(controller)) = (app.upgrade(), controller.upgrade()) else {
        return true;
    };
    let Ok(mut guard) = controller.try_borrow_mut() else {
        return false;
    };
    f(&app, &mut guard);
    true
}

fn deliver(reply: Box<dyn Any + Send>) {
    let slot = RefCell::new(Some(reply));
    let done = with_ctx(|app, c| {
        if let Some(reply) = slot.borrow_mut().take() {
            deliver_to(app, c, reply);
        }
    });
    if !done {
        if let Some(reply) = slot.into_inner() {
            let _ = slint::invoke_from_event_loop(move || deliver(reply));
        }
    }
}

fn wake(token: u64) {
    let done = with_ctx(|app, c| {
        if let Some(table) = c.table.as_mut() {
            table.bot_wake(token);
        }
        c.after_change(app);
    });
    if !done {
        slint::Timer::single_shot(Duration::from_millis(50), move || wake(token));
    }
}

/// Tests: ends every paced wait now (Omiga's bot places its next card).
pub fn wake_paced() {
    let tokens: Vec<u64> = WAITING.with(|w| std::mem::take(&mut *w.borrow_mut()));
    for token in tokens {
        wake(token);
    }
}

fn deliver_to(app: &AppWindow, c: &mut Controller, reply: Box<dyn Any + Send>) {
    let language = c.language();
    let Some(table) = c.table.as_mut() else {
        return;
    };
    if let Some((text, warning)) = table.bot_done(reply, language) {
        table.show(app, language);
        chrome::show_message(app, &text, warning);
    } else {
        table.show(app, language);
    }
    c.after_change(app);
}
