//! Android (AAudio), Windows (WASAPI), macOS (CoreAudio): one cpal output stream whose
//! callback mixes what is playing. One builder serves every sample format the device may
//! want: cpal's `FromSample` converts the mixer's `f32`.

use super::mix::{Mixer, Request, Voice, Voices};
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SizedSample};
use std::sync::mpsc::{channel, Receiver};

/// Opens the default output and feeds it until the app lets go of the sender.
pub fn play(cues: Receiver<Request>) -> Result<(), String> {
    let host = cpal::default_host();
    let device = host
        .default_output_device()
        .ok_or("this machine has no sound output")?;
    let config = device
        .default_output_config()
        .map_err(|e| format!("the sound output has no usable format ({e})"))?;
    let rate = config.sample_rate();
    let (voices_tx, voices_rx) = channel::<Voice>();
    let stream = match config.sample_format() {
        cpal::SampleFormat::F32 => stream::<f32>(&device, config.into(), voices_rx),
        cpal::SampleFormat::I16 => stream::<i16>(&device, config.into(), voices_rx),
        cpal::SampleFormat::U16 => stream::<u16>(&device, config.into(), voices_rx),
        cpal::SampleFormat::I32 => stream::<i32>(&device, config.into(), voices_rx),
        other => return Err(format!("the sound output wants {other} samples")),
    }?;
    stream
        .play()
        .map_err(|e| format!("the sound output would not start ({e})"))?;
    let mut voices = Voices::new(rate);
    // Ends when the app drops its sender (the speaker is gone).
    for request in cues {
        if voices_tx.send(voices.voice(request)).is_err() {
            break;
        }
    }
    Ok(())
}

/// The output stream in sample type `T`, mixing the voices that arrive on `incoming`.
fn stream<T>(
    device: &cpal::Device,
    config: cpal::StreamConfig,
    incoming: Receiver<Voice>,
) -> Result<cpal::Stream, String>
where
    T: SizedSample + FromSample<f32>,
{
    let channels = usize::from(config.channels).max(1);
    let mut mixer = Mixer::default();
    let mut mixed: Vec<f32> = Vec::new();
    device
        .build_output_stream::<T, _, _>(
            config,
            move |data: &mut [T], _| {
                while let Ok(voice) = incoming.try_recv() {
                    mixer.add(voice);
                }
                mixed.resize(data.len() / channels, 0.0);
                mixer.fill(&mut mixed);
                for (frame, value) in data.chunks_mut(channels).zip(&mixed) {
                    frame.fill(T::from_sample(*value));
                }
            },
            |e| crate::note!("sound output: {e}"),
            None,
        )
        .map_err(|e| format!("the sound output would not open ({e})"))
}
