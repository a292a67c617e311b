//! Kiosk mode's rules, without a window: the staff PIN (hashed, salted, stretched), the
//! lock-out after wrong PINs, and the idle timer. Time comes in as an argument (`now`),
//! so tests drive the clock instead of waiting; the UI feeds it from a real clock.

pub mod idle;
pub mod lockout;
pub mod pin;

pub use idle::{Idle, IdleStep, DEFAULT_IDLE, STILL_PLAYING_GRACE};
pub use lockout::{Lockout, FREE_TRIES};
pub use pin::{valid_pin, PinRecord, PIN_ITERATIONS};

/// Whether a web address's query (`?kiosk`, `?kiosk=1`, `?lang=ru&kiosk`) asks the browser
/// build to start in kiosk mode; `kiosk=0` does not.
pub fn query_asks_for_kiosk(query: &str) -> bool {
    query
        .trim_start_matches('?')
        .split('&')
        .any(|p| p == "kiosk" || (p.starts_with("kiosk=") && p != "kiosk=0"))
}

#[cfg(test)]
mod tests {
    use super::query_asks_for_kiosk;

    #[test]
    fn the_address_starts_kiosk_mode_only_when_it_says_so() {
        for yes in [
            "?kiosk",
            "kiosk",
            "?kiosk=1",
            "?lang=ru&kiosk",
            "?kiosk=yes&x=2",
        ] {
            assert!(query_asks_for_kiosk(yes), "{yes}");
        }
        for no in ["", "?", "?kiosk=0", "?kiosks", "?x=kiosk", "?nokiosk"] {
            assert!(!query_asks_for_kiosk(no), "{no}");
        }
    }
}
