//! The player's settings and remembered names, kept in `settings.json`.

use super::write_atomically;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The settings file's name inside the data folder.
pub const SETTINGS_FILE: &str = "settings.json";

/// The app's language: the system's, or pinned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Follow the system language (Russian if it is Russian, else English).
    #[default]
    System,
    /// English.
    En,
    /// Russian.
    Ru,
}

impl Language {
    /// The language code to show, resolving `System` from a locale string like `ru_RU.UTF-8`.
    pub fn resolve(self, system_locale: Option<&str>) -> &'static str {
        match self {
            Language::En => "en",
            Language::Ru => "ru",
            Language::System => match system_locale {
                Some(l) if l.to_ascii_lowercase().starts_with("ru") => "ru",
                _ => "en",
            },
        }
    }

    /// The code stored in the UI (`""` for the system language).
    pub fn code(self) -> &'static str {
        match self {
            Language::System => "",
            Language::En => "en",
            Language::Ru => "ru",
        }
    }

    /// The language for a UI code; anything unknown follows the system.
    pub fn from_code(code: &str) -> Self {
        match code {
            "en" => Language::En,
            "ru" => Language::Ru,
            _ => Language::System,
        }
    }
}

/// The colour theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ThemeChoice {
    /// Warm paper table.
    #[default]
    Light,
    /// Dark table for evenings.
    Dark,
    /// Black and white with yellow accents, 7:1 contrast.
    HighContrast,
}

/// The variant settings of docs/rules.md that a new game starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct VariantDefaults {
    /// `ovo.no_move_back`.
    pub ovo_no_move_back: bool,
    /// `omiga.table`: 0 = 7×8, 1 = 9×10, 2 = 11×12.
    pub omiga_table: u8,
    /// `omiga.allow_rotation`.
    pub omiga_allow_rotation: bool,
    /// `omiga.free_discard`.
    pub omiga_free_discard: bool,
}

impl Default for VariantDefaults {
    fn default() -> Self {
        VariantDefaults {
            ovo_no_move_back: true,
            omiga_table: 1,
            omiga_allow_rotation: true,
            omiga_free_discard: false,
        }
    }
}

impl VariantDefaults {
    /// The Omiga table as the referee's `table=` value.
    pub fn omiga_table_param(&self) -> &'static str {
        match self.omiga_table {
            0 => "7x8",
            2 => "11x12",
            _ => "9x10",
        }
    }
}

/// Everything remembered between runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The file format's version, so that a newer file is recognised.
    pub version: u32,
    /// The language.
    pub language: Language,
    /// The colour theme.
    pub theme: ThemeChoice,
    /// The variant defaults.
    pub variants: VariantDefaults,
    /// The names players typed last, by seat (kept between games).
    pub player_names: Vec<String>,
    /// The colour each seat picked last (indices into the seat palette).
    pub player_colors: Vec<u8>,
    /// Who played each seat last: 0 a person, 1–3 the app at easy, medium, hard.
    pub player_kinds: Vec<u8>,
    /// Start in kiosk mode at launch (as with `--kiosk`).
    pub start_in_kiosk: bool,
    /// The table's sound cues (docs/sound.md): `None` until someone chooses, which means
    /// on, except in kiosk mode (a café may want quiet; staff turn them on in Settings).
    pub sound: Option<bool>,
    /// The cues' volume in percent (the screen offers 30, 60 and 100).
    pub volume: u8,
    /// A short vibration when a seat's turn comes and at Omiga's winning card.
    pub vibration: bool,
    /// The step each game's lesson was left at (by game name, from 0), so that a lesson
    /// resumes where it was left (docs/lessons.md).
    pub lessons: std::collections::BTreeMap<String, usize>,
    /// Omiga's puzzle of the day against the clock (docs/puzzles.md); off by default.
    pub puzzle_clock: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            version: 1,
            language: Language::System,
            theme: ThemeChoice::Light,
            variants: VariantDefaults::default(),
            player_names: Vec::new(),
            player_colors: Vec::new(),
            player_kinds: Vec::new(),
            start_in_kiosk: false,
            sound: None,
            volume: 60,
            vibration: true,
            lessons: std::collections::BTreeMap::new(),
            puzzle_clock: false,
        }
    }
}

impl Settings {
    /// Reads the settings from `dir`. A missing file gives the defaults quietly; an
    /// unreadable or corrupt one gives the defaults and a line saying so (returned, and
    /// written to the log by the caller). Never fails.
    pub fn load(dir: &Path) -> (Settings, Option<String>) {
        let path = dir.join(SETTINGS_FILE);
        let text = match crate::platform::storage::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return (Settings::default(), None)
            }
            Err(e) => {
                return (
                    Settings::default(),
                    Some(format!(
                        "settings: could not read {}: {e}; using defaults",
                        path.display()
                    )),
                )
            }
        };
        match serde_json::from_str::<Settings>(&text) {
            Ok(s) => (s.sanitized(), None),
            Err(e) => (
                Settings::default(),
                Some(format!(
                    "settings: {} is damaged ({e}); using defaults",
                    path.display()
                )),
            ),
        }
    }

    /// Writes the settings to `dir` atomically.
    pub fn save(&self, dir: &Path) -> std::io::Result<PathBuf> {
        let path = dir.join(SETTINGS_FILE);
        let json = serde_json::to_vec_pretty(self)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        write_atomically(&path, &json)?;
        Ok(path)
    }

    /// The name remembered for `seat`, or the default "Player N".
    pub fn name_for(&self, seat: usize, default: impl FnOnce(usize) -> String) -> String {
        match self.player_names.get(seat) {
            Some(n) if !n.trim().is_empty() => n.clone(),
            _ => default(seat),
        }
    }

    /// Whether the cues play: as chosen, or by default on except in kiosk mode. Sound is
    /// on unless turned off, so a screen reader's user hears the cues with nothing to set.
    pub fn sound_on(&self, kiosk: bool) -> bool {
        self.sound.unwrap_or(!kiosk)
    }

    /// The cues' volume as a factor (0 to 1).
    pub fn volume_factor(&self) -> f32 {
        f32::from(self.volume.min(100)) / 100.0
    }

    /// Keeps values that came from a file inside their ranges.
    fn sanitized(mut self) -> Self {
        self.volume = self.volume.min(100);
        if self.variants.omiga_table > 2 {
            self.variants.omiga_table = 1;
        }
        self.player_names.truncate(4);
        for name in &mut self.player_names {
            *name = clean_name(name);
        }
        self.player_colors.truncate(4);
        self.player_colors.retain(|c| *c < 4);
        self.player_kinds.truncate(4);
        for kind in &mut self.player_kinds {
            *kind = (*kind).min(3);
        }
        self
    }
}

/// The longest player name kept (long enough for any real name, short enough for a badge).
pub const MAX_NAME_CHARS: usize = 24;

/// A name as typed, trimmed of control characters and cut to [`MAX_NAME_CHARS`].
pub fn clean_name(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME_CHARS)
        .collect::<String>()
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hotseat-settings-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn settings_and_names_survive_a_restart() {
        let dir = temp_dir("roundtrip");
        let mut s = Settings {
            language: Language::Ru,
            theme: ThemeChoice::HighContrast,
            player_names: vec!["Anna".into(), "Борис".into()],
            ..Settings::default()
        };
        s.variants.ovo_no_move_back = false;
        s.save(&dir).unwrap();
        let (back, note) = Settings::load(&dir);
        assert_eq!(note, None);
        assert_eq!(back, s);
        assert_eq!(back.name_for(1, |i| format!("Player {}", i + 1)), "Борис");
        assert_eq!(
            back.name_for(2, |i| format!("Player {}", i + 1)),
            "Player 3"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_file_gives_defaults_quietly() {
        let (s, note) = Settings::load(&temp_dir("missing"));
        assert_eq!(s, Settings::default());
        assert_eq!(note, None);
    }

    #[test]
    fn a_corrupt_file_gives_defaults_and_says_so() {
        let dir = temp_dir("corrupt");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(SETTINGS_FILE),
            b"{\"language\": \"ru\", \"theme\": ",
        )
        .unwrap();
        let (s, note) = Settings::load(&dir);
        assert_eq!(s, Settings::default());
        let note = note.expect("a log line");
        assert!(
            note.contains("damaged") && note.contains("using defaults"),
            "{note}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn hostile_values_are_brought_into_range() {
        let dir = temp_dir("hostile");
        std::fs::create_dir_all(&dir).unwrap();
        let long = "x".repeat(500);
        std::fs::write(
            dir.join(SETTINGS_FILE),
            format!("{{\"variants\":{{\"omiga_table\":9}},\"player_names\":[\"{long}\",\"a\\u0007b\"],\"player_colors\":[1,7]}}"),
        )
        .unwrap();
        let (s, note) = Settings::load(&dir);
        assert_eq!(note, None);
        assert_eq!(s.variants.omiga_table, 1);
        assert_eq!(s.player_names[0].chars().count(), MAX_NAME_CHARS);
        assert_eq!(s.player_names[1], "ab");
        assert_eq!(s.player_colors, vec![1]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn sound_is_on_by_default_except_in_a_kiosk_and_a_choice_is_kept() {
        let s = Settings::default();
        assert!(
            s.sound_on(false),
            "a screen reader's user hears cues unasked"
        );
        assert!(!s.sound_on(true), "a café's tablet starts quiet");
        assert!(s.vibration);
        let dir = temp_dir("sound");
        let chosen = Settings {
            sound: Some(true),
            volume: 30,
            vibration: false,
            ..Settings::default()
        };
        chosen.save(&dir).unwrap();
        let (back, _) = Settings::load(&dir);
        assert_eq!(back, chosen);
        assert!(back.sound_on(true), "staff turned it on for the kiosk");
        std::fs::write(dir.join(SETTINGS_FILE), b"{\"volume\": 250}").unwrap();
        assert_eq!(Settings::load(&dir).0.volume, 100);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_system_language_follows_the_locale() {
        assert_eq!(Language::System.resolve(Some("ru_RU.UTF-8")), "ru");
        assert_eq!(Language::System.resolve(Some("de_DE")), "en");
        assert_eq!(Language::System.resolve(None), "en");
        assert_eq!(Language::Ru.resolve(Some("en_US")), "ru");
    }
}
