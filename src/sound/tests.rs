//! What a player hears, in order, in scripted games of all three; that no cue tells a
//! secret; and that the synthesised cues have the length and level they should.

use super::synth::{length_ms, peak, render, rms};
use super::*;
use crate::games::iota::Iota;
use crate::games::omiga::Omiga;
use crate::games::ovo::Ovo;
use crate::games::Params;
use crate::session::Player;

fn people(kinds: &[SeatKind]) -> Vec<Player> {
    kinds
        .iter()
        .enumerate()
        .map(|(i, kind)| Player {
            name: format!("P{i}"),
            color: i as u8,
            kind: *kind,
            level: (*kind == SeatKind::Bot).then(|| "easy".to_string()),
        })
        .collect()
}

const TWO: [SeatKind; 2] = [SeatKind::Human, SeatKind::Human];

fn scene<G: Sounds + Opponents>(position: &str, sharing: Sharing) -> (Match<G>, Ear) {
    // Ovo takes no seed; the card games deal from one (the position replaces the deal).
    let params = if G::NAME == "ovo" {
        Params::new()
    } else {
        Params::new().with("seed", 1)
    };
    let mut m: Match<G> = Match::start(params, people(&TWO), sharing).unwrap();
    m.set_position(position).unwrap();
    (m, Ear::new())
}

fn play<G: Sounds + Opponents>(
    m: &mut Match<G>,
    ear: &mut Ear,
    seat: Seat,
    line: &str,
) -> Vec<Cue> {
    let action: G::Action = line.parse().unwrap();
    m.act(seat, &action).unwrap();
    ear.listen(m, 0).cues
}

#[test]
fn an_ovo_game_sounds_its_steps_hops_flips_and_hand_offs() {
    let (mut m, mut ear) = scene::<Ovo>(
        "players=2 turn=0 board=BB.B../....B./B...A./B...../....../AAAAA.",
        Sharing::PassAndPlay,
    );
    let first = ear.listen(&m, 0);
    assert_eq!(
        first.cues,
        [Cue::CoverUp],
        "the first player is asked for the device"
    );
    assert!(first.buzz, "and the phone buzzes for them");
    m.reveal();
    assert_eq!(ear.listen(&m, 0).cues, [Cue::Reveal]);
    // A jump onto the opposing camp: one hop, the flip, then the cover for the next.
    assert_eq!(
        play(&mut m, &mut ear, 0, "e4xe6"),
        [Cue::Hop, Cue::Flip, Cue::CoverUp]
    );
    m.reveal();
    ear.listen(&m, 0);
    assert_eq!(
        play(&mut m, &mut ear, 1, "a6-a5"),
        [Cue::Step, Cue::CoverUp]
    );
    m.reveal();
    ear.listen(&m, 0);
    // A jump along the home row: a hop, no flip.
    assert_eq!(play(&mut m, &mut ear, 0, "d1xf1"), [Cue::Hop, Cue::CoverUp]);
    m.reveal();
    ear.listen(&m, 0);
    assert_eq!(
        play(&mut m, &mut ear, 1, "d6-d5"),
        [Cue::Step, Cue::CoverUp]
    );
}

#[test]
fn a_jump_chain_ticks_once_per_hop() {
    let (mut m, mut ear) = scene::<Ovo>(
        "players=2 turn=0 board=....../....../..B.../....../..B.../..A...",
        Sharing::PassAndPlay,
    );
    m.reveal();
    ear.listen(&m, 0);
    assert_eq!(
        play(&mut m, &mut ear, 0, "c1xc3xc5"),
        [Cue::Hop, Cue::Hop, Cue::CoverUp]
    );
}

#[test]
fn ovo_declarations_sound_right_or_wrong_and_the_end() {
    let (mut m, mut ear) = scene::<Ovo>(
        "players=2 turn=0 board=BBBBBB/....../....../....../....../aaaaaa",
        Sharing::PassAndPlay,
    );
    m.reveal();
    ear.listen(&m, 0);
    assert_eq!(
        play(&mut m, &mut ear, 0, "peek a1 ovo"),
        [Cue::Peek, Cue::OvoRight, Cue::Won]
    );
    let (mut m, mut ear) = scene::<Ovo>(
        "players=2 turn=1 board=aBBBBB/....../....../....../.....a/aaaab.",
        Sharing::PassAndPlay,
    );
    m.reveal();
    ear.listen(&m, 0);
    assert_eq!(
        play(&mut m, &mut ear, 1, "b6-b5 ovo"),
        [Cue::Step, Cue::OvoWrong, Cue::Won]
    );
}

#[test]
fn a_peek_sounds_the_same_whatever_the_egg_and_whoever_owns_it() {
    // Seat 0 peeks at its own hidden egg, then at seat 1's: different symbols, owners.
    let mut heard = Vec::new();
    for cell in ["c2", "a1"] {
        let (mut m, mut ear) = scene::<Ovo>(
            "players=2 turn=0 board=BBBBB./....../....../....../..b.../aAAAAA",
            Sharing::PassAndPlay,
        );
        m.reveal();
        ear.listen(&m, 0);
        heard.push(play(&mut m, &mut ear, 0, &format!("peek {cell}")));
    }
    assert_eq!(heard[0], heard[1]);
    assert_eq!(heard[0], [Cue::Peek, Cue::CoverUp]);
    // And a hidden egg's step sounds alike whoever's egg it is.
    let mut steps = Vec::new();
    for from in ["c2", "a1"] {
        let (mut m, mut ear) = scene::<Ovo>(
            "players=2 turn=0 board=BBBBB./....../....../....../..b.../aAAAAA",
            Sharing::PassAndPlay,
        );
        m.reveal();
        ear.listen(&m, 0);
        let to = if from == "c2" { "c3" } else { "a2" };
        steps.push(play(&mut m, &mut ear, 0, &format!("{from}-{to}")));
    }
    assert_eq!(steps[0], steps[1]);
}

#[test]
fn an_iota_turn_sounds_its_swap_cards_and_lines_rising_with_the_score() {
    let (mut m, mut ear) = scene::<Iota>(
        "players=2 turn=0 grid=0,0:Rc1;1,0:W;1,1:Rc2;1,2:Rc3 hands=Gs1,Rc4,W|Yx1 pile=Ys1,Ys2,Ys3 scores=0,0",
        Sharing::PassAndPlay,
    );
    m.reveal();
    ear.listen(&m, 0);
    assert_eq!(
        play(&mut m, &mut ear, 0, "swap 1,0 Rc4"),
        [Cue::WildsSwapped]
    );
    // Rc1 Rc4 W scores 5 in one line.
    assert_eq!(
        play(&mut m, &mut ear, 0, "place W@2,0"),
        [Cue::CardPlaced, Cue::LineScored { points: 5 }, Cue::CoverUp]
    );
    m.reveal();
    ear.listen(&m, 0);
    assert_eq!(
        play(&mut m, &mut ear, 1, "pass Yx1"),
        [Cue::CardsReturned, Cue::CoverUp]
    );
    // A higher line sounds higher.
    let low = render(Cue::LineScored { points: 3 }, 8000);
    let high = render(Cue::LineScored { points: 12 }, 8000);
    assert!(zero_crossings(&high) > zero_crossings(&low));
}

fn zero_crossings(s: &[f32]) -> usize {
    s.windows(2)
        .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
        .count()
}

#[test]
fn an_iota_pass_sounds_the_same_whatever_cards_went_back() {
    let position =
        "players=2 turn=0 grid=0,0:Rc1;1,0:W;1,1:Rc2;1,2:Rc3 hands=Gs1,Rc4,W|Yx1 pile=Ys1,Ys2,Ys3 scores=0,0";
    let mut heard = Vec::new();
    for line in ["pass Gs1", "pass W"] {
        let (mut m, mut ear) = scene::<Iota>(position, Sharing::PassAndPlay);
        m.reveal();
        ear.listen(&m, 0);
        heard.push(play(&mut m, &mut ear, 0, line));
    }
    assert_eq!(heard[0], heard[1]);
}

const OMIGA_DECKS: &str = "table=9x10 cells=4,4:w:DD-GG;4,5:b:DD-GG hands=DD-GK,DD-KG,DD-KK|DD-GK,DD-KG,DD-KK decks=DP-GG,DP-GK,DP-KG|DP-GG,DP-GK,DP-KG";

#[test]
fn omiga_face_to_face_counts_down_and_tells_the_two_sides_apart() {
    let (mut m, mut ear) = scene::<Omiga>(OMIGA_DECKS, Sharing::FaceToFace);
    let mut heard = Vec::new();
    for left in [3, 2, 1, 0] {
        heard.extend(ear.listen(&m, left).cues);
    }
    assert_eq!(
        heard,
        [
            Cue::Countdown { left: 3 },
            Cue::Countdown { left: 2 },
            Cue::Countdown { left: 1 },
            Cue::Countdown { left: 0 }
        ]
    );
    assert_eq!(
        play(&mut m, &mut ear, 0, "place DD-KG@3,4"),
        [Cue::PlacedNear]
    );
    assert_eq!(
        play(&mut m, &mut ear, 1, "place DD-KG@3,5"),
        [Cue::PlacedFar]
    );
    assert_ne!(render(Cue::PlacedNear, 8000), render(Cue::PlacedFar, 8000));
}

/// White's card at 4,6 lies behind Black's 4,5 and wins at once (docs/rules-omiga.md).
const OMIGA_WIN: &str =
    "table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG;3,6:w:DD-GG hands=ND-GG|DD-KK decks=PN-GK|";

#[test]
fn only_an_omiga_placement_that_wins_buzzes_and_the_win_follows_it() {
    let (mut m, mut ear) = scene::<Omiga>(OMIGA_DECKS, Sharing::FaceToFace);
    ear.listen(&m, 0);
    m.act(0, &"place DD-KG@3,4".parse().unwrap()).unwrap();
    let plain = ear.listen(&m, 0);
    assert_eq!(plain.cues, [Cue::PlacedNear]);
    assert!(!plain.buzz, "an ordinary card does not buzz");

    let (mut m, mut ear) = scene::<Omiga>(OMIGA_WIN, Sharing::FaceToFace);
    ear.listen(&m, 0);
    m.act(0, &"place ND-GG@4,6".parse().unwrap()).unwrap();
    let won = ear.listen(&m, 0);
    assert_eq!(won.cues, [Cue::PlacedNear, Cue::Won]);
    assert!(won.buzz, "the winning card buzzes");
}

#[test]
fn a_table_heard_by_glances_sounds_as_its_match_does() {
    // The networked table has no `Match`: it hands the ear glances and the events the
    // network brought. The same game heard both ways sounds the same.
    let (mut m, mut by_match) = scene::<Omiga>(OMIGA_WIN, Sharing::FaceToFace);
    let mut by_glance = Ear::new();
    let mut log: Vec<(Side, <Omiga as Game>::Event)> = Vec::new();
    let glance = |m: &Match<Omiga>, actions: usize, left: u8| Glance {
        actions,
        gate: Gate::Open(0),
        thinking: false,
        outcome: m.outcome(),
        countdown: left,
    };
    for left in [2, 1, 0] {
        let want = by_match.listen(&m, left);
        let got = by_glance.hear::<Omiga, _>(glance(&m, 0, left), |_| log.clone().into_iter());
        assert_eq!(got, want);
    }
    m.act(0, &"place ND-GG@4,6".parse().unwrap()).unwrap();
    log.extend(m.log().map(|(_, _, event)| (Side::Near, event)));
    let want = by_match.listen(&m, 0);
    let got =
        by_glance.hear::<Omiga, _>(glance(&m, 1, 0), |from| log.clone().into_iter().skip(from));
    assert_eq!(got, want);
    assert_eq!(got.cues, [Cue::PlacedNear, Cue::Won]);
    assert!(got.buzz);
}

#[test]
fn against_the_app_its_thinking_and_its_move_are_heard_without_a_cover() {
    let players = people(&[SeatKind::Human, SeatKind::Bot]);
    let mut m: Match<Ovo> = Match::start(Params::new(), players, Sharing::PassAndPlay).unwrap();
    let mut ear = Ear::new();
    assert_eq!(ear.listen(&m, 0).cues, [Cue::CoverUp]);
    m.reveal();
    ear.listen(&m, 0);
    assert_eq!(play(&mut m, &mut ear, 0, "a1-a2"), [Cue::Step]);
    let job = m.job(false).expect("the app thinks next");
    assert_eq!(ear.listen(&m, 0).cues, [Cue::Thinking]);
    let crate::session::JobKind::Think(mut think) = job.kind else {
        panic!("Ovo's app does not wait a pace");
    };
    let reply = loop {
        if let Some(reply) = think() {
            break reply;
        }
    };
    m.finish(reply).expect("the app played");
    let cues = ear.listen(&m, 0).cues;
    assert!(
        matches!(
            cues.as_slice(),
            [Cue::Step | Cue::Hop | Cue::Peek | Cue::Pass, ..]
        ),
        "{cues:?}"
    );
    assert!(
        !cues.contains(&Cue::CoverUp),
        "the screen stays with the one person"
    );
}

#[test]
fn a_take_back_is_silent_and_a_resumed_game_replays_nothing() {
    let (mut m, mut ear) = scene::<Ovo>(
        "players=2 turn=0 board=BB.B../....B./B...A./B...../....../AAAAA.",
        Sharing::PassAndPlay,
    );
    m.reveal();
    ear.listen(&m, 0);
    play(&mut m, &mut ear, 0, "a1-a2");
    m.undo(0).unwrap();
    // The cover (up for the next player) comes down for the mover again: no move sounds.
    assert_eq!(ear.listen(&m, 0).cues, [Cue::Reveal]);
    // A fresh ear on a match under way hears only the cover.
    m.cover();
    assert_eq!(Ear::new().listen(&m, 0).cues, [Cue::CoverUp]);
}

#[test]
fn every_cue_is_short_and_heard_but_never_loud() {
    for cue in Cue::all() {
        let samples = render(cue, 48_000);
        let ms = length_ms(cue);
        assert_eq!(samples.len(), ms as usize * 48, "{cue:?}");
        if cue.is_ending() {
            assert!(ms < 1200, "{cue:?} lasts {ms} ms");
        } else {
            assert!(ms < 300, "{cue:?} lasts {ms} ms");
        }
        let (p, r) = (peak(&samples), rms(&samples));
        assert!((0.15..=0.6 + 1e-6).contains(&p), "{cue:?} peaks at {p}");
        assert!(r >= 0.03, "{cue:?} is too quiet: rms {r}");
        assert!(samples.iter().all(|s| s.is_finite()));
        // It starts and ends near silence (no click).
        assert!(
            samples[0].abs() < 0.05 && samples[samples.len() - 1].abs() < 0.05,
            "{cue:?}"
        );
    }
}

#[test]
fn different_cues_sound_different() {
    let all = Cue::all();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(render(*a, 8000), render(*b, 8000), "{a:?} and {b:?}");
        }
    }
}

#[test]
fn a_burst_of_cues_follows_one_another_and_stays_short() {
    let burst = [Cue::Hop, Cue::Hop, Cue::Hop, Cue::Flip];
    let at: Vec<u32> = schedule(&burst).into_iter().map(|(ms, _)| ms).collect();
    assert_eq!(at[0], 0);
    assert!(at.windows(2).all(|w| w[1] > w[0]));
    assert!(at[3] <= 330);
}
