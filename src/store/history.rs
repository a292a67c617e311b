//! Finished games (`history.json`) and the statistics drawn from them.

use super::write_atomically;
use crate::platform::storage;
use crate::session::FinishedGame;
use std::collections::BTreeMap;
use std::path::Path;

/// The history file in the data folder.
pub const HISTORY_FILE: &str = "history.json";
/// How many finished games are kept (the oldest go first).
pub const HISTORY_LIMIT: usize = 500;

/// The finished games, oldest first. A damaged file reads as empty, with a log line
/// returned, and is kept aside by the next `record` (never overwritten unseen).
pub fn list(dir: &Path) -> (Vec<FinishedGame>, Option<String>) {
    let path = dir.join(HISTORY_FILE);
    match storage::read(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Vec::new(), None),
        Err(e) => (
            Vec::new(),
            Some(format!("history: could not read {}: {e}", path.display())),
        ),
        Ok(bytes) => match serde_json::from_slice(&bytes) {
            Ok(games) => (games, None),
            Err(e) => (
                Vec::new(),
                Some(format!("history: {} is damaged: {e}", path.display())),
            ),
        },
    }
}

/// Adds a finished game. A damaged history file is renamed aside first, not lost.
pub fn record(dir: &Path, game: FinishedGame) -> std::io::Result<()> {
    let (mut games, note) = list(dir);
    if note.is_some() && storage::exists(&dir.join(HISTORY_FILE)) {
        storage::rename(&dir.join(HISTORY_FILE), &dir.join("history.broken.json"))?;
    }
    games.push(game);
    if games.len() > HISTORY_LIMIT {
        games.drain(..games.len() - HISTORY_LIMIT);
    }
    let json = serde_json::to_vec(&games)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    write_atomically(&dir.join(HISTORY_FILE), &json)
}

/// One player's record in one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerStats {
    /// Games played.
    pub played: u32,
    /// Games won (shared wins included).
    pub won: u32,
    /// The best single turn (IOTA points).
    pub best_turn: i64,
    /// The fastest win, in seconds (Omiga).
    pub fastest_win_secs: Option<u64>,
}

/// Statistics per (player name, game), from the history.
pub fn statistics(games: &[FinishedGame]) -> BTreeMap<(String, String), PlayerStats> {
    let mut stats: BTreeMap<(String, String), PlayerStats> = BTreeMap::new();
    for g in games {
        for (seat, name) in g.names.iter().enumerate() {
            let s = stats.entry((name.clone(), g.game.clone())).or_default();
            s.played += 1;
            s.best_turn = s
                .best_turn
                .max(g.best_turns.get(seat).copied().unwrap_or(0));
            if g.winners.contains(&seat) {
                s.won += 1;
                if let Some(d) = g.duration_secs {
                    s.fastest_win_secs = Some(s.fastest_win_secs.map_or(d, |f| f.min(d)));
                }
            }
        }
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{iota::Iota, Game, Params};
    use crate::session::{Player, SeatKind, Session, Sharing};
    use rand::seq::IndexedRandom;

    fn finished_iota(seed: u64) -> FinishedGame {
        let players = Player::people(&["Anna", "Boris"]);
        let params = Params::new().with("players", 2).with("seed", seed);
        let mut s: Session<Iota> = Session::start(params, players, Sharing::PassAndPlay).unwrap();
        let mut rng = crate::games::rng_from_seed(seed);
        while !s.outcome().is_over() {
            let seat = s.game().to_act()[0];
            // Prefer placing, so that games end by emptying the pile.
            let legal = s.game().legal_actions(seat);
            let places: Vec<_> = legal
                .iter()
                .filter(|a| a.to_string().starts_with("place"))
                .cloned()
                .collect();
            let action = places
                .choose(&mut rng)
                .or_else(|| legal.first())
                .cloned()
                .unwrap();
            s.reveal();
            s.act(seat, &action).unwrap();
        }
        s.finished(1_700_000_000, Some(600)).unwrap()
    }

    #[test]
    fn finished_games_are_listed_and_counted_per_player() {
        let dir = std::env::temp_dir().join(format!("hotseat-history-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let a = finished_iota(1);
        let b = finished_iota(2);
        assert!(
            a.best_turns.iter().any(|t| *t > 0),
            "IOTA turns score points"
        );
        record(&dir, a.clone()).unwrap();
        record(&dir, b.clone()).unwrap();
        let (games, note) = list(&dir);
        assert_eq!(note, None);
        assert_eq!(games, vec![a.clone(), b.clone()]);
        let stats = statistics(&games);
        let anna = &stats[&("Anna".to_string(), "iota".to_string())];
        assert_eq!(anna.played, 2);
        let anna_wins = [&a, &b].iter().filter(|g| g.winners.contains(&0)).count() as u32;
        assert_eq!(anna.won, anna_wins);
        assert_eq!(anna.best_turn, a.best_turns[0].max(b.best_turns[0]));
        // The replay in a history entry is a whole game that reaches its end.
        let replay = Session::<Iota>::from_saved(&b.saved).unwrap();
        assert!(replay.outcome().is_over());
        std::fs::write(dir.join(HISTORY_FILE), b"[{\"broken").unwrap();
        let (games, note) = list(&dir);
        assert!(games.is_empty() && note.unwrap().contains("damaged"));
        record(&dir, a).unwrap();
        assert!(
            dir.join("history.broken.json").exists(),
            "the damaged list was kept"
        );
        assert_eq!(list(&dir).0.len(), 1);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn running_games_have_no_history_entry() {
        let players = vec![
            Player {
                name: "A".into(),
                color: 0,
                kind: SeatKind::Human,
                level: None,
            },
            Player {
                name: "B".into(),
                color: 1,
                kind: SeatKind::Human,
                level: None,
            },
        ];
        let s: Session<Iota> =
            Session::start(Params::new().with("seed", 1), players, Sharing::PassAndPlay).unwrap();
        assert!(s.finished(0, None).is_none());
        assert_eq!(Iota::NAME, s.to_saved().game);
    }
}
