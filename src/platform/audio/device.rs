//! The desktop's and Android's sound thread: it opens the output when the first cue
//! comes, renders each cue at the output's rate, and mixes whatever is playing. The
//! output itself is `alsa` (Linux, ALSA opened at run time) or `cpal_out` (Android's
//! AAudio, WASAPI, CoreAudio); both take their samples from one [`Mixer`].

use super::Rendered;
use crate::sound::Cue;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

/// A cue to play: when (ms from now), which, at what volume.
pub type Request = (u32, Cue, f32);

/// One cue being played: its samples, where it is, its volume.
pub struct Voice {
    samples: Arc<[f32]>,
    /// Frames to wait before it starts, then the next frame to play.
    wait: usize,
    at: usize,
    gain: f32,
}

/// Sums the voices that are playing into mono frames, clamped to full scale.
#[derive(Default)]
pub struct Mixer {
    playing: Vec<Voice>,
}

impl Mixer {
    /// Starts `voice` with the next frame asked for.
    pub fn add(&mut self, voice: Voice) {
        self.playing.push(voice);
    }

    /// Whether nothing is left to play (the output may fall silent).
    pub fn is_idle(&self) -> bool {
        self.playing.is_empty()
    }

    /// Fills `out` with the next frames, one mono sample each.
    pub fn fill(&mut self, out: &mut [f32]) {
        for frame in out.iter_mut() {
            let mut sum = 0f32;
            for v in self.playing.iter_mut() {
                if v.wait > 0 {
                    v.wait -= 1;
                } else if let Some(s) = v.samples.get(v.at) {
                    sum += s * v.gain;
                    v.at += 1;
                }
            }
            *frame = sum.clamp(-1.0, 1.0);
        }
        self.playing.retain(|v| v.at < v.samples.len());
    }
}

/// Turns requests into voices at one output rate, each cue rendered once.
pub struct Voices {
    rate: u32,
    rendered: Rendered,
}

impl Voices {
    /// Voices for an output playing `rate` frames a second.
    pub fn new(rate: u32) -> Self {
        Voices {
            rate,
            rendered: Rendered::default(),
        }
    }

    /// The voice that plays `cue` at `gain`, `at_ms` from now.
    pub fn voice(&mut self, (at_ms, cue, gain): Request) -> Voice {
        Voice {
            samples: self.rendered.get(cue, self.rate),
            wait: (u64::from(at_ms) * u64::from(self.rate) / 1000) as usize,
            at: 0,
            gain,
        }
    }
}

/// Starts the sound thread; cues sent before the device opened are played once it has,
/// and dropped if it never does.
pub fn open() -> Sender<Request> {
    let (tx, rx) = channel();
    let started = std::thread::Builder::new()
        .name("hotseat-sound".into())
        .spawn(move || {
            if let Err(why) = run(rx) {
                crate::note!("no sound: {why}");
            }
        });
    if started.is_err() {
        crate::note!("no sound: the sound thread could not start");
    }
    tx
}

/// Opens the default output and feeds it until the app lets go of the sender.
pub fn run(cues: Receiver<Request>) -> Result<(), String> {
    if nothing_to_play_on() {
        return Err("this machine has no sound card".into());
    }
    #[cfg(target_os = "linux")]
    return super::alsa::play(cues);
    #[cfg(not(target_os = "linux"))]
    return super::cpal_out::play(cues);
}

/// Linux with no sound card, no sound server's ALSA plugin and no ALSA configuration of
/// its own (a CI machine, a server): ALSA would print its own errors on opening
/// "default", so it is not asked.
#[cfg(target_os = "linux")]
fn nothing_to_play_on() -> bool {
    use std::path::Path;
    let configured = std::env::var_os("ALSA_CONFIG_PATH").is_some()
        || Path::new("/etc/asound.conf").exists()
        || std::env::var_os("HOME").is_some_and(|h| Path::new(&h).join(".asoundrc").exists())
        || ["/etc/alsa/conf.d", "/usr/share/alsa/alsa.conf.d"]
            .iter()
            .any(|d| std::fs::read_dir(d).is_ok_and(|mut e| e.next().is_some()));
    let cards = std::fs::read_to_string("/proc/asound/cards").unwrap_or_default();
    !configured && (cards.trim().is_empty() || cards.contains("no soundcards"))
}

#[cfg(not(target_os = "linux"))]
fn nothing_to_play_on() -> bool {
    false
}

/// Tests: plays `cues` on the default output and returns once they were handed to it and
/// have had the time to play.
#[cfg(test)]
pub fn play_through_default(cues: &[Cue]) -> Result<(), String> {
    let (tx, rx) = channel();
    let mut last = 0;
    for (at, cue) in crate::sound::schedule(cues) {
        let _ = tx.send((at, cue, 0.8));
        last = at + crate::sound::synth::length_ms(cue);
    }
    let wait = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(u64::from(last) + 200));
        drop(tx);
    });
    let result = run(rx);
    let _ = wait.join();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mixer_sums_waits_and_lets_finished_voices_go() {
        let mut voices = Voices::new(1000);
        let mut mixer = Mixer::default();
        // A step now and a hop 2 ms later, at 1000 frames a second.
        mixer.add(voices.voice((0, Cue::Step, 1.0)));
        mixer.add(voices.voice((2, Cue::Hop, 0.5)));
        let step = crate::sound::synth::render(Cue::Step, 1000);
        let hop = crate::sound::synth::render(Cue::Hop, 1000);
        let mut out = vec![0f32; 4];
        mixer.fill(&mut out);
        assert_eq!(out[0], step[0].clamp(-1.0, 1.0));
        assert_eq!(out[1], step[1].clamp(-1.0, 1.0));
        assert_eq!(out[2], (step[2] + hop[0] * 0.5).clamp(-1.0, 1.0));
        let mut rest = vec![0f32; step.len().max(hop.len() + 2)];
        mixer.fill(&mut rest);
        assert!(mixer.is_idle(), "both cues played to their end");
        let mut silence = [1f32; 8];
        mixer.fill(&mut silence);
        assert_eq!(silence, [0f32; 8], "nothing playing is silence");
    }
}
