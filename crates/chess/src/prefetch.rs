//! A cache hint for tables probed by hash key (the engine's transposition
//! table): start loading an entry that will be read a little later, so that
//! the work in between hides the wait for main memory. It lives here, beside
//! the rules' other intrinsic (PEXT), so that the engine has no `unsafe` of
//! its own but its network's output layer.

/// Asks the CPU to bring the cache line holding `value` into the cache,
/// without waiting for it. A no-op where no prefetch instruction is known.
#[inline(always)]
#[allow(unsafe_code)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is only a hint (it reads nothing and cannot fault); SSE is in every x86-64.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_prefetch_changes_nothing() {
        let table = vec![7u64; 1024];
        super::prefetch(&table[513]);
        assert!(table.iter().all(|&v| v == 7));
    }
}
