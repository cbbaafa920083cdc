//! `kestrel explain FEN MOVE`: one move explained for people (a sentence,
//! or the line with its motifs) or for scripts (JSON). The command line is
//! parsed in `src/cmd_explain.rs`; the searches, the explanation and the
//! output are here.

use std::io::Write;
use std::time::{Duration, Instant};

use chess::{CastlingMode, FenError, Move, Position};
use engine::{Engine, Limits, Score};
use serde_json::{json, Value};

use crate::compare::compare;
use crate::explanation::{explain, Explanation};
use crate::search::{search_move, Searched};

/// Why `kestrel explain` cannot explain: what to fix.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    /// The FEN does not read as a position.
    #[error("the FEN does not read as a position")]
    Fen(#[from] FenError),
    /// The move is neither SAN nor UCI of a legal move.
    #[error("'{text}' is not a legal move here (give it in SAN, e.g. Nf3, or UCI, e.g. g1f3); legal moves: {legal}")]
    Move {
        /// The move as given.
        text: String,
        /// The legal moves, in SAN.
        legal: String,
    },
    /// The position has no move to explain.
    #[error("the position is already over (checkmate or stalemate): there is no move to explain")]
    NoMoves,
    /// Writing the output failed.
    #[error("cannot write the output")]
    Io(#[from] std::io::Error),
}

/// What to explain, and how.
#[derive(Clone, Debug)]
pub struct Request {
    /// The position.
    pub fen: String,
    /// The move, SAN or UCI.
    pub mv: String,
    /// The search of each position.
    pub limits: Limits,
    /// JSON instead of text.
    pub json: bool,
    /// The lines with every motif, not only the sentences.
    pub line: bool,
    /// Print the time the explanation took on top of the searches.
    pub timing: bool,
}

/// Reads `text` as a legal move of `pos`, in SAN or in UCI.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, ExplainError> {
    let text = text.trim();
    if let Ok(m) = pos.parse_san(text) {
        return Ok(m);
    }
    if let Ok(m) = pos.parse_uci_move(text, pos.castling_mode()) {
        return Ok(m);
    }
    // King takes rook, which a standard position reads only as Chess960.
    if let Ok(m) = pos.parse_uci_move(text, CastlingMode::Chess960) {
        return Ok(m);
    }
    if !pos.has_legal_moves() {
        return Err(ExplainError::NoMoves);
    }
    let legal: Vec<String> = pos.legal_moves().iter().map(|&m| pos.san(m)).collect();
    Err(ExplainError::Move {
        text: text.to_string(),
        legal: legal.join(" "),
    })
}

/// A score as JSON: `{"cp": 35}` or `{"mate": -3}`.
fn score_json(score: Score) -> Value {
    match score {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

fn motifs_json(e: &Explanation) -> Value {
    let by_ply = e.motifs_by_ply();
    let mut out = Vec::new();
    for (ply, motifs) in by_ply.iter().enumerate() {
        let mover = e.walk().side(ply);
        for m in motifs {
            out.push(json!({
                "ply": ply,
                "kind": m.kind(),
                "squares": m.squares().iter().map(ToString::to_string).collect::<Vec<_>>(),
                "text": crate::phrase::does(m, mover, crate::phrase::Form::Present),
            }));
        }
    }
    Value::Array(out)
}

/// The explanation of the request's move after its searches.
struct Explained {
    pos: Position,
    mv: Move,
    found: Searched,
    played: Explanation,
    best: Option<Explanation>,
    /// The one sentence about the played move.
    sentence: Option<String>,
    /// The one sentence about the best move, when it is another.
    best_sentence: Option<String>,
    /// The time taken to explain (after the searches).
    took: Duration,
}

fn run_searches(engine: &mut Engine, req: &Request) -> Result<Explained, ExplainError> {
    let pos = Position::from_fen(req.fen.trim())?;
    if !pos.has_legal_moves() {
        return Err(ExplainError::NoMoves);
    }
    let mv = parse_move(&pos, &req.mv)?;
    let found = search_move(engine, &pos, &[], mv, &req.limits);
    let clock = Instant::now();
    let played = explain(&pos, mv, &found.line).ok_or(ExplainError::NoMoves)?;
    let other = found.best.filter(|&b| b != mv);
    let best = other.and_then(|b| explain(&pos, b, &found.best_line));
    let (sentence, best_sentence) = match other {
        None => (played.sentence(), None),
        Some(b) => {
            let c = compare(None, &pos, mv, &found.line, Some(b), &found.best_line);
            (c.played, c.best)
        }
    };
    let took = clock.elapsed();
    Ok(Explained {
        pos,
        mv,
        found,
        played,
        best,
        sentence,
        best_sentence,
        took,
    })
}

/// Explains the request's move with `engine`, writing to `out`.
pub fn run(engine: &mut Engine, req: &Request, out: &mut impl Write) -> Result<(), ExplainError> {
    let x = run_searches(engine, req)?;
    let best_san = x.found.best.map(|b| x.pos.san(b));
    if req.json {
        let mut v = json!({
            "fen": x.pos.fen(),
            "move": x.played.san(),
            "uci": x.mv.to_uci(x.pos.castling_mode()).to_string(),
            "best": best_san,
            "depth": x.found.depth,
            "score": score_json(x.found.score),
            "best_score": score_json(x.found.best_score),
            "sentence": x.sentence,
            "best_sentence": x.best_sentence,
        });
        if req.line {
            v["line"] = json!(x.played.line_text());
            v["motifs"] = motifs_json(&x.played);
            if let Some(b) = &x.best {
                v["best_line"] = json!(b.line_text());
                v["best_motifs"] = motifs_json(b);
            }
        }
        if req.timing {
            v["explain_ms"] = json!(x.took.as_secs_f64() * 1000.0);
        }
        writeln!(out, "{v}")?;
        return Ok(());
    }
    let verdict = match &best_san {
        Some(b) if x.found.best != Some(x.mv) => {
            format!("the engine prefers {b} ({})", x.found.best_score)
        }
        _ => "the engine's choice".to_string(),
    };
    writeln!(
        out,
        "{}: {} after it (mover's view), {verdict}, depth {}",
        x.played.san(),
        x.found.score,
        x.found.depth
    )?;
    let said = [&x.sentence, &x.best_sentence];
    for s in said.iter().copied().flatten() {
        writeln!(out, "{s}")?;
    }
    if said.iter().all(|s| s.is_none()) {
        writeln!(out, "(nothing certain to say about {})", x.played.san())?;
    }
    if req.line {
        for (title, e) in [("Line", Some(&x.played)), ("Best line", x.best.as_ref())] {
            let Some(e) = e else { continue };
            writeln!(out, "\n{title}: {}", e.line_text())?;
            for d in e.detail() {
                writeln!(out, "  {d}")?;
            }
        }
    }
    if req.timing {
        writeln!(
            out,
            "explained in {:.3} ms after the searches",
            x.took.as_secs_f64() * 1000.0
        )?;
    }
    Ok(())
}
