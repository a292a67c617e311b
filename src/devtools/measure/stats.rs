//! Small statistics over repeated measurements: a median resists the odd slow run that a
//! busy two-core machine throws in, where a mean would not.

use std::time::Duration;

/// The median of `samples` (the mean of the middle two for an even count); `None` if empty.
pub fn median(samples: &[Duration]) -> Option<Duration> {
    let mut sorted = samples.to_vec();
    sorted.sort();
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2),
    }
}

/// The median of one part of each sample, as [`median`]; `None` if empty.
pub fn median_by<T>(samples: &[T], part: impl Fn(&T) -> Duration) -> Option<Duration> {
    median(&samples.iter().map(part).collect::<Vec<_>>())
}

/// The largest of `samples`; `None` if empty.
pub fn max(samples: &[Duration]) -> Option<Duration> {
    samples.iter().copied().max()
}

/// Milliseconds with two decimals, the unit every time in the table uses.
pub fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// `a / b` as "1.23×"; "–" when `b` is zero.
pub fn ratio(a: Duration, b: Duration) -> String {
    if b.is_zero() {
        return "–".into();
    }
    format!("{:.2}×", a.as_secs_f64() / b.as_secs_f64())
}

/// Kibibytes as mebibytes with one decimal.
pub fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn the_median_of_an_odd_count_is_the_middle_sample() {
        assert_eq!(median(&[d(9), d(1), d(5)]), Some(d(5)));
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&[d(4), d(1), d(10), d(2)]), Some(d(3)));
    }

    #[test]
    fn one_slow_run_does_not_move_the_median() {
        assert_eq!(median(&[d(10), d(11), d(900), d(10), d(12)]), Some(d(11)));
    }

    #[test]
    fn the_median_of_one_part_of_each_sample() {
        let runs = [(d(1), d(30)), (d(2), d(10)), (d(9), d(20))];
        assert_eq!(median_by(&runs, |r| r.0), Some(d(2)));
        assert_eq!(median_by(&runs, |r| r.1), Some(d(20)));
        assert_eq!(median_by(&[] as &[(Duration, Duration)], |r| r.0), None);
    }

    #[test]
    fn nothing_measured_has_no_median_or_max() {
        assert_eq!(median(&[]), None);
        assert_eq!(max(&[]), None);
    }

    #[test]
    fn figures_are_written_in_the_table_units() {
        assert_eq!(ms(Duration::from_micros(1500)), "1.50 ms");
        assert_eq!(ratio(d(120), d(100)), "1.20×");
        assert_eq!(ratio(d(1), Duration::ZERO), "–");
        assert_eq!(mib(2048 + 512), "2.5 MiB");
    }
}
