//! The one time control of every way of playing games, read in each syntax
//! by its own parser: the match runner's as cutechess-cli and fastchess
//! write it, in seconds (`40/60+0.6`, `60+0.6`, `1:30+1`, `inf`:
//! [`TimeControl::parse_seconds`]), and the terminal game's in minutes
//! (`5+3`: five minutes and three seconds a move, [`TimeControl::parse_minutes`]).
//! `5+3` is five seconds to one and five minutes to the other, so each
//! caller names the syntax it reads. Also the clock the runner keeps for
//! each side.

use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// A game clock setting: time for a number of moves (or the whole game) plus
/// an increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period; `None` for the whole game (sudden death).
    pub moves: Option<u32>,
    /// Time for the period.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

/// A time control that cannot be read, in the syntax that was asked for.
#[derive(Debug, Error, PartialEq)]
pub enum TimeControlError {
    /// Not `[MOVES/]SECONDS[+INCREMENT]` (cutechess-cli's and fastchess's syntax).
    #[error(
        "bad time control '{0}': write MOVES/SECONDS+INCREMENT, e.g. 40/60+0.6, 10+0.1 or 1:30"
    )]
    Seconds(String),
    /// Not `MINUTES[+SECONDS]` (the terminal game's syntax).
    #[error(
        "time control '{0}' must be MINUTES+SECONDS, e.g. 5+3, 10+0 or 0.5+1 (up to 600 minutes)"
    )]
    Minutes(String),
}

fn seconds(text: &str) -> Option<f64> {
    // cutechess accepts minutes:seconds as well as plain seconds.
    let value = match text.split_once(':') {
        Some((m, s)) => m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?,
        None => text.parse::<f64>().ok()?,
    };
    (value.is_finite() && value >= 0.0).then_some(value)
}

impl TimeControl {
    /// Reads cutechess-cli's and fastchess's `[MOVES/]SECONDS[+INCREMENT]`
    /// (times in seconds or `MINUTES:SECONDS`); `None` for `inf` (no clock).
    pub fn parse_seconds(text: &str) -> Result<Option<TimeControl>, TimeControlError> {
        let err = || TimeControlError::Seconds(text.to_string());
        let t = text.trim();
        if t.eq_ignore_ascii_case("inf") || t.eq_ignore_ascii_case("infinite") {
            return Ok(None);
        }
        let (moves, rest) = match t.split_once('/') {
            // fastchess writes sudden death as 0 moves: `0/60+0.6` is `60+0.6`.
            Some((m, r)) => (
                Some(m.parse::<u32>().map_err(|_| err())?).filter(|&m| m > 0),
                r,
            ),
            None => (None, t),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b).ok_or_else(err)?, seconds(i).ok_or_else(err)?),
            None => (seconds(rest).ok_or_else(err)?, 0.0),
        };
        if base == 0.0 && inc == 0.0 {
            return Err(err());
        }
        Ok(Some(TimeControl {
            moves,
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(inc),
        }))
    }
}

impl TimeControl {
    /// Reads the terminal game's `MINUTES[+SECONDS]`: `5+3` (five minutes
    /// each, three seconds added a move), `10`, `0.5+1`; each number at most
    /// 600, sudden death.
    pub fn parse_minutes(text: &str) -> Result<TimeControl, TimeControlError> {
        let bad = || TimeControlError::Minutes(text.to_string());
        let (minutes, seconds) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let minutes: f64 = minutes.trim().parse().map_err(|_| bad())?;
        let seconds: f64 = seconds.trim().parse().map_err(|_| bad())?;
        // Ranges refuse NaN and infinities too.
        let in_range = |x: f64| (0.0..=600.0).contains(&x);
        if !in_range(minutes) || !in_range(seconds) || minutes == 0.0 && seconds == 0.0 {
            return Err(bad());
        }
        Ok(TimeControl {
            moves: None,
            base: Duration::from_secs_f64(minutes * 60.0),
            increment: Duration::from_secs_f64(seconds),
        })
    }

    /// The control in the terminal's syntax, `MINUTES+SECONDS` (`5+3`,
    /// `0.5+0`), as [`TimeControl::parse_minutes`] reads it.
    pub fn in_minutes(&self) -> String {
        let mut text = format!(
            "{}+{}",
            trim(self.base.as_secs_f64() / 60.0),
            trim(self.increment.as_secs_f64())
        );
        if let Some(m) = self.moves {
            text = format!("{m}/{text}");
        }
        text
    }
}

/// `5`, `0.5`: two decimals at most, no trailing zeros.
fn trim(x: f64) -> String {
    let text = format!("{x:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag form: `40/60+0.6`, `10+0.1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    tc: TimeControl,
    left: Duration,
    /// Moves made in the current period (of `tc.moves`).
    period_moves: u32,
}

/// What happened to the clock after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockResult {
    /// In time.
    Ok,
    /// Flag fell: the move took this much longer than the time left (margin included).
    Forfeit {
        /// By how much the time was exceeded.
        over: Duration,
    },
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            left: tc.base,
            period_moves: 0,
        }
    }

    /// Time left now.
    pub fn left(&self) -> Duration {
        self.left
    }

    /// Moves until the next time control, for UCI's `movestogo`.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.period_moves)
    }

    /// The setting.
    pub fn control(&self) -> TimeControl {
        self.tc
    }

    /// Charges `used` for one move; a move may overrun by `margin` without losing.
    pub fn spend(&mut self, used: Duration, margin: Duration) -> ClockResult {
        if used > self.left + margin {
            let over = used.saturating_sub(self.left);
            self.left = Duration::ZERO;
            return ClockResult::Forfeit { over };
        }
        self.left = self.left.saturating_sub(used) + self.tc.increment;
        if let Some(m) = self.tc.moves {
            self.period_moves += 1;
            if self.period_moves == m {
                self.period_moves = 0;
                self.left += self.tc.base;
            }
        }
        ClockResult::Ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn reads_cutechess_forms() {
        let tc = TimeControl::parse_seconds("40/60+0.6").unwrap().unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.base, Duration::from_secs(60));
        assert_eq!(tc.increment, ms(600));
        let tc = TimeControl::parse_seconds("1:30+1").unwrap().unwrap();
        assert_eq!(tc.base, Duration::from_secs(90));
        assert_eq!(tc.moves, None);
        assert_eq!(
            TimeControl::parse_seconds("10").unwrap().unwrap().increment,
            ms(0)
        );
        assert_eq!(TimeControl::parse_seconds("inf").unwrap(), None);
        // fastchess's sudden death with a moves field of 0.
        let tc = TimeControl::parse_seconds("0/60+0.6").unwrap().unwrap();
        assert_eq!((tc.moves, tc.base), (None, Duration::from_secs(60)));
        assert!(TimeControl::parse_seconds("x/60").is_err());
        assert_eq!(
            TimeControl::parse_seconds("40/60+0.6")
                .unwrap()
                .unwrap()
                .to_string(),
            "40/60+0.6"
        );
        for bad in ["", "abc", "x/10", "10+x", "-5", "0+0", "0/0"] {
            assert!(TimeControl::parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_the_terminals_minutes() {
        let tc = TimeControl::parse_minutes("5+3").unwrap();
        assert_eq!(tc.moves, None);
        assert_eq!(tc.base, Duration::from_secs(300));
        assert_eq!(tc.increment, Duration::from_secs(3));
        assert_eq!(tc.in_minutes(), "5+3");
        // The same text in the runner's syntax is five seconds.
        let seconds = TimeControl::parse_seconds("5+3").unwrap().unwrap();
        assert_eq!(seconds.base, Duration::from_secs(5));
        assert_eq!(tc.to_string(), "300+3");
        assert_eq!(
            TimeControl::parse_minutes("0.5").unwrap().in_minutes(),
            "0.5+0"
        );
        for bad in [
            "", "five", "5+", "-1+0", "0+0", "inf+1", "NaN", "601+0", "5+3+1", "40/5+3",
        ] {
            assert_eq!(
                TimeControl::parse_minutes(bad),
                Err(TimeControlError::Minutes(bad.to_string())),
                "{bad}"
            );
        }
    }

    #[test]
    fn clock_adds_increment_and_periods() {
        let tc = TimeControl::parse_seconds("2/1+0.1").unwrap().unwrap();
        let mut c = Clock::new(tc);
        assert_eq!(c.moves_to_go(), Some(2));
        assert_eq!(c.spend(ms(300), ms(0)), ClockResult::Ok);
        assert_eq!(c.left(), ms(800));
        assert_eq!(c.moves_to_go(), Some(1));
        assert_eq!(c.spend(ms(300), ms(0)), ClockResult::Ok);
        // 800 - 300 + 100 increment + 1000 for the new period.
        assert_eq!(c.left(), ms(1600));
        assert_eq!(c.moves_to_go(), Some(2));
    }

    #[test]
    fn forfeit_reports_the_overrun_and_honours_the_margin() {
        let tc = TimeControl::parse_seconds("1").unwrap().unwrap();
        let mut c = Clock::new(tc);
        assert_eq!(c.spend(ms(1040), ms(50)), ClockResult::Ok);
        let mut c = Clock::new(tc);
        assert_eq!(
            c.spend(ms(1250), ms(50)),
            ClockResult::Forfeit { over: ms(250) }
        );
    }
}
