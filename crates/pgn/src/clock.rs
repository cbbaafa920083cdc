//! The clock command in PGN comments, `[%clk 0:02:58]`: the mover's time
//! left after a move, as lichess and chess.com write it and python-chess's
//! `GameNode.clock()` reads it (the "PGN Specification Supplement"'s
//! embedded commands). Written in whole seconds, lichess's form; read with
//! any fraction of a second, as chess.com writes `[%clk 0:02:58.9]`.

/// The longest clock read or written: 1000 hours, far beyond any game, so
/// that hostile text cannot overflow a millisecond count.
pub const MAX_CLOCK_MS: u64 = 1000 * 3_600_000;

/// `[%clk H:MM:SS]` for `ms` milliseconds left, rounded to the nearest
/// second as lichess rounds them (at most [`MAX_CLOCK_MS`]).
pub fn clock_command(ms: u64) -> String {
    let s = (ms.min(MAX_CLOCK_MS) + 500) / 1000;
    format!("[%clk {}:{:02}:{:02}]", s / 3600, s / 60 % 60, s % 60)
}

/// The first `[%clk H:MM:SS(.f)]` in a comment: its time in milliseconds
/// and the comment without it (trimmed; empty when it held nothing else).
/// `None` when the comment holds no well-formed clock command.
pub fn take_clock(comment: &str) -> Option<(u64, String)> {
    let mut from = 0;
    while let Some(at) = comment[from..].find("[%clk") {
        let start = from + at;
        let rest = &comment[start + "[%clk".len()..];
        // The time is short: a ']' far off is not this command's end
        // (and looking for it no further keeps hostile text linear).
        if let Some(end) = rest.bytes().take(40).position(|b| b == b']') {
            if let Some(ms) = parse_time(&rest[..end]) {
                let after = &comment[start + "[%clk".len() + end + 1..];
                let left = format!("{} {}", comment[..start].trim_end(), after.trim_start());
                return Some((ms, left.trim().to_string()));
            }
        }
        from = start + 1;
    }
    None
}

/// ` H:MM:SS` or ` H:MM:SS.fff` (at least one space first; hours of any
/// width up to [`MAX_CLOCK_MS`], minutes and seconds below 60).
fn parse_time(text: &str) -> Option<u64> {
    if !text.starts_with(char::is_whitespace) {
        return None;
    }
    let mut parts = text.trim().split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let number = |t: &str| -> Option<u64> {
        if t.is_empty() || t.len() > 7 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    let (h, m, whole) = (number(h)?, number(m)?, number(whole)?);
    if m >= 60 || whole >= 60 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Milliseconds from the first three digits of the fraction.
    let millis = fraction
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0, |acc, b| acc * 10 + u64::from(b - b'0'));
    let ms = ((h * 60 + m) * 60 + whole) * 1000 + millis;
    (ms <= MAX_CLOCK_MS).then_some(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_written_as_lichess_writes_them() {
        assert_eq!(clock_command(180_000), "[%clk 0:03:00]");
        assert_eq!(clock_command(178_400), "[%clk 0:02:58]");
        assert_eq!(clock_command(178_500), "[%clk 0:02:59]");
        assert_eq!(clock_command(0), "[%clk 0:00:00]");
        assert_eq!(clock_command(3_723_000), "[%clk 1:02:03]");
        assert_eq!(clock_command(u64::MAX), "[%clk 1000:00:00]");
    }

    #[test]
    fn clocks_are_read_from_comments_and_taken_out_of_them() {
        assert_eq!(take_clock("[%clk 0:03:00]"), Some((180_000, String::new())));
        assert_eq!(
            take_clock("[%eval 0.17] [%clk 0:02:58.9] good"),
            Some((178_900, "[%eval 0.17] good".into()))
        );
        assert_eq!(
            take_clock("[%clk 1:02:03.45] 1.50s"),
            Some((3_723_450, "1.50s".into()))
        );
        // A broken one first, a good one after: the good one.
        assert_eq!(
            take_clock("[%clk x] [%clk 0:00:07]"),
            Some((7_000, "[%clk x]".into()))
        );
        for bad in [
            "",
            "no clock",
            "[%clk]",
            "[%clk 0:03:00",
            "[%clk 0:60:00]",
            "[%clk 0:00:60]",
            "[%clk 0:00]",
            "[%clk 0:00:00:00]",
            "[%clk 99999999:00:00]",
            "[%clk 1001:00:00]",
            "[%clk 0:0a:00]",
            "[%clk 0:03:00.x]",
            "[%clk0:03:00]",
            "[%clk -1:00:00]",
        ] {
            assert_eq!(take_clock(bad), None, "{bad}");
        }
    }

    #[test]
    fn hostile_comments_are_read_in_one_pass() {
        let text = "[%clk 1:".repeat(100_000) + "]";
        assert_eq!(take_clock(&text), None);
        let text = "[%clk ".repeat(100_000) + "[%clk 0:00:01]";
        assert_eq!(take_clock(&text).map(|c| c.0), Some(1_000));
    }

    #[test]
    fn what_is_written_reads_back() {
        for ms in [0, 999, 1_000, 59_499, 179_999, 5_400_000, MAX_CLOCK_MS] {
            let (back, rest) = take_clock(&clock_command(ms)).expect("reads its own");
            assert_eq!(back, (ms + 500) / 1000 * 1000);
            assert!(rest.is_empty());
        }
    }
}
