//! The transposition table: results of searched positions, shared by all
//! search threads, so that no position is searched twice to the same depth.
//!
//! Each bucket holds two entries in the "2-Deep" scheme: the first keeps the
//! deepest result, the second the most recent; a new result deeper than the
//! first entry (or a first entry left over from an earlier search) takes the
//! first slot and demotes its occupant to the second. Entries are two atomic
//! words, the key stored xor-ed with the data, so a torn write by another
//! thread reads as a miss instead of as wrong data (lockless hashing).

use chess::Move;
use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::memory::available_mib;
use crate::score::Value;

/// The largest table one may ask for, in MiB: 32 TiB (2^25 MiB, Stockfish's
/// limit too). It keeps the byte count within what 64-bit arithmetic holds;
/// what the machine can really give is checked when a table is made.
pub const MAX_MIB: usize = 1 << 25;

/// Why a table of the asked size was not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableSizeError {
    /// Above [`MAX_MIB`], or more bytes than this machine can address.
    TooLarge {
        /// The size asked for.
        mib: usize,
    },
    /// More than the memory the system reports available now.
    NotAvailable {
        /// The size asked for.
        mib: usize,
        /// What the system has available (Linux `MemAvailable`).
        available_mib: u64,
    },
    /// The allocator refused the size.
    AllocationFailed {
        /// The size asked for.
        mib: usize,
    },
}

impl fmt::Display for TableSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableSizeError::TooLarge { mib } => write!(
                f,
                "a {mib} MiB table is larger than the {MAX_MIB} MiB limit or this machine's address space"
            ),
            TableSizeError::NotAvailable { mib, available_mib } => write!(
                f,
                "a {mib} MiB table needs more memory than the {available_mib} MiB available now"
            ),
            TableSizeError::AllocationFailed { mib } => {
                write!(f, "the system refused {mib} MiB for the table")
            }
        }
    }
}

impl std::error::Error for TableSizeError {}

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is an upper bound (all moves failed low).
    Upper = 1,
    /// The score is a lower bound (a move failed high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// A stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best (or refuting) move, `Move::NULL` if none.
    pub mv: Move,
    /// Score, with mate scores relative to this node (see `score::to_tt`).
    pub score: Value,
    /// Static evaluation of the position.
    pub eval: Value,
    /// Depth searched.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
    /// The node was (or its position has been) on a principal variation
    /// (Stockfish's ttPv): kept for `TtPv`'s uses whether or not it is on.
    pub pv: bool,
}

/// Depths are kept in 7 bits from -8 (quiescence's) to 119, beyond any
/// iteration (`MAX_PLY - 8`); the eighth bit of their byte is the PV flag.
const DEPTH_OFFSET: i32 = 8;

#[derive(Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

/// Aligned to its 32-byte size, so that no bucket straddles two cache lines
/// (the allocator's 16-byte alignment split every other one): a probe costs
/// one memory access, not two.
#[derive(Default)]
#[repr(align(32))]
struct Bucket {
    /// [0]: deepest result, [1]: newest result.
    slots: [Slot; 2],
}

fn pack(e: &TtEntry, age: u8) -> u64 {
    u64::from(e.mv.to_bits())
        | (u64::from(e.score as i16 as u16) << 16)
        | (u64::from(e.eval as i16 as u16) << 32)
        | (((e.depth + DEPTH_OFFSET).clamp(0, 127) as u64) << 48)
        | (u64::from(e.pv) << 55)
        | ((e.bound as u64) << 56)
        | (u64::from(age & 63) << 58)
}

fn unpack(data: u64) -> Option<(TtEntry, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let entry = TtEntry {
        mv: Move::from_bits(data as u16),
        score: Value::from((data >> 16) as u16 as i16),
        eval: Value::from((data >> 32) as u16 as i16),
        depth: ((data >> 48) & 127) as i32 - DEPTH_OFFSET,
        bound,
        pv: (data >> 55) & 1 == 1,
    };
    Some((entry, (data >> 58) as u8))
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mib` mebibytes (at least one bucket) for the
    /// tests: panics when the memory cannot be had. The engine makes its
    /// tables with [`TranspositionTable::try_new`].
    #[cfg(test)]
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mib` mebibytes (at least one bucket), or why not.
    ///
    /// Linux overcommits memory: a reservation larger than the free memory
    /// may succeed, and the process is then killed when the zero-fill
    /// touches pages that are not there. So a size above what the system
    /// reports available is refused before anything is reserved, the
    /// reservation is fallible (`try_reserve_exact`), and the buckets are
    /// written at once, so that the memory is really held when this returns
    /// rather than faulted in during a search.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, TableSizeError> {
        let mib = mib.max(1);
        let bytes = mib
            .checked_mul(1024 * 1024)
            .filter(|_| mib <= MAX_MIB)
            .ok_or(TableSizeError::TooLarge { mib })?;
        if let Some(available_mib) = available_mib() {
            if mib as u64 > available_mib {
                return Err(TableSizeError::NotAvailable { mib, available_mib });
            }
        }
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| TableSizeError::AllocationFailed { mib })?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for bucket in &self.buckets {
            for slot in &bucket.slots {
                slot.key_xor_data.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become replaceable.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed) & 63
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `key`'s bucket into the cache without waiting for it,
    /// so that a probe after some other work finds it there (a bucket of a
    /// table larger than the caches is usually a miss to main memory).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        chess::prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        self.bucket(key).slots.iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.key_xor_data.load(Ordering::Relaxed);
            if check ^ data == key {
                unpack(data).map(|(e, _)| e)
            } else {
                None
            }
        })
    }

    /// Stores a result for `key`, keeping the old move when the new one is null.
    pub fn store(&self, key: u64, mut entry: TtEntry) {
        let age = self.age();
        let bucket = self.bucket(key);
        let read = |slot: &Slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.key_xor_data.load(Ordering::Relaxed);
            (check ^ data, unpack(data))
        };
        let write = |slot: &Slot, k: u64, data: u64| {
            slot.data.store(data, Ordering::Relaxed);
            slot.key_xor_data.store(k ^ data, Ordering::Relaxed);
        };
        let (deep_key, deep) = read(&bucket.slots[0]);
        let (new_key, newest) = read(&bucket.slots[1]);
        let same = |k: u64, e: &Option<(TtEntry, u8)>| k == key && e.is_some();
        if entry.mv.is_null() {
            if let Some((old, _)) = if same(deep_key, &deep) {
                deep
            } else if same(new_key, &newest) {
                newest
            } else {
                None
            } {
                entry.mv = old.mv;
            }
        }
        let data = pack(&entry, age);
        let deep_replaceable = match deep {
            None => true,
            Some((old, old_age)) => {
                old_age != age
                    || entry.depth >= old.depth
                    || (deep_key == key && entry.bound == Bound::Exact)
            }
        };
        if deep_key == key && deep.is_some() {
            if deep_replaceable || entry.depth + 3 >= deep.map_or(0, |(e, _)| e.depth) {
                write(&bucket.slots[0], key, data);
            }
        } else if deep_replaceable {
            // Demote the old deepest entry to the newest slot.
            if let Some((old, old_age)) = deep {
                if old_age == age {
                    write(&bucket.slots[1], deep_key, pack(&old, old_age));
                }
            }
            write(&bucket.slots[0], key, data);
        } else {
            write(&bucket.slots[1], key, data);
        }
    }

    /// Per mille of entries filled by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let sample = self.buckets.len().min(500);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for slot in &bucket.slots {
                if let Some((_, a)) = unpack(slot.data.load(Ordering::Relaxed)) {
                    used += u32::from(a == age);
                }
            }
        }
        (used * 1000 / (2 * sample as u32).max(1)).min(1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{from_tt, mate_in, to_tt};
    use chess::{CastlingMode, Position};

    #[test]
    fn a_bucket_fills_half_a_cache_line() {
        // The bucket count (and so the search) depends on this size.
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
        assert_eq!(std::mem::align_of::<Bucket>(), 32);
        let table = TranspositionTable::new(1);
        assert_eq!(table.buckets.as_ptr() as usize % 32, 0);
    }

    fn entry(depth: i32, score: Value) -> TtEntry {
        let pos = Position::startpos();
        let mv = pos.parse_uci_move("e2e4", CastlingMode::Standard).unwrap();
        TtEntry {
            mv,
            score,
            eval: -17,
            depth,
            bound: Bound::Lower,
            pv: true,
        }
    }

    #[test]
    fn sizes_that_cannot_be_had_are_refused() {
        let size = |mib: usize| TranspositionTable::try_new(mib).map(|t| t.buckets.len());
        assert_eq!(size(1), Ok(1024 * 1024 / std::mem::size_of::<Bucket>()));
        // Beyond the limit, and beyond any address space: no arithmetic overflow.
        for mib in [MAX_MIB + 1, usize::MAX] {
            assert_eq!(size(mib), Err(TableSizeError::TooLarge { mib }));
        }
        // 32 TiB is within the limit but beyond any machine's memory: refused
        // before anything is reserved, as unavailable or by the allocator.
        match size(MAX_MIB) {
            Err(
                TableSizeError::NotAvailable { mib, .. } | TableSizeError::AllocationFailed { mib },
            ) => assert_eq!(mib, MAX_MIB),
            other => panic!("a 32 TiB table was not refused: {other:?}"),
        }
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key), None);
        let e = entry(7, -250);
        tt.store(key, e);
        assert_eq!(tt.probe(key), Some(e));
        assert_eq!(tt.probe(key ^ 1), None);
        tt.clear();
        assert_eq!(tt.probe(key), None);
    }

    #[test]
    fn mate_scores_survive_the_table() {
        let tt = TranspositionTable::new(1);
        // A mate in 3 plies found at ply 10 of one search...
        let stored = to_tt(mate_in(13), 10);
        tt.store(42, entry(5, stored));
        // ...read back at ply 4 of another is mate in 3 from there: mate_in(7).
        assert_eq!(from_tt(tt.probe(42).unwrap().score, 4), mate_in(7));
    }

    #[test]
    fn two_deep_replacement_keeps_the_deepest() {
        let tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u128;
        // Three keys that land in bucket 0.
        let keys: Vec<u64> = (1..)
            .map(|i: u64| i << 40)
            .filter(|&k| ((u128::from(k) * n) >> 64) == 0)
            .take(3)
            .collect();
        tt.store(keys[0], entry(12, 1));
        tt.store(keys[1], entry(3, 2));
        tt.store(keys[2], entry(4, 3));
        assert_eq!(tt.probe(keys[0]).map(|e| e.depth), Some(12), "deepest kept");
        assert_eq!(tt.probe(keys[2]).map(|e| e.depth), Some(4), "newest kept");
        assert_eq!(tt.probe(keys[1]), None, "older shallow entry replaced");
        // In a new search the stale deep entry gives way.
        tt.new_search();
        tt.store(keys[1], entry(1, 9));
        assert_eq!(tt.probe(keys[1]).map(|e| e.score), Some(9));
        assert!(tt.hashfull() <= 1000);
    }
}
