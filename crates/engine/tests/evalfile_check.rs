//! The build script's check of the network it embeds (`make EVALFILE=`,
//! `KESTREL_EVALFILE`): the default net passes, and a missing header, a
//! foreign file, a truncated file or a damaged payload are refused with the
//! reason, so that such a build fails instead of embedding it.

#[path = "../build.rs"]
#[allow(dead_code)]
mod build_script;

const DEFAULT: &[u8] = include_bytes!("../nets/default.nnue");

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
}
