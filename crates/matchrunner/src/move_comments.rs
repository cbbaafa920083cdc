//! What `-pgnout` records of each engine move, with fastchess's keys
//! (`nodes= seldepth= nps= hashfull= tbhits= timeleft= latency= pv=
//! match_line=`), and the comment it writes as fastchess writes it: the
//! score, depth and time (`+0.35/12 1.241s`, `0.00/9 0.004s`, `+M5/30
//! 0.120s`), then each figure asked for (`tl=`, `latency=`, `n=`, `sd=`,
//! `nps=`, `hashfull=`, `tbhits=`, `pv="..."`, `line="..."`), joined by
//! `, `.

use matchcore::game_loop::MoveTime;
use matchcore::player::{Score, Thought};
use pgn::Notation;
use std::time::Duration;

/// The figures `-pgnout` adds to each engine move's comment, and how moves
/// are spelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDetail {
    /// How moves are written (`notation=san|lan|uci`).
    pub notation: Notation,
    /// Nodes searched (`nodes=true`: `n=`).
    pub nodes: bool,
    /// Selective depth (`seldepth=true`: `sd=`).
    pub seldepth: bool,
    /// Nodes a second (`nps=true`).
    pub nps: bool,
    /// Hash fill, per mille (`hashfull=true`).
    pub hashfull: bool,
    /// Tablebase hits (`tbhits=true`).
    pub tbhits: bool,
    /// The clock after the move (`timeleft=true`: `tl=`).
    pub timeleft: bool,
    /// The runner's time less the engine's own last reported time
    /// (`latency=true`).
    pub latency: bool,
    /// The principal variation (`pv=true`).
    pub pv: bool,
    /// Patterns (regular expressions) of engine output lines to keep: the
    /// last line of each move matching each (`match_line=REGEX`, repeatable).
    pub match_lines: Vec<String>,
    /// Whether the PGN file is appended to (`append=true`, the default) or
    /// started afresh.
    pub append: bool,
}

impl Default for MoveDetail {
    fn default() -> MoveDetail {
        MoveDetail {
            notation: Notation::San,
            nodes: false,
            seldepth: false,
            nps: false,
            hashfull: false,
            tbhits: false,
            timeleft: false,
            latency: false,
            pv: false,
            match_lines: Vec::new(),
            append: true,
        }
    }
}

/// A time as fastchess writes it in `tl=` and `latency=`: seconds with
/// three decimals (negative for a clock run out).
fn seconds(millis: i128) -> String {
    let sign = if millis < 0 { "-" } else { "" };
    let m = millis.unsigned_abs();
    format!("{sign}{}.{:03}s", m / 1000, m % 1000)
}

/// A score as fastchess's PGN writes it: pawns with two decimals, signed
/// unless zero (`+0.35`, `-1.20`, `0.00`); a mate in plies (`+M5` mates in
/// three moves, `-M4` is mated in two).
pub fn fastchess_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => {
            let sign = match cp.signum() {
                1 => "+",
                -1 => "-",
                _ => "",
            };
            let cp = cp.unsigned_abs();
            format!("{sign}{}.{:02}", cp / 100, cp % 100)
        }
        Score::Mate(n) if n > 0 => format!("+M{}", 2 * i64::from(n) - 1),
        Score::Mate(n) => format!("-M{}", -2 * i64::from(n)),
    }
}

impl MoveDetail {
    /// The comment of one engine move: the score (nothing when the engine
    /// gave none), the depth (0 when it gave none) and the time in
    /// milliseconds, then the figures asked for.
    pub fn comment(&self, thought: &Thought, time: MoveTime) -> String {
        let ms = |d: Duration| i128::try_from(d.as_millis()).unwrap_or(i128::MAX);
        let mut parts = vec![format!(
            "{}/{} {}",
            thought.score.map(fastchess_score).unwrap_or_default(),
            thought.depth.unwrap_or(0),
            seconds(ms(time.elapsed))
        )];
        // As fastchess: a figure the engine did not report is 0.
        if self.timeleft {
            parts.push(format!("tl={}", seconds(time.left.map_or(0, ms))));
        }
        if self.latency {
            let latency = ms(time.elapsed) - thought.time.map_or(0, ms);
            parts.push(format!("latency={}", seconds(latency)));
        }
        let figure = |on: bool, key: &str, value: Option<u64>| {
            on.then(|| format!("{key}={}", value.unwrap_or(0)))
        };
        parts.extend(figure(self.nodes, "n", thought.nodes));
        parts.extend(figure(self.seldepth, "sd", thought.seldepth.map(u64::from)));
        parts.extend(figure(self.nps, "nps", thought.nps));
        parts.extend(figure(
            self.hashfull,
            "hashfull",
            thought.hashfull.map(u64::from),
        ));
        parts.extend(figure(self.tbhits, "tbhits", thought.tbhits));
        if self.pv {
            parts.push(format!("pv=\"{}\"", thought.pv.join(" ")));
        }
        parts.extend(thought.lines.iter().map(|l| format!("line=\"{l}\"")));
        parts.join(", ")
    }
}

/// Every figure on, nothing else changed (for tests).
#[cfg(test)]
pub(crate) fn every_figure() -> MoveDetail {
    MoveDetail {
        nodes: true,
        seldepth: true,
        nps: true,
        hashfull: true,
        tbhits: true,
        timeleft: true,
        latency: true,
        pv: true,
        ..MoveDetail::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchcore::player::Score;

    fn thought() -> Thought {
        Thought {
            score: Some(Score::Cp(35)),
            depth: Some(12),
            seldepth: Some(19),
            nodes: Some(20_000),
            nps: Some(1_500_000),
            hashfull: Some(4),
            tbhits: None,
            time: Some(Duration::from_millis(1_230)),
            pv: vec!["e2e4".into(), "e7e5".into()],
            bound: false,
            lines: vec!["info string NNUE".into()],
        }
    }

    #[test]
    fn the_comment_has_what_was_asked() {
        let time = MoveTime {
            elapsed: Duration::from_millis(1_241),
            left: Some(Duration::from_millis(8_759)),
        };
        let plain = MoveDetail::default();
        assert_eq!(
            plain.comment(&thought(), time),
            "+0.35/12 1.241s, line=\"info string NNUE\""
        );
        let all = every_figure();
        assert_eq!(
            all.comment(
                &Thought {
                    lines: Vec::new(),
                    ..thought()
                },
                time
            ),
            "+0.35/12 1.241s, tl=8.759s, latency=0.011s, n=20000, sd=19, nps=1500000, \
             hashfull=4, tbhits=0, pv=\"e2e4 e7e5\""
        );
        let bare = MoveTime {
            elapsed: Duration::from_millis(5),
            left: None,
        };
        assert_eq!(
            all.comment(&Thought::default(), bare),
            "/0 0.005s, tl=0.000s, latency=0.005s, n=0, sd=0, nps=0, hashfull=0, tbhits=0, pv=\"\""
        );
    }

    #[test]
    fn scores_read_as_fastchess_writes_them() {
        let cases = [
            (Score::Cp(35), "+0.35"),
            (Score::Cp(-120), "-1.20"),
            (Score::Cp(0), "0.00"),
            (Score::Cp(-5), "-0.05"),
            (Score::Mate(3), "+M5"),
            (Score::Mate(-2), "-M4"),
        ];
        for (score, text) in cases {
            assert_eq!(fastchess_score(score), text);
        }
    }

    #[test]
    fn times_are_written_with_three_decimals() {
        assert_eq!(seconds(8_759), "8.759s");
        assert_eq!(seconds(-42), "-0.042s");
        assert_eq!(seconds(0), "0.000s");
    }
}
