//! The tests of `games/omiga/rules.rs` (their own file, so that the code's file reads on its own).

use super::*;
use crate::games::Game;

fn game(position: &str) -> Omiga {
    Omiga::from_position(position).unwrap()
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn play(g: &mut Omiga, seat: Seat, action: &str) -> RuleResult<OmigaEvent> {
    g.play(seat, &action.parse().unwrap())
}

fn legal(g: &Omiga, seat: Seat) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_actions(seat)
        .iter()
        .map(|a| a.to_string())
        .collect();
    v.sort();
    v
}

/// White PD-GG at 4,4 (top P), Black DN-GG in front of it at 4,5 (bottom N).
const START: &str = "table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG";

#[test]
fn a_placement_needs_an_own_neighbour_an_opponent_near_and_matches() {
    let g = game(&format!("{START} hands=DD-GG,PN-GK,DD-KK|DD-GG decks=|"));
    // 3,4: left of White's card, next to Black's 4,5 diagonally.
    assert_eq!(g.check_place(0, card("DD-GG"), false, 3, 4), Ok(()));
    let reason = |x, y, c: &str, seat| {
        g.check_place(seat, card(c), false, x, y)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        reason(3, 4, "DD-KK", 0),
        "Colours do not match on the right (4,4)"
    );
    assert_eq!(
        reason(5, 4, "DD-KK", 0),
        "Colours do not match on the left (4,4)"
    );
    assert_eq!(reason(4, 4, "DD-GG", 0), "That cell is taken");
    assert_eq!(reason(4, 3, "DD-GG", 0), "No opponent card nearby");
    assert_eq!(reason(3, 5, "DD-GG", 0), "No neighbour of yours");
    assert_eq!(reason(-1, 5, "DD-GG", 0), "-1,5 is outside the table");
    assert_eq!(reason(4, 10, "DD-GG", 0), "4,10 is outside the table");
    assert!(g.check_place(2, card("DD-GG"), false, 3, 4).is_err());
    // Far-away numbers are refused before any neighbour arithmetic could overflow.
    assert!(g
        .check_place(0, card("DD-GG"), false, i32::MAX, i32::MIN)
        .is_err());
    assert!(g
        .check_place(0, card("DD-GG"), true, i32::MIN, i32::MAX)
        .is_err());
    // Black's own neighbours count for Black; White's card matters for the match.
    assert_eq!(g.check_place(1, card("DD-GG"), false, 3, 5), Ok(()));
    assert_eq!(
        reason(5, 5, "DD-KG", 1),
        "Colours do not match on the left (4,5)"
    );
}

#[test]
fn vertical_matching_uses_lower_top_and_upper_bottom() {
    let g = game(
        "table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG;3,5:b:NN-GG hands=DP-GG,DN-GG|PP-GG decks=|",
    );
    // 3,4 lies below Black's NN-GG (bottom N): the white card's top must be P.
    assert_eq!(g.check_place(0, card("PD-GG"), false, 3, 4), Ok(()));
    assert_eq!(
        g.check_place(0, card("DP-GG"), false, 3, 4)
            .unwrap_err()
            .to_string(),
        "Figures do not match above (3,5)"
    );
    // Turned, DP-GG is PD-GG and fits.
    assert_eq!(g.check_place(0, card("DP-GG"), true, 3, 4), Ok(()));
    assert_eq!(
        g.check_place(1, card("DD-GG"), false, 4, 6)
            .unwrap_err()
            .to_string(),
        "No opponent card nearby"
    );
    assert_eq!(g.check_place(1, card("PP-GG"), false, 5, 5), Ok(()));
    let below =
        game("table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG;5,4:w:PD-GG hands=|PP-GG,NN-GG decks=|");
    // 5,4's top P meets the bottom of Black's card at 5,5: it must be N.
    assert_eq!(
        below
            .check_place(1, card("PP-GG"), false, 5, 5)
            .unwrap_err()
            .to_string(),
        "Figures do not match below (5,4)"
    );
    assert_eq!(below.check_place(1, card("NN-GG"), false, 5, 5), Ok(()));
}

#[test]
fn legal_lists_turned_cards_only_when_turning_changes_them() {
    let g = game(&format!("{START} hands=DD-GG,DD-GK|DD-KK decks=DD-KG|"));
    assert_eq!(
        legal(&g, 0),
        [
            "place DD-GG@3,4",
            "place DD-GG@5,4",
            "place DD-GK@5,4",
            "place DD-GKr@3,4",
        ]
    );
    assert_eq!(g.legal_cells(0, card("DD-GK"), true), vec![(3, 4)]);
    assert_eq!(g.legal_cells(0, card("DD-GG"), false), vec![(3, 4), (5, 4)]);
    // Black holds DD-KK: it fits nowhere, so discard is its only action.
    assert_eq!(legal(&g, 1), ["discard"]);
    let mut off = game(&format!(
        "{START} hands=DD-GG,DD-GK|DD-KK decks=DD-KG| allow_rotation=off"
    ));
    assert_eq!(
        legal(&off, 0),
        ["place DD-GG@3,4", "place DD-GG@5,4", "place DD-GK@5,4"]
    );
    assert!(off.legal_cells(0, card("DD-GK"), true).is_empty());
    assert_eq!(
        play(&mut off, 0, "place DD-GKr@3,4")
            .unwrap_err()
            .to_string(),
        "Turning cards is off in this game"
    );
    let free = game(&format!(
        "{START} hands=DD-GG|DD-KK decks=| free_discard=on"
    ));
    assert!(legal(&free, 0).contains(&"discard".to_string()));
    assert!(free.can_discard(0));
}

#[test]
fn a_symmetric_card_turned_is_legal_but_not_listed() {
    let mut g = game(&format!("{START} hands=DD-GG,PN-GK|DD-GG decks=NN-KK|"));
    assert!(!legal(&g, 0).iter().any(|a| a.contains("DD-GGr")));
    assert!(play(&mut g, 0, "place DD-GGr@3,4").is_ok());
    assert_eq!(g.table.get(3, 4).unwrap().card, card("DD-GG"));
}

#[test]
fn refusals_change_nothing() {
    let g0 = game(&format!("{START} hands=DD-GG,DD-KK|DD-GG decks=PN-GK|"));
    let mut g = g0.clone();
    for (action, reason) in [
        ("place PN-GK@3,4", "PN-GK is not in your hand"),
        ("place DD-KK@3,4", "Colours do not match on the right (4,4)"),
        ("place DD-GG@4,4", "That cell is taken"),
        ("place DD-GG@9,4", "9,4 is outside the table"),
        (
            "discard",
            "You may discard only when no card in your hand can be placed",
        ),
    ] {
        assert_eq!(
            play(&mut g, 0, action).unwrap_err().to_string(),
            reason,
            "{action}"
        );
        assert_eq!(g, g0);
    }
    assert!(g.apply(5, &Action::Discard).is_err());
    assert_eq!(g, g0);
}

#[test]
fn arrival_order_decides_a_contested_cell() {
    let mut g = game(&format!(
        "{START} hands=DD-GG,DD-KK|DD-GG,DD-KK decks=PN-GK|PN-GK"
    ));
    assert_eq!(g.to_act(), vec![0, 1]);
    play(&mut g, 1, "place DD-GG@3,5").unwrap();
    assert_eq!(
        play(&mut g, 0, "place DD-GG@3,5").unwrap_err().to_string(),
        "That cell is taken"
    );
    assert_eq!(g.hand(0).len(), 2);
}

#[test]
fn behind_wins_at_once_and_draws_nothing() {
    // Black holds 4,5; White owns 3,6, so White at 4,6 is behind Black's card.
    let mut g =
        game("table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG;3,6:w:DD-GG hands=ND-GG|DD-KK decks=PN-GK|");
    let e = play(&mut g, 0, "place ND-GG@4,6").unwrap();
    assert_eq!(e.outcome, Outcome::Win { seat: 0 });
    assert!(matches!(e.act, Act::Placed { won: true, .. }));
    assert!(e.drew.is_none());
    assert!(g.hand(0).is_empty());
    assert_eq!(g.deck_count(0), 1);
    assert!(g.to_act().is_empty());
    assert!(g.legal_actions(0).is_empty());
    assert_eq!(
        play(&mut g, 1, "discard").unwrap_err().to_string(),
        "the game is over"
    );
}

#[test]
fn black_wins_behind_a_white_card_and_on_row_0() {
    // 4,3 lies behind White's 4,4 as seen by Black; Black holds 3,3 beside it.
    let mut g = game("table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG;3,3:b:DD-GG hands=|DP-GG decks=|");
    let e = play(&mut g, 1, "place DP-GG@4,3").unwrap();
    assert_eq!(e.outcome, Outcome::Win { seat: 1 });
    let mut g = game("table=7x8 cells=3,0:w:DD-GG;3,1:b:DD-KK hands=|ND-GG decks=|");
    assert_eq!(
        play(&mut g, 1, "place ND-GG@2,0").unwrap_err().to_string(),
        "No neighbour of yours"
    );
    let mut g =
        game("table=7x8 cells=3,0:w:DD-GG;3,1:b:DD-KK;2,1:b:NP-GG hands=|ND-GG,DD-KG decks=|");
    let e = play(&mut g, 1, "place ND-GG@2,0").unwrap();
    assert_eq!(e.outcome, Outcome::Win { seat: 1 });
}

#[test]
fn white_wins_on_the_far_edge() {
    let mut g = game("table=7x8 cells=3,6:w:DD-GG;2,7:b:DD-GG hands=DD-GK,DD-KK|DD-KG decks=|");
    let e = play(&mut g, 0, "place DD-GK@3,7").unwrap();
    assert_eq!(e.outcome, Outcome::Win { seat: 0 });
}

#[test]
fn an_emptied_hand_is_refilled_before_draws_are_judged() {
    // White lays its last card; its deck has 2 cards, drawn at once. NN-KK and DD-KK
    // fit nowhere then, and the deck is empty: a draw, judged after the refill.
    let mut g = game(&format!(
        "{START} hands=DD-GG|DD-KG decks=NN-KK,DD-KK|PN-GK"
    ));
    let e = play(&mut g, 0, "place DD-GG@3,4").unwrap();
    assert_eq!(e.drew.as_ref().map(|d| d.count), Some(2));
    assert_eq!(g.hand(0), &[card("NN-KK"), card("DD-KK")]);
    assert_eq!(g.deck_count(0), 0);
    assert_eq!(e.outcome, Outcome::Draw);
    // Had the refill brought a card that fits, play would go on.
    let mut g = game(&format!(
        "{START} hands=DD-GG|DD-KG decks=NN-KK,DD-KG|PN-GK"
    ));
    assert_eq!(
        play(&mut g, 0, "place DD-GG@3,4").unwrap().outcome,
        Outcome::Ongoing
    );
}

#[test]
fn stuck_with_an_empty_deck_is_a_draw() {
    // Black's deck is empty and DD-KK fits nowhere: White's next placement draws.
    let mut g = game(&format!("{START} hands=DD-GG,DD-KG|DD-KK decks=PN-GK|"));
    assert_eq!(
        g.outcome(),
        Outcome::Ongoing,
        "a set-up position is ongoing"
    );
    assert_eq!(
        play(&mut g, 0, "place DD-GG@3,4").unwrap().outcome,
        Outcome::Draw
    );
    // An empty deck and an empty hand also count.
    let mut g = game(&format!("{START} hands=DD-GG,DD-KG| decks=PN-GK|"));
    assert_eq!(
        play(&mut g, 0, "place DD-GG@3,4").unwrap().outcome,
        Outcome::Draw
    );
    // With a card left in the deck it goes on: Black can still discard and draw.
    let mut g = game(&format!(
        "{START} hands=DD-GG,DD-KG|DD-KK decks=PN-GK|PN-GK"
    ));
    assert_eq!(
        play(&mut g, 0, "place DD-GG@3,4").unwrap().outcome,
        Outcome::Ongoing
    );
}

#[test]
fn reaching_both_side_edges_is_a_draw() {
    // Row 3 alternates Black and White across the 7 columns; Black holds 0,3 and 6,3,
    // White 6,2 but nothing in column 0 yet.
    let cells = "1,2:w:ND-GG;6,2:w:NN-GG;0,3:b:DD-GG;1,3:w:DP-GG;2,3:b:DP-GG;\
                 3,3:w:DN-GG;4,3:b:DN-GG;5,3:w:PP-GG;6,3:b:PP-GG";
    let start = format!("table=7x8 cells={cells} hands=DD-GG,NP-GG|NN-GG decks=PN-GK|PN-GK");
    let mut g = game(&start);
    let e = play(&mut g, 0, "place DD-GG@0,2").unwrap();
    assert_eq!(e.outcome, Outcome::Draw);
    let mut g = game(&start);
    let e = play(&mut g, 0, "place NP-GG@2,2").unwrap();
    assert_eq!(e.outcome, Outcome::Ongoing);
}

#[test]
fn discarding_leaves_the_game_and_draws_three() {
    let mut g = game(&format!(
        "{START} hands=DD-GG|DD-KK,NN-KK decks=PN-GK|PN-GK,NP-KG,PP-GG,NN-GG"
    ));
    let e = play(&mut g, 1, "discard").unwrap();
    assert!(matches!(&e.act, Act::Discarded { count: 2, .. }));
    assert_eq!(e.drew.as_ref().map(|d| d.count), Some(3));
    assert_eq!(g.hand(1), &[card("PN-GK"), card("NP-KG"), card("PP-GG")]);
    assert_eq!(g.deck_count(1), 1);
    assert_eq!(g.outcome(), Outcome::Ongoing);
}
