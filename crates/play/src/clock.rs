//! Chess clocks for the terminal game: under a time control (matchcore's,
//! read in the terminal's minutes: `5+3` is five minutes each and three
//! seconds added after each move), each side's time left, and the running
//! side's time charged when it moves. As on lichess and in `kestrel gui`,
//! a side's clock starts after its first move: each side's first move is
//! free and earns no increment.

use chess::{Color, Game};
use matchcore::time_control::TimeControl;
use std::time::{Duration, Instant};

/// Both sides' clocks under one time control.
#[derive(Clone, Debug)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    left: [Duration; 2],
    /// When the side to move's time started running.
    since: Instant,
    /// Whether each side has made its first move (its clock runs from then on).
    started: [bool; 2],
}

fn index(color: Color) -> usize {
    color.fold(0, 1)
}

impl Clock {
    /// Full time for both sides, neither clock running before its side's
    /// first move.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: [control.base; 2],
            since: Instant::now(),
            started: [false; 2],
        }
    }

    /// The time `color` has left, counting the running side's time used
    /// (the side to move's, once it has made its first move).
    pub fn left(&self, color: Color, to_move: Color) -> Duration {
        let left = self.left[index(color)];
        if color == to_move && self.started[index(color)] {
            left.saturating_sub(self.since.elapsed())
        } else {
            left
        }
    }

    /// True when `to_move` has used all its time.
    pub fn flagged(&self, to_move: Color) -> bool {
        self.left(to_move, to_move).is_zero()
    }

    /// `mover` has moved: its time used is taken off and the increment
    /// added (its first move is free: nothing taken, nothing added); the
    /// other side's time starts. False (and nothing changed) when its time
    /// had already run out.
    pub fn moved(&mut self, mover: Color) -> bool {
        if !self.started[index(mover)] {
            self.started[index(mover)] = true;
            self.since = Instant::now();
            return true;
        }
        let left = self.left(mover, mover);
        if left.is_zero() {
            return false;
        }
        self.left[index(mover)] = left + self.control.increment;
        self.since = Instant::now();
        true
    }

    /// Follows `game` after a takeback, a move put back or a clock set
    /// during a game: a side whose first move is not (or no longer) played
    /// has its clock stopped, and the running side's time restarts from now
    /// (the time spent meanwhile is not a move's).
    pub fn follow(&mut self, game: &Game) {
        let first = game.start().turn();
        let plies = game.moves().len();
        self.started[index(first)] = plies >= 1;
        self.started[index(!first)] = plies >= 2;
        self.since = Instant::now();
    }

    /// The search limits for the engine playing `to_move`: both sides'
    /// times and increments, as a UCI `go wtime btime winc binc`.
    pub fn limits(&self, to_move: Color) -> engine::Limits {
        let ms = |d: Duration| d.as_millis().min(u128::from(u64::MAX)) as u64;
        let inc = ms(self.control.increment);
        engine::Limits {
            wtime: Some(ms(self.left(Color::White, to_move)).max(1)),
            btime: Some(ms(self.left(Color::Black, to_move)).max(1)),
            winc: Some(inc),
            binc: Some(inc),
            ..engine::Limits::default()
        }
    }

    /// `White 4:57  Black 5:00`, tenths under ten seconds.
    pub fn show(&self, to_move: Color) -> String {
        format!(
            "White {}  Black {}",
            mmss(self.left(Color::White, to_move)),
            mmss(self.left(Color::Black, to_move))
        )
    }
}

/// `4:57`, `1:02:03`, `0:09.4`. Whole seconds are rounded up, as on a
/// chess clock: a clock just started shows its full time.
fn mmss(d: Duration) -> String {
    if d < Duration::from_secs(10) {
        return format!("0:0{:.1}", d.as_secs_f64().min(9.9));
    }
    let secs = d.as_millis().div_ceil(1000) as u64;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_moves_are_free_and_earn_no_increment() {
        let mut clock = Clock::new(TimeControl::parse_minutes("1+2").expect("tc"));
        let full = Duration::from_secs(60);
        assert!(!clock.flagged(Color::White));
        assert_eq!(clock.left(Color::White, Color::White), full, "not running");
        assert!(clock.moved(Color::White));
        assert!(clock.moved(Color::Black));
        assert_eq!(
            (
                clock.left(Color::White, Color::Black),
                clock.left(Color::Black, Color::White)
            ),
            (full, full),
            "both first moves free, no increment"
        );
        // A takeback of both: neither clock runs again.
        let mut game = Game::new(chess::Position::startpos());
        clock.follow(&game);
        assert_eq!(clock.left(Color::White, Color::White), full);
        let e4 = game.position().parse_san("e4").expect("legal");
        game.push(e4);
        clock.follow(&game);
        assert_eq!(clock.left(Color::Black, Color::Black), full);
    }

    #[test]
    fn moving_charges_the_mover_and_adds_the_increment() {
        let mut clock = Clock::new(TimeControl::parse_minutes("1+2").expect("tc"));
        assert!(clock.moved(Color::White) && clock.moved(Color::Black));
        assert!(clock.moved(Color::White));
        let white = clock.left(Color::White, Color::Black);
        assert!(white > Duration::from_secs(61) && white <= Duration::from_secs(62));
        let limits = clock.limits(Color::Black);
        assert_eq!(limits.winc, Some(2000));
        assert!(limits.btime.is_some_and(|b| b <= 60_000 && b > 59_000));
        assert!(!clock.flagged(Color::Black));
    }

    #[test]
    fn times_read_well() {
        assert_eq!(mmss(Duration::from_secs(297)), "4:57");
        assert_eq!(mmss(Duration::from_millis(59_990)), "1:00");
        assert_eq!(mmss(Duration::from_secs(3723)), "1:02:03");
        assert_eq!(mmss(Duration::from_millis(9420)), "0:09.4");
        assert_eq!(mmss(Duration::ZERO), "0:00.0");
    }
}
