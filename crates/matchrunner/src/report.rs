//! Results as text, in the forms cutechess-cli and fastchess users know:
//! `Score of A vs B: W - L - D  [0.550] N`, `Elo difference: ... LOS: ...`,
//! `Ptnml(0-2): [...]`, `SPRT: llr ...`, a rating table and a crosstable.

use crate::results::{HeadToHead, RunResults, SprtState};
use std::fmt::Write;

/// `+35.2 +/- 20.1` with `inf` where unbounded.
fn elo_text(elo: Option<f64>, error: Option<f64>, sign: f64) -> String {
    let e = match elo {
        Some(e) => format!("{:.2}", e * sign),
        None => if sign > 0.0 { "inf" } else { "-inf" }.to_string(),
    };
    let err = error.map_or("inf".to_string(), |x| format!("{x:.2}"));
    format!("{e} +/- {err}")
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

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

/// The Elo line: `Elo difference: 120.41 +/- 150.20, LOS: 90.1 %, DrawRatio: 33.3 %`.
pub fn elo_line(h: &HeadToHead) -> String {
    let e = h.elo();
    let elo = if e.elo.is_infinite() {
        // Keep the sign of an unbounded estimate.
        elo_text(None, finite(e.error), e.elo.signum())
    } else {
        elo_text(Some(e.elo), finite(e.error), 1.0)
    };
    format!(
        "Elo difference: {elo}, LOS: {:.1} %, DrawRatio: {:.1} %",
        100.0 * h.wdl.los(),
        100.0 * h.wdl.draw_ratio()
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

/// `SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94 - H1 was accepted`.
pub fn sprt_line(s: &SprtState) -> String {
    let mut line = format!(
        "SPRT ({:.1}, {:.1}, alpha {}, beta {}; {}{}): llr {:.2} ({:.1}%), lbound {:.2}, ubound {:.2}",
        s.spec.elo0,
        s.spec.elo1,
        s.spec.alpha,
        s.spec.beta,
        s.spec.model.name(),
        match s.on.as_str() {
            "pairs" => ", pentanomial: on game pairs",
            "games" => ", trinomial: on single games",
            _ => "",
        },
        s.llr,
        // fastchess's fraction: of the bound the LLR heads for.
        100.0 * if s.llr >= 0.0 { s.llr / s.upper } else { -s.llr / s.lower },
        s.lower,
        s.upper
    );
    match s.decision.as_str() {
        "H0" => line.push_str(" - H0 was accepted"),
        "H1" => line.push_str(" - H1 was accepted"),
        _ => {}
    }
    line
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
        }
    }

    #[test]
    fn lines_read_like_cutechess_and_fastchess() {
        let x = h(30, 40, 20, [0, 0, 0, 0, 0]);
        assert_eq!(score_line(&x), "Score of A vs B: 30 - 20 - 40  [0.556] 90");
        // Score 0.5556 -> Elo = -400 log10(1/0.5556 - 1) = 38.78.
        assert!(
            elo_line(&x).starts_with("Elo difference: 38.7"),
            "{}",
            elo_line(&x)
        );
        assert!(elo_line(&x).contains("DrawRatio: 44.4 %"));
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
    }
}
