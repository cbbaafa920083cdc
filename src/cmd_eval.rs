//! `kestrel eval`: the evaluation of a position explained term by term.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use chess::{Color, Position};
use clap::Args;
use engine::eval::hce::pair::Pair;
use engine::eval::hce::trace::Coefficients;
use engine::eval::hce::weights::{locate, Group, Weights, COUNT, TERMS};
use engine::eval::{evaluate_traced, EvalKind};

/// Options of `kestrel eval`.
#[derive(Args)]
pub struct EvalArgs {
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Which evaluator gives the total: nnue (the engine's default), full or
    /// simple (the breakdown is the hand-crafted one's either way).
    #[arg(long, default_value = "nnue")]
    evaluator: String,
    /// Weights to use instead of the compiled-in ones (a file `kestrel tune texel` wrote).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Also list every weight that counted, with its count for each side.
    #[arg(long)]
    detail: bool,
    /// The network whose score is printed (a file `kestrel train` wrote;
    /// default: the built-in network).
    #[arg(long)]
    net: Option<PathBuf>,
}

fn cell(p: Pair) -> String {
    format!("{:>6} {:>6}", p.mg, p.eg)
}

/// Prints the breakdown table; the last line is `Total: N cp (White's view)`.
pub fn run(args: EvalArgs) -> Result<()> {
    let pos = match &args.fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("bad --fen '{f}'"))?,
        None => Position::startpos(),
    };
    let kind = EvalKind::parse(&args.evaluator)
        .with_context(|| format!("--evaluator '{}': use full, simple or nnue", args.evaluator))?;
    // The breakdown is the hand-crafted evaluation's (NNUE has no terms).
    let hce = if kind == EvalKind::Nnue {
        EvalKind::Full
    } else {
        kind
    };
    let weights = match &args.weights {
        Some(path) => std::sync::Arc::new(Weights::load(path)?),
        None => Weights::default_shared(),
    };
    let (report, trace) = evaluate_traced(&pos, hce, &weights, None, Coefficients::default());
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", pos.pretty())?;
    if kind == EvalKind::Nnue {
        writeln!(
            out,
            "Evaluator: NNUE (the table is the hand-crafted Full evaluation's)\n"
        )?;
    } else {
        writeln!(out, "Evaluator: {}\n", kind.name())?;
    }
    writeln!(
        out,
        "{:<14} | {:^13} | {:^13} | {:^13} | {:>7}",
        "Term", "White", "Black", "White - Black", "Blended"
    )?;
    writeln!(
        out,
        "{:<14} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6} | {:>7}",
        "", "MG", "EG", "MG", "EG", "MG", "EG", "cp"
    )?;
    writeln!(out, "{}", "-".repeat(74))?;
    let side_sum = |color: Color, group: Group| {
        let mut s = Pair::default();
        for i in 0..COUNT {
            if locate(i).0.group == group {
                s += weights.get(i) * trace.counts[color.index()][i];
            }
        }
        s
    };
    for group in Group::ALL {
        let white = side_sum(Color::White, group);
        let black = side_sum(Color::Black, group);
        let total = white - black;
        writeln!(
            out,
            "{:<14} | {} | {} | {} | {:>7}",
            group.name(),
            cell(white),
            cell(black),
            cell(total),
            total.blend(report.phase, report.scale)
        )?;
    }
    writeln!(out, "{}", "-".repeat(74))?;
    writeln!(
        out,
        "{:<14} | {:>13} | {:>13} | {} | {:>7}",
        "Sum",
        "",
        "",
        cell(report.sum),
        report.sum.blend(report.phase, report.scale)
    )?;
    writeln!(
        out,
        "\nPhase {}/{} (middlegame share {:.0}%), endgame scale {}/128, mop-up {} cp",
        report.phase,
        engine::eval::hce::MAX_PHASE,
        100.0 * f64::from(report.phase) / f64::from(engine::eval::hce::MAX_PHASE),
        report.scale,
        report.mop_up
    )?;
    if args.detail {
        writeln!(
            out,
            "\n{:<22} {:>5} {:>5}   {:>6} {:>6}",
            "Weight", "White", "Black", "MG", "EG"
        )?;
        for term in TERMS {
            for i in 0..term.len {
                let idx = term.first + i;
                let (w, b) = (trace.counts[0][idx], trace.counts[1][idx]);
                if w != 0 || b != 0 {
                    let v = weights.get(idx);
                    let name = format!("{}[{i}]", term.name);
                    writeln!(out, "{name:<22} {w:>5} {b:>5}   {:>6} {:>6}", v.mg, v.eg)?;
                }
            }
        }
    }
    let (net, source) = match &args.net {
        Some(path) => (
            std::sync::Arc::new(
                engine::eval::nnue::Network::from_file(path)
                    .with_context(|| format!("cannot load network {}", path.display()))?,
            ),
            path.display().to_string(),
        ),
        None => (
            engine::eval::nnue::embedded_network(),
            "built-in network".to_string(),
        ),
    };
    let net_stm = engine::eval::nnue::evaluate_position(&net, &pos);
    let net_white = pos.turn().fold(net_stm, -net_stm);
    writeln!(
        out,
        "\nNNUE {source} ({}x{} {}): {net_white} cp (White's view)",
        engine::eval::nnue::INPUTS,
        net.hidden(),
        net.activation().name()
    )?;
    let stm = report.for_side(pos.turn());
    let side = if pos.turn() == Color::White {
        "White"
    } else {
        "Black"
    };
    let (stm, white) = if kind == EvalKind::Nnue
        && engine::eval::network_applies(&pos, net_stm, engine::eval::NETWORK_RANGE)
    {
        (net_stm, net_white)
    } else {
        if kind == EvalKind::Nnue {
            let why = if engine::eval::network_applies(&pos, 0, engine::eval::NETWORK_RANGE) {
                format!(
                    "A score beyond the network's default range (±{} cp, NetworkRange)",
                    engine::eval::NETWORK_RANGE
                )
            } else {
                "A lone king".to_string()
            };
            writeln!(
                out,
                "{why}: the engine's NNUE evaluator uses the hand-crafted evaluation here"
            )?;
        }
        (stm, report.white)
    };
    writeln!(out, "\nSide to move ({side}): {stm} cp")?;
    writeln!(out, "Total: {white} cp (White's view)")?;
    Ok(())
}
