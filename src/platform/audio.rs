//! Where the table's cues are heard (src/sound makes them) and the phone buzzes.
//!
//! - The desktop and Android: one cpal output stream (ALSA, AAudio, WASAPI, CoreAudio),
//!   opened on the first cue by a thread of its own, which renders each cue at the
//!   device's rate and hands the samples to the stream's callback, which mixes them. The
//!   UI thread only sends a message. No device, or one that will not open: nothing is
//!   played and nothing is said beyond one calm line (`note`), and nothing panics.
//! - The browser: the page's Web Audio `AudioContext`, made on the first cue (that comes
//!   from a tap, which browsers require before a page may play), each cue an
//!   `AudioBuffer` started at its time.
//!
//! Buzzing is `platform::vibrator`'s (Android's `Vibrator` through JNI, the browser's
//! `navigator.vibrate`), outside this file so that Android's half compiles without the UI.

use crate::sound::{schedule, synth, Cue};

/// Plays cues on this device's sound output, if it has one.
pub struct Speaker {
    #[cfg(not(target_arch = "wasm32"))]
    out: Option<std::sync::mpsc::Sender<(u32, Cue, f32)>>,
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
            let out = self.out.get_or_insert_with(desktop::open);
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

/// The samples of `cue` at `rate`, made once per cue and rate.
#[derive(Default)]
struct Rendered {
    made: std::collections::HashMap<Cue, std::sync::Arc<[f32]>>,
}

impl Rendered {
    fn get(&mut self, cue: Cue, rate: u32) -> std::sync::Arc<[f32]> {
        self.made
            .entry(cue)
            .or_insert_with(|| synth::render(cue, rate).into())
            .clone()
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod desktop {
    use super::Rendered;
    use crate::sound::Cue;
    use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
    use std::sync::mpsc::{channel, Receiver, Sender};
    use std::sync::Arc;

    /// One cue being played: its samples, where it is, its volume.
    struct Voice {
        samples: Arc<[f32]>,
        /// Frames to wait before it starts, then the next frame to play.
        wait: usize,
        at: usize,
        gain: f32,
    }

    /// Starts the sound thread; cues sent before the device opened are played once it
    /// has, and dropped if it never does.
    pub fn open() -> Sender<(u32, Cue, f32)> {
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

    /// Linux with no sound card, no sound server's ALSA plugin and no ALSA configuration
    /// of its own (a CI machine, a server): ALSA would print its own errors on opening
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

    /// Opens the default output and feeds it until the app lets go of the sender.
    fn run(cues: Receiver<(u32, Cue, f32)>) -> Result<(), String> {
        if nothing_to_play_on() {
            return Err("this machine has no sound card".into());
        }
        let host = cpal::default_host();
        let device = host
            .default_output_device()
            .ok_or("this machine has no sound output")?;
        let config = device
            .default_output_config()
            .map_err(|e| format!("the sound output has no usable format ({e})"))?;
        let rate = config.sample_rate();
        let channels = usize::from(config.channels()).max(1);
        let format = config.sample_format();
        let (voices_tx, voices_rx) = channel::<Voice>();
        let mut playing: Vec<Voice> = Vec::new();
        let mut mix = move |frames: usize, mut write: Box<dyn FnMut(usize, f32) + '_>| {
            while let Ok(voice) = voices_rx.try_recv() {
                playing.push(voice);
            }
            for frame in 0..frames {
                let mut sum = 0f32;
                for v in playing.iter_mut() {
                    if v.wait > 0 {
                        v.wait -= 1;
                    } else if let Some(s) = v.samples.get(v.at) {
                        sum += s * v.gain;
                        v.at += 1;
                    }
                }
                write(frame, sum.clamp(-1.0, 1.0));
            }
            playing.retain(|v| v.at < v.samples.len());
        };
        let quiet = |e: cpal::Error| crate::note!("sound output: {e}");
        let stream_config: cpal::StreamConfig = config.into();
        let stream = match format {
            cpal::SampleFormat::F32 => device.build_output_stream::<f32, _, _>(
                stream_config,
                move |data, _| {
                    mix(
                        data.len() / channels,
                        Box::new(|frame, value| {
                            for c in 0..channels {
                                data[frame * channels + c] = value;
                            }
                        }),
                    )
                },
                quiet,
                None,
            ),
            cpal::SampleFormat::I16 => device.build_output_stream::<i16, _, _>(
                stream_config,
                move |data, _| {
                    mix(
                        data.len() / channels,
                        Box::new(|frame, value| {
                            for c in 0..channels {
                                data[frame * channels + c] = (value * f32::from(i16::MAX)) as i16;
                            }
                        }),
                    )
                },
                quiet,
                None,
            ),
            other => return Err(format!("the sound output wants {other} samples")),
        }
        .map_err(|e| format!("the sound output would not open ({e})"))?;
        stream
            .play()
            .map_err(|e| format!("the sound output would not start ({e})"))?;
        let mut rendered = Rendered::default();
        // Ends when the app drops its sender (the speaker is gone).
        for (at_ms, cue, gain) in cues {
            let voice = Voice {
                samples: rendered.get(cue, rate),
                wait: (u64::from(at_ms) * u64::from(rate) / 1000) as usize,
                at: 0,
                gain,
            };
            if voices_tx.send(voice).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// Tests: plays `cues` on the default output and returns once they were handed to
    /// it and have had the time to play.
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
}

#[cfg(target_arch = "wasm32")]
mod web {
    use super::Rendered;
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
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::sound::Cue;

    /// ALSA's configuration for the test: the default output is the `null` device,
    /// which takes samples and plays them nowhere (CI machines have no sound card).
    const NULL_CONFIG: &str = "pcm.!default { type null }\nctl.!default { type hw card 0 }\n";

    #[test]
    fn the_desktop_plays_a_game_s_cues_through_alsa_s_null_device() {
        // ALSA reads its configuration once per process: the playing runs in a child
        // process of this test binary with `ALSA_CONFIG_PATH` set, so no other test's
        // environment is touched.
        let dir = std::env::temp_dir().join(format!("hotseat-alsa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let conf = dir.join("asound.conf");
        std::fs::write(&conf, NULL_CONFIG).unwrap();
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
    }

    /// Run by the test above, in its own process, on the device ALSA was given.
    #[test]
    #[ignore = "run by the_desktop_plays_a_game_s_cues_through_alsa_s_null_device"]
    fn plays_into_the_default_device() {
        let cues = [Cue::Step, Cue::Hop, Cue::Flip, Cue::CoverUp, Cue::Won];
        super::desktop::play_through_default(&cues).expect("the null device plays");
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
