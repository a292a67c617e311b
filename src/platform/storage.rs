//! The files Hotseat keeps, behind one small interface: `store` and `net::saved` name a
//! file by its path in the data folder and never touch the file system themselves.
//!
//! - Desktop and Android: real files. A replacement goes through a temporary file in the
//!   same folder, flushed to disk and renamed over the old one, so a crash mid-write
//!   leaves the previous file whole.
//! - Browser: the page's `localStorage`, one entry per path (`hotseat/current-game.json`).
//!   It is synchronous, which the store's callers rely on (IndexedDB is asynchronous
//!   only), and one `setItem` replaces an entry whole, which is the atomic write. A full
//!   quota is [`std::io::ErrorKind::StorageFull`] with a plain message; the game in
//!   memory goes on.
//!
//! Errors are `std::io::Error` on every target, so a damaged or unreadable entry is
//! handled by the same code everywhere (kept aside, never silently dropped).

use std::io;
use std::path::Path;

pub use imp::{exists, read, remove, rename, write_atomically};

/// Reads a text file (UTF-8).
pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use std::fs::{self, File};
    use std::io::{self, Write};
    use std::path::Path;

    /// The whole file (`NotFound` when there is none).
    pub fn read(path: &Path) -> io::Result<Vec<u8>> {
        fs::read(path)
    }

    /// Whether the file exists.
    pub fn exists(path: &Path) -> bool {
        path.exists()
    }

    /// Writes `bytes` to `path` through a temporary file in the same folder, flushed to
    /// disk and renamed over the old file. Creates the folder if needed.
    pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
        let dir = path
            .parent()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no parent folder"))?;
        fs::create_dir_all(dir)?;
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
        let tmp = dir.join(format!(".{}.tmp", name.to_string_lossy()));
        {
            let mut file = File::create(&tmp)?;
            file.write_all(bytes)?;
            file.sync_all()?;
        }
        fs::rename(&tmp, path)
    }

    /// Renames `from` to `to`, replacing `to`.
    pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }

    /// Removes the file (`NotFound` when there is none).
    pub fn remove(path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::io;
    use std::path::Path;

    fn storage() -> io::Result<web_sys::Storage> {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::Unsupported,
                    "this browser keeps no storage for the page (private mode?)",
                )
            })
    }

    fn key(path: &Path) -> String {
        path.to_string_lossy().replace('\\', "/")
    }

    fn js_error(what: &str, e: wasm_bindgen::JsValue) -> io::Error {
        // A full quota throws a DOMException named QuotaExceededError.
        let name = js_sys::Reflect::get(&e, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .unwrap_or_default();
        if name.contains("Quota") {
            io::Error::new(
                io::ErrorKind::StorageFull,
                "the browser's storage for this site is full; free some space (delete \
                 old games in History) or the next save will fail too",
            )
        } else {
            io::Error::other(format!("{what}: the browser refused ({name})"))
        }
    }

    /// The whole entry (`NotFound` when there is none).
    pub fn read(path: &Path) -> io::Result<Vec<u8>> {
        match storage()?.get_item(&key(path)) {
            Ok(Some(text)) => Ok(text.into_bytes()),
            Ok(None) => Err(io::Error::new(io::ErrorKind::NotFound, "no such entry")),
            Err(e) => Err(js_error("reading", e)),
        }
    }

    /// Whether the entry exists.
    pub fn exists(path: &Path) -> bool {
        storage()
            .ok()
            .and_then(|s| s.get_item(&key(path)).ok().flatten())
            .is_some()
    }

    /// Replaces the entry whole (one `setItem`). Hotseat only ever writes UTF-8 JSON; other
    /// bytes are refused rather than changed.
    pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        storage()?
            .set_item(&key(path), text)
            .map_err(|e| js_error("saving", e))
    }

    /// Copies `from` to `to`, then removes `from`: a failure in between leaves two copies,
    /// never none.
    pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
        let storage = storage()?;
        let text = storage
            .get_item(&key(from))
            .map_err(|e| js_error("reading", e))?
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such entry"))?;
        storage
            .set_item(&key(to), &text)
            .map_err(|e| js_error("saving", e))?;
        storage
            .remove_item(&key(from))
            .map_err(|e| js_error("removing", e))
    }

    /// Removes the entry (`NotFound` when there is none).
    pub fn remove(path: &Path) -> io::Result<()> {
        let storage = storage()?;
        let k = key(path);
        match storage.get_item(&k) {
            Ok(None) => Err(io::Error::new(io::ErrorKind::NotFound, "no such entry")),
            _ => storage.remove_item(&k).map_err(|e| js_error("removing", e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_whole_and_leaves_no_temporary_behind() {
        let dir = std::env::temp_dir().join(format!("hotseat-atomic-{}", std::process::id()));
        let path = dir.join("nested/file.json");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(read(&path).unwrap(), b"second");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("file.json")]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_file_reads_as_not_found_and_renames_keep_the_content() {
        let dir = std::env::temp_dir().join(format!("hotseat-storage-{}", std::process::id()));
        let (a, b) = (dir.join("a.json"), dir.join("b.json"));
        assert_eq!(read(&a).unwrap_err().kind(), io::ErrorKind::NotFound);
        assert!(!exists(&a));
        write_atomically(&a, b"{}").unwrap();
        rename(&a, &b).unwrap();
        assert!(!exists(&a));
        assert_eq!(read_to_string(&b).unwrap(), "{}");
        remove(&b).unwrap();
        assert_eq!(remove(&b).unwrap_err().kind(), io::ErrorKind::NotFound);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
