//! How each cue sounds: a few notes (an oscillator gliding between two pitches under a
//! short attack and an exponential decay) and bursts of noise, summed into mono `f32`
//! samples. Made here from these numbers; no sound file comes from anywhere.

use super::Cue;

/// An oscillator's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wave {
    /// Pure and soft.
    Sine,
    /// A little brighter (odd harmonics, falling fast).
    Triangle,
    /// Buzzy, for refusals.
    Square,
    /// A click or a shuffle (a fixed pseudo-random sequence, so every run sounds alike).
    Noise,
}

/// One note of a cue.
#[derive(Debug, Clone, Copy)]
struct Note {
    /// Start, in milliseconds from the cue's start.
    at: u32,
    /// Length in milliseconds.
    ms: u32,
    /// Pitch at the start and at the end, in hertz (ignored by noise).
    from: f32,
    to: f32,
    wave: Wave,
    /// Loudness before the cue is scaled to its level.
    gain: f32,
}

const fn note(at: u32, ms: u32, from: f32, to: f32, wave: Wave, gain: f32) -> Note {
    Note {
        at,
        ms,
        from,
        to,
        wave,
        gain,
    }
}

use Wave::{Noise, Sine, Square, Triangle};

/// The notes of `cue`, and the peak level it is scaled to (full scale is 1.0).
fn score(cue: Cue) -> (Vec<Note>, f32) {
    match cue {
        Cue::Step => (vec![note(0, 70, 520.0, 480.0, Triangle, 1.0)], 0.45),
        Cue::Hop => (vec![note(0, 80, 640.0, 900.0, Sine, 1.0)], 0.45),
        Cue::Flip => (
            vec![
                note(0, 40, 0.0, 0.0, Noise, 0.5),
                note(10, 130, 300.0, 620.0, Triangle, 1.0),
            ],
            0.5,
        ),
        Cue::Peek => (
            vec![
                note(0, 90, 880.0, 880.0, Sine, 1.0),
                note(70, 110, 1175.0, 1175.0, Sine, 0.8),
            ],
            0.3,
        ),
        Cue::OvoRight => (
            vec![
                note(0, 110, 523.0, 523.0, Triangle, 1.0),
                note(80, 110, 659.0, 659.0, Triangle, 1.0),
                note(160, 130, 784.0, 784.0, Triangle, 1.0),
            ],
            0.55,
        ),
        Cue::OvoWrong => (
            vec![
                note(0, 130, 392.0, 370.0, Square, 0.6),
                note(120, 160, 294.0, 247.0, Square, 0.6),
            ],
            0.45,
        ),
        Cue::Pass => (vec![note(0, 110, 330.0, 300.0, Sine, 1.0)], 0.35),
        Cue::CardPlaced => (
            vec![
                note(0, 25, 0.0, 0.0, Noise, 1.0),
                note(0, 60, 1400.0, 1000.0, Sine, 0.4),
            ],
            0.4,
        ),
        Cue::LineScored { points } => {
            // One semitone higher per point: 3 points a little above A4, 24 two octaves.
            let pitch = 440.0 * 2f32.powf(f32::from(points.min(24)) / 12.0);
            (vec![note(0, 120, pitch, pitch, Sine, 1.0)], 0.45)
        }
        Cue::Lot => (
            vec![
                note(0, 220, 660.0, 660.0, Triangle, 1.0),
                note(0, 220, 990.0, 990.0, Sine, 0.7),
                note(0, 220, 1320.0, 1320.0, Sine, 0.4),
            ],
            0.55,
        ),
        Cue::WildsSwapped => (
            vec![
                note(0, 80, 600.0, 900.0, Sine, 1.0),
                note(80, 80, 900.0, 600.0, Sine, 1.0),
            ],
            0.4,
        ),
        Cue::CardsReturned => (
            vec![
                note(0, 180, 0.0, 0.0, Noise, 0.6),
                note(0, 180, 500.0, 250.0, Triangle, 1.0),
            ],
            0.4,
        ),
        Cue::PlacedNear => (
            vec![
                note(0, 20, 0.0, 0.0, Noise, 0.8),
                note(0, 90, 587.0, 587.0, Triangle, 1.0),
            ],
            0.45,
        ),
        Cue::PlacedFar => (
            vec![
                note(0, 20, 0.0, 0.0, Noise, 0.5),
                note(0, 110, 294.0, 262.0, Sine, 1.0),
            ],
            0.45,
        ),
        Cue::Countdown { left: 0 } => (vec![note(0, 220, 988.0, 988.0, Triangle, 1.0)], 0.5),
        Cue::Countdown { .. } => (vec![note(0, 90, 659.0, 659.0, Sine, 1.0)], 0.4),
        Cue::CoverUp => (vec![note(0, 180, 620.0, 400.0, Sine, 1.0)], 0.35),
        Cue::Reveal => (vec![note(0, 150, 400.0, 620.0, Sine, 1.0)], 0.35),
        Cue::Refused => (
            vec![
                note(0, 70, 180.0, 170.0, Square, 1.0),
                note(100, 70, 180.0, 170.0, Square, 1.0),
            ],
            0.35,
        ),
        Cue::Thinking => (
            vec![
                note(0, 40, 1200.0, 1200.0, Sine, 1.0),
                note(80, 40, 1350.0, 1350.0, Sine, 1.0),
            ],
            0.2,
        ),
        Cue::Won => (
            vec![
                note(0, 140, 523.0, 523.0, Triangle, 1.0),
                note(120, 140, 659.0, 659.0, Triangle, 1.0),
                note(240, 140, 784.0, 784.0, Triangle, 1.0),
                note(360, 520, 1047.0, 1047.0, Triangle, 1.0),
                note(360, 520, 523.0, 523.0, Sine, 0.6),
            ],
            0.6,
        ),
        Cue::Drawn => (
            vec![
                note(0, 200, 523.0, 523.0, Triangle, 1.0),
                note(200, 200, 440.0, 440.0, Triangle, 1.0),
                note(400, 380, 494.0, 494.0, Sine, 1.0),
            ],
            0.5,
        ),
    }
}

/// How long `cue` lasts, in milliseconds.
pub fn length_ms(cue: Cue) -> u32 {
    score(cue).0.iter().map(|n| n.at + n.ms).max().unwrap_or(0)
}

/// `cue` as mono samples at `rate` hertz, peaking at its level (at most 0.6 of full scale,
/// so that a few cues overlapping stay under 1.0 after the volume).
pub fn render(cue: Cue, rate: u32) -> Vec<f32> {
    let (notes, level) = score(cue);
    let rate_f = rate.max(1) as f32;
    let frames = (length_ms(cue) as u64 * u64::from(rate) / 1000) as usize;
    let mut out = vec![0f32; frames];
    for n in &notes {
        let start = (u64::from(n.at) * u64::from(rate) / 1000) as usize;
        let len = (u64::from(n.ms) * u64::from(rate) / 1000) as usize;
        let attack = (rate_f * 0.004) as usize; // 4 ms: no click at the start
        let mut phase = 0f32;
        let mut noise = 0x2545_f491_u32;
        for i in 0..len {
            let Some(slot) = out.get_mut(start + i) else {
                break;
            };
            let t = i as f32 / len.max(1) as f32;
            let freq = n.from + (n.to - n.from) * t;
            phase = (phase + freq / rate_f).fract();
            let value = match n.wave {
                Sine => (phase * std::f32::consts::TAU).sin(),
                Triangle => 1.0 - 4.0 * (phase - 0.5).abs(),
                Square => {
                    if phase < 0.5 {
                        0.6
                    } else {
                        -0.6
                    }
                }
                Noise => {
                    noise ^= noise << 13;
                    noise ^= noise >> 17;
                    noise ^= noise << 5;
                    noise as f32 / u32::MAX as f32 * 2.0 - 1.0
                }
            };
            let rise = if i < attack {
                i as f32 / attack as f32
            } else {
                1.0
            };
            // Falls to about 1/50 at the note's end, then a last linear fade to silence.
            let envelope = rise * (-4.0 * t).exp() * (1.0 - t).min(0.05) * 20.0;
            *slot += value * envelope * n.gain;
        }
    }
    let peak = out.iter().fold(0f32, |m, s| m.max(s.abs()));
    if peak > 0.0 {
        let scale = level / peak;
        out.iter_mut().for_each(|s| *s *= scale);
    }
    out
}

/// The largest absolute sample.
pub fn peak(samples: &[f32]) -> f32 {
    samples.iter().fold(0f32, |m, s| m.max(s.abs()))
}

/// The root mean square level.
pub fn rms(samples: &[f32]) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt()
}
