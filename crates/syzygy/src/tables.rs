//! The tables as the engine and the command line use them: Kestrel's
//! `types::Tablebase` implemented with `shakmaty-syzygy`, plus what the
//! `tb probe` command prints (the verdict, the DTZ and the best move).

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use chess::{Move, Position};
use shakmaty::Chess;
use shakmaty_syzygy::{SyzygyError, Tablebase as Tables};
use types::{Tablebase, Wdl};

use crate::convert::{from_shakmaty_move, to_shakmaty};
use crate::embedded::{EmbeddedFilesystem, EMBEDDED, EMBEDDED_DIR, EMBEDDED_PIECES};
use crate::filesystem::CachingFilesystem;
use crate::load::{scan, split_path, OpenError, Problem};

/// Everything the tables say of a position ([`SyzygyTablebase::probe_all`]):
/// its value and DTZ for the side to move, and each legal move with its
/// value and DTZ for the mover.
pub type PositionProbe = (Wdl, Option<i32>, Vec<(Move, Wdl, i32)>);

/// Syzygy tables (WDL and DTZ) from one or more directories.
pub struct SyzygyTablebase {
    tables: Tables<Chess>,
    max_pieces: u32,
    wdl_files: usize,
    dtz_files: usize,
    /// Probe failures not yet reported (each told once).
    failures: Mutex<(Vec<String>, BTreeSet<String>)>,
}

/// One legal move of a position in the tables and what it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveVerdict {
    /// The move.
    pub mv: Move,
    /// The value of the position after it, from the mover's view.
    pub wdl: Wdl,
    /// Its DTZ from the mover's view, counting the move (0: draw).
    pub dtz: i32,
}

impl SyzygyTablebase {
    /// Opens the tables in the directories of `path` (separated as the
    /// platform separates `PATH` entries). Files are checked, not read:
    /// tables load on first use. Returns the tables and what is wrong with
    /// the set (bad files are skipped, missing ones only limit the probes);
    /// an error when no usable table is found.
    pub fn open(path: &str) -> Result<(SyzygyTablebase, Vec<Problem>), OpenError> {
        let dirs = split_path(path);
        let (files, mut problems) = scan(&dirs);
        let mut tables = Tables::with_filesystem(Arc::new(CachingFilesystem));
        let (mut wdl_files, mut dtz_files, mut max_pieces) = (0, 0, 0);
        for f in &files {
            match tables.add_file(&f.path) {
                Ok(()) => {
                    if f.wdl {
                        wdl_files += 1;
                    } else {
                        dtz_files += 1;
                    }
                    max_pieces = max_pieces.max(f.material.len() as u32 - 1);
                }
                Err(e) => problems.push(Problem::BadFile {
                    file: f.path.clone(),
                    reason: e.to_string(),
                }),
            }
        }
        if wdl_files == 0 {
            return Err(OpenError::NoTables(path.trim().to_string()));
        }
        Ok((
            SyzygyTablebase {
                tables,
                max_pieces,
                wdl_files,
                dtz_files,
                failures: Mutex::new((Vec::new(), BTreeSet::new())),
            },
            problems,
        ))
    }

    /// The 3- and 4-piece tables compiled into Kestrel (see
    /// [`crate::embedded`]), opened once and shared.
    pub fn embedded() -> &'static SyzygyTablebase {
        static TABLES: std::sync::OnceLock<SyzygyTablebase> = std::sync::OnceLock::new();
        TABLES.get_or_init(|| {
            let mut tables = Tables::with_filesystem(Arc::new(EmbeddedFilesystem));
            let (mut wdl_files, mut dtz_files) = (0, 0);
            for (name, _) in EMBEDDED {
                // Checked by this crate's tests: every compiled-in file adds.
                if tables
                    .add_file(std::path::Path::new(EMBEDDED_DIR).join(name))
                    .is_ok()
                {
                    if name.ends_with(".rtbw") {
                        wdl_files += 1;
                    } else {
                        dtz_files += 1;
                    }
                }
            }
            SyzygyTablebase {
                tables,
                max_pieces: EMBEDDED_PIECES,
                wdl_files,
                dtz_files,
                failures: Mutex::new((Vec::new(), BTreeSet::new())),
            }
        })
    }

    /// How many WDL and DTZ files are in use.
    pub fn file_counts(&self) -> (usize, usize) {
        (self.wdl_files, self.dtz_files)
    }

    /// Probe failures since the last call (a damaged table found while
    /// probing, a table missing from the set), each one reported once.
    pub fn take_failures(&self) -> Vec<String> {
        match self.failures.lock() {
            Ok(mut f) => std::mem::take(&mut f.0),
            Err(_) => Vec::new(),
        }
    }

    fn note(&self, e: &SyzygyError) {
        // Too many pieces and castling rights are not failures: the tables
        // just do not hold such positions.
        if matches!(e, SyzygyError::TooManyPieces | SyzygyError::Castling) {
            return;
        }
        let text = match e {
            // The backtrace of a corrupt table helps no user.
            SyzygyError::ProbeFailed {
                metric, material, ..
            } => {
                format!("failed to probe {metric} table {material}: damaged or unreadable")
            }
            other => other.to_string(),
        };
        if let Ok(mut f) = self.failures.lock() {
            if f.1.insert(text.clone()) {
                f.0.push(text);
            }
        }
    }

    fn convert(&self, pos: &Position) -> Option<Chess> {
        if pos.piece_count() > self.max_pieces || !pos.castling_rights().is_empty() {
            return None;
        }
        to_shakmaty(pos)
    }

    /// The DTZ of every legal move of `pos`, from the mover's view and
    /// counting the move itself, best first (as `kestrel tb probe` lists
    /// them). `None` when the position is not in the tables.
    pub fn probe_moves(&self, pos: &Position) -> Option<Vec<MoveVerdict>> {
        let mut out = Vec::new();
        for &mv in &pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(mv);
            let (wdl, dtz) = if child.has_legal_moves() {
                let theirs = self.convert(&child)?;
                let dtz = self
                    .tables
                    .probe_dtz(&theirs)
                    .map_err(|e| self.note(&e))
                    .ok()?
                    .ignore_rounding()
                    .0;
                let wdl = self
                    .tables
                    .probe_wdl_after_zeroing(&theirs)
                    .map_err(|e| self.note(&e))
                    .ok()?;
                let wdl = Wdl::from_i32(i32::from(wdl))?.flip();
                let dtz = if child.halfmove_clock() == 0 {
                    // The move zeroes the clock itself.
                    match wdl {
                        Wdl::Win => 1,
                        Wdl::CursedWin => 101,
                        Wdl::Draw => 0,
                        Wdl::BlessedLoss => -101,
                        Wdl::Loss => -1,
                    }
                } else {
                    -dtz + (-dtz).signum()
                };
                (wdl, dtz)
            } else {
                if child.in_check() {
                    (Wdl::Win, 1)
                } else {
                    (Wdl::Draw, 0)
                }
            };
            out.push(MoveVerdict { mv, wdl, dtz });
        }
        // Best first: the best value, then the quickest win or slowest loss.
        out.sort_by_key(|v| (std::cmp::Reverse(v.wdl), v.dtz));
        Some(out)
    }

    /// Everything the tables say of `pos`: its value and DTZ for the side
    /// to move, and every legal move with its value and DTZ from the
    /// mover's view ([`Self::probe_moves`]); `None` when they do not hold
    /// it. The DTZ is `None` where only the WDL table is there.
    pub fn probe_all(&self, pos: &Position) -> Option<PositionProbe> {
        let wdl = self.probe_wdl(pos)?;
        let moves = self.probe_moves(pos)?;
        let moves = moves.into_iter().map(|v| (v.mv, v.wdl, v.dtz)).collect();
        Some((wdl, self.probe_dtz(pos), moves))
    }

    /// The move the tables recommend (shakmaty-syzygy's choice: keeps the
    /// best value and zeroes the clock soonest when winning) with the DTZ
    /// of the position, side to move's view.
    pub fn best_move(&self, pos: &Position) -> Option<(Move, i32)> {
        let theirs = self.convert(pos)?;
        let (m, dtz) = self
            .tables
            .best_move(&theirs)
            .map_err(|e| self.note(&e))
            .ok()??;
        Some((from_shakmaty_move(pos, m)?, dtz.ignore_rounding().0))
    }
}

impl Tablebase for SyzygyTablebase {
    fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        let theirs = self.convert(pos)?;
        let wdl = self
            .tables
            .probe_wdl_after_zeroing(&theirs)
            .map_err(|e| self.note(&e))
            .ok()?;
        Wdl::from_i32(i32::from(wdl))
    }

    fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        let theirs = self.convert(pos)?;
        let dtz = self
            .tables
            .probe_dtz(&theirs)
            .map_err(|e| self.note(&e))
            .ok()?;
        Some(dtz.ignore_rounding().0)
    }
}
