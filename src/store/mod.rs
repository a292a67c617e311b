//! What Hotseat keeps on the device: settings and remembered player names now, saved
//! games later. Everything is JSON written atomically (temporary file, flush, rename),
//! so a crash mid-write leaves the previous file whole.

pub mod history;
mod keeping;
pub mod kiosk;
pub mod puzzle_share;
pub mod puzzles;
pub mod saves;
mod settings;

pub use crate::platform::storage::write_atomically;
pub use keeping::Keeping;
pub use settings::{
    clean_name, Language, Settings, ThemeChoice, VariantDefaults, MAX_NAME_CHARS, SETTINGS_FILE,
};

use std::path::PathBuf;

/// The folder Hotseat keeps its files in (in the browser, the prefix of its storage entries): `HOTSEAT_DATA_DIR` when set (tests, kiosks,
/// Android's activity folder), else the platform's data folder from `directories`.
pub fn data_dir() -> Option<PathBuf> {
    // The browser's storage is one namespace per site; entries are named `hotseat/…`.
    if cfg!(target_arch = "wasm32") {
        return Some(PathBuf::from("hotseat"));
    }
    if let Some(dir) = std::env::var_os("HOTSEAT_DATA_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("app", "Hotseat", "Hotseat").map(|d| d.data_dir().to_path_buf())
}
