//! Where the table's cues are heard (src/sound makes them) and the phone buzzes.
//!
//! - The desktop and Android (`device`): a sound thread of its own opens the output on
//!   the first cue, renders each cue at the output's rate and mixes what is playing: on
//!   Linux into ALSA's library opened at run time (`alsa`: nothing of ALSA is needed to
//!   build), elsewhere into a cpal stream (`cpal_out`: AAudio, WASAPI, CoreAudio). The UI
//!   thread only sends a message. No device, or one that will not open: nothing is played
//!   and nothing is said beyond one calm line (`note`), and nothing panics.
//! - The browser (`web`): the page's Web Audio `AudioContext`, made on the first cue (that
//!   comes from a tap, which browsers require before a page may play), each cue an
//!   `AudioBuffer` started at its time.
//!
//! Buzzing is `platform::vibrator`'s (Android's `Vibrator` through JNI, the browser's
//! `navigator.vibrate`), outside this file so that Android's half compiles without the UI.

use crate::sound::{schedule, Cue};

#[cfg(target_os = "linux")]
mod alsa;
#[cfg(not(any(target_os = "linux", target_arch = "wasm32")))]
mod cpal_out;
#[cfg(not(target_arch = "wasm32"))]
mod device;
mod mix;
#[cfg(target_arch = "wasm32")]
mod web;

/// Plays cues on this device's sound output, if it has one.
pub struct Speaker {
    #[cfg(not(target_arch = "wasm32"))]
    out: Option<std::sync::mpsc::Sender<mix::Request>>,
    #[cfg(target_arch = "wasm32")]
    web: Option<web::Web>,
}

impl Default for Speaker {
    fn default() -> Self {
        Self::new()
    }
}

impl Speaker {
    /// A speaker that opens nothing until the first cue.
    pub fn new() -> Self {
        Speaker {
            #[cfg(not(target_arch = "wasm32"))]
            out: None,
            #[cfg(target_arch = "wasm32")]
            web: None,
        }
    }

    /// Plays `cues` one after another (see `sound::schedule`) at `volume` (0 to 1).
    pub fn play(&mut self, cues: &[Cue], volume: f32) {
        if cues.is_empty() || volume <= 0.0 {
            return;
        }
        let volume = volume.min(1.0);
        #[cfg(not(target_arch = "wasm32"))]
        {
            let out = self.out.get_or_insert_with(device::open);
            for (at, cue) in schedule(cues) {
                // The stream is gone (no device): nothing to play, nothing to say again.
                let _ = out.send((at, cue, volume));
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            if self.web.is_none() {
                self.web = web::Web::open();
            }
            if let Some(web) = self.web.as_mut() {
                web.play(&schedule(cues), volume);
            }
        }
    }

    /// A short vibration, where the device has a vibrator the app can reach (Android,
    /// the browser on a phone).
    pub fn buzz(&self) {
        super::vibrator::buzz(super::vibrator::BUZZ_MS);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use crate::sound::Cue;

    /// ALSA's configuration for the test: the default output is the `null` device,
    /// which takes samples and plays them nowhere (CI machines have no sound card),
    /// behind ALSA's `file` plugin, which keeps a copy of every sample written.
    fn null_config(copy: &std::path::Path) -> String {
        format!(
            "pcm.!default {{ type file slave {{ pcm {{ type null }} }} file \"{}\" format \"raw\" }}\n\
             ctl.!default {{ type hw card 0 }}\n",
            copy.display()
        )
    }

    #[test]
    fn the_desktop_plays_a_game_s_cues_through_alsa_s_null_device() {
        // ALSA reads its configuration once per process: the playing runs in a child
        // process of this test binary with `ALSA_CONFIG_PATH` set, so no other test's
        // environment is touched.
        let dir = std::env::temp_dir().join(format!("hotseat-alsa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let conf = dir.join("asound.conf");
        let copy = dir.join("played.raw");
        std::fs::write(&conf, null_config(&copy)).unwrap();
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "platform::audio::tests::plays_into_the_default_device",
                "--ignored",
                "--nocapture",
            ])
            .env("ALSA_CONFIG_PATH", &conf)
            .output()
            .unwrap();
        let played = std::fs::read(&copy).unwrap_or_default();
        let _ = std::fs::remove_dir_all(&dir);
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{text}");
        assert!(
            text.contains("1 passed"),
            "the child ran the playing: {text}"
        );
        assert!(
            !text.contains("hotseat:"),
            "nothing alarming was said: {text}"
        );
        // What reached the device: 16-bit mono at 48 kHz, the cues one after another
        // (at least as long as their schedule) and loud enough to hear.
        let samples: Vec<i16> = played
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        let span_ms = crate::sound::schedule(&CUES)
            .last()
            .map(|&(at, cue)| at + crate::sound::synth::length_ms(cue))
            .unwrap_or(0);
        assert!(
            samples.len() >= span_ms as usize * 48,
            "{} frames reached the device for {span_ms} ms of cues",
            samples.len()
        );
        let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0);
        assert!(peak > 3000, "the cues were heard, peak {peak} of 32767");
    }

    const CUES: [Cue; 5] = [Cue::Step, Cue::Hop, Cue::Flip, Cue::CoverUp, Cue::Won];

    /// Run by the test above, in its own process, on the device ALSA was given.
    #[test]
    #[ignore = "run by the_desktop_plays_a_game_s_cues_through_alsa_s_null_device"]
    fn plays_into_the_default_device() {
        super::device::play_through_default(&CUES).expect("the null device plays");
    }

    #[test]
    fn a_speaker_without_any_device_plays_nothing_and_does_not_panic() {
        // Whatever this machine has, playing never fails loudly: the speaker sends and
        // returns at once.
        let mut speaker = super::Speaker::new();
        speaker.play(&[Cue::Refused, Cue::Peek], 0.5);
        speaker.play(&[], 0.5);
        speaker.buzz();
    }
}
