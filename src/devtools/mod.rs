//! Tools for the app's makers, not its players: `hotseat bench`, `screenshot`, `mirror`,
//! `kiosk-soak` and the colour-vision preview. They drive the screens of `ui` from outside
//! and ship only with the `devtools` feature (the Android and web builds leave it out).
//! `measure`, the benches' statistics and table, builds without Slint so that its tests run
//! in the rules-only build too.

#[cfg(feature = "devtools")]
pub mod bench;
#[cfg(feature = "devtools")]
pub mod cvd;
#[cfg(feature = "devtools")]
pub mod kiosk_soak;
pub mod measure;
#[cfg(feature = "devtools")]
pub mod mirror;
#[cfg(feature = "devtools")]
pub mod screenshot;
