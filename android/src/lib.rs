//! The library the Android activity loads (`libhotseat.so`): the hotseat crate with its
//! `android_main` (defined in the main crate's `src/lib.rs` for `target_os = "android"`).
pub use hotseat::*;
