//! The tests of `games/ovo/rules.rs` (their own file, so that the code's file reads on its own).

use super::super::{CellView, Declaration, Happened};
use super::*;
use crate::games::{Game, Params};

fn game(position: &str) -> Ovo {
    Ovo::from_position(position).unwrap()
}

fn act(game: &mut Ovo, seat: Seat, action: &str) -> RuleResult<OvoEvent> {
    game.play(seat, &action.parse()?)
}

fn legal(game: &Ovo, seat: Seat) -> Vec<String> {
    let mut v: Vec<String> = game
        .legal_actions(seat)
        .iter()
        .map(|a| a.to_string())
        .collect();
    v.sort();
    v
}

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

/// Refused with a message containing `why`, and the state unchanged.
fn refused(game: &mut Ovo, seat: Seat, action: &str, why: &str) {
    let before = game.clone();
    let err = act(game, seat, action).unwrap_err();
    assert!(err.to_string().contains(why), "{action}: {err}");
    assert_eq!(*game, before);
}

const FLIP: &str = "players=2 turn=0 board=BB.B../....B./B...A./B...../....../AAAAA.";
const RING: &str = "players=2 turn=0 board=BBB.../....../..B.../.B.B../.AA.../AAAA..";
const STUCK: &str = "players=4 turn=0 board=.....D/.....D/D.D.../BCBCA./ABC.../AABC.. last=e3";

#[test]
fn the_first_turn_offers_the_front_row_steps_and_ovo() {
    let g = Ovo::new_game(&Params::new()).unwrap();
    let l = legal(&g, 0);
    assert_eq!(l.len(), 16 * 2 + 1);
    assert!(l.contains(&"c1-d2 ovo".to_string()) && l.contains(&"ovo".to_string()));
    assert!(legal(&g, 1).is_empty(), "not seat 1's turn");
    let g = Ovo::new_game(&Params::new().with("players", 4).with("first", 2)).unwrap();
    assert_eq!(g.turn(), 2);
    assert!(legal(&g, 2).contains(&"e5-d4".to_string()));
}

#[test]
fn steps_go_one_cell_onto_an_empty_cell_with_an_own_visible_egg() {
    let mut g = Ovo::new_game(&Params::new()).unwrap();
    refused(&mut g, 0, "b1-b3", "not a step");
    refused(&mut g, 0, "b1-c1", "c1 is not empty");
    refused(&mut g, 0, "b2-b3", "b2 is empty");
    refused(&mut g, 0, "b6-b5", "not yours");
    refused(&mut g, 1, "b6-b5", "not seat 1's turn");
    let e = act(&mut g, 0, "b1-b2").unwrap();
    assert_eq!(
        e.happened,
        Happened::Moved {
            from: cell("b1"),
            landings: vec![cell("b2")],
            jump: false,
            flipped: false
        }
    );
    assert_eq!((g.turn(), g.last()), (1, Some(cell("b2"))));
}

#[test]
fn jump_chains_turn_stop_anywhere_and_never_land_twice() {
    let mut g = game(RING);
    let l = legal(&g, 0);
    for chain in ["b2xd2", "b2xd2xd4", "b2xd2xd4xb4"] {
        assert!(l.contains(&chain.to_string()), "{chain}");
    }
    assert!(!l.iter().any(|a| a.starts_with("b2xd2xd4xb4xb2")));
    refused(&mut g, 0, "b2xd2xd4xb4xb2", "come back to b2");
    refused(&mut g, 0, "b2xd2xd4xd2", "lands on d2 twice");
    refused(&mut g, 0, "b2xd2xb2", "come back to b2");
    refused(&mut g, 0, "b2xd4", "no egg on c3");
    refused(&mut g, 0, "b2xe2", "not a jump");
    refused(&mut g, 0, "a1xa3", "no egg on a2");
    refused(&mut g, 0, "a1xc1", "c1 is not empty");
    let e = act(&mut g, 0, "b2xd2xd4xb4").unwrap();
    assert!(matches!(
        e.happened,
        Happened::Moved {
            jump: true,
            flipped: false,
            ..
        }
    ));
    assert_eq!(g.board().get(cell("b4")).map(|e| e.owner), Some(0));
    assert_eq!(g.board().get(cell("b2")), None);
    assert_eq!(g.last(), Some(cell("b4")));
}

#[test]
fn a_visible_egg_flips_on_its_first_opposing_camp_landing_and_stops() {
    let mut g = game(FLIP);
    let l = legal(&g, 0);
    assert!(l.contains(&"e4xe6".to_string()));
    assert!(!l.contains(&"e4xe6xc6".to_string()));
    refused(&mut g, 0, "e4xe6xc6", "flipped on e6");
    let e = act(&mut g, 0, "e4xe6").unwrap();
    assert!(matches!(e.happened, Happened::Moved { flipped: true, .. }));
    assert_eq!(
        g.board().get(cell("e6")),
        Some(Egg {
            owner: 0,
            hidden: true
        })
    );
    // A step into the camp flips too; a visible egg at home does not.
    let mut g = game(FLIP);
    assert!(matches!(
        act(&mut g, 0, "e4-f5").unwrap().happened,
        Happened::Moved { flipped: false, .. }
    ));
    act(&mut g, 1, "a3-a2").unwrap();
    assert!(matches!(
        act(&mut g, 0, "f5-f6").unwrap().happened,
        Happened::Moved { flipped: true, .. }
    ));
    act(&mut g, 1, "a2-b2").unwrap();
    assert!(matches!(
        act(&mut g, 0, "e1-f2").unwrap().happened,
        Happened::Moved { flipped: false, .. }
    ));
}

#[test]
fn a_hidden_egg_crosses_camps_unflipped_and_anyone_may_move_it() {
    let hidden = FLIP.replace("B...A.", "B...a.").replace("turn=0", "turn=1");
    let mut g = game(&hidden);
    assert!(legal(&g, 1).contains(&"e4xe6xc6".to_string()));
    let e = act(&mut g, 1, "e4xe6xc6").unwrap();
    assert!(matches!(e.happened, Happened::Moved { flipped: false, .. }));
    assert_eq!(
        g.board().get(cell("c6")),
        Some(Egg {
            owner: 0,
            hidden: true
        })
    );
}

#[test]
fn four_player_eggs_flip_in_any_opposing_camp() {
    let pos = "players=4 turn=0 board=BB..CC/BB..CC/....../....DD/AA.A.D/A....D";
    for (mv, flips) in [
        ("d2-e2", true),
        ("d2-e1", true),
        ("d2-c3", false),
        ("b2-b1", false),
    ] {
        let mut g = game(pos);
        let e = act(&mut g, 0, mv).unwrap();
        assert!(
            matches!(e.happened, Happened::Moved { flipped, .. } if flipped == flips),
            "{mv}"
        );
    }
}

#[test]
fn the_egg_moved_last_turn_stays_but_may_be_peeked_and_jumped() {
    let pos = "players=2 turn=1 board=BBBBB./....../..B.../..a.../....../AAAAA. last=c3";
    let mut g = game(pos);
    let l = legal(&g, 1);
    assert!(!l.iter().any(|a| a.starts_with("c3")));
    assert!(l.contains(&"peek c3".to_string()));
    assert!(l.contains(&"c4xc2".to_string()), "jumping over it is fine");
    refused(&mut g, 1, "c3-c2", "moved last turn");
    assert_eq!(g.moves_from(1, cell("c3")), vec![]);
    let e = act(&mut g, 1, "peek c3").unwrap();
    assert_eq!(Ovo::report(&e), vec!["symbol diamond"]);
    assert_eq!(g.last(), None, "a peek moves nothing: no restriction");
    assert!(!g.moves_from(0, cell("c3")).is_empty());
    // The French rule: no restriction.
    let mut g = game(&format!("{pos} no_move_back=off"));
    act(&mut g, 1, "c3-c2").unwrap();
}

#[test]
fn peeks_need_a_hidden_egg_and_tell_only_the_peeker() {
    let mut g = game("players=2 turn=0 board=BBBBBb/....../....../....../....../AAAAAA");
    refused(&mut g, 0, "peek a1", "not hidden");
    refused(&mut g, 0, "peek c3", "c3 is empty");
    let e = act(&mut g, 0, "peek f6").unwrap();
    assert_eq!(Ovo::report(&e), vec!["symbol star"]);
    assert_eq!(Ovo::event_for(&e, 0), e);
    let public = Ovo::event_for(&e, 1);
    assert_eq!(
        public.happened,
        Happened::Peeked {
            cell: cell("f6"),
            symbol: None
        }
    );
    assert!(Ovo::report(&public).is_empty());
}

#[test]
fn pass_only_when_stuck_and_a_round_of_passes_draws() {
    let mut g = game(STUCK);
    assert_eq!(legal(&g, 0), vec!["ovo", "pass"]);
    let e = act(&mut g, 0, "pass").unwrap();
    assert_eq!(e.happened, Happened::Passed);
    assert_eq!((g.passes(), g.turn(), g.last()), (1, 1, None));
    refused(&mut g, 1, "pass", "only when");
    let mut g = game(&format!("{STUCK} no_move_back=off"));
    refused(&mut g, 0, "pass", "only when");
    let mut g = game(&format!("{STUCK} passes=3"));
    act(&mut g, 0, "pass").unwrap();
    assert_eq!(g.outcome(), Outcome::Draw);
    assert_eq!(g.turn(), 1, "the turn advances after the last action too");
    refused(&mut g, 1, "ovo", "over");
    // Any other action breaks the run.
    let mut g = game(&format!("{STUCK} passes=3"));
    act(&mut g, 0, "ovo").unwrap();
    assert_eq!(g.passes(), 0);
}

#[test]
fn a_correct_declaration_wins_and_changes_nothing_on_the_board() {
    let pos = "players=2 turn=0 board=BBBBBB/....../....../....../....../aaaaaa";
    let mut g = game(pos);
    let board = g.board().clone();
    let e = act(&mut g, 0, "ovo").unwrap();
    assert_eq!(e.declaration.map(|d| d.correct), Some(true));
    assert_eq!((g.outcome(), g.turn()), (Outcome::Win { seat: 0 }, 1));
    assert_eq!(*g.board(), board);
    refused(&mut g, 1, "a6-a5", "over");
    // After a peek, and after the move that completes it.
    let mut g = game(pos);
    let e = act(&mut g, 0, "peek a1 ovo").unwrap();
    assert_eq!(Ovo::report(&e), vec!["symbol diamond"]);
    assert_eq!(g.outcome(), Outcome::Win { seat: 0 });
    let mut g = game("players=2 turn=0 board=BBBBBB/....../....../....../.....a/aaaaa.");
    act(&mut g, 0, "f2-f1 ovo").unwrap();
    assert_eq!(g.outcome(), Outcome::Win { seat: 0 });
    // The view reveals every egg once the game is over.
    assert!(matches!(
        g.view(1).cell(cell("a1")),
        CellView::Revealed { seat: 0, .. }
    ));
}

#[test]
fn a_wrong_two_player_declaration_hands_the_win_over() {
    // Seat 1's own hidden eggs sit in seat 0's camp: wrong for seat 1.
    let mut g = game("players=2 turn=1 board=BBBBBa/....../....../....../....../aaaaab");
    act(&mut g, 1, "ovo").unwrap();
    assert_eq!(g.outcome(), Outcome::Win { seat: 0 });
    let mut g = game("players=2 turn=0 board=BBBBBB/....../....../....../a...../aaaaa.");
    act(&mut g, 0, "ovo").unwrap();
    assert_eq!(g.outcome(), Outcome::Win { seat: 1 });
}

#[test]
fn a_wrong_four_player_declaration_removes_the_seat_until_one_is_left() {
    let mut g = Ovo::new_game(&Params::new().with("players", 4)).unwrap();
    let e = act(&mut g, 0, "ovo").unwrap();
    assert_eq!(
        e.declaration,
        Some(Declaration {
            correct: false,
            seat_out: true,
            removed: ["a1", "b1", "a2", "b2"].map(cell).to_vec()
        })
    );
    assert_eq!((g.out_seats(), g.turn()), (vec![0], 1));
    assert_eq!(g.board().count(0), 0);
    act(&mut g, 1, "a5-a4 ovo").unwrap();
    assert_eq!(g.last(), None, "the moved egg was removed");
    assert_eq!(g.outcome(), Outcome::Ongoing);
    act(&mut g, 2, "e5-d4").unwrap();
    act(&mut g, 3, "e2-d3").unwrap();
    assert_eq!(g.turn(), 2, "seats 0 and 1 are skipped");
    act(&mut g, 2, "ovo").unwrap();
    assert_eq!(g.outcome(), Outcome::Win { seat: 3 });
    assert_eq!(g.turn(), 3);
    assert_eq!(g.last(), None, "a lone declaration moved nothing");
}

#[test]
fn a_wrong_declaration_after_moving_someone_elses_egg_keeps_last() {
    let pos = "players=4 turn=0 board=BB..CC/BB..CC/....../..b.../AA..DD/AA..DD";
    let pos = pos.replace("BB..CC/BB", "B...CC/BB");
    let mut g = game(&pos);
    let e = act(&mut g, 0, "c3-c4 ovo").unwrap();
    assert_eq!(e.declaration.map(|d| d.removed.len()), Some(4));
    assert_eq!(g.last(), Some(cell("c4")), "seat 1's hidden egg stays");
    assert_eq!(g.turn(), 1);
}

#[test]
fn helpers_for_the_ui() {
    let g = game(RING);
    let from_b2 = g.moves_from(0, cell("b2"));
    assert!(from_b2
        .iter()
        .all(|a| a.from_cell() == Some(cell("b2")) && !a.declares()));
    assert!(from_b2.contains(&"b2xd2xd4".parse().unwrap()));
    assert!(g.moves_from(1, cell("b2")).is_empty(), "not on turn");
    assert!(g.moves_from(0, cell("b3")).is_empty(), "not seat 0's egg");
    assert!(g.movable_cells(0).contains(&cell("b2")));
    assert!(!g.movable_cells(0).contains(&cell("b3")));
    assert_eq!(game(STUCK).movable_cells(0), vec![]);
    assert_eq!(g.camp(1).len(), 6);
}

#[test]
fn apply_called_directly_is_still_safe() {
    let mut g = Ovo::new_game(&Params::new()).unwrap();
    let before = g.clone();
    assert!(g.apply(1, &OvoAction::Ovo).is_err());
    assert!(g.apply(7, &OvoAction::Ovo).is_err());
    let empty = OvoAction::Jump {
        from: cell("a1"),
        landings: vec![],
        ovo: false,
    };
    assert!(g.apply(0, &empty).is_err());
    assert_eq!(g, before);
}
