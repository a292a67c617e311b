//! Linux: ALSA's run-time library, `libasound.so.2`, opened when the first cue plays.
//!
//! Nothing of ALSA is needed to *build* Hotseat (issue 39: a fresh machine has the
//! library, which every Linux desktop that plays sound has, but not its headers, so cpal's
//! `alsa-sys` stopped `cargo run` before a line of Hotseat compiled). The seven calls used
//! here are ALSA's stable "simple" PCM interface (`snd_pcm_set_params`, ALSA 1.0.16+),
//! looked up by name; a machine without the library plays nothing and says so once.
//!
//! The sound thread writes 10 ms periods of 16-bit mono samples to the "default" PCM
//! (ALSA's plug layer converts to whatever the card or sound server wants) while anything
//! plays, and waits for the next cue when nothing does; the underrun that the pause leaves
//! is recovered on the next write.

use super::mix::{Mixer, Request, Voices};
use libloading::Library;
use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void, CStr};
use std::sync::mpsc::Receiver;

/// `SND_PCM_STREAM_PLAYBACK`.
const PLAYBACK: c_int = 0;
/// `SND_PCM_FORMAT_S16_LE`.
const FORMAT_S16_LE: c_int = 2;
/// `SND_PCM_ACCESS_RW_INTERLEAVED`.
const ACCESS_RW_INTERLEAVED: c_int = 3;
/// The rate asked for; ALSA resamples where the output runs at another.
const RATE: u32 = 48_000;
/// How far ahead of the speaker the samples are written, in microseconds.
const LATENCY_US: c_uint = 60_000;
/// Frames written at a time: 10 ms.
const PERIOD: usize = (RATE / 100) as usize;

type Open = unsafe extern "C" fn(*mut *mut c_void, *const c_char, c_int, c_int) -> c_int;
type SetParams =
    unsafe extern "C" fn(*mut c_void, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
type WriteI = unsafe extern "C" fn(*mut c_void, *const c_void, c_ulong) -> c_long;
type Recover = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> c_int;
type Pcm = unsafe extern "C" fn(*mut c_void) -> c_int;
type StrError = unsafe extern "C" fn(c_int) -> *const c_char;

/// The library and the calls taken from it (valid while `_lib` is held).
struct Alsa {
    open: Open,
    set_params: SetParams,
    writei: WriteI,
    recover: Recover,
    drain: Pcm,
    close: Pcm,
    strerror: StrError,
    _lib: Library,
}

impl Alsa {
    fn load() -> Result<Alsa, String> {
        // SAFETY: libasound's initialisers only set up its own state; it is the library
        // every ALSA program loads.
        let lib = unsafe { Library::new("libasound.so.2") }
            .map_err(|e| format!("ALSA's library (libasound.so.2) is not here ({e})"))?;
        // SAFETY: each symbol is given the type of its declaration in <alsa/pcm.h>.
        unsafe {
            Ok(Alsa {
                open: *symbol(&lib, b"snd_pcm_open\0")?,
                set_params: *symbol(&lib, b"snd_pcm_set_params\0")?,
                writei: *symbol(&lib, b"snd_pcm_writei\0")?,
                recover: *symbol(&lib, b"snd_pcm_recover\0")?,
                drain: *symbol(&lib, b"snd_pcm_drain\0")?,
                close: *symbol(&lib, b"snd_pcm_close\0")?,
                strerror: *symbol(&lib, b"snd_strerror\0")?,
                _lib: lib,
            })
        }
    }

    /// ALSA's own words for error `code`.
    fn error(&self, code: c_int) -> String {
        // SAFETY: snd_strerror returns a static string for any code.
        let text = unsafe { (self.strerror)(code) };
        if text.is_null() {
            return format!("error {code}");
        }
        // SAFETY: non-null, NUL-terminated, static.
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }
}

/// # Safety
/// `T` must be the symbol's true type.
unsafe fn symbol<'l, T>(
    lib: &'l Library,
    name: &[u8],
) -> Result<libloading::Symbol<'l, T>, String> {
    lib.get(name).map_err(|e| {
        let name = String::from_utf8_lossy(&name[..name.len() - 1]);
        format!("ALSA's library has no {name} ({e})")
    })
}

/// An open playback PCM, closed when dropped.
struct Output<'a> {
    alsa: &'a Alsa,
    pcm: *mut c_void,
}

impl<'a> Output<'a> {
    fn open(alsa: &'a Alsa) -> Result<Output<'a>, String> {
        let mut pcm = std::ptr::null_mut();
        // SAFETY: a valid out-pointer and a NUL-terminated name.
        let code = unsafe { (alsa.open)(&mut pcm, c"default".as_ptr(), PLAYBACK, 0) };
        if code < 0 || pcm.is_null() {
            return Err(format!(
                "the sound output would not open ({})",
                alsa.error(code)
            ));
        }
        let out = Output { alsa, pcm };
        // SAFETY: `pcm` is open; mono S16 interleaved, ALSA may resample.
        let code = unsafe {
            (alsa.set_params)(
                pcm,
                FORMAT_S16_LE,
                ACCESS_RW_INTERLEAVED,
                1,
                RATE,
                1,
                LATENCY_US,
            )
        };
        if code < 0 {
            return Err(format!(
                "the sound output has no usable format ({})",
                alsa.error(code)
            ));
        }
        Ok(out)
    }

    /// Writes all of `samples`, recovering from an underrun (the pause between cues).
    fn write(&self, samples: &[i16]) -> Result<(), String> {
        let mut rest = samples;
        while !rest.is_empty() {
            // SAFETY: `rest` holds `rest.len()` mono frames of S16.
            let wrote = unsafe {
                (self.alsa.writei)(self.pcm, rest.as_ptr().cast(), rest.len() as c_ulong)
            };
            if wrote < 0 {
                let code = wrote as c_int;
                // SAFETY: `pcm` is open; silent: the underrun is expected.
                if unsafe { (self.alsa.recover)(self.pcm, code, 1) } < 0 {
                    return Err(format!("sound output: {}", self.alsa.error(code)));
                }
                continue;
            }
            rest = &rest[(wrote as usize).min(rest.len())..];
        }
        Ok(())
    }
}

impl Drop for Output<'_> {
    fn drop(&mut self) {
        // SAFETY: `pcm` is open and closed once, here.
        unsafe {
            (self.alsa.drain)(self.pcm);
            (self.alsa.close)(self.pcm);
        }
    }
}

/// Plays every cue that arrives until the sender is dropped.
pub fn play(cues: Receiver<Request>) -> Result<(), String> {
    let alsa = Alsa::load()?;
    let output = Output::open(&alsa)?;
    let mut voices = Voices::new(RATE);
    let mut mixer = Mixer::default();
    let mut mixed = [0f32; PERIOD];
    let mut samples = [0i16; PERIOD];
    loop {
        if mixer.is_idle() {
            // Nothing playing: wait for the next cue; the app letting go ends the thread.
            match cues.recv() {
                Ok(request) => mixer.add(voices.voice(request)),
                Err(_) => return Ok(()),
            }
        }
        while let Ok(request) = cues.try_recv() {
            mixer.add(voices.voice(request));
        }
        mixer.fill(&mut mixed);
        for (s, m) in samples.iter_mut().zip(mixed) {
            *s = (m * f32::from(i16::MAX)) as i16;
        }
        // Blocks while ALSA's buffer is full: the writes keep pace with the speaker.
        output.write(&samples)?;
    }
}
