//! The running game on disk: `current-game.json`, written after every action, with the
//! previous save kept as `current-game.json.bak`. A save that cannot be read is never
//! deleted: it is renamed aside and the player is told where it went.

use super::write_atomically;
use crate::platform::storage;
use crate::session::SavedGame;
use std::path::{Path, PathBuf};

/// The running game's file in the data folder.
pub const SAVE_FILE: &str = "current-game.json";
/// The save before the last one.
pub const BACKUP_FILE: &str = "current-game.json.bak";

/// Why a save could not be used, and where the file was put.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSave {
    /// What was wrong, for the log.
    pub reason: String,
    /// Where the unreadable file was kept.
    pub kept_as: PathBuf,
    /// Whether a backup exists that may be tried instead.
    pub backup_available: bool,
}

/// Saves the running game: the old save becomes the backup, the new one replaces it
/// atomically.
pub fn save(dir: &Path, game: &SavedGame) -> std::io::Result<()> {
    let json = serde_json::to_vec(game)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    let current = dir.join(SAVE_FILE);
    if storage::exists(&current) {
        storage::rename(&current, &dir.join(BACKUP_FILE))?;
    }
    write_atomically(&current, &json)
}

/// Reads the running game's save: `Ok(None)` when there is none.
pub fn load(dir: &Path) -> Result<Option<SavedGame>, BadSave> {
    read(dir, SAVE_FILE)
}

/// Reads the backup save (offered when the main save is bad).
pub fn load_backup(dir: &Path) -> Result<Option<SavedGame>, BadSave> {
    read(dir, BACKUP_FILE)
}

/// The running game's save for looking at it (the history's "game in progress"), if it
/// reads. Unlike [`load`] it never moves a damaged file: "Continue" deals with that.
pub fn peek(dir: &Path) -> Option<SavedGame> {
    let bytes = storage::read(&dir.join(SAVE_FILE)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Whether a running game is saved (the home screen's "Continue").
pub fn exists(dir: &Path) -> bool {
    storage::exists(&dir.join(SAVE_FILE)) || storage::exists(&dir.join(BACKUP_FILE))
}

/// Removes the running game's saves (the game ended or was abandoned on purpose).
pub fn clear(dir: &Path) {
    for name in [SAVE_FILE, BACKUP_FILE] {
        let _ = storage::remove(&dir.join(name));
    }
}

/// Puts a save that parsed but failed to replay aside, like an unreadable one.
pub fn set_aside(dir: &Path, name: &str, reason: String) -> BadSave {
    let from = dir.join(name);
    let kept_as = aside_name(dir, name);
    let kept_as = match storage::rename(&from, &kept_as) {
        Ok(()) => kept_as,
        Err(_) => from,
    };
    BadSave {
        reason,
        kept_as,
        backup_available: name != BACKUP_FILE && storage::exists(&dir.join(BACKUP_FILE)),
    }
}

fn read(dir: &Path, name: &str) -> Result<Option<SavedGame>, BadSave> {
    let path = dir.join(name);
    let bytes = match storage::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(set_aside(
                dir,
                name,
                format!("could not read {}: {e}", path.display()),
            ))
        }
    };
    match serde_json::from_slice::<SavedGame>(&bytes) {
        Ok(saved) => Ok(Some(saved)),
        Err(e) => Err(set_aside(
            dir,
            name,
            format!("{} is damaged: {e}", path.display()),
        )),
    }
}

/// `current-game.broken-1700000000.json` (a number added if that name is taken).
fn aside_name(dir: &Path, name: &str) -> PathBuf {
    let stamp = crate::platform::time::unix_seconds();
    let stem = name.trim_end_matches(".bak").trim_end_matches(".json");
    let mut candidate = dir.join(format!("{stem}.broken-{stamp}.json"));
    let mut n = 1;
    while storage::exists(&candidate) {
        candidate = dir.join(format!("{stem}.broken-{stamp}-{n}.json"));
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{ovo::Ovo, Params};
    use crate::session::{Player, Session, Sharing};

    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("hotseat-saves-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn a_game(moves: &[&str]) -> SavedGame {
        let players = Player::people(&["Anna", "Boris"]);
        let mut s: Session<Ovo> = Session::start(
            Params::new().with("players", 2),
            players,
            Sharing::PassAndPlay,
        )
        .unwrap();
        for (i, m) in moves.iter().enumerate() {
            s.reveal();
            s.act(i % 2, &m.parse().unwrap()).unwrap();
        }
        s.to_saved()
    }

    #[test]
    fn the_previous_save_is_kept_as_a_backup() {
        let d = dir("backup");
        assert_eq!(load(&d), Ok(None));
        assert!(!exists(&d));
        let first = a_game(&["a1-a2"]);
        let second = a_game(&["a1-a2", "a6-a5"]);
        save(&d, &first).unwrap();
        save(&d, &second).unwrap();
        assert!(exists(&d));
        assert_eq!(load(&d), Ok(Some(second)));
        assert_eq!(load_backup(&d), Ok(Some(first)));
        clear(&d);
        assert!(!exists(&d));
    }

    #[test]
    fn a_save_cut_at_any_length_is_set_aside_and_the_backup_offered() {
        let d = dir("cut");
        let good = a_game(&["a1-a2", "a6-a5", "b1-b2"]);
        let bytes = serde_json::to_vec(&good).unwrap();
        for len in 0..bytes.len() {
            save(&d, &good).unwrap();
            save(&d, &good).unwrap(); // the first becomes the backup: a whole save
            std::fs::write(d.join(SAVE_FILE), &bytes[..len]).unwrap();
            let bad = load(&d).unwrap_err();
            assert!(bad.backup_available, "cut at {len}");
            assert!(bad.kept_as.exists(), "the damaged file is kept");
            assert_eq!(std::fs::read(&bad.kept_as).unwrap(), &bytes[..len]);
            assert!(!d.join(SAVE_FILE).exists());
            assert_eq!(load_backup(&d), Ok(Some(good.clone())));
            std::fs::remove_file(&bad.kept_as).unwrap();
        }
    }

    #[test]
    fn random_bytes_never_crash_the_loader() {
        use rand::Rng;
        let d = dir("noise");
        let mut rng = crate::games::rng_from_seed(1);
        for _ in 0..300 {
            let len = rng.random_range(0..400);
            let noise: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            std::fs::write(d.join(SAVE_FILE), &noise).unwrap();
            let bad = load(&d).unwrap_err();
            assert!(!bad.backup_available);
            std::fs::remove_file(&bad.kept_as).unwrap();
        }
    }
}
