//! The labelled set (`tests/data/motifs.epd`, built by
//! `scripts/motif_set.py`): positions with a move and the motifs it shows,
//! read, and the finder scored on them, precision and recall per motif.
//! The test `tests/motif_set.rs` and the example `motif_set` use it.

use std::collections::BTreeMap;

use chess::{Move, Position};
use engine::{Engine, Limits};

use crate::explanation::explain;
use crate::search::line_after;

/// The nodes of the search of the line after each move, for the test and
/// the example alike (a fixed count: the same lines every run).
pub const NODES: u64 = 50_000;

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its id (`fork.001`, `WAC.004`).
    pub id: String,
    /// The position.
    pub pos: Position,
    /// The move.
    pub mv: Move,
    /// The motifs the move shows (kinds of [`crate::KINDS`]).
    pub labels: Vec<String>,
}

/// The value of EPD operation `name` in `ops` (`name VALUE;`), unquoted.
fn op<'a>(ops: &'a str, name: &str) -> Option<&'a str> {
    ops.split(';').find_map(|o| {
        let o = o.trim();
        let rest = o.strip_prefix(name)?.strip_prefix(' ')?;
        Some(rest.trim().trim_matches('"'))
    })
}

/// Reads the set: one EPD line per position (`# ` lines are comments),
/// with `bm` (the move, SAN), `motif` (its labels, comma-separated) and
/// `id`. An entry that does not read is an error naming its line.
pub fn read(text: &str) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        let [a, b, c, d, ops] = fields[..] else {
            return Err(format!("line {}: not an EPD line", n + 1));
        };
        let pos = Position::from_fen(&format!("{a} {b} {c} {d} 0 1"))
            .map_err(|e| format!("line {}: {e}", n + 1))?;
        let san = op(ops, "bm").ok_or_else(|| format!("line {}: no bm", n + 1))?;
        let mv = pos
            .parse_san(san)
            .map_err(|e| format!("line {}: bm {san}: {e}", n + 1))?;
        let labels = op(ops, "motif")
            .ok_or_else(|| format!("line {}: no motif", n + 1))?
            .split(',')
            .map(str::to_string)
            .collect();
        let id = op(ops, "id").unwrap_or("?").to_string();
        out.push(Entry {
            id,
            pos,
            mv,
            labels,
        });
    }
    Ok(out)
}

/// Counts of one motif: found and labelled, found but not labelled,
/// labelled but not found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Found and labelled.
    pub hits: u32,
    /// Found, not labelled.
    pub false_alarms: u32,
    /// Labelled, not found.
    pub misses: u32,
}

impl Tally {
    /// Found and labelled, of all found (none when nothing was found).
    pub fn precision(&self) -> Option<f64> {
        let found = self.hits + self.false_alarms;
        (found > 0).then(|| f64::from(self.hits) / f64::from(found))
    }

    /// Found and labelled, of all labelled (none when nothing is labelled).
    pub fn recall(&self) -> Option<f64> {
        let labelled = self.hits + self.misses;
        (labelled > 0).then(|| f64::from(self.hits) / f64::from(labelled))
    }
}

/// What the finder said about one entry.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The entry's id.
    pub id: String,
    /// Kinds found and not labelled.
    pub false_alarms: Vec<String>,
    /// Kinds labelled and not found.
    pub misses: Vec<String>,
}

/// The finder's kinds for `entry`'s move, given the engine's line after it
/// (searched at `limits` with a fresh table).
pub fn found(engine: &mut Engine, entry: &Entry, limits: &Limits) -> Vec<&'static str> {
    engine.new_game();
    let (line, _) = line_after(engine, &entry.pos, &[], entry.mv, limits);
    let mut kinds: Vec<&'static str> = explain(&entry.pos, entry.mv, &line)
        .map(|e| e.motifs.iter().flat_map(crate::Motif::kinds).collect())
        .unwrap_or_default();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

/// Scores the finder on `entries`: per motif kind, its tally; and per
/// entry, what went wrong.
pub fn score(
    engine: &mut Engine,
    entries: &[Entry],
    limits: &Limits,
) -> (BTreeMap<String, Tally>, Vec<Outcome>) {
    let mut tallies: BTreeMap<String, Tally> = crate::KINDS
        .iter()
        .map(|k| (k.to_string(), Tally::default()))
        .collect();
    let mut outcomes = Vec::new();
    for entry in entries {
        let kinds = found(engine, entry, limits);
        let mut outcome = Outcome {
            id: entry.id.clone(),
            false_alarms: Vec::new(),
            misses: Vec::new(),
        };
        for k in &kinds {
            let t = tallies.entry(k.to_string()).or_default();
            if entry.labels.iter().any(|l| l == k) {
                t.hits += 1;
            } else {
                t.false_alarms += 1;
                outcome.false_alarms.push(k.to_string());
            }
        }
        for l in &entry.labels {
            if !kinds.contains(&l.as_str()) {
                tallies.entry(l.clone()).or_default().misses += 1;
                outcome.misses.push(l.clone());
            }
        }
        outcomes.push(outcome);
    }
    (tallies, outcomes)
}

/// The tallies as a Markdown table: motif, labelled, found, hits,
/// precision, recall.
pub fn table(tallies: &BTreeMap<String, Tally>) -> String {
    let pct = |x: Option<f64>| x.map_or("–".to_string(), |v| format!("{:.1} %", 100.0 * v));
    let mut out = String::from(
        "| motif | labelled | found | right | precision | recall |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for (kind, t) in tallies {
        out.push_str(&format!(
            "| {kind} | {} | {} | {} | {} | {} |\n",
            t.hits + t.misses,
            t.hits + t.false_alarms,
            t.hits,
            pct(t.precision()),
            pct(t.recall())
        ));
    }
    out
}
