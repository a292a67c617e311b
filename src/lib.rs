//! Hotseat: Ovo, IOTA and Omiga for phones and tablets.
//!
//! `games` is the pure rules core; `referee` the headless text protocol; everything
//! with a window lives behind the `ui` feature.

pub mod games;
pub mod referee;
