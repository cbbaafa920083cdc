//! What a heap block costs: the bytes asked for and the allocator's own
//! share. The structures that count their size for a host's memory budget
//! (the tree, the record, the review's results) and the bounds made of
//! them ([`crate::memory`]) all count blocks so.

/// What the allocator adds to each block it hands out: its header and the
/// rounding of the size (glibc's malloc: 8 bytes and a multiple of 16).
/// Counted on every block, so that a game of many small blocks is not
/// counted as smaller than it is.
pub const BLOCK_OVERHEAD: usize = 16;

/// The bytes of a heap block holding `bytes` (none for an empty one).
pub fn block(bytes: usize) -> usize {
    if bytes == 0 {
        0
    } else {
        bytes + BLOCK_OVERHEAD
    }
}
