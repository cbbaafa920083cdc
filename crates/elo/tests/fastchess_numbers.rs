//! The same games give the same numbers as fastchess: Elo and its error,
//! normalized Elo and its error, LOS and the SPRT's LLR under each of
//! fastchess's models, for pentanomial and for game counts. The expected
//! numbers are `reference/fastchess_reference.txt`, printed by fastchess
//! 1.8.2's own SPRT and Elo code (commit f618e345,
//! `app/src/matchmaking/sprt/sprt.cpp` and `elo/elo_*.cpp`, compiled with a
//! small driver that feeds it these counts). Only the numbers are kept here:
//! fastchess's code stays in fastchess; to make them again, build those
//! files from a fastchess checkout with a driver that prints the same lines.

use elo::{Estimate, Pentanomial, Sprt, SprtModel, WdlCounts};

/// Absolute agreement: fastchess prints two decimals; this is far finer.
const CLOSE: f64 = 5e-6;

fn close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= CLOSE * want.abs().max(1.0),
        "{what}: Kestrel {got}, fastchess {want}"
    );
}

fn elo_line(what: &str, fields: &[&str], elo: Estimate, nelo: Estimate, los: f64) {
    let num = |key: &str| -> f64 {
        let i = fields.iter().position(|f| *f == key).expect(key);
        fields[i + 1].parse().unwrap()
    };
    close(&format!("{what} elo"), elo.elo, num("elo"));
    close(&format!("{what} error"), elo.error, num("error"));
    close(&format!("{what} nelo"), nelo.elo, num("nelo"));
    close(&format!("{what} nelo error"), nelo.error, num("nerror"));
    close(&format!("{what} los"), los, num("los"));
}

#[test]
fn elo_and_llr_match_fastchess_for_fixed_results() {
    let text = include_str!("../reference/fastchess_reference.txt");
    enum Case {
        None,
        Penta(Pentanomial),
        WdlCounts(WdlCounts),
    }
    let mut case = Case::None;
    let mut checked = 0;
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let ints = |from: usize| -> Vec<u64> {
            fields[from..]
                .iter()
                .map(|f| f.trim_matches(|c| "[],".contains(c)).parse().unwrap())
                .collect()
        };
        match fields[..] {
            ["penta" | "wdl", "elo", ..] => match &case {
                Case::Penta(p) => elo_line(line, &fields, p.elo(), p.nelo(), p.los()),
                Case::WdlCounts(w) => elo_line(line, &fields, w.elo(), w.nelo(), w.normal_los()),
                Case::None => panic!("no case before {line}"),
            },
            ["penta", ..] => {
                // fastchess's order: [LL, LD, WL+DD, WD, WW], Kestrel's too.
                let c = ints(1);
                case = Case::Penta(Pentanomial {
                    counts: [c[0], c[1], c[2], c[3], c[4]],
                });
            }
            ["wdl", ..] => {
                let c = ints(1);
                case = Case::WdlCounts(WdlCounts::new(c[0], c[1], c[2]));
            }
            ["llr", model, e0, e1, want] => {
                let model = SprtModel::from_name(model).unwrap();
                let t =
                    Sprt::new(e0.parse().unwrap(), e1.parse().unwrap(), 0.05, 0.05, model).unwrap();
                let got = match &case {
                    Case::Penta(p) => t.llr(p),
                    Case::WdlCounts(w) => t.llr_wdl(w),
                    Case::None => panic!("no case before {line}"),
                };
                close(line, got, want.parse().unwrap());
                checked += 1;
            }
            _ => panic!("unexpected line {line}"),
        }
    }
    assert_eq!(checked, 8 * 12, "every LLR of the reference was compared");
}
