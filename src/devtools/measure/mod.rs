//! The pure half of `hotseat bench`: statistics, the printed table, and reading a
//! process's memory and CPU time from `/proc`. The half that drives windows lives in
//! `devtools::bench`; this half builds without Slint so that its tests run in the rules-only build.

pub mod procfs;
pub mod report;
pub mod stats;
