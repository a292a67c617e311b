//! What kiosk mode keeps on the device: the staff PIN's hash, the idle time, whether games
//! are counted (`kiosk.json`), and the counts per title (`kiosk-counts.json`, no names).

use super::write_atomically;
use crate::kiosk::PinRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The kiosk settings file's name inside the data folder.
pub const KIOSK_FILE: &str = "kiosk.json";
/// The games-per-title counts file's name inside the data folder.
pub const COUNTS_FILE: &str = "kiosk-counts.json";
/// Idle times staff may pick, in seconds.
pub const IDLE_CHOICES: [u32; 4] = [60, 120, 300, 600];

/// The kiosk's own settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct KioskConfig {
    /// The staff PIN's hash (`None`: not set yet; the next kiosk start asks for one).
    pub pin: Option<PinRecord>,
    /// Idle time before "Still playing?", in seconds.
    pub idle_seconds: u32,
    /// Whether finished games are counted per title.
    pub count_games: bool,
}

impl Default for KioskConfig {
    fn default() -> Self {
        KioskConfig {
            pin: None,
            idle_seconds: 120,
            count_games: false,
        }
    }
}

impl KioskConfig {
    /// Reads `kiosk.json` from `dir`; missing gives the defaults, damaged gives the
    /// defaults and a note (the PIN is then asked for again, which only staff can answer
    /// at the device).
    pub fn load(dir: &Path) -> (KioskConfig, Option<String>) {
        let path = dir.join(KIOSK_FILE);
        match crate::platform::storage::read_to_string(&path) {
            Ok(text) => match serde_json::from_str::<KioskConfig>(&text) {
                Ok(mut c) => {
                    if !IDLE_CHOICES.contains(&c.idle_seconds) {
                        c.idle_seconds = 120;
                    }
                    (c, None)
                }
                Err(e) => (
                    KioskConfig::default(),
                    Some(format!("kiosk: {} is damaged ({e})", path.display())),
                ),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (KioskConfig::default(), None),
            Err(e) => (
                KioskConfig::default(),
                Some(format!("kiosk: could not read {}: {e}", path.display())),
            ),
        }
    }

    /// Writes `kiosk.json` to `dir` atomically.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        let json = serde_json::to_vec_pretty(self)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        write_atomically(&dir.join(KIOSK_FILE), &json)
    }
}

/// Games finished per title (`ovo`, `iota`, `omiga`).
pub type Counts = BTreeMap<String, u64>;

/// The counts in `dir` (empty if none or unreadable).
pub fn load_counts(dir: &Path) -> Counts {
    crate::platform::storage::read_to_string(&dir.join(COUNTS_FILE))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Adds one finished game of `game` to the counts in `dir`.
pub fn count_game(dir: &Path, game: &str) -> std::io::Result<Counts> {
    let mut counts = load_counts(dir);
    *counts.entry(game.to_string()).or_insert(0) += 1;
    let json = serde_json::to_vec_pretty(&counts)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    write_atomically(&dir.join(COUNTS_FILE), &json)?;
    Ok(counts)
}

/// `hotseat kiosk-reset-pin`: forgets the staff PIN; the next kiosk start asks for a new one.
pub fn reset_pin(dir: &Path) -> Result<String, String> {
    let (mut config, note) = KioskConfig::load(dir);
    if let Some(note) = note {
        crate::note!("{note}");
    }
    config.pin = None;
    config
        .save(dir)
        .map_err(|e| format!("could not write {}: {e}", dir.join(KIOSK_FILE).display()))?;
    Ok(format!(
        "The staff PIN was reset in {}; the next kiosk start asks for a new one.",
        dir.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("hotseat-kiosk-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_pin_survives_a_restart_and_reset_forgets_it() {
        let dir = temp_dir("pin");
        let config = KioskConfig {
            pin: Some(PinRecord::with_salt("4321", b"salt", 50)),
            idle_seconds: 300,
            count_games: true,
        };
        config.save(&dir).unwrap();
        let (back, note) = KioskConfig::load(&dir);
        assert_eq!((back.clone(), note), (config, None));
        assert!(back.pin.unwrap().verify("4321"));
        reset_pin(&dir).unwrap();
        let (after, _) = KioskConfig::load(&dir);
        assert_eq!(after.pin, None);
        assert_eq!(after.idle_seconds, 300);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn damaged_files_give_defaults() {
        let dir = temp_dir("damaged");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(KIOSK_FILE), b"{\"idle_seconds\": 7}").unwrap();
        assert_eq!(KioskConfig::load(&dir).0.idle_seconds, 120);
        std::fs::write(dir.join(KIOSK_FILE), b"{nope").unwrap();
        let (c, note) = KioskConfig::load(&dir);
        assert_eq!(c, KioskConfig::default());
        assert!(note.is_some());
        std::fs::write(dir.join(COUNTS_FILE), b"[1,2]").unwrap();
        assert!(load_counts(&dir).is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn counts_add_up_per_title() {
        let dir = temp_dir("counts");
        count_game(&dir, "ovo").unwrap();
        count_game(&dir, "iota").unwrap();
        let counts = count_game(&dir, "ovo").unwrap();
        assert_eq!(counts.get("ovo"), Some(&2));
        assert_eq!(load_counts(&dir), counts);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
