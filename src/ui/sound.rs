//! The table's cues on screen: after every change the shell lets an [`Ear`] hear the
//! match on screen (public things only, see `crate::sound`), adds a refusal when a tap
//! was refused, and hands the cues to the platform's speaker, as the settings allow.

use super::play::Table;
use crate::platform::audio::Speaker;
use crate::sound::{Cue, Ear, Heard};
use crate::store::Settings;

/// What the shell keeps for the sound: the ear on the table on screen, the speaker, and
/// whether the last tap was refused.
#[derive(Default)]
pub struct Sound {
    ear: Ear,
    /// Which table the ear follows (its address): another table starts a new ear.
    following: usize,
    speaker: Speaker,
    refused: bool,
    /// Everything heard since the start, for tests and the frame bench.
    heard: Vec<Cue>,
    /// How many cues went to the speaker, and buzzes to the vibrator (tests).
    played: usize,
    buzzed: usize,
}

impl Sound {
    /// The last tap was refused: the next change sounds the refusal first.
    pub fn refused(&mut self) {
        self.refused = true;
    }

    /// After a change: hears `table` and plays what changed, if sound is on; buzzes if
    /// vibration is. `quiet`: nothing is played (a kiosk's demo game runs by itself).
    pub fn after_change(
        &mut self,
        table: Option<&dyn Table>,
        settings: &Settings,
        kiosk: bool,
        quiet: bool,
    ) {
        let heard = match table {
            Some(table) => {
                let key = table as *const dyn Table as *const () as usize;
                if key != self.following {
                    self.following = key;
                    self.ear = Ear::new();
                }
                table.heard(&mut self.ear)
            }
            None => {
                self.following = 0;
                Heard::default()
            }
        };
        self.sound(heard, settings, kiosk, quiet);
    }

    /// Plays what a table that keeps its own ear heard (the networked Omiga table, whose
    /// ear lives and ends with its game), after the refusal if a tap was refused: the
    /// same way out as [`Sound::after_change`].
    pub fn after_heard(&mut self, heard: Heard, settings: &Settings, kiosk: bool) {
        self.sound(heard, settings, kiosk, false);
    }

    fn sound(&mut self, more: Heard, settings: &Settings, kiosk: bool, quiet: bool) {
        let mut heard = Heard::default();
        if std::mem::take(&mut self.refused) {
            heard.cues.push(Cue::Refused);
        }
        heard.cues.extend(more.cues);
        heard.buzz |= more.buzz;
        if heard.is_empty() || quiet {
            return;
        }
        self.heard.extend(&heard.cues);
        if settings.sound_on(kiosk) {
            self.played += heard.cues.len();
            self.speaker.play(&heard.cues, settings.volume_factor());
        }
        if heard.buzz && settings.vibration {
            self.buzzed += 1;
            self.speaker.buzz();
        }
    }

    /// How many cues were handed to the speaker since the start (none while sound is
    /// off or a kiosk's demo runs).
    pub fn played(&self) -> usize {
        self.played
    }

    /// How many times the phone was asked to buzz since the start.
    pub fn buzzed(&self) -> usize {
        self.buzzed
    }

    /// Every cue heard since the app started (played or, with sound off, not).
    pub fn heard(&self) -> &[Cue] {
        &self.heard
    }
}
