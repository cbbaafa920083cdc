//! The xboard time controls (`level`, `st`, `sd`, `nps`) and the clocks
//! (`time`, `otim`), turned into the engine's search limits so that xboard
//! games use the same time management as UCI ones.

use engine::Limits;
use std::fmt;

/// Why a `level` command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError(String);

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LevelError {}

/// A clock time control: `level MPS BASE INC`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per period (0: the whole game is one period).
    pub moves_per_period: u32,
    /// Time for a period, milliseconds.
    pub base_ms: u64,
    /// Increment per move, milliseconds.
    pub inc_ms: u64,
}

impl Default for Level {
    /// XBoard's own default: 40 moves in 5 minutes.
    fn default() -> Level {
        Level {
            moves_per_period: 40,
            base_ms: 5 * 60_000,
            inc_ms: 0,
        }
    }
}

impl Level {
    /// Parses the arguments of `level`: `40 5 0`, `0 2:30 1`, `0 0:05 0.1`.
    pub fn parse(args: &[&str]) -> Result<Level, LevelError> {
        let [mps, base, inc] = args else {
            return Err(LevelError(
                "level takes three values: moves per period, base time (minutes or min:sec), increment (seconds)".into(),
            ));
        };
        let moves_per_period = mps
            .parse::<u32>()
            .ok()
            .filter(|m| *m <= 10_000)
            .ok_or_else(|| {
                LevelError(format!(
                    "moves per period '{mps}' is not a number from 0 to 10000"
                ))
            })?;
        let base_ms = match base.split_once(':') {
            Some((min, sec)) => {
                let min = parse_number(min, "minutes")?;
                let sec = parse_number(sec, "seconds")?;
                min * 60_000.0 + sec * 1000.0
            }
            None => parse_number(base, "minutes")? * 60_000.0,
        };
        let inc_ms = parse_number(inc, "increment")? * 1000.0;
        if base_ms < 1.0 && inc_ms < 1.0 {
            return Err(LevelError("level with no time at all".into()));
        }
        Ok(Level {
            moves_per_period,
            base_ms: base_ms.round() as u64,
            inc_ms: inc_ms.round() as u64,
        })
    }

    /// Moves to play before the next period, `moves_made` moves into the game
    /// (`None` for incremental or sudden-death controls).
    pub fn moves_to_go(&self, moves_made: u32) -> Option<u32> {
        (self.moves_per_period > 0)
            .then(|| self.moves_per_period - moves_made % self.moves_per_period)
    }
}

/// A number of minutes or seconds: finite, not negative, not absurd.
fn parse_number(text: &str, what: &str) -> Result<f64, LevelError> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1e7).contains(&v) => Ok(v),
        _ => Err(LevelError(format!("{what} '{text}' is not a number"))),
    }
}

/// How long the engine may think: the current xboard settings (`level`,
/// `st`, `sd`, `nps`, `time`, `otim`). Not a game clock: matchcore's
/// `TimeControl` is that.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct XboardLimits {
    /// The clock control (`level`), if any.
    pub level: Option<Level>,
    /// Fixed seconds per move (`st`), in milliseconds; overrides `level`.
    pub move_time_ms: Option<u64>,
    /// Depth limit (`sd`).
    pub depth: Option<i32>,
    /// Node budget per second of thinking time (`nps`): searches count nodes, not time.
    pub nps: Option<u64>,
    /// The engine's clock (`time`), milliseconds.
    pub my_clock_ms: Option<u64>,
    /// The opponent's clock (`otim`), milliseconds.
    pub other_clock_ms: Option<u64>,
}

impl XboardLimits {
    /// The limits of a search for a game move by the side `white` (to move),
    /// `moves_made` moves into the game.
    pub fn limits(&self, white: bool, moves_made: u32) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if let Some(ms) = self.move_time_ms {
            limits.movetime = Some(ms);
        } else if let Some(level) = self.level {
            let mine = self.my_clock_ms.unwrap_or(level.base_ms);
            let theirs = self.other_clock_ms.unwrap_or(level.base_ms);
            let (w, b) = if white {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            limits.wtime = Some(w);
            limits.btime = Some(b);
            limits.winc = Some(level.inc_ms);
            limits.binc = Some(level.inc_ms);
            limits.movestogo = level.moves_to_go(moves_made);
        } else if self.depth.is_none() {
            // Nothing set at all: think a few seconds rather than forever.
            limits.movetime = Some(5_000);
        }
        if let Some(nps) = self.nps {
            // Fixed nodes per second: turn the time the move would get into nodes.
            let ms = limits.movetime.unwrap_or_else(|| {
                let clock = if white { limits.wtime } else { limits.btime }.unwrap_or(0);
                clock / limits.movestogo.map_or(30, u64::from) + limits.winc.unwrap_or(0)
            });
            limits.nodes = Some((nps.saturating_mul(ms) / 1000).max(1));
            limits.movetime = None;
            limits.wtime = None;
            limits.btime = None;
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_form() {
        assert_eq!(
            Level::parse(&["40", "5", "0"]),
            Ok(Level {
                moves_per_period: 40,
                base_ms: 300_000,
                inc_ms: 0
            })
        );
        assert_eq!(
            Level::parse(&["0", "2:30", "1"]),
            Ok(Level {
                moves_per_period: 0,
                base_ms: 150_000,
                inc_ms: 1000
            })
        );
        assert_eq!(
            Level::parse(&["0", "0:05", "0.05"]),
            Ok(Level {
                moves_per_period: 0,
                base_ms: 5_000,
                inc_ms: 50
            })
        );
        assert_eq!(
            Level::parse(&["0", "0.5", "0"]).map(|l| l.base_ms),
            Ok(30_000)
        );
        for bad in [
            &["40", "5"][..],
            &["x", "5", "0"],
            &["0", "-1", "0"],
            &["0", "0", "0"],
            &["0", "1:x", "0"],
            &["0", "NaN", "0"],
        ] {
            assert!(Level::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn moves_to_go_counts_down_each_period() {
        let l = Level {
            moves_per_period: 40,
            base_ms: 1,
            inc_ms: 0,
        };
        assert_eq!(l.moves_to_go(0), Some(40));
        assert_eq!(l.moves_to_go(39), Some(1));
        assert_eq!(l.moves_to_go(40), Some(40));
        assert_eq!(
            Level {
                moves_per_period: 0,
                ..l
            }
            .moves_to_go(7),
            None
        );
    }

    #[test]
    fn limits_from_clocks() {
        let tc = XboardLimits {
            level: Some(Level {
                moves_per_period: 0,
                base_ms: 60_000,
                inc_ms: 500,
            }),
            my_clock_ms: Some(12_000),
            other_clock_ms: Some(34_000),
            ..XboardLimits::default()
        };
        let l = tc.limits(false, 10);
        assert_eq!(
            (l.wtime, l.btime, l.binc, l.movestogo),
            (Some(34_000), Some(12_000), Some(500), None)
        );
        let st = XboardLimits {
            move_time_ms: Some(2_000),
            ..tc
        };
        assert_eq!(st.limits(true, 0).movetime, Some(2_000));
        let nps = XboardLimits {
            nps: Some(10_000),
            ..st
        };
        assert_eq!(nps.limits(true, 0).nodes, Some(20_000));
        let sd = XboardLimits {
            depth: Some(3),
            ..XboardLimits::default()
        };
        assert_eq!(
            (sd.limits(true, 0).depth, sd.limits(true, 0).movetime),
            (Some(3), None)
        );
    }
}
