//! Combining the results of shards run on several machines: their JSON
//! files (games renumbered so that pairs stay distinct) and their PGN files.

use crate::results::RunResults;
use anyhow::{bail, Context, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn read(path: &Path) -> Result<RunResults> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a results file written by kestrel match -json",
            path.display()
        )
    })
}

/// Merges the result files; when `pgn_out` is given, the shards' PGN files
/// (as named in their results, relative to the results file) are
/// concatenated into it.
pub fn merge(paths: &[PathBuf], pgn_out: Option<&Path>) -> Result<RunResults> {
    let mut shards = Vec::new();
    for p in paths {
        shards.push((p, read(p)?));
    }
    let Some((_, first)) = shards.first() else {
        bail!("give the result files to merge")
    };
    let engines = first.engines.clone();
    let mut sorted = engines.clone();
    sorted.sort();
    let mut games = Vec::new();
    let (mut number_base, mut pair_base) = (0, 0);
    for (path, shard) in &shards {
        let mut names = shard.engines.clone();
        names.sort();
        if names != sorted {
            bail!(
                "{} has engines {:?}, but {} has {:?}: only runs of the same engines can be merged",
                path.display(),
                shard.engines,
                paths[0].display(),
                engines
            );
        }
        let (mut top_number, mut top_pair) = (number_base, pair_base);
        for g in &shard.games {
            let mut g = g.clone();
            g.number += number_base;
            g.pair += pair_base;
            top_number = top_number.max(g.number);
            top_pair = top_pair.max(g.pair + 1);
            games.push(g);
        }
        (number_base, pair_base) = (top_number, top_pair);
    }
    if let Some(out) = pgn_out {
        // Replaced whole once every shard's PGN is copied.
        let mut file = types::output::create(out)
            .with_context(|| format!("cannot create {}", out.display()))?;
        for (path, shard) in &shards {
            let Some(pgn) = &shard.pgn else {
                bail!("{} names no PGN file to merge", path.display())
            };
            let pgn_path = path.parent().unwrap_or(Path::new(".")).join(pgn);
            let pgn_path = if Path::new(pgn).is_absolute() || !pgn_path.exists() {
                PathBuf::from(pgn)
            } else {
                pgn_path
            };
            let text = fs::read(&pgn_path)
                .with_context(|| format!("cannot read {}", pgn_path.display()))?;
            file.write_all(&text)?;
        }
        file.commit()
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    let first = &shards[0].1;
    Ok(RunResults::compute(
        engines,
        first.tournament,
        pgn_out.map(|p| p.display().to_string()),
        games,
        first.anchors.clone(),
        first.sprt.as_ref().map(|s| s.spec),
        first.paired,
    ))
}
