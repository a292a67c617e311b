//! The privacy gate and turn flow, on real games.

use super::*;
use crate::games::omiga::Omiga;
use crate::games::ovo::Ovo;

fn people(n: usize) -> Vec<Player> {
    ["Anna", "Boris", "Vera", "Gleb"][..n]
        .iter()
        .enumerate()
        .map(|(i, name)| Player {
            name: name.to_string(),
            color: i as u8,
            kind: SeatKind::Human,
        })
        .collect()
}

fn ovo(first: usize) -> Session<Ovo> {
    let params = Params::new().with("players", 2).with("first", first);
    Session::start(params, people(2), Sharing::PassAndPlay).unwrap()
}

#[test]
fn the_cover_is_up_for_the_first_player_and_nothing_is_shown_beneath() {
    let mut s = ovo(1);
    assert_eq!(s.gate(), Gate::Covered(1));
    assert!(s.view(0).is_none() && s.view(1).is_none());
    s.reveal();
    assert_eq!(s.gate(), Gate::Open(1));
    assert!(s.view(1).is_some());
    assert!(
        s.view(0).is_none(),
        "another seat's view is never handed out"
    );
}

#[test]
fn after_a_move_the_cover_goes_up_for_the_next_player() {
    let mut s = ovo(0);
    let step = "a1-a2".parse().unwrap();
    assert_eq!(s.act(0, &step).unwrap_err().0, "reveal the screen first");
    s.reveal();
    assert!(s.act(1, &step).is_err(), "seat 1 is not on screen");
    s.act(0, &step).unwrap();
    assert_eq!(s.gate(), Gate::Covered(1));
    assert_eq!(s.actions(), &[(0, "a1-a2".to_string())]);
    assert!(s.view(0).is_none() && s.view(1).is_none());
}

#[test]
fn a_refused_action_changes_nothing_and_keeps_the_screen() {
    let mut s = ovo(0);
    s.reveal();
    let before = s.game().position();
    assert!(s.act(0, &"a1-a3".parse().unwrap()).is_err());
    assert_eq!(s.game().position(), before);
    assert_eq!(s.gate(), Gate::Open(0));
    assert!(s.actions().is_empty());
}

#[test]
fn resuming_covers_the_screen_again() {
    let mut s = ovo(0);
    s.reveal();
    s.cover();
    assert_eq!(s.gate(), Gate::Covered(0));
}

#[test]
fn a_peek_reaches_the_peeker_only() {
    let position = "players=2 turn=0 board=BBBBB./....../....../....../..b.../AAAAAA";
    let mut s = ovo(0);
    s.game = Ovo::from_position(position).unwrap();
    s.reveal();
    let views_before: Vec<String> = (0..2)
        .map(|seat| serde_json::to_string(&s.game().view(seat)).unwrap())
        .collect();
    let event = s.act(0, &"peek c2".parse().unwrap()).unwrap();
    let json = serde_json::to_string(&event).unwrap();
    assert!(
        json.contains("star"),
        "the peeker learns the symbol: {json}"
    );
    assert_eq!(s.gate(), Gate::Covered(1));
    // No view remembers the peek: apart from the turn, every view reads as before.
    for (seat, before) in views_before.iter().enumerate() {
        let after = serde_json::to_string(&s.game().view(seat)).unwrap();
        assert_eq!(
            after.matches("star").count(),
            before.matches("star").count()
        );
        assert_eq!(
            after.matches("hidden").count(),
            before.matches("hidden").count()
        );
    }
}

#[test]
fn face_to_face_shows_both_seats_and_needs_no_cover() {
    let params = Params::new().with("seed", 7);
    let mut s: Session<Omiga> = Session::start(params, people(2), Sharing::FaceToFace).unwrap();
    assert_eq!(s.gate(), Gate::Shared);
    assert!(s.view(0).is_some() && s.view(1).is_some());
    s.cover();
    assert_eq!(s.gate(), Gate::Shared);
}

#[test]
fn remote_actions_come_only_for_seats_not_played_here() {
    let mut s = ovo(0);
    assert!(s.act_remote(0, &"a1-a2".parse().unwrap()).is_err());
    let mut players = people(2);
    players[1].kind = SeatKind::Bot;
    let params = Params::new().with("players", 2).with("first", 1);
    let mut s: Session<Ovo> = Session::start(params, players, Sharing::PassAndPlay).unwrap();
    assert_eq!(
        s.gate(),
        Gate::Closed,
        "nobody here acts while the bot thinks"
    );
    s.act_remote(1, &"a6-a5".parse().unwrap()).unwrap();
    assert_eq!(s.gate(), Gate::Covered(0));
}

#[test]
fn the_wrong_number_of_players_is_refused() {
    let params = Params::new().with("players", 4);
    assert!(Session::<Ovo>::start(params, people(2), Sharing::PassAndPlay).is_err());
}
