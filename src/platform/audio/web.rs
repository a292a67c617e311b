//! The browser: the page's Web Audio `AudioContext`, made on the first cue (that comes
//! from a tap, which browsers require before a page may play), each cue an `AudioBuffer`
//! started at its time.

use super::mix::Rendered;
use crate::sound::Cue;
use web_sys::{AudioContext, AudioContextState};

/// The page's audio context and the cues rendered at its rate.
pub struct Web {
    context: AudioContext,
    rendered: Rendered,
}

impl Web {
    /// The page's audio context, or `None` where the browser has none.
    pub fn open() -> Option<Web> {
        match AudioContext::new() {
            Ok(context) => Some(Web {
                context,
                rendered: Rendered::default(),
            }),
            Err(_) => {
                crate::note!("no sound: this browser has no Web Audio");
                None
            }
        }
    }

    /// Starts each cue at its time from now.
    pub fn play(&mut self, cues: &[(u32, Cue)], volume: f32) {
        // Made before the page's first tap, the context waits suspended; a tap's
        // cue resumes it (browsers allow that inside a tap's handling).
        if self.context.state() == AudioContextState::Suspended {
            let _ = self.context.resume();
        }
        let rate = self.context.sample_rate();
        let now = self.context.current_time();
        for &(at, cue) in cues {
            let samples = self.rendered.get(cue, rate as u32);
            let _ = self.start(&samples, rate, now + f64::from(at) / 1000.0, volume);
        }
    }

    fn start(
        &self,
        samples: &[f32],
        rate: f32,
        when: f64,
        volume: f32,
    ) -> Result<(), wasm_bindgen::JsValue> {
        let buffer = self
            .context
            .create_buffer(1, samples.len().max(1) as u32, rate)?;
        buffer.copy_to_channel(samples, 0)?;
        let source = self.context.create_buffer_source()?;
        source.set_buffer(Some(&buffer));
        let gain = self.context.create_gain()?;
        gain.gain().set_value(volume);
        source.connect_with_audio_node(&gain)?;
        gain.connect_with_audio_node(&self.context.destination())?;
        source.start_with_when(when)
    }
}
