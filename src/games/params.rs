//! `key=value` parameters of a new game, shared by the referee's `new` command and the
//! app's setup screen, so that both start games the same way.

use super::{RuleError, RuleResult};
use std::collections::BTreeMap;
use std::fmt;

/// The parameters of a new game: `players=4 first=1 seed=7 no_move_back=off`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params {
    pairs: BTreeMap<String, String>,
}

impl Params {
    /// No parameters: every game falls back to its defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses words of the form `key=value`; a word without `=` or a key given twice is
    /// refused.
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> RuleResult<Self> {
        let mut params = Params::new();
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| RuleError::new(format!("expected key=value, got '{word}'")))?;
            if key.is_empty() {
                return Err(RuleError::new(format!(
                    "missing parameter name in '{word}'"
                )));
            }
            if params
                .pairs
                .insert(key.to_string(), value.to_string())
                .is_some()
            {
                return Err(RuleError::new(format!("parameter '{key}' is given twice")));
            }
        }
        Ok(params)
    }

    /// Sets `key` to `value` (the app's setup builds parameters this way).
    pub fn with(mut self, key: &str, value: impl fmt::Display) -> Self {
        self.pairs.insert(key.to_string(), value.to_string());
        self
    }

    /// The raw value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs.get(key).map(String::as_str)
    }

    /// Refuses any key not in `known`, so that a misspelt parameter is not silently ignored.
    pub fn only(&self, known: &[&str]) -> RuleResult<()> {
        match self.pairs.keys().find(|k| !known.contains(&k.as_str())) {
            Some(key) => Err(RuleError::new(format!(
                "unknown parameter '{key}' (known: {})",
                known.join(", ")
            ))),
            None => Ok(()),
        }
    }

    /// `key` as a whole number, or `default` when absent (`None`: the key is required).
    pub fn number(&self, key: &str, default: Option<u64>) -> RuleResult<u64> {
        match (self.get(key), default) {
            (Some(v), _) => v
                .parse()
                .map_err(|_| RuleError::new(format!("{key} must be a whole number, got '{v}'"))),
            (None, Some(d)) => Ok(d),
            (None, None) => Err(RuleError::new(format!("missing parameter {key}="))),
        }
    }

    /// `key` as on/off (`on`, `off`, `1`, `0`, `true`, `false`, `yes`, `no`).
    pub fn switch(&self, key: &str, default: bool) -> RuleResult<bool> {
        match self.get(key) {
            None => Ok(default),
            Some("on" | "1" | "true" | "yes") => Ok(true),
            Some("off" | "0" | "false" | "no") => Ok(false),
            Some(v) => Err(RuleError::new(format!(
                "{key} must be on or off, got '{v}'"
            ))),
        }
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (k, v) in &self.pairs {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_numbers_switches_and_refuses_nonsense() {
        let p = Params::parse(["players=4", "first=1", "no_move_back=off"]).unwrap();
        assert_eq!(p.number("players", None), Ok(4));
        assert_eq!(p.number("seed", Some(7)), Ok(7));
        assert_eq!(p.switch("no_move_back", true), Ok(false));
        assert!(p.number("missing", None).is_err());
        assert!(p.only(&["players", "first"]).is_err());
        assert!(p.only(&["players", "first", "no_move_back"]).is_ok());
        assert!(Params::parse(["players"]).is_err());
        assert!(Params::parse(["a=1", "a=2"]).is_err());
        assert!(Params::parse(["=1"]).is_err());
        assert!(Params::parse(["players=x"])
            .unwrap()
            .number("players", None)
            .is_err());
        assert_eq!(p.to_string(), "first=1 no_move_back=off players=4");
    }
}
