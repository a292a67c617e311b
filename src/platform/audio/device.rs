//! The desktop's and Android's sound thread: it opens the output when the first cue
//! comes and feeds it until the app lets go. The output itself is `alsa` (Linux, ALSA
//! opened at run time) or `cpal_out` (Android's AAudio, WASAPI, CoreAudio); both take
//! their samples from one `mix::Mixer`.

use super::mix::Request;
#[cfg(test)]
use crate::sound::Cue;
use std::sync::mpsc::{channel, Receiver, Sender};

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
