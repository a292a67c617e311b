//! The tests of `games/iota/rules.rs` (their own file, so that the code's file reads on its own).

use super::*;

fn game(position: &str) -> Iota {
    Iota::from_position(position).unwrap()
}

fn placement(text: &str) -> Vec<(Card, Cell)> {
    match text.parse::<Action>().unwrap() {
        Action::Place(cards) => cards,
        other => panic!("not a placement: {other}"),
    }
}

fn check(g: &Iota, seat: Seat, text: &str) -> RuleResult<u32> {
    g.check_placement(seat, &placement(text))
}

/// The official example's table before turn 4, seat 0 to play.
const EXAMPLE_3: &str = "players=2 turn=0 grid=2,-1:Yc1;3,-1:Gt3;0,0:Rt2;1,0:Bx2;2,0:Gc2;3,0:Ys2;2,1:Rc3 hands=Gt2,Ys3,Bc4,Rx1|Rs1,Rs2,Rs3,Rs4 pile=Bs1,Bs2,Bs3,Bs4,Ys1 scores=0,0";

#[test]
fn the_official_example_scores_6_6_34_208() {
    let mut g = game("players=2 turn=0 grid=0,0:Rt2 hands=Bx2,Gc2,Ys2,Gt3|Rc3,Yc1,Gt2,Ys3 pile=Bc4,Rx1,Rs1,Rs2,Rs3,Rs4,Bs1 scores=0,0");
    assert_eq!(check(&g, 0, "place Bx2@1,0 Gc2@2,0"), Ok(6));
    g.apply_action(0, &"place Bx2@1,0 Gc2@2,0".parse().unwrap())
        .unwrap();
    assert_eq!(check(&g, 1, "place Rc3@2,1 Yc1@2,-1"), Ok(6));
    g.apply_action(1, &"place Rc3@2,1 Yc1@2,-1".parse().unwrap())
        .unwrap();
    let score = g
        .score_placement(0, &placement("place Ys2@3,0 Gt3@3,-1"))
        .unwrap();
    assert_eq!((score.base, score.lots, score.total), (17, 1, 34));
    let g = game(EXAMPLE_3);
    let score = g
        .score_placement(0, &placement("place Gt2@0,-2 Ys3@1,-2 Bc4@2,-2 Rx1@3,-2"))
        .unwrap();
    assert_eq!(score.base, 26);
    assert_eq!(score.lots, 2);
    assert!(score.four_placed && !score.game_end);
    assert_eq!(score.total, 208);
    assert_eq!(
        score.lines.len(),
        3,
        "two columns and the row; lone cards add nothing"
    );
}

#[test]
fn the_game_ending_turn_is_doubled() {
    let g = game("players=2 turn=0 grid=0,0:Rt2 hands=Bx2,Gc2|Rs1 pile= scores=0,0");
    let s = g
        .score_placement(0, &placement("place Bx2@1,0 Gc2@2,0"))
        .unwrap();
    assert!(s.game_end);
    assert_eq!(s.total, 12);
    let mut g = g;
    g.apply_action(0, &"place Bx2@1,0 Gc2@2,0".parse().unwrap())
        .unwrap();
    assert_eq!(g.outcome(), crate::games::Outcome::Win { seat: 0 });
    assert_eq!(g.turn, 1, "the turn still advances");
}

#[test]
fn placements_that_break_a_rule_are_refused_with_the_reason() {
    let g = game(EXAMPLE_3);
    let cases = [
        ("place Rs1@4,0", "You do not hold Rs1"),
        ("place Gt2@1,1 Gt2@1,2", "only one Gt2"),
        ("place Gt2@0,0", "0,0 is not empty"),
        ("place Gt2@0,1 Ys3@1,2", "one row or all in one column"),
        ("place Gt2@0,1 Ys3@2,2", "one row or all in one column"),
        ("place Gt2@4,1 Ys3@6,1", "unbroken line, but 5,1 is empty"),
        ("place Gt2@9,9", "touch a card"),
        ("place Gt2@4,0", "The line 0,0..4,0 would have 5 cards"),
        ("place Rx1@1,-1", "Numbers in the line 1,-1..3,-1 must be all the same or all different (1, 1, 3)"),
        ("place Gt2@1,-1", "Colours in the line 1,-1..3,-1 must be all the same or all different (green, yellow, green)"),
        ("place Gt2@1,1 Ys3@1,1", "Two cards cannot go on 1,1"),
    ];
    for (text, reason) in cases {
        let e = check(&g, 0, text).unwrap_err();
        assert!(e.to_string().contains(reason), "{text}: {e}");
    }
    assert!(g.check_placement(0, &[]).is_err());
    assert!(g
        .check_placement(0, &[(Card::WILD, Cell::new(i32::MAX, 0))])
        .unwrap_err()
        .to_string()
        .contains("too far"));
    assert!(g.check_placement(7, &placement("place Gt2@4,1")).is_err());
    let g = game("players=2 turn=0 grid=0,0:Rt1;1,0:Gs1 hands=Bx2|Bs1 pile=Bs2 scores=0,0");
    let e = check(&g, 0, "place Bx2@2,0").unwrap_err();
    assert_eq!(
        e.to_string(),
        "Numbers in the line 0,0..2,0 must be all the same or all different (1, 1, 2)"
    );
}

#[test]
fn a_single_card_can_complete_a_lot() {
    let g = game(EXAMPLE_3);
    // Yc1 and Rc3 lie at both ends of Gc2's column: Bc4 on top completes a lot.
    assert_eq!(check(&g, 0, "place Bc4@2,-2"), Ok((4 + 1 + 2 + 3) * 2));
}

#[test]
fn a_wild_is_legal_only_if_one_card_fits_all_its_lines() {
    // Row Rt1 Rt2 Rt3 _: a wild at 3,0 must be Rt4; a card below it at 3,1 decides.
    let g = game(
        "players=2 turn=0 grid=0,0:Rt1;1,0:Rt2;2,0:Rt3;3,1:Rt4 hands=W,Gs1|Bs1 pile=Bs2 scores=0,0",
    );
    assert!(
        check(&g, 0, "place W@3,0").is_err(),
        "the wild would repeat Rt4"
    );
    let g = game(
        "players=2 turn=0 grid=0,0:Rt1;1,0:Rt2;2,0:Rt3;3,1:Gs4 hands=W,Gs1|Bs1 pile=Bs2 scores=0,0",
    );
    assert_eq!(
        check(&g, 0, "place W@3,0"),
        Ok((6 + 4) * 2),
        "lot 6 + column 4"
    );
}

#[test]
fn linked_wilds_are_judged_together() {
    // A wild on the grid at 1,0 (row Rc1 W); the column under 1,0 is Rc2, Rc3, so the
    // grid wild can be Rc4 only. Placing the second wild at 2,0 makes the row Rc1 W W:
    // the new wild must then differ from Rc4 and from Rc1 and fit: Rc2 and Rc3 are
    // fine in the row, so it is legal...
    let base =
        "players=2 turn=0 grid=0,0:Rc1;1,0:W;1,1:Rc2;1,2:Rc3 hands=W,Gs1|Bs1 pile=Bs2 scores=0,0";
    assert!(check(&game(base), 0, "place W@2,0").is_ok());
    // ...but with a column under 2,0 forcing that wild to be Rc4 too, both wilds would
    // be Rc4 in one row: refused, although each line alone can be filled.
    let pinned = "players=2 turn=0 grid=0,0:Rc1;1,0:W;1,1:Rc2;1,2:Rc3;2,1:Yc4;2,2:Bc4;2,3:Gc4 hands=W,Gs1|Bs1 pile=Bs2 scores=0,0";
    let e = check(&game(pinned), 0, "place W@2,0").unwrap_err();
    assert!(e.to_string().contains("wilds"), "{e}");
    // The wild in the hand is listed only where it is legal.
    let legal: Vec<String> = game(pinned)
        .legal(0)
        .iter()
        .map(|a| a.to_string())
        .collect();
    assert!(!legal.contains(&"place W@2,0".to_string()));
    assert!(game(base)
        .legal(0)
        .iter()
        .any(|a| a.to_string() == "place W@2,0"));
}

#[test]
fn a_wild_swap_needs_a_fitting_card_and_the_wild_goes_to_the_end_of_the_hand() {
    let mut g = game(
        "players=2 turn=0 grid=0,0:Rt1;1,0:W;2,0:Rt3 hands=Rt2,Gs1,Rt4|Bs1 pile=Bs2 scores=0,0",
    );
    assert!(g
        .check_swap(0, Cell::new(1, 0), "Gs1".parse().unwrap())
        .is_err());
    assert!(g
        .check_swap(0, Cell::new(0, 0), "Rt2".parse().unwrap())
        .is_err());
    assert!(g
        .check_swap(0, Cell::new(5, 0), "Rt2".parse().unwrap())
        .is_err());
    let before = g.clone();
    assert!(g.apply_action(0, &"swap 1,0 Gs1".parse().unwrap()).is_err());
    assert_eq!(g, before, "a refused swap changes nothing");
    let legal: Vec<String> = g.legal(0).iter().map(|a| a.to_string()).collect();
    assert!(legal.contains(&"swap 1,0 Rt2".to_string()));
    assert!(legal.contains(&"swap 1,0 Rt4".to_string()));
    assert!(!legal.iter().any(|l| l == "swap 1,0 Gs1"));
    g.apply_action(0, &"swap 1,0 Rt2".parse().unwrap()).unwrap();
    assert_eq!(
        g.hand(0).iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        ["Gs1", "Rt4", "W"]
    );
    assert_eq!(g.turn, 0, "a swap does not end the turn");
    assert_eq!(g.grid.get(Cell::new(1, 0)), "Rt2".parse().ok());
}

#[test]
fn passing_returns_cards_to_the_bottom_in_order_and_draws_as_many() {
    let mut g =
        game("players=2 turn=0 grid=0,0:Rt1 hands=Rt2,Gs1,Rt4,Bc1|Bs1 pile=Bs2,Bs3 scores=0,0");
    let before = g.clone();
    assert!(g.apply_action(0, &"pass Rt2 Rt2".parse().unwrap()).is_err());
    assert!(g.apply_action(0, &"pass Ys4".parse().unwrap()).is_err());
    assert_eq!(g, before);
    g.apply_action(0, &"pass Rt4 Rt2".parse().unwrap()).unwrap();
    assert_eq!(
        g.position(),
        "players=2 turn=1 grid=0,0:Rt1 hands=Gs1,Bc1,Bs2,Bs3|Bs1 pile=Rt4,Rt2 scores=0,0 passes=1"
    );
}

#[test]
fn passing_ends_the_game_after_one_round_with_an_empty_pile_or_three_rounds() {
    let mut g = game("players=2 turn=0 grid=0,0:Rt1 hands=Rt2|Bs1 pile= scores=1,1");
    g.apply_action(0, &Action::Pass(vec![])).unwrap();
    assert!(!g.outcome().is_over());
    g.apply_action(1, &"pass Bs1".parse().unwrap()).unwrap();
    assert_eq!(
        g.outcome(),
        crate::games::Outcome::SharedWin { seats: vec![0, 1] }
    );
    let mut g = game("players=2 turn=0 grid=0,0:Rt1 hands=Ys4|Ys3 pile=Bs1 scores=0,2");
    for i in 0..6 {
        assert!(!g.outcome().is_over(), "after {i} passes");
        let seat = g.turn;
        g.apply_action(seat, &Action::Pass(vec![])).unwrap();
    }
    assert_eq!(g.outcome(), crate::games::Outcome::Win { seat: 1 });
    assert!(g.legal(0).is_empty() && g.legal(1).is_empty());
}

#[test]
fn a_placement_resets_the_passes_and_refills_the_hand() {
    let mut g = game(
        "players=2 turn=0 grid=0,0:Rt1 hands=Rt2,Gs1|Bs1 pile=Bs2,Bs3,Bs4 scores=0,0 passes=3",
    );
    let e = g
        .apply_action(0, &"place Rt2@1,0".parse().unwrap())
        .unwrap();
    assert_eq!(Iota::report(&e), ["score 3"]);
    assert_eq!(g.passes, 0);
    assert_eq!(g.hand(0).len(), 4);
    let hidden = Iota::event_for(&e, 1);
    assert!(matches!(
        hidden,
        IotaEvent::Placed {
            drawn: None,
            drawn_count: 3,
            ..
        }
    ));
}

#[test]
fn two_wilds_in_hand_give_each_placement_once() {
    let g = game("players=2 turn=0 grid=0,0:Rt1 hands=W,W|Bs1 pile=Bs2 scores=0,0");
    let lines: Vec<String> = g.legal(0).iter().map(|a| a.to_string()).collect();
    let mut unique = lines.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(lines.len(), unique.len());
    assert!(lines.contains(&"place W@1,0 W@2,0".to_string()));
    assert!(lines.contains(&"place W@0,-2 W@0,-1".to_string()));
    assert!(lines.contains(&"pass W W".to_string()));
    assert_eq!(lines.iter().filter(|l| l.starts_with("pass")).count(), 3);
    // One wild: 4 cells. Two, per direction: 3 runs through Rt1 (W W Rt1, W Rt1 W,
    // Rt1 W W) and 2 pairs beside each of the 2 cells next to Rt1 across it.
    let places = lines.iter().filter(|l| l.starts_with("place")).count();
    assert_eq!(places, 4 + 2 * (3 + 2 * 2));
}

#[test]
fn a_full_hand_lists_fifteen_passes_and_sorted_placements() {
    let g = game(EXAMPLE_3);
    let legal = g.legal(0);
    assert_eq!(
        legal
            .iter()
            .filter(|a| matches!(a, Action::Pass(_)))
            .count(),
        16
    );
    for a in &legal {
        if let Action::Place(cards) = a {
            assert!(cards.windows(2).all(|w| w[0].1 < w[1].1), "{a}");
            assert!(g.check_placement(0, cards).is_ok(), "{a}");
        }
    }
    assert!(legal
        .iter()
        .any(|a| a.to_string() == "place Gt2@0,-2 Ys3@1,-2 Bc4@2,-2 Rx1@3,-2"));
}

#[test]
fn apply_refuses_other_seats_and_finished_games_without_change() {
    let mut g = game(EXAMPLE_3);
    let before = g.clone();
    assert!(g.apply_action(1, &Action::Pass(vec![])).is_err());
    assert!(g.apply_action(5, &Action::Pass(vec![])).is_err());
    assert!(g
        .apply_action(0, &"place Gt2@9,9".parse().unwrap())
        .is_err());
    assert_eq!(g, before);
    assert!(g.legal(1).is_empty());
}
