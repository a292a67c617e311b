//! The game setup screen's state: which game, who plays, which variants.

use super::texts::{self, ShellText};
use super::Variants;
use crate::games::registry::GameKind;
use crate::store::{clean_name, Settings, VariantDefaults};

/// What the setup screen holds while players fill it in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SetupState {
    /// Which game.
    pub game: GameKind,
    /// One name per player, by seat.
    pub names: Vec<String>,
    /// One palette colour per player, all different.
    pub colors: Vec<u8>,
    /// Who plays each seat: 0 a person, 1–3 the app at easy, medium, hard.
    pub kinds: Vec<u8>,
    /// The variants for this game, starting from the settings' defaults.
    pub variants: VariantDefaults,
}

/// The app's level for a seat kind of the setup screen (`None`: a person).
pub fn kind_level(kind: u8) -> Option<crate::ai::Level> {
    use crate::ai::Level;
    match kind {
        1 => Some(Level::Easy),
        2 => Some(Level::Medium),
        3 => Some(Level::Hard),
        _ => None,
    }
}

/// The name the app plays under at `level`, e.g. "The app (hard)".
pub fn bot_name(level: crate::ai::Level, language: &str) -> String {
    let level = super::bots::level_word(level, language);
    texts::say(&ShellText::AppSeat { level }, language)
}

/// The setup screen's title.
pub fn title(game: GameKind, language: &str) -> String {
    let game = game.title().to_string();
    texts::say(&ShellText::NewGame { game }, language)
}

/// The name a seat gets when nobody typed one.
pub fn default_name(seat: usize, language: &str) -> String {
    texts::say(&ShellText::Player { n: seat + 1 }, language)
}

impl SetupState {
    /// Setup for `game`, with the names and colours remembered from earlier games.
    pub fn new(game: GameKind, settings: &Settings, language: &str) -> Self {
        let mut s = SetupState {
            game,
            names: Vec::new(),
            colors: Vec::new(),
            kinds: Vec::new(),
            variants: settings.variants,
        };
        s.set_count(game.seat_counts()[0], settings, language);
        s
    }

    /// Changes the number of players (to one the game allows), keeping the names typed.
    pub fn set_count(&mut self, count: usize, settings: &Settings, language: &str) {
        if !self.game.seat_counts().contains(&count) {
            return;
        }
        self.names.truncate(count);
        self.colors.truncate(count);
        self.kinds.truncate(count);
        while self.names.len() < count {
            let seat = self.names.len();
            self.names
                .push(settings.name_for(seat, |i| default_name(i, language)));
            let remembered = settings.player_colors.get(seat).copied();
            let color = remembered
                .filter(|c| !self.colors.contains(c))
                .or_else(|| (0..4).find(|c| !self.colors.contains(c)))
                .unwrap_or(0);
            self.colors.push(color);
            let kind = settings.player_kinds.get(seat).copied().unwrap_or(0).min(3);
            self.kinds.push(kind);
        }
        // At least one person plays.
        if !self.kinds.contains(&0) {
            if let Some(first) = self.kinds.first_mut() {
                *first = 0;
            }
        }
    }

    /// Makes a seat a person (0) or the app at a level (1–3). Refused (false) when it
    /// would leave no person at the table.
    pub fn set_kind(&mut self, seat: usize, kind: u8) -> bool {
        let kind = kind.min(3);
        let others_human = self
            .kinds
            .iter()
            .enumerate()
            .any(|(s, k)| s != seat && *k == 0);
        match self.kinds.get_mut(seat) {
            Some(slot) if kind == 0 || others_human => {
                *slot = kind;
                true
            }
            _ => false,
        }
    }

    /// Sets a player's name as typed (cleaned; empty is allowed while typing).
    pub fn rename(&mut self, seat: usize, name: &str) {
        if let Some(n) = self.names.get_mut(seat) {
            *n = clean_name(name);
        }
    }

    /// Gives a player the next palette colour that nobody else has.
    pub fn next_color(&mut self, seat: usize) {
        let Some(&now) = self.colors.get(seat) else {
            return;
        };
        let next = (1..4u8)
            .map(|d| (now + d) % 4)
            .find(|c| !self.colors.contains(c));
        if let (Some(next), Some(slot)) = (next, self.colors.get_mut(seat)) {
            *slot = next;
        }
    }

    /// The names to play with: an empty name becomes "Player N"; the app plays as
    /// "The app (level)".
    pub fn final_names(&self, language: &str) -> Vec<String> {
        self.names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if let Some(level) = self.kinds.get(i).and_then(|k| kind_level(*k)) {
                    bot_name(level, language)
                } else if n.trim().is_empty() {
                    default_name(i, language)
                } else {
                    n.clone()
                }
            })
            .collect()
    }

    /// Remembers names and colours in the settings for the next game.
    pub fn remember(&self, settings: &mut Settings) {
        for (seat, name) in self.names.iter().enumerate() {
            if settings.player_names.len() <= seat {
                settings.player_names.resize(seat + 1, String::new());
            }
            settings.player_names[seat] = name.clone();
        }
        for (seat, color) in self.colors.iter().enumerate() {
            if settings.player_colors.len() <= seat {
                settings.player_colors.resize(seat + 1, 0);
            }
            settings.player_colors[seat] = *color;
        }
        for (seat, kind) in self.kinds.iter().enumerate() {
            if settings.player_kinds.len() <= seat {
                settings.player_kinds.resize(seat + 1, 0);
            }
            settings.player_kinds[seat] = *kind;
        }
    }

    /// The levels by seat (`None`: a person).
    pub fn levels(&self) -> Vec<Option<crate::ai::Level>> {
        self.kinds.iter().map(|k| kind_level(*k)).collect()
    }
}

/// The variants as the setup and settings screens hold them.
pub fn variants_to_ui(v: &VariantDefaults) -> Variants {
    Variants {
        no_move_back: v.ovo_no_move_back,
        omiga_table: v.omiga_table as i32,
        allow_rotation: v.omiga_allow_rotation,
        free_discard: v.omiga_free_discard,
    }
}

/// The variants from the screens, kept in range.
pub fn variants_from_ui(v: &Variants) -> VariantDefaults {
    VariantDefaults {
        ovo_no_move_back: v.no_move_back,
        omiga_table: v.omiga_table.clamp(0, 2) as u8,
        omiga_allow_rotation: v.allow_rotation,
        omiga_free_discard: v.free_discard,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_names_and_colours_follow_the_game_and_memory() {
        let mut settings = Settings {
            player_names: vec!["Anna".into(), "Boris".into()],
            player_colors: vec![2, 2],
            ..Settings::default()
        };
        let mut s = SetupState::new(GameKind::Ovo, &settings, "en");
        assert_eq!(s.names, vec!["Anna", "Boris"]);
        assert_eq!(s.colors, vec![2, 0], "remembered colours stay distinct");
        s.set_count(3, &settings, "en");
        assert_eq!(s.names.len(), 2, "Ovo has no 3-player game");
        s.set_count(4, &settings, "en");
        assert_eq!(s.names[3], "Player 4");
        s.next_color(0);
        assert_eq!(
            s.colors
                .iter()
                .collect::<std::collections::HashSet<_>>()
                .len(),
            4
        );
        s.rename(1, "  ");
        assert_eq!(s.final_names("en")[1], "Player 2");
        s.remember(&mut settings);
        assert_eq!(settings.player_names.len(), 4);
        assert_eq!(
            SetupState::new(GameKind::Omiga, &settings, "en")
                .names
                .len(),
            2
        );
    }
}
