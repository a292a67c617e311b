//! What every output plays: each cue rendered once at the output's rate, and the voices
//! playing summed into mono frames. The desktop's outputs (`alsa`, `cpal_out`) take their
//! samples from a [`Mixer`]; the browser's Web Audio mixes by itself and uses only
//! [`Rendered`].
// The browser builds only `Rendered` of this file.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

use crate::sound::{synth, Cue};
use std::sync::Arc;

/// The samples of `cue` at `rate`, made once per cue and rate.
#[derive(Default)]
pub struct Rendered {
    made: std::collections::HashMap<Cue, Arc<[f32]>>,
}

impl Rendered {
    /// The samples of `cue` at `rate` frames a second.
    pub fn get(&mut self, cue: Cue, rate: u32) -> Arc<[f32]> {
        self.made
            .entry(cue)
            .or_insert_with(|| synth::render(cue, rate).into())
            .clone()
    }
}

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
