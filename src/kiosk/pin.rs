//! The staff PIN as it is kept on the device: a salted, stretched SHA-256 hash, never the
//! digits themselves.
//!
//! Why this hash: a PIN has few possible values (10⁴–10⁸), so no hash makes it strong
//! against someone who copies the file; what the hash does is keep the digits from being
//! read off the file at a glance, and the stretching (many rounds of SHA-256, the idea of
//! PBKDF2) makes each guess cost about as much as one check on the device. The salt
//! makes the same PIN on two tablets hash differently. `sha2` is RustCrypto's
//! well-kept implementation; the rounds are written out here so that the format is plain.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// SHA-256 rounds per check: a few tens of milliseconds on a tablet, once per PIN entry.
pub const PIN_ITERATIONS: u32 = 100_000;

/// Shortest and longest PIN accepted.
pub const PIN_DIGITS: std::ops::RangeInclusive<usize> = 4..=8;

/// Whether `pin` may be a staff PIN: 4 to 8 digits.
pub fn valid_pin(pin: &str) -> bool {
    PIN_DIGITS.contains(&pin.chars().count()) && pin.chars().all(|c| c.is_ascii_digit())
}

/// A PIN's stored form: salt, rounds and hash, in hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinRecord {
    /// Random bytes mixed into the hash, in hex.
    pub salt: String,
    /// How many SHA-256 rounds (kept so that a later version may raise it).
    pub iterations: u32,
    /// The final digest, in hex.
    pub hash: String,
}

impl PinRecord {
    /// The record for `pin` with a fresh random salt.
    pub fn new(pin: &str) -> Self {
        let salt: [u8; 16] = rand::random();
        Self::with_salt(pin, &salt, PIN_ITERATIONS)
    }

    /// The record for `pin` with a given salt and round count (tests, and `new`).
    pub fn with_salt(pin: &str, salt: &[u8], iterations: u32) -> Self {
        PinRecord {
            salt: hex(salt),
            iterations,
            hash: hex(&stretch(pin, salt, iterations)),
        }
    }

    /// Whether `pin` is the PIN this record was made from. A damaged record matches nothing.
    pub fn verify(&self, pin: &str) -> bool {
        let (Some(salt), Some(expected)) = (unhex(&self.salt), unhex(&self.hash)) else {
            return false;
        };
        if self.iterations == 0 || self.iterations > 10_000_000 {
            return false;
        }
        let got = stretch(pin, &salt, self.iterations);
        // Compare every byte, so the time taken says nothing about where they differ.
        got.len() == expected.len()
            && got
                .iter()
                .zip(&expected)
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

fn stretch(pin: &str, salt: &[u8], iterations: u32) -> [u8; 32] {
    let mut digest: [u8; 32] = Sha256::new()
        .chain_update(salt)
        .chain_update(pin.as_bytes())
        .finalize()
        .into();
    for _ in 1..iterations {
        digest = Sha256::new()
            .chain_update(digest)
            .chain_update(salt)
            .chain_update(pin.as_bytes())
            .finalize()
            .into();
    }
    digest
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_right_pin_matches_and_others_do_not() {
        let record = PinRecord::with_salt("2468", b"0123456789abcdef", 1000);
        assert!(record.verify("2468"));
        assert!(!record.verify("2469"));
        assert!(!record.verify("24680"));
        assert!(!record.verify(""));
    }

    #[test]
    fn the_record_never_holds_the_digits_and_salts_differ() {
        let a = PinRecord::new("1234");
        let b = PinRecord::new("1234");
        assert_ne!(a.salt, b.salt);
        assert_ne!(a.hash, b.hash);
        let json = serde_json::to_string(&a).unwrap();
        assert!(!json.contains("1234"), "{json}");
        assert!(a.verify("1234") && b.verify("1234"));
    }

    #[test]
    fn a_damaged_record_matches_nothing() {
        let mut record = PinRecord::with_salt("1234", b"salt", 10);
        record.hash = "zz".into();
        assert!(!record.verify("1234"));
        let mut record = PinRecord::with_salt("1234", b"salt", 10);
        record.iterations = 0;
        assert!(!record.verify("1234"));
    }

    #[test]
    fn pins_are_four_to_eight_digits() {
        assert!(valid_pin("0000"));
        assert!(valid_pin("12345678"));
        assert!(!valid_pin("123"));
        assert!(!valid_pin("123456789"));
        assert!(!valid_pin("12a4"));
    }
}
