//! Syzygy tables in UCI play: the option `SyzygyPath` opens them and hands
//! them to the engine (`SyzygyProbeDepth`, `SyzygyProbeLimit` and
//! `Syzygy50MoveRule` are search parameters, set like the others). What is
//! wrong with the tables is said in `info string` lines, and the engine
//! plays on with what is usable, or without tables.

use std::sync::Arc;

use engine::{Engine, EngineOption, OptionKind};
use syzygy::SyzygyTablebase;

const EMPTY: &str = "<empty>";
/// Problems listed one per line before the rest are only counted.
const MAX_PROBLEM_LINES: usize = 20;

/// The tables set by `SyzygyPath`.
#[derive(Default)]
pub struct Tablebases {
    loaded: Option<Arc<SyzygyTablebase>>,
}

impl Tablebases {
    /// The tables' option, declared once for UCI and the help.
    pub fn options() -> Vec<EngineOption> {
        vec![EngineOption {
            name: "SyzygyPath",
            kind: OptionKind::Text { default: EMPTY },
            help: "Directories of Syzygy tables (separated by ':' or ';'); <empty> for none.",
        }]
    }

    /// Handles `SyzygyPath`: opens the tables and gives them to `engine`.
    /// `None` when `name` is another option; else the lines to print.
    pub fn set(&mut self, name: &str, value: &str, engine: &mut Engine) -> Option<Vec<String>> {
        if !name.eq_ignore_ascii_case("SyzygyPath") {
            return None;
        }
        let dirs = syzygy::split_path(value);
        if dirs.is_empty() {
            self.loaded = None;
            engine.set_tablebase(None);
            return Some(Vec::new());
        }
        let mut lines = Vec::new();
        match SyzygyTablebase::open(value) {
            Ok((tables, problems)) => {
                let (wdl, dtz) = tables.file_counts();
                lines.push(format!(
                    "info string Syzygy: {wdl} WDL and {dtz} DTZ tables, up to {} pieces",
                    engine::Tablebase::max_pieces(&tables)
                ));
                for p in problems.iter().take(MAX_PROBLEM_LINES) {
                    lines.push(format!("info string Syzygy: {p}"));
                }
                if problems.len() > MAX_PROBLEM_LINES {
                    lines.push(format!(
                        "info string Syzygy: ... and {} more problems",
                        problems.len() - MAX_PROBLEM_LINES
                    ));
                }
                let tables = Arc::new(tables);
                engine.set_tablebase(Some(tables.clone()));
                self.loaded = Some(tables);
            }
            Err(e) => {
                self.loaded = None;
                engine.set_tablebase(None);
                lines.push(format!(
                    "info string error: Syzygy: {e}; playing without tablebases"
                ));
            }
        }
        Some(lines)
    }

    /// The tables in use (to report probe failures after a search).
    pub fn loaded(&self) -> Option<Arc<SyzygyTablebase>> {
        self.loaded.clone()
    }
}
