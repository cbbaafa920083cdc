//! Counters of what the search did, reported after each move (the seed
//! programs printed these to show what each technique contributes).

use std::fmt;
use std::ops::AddAssign;

/// What one search did, summed over threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Hash table probes in the main search.
    pub tt_probes: u64,
    /// Probes that found an entry.
    pub tt_hits: u64,
    /// Quiescence nodes.
    pub qnodes: u64,
    /// Null-move searches tried.
    pub null_tries: u64,
    /// Null-move cut-offs.
    pub null_cuts: u64,
    /// Reverse futility cut-offs.
    pub rfp_cuts: u64,
    /// Razoring cut-offs.
    pub razor_cuts: u64,
    /// Quiet moves skipped by futility pruning.
    pub futility_prunes: u64,
    /// Quiet moves skipped by late move pruning.
    pub lmp_prunes: u64,
    /// Moves skipped by SEE pruning.
    pub see_prunes: u64,
    /// Quiet moves skipped by history pruning.
    pub history_prunes: u64,
    /// Reduced searches.
    pub lmr_searches: u64,
    /// Reduced searches that failed high and were searched again.
    pub lmr_researches: u64,
    /// Check extensions.
    pub check_extensions: u64,
    /// Singular extensions.
    pub singular_extensions: u64,
    /// Multi-cut prunes from the singular search.
    pub multicuts: u64,
    /// ProbCut cut-offs (a capture's reduced search beat beta by a margin).
    pub probcuts: u64,
    /// Tablebase probes that found the position.
    pub tb_hits: u64,
    /// Book positions met in the search (`BookInSearch`).
    pub book_hits: u64,
}

impl AddAssign for SearchStats {
    fn add_assign(&mut self, o: SearchStats) {
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.qnodes += o.qnodes;
        self.null_tries += o.null_tries;
        self.null_cuts += o.null_cuts;
        self.rfp_cuts += o.rfp_cuts;
        self.razor_cuts += o.razor_cuts;
        self.futility_prunes += o.futility_prunes;
        self.lmp_prunes += o.lmp_prunes;
        self.see_prunes += o.see_prunes;
        self.history_prunes += o.history_prunes;
        self.lmr_searches += o.lmr_searches;
        self.lmr_researches += o.lmr_researches;
        self.check_extensions += o.check_extensions;
        self.singular_extensions += o.singular_extensions;
        self.multicuts += o.multicuts;
        self.probcuts += o.probcuts;
        self.tb_hits += o.tb_hits;
        self.book_hits += o.book_hits;
    }
}

/// One line: `tthit 43.2% qnodes 120034 nullcuts 812/1200 ...`.
impl fmt::Display for SearchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        write!(
            f,
            "tthit {:.1}% qnodes {} nullcuts {}/{} rfp {} razor {} futility {} lmp {} seeprune {} lmr {} lmr-research {} ext-check {} ext-singular {} multicut {} probcut {} tbhits {}",
            pct(self.tt_hits, self.tt_probes),
            self.qnodes,
            self.null_cuts,
            self.null_tries,
            self.rfp_cuts,
            self.razor_cuts,
            self.futility_prunes,
            self.lmp_prunes,
            self.see_prunes,
            self.lmr_searches,
            self.lmr_researches,
            self.check_extensions,
            self.singular_extensions,
            self.multicuts,
            self.probcuts,
            self.tb_hits
        )?;
        if self.history_prunes > 0 {
            write!(f, " histprune {}", self.history_prunes)?;
        }
        if self.book_hits > 0 {
            write!(f, " bookhits {}", self.book_hits)?;
        }
        Ok(())
    }
}
