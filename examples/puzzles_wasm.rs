//! The puzzle generator alone, built for the browser's wasm32 with no UI, so that
//! `.ci/puzzles-wasm` can check in Node (V8, Chromium's engine) that the browser makes the
//! same puzzles as the desktop (src/puzzles/digests.txt) and time a day's three puzzles.
//! Plain C exports: no wasm-bindgen needed. On other targets it is an empty library.

#[cfg(target_arch = "wasm32")]
mod exports {
    use hotseat::games::registry::GameKind;
    use hotseat::puzzles::{daily, Day};

    fn kind(game: u32) -> GameKind {
        match game {
            0 => GameKind::Iota,
            1 => GameKind::Ovo,
            _ => GameKind::Omiga,
        }
    }

    /// The first 8 bytes of the digest of game `game` (0 IOTA, 1 Ovo, 2 Omiga) on the date;
    /// 0 when there is no such date or no puzzle.
    #[no_mangle]
    pub extern "C" fn puzzle_digest(game: u32, year: i32, month: u32, day: u32) -> u64 {
        let Some(day) = Day::from_ymd(year, month, day) else {
            return 0;
        };
        match daily(kind(game), day) {
            Ok(p) => u64::from_str_radix(&p.digest(), 16).unwrap_or(0),
            Err(_) => 0,
        }
    }

    /// Makes the three puzzles of day number `day`; how many were made.
    #[no_mangle]
    pub extern "C" fn make_day(day: i32) -> u32 {
        [0, 1, 2]
            .into_iter()
            .filter(|g| daily(kind(*g), Day(i64::from(day))).is_ok())
            .count() as u32
    }
}
