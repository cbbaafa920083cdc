//! The build script's check of the network it embeds (`make EVALFILE=`,
//! `KESTREL_EVALFILE`): the default net passes, and a missing header, a
//! foreign file, a truncated file or a damaged payload are refused with the
//! reason, so that such a build fails instead of embedding it.

#[path = "../build.rs"]
#[allow(dead_code)]
mod build_script;

const DEFAULT: &[u8] = include_bytes!("../nets/default.nnue");
/// Round 6, the last built-in net of format version 1 (one output).
const ROUND6: &[u8] = include_bytes!("../nets/round6.nnue");

#[test]
fn the_default_network_passes_and_damaged_ones_are_refused() {
    build_script::check(DEFAULT).unwrap();
    assert_eq!(engine::eval::nnue::EMBEDDED_NET.len(), DEFAULT.len());

    let refused = |bytes: &[u8], why: &str| {
        let err = build_script::check(bytes).unwrap_err();
        assert!(err.contains(why), "{err}");
    };
    refused(&DEFAULT[..20], "fewer than the 52-byte header");
    refused(
        b"not a network at all, just some text that is long enough",
        "not a Kestrel network",
    );
    refused(&DEFAULT[..DEFAULT.len() - 2], "the payload is");
    let mut damaged = DEFAULT.to_vec();
    damaged[1000] ^= 0x10;
    refused(&damaged, "checksum");

    // Older nets still build in: round 6 is format version 1.
    assert_eq!(ROUND6[8..12], 1u32.to_le_bytes());
    build_script::check(ROUND6).unwrap();

    // Version 2 (output buckets): the bucket count follows the 52 bytes of
    // version 1 and sets the payload's length.
    let v2 = |buckets: u32| {
        let mut bytes = ROUND6[..52].to_vec();
        bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
        bytes.extend_from_slice(&buckets.to_le_bytes());
        bytes.extend_from_slice(&ROUND6[52..]);
        bytes
    };
    build_script::check(&v2(1)).unwrap();
    refused(&v2(0), "0 output buckets");
    refused(&v2(9), "9 output buckets");
    refused(&v2(2), "with 2 output buckets and 1 king buckets needs");
    refused(&v2(1)[..54], "fewer than the 56-byte header");

    // Version 3 (king buckets): flags and a 64-square map follow; the
    // largest bucket in the map sets the payload's length.
    let v3 = |top_bucket: u8| {
        let mut bytes = ROUND6[..52].to_vec();
        bytes[8..12].copy_from_slice(&3u32.to_le_bytes());
        bytes.extend_from_slice(&1u32.to_le_bytes());
        bytes.extend_from_slice(&1u32.to_le_bytes()); // mirrored
        let mut map = [0u8; 64];
        map[63] = top_bucket;
        bytes.extend_from_slice(&map);
        bytes.extend_from_slice(&ROUND6[52..]);
        bytes
    };
    build_script::check(&v3(0)).unwrap();
    refused(&v3(3), "and 4 king buckets needs");
    refused(&v3(0)[..100], "fewer than the 124-byte header");
    let mut v4 = DEFAULT.to_vec();
    v4[8..12].copy_from_slice(&4u32.to_le_bytes());
    refused(&v4, "format version 4");
}
