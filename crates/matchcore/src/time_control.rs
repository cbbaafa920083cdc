//! Time controls as cutechess-cli writes them: `40/60+0.6` (moves/seconds+increment),
//! `60+0.6`, `1:30+1`, `inf`; and the clock the runner keeps for each side.

use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// A game clock setting: time for a number of moves (or the whole game) plus
/// an increment per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Moves per period; `None` for the whole game (sudden death).
    pub moves: Option<u32>,
    /// Time for the period.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

/// A time control that cannot be read.
#[derive(Debug, Error, PartialEq)]
#[error("bad time control '{0}': write MOVES/SECONDS+INCREMENT, e.g. 40/60+0.6, 10+0.1 or 1:30")]
pub struct TimeControlError(pub String);

fn seconds(text: &str) -> Option<f64> {
    // cutechess accepts minutes:seconds as well as plain seconds.
    let value = match text.split_once(':') {
        Some((m, s)) => m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?,
        None => text.parse::<f64>().ok()?,
    };
    (value.is_finite() && value >= 0.0).then_some(value)
}

impl TimeControl {
    /// Reads `[MOVES/]TIME[+INC]`; `None` for `inf` (no clock).
    pub fn parse(text: &str) -> Result<Option<TimeControl>, TimeControlError> {
        let err = || TimeControlError(text.to_string());
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
        let tc = TimeControl::parse("40/60+0.6").unwrap().unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.base, Duration::from_secs(60));
        assert_eq!(tc.increment, ms(600));
        let tc = TimeControl::parse("1:30+1").unwrap().unwrap();
        assert_eq!(tc.base, Duration::from_secs(90));
        assert_eq!(tc.moves, None);
        assert_eq!(TimeControl::parse("10").unwrap().unwrap().increment, ms(0));
        assert_eq!(TimeControl::parse("inf").unwrap(), None);
        // fastchess's sudden death with a moves field of 0.
        let tc = TimeControl::parse("0/60+0.6").unwrap().unwrap();
        assert_eq!((tc.moves, tc.base), (None, Duration::from_secs(60)));
        assert!(TimeControl::parse("x/60").is_err());
        assert_eq!(
            TimeControl::parse("40/60+0.6")
                .unwrap()
                .unwrap()
                .to_string(),
            "40/60+0.6"
        );
        for bad in ["", "abc", "x/10", "10+x", "-5", "0+0", "0/0"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_adds_increment_and_periods() {
        let tc = TimeControl::parse("2/1+0.1").unwrap().unwrap();
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
        let tc = TimeControl::parse("1").unwrap().unwrap();
        let mut c = Clock::new(tc);
        assert_eq!(c.spend(ms(1040), ms(50)), ClockResult::Ok);
        let mut c = Clock::new(tc);
        assert_eq!(
            c.spend(ms(1250), ms(50)),
            ClockResult::Forfeit { over: ms(250) }
        );
    }
}
