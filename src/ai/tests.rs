//! Tests of the opponents: legal play over many games, reproducible self-play, views
//! only, and the Ovo memory (sure declarations, denying an opponent's win).

use super::selfplay::{self, play_one, Config, DecisionTimes};
use super::sliced::Search as _;
use super::*;
use crate::games::iota::Iota;
use crate::games::omiga::Omiga;
use crate::games::ovo::{Cell, Ovo, OvoAction};
use crate::games::registry::GameKind;
use crate::games::{rng_from_seed, Outcome, Params};
use rand_chacha::ChaCha8Rng;

fn params(game: &str, players: usize, seed: u64) -> Params {
    match game.parse::<GameKind>() {
        Ok(GameKind::Ovo) => Params::new()
            .with("players", players)
            .with("first", seed % players as u64),
        Ok(GameKind::Iota) => Params::new()
            .with("players", players)
            .with("seed", seed)
            .with("first", seed % players as u64),
        _ => Params::new().with("seed", seed),
    }
}

/// Plays `games` games of `G` between `levels` (untimed), `cap` actions at most each;
/// `play_one` refuses any illegal action and checks the invariants on every step.
fn legal_games<G: Opponents>(players: usize, levels: &[Level], games: u64, cap: Option<usize>) {
    let mut times: [DecisionTimes; 4] = Default::default();
    for k in 0..games {
        let rotated: Vec<Level> = (0..players)
            .map(|i| levels[(i + k as usize) % levels.len()])
            .collect();
        let mut rng = rng_from_seed(1000 + k);
        let record = play_one::<G>(
            &params(G::NAME, players, k),
            &rotated,
            &mut rng,
            true,
            None,
            &mut times,
            cap,
        );
        if let Err(e) = record {
            panic!("{} game {k} {levels:?}: {e}", G::NAME);
        }
    }
}

#[test]
fn every_level_plays_only_legal_ovo_actions() {
    legal_games::<Ovo>(2, &[Level::Random, Level::Easy], 60, Some(200));
    legal_games::<Ovo>(4, &[Level::Random, Level::Easy], 20, Some(200));
    legal_games::<Ovo>(2, &[Level::Medium, Level::Easy], 6, Some(120));
    legal_games::<Ovo>(4, &[Level::Medium, Level::Hard], 1, Some(16));
    legal_games::<Ovo>(2, &[Level::Hard, Level::Random], 2, Some(24));
}

#[test]
fn every_level_plays_only_legal_iota_actions() {
    legal_games::<Iota>(2, &[Level::Random, Level::Easy], 16, None);
    legal_games::<Iota>(3, &[Level::Easy, Level::Medium, Level::Random], 6, None);
    legal_games::<Iota>(4, &[Level::Medium, Level::Random], 5, None);
    legal_games::<Iota>(2, &[Level::Hard, Level::Easy], 1, Some(12));
    legal_games::<Iota>(4, &[Level::Hard, Level::Medium], 1, Some(12));
}

#[test]
fn every_level_plays_only_legal_omiga_actions() {
    legal_games::<Omiga>(2, &[Level::Random, Level::Easy], 100, None);
    legal_games::<Omiga>(2, &[Level::Medium, Level::Hard], 60, None);
    legal_games::<Omiga>(2, &[Level::Hard, Level::Random], 40, None);
}

#[test]
fn ovo_bots_never_declare_wrongly() {
    for k in 0..8u64 {
        let players = if k % 3 == 0 { 4 } else { 2 };
        let mut game = Ovo::new_game(&params("ovo", players, k)).unwrap();
        let levels = [Level::Easy, Level::Medium];
        let mut bots: Vec<_> = (0..players)
            .map(|s| Ovo::bot(levels[s % 2], None))
            .collect();
        let mut rng = rng_from_seed(k);
        for _ in 0..120 {
            if game.outcome().is_over() {
                break;
            }
            let seat = game.turn();
            let action = bots[seat].choose(&game.view(seat), &mut rng).unwrap();
            let event = game.play(seat, &action).unwrap();
            if let Some(d) = &event.declaration {
                assert!(d.correct, "game {k}: seat {seat} declared wrongly");
            }
            for (s, bot) in bots.iter_mut().enumerate() {
                bot.observe(&Told::new(&event, s));
            }
        }
    }
}

#[test]
fn selfplay_is_reproducible() {
    for game in GameKind::ALL {
        let config = |seed| Config {
            game,
            players: 2,
            games: 3,
            levels: vec![Level::Easy, Level::Random],
            seed,
            untimed: true,
            slice: None,
        };
        let a = selfplay::run(&config(5)).unwrap();
        let b = selfplay::run(&config(5)).unwrap();
        let c = selfplay::run(&config(6)).unwrap();
        let lines = |r: &selfplay::Report| -> Vec<Vec<String>> {
            r.games.iter().map(|g| g.actions.clone()).collect()
        };
        assert_eq!(lines(&a), lines(&b), "{game}");
        assert_eq!(selfplay::checksum(&a), selfplay::checksum(&b));
        assert_ne!(lines(&a), lines(&c), "{game}: another seed, other games");
        let printed = selfplay::table(&config(5), &a);
        assert!(printed.contains("games per second"), "{printed}");
        assert!(printed.contains("easy") && printed.contains("random"));
    }
}

#[test]
fn selfplay_refuses_bad_command_lines() {
    let args = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
    for (line, reason) in [
        ("", "--game is required"),
        ("--game chess", "unknown game"),
        ("--game ovo --players 3", "not 3"),
        ("--game omiga --players 4", "not 4"),
        ("--game iota --games x", "whole number"),
        ("--game iota --games 0", "at least 1"),
        ("--game iota --levels hard,genius", "unknown level 'genius'"),
        ("--game iota --seed", "needs a value"),
        ("--game iota --fast 1", "unknown option"),
    ] {
        let e = Config::parse(&args(line)).unwrap_err();
        assert!(e.contains(reason), "{line}: {e}");
    }
    let c = Config::parse(&args(
        "--game ovo --players 4 --games 7 --levels hard,easy --seed 9 --untimed",
    ))
    .unwrap();
    assert_eq!(
        (c.players, c.games, c.levels, c.seed, c.untimed),
        (4, 7, vec![Level::Hard, Level::Easy], 9, true)
    );
}

/// Two states that look the same to `seat` get the same answer: the bot's choice is a
/// function of the view (and its rng) alone, whatever the secrets are.
fn same_view_same_choice<G: Opponents>(a: &G, b: &G, seat: usize)
where
    G::View: PartialEq,
{
    assert_eq!(a.view(seat), b.view(seat), "the views must agree");
    assert_ne!(a.state_json(), b.state_json(), "the secrets must differ");
    for level in Level::ALL {
        for seed in 0..4 {
            let pick = |g: &G| {
                let mut bot = G::bot(level, None);
                bot.choose(&g.view(seat), &mut rng_from_seed(seed))
                    .map(|a| a.to_string())
            };
            let (x, y) = (pick(a), pick(b));
            assert!(
                x.is_some(),
                "{} {level}: no choice in {}",
                G::NAME,
                a.position()
            );
            assert_eq!(x, y, "{level} seed {seed}");
        }
    }
}

#[test]
fn bots_decide_from_the_view_alone() {
    // Ovo: the same board, the hidden eggs' owners swapped.
    let a = Ovo::from_position("players=2 turn=0 board=BBBBBb/....../..a.../....../....../AAAAA.")
        .unwrap();
    let b = Ovo::from_position("players=2 turn=0 board=BBBBBa/....../..b.../....../....../AAAAA.")
        .unwrap();
    same_view_same_choice(&a, &b, 0);
    // Ovo at four players (the hard level searches a whole round there): two opponents'
    // hidden eggs trade owners.
    let a = Ovo::from_position("players=4 turn=0 board=BB..CC/B...C./..b.../...c../AA..DD/AA..DD")
        .unwrap();
    let b = Ovo::from_position("players=4 turn=0 board=BB..CC/B...C./..c.../...b../AA..DD/AA..DD")
        .unwrap();
    same_view_same_choice(&a, &b, 0);
    // IOTA: the other hand and the pile differ.
    let mut g = Iota::new_game(&params("iota", 2, 4)).unwrap();
    assert_eq!(g.turn(), 0);
    let pos = g.position();
    let (hands, pile) = field(&pos, "hands=").zip(field(&pos, "pile=")).unwrap();
    let (mine, theirs) = hands.split_once('|').unwrap();
    let pile: Vec<&str> = pile.split(',').collect();
    let swapped_hand: Vec<&str> = pile[..4].to_vec();
    let mut swapped_pile: Vec<&str> = theirs.split(',').collect();
    swapped_pile.extend_from_slice(&pile[4..]);
    let other = pos
        .replace(
            &format!("hands={hands}"),
            &format!("hands={mine}|{}", swapped_hand.join(",")),
        )
        .replace(
            &format!("pile={}", pile.join(",")),
            &format!("pile={}", swapped_pile.join(",")),
        );
    let h = Iota::from_position(&other).unwrap();
    same_view_same_choice(&g, &h, 0);
    g = h;
    assert_eq!(g.hand(0).len(), 4);
    // Omiga: the other hand and both deck orders differ.
    let a = Omiga::new_game(&Params::new().with("seed", 4)).unwrap();
    let pos = a.position();
    let decks = field(&pos, "decks=").unwrap();
    let (white, black) = decks.split_once('|').unwrap();
    let mut white: Vec<&str> = white.split(',').collect();
    white.reverse();
    let hands = field(&pos, "hands=").unwrap();
    let (wh, bh) = hands.split_once('|').unwrap();
    let mut bdeck: Vec<&str> = black.split(',').collect();
    let bhand: Vec<&str> = bh.split(',').collect();
    // Black's hand trades places with the top of Black's deck.
    let new_bhand: Vec<&str> = bdeck[..bhand.len()].to_vec();
    bdeck.splice(..bhand.len(), bhand.iter().copied());
    let other = pos
        .replace(
            &format!("decks={decks}"),
            &format!("decks={}|{}", white.join(","), bdeck.join(",")),
        )
        .replace(
            &format!("hands={hands}"),
            &format!("hands={wh}|{}", new_bhand.join(",")),
        );
    let b = Omiga::from_position(&other).unwrap();
    same_view_same_choice(&a, &b, 0);
}

fn field<'a>(position: &'a str, key: &str) -> Option<&'a str> {
    position.split(' ').find_map(|w| w.strip_prefix(key))
}

#[test]
fn ovo_bot_peeks_until_sure_then_declares_and_wins() {
    let mut game =
        Ovo::from_position("players=2 turn=0 board=BBBBBB/....../....../....../....../aaaaaa")
            .unwrap();
    let mut bot = Ovo::bot(Level::Hard, None);
    let mut rng = rng_from_seed(2);
    let mut peeks = 0;
    let mut up = true;
    for _ in 0..40 {
        if game.outcome().is_over() {
            break;
        }
        let action = bot.choose(&game.view(0), &mut rng).unwrap();
        if matches!(action, OvoAction::Peek { .. }) {
            peeks += 1;
        }
        let event = game.play(0, &action).unwrap();
        bot.observe(&Told::new(&event, 0));
        if game.outcome().is_over() {
            break;
        }
        // Seat 1 shuffles one egg on its own camp's edge, touching nothing of seat 0.
        let step = if up { "a6-a5" } else { "a5-a6" };
        up = !up;
        let event = game.play(1, &step.parse().unwrap()).unwrap();
        bot.observe(&Told::new(&event, 0));
    }
    assert_eq!(game.outcome(), Outcome::Win { seat: 0 });
    assert!(
        peeks >= 6,
        "it must see each egg before it is sure ({peeks})"
    );
}

#[test]
fn ovo_bot_moves_an_opponents_egg_out_of_its_camp_to_stop_a_declaration() {
    // Seat 1's eggs all stand hidden at home: seat 1 could declare next turn. Seat 0's
    // eggs are all visible, so the bot knows every hidden egg is seat 1's.
    let game =
        Ovo::from_position("players=2 turn=0 board=bbbbbb/....../....../....../....../AAAAAA")
            .unwrap();
    for level in [Level::Medium, Level::Hard] {
        for seed in 0..3 {
            let mut bot = Ovo::bot(level, None);
            let action = bot.choose(&game.view(0), &mut rng_from_seed(seed)).unwrap();
            let from = action.from_cell().expect("a move");
            let to = *action.landings().last().unwrap();
            assert_eq!((from.rank(), level), (5, level), "{action}");
            assert!(to.rank() < 5, "{level}: {action} leaves the egg at home");
        }
    }
}

#[test]
fn ovo_hard_at_four_players_stops_a_declaration_two_seats_away() {
    // Seat 2 has three eggs hidden at home and the fourth hidden on d4, one step from its
    // free camp cell e5: unless someone acts, it steps in and declares on its turn. Seat 1
    // plays between, and every other egg is visible, so the bot knows whose they are. A
    // look ahead of one seat does not see this; a whole round does.
    let game =
        Ovo::from_position("players=4 turn=0 board=BB..cc/BB...c/...c../....../AA..DD/AA..DD")
            .unwrap();
    let seat_two = ["d4", "f5", "e6", "f6"];
    for seed in 0..3 {
        let mut bot = Ovo::bot(Level::Hard, None);
        let action = bot.choose(&game.view(0), &mut rng_from_seed(seed)).unwrap();
        let from = action.from_cell().expect("a move").to_string();
        let to = action.landings().last().unwrap().to_string();
        let denies = seat_two.contains(&from.as_str()) || to == "e5";
        assert!(
            denies && !(from == "d4" && to == "e5"),
            "seed {seed}: {action} leaves seat 2 its winning step"
        );
    }
}

#[test]
fn ovo_memory_follows_flips_and_peeks() {
    // Seat 0's egg on e5 is one step from seat 1's camp.
    let mut game =
        Ovo::from_position("players=2 turn=0 board=BBBBB./....A./....../....../....../AAAAAB")
            .unwrap();
    let mut bot = ovo_bot::OvoBot::new(Level::Hard, None);
    let mut rng = rng_from_seed(1);
    // The memory starts from the first view the bot is shown.
    assert!(Bot::<Ovo>::choose(&mut bot, &game.view(0), &mut rng).is_some());
    let event = game.play(0, &"e5-f6".parse().unwrap()).unwrap();
    bot.observe(&Told::new(&event, 0));
    let f6: Cell = "f6".parse().unwrap();
    assert_eq!(
        bot.memory().unwrap().get(f6),
        ovo_bot::Belief::Hidden(Some(0)),
        "it watched its egg flip"
    );
    // A peek by seat 1 tells seat 0 nothing about the symbol, and changes nothing.
    let event = game.play(1, &"peek f6".parse().unwrap()).unwrap();
    let told = Told::<Ovo>::new(&event, 0);
    let json = serde_json::to_string(told.event()).unwrap();
    assert!(
        !json.contains("diamond") && !json.contains("star"),
        "{json}"
    );
    bot.observe(&told);
    assert_eq!(
        bot.memory().unwrap().get(f6),
        ovo_bot::Belief::Hidden(Some(0))
    );
    // Its own peek names the owner.
    let mut fresh = ovo_bot::OvoBot::new(Level::Hard, None);
    assert!(Bot::<Ovo>::choose(&mut fresh, &game.view(0), &mut rng).is_some());
    assert_eq!(
        fresh.memory().unwrap().get(f6),
        ovo_bot::Belief::Hidden(None)
    );
    let event = game.play(0, &"peek f6".parse().unwrap()).unwrap();
    fresh.observe(&Told::new(&event, 0));
    assert_eq!(
        fresh.memory().unwrap().get(f6),
        ovo_bot::Belief::Hidden(Some(0))
    );
}

#[test]
fn levels_read_and_print_and_stay_within_a_second() {
    for level in Level::ALL {
        assert_eq!(level.name().parse::<Level>().unwrap(), level);
        assert!(level.think_limit() < std::time::Duration::from_secs(1));
    }
    assert!("expert".parse::<Level>().is_err());
    let paces: Vec<_> = [Level::Easy, Level::Medium, Level::Hard]
        .into_iter()
        .map(|l| omiga_bot::pace(l).think)
        .collect();
    assert!(
        paces[0] > paces[1] && paces[1] > paces[2],
        "hard is the fastest"
    );
}

#[test]
fn matrix_plays_every_stronger_level_against_each_weaker_and_writes_its_section() {
    let args = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
    for (line, reason) in [
        ("--games 0", "at least 1"),
        ("--game chess", "unknown game"),
        ("--game omiga --players 4", "no game"),
        ("--seed", "needs a value"),
        ("--fast 1", "unknown option"),
    ] {
        let e = selfplay::MatrixConfig::parse(&args(line)).unwrap_err();
        assert!(e.contains(reason), "{line}: {e}");
    }
    let config =
        selfplay::MatrixConfig::parse(&args("--game omiga --games 4 --seed 3 --untimed")).unwrap();
    assert_eq!(config.tables, vec![(GameKind::Omiga, 2)]);
    let cells = selfplay::run_matrix(&config, |_| {}).unwrap();
    // Six pairings of four levels, each of the games asked for.
    let pairs: Vec<(Level, Level)> = cells.iter().map(|c| (c.strong, c.weak)).collect();
    assert_eq!(pairs.len(), 6);
    assert!(pairs.iter().all(|(s, w)| s > w), "{pairs:?}");
    assert!(cells.iter().all(|c| c.report.games.len() == 4));
    let tables = selfplay::matrix_tables(&config, &cells);
    assert!(
        tables.contains("| Omiga | 2 | hard | medium | 4 |"),
        "{tables}"
    );
    assert!(tables.contains("--game omiga --players 2"), "{tables}");
    let doc = format!(
        "# Title\nbefore\n{}\nold table\n{}\nafter\n",
        selfplay::MATRIX_START,
        selfplay::MATRIX_END
    );
    let new = selfplay::replace_section(&doc, &tables).unwrap();
    assert!(new.starts_with("# Title\nbefore\n") && new.ends_with("after\n"));
    assert!(!new.contains("old table") && new.contains(&tables));
    assert!(selfplay::replace_section("no markers", &tables).is_err());
}

#[test]
fn wilson_intervals_hold_the_rate_and_narrow_with_more_games() {
    let (lo, hi) = selfplay::wilson(13, 20);
    assert!(lo < 65.0 && 65.0 < hi, "{lo} {hi}");
    let (lo2, hi2) = selfplay::wilson(130, 200);
    assert!(lo2 > lo && hi2 < hi, "{lo2} {hi2}");
    // Known value: 130 of 200 gives about 58.2 % to 71.3 %.
    assert!(
        (lo2 - 58.2).abs() < 0.2 && (hi2 - 71.3).abs() < 0.2,
        "{lo2} {hi2}"
    );
    assert_eq!(selfplay::wilson(0, 10).0, 0.0);
    assert_eq!(selfplay::wilson(10, 10).1, 100.0);
}

#[test]
fn iota_hard_search_sliced_by_deadlines_keeps_whole_deals() {
    let game = Iota::new_game(&params("iota", 2, 4)).unwrap();
    let view = game.view(game.turn());
    let placements = {
        let mut all: Vec<_> = game
            .legal_placements(view.seat)
            .into_iter()
            .map(|p| {
                let s = game.check_placement(view.seat, &p).unwrap();
                (p, s)
            })
            .collect();
        all.sort_by_key(|p| std::cmp::Reverse(p.1));
        all
    };
    let top = placements[0].0.clone();
    let mut search = iota_bot::HardSearch::new(&view, placements).unwrap();
    let mut rng = rng_from_seed(1);
    // A deadline already passed: no deal is searched, and the answer is the highest
    // score now.
    let passed = Deadline::after(Some(std::time::Duration::ZERO));
    assert!(!search.step(&mut rng, &passed).unwrap());
    assert_eq!(search.samples(), 0);
    assert_eq!(
        search.best(),
        Some(crate::games::iota::Action::Place(top.clone())),
        "before any deal: the best score now"
    );
    // Without a deadline it goes on, whole deals at a time, and has a legal answer.
    assert!(search.step(&mut rng, &Deadline::after(None)).unwrap());
    assert!(search.step(&mut rng, &Deadline::after(None)).unwrap());
    assert_eq!(search.samples(), 2);
    let best = search.best().unwrap();
    assert!(game.legal_actions(view.seat).contains(&best), "{best}");
}

/// An IOTA game after `plies` actions of medium play, with the view of the seat to act.
fn iota_after(players: usize, seed: u64, plies: usize) -> (Iota, crate::games::iota::IotaView) {
    let mut game = Iota::new_game(&params("iota", players, seed)).unwrap();
    let mut bot = Iota::bot(Level::Medium, None);
    let mut rng = rng_from_seed(seed);
    for _ in 0..plies {
        let seat = game.turn();
        let action = bot.choose(&game.view(seat), &mut rng).unwrap();
        game.play(seat, &action).unwrap();
        assert!(!game.outcome().is_over(), "the game ended too soon");
    }
    let view = game.view(game.turn());
    (game, view)
}

/// Thinks in slices of `slice` until decided; the answer, how many calls it took and the
/// most play-outs any one call did.
fn think_to_the_end(
    bot: &mut iota_bot::IotaBot,
    view: &crate::games::iota::IotaView,
    rng: &mut ChaCha8Rng,
    slice: std::time::Duration,
) -> (Option<crate::games::iota::Action>, usize, usize) {
    let (mut calls, mut most, mut before) = (0, 0, 0);
    loop {
        calls += 1;
        let thought = bot.think(view, rng, slice);
        most = most.max(bot.play_outs() - before);
        before = bot.play_outs();
        if let Thought::Decided(action) = thought {
            return (action, calls, most);
        }
        assert!(calls < 10_000, "a decision in slices never ends");
    }
}

#[test]
fn iota_hard_in_slices_answers_as_choose_does_and_legally() {
    // Two and four players, early and later in the game; no deadline, so that both
    // search their whole budget.
    for (players, seed, plies) in [(2, 3, 2), (2, 8, 9), (4, 5, 4)] {
        let (game, view) = iota_after(players, seed, plies);
        let mut whole = iota_bot::IotaBot::new(Level::Hard, None);
        let expected = whole.choose(&view, &mut rng_from_seed(seed));
        assert!(
            whole.play_outs() > 0,
            "{players}p seed {seed}: no search here"
        );
        for slice in [std::time::Duration::ZERO, super::background::SLICE] {
            let mut sliced = iota_bot::IotaBot::new(Level::Hard, None);
            let (action, calls, _) =
                think_to_the_end(&mut sliced, &view, &mut rng_from_seed(seed), slice);
            assert_eq!(action, expected, "{players}p seed {seed}, slice {slice:?}");
            assert_eq!(sliced.play_outs(), whole.play_outs(), "the same deals");
            assert!(!sliced.hit_deadline());
            if slice.is_zero() {
                assert!(calls > whole.play_outs(), "{calls} calls");
            }
            let action = action.expect("an action");
            assert!(game.legal_actions(view.seat).contains(&action), "{action}");
        }
    }
}

#[test]
fn iota_hard_thinks_one_play_out_per_call_with_a_zero_slice() {
    let (_, view) = iota_after(2, 3, 2);
    let mut bot = iota_bot::IotaBot::new(Level::Hard, None);
    let mut rng = rng_from_seed(1);
    // The first call deals and scores the candidates; it plays none out.
    assert_eq!(
        bot.think(&view, &mut rng, std::time::Duration::ZERO),
        Thought::Thinking
    );
    assert_eq!(bot.play_outs(), 0);
    let (action, calls, most) =
        think_to_the_end(&mut bot, &view, &mut rng, std::time::Duration::ZERO);
    assert!(action.is_some());
    assert_eq!(most, 1, "at most one play-out per call");
    // Every later call played one out, the last one too (it finished the last deal).
    assert_eq!(calls, bot.play_outs());
}

#[test]
fn iota_hard_starts_afresh_on_a_new_view_or_another_seed() {
    let zero = std::time::Duration::ZERO;
    let (_, a) = iota_after(2, 3, 2);
    let (_, b) = iota_after(2, 8, 9);
    assert_ne!(a, b);
    let choose = |view, seed| {
        iota_bot::IotaBot::new(Level::Hard, None).choose(view, &mut rng_from_seed(seed))
    };
    let mut bot = iota_bot::IotaBot::new(Level::Hard, None);
    let mut rng = rng_from_seed(4);
    for _ in 0..5 {
        assert_eq!(bot.think(&a, &mut rng, zero), Thought::Thinking);
    }
    assert_eq!(bot.play_outs(), 4);
    // Another view: the search for `a` is dropped, not resumed.
    assert_eq!(
        bot.think(&b, &mut rng_from_seed(9), zero),
        Thought::Thinking
    );
    assert_eq!(bot.play_outs(), 0, "a fresh search");
    let mut rng = rng_from_seed(9);
    let (action, _, _) = think_to_the_end(&mut bot, &b, &mut rng, zero);
    assert_eq!(action, choose(&b, 9));
    // The same view again, but a new seed (a new decision): also afresh.
    let mut first = rng_from_seed(4);
    for _ in 0..5 {
        assert_eq!(bot.think(&a, &mut first, zero), Thought::Thinking);
    }
    let (action, _, _) = think_to_the_end(&mut bot, &a, &mut rng_from_seed(5), zero);
    assert_eq!(action, choose(&a, 5));
}

#[test]
fn iota_hard_in_slices_counts_only_its_thinking_against_the_level_deadline() {
    // In the browser the page draws and answers taps between two slices; that time is
    // not the opponent's, or it would play weaker there than on the desktop.
    let (_, view) = iota_after(2, 3, 2);
    let limit = std::time::Duration::from_millis(500);
    let mut bot = iota_bot::IotaBot::new(Level::Hard, Some(limit));
    let mut rng = rng_from_seed(1);
    let zero = std::time::Duration::ZERO;
    if bot.think(&view, &mut rng, zero) != Thought::Thinking {
        panic!("the first slice decided: dealing took longer than {limit:?}?");
    }
    bot.think(&view, &mut rng, zero);
    let before = bot.play_outs();
    // The event loop is away for longer than the whole decision may think.
    std::thread::sleep(limit + std::time::Duration::from_millis(50));
    assert_eq!(
        bot.think(&view, &mut rng, zero),
        Thought::Thinking,
        "the time away was not thinking"
    );
    assert!(!bot.hit_deadline());
    assert_eq!(
        bot.play_outs(),
        before + 1,
        "it went on with the next play-out"
    );

    // Its own thinking still stops at the limit: a four-player search takes seconds in a
    // test build, its limit here is 300 ms.
    let (game4, view4) = iota_after(4, 5, 4);
    let mut bot = iota_bot::IotaBot::new(Level::Hard, Some(std::time::Duration::from_millis(300)));
    let (action, _, _) = think_to_the_end(
        &mut bot,
        &view4,
        &mut rng_from_seed(5),
        super::background::SLICE,
    );
    assert!(bot.hit_deadline(), "a search cut at its limit says so");
    let action = action.expect("an answer at the deadline");
    assert!(
        game4.legal_actions(view4.seat).contains(&action),
        "{action}"
    );
}

#[test]
fn ovo_hard_in_slices_counts_only_its_thinking_against_the_level_deadline() {
    let (_, view) = ovo_after(4, 2, 12);
    let limit = std::time::Duration::from_millis(500);
    let mut bot = ovo_bot::OvoBot::new(Level::Hard, Some(limit));
    let mut rng = rng_from_seed(2);
    let zero = std::time::Duration::ZERO;
    assert_eq!(bot.think(&view, &mut rng, zero), Thought::Thinking);
    bot.think(&view, &mut rng, zero);
    let before = bot.play_outs();
    std::thread::sleep(limit + std::time::Duration::from_millis(50));
    // A piece is a round or the dealing of a determinization: three pieces hold a round.
    for _ in 0..3 {
        assert_eq!(
            bot.think(&view, &mut rng, zero),
            Thought::Thinking,
            "the time away was not thinking"
        );
    }
    assert!(!bot.hit_deadline());
    assert!(bot.play_outs() > before, "it went on with the next rounds");
}

#[test]
fn a_game_decided_in_slices_plays_as_one_decided_in_one_call() {
    // What the browser's player sees (decisions in slices on the event loop) is the
    // game the desktop's player sees, move for move, for the same seed.
    let play = |slice| {
        let mut times: [DecisionTimes; 4] = Default::default();
        let record = play_one::<Iota>(
            &params("iota", 2, 6),
            &[Level::Hard, Level::Medium],
            &mut rng_from_seed(6),
            true,
            slice,
            &mut times,
            Some(6),
        )
        .unwrap();
        (record.actions, times)
    };
    let (whole, _) = play(None);
    let (sliced, times) = play(Some(std::time::Duration::ZERO));
    assert_eq!(sliced, whole);
    let hard = &times[3];
    assert_eq!(hard.count, 3);
    assert!(hard.slices > 3 * 10, "{} slices", hard.slices);
    assert!(hard.most_slices > 10);
}

/// An Ovo game after `plies` actions of medium play, with the view of the seat to act.
fn ovo_after(players: usize, seed: u64, plies: usize) -> (Ovo, crate::games::ovo::OvoView) {
    let mut game = Ovo::new_game(&params("ovo", players, seed)).unwrap();
    let mut bots: Vec<_> = (0..players)
        .map(|_| Ovo::bot(Level::Medium, None))
        .collect();
    let mut rng = rng_from_seed(seed);
    for _ in 0..plies {
        let seat = game.turn();
        let action = bots[seat].choose(&game.view(seat), &mut rng).unwrap();
        let event = game.play(seat, &action).unwrap();
        assert!(!game.outcome().is_over(), "the game ended too soon");
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.observe(&Told::new(&event, s));
        }
    }
    let view = game.view(game.turn());
    (game, view)
}

#[test]
fn ovo_hard_in_slices_answers_as_choose_does_a_round_per_call_at_most() {
    let zero = std::time::Duration::ZERO;
    for (players, seed, plies) in [(4, 2, 12), (2, 5, 9)] {
        let (game, view) = ovo_after(players, seed, plies);
        let mut whole = ovo_bot::OvoBot::new(Level::Hard, None);
        let expected = whole.choose(&view, &mut rng_from_seed(seed));
        assert!(
            whole.play_outs() > 0,
            "{players}p seed {seed}: no search here"
        );
        for slice in [zero, super::background::SLICE] {
            let mut sliced = ovo_bot::OvoBot::new(Level::Hard, None);
            let mut rng = rng_from_seed(seed);
            let (mut calls, mut most, mut before) = (0, 0, 0);
            let action = loop {
                calls += 1;
                let thought = sliced.think(&view, &mut rng, slice);
                most = most.max(sliced.play_outs() - before);
                before = sliced.play_outs();
                if let Thought::Decided(action) = thought {
                    break action;
                }
                assert!(calls < 10_000, "a decision in slices never ends");
            };
            assert_eq!(action, expected, "{players}p seed {seed}, slice {slice:?}");
            assert_eq!(sliced.play_outs(), whole.play_outs(), "the same rounds");
            if slice.is_zero() {
                assert_eq!(most, 1, "at most one round per call");
                assert!(calls > whole.play_outs(), "{calls} calls");
            }
            let action = action.expect("an action");
            assert!(game.legal_actions(view.seat).contains(&action), "{action}");
        }
        // Another view in the middle of a decision starts afresh.
        let (_, other) = ovo_after(players, seed, plies + 1);
        let mut bot = ovo_bot::OvoBot::new(Level::Hard, None);
        let mut rng = rng_from_seed(seed);
        for _ in 0..4 {
            assert_eq!(bot.think(&view, &mut rng, zero), Thought::Thinking);
        }
        assert!(bot.play_outs() > 0);
        bot.think(&other, &mut rng_from_seed(seed), zero);
        assert_eq!(bot.play_outs(), 0, "a fresh search");
    }
}
