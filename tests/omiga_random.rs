//! Property test: many seeded Omiga games played to the end by random legal actions from
//! both seats in random arrival order. On every step: card counts hold, the position
//! round-trips, every listed action applies, refusals change nothing, and neither views
//! nor events leak the other seat's hand or any deck order.

use hotseat::games::omiga::{Act, Action, Omiga};
use hotseat::games::{rng_from_seed, Game, Params, Seat};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::HashSet;

/// The position with `seat`'s hand and deck dealt afresh from the same cards (same
/// sizes): a state that differs from the real one only in `seat`'s secrets.
fn reshuffle_secrets(position: &str, seat: Seat, rng: &mut impl Rng) -> String {
    let mut hands: Vec<Vec<String>> = Vec::new();
    let mut decks: Vec<Vec<String>> = Vec::new();
    let mut rest = Vec::new();
    for word in position.split_whitespace() {
        let split = |v: &str| -> Vec<Vec<String>> {
            v.split('|')
                .map(|l| {
                    l.split(',')
                        .filter(|c| !c.is_empty())
                        .map(String::from)
                        .collect()
                })
                .collect()
        };
        if let Some(v) = word.strip_prefix("hands=") {
            hands = split(v);
        } else if let Some(v) = word.strip_prefix("decks=") {
            decks = split(v);
        } else {
            rest.push(word.to_string());
        }
    }
    let mut all: Vec<String> = hands[seat].iter().chain(&decks[seat]).cloned().collect();
    all.shuffle(rng);
    let n = hands[seat].len();
    decks[seat] = all.split_off(n);
    hands[seat] = all;
    let join = |l: &Vec<Vec<String>>| format!("{}|{}", l[0].join(","), l[1].join(","));
    format!(
        "{} hands={} decks={}",
        rest.join(" "),
        join(&hands),
        join(&decks)
    )
}

fn check_invariants(game: &Omiga, discarded: [usize; 2], rng: &mut impl Rng) {
    let over = game.outcome().is_over();
    for (seat, gone) in discarded.into_iter().enumerate() {
        let placed = game
            .table()
            .placed()
            .filter(|(_, _, p)| p.side.seat() == seat)
            .count();
        let hand = game.hand(seat).len();
        assert!(hand <= 3);
        assert_eq!(
            hand + game.deck_count(seat) + placed + gone,
            36,
            "seat {seat} lost or gained cards"
        );
        if !over {
            assert!(
                hand > 0 || game.deck_count(seat) == 0,
                "an empty hand is refilled"
            );
        }
    }
    // The position round-trips.
    let position = game.position();
    let again = Omiga::from_position(&position).expect("own position reads back");
    assert_eq!(again.position(), position);
    // Views: identical whatever the other seat holds and whatever order any deck has.
    for seat in 0..2 {
        let view = serde_json::to_string(&again.view(seat)).unwrap();
        for secret_seat in 0..2 {
            if secret_seat == seat {
                continue;
            }
            let other = reshuffle_secrets(&position, secret_seat, rng);
            let other = Omiga::from_position(&other).expect("reshuffled position is valid");
            assert_eq!(
                serde_json::to_string(&other.view(seat)).unwrap(),
                view,
                "seat {seat}'s view depends on seat {secret_seat}'s secrets"
            );
        }
    }
}

fn own_deck_order_is_invisible(game: &Omiga, rng: &mut impl Rng) {
    // Permute only the deck (keep the hand): the view must not change.
    let position = game.position();
    for seat in 0..2 {
        let mut words: Vec<String> = position.split_whitespace().map(String::from).collect();
        for w in words.iter_mut() {
            if let Some(v) = w.strip_prefix("decks=") {
                let mut lists: Vec<Vec<&str>> = v
                    .split('|')
                    .map(|l| l.split(',').filter(|c| !c.is_empty()).collect())
                    .collect();
                lists[seat].shuffle(rng);
                *w = format!("decks={}|{}", lists[0].join(","), lists[1].join(","));
            }
        }
        let a = Omiga::from_position(&position).unwrap();
        let b = Omiga::from_position(&words.join(" ")).unwrap();
        for viewer in 0..2 {
            assert_eq!(
                serde_json::to_string(&a.view(viewer)).unwrap(),
                serde_json::to_string(&b.view(viewer)).unwrap()
            );
        }
    }
}

#[test]
fn random_games_keep_every_invariant() {
    let tables = ["7x8", "9x10", "11x12"];
    let mut outcomes = HashSet::new();
    let mut longest = 0;
    for seed in 0..150u64 {
        let mut rng = rng_from_seed(1000 + seed);
        let params = Params::new()
            .with("seed", seed)
            .with("table", tables[(seed % 3) as usize])
            .with("allow_rotation", if seed % 5 == 4 { "off" } else { "on" })
            .with("free_discard", if seed % 7 == 6 { "on" } else { "off" });
        let mut game = Omiga::new_game(&params).unwrap();
        let mut discarded = [0usize; 2];
        let mut steps = 0;
        check_invariants(&game, discarded, &mut rng);
        while !game.outcome().is_over() {
            steps += 1;
            assert!(steps < 200, "game {seed} does not end");
            let seat: Seat = rng.random_range(0..2);
            let legal = game.legal_actions(seat);
            assert!(!legal.is_empty(), "seat {seat} has nothing to do");
            let spelled: HashSet<String> = legal.iter().map(|a| a.to_string()).collect();
            assert_eq!(spelled.len(), legal.len(), "duplicates in legal");
            assert_eq!(
                game.can_discard(seat),
                legal.contains(&Action::Discard),
                "discard is listed exactly when allowed"
            );
            assert_eq!(
                game.has_placement(seat),
                legal.iter().any(|a| matches!(a, Action::Place { .. }))
            );
            for action in &legal {
                assert_eq!(&action.to_string().parse::<Action>().unwrap(), action);
                let mut probe = game.clone();
                probe
                    .play(seat, action)
                    .unwrap_or_else(|e| panic!("listed {action} refused: {e}"));
                if let Action::Place {
                    card,
                    rotated,
                    x,
                    y,
                    ..
                } = *action
                {
                    assert!(game.check_place(seat, card, rotated, x, y).is_ok());
                }
            }
            // A random illegal placement is refused and changes nothing.
            let hand = game.hand(seat).to_vec();
            if let Some(&card) = hand.first() {
                let (x, y) = (rng.random_range(-1..13), rng.random_range(-1..13));
                let action = Action::Place {
                    card,
                    rotated: false,
                    x,
                    y,
                };
                if !legal.contains(&action) {
                    let before = game.clone();
                    assert!(game.play(seat, &action).is_err());
                    assert_eq!(game, before);
                }
            }
            let action = legal[rng.random_range(0..legal.len())];
            let event = game.play(seat, &action).unwrap();
            if let Act::Discarded { count, .. } = event.act {
                discarded[seat] += count;
            }
            let theirs = serde_json::to_string(&Omiga::event_for(&event, 1 - seat)).unwrap();
            // Drawn and discarded cards reach the actor alone.
            assert!(!theirs.contains("\"cards\":["), "{theirs}");
            check_invariants(&game, discarded, &mut rng);
            if steps % 10 == 0 {
                own_deck_order_is_invisible(&game, &mut rng);
            }
        }
        assert!(game.to_act().is_empty());
        longest = longest.max(steps);
        outcomes.insert(game.outcome().to_string());
    }
    // Random play reaches wins for both sides and draws.
    assert!(
        outcomes.contains("win 0") && outcomes.contains("win 1"),
        "{outcomes:?}"
    );
    assert!(outcomes.contains("draw"), "{outcomes:?}");
    assert!(longest > 5);
}

/// Mangled actions and positions sent to the referee: every line gets `ok` or `error …`,
/// never a panic, and a refused `play` leaves the position as it was.
#[test]
fn the_referee_survives_mangled_omiga_lines() {
    use hotseat::referee::Referee;
    let alphabet: Vec<char> = "DPNGK-r@,;:|=wb0123456789 x-+é".chars().collect();
    let mut rng = rng_from_seed(77);
    for seed in 0..40u64 {
        let mut referee = Referee::new();
        assert_eq!(referee.answer(&format!("new omiga seed={seed}")), ["ok"]);
        for _ in 0..60 {
            let position = referee.answer("position")[0].clone();
            let seat = rng.random_range(0..2);
            let legal = referee.answer(&format!("legal {seat}"));
            let mut line: Vec<char> = if rng.random_bool(0.5) {
                format!("play {seat} {}", legal[0]).chars().collect()
            } else {
                format!("setup omiga {}", &position["position ".len()..])
                    .chars()
                    .collect()
            };
            for _ in 0..rng.random_range(0..4) {
                let i = rng.random_range(0..line.len());
                match rng.random_range(0..3) {
                    0 => line[i] = alphabet[rng.random_range(0..alphabet.len())],
                    1 => {
                        line.remove(i);
                    }
                    _ => line.insert(i, alphabet[rng.random_range(0..alphabet.len())]),
                }
            }
            let line: String = line.into_iter().collect();
            let answer = referee.answer(&line);
            let last = answer.last().expect("an answer");
            assert!(
                last == "ok" || last.starts_with("error "),
                "{line}: {answer:?}"
            );
            if last != "ok" {
                assert_eq!(referee.answer("position")[0], position, "{line}");
            }
            if referee.answer("outcome")[0] != "ongoing" {
                break;
            }
        }
    }
}
