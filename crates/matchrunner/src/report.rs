//! Results as text, in the forms cutechess-cli and fastchess users know:
//! `Score of A vs B: W - L - D  [0.550] N`, `Elo difference: ... LOS: ...`,
//! `Ptnml(0-2): [...]`, `SPRT: llr ...`, a rating table and a crosstable.

use crate::results::{HeadToHead, RunResults, SprtState};
use std::fmt::Write;

/// The score line: `Score of A vs B: 3 - 1 - 2  [0.667] 6`.
pub fn score_line(h: &HeadToHead) -> String {
    format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        h.first,
        h.second,
        h.wdl.wins,
        h.wdl.losses,
        h.wdl.draws,
        h.wdl.score(),
        h.wdl.games()
    )
}

/// The Elo line as fastchess's cutechess output writes it: `Elo
/// difference: 120.41 +/- 150.20, LOS: 90.12 %, DrawRatio: 33.33 %`, from
/// the game pairs when the statistics count pairs (Kestrel's default), else
/// from the games (`-output format=cutechess`, fastchess's numbers).
pub fn elo_line(h: &HeadToHead) -> String {
    let (f, draw_ratio) = figures(h);
    format!(
        "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
        fixed(f.elo, 2),
        fixed(f.elo_error, 2),
        fixed(100.0 * f.los, 2),
        fixed(draw_ratio, 2)
    )
}

/// fastchess's pentanomial line: `Ptnml(0-2): [1, 2, 5, 4, 3]`.
pub fn penta_line(h: &HeadToHead) -> String {
    let c = h.penta.counts;
    format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        c[0], c[1], c[2], c[3], c[4]
    )
}

/// The SPRT line as cutechess-cli (and fastchess's cutechess output)
/// writes it: `SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94`, with
/// ` - H1 was accepted` or ` - H0 was accepted` once the LLR has crossed a
/// bound; the percentage is of the bound the LLR heads for.
pub fn sprt_line(s: &SprtState) -> String {
    let percent = 100.0
        * if s.llr < 0.0 {
            s.llr / s.lower
        } else {
            s.llr / s.upper
        };
    let verdict = if s.llr >= s.upper {
        " - H1 was accepted"
    } else if s.llr < s.lower {
        " - H0 was accepted"
    } else {
        ""
    };
    format!(
        "SPRT: llr {:.2} ({percent:.1}%), lbound {:.2}, ubound {:.2}{verdict}",
        s.llr, s.lower, s.upper
    )
}

/// fastchess's line when the SPRT has decided: `SPRT ([0.00, 10.00])
/// completed - H1 was accepted` (`None` while it goes on).
pub fn sprt_completed_line(s: &SprtState) -> Option<String> {
    let hypothesis = match s.decision.as_str() {
        "H0" | "H1" => &s.decision,
        _ => return None,
    };
    Some(format!(
        "SPRT ([{:.2}, {:.2}]) completed - {hypothesis} was accepted",
        s.spec.elo0, s.spec.elo1
    ))
}

/// How results are printed (`-output format=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// cutechess-cli's lines as fastchess's cutechess output writes them
    /// (`Score of A vs B: ...`, `Elo difference: ...`, `SPRT: llr ...`),
    /// Kestrel's default, which adds fastchess's `Ptnml(0-2)` line when the
    /// statistics count game pairs.
    #[default]
    Cutechess,
    /// fastchess's block (`Results of A vs B (...)`, `Elo: ..., nElo:
    /// ...`, `LLR: ...`) between dashed lines.
    Fastchess,
}

impl OutputFormat {
    /// The format `-output format=NAME` names.
    pub fn from_name(name: &str) -> Option<OutputFormat> {
        match name {
            "cutechess" => Some(OutputFormat::Cutechess),
            "fastchess" => Some(OutputFormat::Fastchess),
            _ => None,
        }
    }
}

/// What fastchess's results header says of each engine (by index): its
/// limit (`10+0.1`, `0.5/move`, `8 plies`, `300 nodes`), its `Threads`
/// and `Hash` options (the value set, or the engine's default; `NULL` for
/// an engine without one), and the openings file's name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matchup {
    /// Each engine's limit as fastchess writes it.
    pub limits: Vec<String>,
    /// Each engine's threads (`1t`).
    pub threads: Vec<String>,
    /// Each engine's hash (`16MB`).
    pub hash: Vec<String>,
    /// The openings file's name, without its folder (empty when none).
    pub book: String,
    /// What each engine calls itself (`id name`, `id author`; empty when
    /// unknown), for the PGN's `EngineWhiteName` and the like.
    pub ids: Vec<(String, String)>,
}

/// The results as `format` prints them at the end; `matchup` gives
/// fastchess's header (a merge of shards has none).
pub fn report_in(r: &RunResults, format: OutputFormat, matchup: Option<&Matchup>) -> String {
    match format {
        OutputFormat::Cutechess => report(r),
        OutputFormat::Fastchess => fastchess_report(r, matchup),
    }
}

/// The results as `format` prints them at a rating interval (fastchess's
/// `printInterval`): fastchess's block, or cutechess's Elo and SPRT lines
/// (the score line is `-scoreinterval`'s); a tournament's table.
pub fn interval_in(r: &RunResults, format: OutputFormat, matchup: Option<&Matchup>) -> String {
    match format {
        OutputFormat::Cutechess if r.engines.len() == 2 => {
            let h = HeadToHead::count_as(&r.engines[0], &r.engines[1], &r.games, r.paired);
            let mut out = format!("{}\n", elo_line(&h));
            if r.paired {
                writeln!(out, "{}", penta_line(&h)).unwrap();
            }
            if let Some(s) = &r.sprt {
                writeln!(out, "{}", sprt_line(s)).unwrap();
            }
            out
        }
        _ => report_in(r, format, matchup),
    }
}

/// A number as C's `printf("%.2f")` (and fastchess's fmt) writes it, with
/// `inf`, `-inf`, `nan` and `-nan` where the formula gives no number.
fn fixed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        if x.is_sign_negative() { "-nan" } else { "nan" }.to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:.decimals$}")
    }
}

/// A number as C's `%.{precision}g` writes it: `precision` significant
/// digits, trailing zeros dropped, in exponent form when very large or small.
pub fn general(x: f64, precision: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return fixed(x, 0);
    }
    let p = precision.max(1);
    // The exponent after rounding to p digits, as %e gives it.
    let sci = format!("{:.*e}", p - 1, x);
    let (mantissa, exp) = sci.split_once('e').expect("an exponent");
    let exp: i32 = exp.parse().expect("a number");
    let trim = |t: &str| {
        if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            t.to_string()
        }
    };
    if exp < -4 || exp >= p as i32 {
        format!(
            "{}e{}{:02}",
            trim(mantissa),
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        )
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        trim(&format!("{x:.decimals$}"))
    }
}

/// An engine's limit as fastchess's header writes it.
pub fn fastchess_limit(l: &matchcore::search_limits::SearchLimits) -> String {
    if let Some(tc) = l.tc.filter(|t| !(t.base + t.increment).is_zero()) {
        let moves = tc.moves.filter(|&m| m > 0).map(|m| format!("{m}/"));
        let inc = (!tc.increment.is_zero())
            .then(|| format!("+{}", general(tc.increment.as_secs_f64(), 2)));
        return format!(
            "{}{}{}",
            moves.unwrap_or_default(),
            tc.base.as_secs_f64(),
            inc.unwrap_or_default()
        );
    }
    if let Some(t) = l.movetime {
        return format!("{}/move", t.as_secs_f64());
    }
    if let Some(d) = l.depth {
        return format!("{d} plies");
    }
    l.nodes.map(|n| format!("{n} nodes")).unwrap_or_default()
}

/// fastchess's Elo, nElo and LOS of one engine's counts, from pairs when
/// it reports pairs, and its draw ratio (of pairs then: one point each).
fn figures(h: &HeadToHead) -> (elo::FastchessFigures, f64) {
    if h.paired {
        let draws = 100.0 * h.penta.counts[2] as f64 / h.penta.pairs() as f64;
        (h.penta.fastchess(h.pairs_won_lost), draws)
    } else {
        let draws = 100.0 * h.wdl.draws as f64 / h.wdl.games() as f64;
        (h.wdl.fastchess(), draws)
    }
}

/// `A` when both engines have it, else `A - B`, as fastchess's header.
fn both(values: &[String]) -> String {
    match values {
        [a, b] if a != b => format!("{a} - {b}"),
        [a, ..] => a.clone(),
        [] => String::new(),
    }
}

/// fastchess's results (`-output format=fastchess`): for two engines the
/// block it prints at each rating interval and at the end, for more its
/// table of each engine against the field.
pub fn fastchess_report(r: &RunResults, matchup: Option<&Matchup>) -> String {
    let dashes = "-".repeat(50);
    let mut out = format!("{dashes}\n");
    if r.engines.len() == 2 {
        let h = HeadToHead::count_as(&r.engines[0], &r.engines[1], &r.games, r.paired);
        let (f, draw_ratio) = figures(&h);
        let header = match matchup {
            Some(m) => format!(
                " ({}, {}, {}{})",
                both(&m.limits),
                both(&m.threads),
                both(&m.hash),
                if m.book.is_empty() {
                    String::new()
                } else {
                    format!(", {}", m.book)
                }
            ),
            None => String::new(),
        };
        let c = h.penta.counts;
        let points = h.wdl.wins as f64 + 0.5 * h.wdl.draws as f64;
        writeln!(out, "Results of {} vs {}{header}:", h.first, h.second).unwrap();
        writeln!(
            out,
            "Elo: {} +/- {}, nElo: {} +/- {}",
            fixed(f.elo, 2),
            fixed(f.elo_error, 2),
            fixed(f.nelo, 2),
            fixed(f.nelo_error, 2)
        )
        .unwrap();
        write!(
            out,
            "LOS: {} %, DrawRatio: {} %",
            fixed(100.0 * f.los, 2),
            fixed(draw_ratio, 2)
        )
        .unwrap();
        if h.paired {
            let ratio = (c[3] + c[4]) as f64 / (c[0] + c[1]) as f64;
            write!(out, ", PairsRatio: {}", fixed(ratio, 2)).unwrap();
        }
        writeln!(
            out,
            "\nGames: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({} %)",
            h.wdl.games(),
            h.wdl.wins,
            h.wdl.losses,
            h.wdl.draws,
            points,
            fixed(100.0 * points / h.wdl.games() as f64, 2)
        )
        .unwrap();
        if h.paired {
            let dd = c[2] - h.pairs_won_lost;
            writeln!(
                out,
                "{}, WL/DD Ratio: {}",
                penta_line(&h),
                fixed(h.pairs_won_lost as f64 / dd as f64, 2)
            )
            .unwrap();
        }
        if let Some(s) = &r.sprt {
            writeln!(
                out,
                "LLR: {:.2} ({:.1}%) ({:.2}, {:.2}) [{:.2}, {:.2}]",
                s.llr,
                100.0
                    * if s.llr >= 0.0 {
                        s.llr / s.upper
                    } else {
                        -s.llr / s.lower
                    },
                s.lower,
                s.upper,
                s.spec.elo0,
                s.spec.elo1
            )
            .unwrap();
        }
    } else {
        let mut rows: Vec<(String, HeadToHead, (elo::FastchessFigures, f64))> = r
            .engines
            .iter()
            .map(|e| {
                let h = HeadToHead::against_all(e, &r.games, r.paired);
                let f = figures(&h);
                (e.clone(), h, f)
            })
            .collect();
        // fastchess's order: best Elo first, engines with no estimate last.
        rows.sort_by(|a, b| {
            let (x, y) = (a.2 .0.elo, b.2 .0.elo);
            match (x.is_nan(), y.is_nan()) {
                (false, true) => std::cmp::Ordering::Less,
                (true, false) => std::cmp::Ordering::Greater,
                _ => y.total_cmp(&x),
            }
        });
        let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(25);
        write!(
            out,
            "{:<4} {:<w$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
            "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw"
        )
        .unwrap();
        if r.paired {
            write!(out, " {:>20}", "Ptnml(0-2)").unwrap();
        }
        out.push('\n');
        for (rank, (name, h, (f, draw_ratio))) in rows.iter().enumerate() {
            let points = h.wdl.wins as f64 + 0.5 * h.wdl.draws as f64;
            write!(
                out,
                "{:>4} {:<w$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9}% {:>9}%",
                rank + 1,
                name,
                fixed(f.elo, 2),
                fixed(f.elo_error, 2),
                fixed(f.nelo, 2),
                fixed(f.nelo_error, 2),
                h.wdl.games(),
                fixed(100.0 * points / h.wdl.games() as f64, 1),
                fixed(*draw_ratio, 1)
            )
            .unwrap();
            if r.paired {
                let c = h.penta.counts;
                let p = format!("[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4]);
                write!(out, " {p:>20}").unwrap();
            }
            out.push('\n');
        }
    }
    out.push_str(&dashes);
    out.push('\n');
    out
}

/// The full report printed at the end (and at each rating interval).
pub fn report(r: &RunResults) -> String {
    let mut out = String::new();
    if r.engines.len() == 2 {
        let h = HeadToHead::count_as(&r.engines[0], &r.engines[1], &r.games, r.paired);
        writeln!(out, "{}", score_line(&h)).unwrap();
        writeln!(out, "{}", elo_line(&h)).unwrap();
        // As fastchess: no pentanomial line when the statistics count games.
        if r.paired {
            writeln!(out, "{}", penta_line(&h)).unwrap();
        }
        if let Some(s) = &r.sprt {
            writeln!(out, "{}", sprt_line(s)).unwrap();
        }
    } else {
        out.push_str(&rating_table(r));
        out.push('\n');
        out.push_str(&crosstable(r));
    }
    out
}

/// `Rank Name Elo +/- Games Score Draw`, best first.
pub fn rating_table(r: &RunResults) -> String {
    let width = r
        .engines
        .iter()
        .map(std::string::String::len)
        .max()
        .unwrap_or(4)
        .max(4);
    let mut rows = r.standings.clone();
    rows.sort_by(|a, b| {
        let key = |s: &crate::results::Standing| {
            s.elo.unwrap_or(if s.points * 2.0 > s.games as f64 {
                f64::MAX
            } else {
                f64::MIN
            })
        };
        key(b).total_cmp(&key(a))
    });
    let mut out = format!(
        "{:>4} {:<width$} {:>8} {:>7} {:>6} {:>7} {:>6}\n",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
    );
    for (i, s) in rows.iter().enumerate() {
        let pct = |x: f64| {
            if s.games == 0 {
                0.0
            } else {
                100.0 * x / s.games as f64
            }
        };
        let elo = s.elo.map_or("?".to_string(), |e| format!("{e:.0}"));
        let err = s.error.map_or("inf".to_string(), |e| format!("{e:.0}"));
        writeln!(
            out,
            "{:>4} {:<width$} {:>8} {:>7} {:>6} {:>6.1}% {:>5.1}%",
            i + 1,
            s.name,
            elo,
            err,
            s.games,
            pct(s.points),
            pct(s.draws as f64)
        )
        .unwrap();
    }
    if !r.anchors.is_empty() {
        let a: Vec<String> = r
            .anchors
            .iter()
            .map(|(n, e)| format!("{n} = {e}"))
            .collect();
        writeln!(out, "(ratings anchored at {})", a.join(", ")).unwrap();
    }
    out
}

/// Points scored by each row engine against each column engine.
pub fn crosstable(r: &RunResults) -> String {
    let n = r.engines.len();
    let label = |i: usize, name: &str| format!("#{} {name}", i + 1);
    let width = r
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| label(i, e).len())
        .max()
        .unwrap_or(0)
        .max("Crosstable".len());
    let mut out = format!("{:<width$}", "Crosstable");
    for j in 0..n {
        write!(out, " {:>9}", format!("#{}", j + 1)).unwrap();
    }
    out.push('\n');
    for (i, me) in r.engines.iter().enumerate() {
        write!(out, "{:<width$}", label(i, me)).unwrap();
        for (j, them) in r.engines.iter().enumerate() {
            if i == j {
                write!(out, " {:>9}", "-").unwrap();
                continue;
            }
            let h = HeadToHead::count(me, them, &r.games);
            let cell = if h.wdl.games() == 0 {
                ".".to_string()
            } else {
                let pts = h.wdl.wins as f64 + 0.5 * h.wdl.draws as f64;
                format!("{pts}/{}", h.wdl.games())
            };
            write!(out, " {cell:>9}").unwrap();
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use elo::{Pentanomial, WdlCounts};

    fn h(w: u64, d: u64, l: u64, penta: [u64; 5]) -> HeadToHead {
        HeadToHead {
            first: "A".into(),
            second: "B".into(),
            wdl: WdlCounts::new(w, d, l),
            penta: Pentanomial { counts: penta },
            paired: true,
            pairs_won_lost: 0,
        }
    }

    #[test]
    fn numbers_read_as_printf_writes_them() {
        let g = |x: f64| general(x, 2);
        assert_eq!(
            [
                g(0.1),
                g(0.05),
                g(1.5),
                g(0.25),
                g(10.0),
                g(100.0),
                g(0.0001),
                g(0.00001)
            ],
            ["0.1", "0.05", "1.5", "0.25", "10", "1e+02", "0.0001", "1e-05"]
        );
        assert_eq!(g(0.999), "1");
        assert_eq!(fixed(f64::INFINITY, 2), "inf");
        assert_eq!(fixed(-f64::NAN, 2), "-nan");
        assert_eq!(fixed(1.0 / 3.0, 2), "0.33");
    }

    #[test]
    fn limits_read_as_fastchess_header_writes_them() {
        use matchcore::search_limits::SearchLimits;
        use matchcore::time_control::TimeControl;
        use std::time::Duration;
        let tc = |t: &str| SearchLimits {
            tc: TimeControl::parse_seconds(t).unwrap(),
            ..SearchLimits::default()
        };
        assert_eq!(fastchess_limit(&tc("10+0.1")), "10+0.1");
        assert_eq!(fastchess_limit(&tc("40/60+0.6")), "40/60+0.6");
        assert_eq!(fastchess_limit(&tc("0/8")), "8");
        assert_eq!(fastchess_limit(&tc("0.5+0.05")), "0.5+0.05");
        let other = |movetime: Option<u64>, depth: Option<u32>, nodes: Option<u64>| SearchLimits {
            movetime: movetime.map(Duration::from_millis),
            depth,
            nodes,
            ..SearchLimits::default()
        };
        assert_eq!(fastchess_limit(&other(Some(500), None, None)), "0.5/move");
        assert_eq!(fastchess_limit(&other(None, Some(8), Some(9))), "8 plies");
        assert_eq!(fastchess_limit(&other(None, None, Some(300))), "300 nodes");
    }

    #[test]
    fn fastchess_block_reads_as_fastchess_prints_it() {
        use crate::results::GameEntry;
        use matchcore::ending::Termination;
        // Four pairs: won both, won and lost, drew both, lost and drew.
        let results = [
            "1-0", "1-0", "1-0", "0-1", "1/2-1/2", "1/2-1/2", "0-1", "1/2-1/2",
        ];
        let games: Vec<GameEntry> = results
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let (white, black) = if i % 2 == 0 { ("A", "B") } else { ("B", "A") };
                // From A's view: the second game of each pair is written from B's side.
                let result = if i % 2 == 0 {
                    r.to_string()
                } else {
                    match *r {
                        "1-0" => "0-1".to_string(),
                        "0-1" => "1-0".to_string(),
                        d => d.to_string(),
                    }
                };
                GameEntry {
                    number: i + 1,
                    round: (i / 2 + 1) as u32,
                    pair: i / 2,
                    white: white.into(),
                    black: black.into(),
                    result,
                    termination: Termination::Normal,
                    reason: String::new(),
                    plies: 40,
                }
            })
            .collect();
        let r = RunResults::compute(
            vec!["A".into(), "B".into()],
            crate::schedule::TournamentKind::RoundRobin,
            None,
            games,
            Vec::new(),
            None,
            true,
        );
        let m = Matchup {
            limits: vec!["300 nodes".into(), "200 nodes".into()],
            threads: vec!["1t".into(), "1t".into()],
            hash: vec!["16MB".into(), "16MB".into()],
            book: "book.epd".into(),
            ids: Vec::new(),
        };
        let text = fastchess_report(&r, Some(&m));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "-".repeat(50));
        assert_eq!(
            lines[1],
            "Results of A vs B (300 nodes - 200 nodes, 1t, 16MB, book.epd):"
        );
        assert!(lines[2].starts_with("Elo: "), "{text}");
        assert!(lines[3].starts_with("LOS: "), "{text}");
        // Pairs: [0, 1, 2, 0, 1] (the middle bin one win-loss, one draw-draw).
        assert!(
            lines[3].ends_with("DrawRatio: 50.00 %, PairsRatio: 1.00"),
            "{text}"
        );
        assert_eq!(
            lines[4],
            "Games: 8, Wins: 3, Losses: 2, Draws: 3, Points: 4.5 (56.25 %)"
        );
        assert_eq!(lines[5], "Ptnml(0-2): [0, 1, 2, 0, 1], WL/DD Ratio: 1.00");
        assert_eq!(lines[6], "-".repeat(50));
    }

    #[test]
    fn lines_read_like_cutechess_and_fastchess() {
        // Single games, as fastchess's cutechess output counts them.
        let x = HeadToHead {
            paired: false,
            ..h(30, 40, 20, [0, 0, 0, 0, 0])
        };
        assert_eq!(score_line(&x), "Score of A vs B: 30 - 20 - 40  [0.556] 90");
        // Score 0.5556 -> Elo = -400 log10(1/0.5556 - 1) = 38.78.
        assert!(
            elo_line(&x).starts_with("Elo difference: 38.7"),
            "{}",
            elo_line(&x)
        );
        assert!(elo_line(&x).ends_with(", DrawRatio: 44.44 %"));
        assert_eq!(
            penta_line(&h(1, 0, 0, [1, 2, 5, 4, 3])),
            "Ptnml(0-2): [1, 2, 5, 4, 3]"
        );
        let all = h(4, 0, 0, [0, 0, 0, 0, 2]);
        assert!(
            elo_line(&all).starts_with("Elo difference: inf +/- "),
            "{}",
            elo_line(&all)
        );
        let spec = crate::results::SprtSpec {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: elo::SprtModel::Normalized,
        };
        let state = |llr: f64, decision: &str| SprtState {
            spec,
            llr,
            lower: -2.94,
            upper: 2.94,
            decision: decision.to_string(),
            on: "pairs".to_string(),
        };
        assert_eq!(
            sprt_line(&state(1.23, "continue")),
            "SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94"
        );
        let h0 = state(-3.0, "H0");
        assert_eq!(
            sprt_line(&h0),
            "SPRT: llr -3.00 (102.0%), lbound -2.94, ubound 2.94 - H0 was accepted"
        );
        assert_eq!(
            sprt_completed_line(&h0).as_deref(),
            Some("SPRT ([0.00, 10.00]) completed - H0 was accepted")
        );
        assert_eq!(sprt_completed_line(&state(1.0, "continue")), None);
    }
}
