//! The Ovo opponent: a memory of the hidden eggs that fades with the level, a
//! determinized search that samples the owners it does not know, and a vote.
//!
//! Every hidden egg was once visible and every move is public, so a perfect memory would
//! know every owner; people forget, and so do these bots (per turn, each remembered
//! owner is forgotten with a level's probability). What is forgotten is sampled: each
//! determinization gives the unknown hidden eggs owners consistent with what the seat
//! still knows (egg counts, visible eggs, its own peeks, flips it watched). Each
//! determinization is searched (hard: its best moves through a whole round), and the
//! best move of each casts a vote. It declares "Ovo!" only when its memory is sure.

use super::{Bot, Budget, Deadline, Level, Thought, Told};
use crate::games::ovo::Cell;
use crate::games::ovo::{
    camp_owner, eggs_per_seat, CellView, Happened, Ovo, OvoAction, OvoView, Symbol, CELLS,
};
use crate::games::{Game, Outcome, RuleResult, Seat};
use crate::platform::time::{Duration, Instant};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// What the bot believes stands on a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Belief {
    /// No egg.
    Empty,
    /// A visible egg of this seat.
    Visible(Seat),
    /// A hidden egg, with its owner when remembered.
    Hidden(Option<Seat>),
}

/// The bot's memory of the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    players: usize,
    cells: [Belief; CELLS],
}

/// The extra cost of a home cell another seat's egg stands on (it must be moved out).
const EVICT: i32 = 3;

/// How much the best opponent's distance counts against the bot's own: below 1, so that
/// it brings its own eggs home rather than trade moves pulling others' eggs out.
const SPITE: f64 = 0.5;

/// A value beyond any heuristic score: a won or lost game.
const WIN: f64 = 1000.0;

/// How many of its moves (the best by a one-ply look) the hard level plays through a
/// whole round. Tuned by self-play against three mediums (untimed, seed 11): the best 8,
/// 38 % of 40 games won; 12, 65 % of 60 (15 ms of processor a decision); 16, 68 % of 60
/// (22 ms). At two players 12 won 97 of 100 against medium in 7 ms, where the previous
/// search (every move and the next seat's reply) won 95 in 20 ms.
const ROUND_MOVES: usize = 12;

/// How a level plays Ovo.
#[derive(Debug, Clone, Copy)]
struct Style {
    /// Chance per own turn of forgetting each remembered hidden owner.
    forget: f64,
    /// Determinizations searched (each votes).
    samples: usize,
    /// Look a whole round ahead ([`RoundSearch`]) instead of one ply.
    round: bool,
    /// Chance of a careless random move.
    careless: f64,
    /// Noise added to each evaluation.
    noise: f64,
}

fn style(level: Level) -> Style {
    match level {
        Level::Random => Style {
            forget: 1.0,
            samples: 1,
            round: false,
            careless: 1.0,
            noise: 0.0,
        },
        Level::Easy => Style {
            forget: 0.04,
            samples: 1,
            round: false,
            careless: 0.25,
            noise: 1.5,
        },
        Level::Medium => Style {
            forget: 0.02,
            samples: 4,
            round: false,
            careless: 0.0,
            noise: 0.3,
        },
        Level::Hard => Style {
            forget: 0.005,
            samples: 6,
            round: true,
            careless: 0.0,
            noise: 0.0,
        },
    }
}

/// An Ovo opponent.
#[derive(Debug, Clone)]
pub struct OvoBot {
    level: Level,
    limit: Option<Duration>,
    memory: Option<Memory>,
    hit_deadline: bool,
    /// The hard search between two slices of a decision made with [`Bot::think`].
    kept: Option<Box<Kept>>,
    /// Rounds played through in the current (or last) decision.
    play_outs: usize,
}

impl OvoBot {
    /// A new opponent at `level`, thinking at most `limit` per decision.
    pub fn new(level: Level, limit: Option<Duration>) -> OvoBot {
        OvoBot {
            level,
            limit,
            memory: None,
            hit_deadline: false,
            kept: None,
            play_outs: 0,
        }
    }

    /// What the bot remembers now (for tests and the curious).
    pub fn memory(&self) -> Option<&Memory> {
        self.memory.as_ref()
    }

    /// Rounds played through in the current (or last) decision: what a slice of
    /// thinking did, counted rather than timed.
    pub fn play_outs(&self) -> usize {
        self.play_outs
    }

    /// Brings the memory up to `view` and lets it fade, once per decision.
    fn remember(&mut self, view: &OvoView, rng: &mut ChaCha8Rng) {
        let memory = self.memory.get_or_insert_with(|| Memory::from_view(view));
        memory.reconcile(view);
        memory.fade(style(self.level).forget, rng);
    }
}

impl Memory {
    /// A memory that knows only what `view` shows.
    pub fn from_view(view: &OvoView) -> Memory {
        let mut m = Memory {
            players: view.players,
            cells: [Belief::Empty; CELLS],
        };
        m.reconcile(view);
        m
    }

    /// The belief about `cell`.
    pub fn get(&self, cell: Cell) -> Belief {
        self.cells[cell.index()]
    }

    /// Makes the memory agree with what the view shows plainly; keeps remembered owners
    /// of hidden eggs that are still there.
    fn reconcile(&mut self, view: &OvoView) {
        self.players = view.players;
        for cell in Cell::all() {
            let b = &mut self.cells[cell.index()];
            *b = match view.cell(cell) {
                CellView::Empty => Belief::Empty,
                CellView::Visible { seat, .. } => Belief::Visible(seat),
                CellView::Revealed { seat, .. } => Belief::Hidden(Some(seat)),
                CellView::Hidden => match *b {
                    Belief::Hidden(known) => Belief::Hidden(known),
                    _ => Belief::Hidden(None),
                },
            };
        }
    }

    /// Follows one move: the egg leaves `from` and stands on its last landing, flipped
    /// (with its owner remembered, since it was visible) when it landed in an opposing camp.
    fn follow(&mut self, from: Cell, to: Cell, flipped: bool) {
        let egg = std::mem::replace(&mut self.cells[from.index()], Belief::Empty);
        self.cells[to.index()] = match (egg, flipped) {
            (Belief::Visible(owner), true) => Belief::Hidden(Some(owner)),
            (Belief::Empty, _) => Belief::Hidden(None),
            (other, _) => other,
        };
    }

    /// Whether `egg` landing on `cell` would be flipped.
    fn flips(&self, egg: Belief, cell: Cell) -> bool {
        matches!(egg, Belief::Visible(o) if camp_owner(self.players, cell).is_some_and(|c| c != o))
    }

    /// Sure that every egg of `seat` is hidden on its own camp.
    pub fn sure_home(&self, seat: Seat) -> bool {
        let home = Cell::all()
            .filter(|&c| {
                self.get(c) == Belief::Hidden(Some(seat))
                    && camp_owner(self.players, c) == Some(seat)
            })
            .count();
        home == eggs_per_seat(self.players)
    }

    /// The memory after `seat` plays `action` (a move), as far as it can tell.
    fn after(&self, action: &OvoAction) -> Memory {
        let mut m = self.clone();
        if let (Some(from), Some(&to)) = (action.from_cell(), action.landings().last()) {
            let flipped = m.flips(m.get(from), to);
            m.follow(from, to, flipped);
        }
        m
    }

    /// Forgets each remembered hidden owner with chance `p`.
    fn fade(&mut self, p: f64, rng: &mut ChaCha8Rng) {
        for b in self.cells.iter_mut() {
            if matches!(b, Belief::Hidden(Some(_))) && rng.random_bool(p.clamp(0.0, 1.0)) {
                *b = Belief::Hidden(None);
            }
        }
    }
}

/// A full state consistent with `view` and `memory`: the owners of hidden eggs the
/// memory does not know are dealt at random among the eggs each seat must still have
/// (its starting number, none for a seat that is out). The legal actions of the seat on
/// turn are the same in every such state, since owners of hidden eggs never change them.
pub fn sample_state(view: &OvoView, memory: &Memory, rng: &mut ChaCha8Rng) -> RuleResult<Ovo> {
    let players = view.players;
    let total = |s: Seat| {
        if view.out.contains(&s) {
            0
        } else {
            eggs_per_seat(players)
        }
    };
    let mut owners = vec![None; CELLS];
    let mut need: Vec<usize> = (0..players).map(total).collect();
    let mut unknown = Vec::new();
    let take = |s: Seat, need: &mut Vec<usize>| match need.get_mut(s) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    };
    for cell in Cell::all() {
        match view.cell(cell) {
            CellView::Empty => {}
            CellView::Visible { seat, .. } | CellView::Revealed { seat, .. } => {
                take(seat, &mut need);
                owners[cell.index()] = Some((seat, false));
            }
            CellView::Hidden => unknown.push(cell),
        }
    }
    // Remembered owners first, while the counts allow them (a memory can never say more
    // eggs of a seat than it has, but a defensive check costs nothing).
    let mut rest = Vec::new();
    for cell in unknown {
        match memory.get(cell) {
            Belief::Hidden(Some(s)) if take(s, &mut need) => {
                owners[cell.index()] = Some((s, true));
            }
            _ => rest.push(cell),
        }
    }
    let mut pool: Vec<Seat> = need
        .iter()
        .enumerate()
        .flat_map(|(s, &n)| std::iter::repeat_n(s, n))
        .collect();
    pool.shuffle(rng);
    for (cell, s) in rest.iter().zip(pool.iter()) {
        owners[cell.index()] = Some((*s, true));
    }
    let mut board = String::new();
    for rank in (0..6).rev() {
        for file in 0..6 {
            let ch = Cell::new(file, rank)
                .and_then(|c| owners[c.index()])
                .map(|(s, hidden)| {
                    let base = if hidden { b'a' } else { b'A' };
                    char::from(base + u8::try_from(s).unwrap_or(0))
                })
                .unwrap_or('.');
            board.push(ch);
        }
        if rank > 0 {
            board.push('/');
        }
    }
    let mut line = format!("players={players} turn={} board={board}", view.turn);
    if let Some(last) = view.last {
        line.push_str(&format!(" last={last}"));
    }
    if !view.out.is_empty() {
        let out: Vec<String> = view.out.iter().map(|s| s.to_string()).collect();
        line.push_str(&format!(" out={}", out.join(",")));
    }
    if view.passes > 0 {
        line.push_str(&format!(" passes={}", view.passes));
    }
    if !view.no_move_back {
        line.push_str(" no_move_back=off");
    }
    Ovo::from_position(&line)
}

/// Chebyshev distance between two cells.
fn dist(a: Cell, b: Cell) -> i32 {
    (a.file() - b.file()).abs().max((a.rank() - b.rank()).abs())
}

/// The board's fixed distances for a number of players, worked out once per decision
/// (the evaluation runs thousands of times in a hard decision).
#[derive(Debug, Clone)]
struct Geometry {
    players: usize,
    /// Each seat's camp.
    home: Vec<Vec<Cell>>,
    /// Per seat and cell: what a visible egg there still costs (to an opposing camp,
    /// one step to flip, and the shortest way back home from there).
    visible_cost: Vec<[i32; CELLS]>,
}

impl Geometry {
    fn new(players: usize) -> Geometry {
        let home: Vec<Vec<Cell>> = (0..players).map(|s| camp_of(players, s)).collect();
        let visible_cost = (0..players)
            .map(|seat| {
                let away: Vec<Cell> = Cell::all()
                    .filter(|&c| camp_owner(players, c).is_some_and(|o| o != seat))
                    .collect();
                let nearest = |cell: Cell, set: &[Cell]| set.iter().map(|&c| dist(cell, c)).min();
                let back = away
                    .iter()
                    .filter_map(|&c| nearest(c, &home[seat]))
                    .min()
                    .unwrap_or(0);
                let mut cost = [0; CELLS];
                for cell in Cell::all() {
                    cost[cell.index()] = nearest(cell, &away).unwrap_or(0) + back + 1;
                }
                cost
            })
            .collect();
        Geometry {
            players,
            home,
            visible_cost,
        }
    }
}

/// What the evaluation needs of every seat in one position.
struct Standing {
    /// How far each seat is from winning: for each egg, the steps to flip it (a visible
    /// egg) plus the way back, or the steps home (a hidden egg).
    distance: Vec<f64>,
    /// Every egg of the seat hidden on its camp: it can declare.
    all_home: Vec<bool>,
}

fn standing(game: &Ovo, geo: &Geometry) -> Standing {
    let board = game.board();
    let mut distance = vec![0.0; geo.players];
    let mut all_home = vec![true; geo.players];
    let mut any = vec![false; geo.players];
    for seat in 0..geo.players {
        let home = &geo.home[seat];
        // A home cell taken by another seat's egg must be emptied first: it costs more.
        let mut open_home: Vec<(Cell, i32)> = Vec::with_capacity(home.len());
        for &h in home {
            match board.get(h) {
                None => open_home.push((h, 0)),
                Some(e) if e.owner == seat && e.hidden => {}
                Some(_) => open_home.push((h, EVICT)),
            }
        }
        let mut d = 0;
        for (cell, egg) in board.eggs().filter(|(_, e)| e.owner == seat) {
            any[seat] = true;
            let at_home = home.contains(&cell);
            if !(egg.hidden && at_home) {
                all_home[seat] = false;
            }
            d += if !egg.hidden {
                geo.visible_cost[seat][cell.index()]
            } else if at_home {
                0
            } else {
                open_home
                    .iter()
                    .map(|&(h, extra)| dist(cell, h) + extra)
                    .min()
                    .unwrap_or(0)
            };
        }
        distance[seat] = f64::from(d);
    }
    for (home, any) in all_home.iter_mut().zip(any) {
        *home &= any;
    }
    Standing { distance, all_home }
}

/// The value of `game` for `seat`: won, lost, or how much nearer it is than its best
/// opponent.
fn evaluate(game: &Ovo, seat: Seat, geo: &Geometry) -> f64 {
    match game.outcome() {
        Outcome::Ongoing => {}
        Outcome::Win { seat: w } => return if w == seat { WIN } else { -WIN },
        Outcome::SharedWin { .. } | Outcome::Draw => return 0.0,
    }
    value_of(game, &standing(game, geo), seat)
}

/// The value for `seat` of an ongoing position whose standing is known.
fn value_of(game: &Ovo, st: &Standing, seat: Seat) -> f64 {
    let others = || (0..game.players()).filter(move |&s| s != seat && !game.is_out(s));
    let best_other = others()
        .map(|s| st.distance[s])
        .fold(f64::INFINITY, f64::min);
    let best_other = if best_other.is_finite() {
        best_other
    } else {
        0.0
    };
    // An opponent whose eggs all stand hidden at home can win by declaring.
    let threat = others().any(|s| st.all_home[s]);
    SPITE * best_other - st.distance[seat] - if threat { WIN / 2.0 } else { 0.0 }
}

/// Moves only: no peeks, no declarations.
fn moves(actions: Vec<OvoAction>) -> Vec<OvoAction> {
    actions
        .into_iter()
        .filter(|a| {
            matches!(
                a,
                OvoAction::Step { ovo: false, .. } | OvoAction::Jump { ovo: false, .. }
            )
        })
        .collect()
}

impl OvoBot {
    /// The decision, once the memory is up to date: an answer, or for hard the round
    /// search to run ([`RoundSearch`]).
    fn decide(&mut self, view: &OvoView, rng: &mut ChaCha8Rng, deadline: &Deadline) -> Plan {
        match self.decide_or_search(view, rng, deadline) {
            Ok(search) => Plan::Search(Box::new(search)),
            Err(action) => Plan::Decided(action),
        }
    }

    /// [`OvoBot::decide`], with `Err` carrying an answer found before any round search
    /// (so that `?` ends the decision where the old one-call code returned).
    fn decide_or_search(
        &mut self,
        view: &OvoView,
        rng: &mut ChaCha8Rng,
        deadline: &Deadline,
    ) -> Result<RoundSearch, Option<OvoAction>> {
        let me = view.seat;
        let st = style(self.level);
        let memory = self.memory.clone().ok_or(None)?;
        let first = sample_state(view, &memory, rng).map_err(|_| None)?;
        let legal = first.legal_actions(me);
        if legal.is_empty() {
            return Err(None);
        }
        let plain: Vec<OvoAction> = legal.iter().filter(|a| !a.declares()).cloned().collect();
        if self.level == Level::Random || rng.random_bool(st.careless) {
            return Err(plain.choose(rng).cloned());
        }
        if memory.sure_home(me) {
            return Err(Some(OvoAction::Ovo));
        }
        let candidates = moves(legal);
        for m in &candidates {
            if memory.after(m).sure_home(me) {
                return Err(Some(m.with_ovo()));
            }
        }
        if let Some(peek) = self.peek_worth_it(view, &memory, rng) {
            return Err(Some(peek));
        }
        if candidates.is_empty() {
            return Err(plain.first().cloned());
        }
        let geo = Geometry::new(view.players);
        // With every hidden owner remembered, all determinizations are the same one.
        let samples = if Cell::all().any(|c| memory.get(c) == Belief::Hidden(None)) {
            st.samples
        } else {
            1
        };
        if st.round {
            return Ok(RoundSearch::new(
                view, memory, geo, first, candidates, samples,
            ));
        }
        let mut votes = vec![0usize; candidates.len()];
        let mut sums = vec![0.0f64; candidates.len()];
        for d in 0..samples {
            if d > 0 && deadline.passed() {
                self.hit_deadline = true;
                break;
            }
            let state = if d == 0 {
                first.clone()
            } else {
                match sample_state(view, &memory, rng) {
                    Ok(s) => s,
                    Err(_) => break,
                }
            };
            let mut best: Option<(usize, f64)> = None;
            for (i, m) in candidates.iter().enumerate() {
                if deadline.passed() && best.is_some() {
                    self.hit_deadline = true;
                    break;
                }
                let mut after = state.clone();
                if after.apply(me, m).is_err() {
                    continue;
                }
                let mut value = evaluate(&after, me, &geo);
                if st.noise > 0.0 {
                    value += rng.random_range(-st.noise..=st.noise);
                }
                sums[i] += value;
                if best.is_none_or(|(_, v)| value > v) {
                    best = Some((i, value));
                }
            }
            if let Some((i, _)) = best {
                votes[i] += 1;
            }
        }
        Err(most_voted(&votes, &sums).and_then(|i| candidates.get(i).cloned()))
    }

    /// A peek when the bot has lost track of its own eggs and it matters: an unknown
    /// hidden egg on its camp, or, once all its eggs are hidden, the unknown one
    /// nearest home.
    fn peek_worth_it(
        &self,
        view: &OvoView,
        memory: &Memory,
        rng: &mut ChaCha8Rng,
    ) -> Option<OvoAction> {
        let me = view.seat;
        let players = view.players;
        let unknown: Vec<Cell> = Cell::all()
            .filter(|&c| memory.get(c) == Belief::Hidden(None))
            .collect();
        if unknown.is_empty() {
            return None;
        }
        let known_mine = Cell::all()
            .filter(|&c| memory.get(c) == Belief::Hidden(Some(me)))
            .count();
        let visible_mine = Cell::all()
            .filter(|&c| memory.get(c) == Belief::Visible(me))
            .count();
        if known_mine + visible_mine >= eggs_per_seat(players) {
            return None;
        }
        let home = camp_of(players, me);
        if let Some(&cell) = unknown.iter().find(|&&c| home.contains(&c)) {
            if self.level != Level::Easy || rng.random_bool(0.5) {
                return Some(OvoAction::Peek { cell, ovo: false });
            }
        }
        if visible_mine == 0 {
            let cell = unknown
                .iter()
                .min_by_key(|&&c| home.iter().map(|&h| dist(c, h)).min().unwrap_or(0))?;
            return Some(OvoAction::Peek {
                cell: *cell,
                ovo: false,
            });
        }
        None
    }
}

fn camp_of(players: usize, seat: Seat) -> Vec<Cell> {
    Cell::all()
        .filter(|&c| camp_owner(players, c) == Some(seat))
        .collect()
}

/// The hard level's search: in each determinization its best moves by a one-ply look
/// ([`ROUND_MOVES`] of them, in that order, so that a deadline cuts the least promising)
/// are each played through a whole round ([`round_value`]), and each determinization
/// votes for its best. At four players the next seat's reply, all the previous search
/// saw, is a third of what happens before the bot's next turn.
///
/// Resumable after every piece of work (dealing a determinization with its one-ply
/// look, or one candidate's round), so that [`Bot::think`] can stop between two and go
/// on in its next slice; run to the end in one call it is [`Bot::choose`]'s search.
#[derive(Debug, Clone)]
struct RoundSearch {
    view: OvoView,
    /// The memory the determinizations are sampled from (after this turn's fading).
    memory: Memory,
    geo: Geometry,
    candidates: Vec<OvoAction>,
    /// Determinizations to search.
    samples: usize,
    /// The first determinization (sampled before the search, for the legal moves).
    first: Option<Ovo>,
    /// Determinizations dealt so far.
    dealt: usize,
    votes: Vec<usize>,
    sums: Vec<f64>,
    /// The determinization being searched.
    open: Option<Open>,
    /// Rounds played so far.
    play_outs: usize,
    /// The longest piece of work so far: it predicts whether the next fits in a slice.
    longest: Duration,
}

/// A determinization part searched.
#[derive(Debug, Clone)]
struct Open {
    /// The candidates still to play through a round, with the position after each (the
    /// next one last).
    queue: Vec<(usize, Ovo)>,
    /// The best candidate so far and its value: this determinization's vote.
    best: Option<(usize, f64)>,
}

/// What one piece of [`RoundSearch`] work came to.
enum Work {
    /// Done; there is more.
    Did,
    /// Every determinization searched (or none more fits the memory): answer now.
    Finished,
    /// The deadline passed: answer with the votes so far.
    Cut,
}

impl RoundSearch {
    fn new(
        view: &OvoView,
        memory: Memory,
        geo: Geometry,
        first: Ovo,
        candidates: Vec<OvoAction>,
        samples: usize,
    ) -> RoundSearch {
        RoundSearch {
            view: view.clone(),
            memory,
            geo,
            votes: vec![0; candidates.len()],
            sums: vec![0.0; candidates.len()],
            candidates,
            samples,
            first: Some(first),
            dealt: 0,
            open: None,
            play_outs: 0,
            longest: Duration::ZERO,
        }
    }

    fn finished(&self) -> bool {
        self.open.is_none() && self.dealt >= self.samples
    }

    /// The open determinization's vote, and it is closed.
    fn close(&mut self) {
        if let Some(Open {
            best: Some((i, _)), ..
        }) = self.open.take()
        {
            if let Some(v) = self.votes.get_mut(i) {
                *v += 1;
            }
        }
    }

    /// One piece of work: deal the next determinization and rank its moves by a
    /// one-ply look, or play the next of its candidates through a round.
    fn work(&mut self, rng: &mut ChaCha8Rng, deadline: &Deadline) -> Work {
        let me = self.view.seat;
        let started = Instant::now();
        match self.open.as_mut() {
            None => {
                if self.dealt >= self.samples {
                    return Work::Finished;
                }
                if self.dealt > 0 && deadline.passed() {
                    return Work::Cut;
                }
                let state = match self.first.take() {
                    Some(first) => first,
                    None => match sample_state(&self.view, &self.memory, rng) {
                        Ok(s) => s,
                        Err(_) => return Work::Finished,
                    },
                };
                let mut shallow: Vec<(usize, f64, Ovo)> = Vec::with_capacity(self.candidates.len());
                for (i, m) in self.candidates.iter().enumerate() {
                    let mut after = state.clone();
                    if after.apply(me, m).is_ok() {
                        shallow.push((i, evaluate(&after, me, &self.geo), after));
                    }
                }
                shallow.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                let mut queue: Vec<(usize, Ovo)> = shallow
                    .into_iter()
                    .take(ROUND_MOVES)
                    .map(|(i, _, after)| (i, after))
                    .collect();
                // Played from the back: the best by the one-ply look first.
                queue.reverse();
                self.dealt += 1;
                self.open = Some(Open { queue, best: None });
            }
            Some(Open { queue, best }) => {
                if deadline.passed() && best.is_some() {
                    self.close();
                    return Work::Cut;
                }
                if let Some((i, after)) = queue.pop() {
                    let v = round_value(&after, me, &self.geo);
                    if let Some(sum) = self.sums.get_mut(i) {
                        *sum += v;
                    }
                    if best.is_none_or(|(_, b)| v > b) {
                        *best = Some((i, v));
                    }
                    self.play_outs += 1;
                }
            }
        }
        if self.open.as_ref().is_some_and(|o| o.queue.is_empty()) {
            self.close();
        }
        self.longest = self.longest.max(started.elapsed());
        Work::Did
    }

    /// Works until the search is finished, the `deadline` passes (as the one-call
    /// search always did: checked before each piece, a determinization cut short
    /// still votes) or the next piece would overrun the `slice` (predicted by the
    /// longest so far). Each call does at least one piece, so that a decision advances
    /// however short the slices.
    fn advance(&mut self, rng: &mut ChaCha8Rng, deadline: &Deadline, slice: &Deadline) -> Stop {
        let mut progressed = false;
        loop {
            if self.finished() {
                return Stop::Finished;
            }
            if progressed && !slice.fits(self.longest) {
                return Stop::Paused;
            }
            match self.work(rng, deadline) {
                Work::Did => progressed = true,
                Work::Finished => return Stop::Finished,
                Work::Cut => return Stop::Cut,
            }
        }
    }

    /// The most voted candidate.
    fn best(&self) -> Option<OvoAction> {
        self.candidates
            .get(most_voted(&self.votes, &self.sums)?)
            .cloned()
    }
}

/// What a decision comes to before any round search.
enum Plan {
    /// Decided without one.
    Decided(Option<OvoAction>),
    /// Hard: the round search, not yet run.
    Search(Box<RoundSearch>),
}

/// Where [`RoundSearch::advance`] stopped.
enum Stop {
    /// Every determinization searched: answer now.
    Finished,
    /// The level's deadline passed: answer with the votes so far.
    Cut,
    /// The slice is used up: the search goes on in the next call.
    Paused,
}

/// A hard decision in progress between two [`Bot::think`] calls.
#[derive(Debug, Clone)]
struct Kept {
    /// The random source as this decision left it: a call with a source in another state
    /// (a new decision on the same view) starts afresh, so that an answer depends only
    /// on the view, the memory and the seed.
    rng: ChaCha8Rng,
    /// The level's time limit, counted in thinking time from the decision's first slice.
    budget: Budget,
    search: RoundSearch,
}

/// The value for `me` of the position `after` its move, looking one round ahead: every
/// other seat in turn plays the move best for itself by the medium's evaluation (and
/// declares when that move brings all its eggs home: a loss for `me`, whichever seat
/// it is), then `me` is valued by its own best next move (a move that lets it declare
/// is worth half a win, since someone may still take it away). Without the round the
/// bot did not see a declaration two seats away, nor that the seats after the next one
/// undo what it leaves open; without its own next move it did not value a position
/// from which it can finish (self-play: 38 % of 40 games won with the round, 52 % with
/// the next move as well).
fn round_value(after: &Ovo, me: Seat, geo: &Geometry) -> f64 {
    let mut g = after.clone();
    for _ in 0..geo.players {
        if g.outcome().is_over() {
            return evaluate(&g, me, geo);
        }
        // The rules core has already skipped eliminated seats.
        let them = g.turn();
        let now = standing(&g, geo);
        if them == me {
            if now.all_home[me] {
                return WIN;
            }
            let mut best = value_of(&g, &now, me);
            for r in moves(g.legal_actions(me)) {
                let mut h = g.clone();
                if h.apply(me, &r).is_err() {
                    continue;
                }
                let st = standing(&h, geo);
                if st.all_home[me] {
                    return WIN / 2.0;
                }
                best = best.max(value_of(&h, &st, me));
            }
            return best;
        }
        if now.all_home[them] {
            return -WIN;
        }
        let mut best: Option<(f64, Ovo)> = None;
        for r in moves(g.legal_actions(them)) {
            let mut h = g.clone();
            if h.apply(them, &r).is_err() {
                continue;
            }
            let v = if h.outcome().is_over() {
                evaluate(&h, them, geo)
            } else {
                let st = standing(&h, geo);
                if st.all_home[them] {
                    return -WIN;
                }
                value_of(&h, &st, them)
            };
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, h));
            }
        }
        match best {
            Some((_, h)) => g = h,
            // Only a peek or a pass: nothing moves.
            None => return value_of(&g, &now, me),
        }
    }
    evaluate(&g, me, geo)
}

impl Bot<Ovo> for OvoBot {
    fn choose(&mut self, view: &OvoView, rng: &mut ChaCha8Rng) -> Option<OvoAction> {
        self.hit_deadline = false;
        self.kept = None;
        self.play_outs = 0;
        if view.outcome.is_over() || view.turn != view.seat {
            return None;
        }
        let deadline = Deadline::after(self.limit);
        self.remember(view, rng);
        let mut search = match self.decide(view, rng, &deadline) {
            Plan::Decided(action) => return action,
            Plan::Search(search) => search,
        };
        // The same search as in slices, with one slice as long as the whole decision.
        let stop = search.advance(rng, &deadline, &Deadline::after(None));
        self.hit_deadline = matches!(stop, Stop::Cut);
        self.play_outs = search.play_outs;
        search.best()
    }

    /// The hard level's round search kept between calls (a 4-player decision is a few
    /// frames of work natively and more in the browser, issue 17): the first call
    /// prepares it, each later one does at least one piece and more while the slice
    /// lasts. For the same view, memory and seed the answer is [`Bot::choose`]'s when no
    /// deadline cuts either.
    fn think(
        &mut self,
        view: &OvoView,
        rng: &mut ChaCha8Rng,
        slice: Duration,
    ) -> Thought<OvoAction> {
        let started = Instant::now();
        let slice_end = Deadline::after(Some(slice));
        let memory = self.memory.clone();
        let resumed = self.kept.take().filter(|k| {
            k.search.view == *view && k.rng == *rng && memory.as_ref() == Some(&k.search.memory)
        });
        let Some(mut kept) = resumed else {
            self.hit_deadline = false;
            self.play_outs = 0;
            if view.outcome.is_over() || view.turn != view.seat {
                return Thought::Decided(None);
            }
            let deadline = Deadline::after(self.limit);
            self.remember(view, rng);
            return match self.decide(view, rng, &deadline) {
                Plan::Decided(action) => Thought::Decided(action),
                Plan::Search(search) => {
                    // The first slice has sampled and listed the moves; the search
                    // starts in the next, which can tell how long its work takes.
                    let mut budget = Budget::new(self.limit);
                    budget.spend_since(started);
                    self.kept = Some(Box::new(Kept {
                        rng: rng.clone(),
                        budget,
                        search: *search,
                    }));
                    Thought::Thinking
                }
            };
        };
        let stop = kept
            .search
            .advance(rng, &kept.budget.deadline(), &slice_end);
        kept.budget.spend_since(started);
        self.play_outs = kept.search.play_outs;
        match stop {
            Stop::Paused => {
                kept.rng = rng.clone();
                self.kept = Some(kept);
                Thought::Thinking
            }
            Stop::Finished | Stop::Cut => {
                self.hit_deadline = matches!(stop, Stop::Cut);
                Thought::Decided(kept.search.best())
            }
        }
    }

    fn observe(&mut self, told: &Told<Ovo>) {
        let Some(memory) = self.memory.as_mut() else {
            return;
        };
        let event = told.event();
        match &event.happened {
            Happened::Moved {
                from,
                landings,
                flipped,
                ..
            } => {
                if let Some(&to) = landings.last() {
                    memory.follow(*from, to, *flipped);
                }
            }
            Happened::Peeked {
                cell,
                symbol: Some(symbol),
            } => {
                let owner = (0..memory.players)
                    .find(|&s| Symbol::of_seat(memory.players, s) == Some(*symbol));
                memory.cells[cell.index()] = Belief::Hidden(owner);
            }
            Happened::Peeked { .. } | Happened::Passed | Happened::Nothing => {}
        }
        if let Some(d) = &event.declaration {
            for cell in &d.removed {
                memory.cells[cell.index()] = Belief::Empty;
            }
        }
    }

    fn hit_deadline(&self) -> bool {
        self.hit_deadline
    }
}

/// The candidate the determinizations voted for most; a tie goes to the higher summed
/// value, then to the earlier candidate (the order is deterministic).
fn most_voted<V: Ord>(votes: &[V], sums: &[f64]) -> Option<usize> {
    (0..votes.len().min(sums.len())).max_by(|&a, &b| {
        votes[a]
            .cmp(&votes[b])
            .then(sums[a].total_cmp(&sums[b]))
            .then(b.cmp(&a))
    })
}
