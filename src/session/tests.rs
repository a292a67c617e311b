//! The privacy gate and turn flow, on real games.

use super::*;
use crate::games::omiga::Omiga;
use crate::games::ovo::Ovo;

fn people(n: usize) -> Vec<Player> {
    Player::people(&["Anna", "Boris", "Vera", "Gleb"][..n])
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
    assert_eq!(
        s.act(0, &step).unwrap_err().to_string(),
        "reveal the screen first"
    );
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

fn random_game<G: Game>(
    params: Params,
    players: Vec<Player>,
    sharing: Sharing,
    seed: u64,
    max: usize,
) -> Session<G> {
    use rand::seq::IndexedRandom;
    let mut rng = crate::games::rng_from_seed(seed);
    let mut s = Session::<G>::start(params, players, sharing).unwrap();
    for _ in 0..max {
        let Some(&seat) = s.game().to_act().choose(&mut rng) else {
            break;
        };
        // Random declarations would end Ovo games at once; play them only when nothing else is legal.
        let legal = s.game().legal_actions(seat);
        let quiet: Vec<_> = legal
            .iter()
            .filter(|a| !a.to_string().ends_with("ovo"))
            .cloned()
            .collect();
        let pool = if quiet.is_empty() { &legal } else { &quiet };
        let Some(action) = pool.choose(&mut rng).cloned() else {
            break;
        };
        s.game.play(seat, &action).unwrap();
        s.actions.push((seat, action.to_string()));
    }
    s
}

/// Saves after each action, reloads at every point, and finds the same state and views.
fn kill_and_resume_everywhere<G: Game>(params: Params, players: Vec<Player>, sharing: Sharing) {
    let full = random_game::<G>(params.clone(), players.clone(), sharing, 11, 400);
    let mut replay = Session::<G>::start(params, players, sharing).unwrap();
    for (seat, line) in full.actions() {
        let action: G::Action = line.parse().unwrap();
        replay.game.play(*seat, &action).unwrap();
        replay.actions.push((*seat, line.clone()));
        let json = serde_json::to_string(&replay.to_saved()).unwrap();
        let saved: SavedGame = serde_json::from_str(&json).unwrap();
        let back = Session::<G>::from_saved(&saved).unwrap();
        assert_eq!(back.game().position(), replay.game().position());
        assert_eq!(back.game().state_json(), replay.game().state_json());
        assert!(
            !matches!(back.gate(), Gate::Open(_)),
            "a resumed game starts covered"
        );
        for seat in 0..back.game().seats() {
            let a = serde_json::to_string(&back.game().view(seat)).unwrap();
            let b = serde_json::to_string(&replay.game().view(seat)).unwrap();
            assert_eq!(a, b);
        }
    }
    assert!(
        full.actions().len() > 5,
        "{:?} {}",
        full.actions(),
        full.game().position()
    );
}

/// Steps through a recorded game: every step is the game after that many actions, and no
/// seat's private state can be viewed on it, nor can it be played on.
fn public_replay_at_every_step<G: Game>(params: Params, players: Vec<Player>, sharing: Sharing) {
    let full = random_game::<G>(params.clone(), players.clone(), sharing, 5, 120);
    let saved = full.to_saved();
    let mut game = G::new_game(&params).unwrap();
    for step in 0..=saved.actions.len() {
        let public = Session::<G>::public_at(&saved, step).unwrap();
        assert_eq!(public.game().position(), game.position(), "step {step}");
        assert_eq!(public.gate(), Gate::Closed);
        assert_eq!(public.viewer(), None);
        for seat in 0..public.game().seats() {
            assert!(
                public.view(seat).is_none(),
                "seat {seat}'s view at step {step}"
            );
        }
        if let Some((seat, line)) = saved.actions.get(step) {
            let action: G::Action = line.parse().unwrap();
            let mut tried = public;
            assert!(
                tried.act(*seat, &action).is_err(),
                "a replay is not played on"
            );
            game.play(*seat, &action).unwrap();
        }
    }
    let past_the_end = Session::<G>::public_at(&saved, saved.actions.len() + 9).unwrap();
    assert_eq!(past_the_end.game().position(), full.game().position());
}

#[test]
fn a_recorded_game_replays_publicly_at_every_step() {
    public_replay_at_every_step::<Ovo>(
        Params::new().with("players", 4).with("first", 1),
        people(4),
        Sharing::PassAndPlay,
    );
    public_replay_at_every_step::<crate::games::iota::Iota>(
        Params::new().with("players", 2).with("seed", 9),
        people(2),
        Sharing::PassAndPlay,
    );
    public_replay_at_every_step::<Omiga>(
        Params::new().with("seed", 4),
        people(2),
        Sharing::FaceToFace,
    );
}

#[test]
fn every_game_resumes_exactly_after_every_action() {
    kill_and_resume_everywhere::<Ovo>(
        Params::new().with("players", 4).with("first", 2),
        people(4),
        Sharing::PassAndPlay,
    );
    kill_and_resume_everywhere::<crate::games::iota::Iota>(
        Params::new().with("players", 3).with("seed", 5),
        people(3),
        Sharing::PassAndPlay,
    );
    kill_and_resume_everywhere::<Omiga>(
        Params::new().with("seed", 3),
        people(2),
        Sharing::FaceToFace,
    );
}

#[test]
fn a_save_that_does_not_replay_is_refused_with_a_reason() {
    let s = random_game::<Ovo>(
        Params::new().with("players", 2),
        people(2),
        Sharing::PassAndPlay,
        4,
        10,
    );
    let mut saved = s.to_saved();
    saved.actions[3].1 = "f6-a1".into();
    assert!(Session::<Ovo>::from_saved(&saved)
        .unwrap_err()
        .to_string()
        .contains("does not replay"));
    let mut saved = s.to_saved();
    saved.position = "players=2 turn=0 board=BBBBBB/....../....../....../....../AAAAAA".into();
    assert!(Session::<Ovo>::from_saved(&saved)
        .unwrap_err()
        .to_string()
        .contains("saved position"));
    let mut saved = s.to_saved();
    saved.version = SAVE_VERSION + 1;
    assert!(Session::<Ovo>::from_saved(&saved)
        .unwrap_err()
        .to_string()
        .contains("newer Hotseat"));
    assert!(Session::<Omiga>::from_saved(&s.to_saved()).is_err());
}

#[test]
fn an_ovo_move_can_be_taken_back_until_the_next_player_acts() {
    let mut s = ovo(0);
    s.reveal();
    let before = s.game().position();
    s.act(0, &"a1-a2".parse().unwrap()).unwrap();
    assert_eq!(s.undo_for(), Some(0));
    assert!(s.undo(1).is_err(), "only the mover takes it back");
    s.undo(0).unwrap();
    assert_eq!(s.game().position(), before);
    assert_eq!(s.gate(), Gate::Open(0));
    assert!(s.actions().is_empty());
    s.act(0, &"a1-a2".parse().unwrap()).unwrap();
    s.reveal();
    s.act(1, &"a6-a5".parse().unwrap()).unwrap();
    assert_eq!(s.undo_for(), Some(1), "now only the latest move");
}

#[test]
fn peeks_declarations_and_other_games_cannot_be_taken_back() {
    let position = "players=2 turn=0 board=BBBBB./....../....../....../..b.../AAAAAA";
    let mut s = ovo(0);
    s.game = Ovo::from_position(position).unwrap();
    s.reveal();
    s.act(0, &"peek c2".parse().unwrap()).unwrap();
    assert_eq!(s.undo_for(), None);
    assert!(s.undo(0).is_err());

    let params = Params::new().with("players", 2).with("seed", 1);
    let mut iota: Session<crate::games::iota::Iota> =
        Session::start(params, people(2), Sharing::PassAndPlay).unwrap();
    let seat = iota.game().to_act()[0];
    iota.reveal();
    let pass = iota.game().legal_actions(seat).into_iter().last().unwrap();
    iota.act(seat, &pass).unwrap();
    assert_eq!(iota.undo_for(), None, "IOTA: drawing cards is final");

    let mut omiga: Session<Omiga> = Session::start(
        Params::new().with("seed", 2),
        people(2),
        Sharing::FaceToFace,
    )
    .unwrap();
    let action = omiga.game().legal_actions(0).into_iter().next().unwrap();
    omiga.act(0, &action).unwrap();
    assert_eq!(omiga.undo_for(), None, "Omiga: no undo");
}

fn is_step(a: &crate::games::ovo::OvoAction) -> bool {
    matches!(a, crate::games::ovo::OvoAction::Step { ovo: false, .. })
}

#[test]
fn no_cover_between_a_person_and_the_app_but_between_two_people() {
    // 4-player Ovo: Anna (0) and Vera (2) are people, seats 1 and 3 the app.
    let mut players = people(4);
    for seat in [1, 3] {
        players[seat].kind = SeatKind::Bot;
        players[seat].level = Some("easy".into());
    }
    let params = Params::new().with("players", 4).with("first", 0);
    let mut s = Session::<Ovo>::start(params, players, Sharing::PassAndPlay).unwrap();
    assert_eq!(s.gate(), Gate::Covered(0));
    s.reveal();
    let play = |s: &mut Session<Ovo>, seat: usize, remote: bool| {
        assert_eq!(s.game().turn(), seat);
        let action = s
            .game()
            .legal_actions(seat)
            .into_iter()
            .find(is_step)
            .unwrap();
        if remote {
            s.act_remote(seat, &action).unwrap();
        } else {
            s.act(seat, &action).unwrap();
        }
    };
    // Turn order: 0 → 1 (app) → 2 → 3 (app) in some rotation; follow the rules core.
    let order: Vec<usize> = {
        let mut probe = s.game().clone();
        (0..4)
            .map(|_| {
                let seat = probe.turn();
                let a = probe.legal_actions(seat).into_iter().find(is_step).unwrap();
                probe.play(seat, &a).unwrap();
                seat
            })
            .collect()
    };
    assert_eq!(order[0], 0);
    let next_person = order.iter().skip(1).copied().find(|x| x % 2 == 0).unwrap();
    play(&mut s, 0, false);
    assert_eq!(
        s.gate(),
        Gate::Closed,
        "the app thinks: nothing private shown"
    );
    assert!(s.view(0).is_none());
    assert!(
        s.act_remote(0, &crate::games::ovo::OvoAction::Pass)
            .is_err(),
        "a person's seat is never played from outside"
    );
    let bot = s.game().turn();
    play(&mut s, bot, true);
    assert_eq!(
        s.gate(),
        Gate::Covered(next_person),
        "the other person did not look yet: cover"
    );
    // The app's move is not the person's to take back.
    assert_eq!(s.undo_for(), None);
}

#[test]
fn one_person_against_the_app_keeps_the_screen() {
    let mut players = people(2);
    players[1].kind = SeatKind::Bot;
    let params = Params::new().with("players", 2).with("first", 0);
    let mut s = Session::<Ovo>::start(params, players, Sharing::PassAndPlay).unwrap();
    s.reveal();
    let a = s
        .game()
        .legal_actions(0)
        .into_iter()
        .find(|a| matches!(a, crate::games::ovo::OvoAction::Step { ovo: false, .. }))
        .unwrap();
    s.act(0, &a).unwrap();
    assert_eq!(
        s.undo_for(),
        Some(0),
        "the person may take back before the app answers"
    );
    let b = s.game().legal_actions(1).into_iter().find(is_step).unwrap();
    s.act_remote(1, &b).unwrap();
    assert_eq!(
        s.gate(),
        Gate::Open(0),
        "no cover between a person and the app"
    );
    // Closing and reopening the app raises the cover again.
    s.cover();
    assert_eq!(s.gate(), Gate::Covered(0));
}

fn with_app_at(mut players: Vec<Player>, seat: usize) -> Vec<Player> {
    players[seat].kind = SeatKind::Bot;
    players[seat].level = Some("easy".into());
    players
}

/// Runs the match's opponents until none is to act (as the platform would).
fn let_the_app_play<G: crate::ai::Opponents>(m: &mut Match<G>) -> usize {
    let mut played = 0;
    while let Some(job) = m.job(false) {
        let JobKind::Think(mut think) = job.kind else {
            panic!("only Omiga waits its pace");
        };
        let reply = loop {
            if let Some(reply) = think() {
                break reply;
            }
        };
        match m.finish(reply) {
            Some(Finished::Played(..)) => played += 1,
            Some(Finished::Stuck) | Some(Finished::Refused(_)) => panic!("the app failed"),
            None => panic!("a fresh answer is never stale"),
        }
    }
    played
}

#[test]
fn the_public_view_and_log_hold_no_hand_and_no_draw() {
    use crate::games::iota::{Iota, IotaEvent};
    let params = Params::new()
        .with("players", 2)
        .with("seed", 4)
        .with("first", 0);
    let mut s = Session::<Iota>::start(params, people(2), Sharing::PassAndPlay).unwrap();
    s.reveal();
    let hand = s.view(0).unwrap().hand;
    assert_eq!(hand.len(), 4);
    assert!(s.public().hand.is_empty(), "no hand in the public view");
    assert_eq!(s.public().hand_sizes, vec![4, 4]);
    let pass = format!("pass {} {}", hand[0], hand[1]).parse().unwrap();
    let mine = s.act(0, &pass).unwrap();
    let IotaEvent::Passed { returned, .. } = &mine else {
        panic!("a pass");
    };
    assert!(returned.is_some(), "the passer knows what went back");
    let log: Vec<_> = s.log().collect();
    assert_eq!(log.len(), 1);
    let (seat, line, event) = &log[0];
    assert_eq!((*seat, *line), (0, pass.to_string().as_str()));
    let IotaEvent::Passed {
        returned,
        drawn,
        returned_count,
        ..
    } = event
    else {
        panic!("a pass");
    };
    assert_eq!((returned, drawn, *returned_count), (&None, &None, 2));
}

#[test]
fn a_desk_opens_only_for_a_person_the_gate_shows() {
    let params = Params::new().with("seed", 3);
    let players = with_app_at(people(2), 1);
    let mut s = Session::<Omiga>::start(params, players, Sharing::FaceToFace).unwrap();
    assert_eq!(s.gate(), Gate::Shared);
    assert!(s.desk(0).is_some(), "the person's side of the shared table");
    assert!(s.desk(1).is_none(), "the app's hand stays face down");
    assert!(s.view(1).is_none());
    let any = s.game().legal_actions(1).into_iter().next().unwrap();
    assert_eq!(s.act(1, &any).unwrap_err(), RuleError::RevealFirst);
    // Pass and play: only the revealed seat's desk, and none under the cover.
    let mut o = ovo(0);
    assert!(o.desk(0).is_none() && o.desk(1).is_none());
    o.reveal();
    let desk = o.desk(0).expect("open");
    assert_eq!(desk.seat(), 0);
    assert!(desk.may_act());
    assert_eq!(desk.legal_actions(), o.game().legal_actions(0));
    assert!(o.desk(1).is_none());
}

#[test]
fn a_desk_tries_an_action_without_playing_it() {
    let mut s = ovo(0);
    s.reveal();
    let before = s.game().position();
    let desk = s.desk(0).unwrap();
    assert!(desk.try_action(&"a1-a2".parse().unwrap()).is_ok());
    assert!(desk.try_action(&"a1-a4".parse().unwrap()).is_err());
    assert_eq!(s.game().position(), before, "nothing was played");
    assert!(s.actions().is_empty());
}

#[test]
fn the_app_in_a_match_is_told_the_log_and_plays_by_the_rules() {
    use crate::games::iota::Iota;
    let params = Params::new()
        .with("players", 3)
        .with("seed", 9)
        .with("first", 0);
    let players = with_app_at(with_app_at(people(3), 1), 2);
    let mut m = Match::<Iota>::start(params, players, Sharing::PassAndPlay).unwrap();
    assert!(m.is_bot(1) && m.is_bot(2) && !m.is_bot(0));
    assert_eq!(let_the_app_play(&mut m), 0, "the person plays first");
    for round in 0..6 {
        if m.outcome().is_over() {
            break;
        }
        m.reveal();
        let desk = m.desk(0).expect("the person's turn");
        let action = desk
            .best_placement()
            .map_or(crate::games::iota::Action::Pass(Vec::new()), |p| {
                crate::games::iota::Action::Place(p)
            });
        m.act(0, &action).unwrap();
        let played = let_the_app_play(&mut m);
        assert!(
            played >= 2 || m.outcome().is_over(),
            "round {round}: both app seats answered ({played})"
        );
        // An app seat's play may end the game (the bots draw from the system's
        // randomness): then the gate closes, and there is nobody left to cover for.
        if !m.outcome().is_over() {
            assert_eq!(
                m.gate(),
                Gate::Open(0),
                "no cover between the person and the app"
            );
        }
    }
    // The match replays from its save to the same place: the app's actions were legal.
    let saved = m.saved();
    let back = Session::<Iota>::from_saved(&saved).unwrap();
    assert_eq!(back.actions(), m.actions());
}

#[test]
fn after_a_take_back_the_app_starts_over_from_the_shorter_log() {
    let params = Params::new().with("players", 2).with("first", 0);
    let players = with_app_at(people(2), 1);
    let mut m = Match::<Ovo>::start(params, players, Sharing::PassAndPlay).unwrap();
    m.reveal();
    let step = m
        .desk(0)
        .unwrap()
        .legal_actions()
        .into_iter()
        .find(is_step)
        .unwrap();
    m.act(0, &step).unwrap();
    assert_eq!(m.undo_for(), Some(0));
    m.undo(0).unwrap();
    assert!(m.actions().is_empty());
    assert_eq!(let_the_app_play(&mut m), 0, "the person is to move again");
    m.act(0, &step).unwrap();
    assert_eq!(
        let_the_app_play(&mut m),
        1,
        "the app answers the move played again"
    );
    assert_eq!(m.log().count(), 2);
}
