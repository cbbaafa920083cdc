//! How much memory the system can give now, so that a table size which
//! cannot be had is refused instead of killing the engine.

/// The memory available for new allocations without swapping, in MiB:
/// Linux's `MemAvailable` (free memory plus the caches it can drop). `None`
/// where the system does not say (not Linux, or `/proc` not mounted); the
/// allocator's own refusal is then the only check.
pub fn available_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

/// `MemAvailable` from the text of `/proc/meminfo` (in kB there), in MiB.
fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?;
    let kib: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kib / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available() {
        let text = "MemTotal:       24684096 kB\nMemFree:        23654660 kB\nMemAvailable:   24339320 kB\n";
        assert_eq!(parse_mem_available(text), Some(23_768));
        assert_eq!(parse_mem_available("MemTotal: 1 kB\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: lots\n"), None);
        if cfg!(target_os = "linux") {
            assert!(available_mib().is_some_and(|m| m > 0));
        }
    }
}
