//! The phone's vibrator: Android's `Vibrator` service through JNI (with the feature
//! `android-platform`), the browser's `navigator.vibrate`, nothing elsewhere. Which
//! events buzz is decided once for every target, in `crate::sound` (`Heard::buzz`), and
//! how long a buzz lasts is [`BUZZ_MS`]; this file only makes the device do it.
//!
//! Kept apart from `audio` (which needs the UI) so that the Android half compiles in
//! `cargo check --target aarch64-linux-android --no-default-features --features
//! android-platform --lib`, as the multicast lock's does.

/// How long a buzz lasts, in milliseconds.
pub const BUZZ_MS: u32 = 40;

/// One short vibration of `ms` milliseconds, where the device has a vibrator the app may
/// use. A device without one, or one the app may not use, is no error: the cue was heard,
/// and nothing is said.
pub fn buzz(ms: u32) {
    #[cfg(all(target_os = "android", feature = "android-platform"))]
    android::buzz(ms);
    #[cfg(target_arch = "wasm32")]
    if let Some(window) = web_sys::window() {
        let navigator = window.navigator();
        // Safari (every iPhone browser) has no `navigator.vibrate` at all: calling it threw
        // out of the event loop mid-turn and the board stopped updating (the WebKit test
        // saw it). Ask first.
        // Before a first tap on the page Chromium refuses it and logs an error on the
        // console ("Blocked call to navigator.vibrate"): a page whose player has not
        // touched it yet (a joined phone whose other side won) asks for nothing.
        let touched = js_sys::Reflect::get(&navigator, &"userActivation".into())
            .ok()
            .filter(|u| u.is_object())
            .is_none_or(|u| {
                js_sys::Reflect::get(&u, &"hasBeenActive".into())
                    .ok()
                    .and_then(|b| b.as_bool())
                    .unwrap_or(true)
            });
        if touched && js_sys::Reflect::has(&navigator, &"vibrate".into()).unwrap_or(false) {
            // False (refused, or no vibrator) is no error.
            let _ = navigator.vibrate_with_duration(ms);
        }
    }
    #[cfg(not(any(
        all(target_os = "android", feature = "android-platform"),
        target_arch = "wasm32"
    )))]
    let _ = ms;
}

#[cfg(all(target_os = "android", feature = "android-platform"))]
mod android {
    use jni::objects::{JObject, JValue};
    use jni::{JNIEnv, JavaVM};
    use std::sync::atomic::{AtomicBool, Ordering};

    /// `VibrationEffect.createOneShot` and `Vibrator.vibrate(VibrationEffect)` exist from
    /// this API level (Android 8.0); below it only the deprecated `vibrate(long)` does.
    const ONE_SHOT_API: i32 = 26;
    /// `VibrationEffect.DEFAULT_AMPLITUDE`: the device's usual strength.
    const DEFAULT_AMPLITUDE: i32 = -1;

    /// Said once: a vibrator that fails (not merely absent) is worth one line for whoever
    /// looks after the device, not one per move.
    static SAID: AtomicBool = AtomicBool::new(false);

    pub fn buzz(ms: u32) {
        if let Err(e) = try_buzz(ms) {
            if !SAID.swap(true, Ordering::Relaxed) {
                crate::note!("no vibration: {e}");
            }
        }
    }

    fn try_buzz(ms: u32) -> jni::errors::Result<()> {
        let ctx = ndk_context::android_context();
        // SAFETY: ndk-context holds the activity's JavaVM and Context for the whole life of
        // the process (android-activity initialises it before `android_main`).
        let vm = unsafe { JavaVM::from_raw(ctx.vm().cast()) }?;
        let mut env = vm.attach_current_thread()?;
        // The UI thread stays attached for the app's life, so local references would pile
        // up over a long game (the table holds a few hundred at most): the frame frees
        // those made here when it returns.
        let result = env.with_local_frame(8, |env| -> jni::errors::Result<()> {
            // SAFETY: as above, a live global reference owned by android-activity.
            let context = unsafe { JObject::from_raw(ctx.context().cast()) };
            vibrate(env, &context, i64::from(ms))
        });
        if result.is_err() {
            // A Java exception left pending would fail every later JNI call on this
            // thread (the multicast lock's too): it is this call's failure only.
            if env.exception_check().unwrap_or(false) {
                let _ = env.exception_clear();
            }
        }
        result
    }

    fn vibrate(env: &mut JNIEnv, context: &JObject, ms: i64) -> jni::errors::Result<()> {
        // `getSystemService("vibrator")`: still answered on API 31+, where
        // `VibratorManager` was added beside it; null where the device has none.
        let name = env.new_string("vibrator")?;
        let vibrator = env
            .call_method(
                context,
                "getSystemService",
                "(Ljava/lang/String;)Ljava/lang/Object;",
                &[JValue::Object(&name)],
            )?
            .l()?;
        if vibrator.is_null() {
            return Ok(());
        }
        if !env.call_method(&vibrator, "hasVibrator", "()Z", &[])?.z()? {
            return Ok(());
        }
        let api = env
            .get_static_field("android/os/Build$VERSION", "SDK_INT", "I")?
            .i()?;
        if api >= ONE_SHOT_API {
            let effect = env
                .call_static_method(
                    "android/os/VibrationEffect",
                    "createOneShot",
                    "(JI)Landroid/os/VibrationEffect;",
                    &[JValue::Long(ms), JValue::Int(DEFAULT_AMPLITUDE)],
                )?
                .l()?;
            env.call_method(
                &vibrator,
                "vibrate",
                "(Landroid/os/VibrationEffect;)V",
                &[JValue::Object(&effect)],
            )?;
        } else {
            // The package's minimum is API 26 (android/Cargo.toml); kept for a build that
            // lowers it, as the older call is all such a phone has.
            env.call_method(&vibrator, "vibrate", "(J)V", &[JValue::Long(ms)])?;
        }
        Ok(())
    }
}
