//! A process's peak memory and CPU time, read from Linux's `/proc`.
//!
//! CPU time comes from `schedstat` (nanoseconds on the CPU, per thread) rather than
//! `stat`'s clock ticks: an idle app spends a few milliseconds in 30 s, below a tick's
//! 10 ms resolution. Every thread counts: Slint, the renderer and the bots run their own.

use std::path::Path;
use std::time::Duration;

/// The value in kB of `field` (e.g. `VmHWM`, the peak resident set) in a `status` file.
pub fn status_kib(status: &str, field: &str) -> Option<u64> {
    status.lines().find_map(|line| {
        let (name, rest) = line.split_once(':')?;
        if name.trim() != field {
            return None;
        }
        let mut words = rest.split_whitespace();
        let value = words.next()?.parse().ok()?;
        match words.next() {
            Some("kB") | None => Some(value),
            Some(_) => None,
        }
    })
}

/// The time on the CPU in a `schedstat` line ("run-ns wait-ns timeslices").
pub fn schedstat_cpu(schedstat: &str) -> Option<Duration> {
    let ns: u64 = schedstat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Peak resident memory (kB) of process `pid`.
pub fn peak_rss_kib(pid: u32) -> Result<u64, String> {
    let path = format!("/proc/{pid}/status");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    status_kib(&text, "VmHWM").ok_or_else(|| format!("{path}: no VmHWM"))
}

/// CPU time used so far by all threads of process `pid` (threads that ended are lost,
/// which is why the idle bench reads it twice and subtracts).
pub fn cpu_time(pid: u32) -> Result<Duration, String> {
    let dir = format!("/proc/{pid}/task");
    let tasks = std::fs::read_dir(&dir).map_err(|e| format!("{dir}: {e}"))?;
    let mut total = Duration::ZERO;
    for task in tasks.flatten() {
        let path = task.path().join("schedstat");
        // A thread may end between listing and reading: it then simply does not count.
        if let Ok(text) = std::fs::read_to_string(&path) {
            total += schedstat_cpu(&text)
                .ok_or_else(|| format!("{}: unreadable", Path::new(&path).display()))?;
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATUS: &str = "Name:\thotseat\nUmask:\t0022\nState:\tS (sleeping)\n\
VmPeak:\t  812344 kB\nVmSize:\t  812000 kB\nVmHWM:\t   98304 kB\nVmRSS:\t   90112 kB\nThreads:\t5\n";

    #[test]
    fn the_peak_resident_set_is_read_from_status() {
        assert_eq!(status_kib(STATUS, "VmHWM"), Some(98_304));
        assert_eq!(status_kib(STATUS, "VmRSS"), Some(90_112));
    }

    #[test]
    fn a_missing_or_odd_field_is_none() {
        assert_eq!(status_kib(STATUS, "VmSwap"), None);
        assert_eq!(status_kib("VmHWM:\t12 MB\n", "VmHWM"), None);
        assert_eq!(status_kib("VmHWM:\tlots kB\n", "VmHWM"), None);
        // A prefix of another field's name is not that field.
        assert_eq!(status_kib(STATUS, "Vm"), None);
    }

    #[test]
    fn schedstat_gives_nanoseconds_on_the_cpu() {
        assert_eq!(
            schedstat_cpu("1234567 89 10\n"),
            Some(Duration::from_nanos(1_234_567))
        );
        assert_eq!(schedstat_cpu(""), None);
        assert_eq!(schedstat_cpu("x 1 2"), None);
    }

    #[test]
    fn this_process_has_a_peak_and_a_cpu_time() {
        let pid = std::process::id();
        assert!(peak_rss_kib(pid).is_ok_and(|kib| kib > 0));
        assert!(cpu_time(pid).is_ok_and(|t| !t.is_zero()));
    }
}
