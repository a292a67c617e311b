//! Kiosk mode's rules, without a window: the staff PIN (hashed, salted, stretched), the
//! lock-out after wrong PINs, and the idle timer. Time comes in as an argument (`now`),
//! so tests drive the clock instead of waiting; the UI feeds it from a real clock.

pub mod idle;
pub mod lockout;
pub mod pin;

pub use idle::{Idle, IdleStep, DEFAULT_IDLE, STILL_PLAYING_GRACE};
pub use lockout::{Lockout, FREE_TRIES};
pub use pin::{valid_pin, PinRecord, PIN_ITERATIONS};
