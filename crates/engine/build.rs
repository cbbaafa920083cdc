//! Chooses the network built into the binary: `nets/default.nnue`, or the
//! file `KESTREL_EVALFILE` names (what `make EVALFILE=<path>` sets, as
//! OpenBench builds engines for a network test). The file is checked here,
//! so that a missing or malformed network fails the build with a message
//! instead of building a binary that cannot evaluate; the engine's own
//! reader (`Network::from_bytes`) checks the rest when it is first used.

use std::path::{Path, PathBuf};

/// The format's fixed numbers (`src/eval/nnue/format.rs`).
const MAGIC: &[u8; 8] = b"KESTNNUE";
const FORMAT_VERSION: u32 = 3;
/// Version 1's header; version 2 adds the output-bucket count, version 3
/// the flags and the king-bucket map.
const HEADER_LEN: usize = 52;
const MAX_BUCKETS: u64 = 8;
const INPUTS: u64 = 768;

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Why `bytes` is not a Kestrel network, if it is not.
pub fn check(bytes: &[u8]) -> Result<(), String> {
    if bytes.len() < HEADER_LEN {
        return Err(format!(
            "{} bytes, fewer than the {HEADER_LEN}-byte header",
            bytes.len()
        ));
    }
    if &bytes[..8] != MAGIC {
        return Err("it does not start with KESTNNUE: not a Kestrel network (see docs/nnue.md for the format)".into());
    }
    let version = u32_at(bytes, 8);
    if !(1..=FORMAT_VERSION).contains(&version) {
        return Err(format!(
            "format version {version}; this build reads versions 1 to {FORMAT_VERSION}"
        ));
    }
    let header_len = match version {
        1 => HEADER_LEN,
        2 => HEADER_LEN + 4,
        _ => HEADER_LEN + 4 + 4 + 64,
    };
    if bytes.len() < header_len {
        return Err(format!(
            "{} bytes, fewer than the {header_len}-byte header of version {version}",
            bytes.len()
        ));
    }
    let buckets = if version >= 2 {
        u64::from(u32_at(bytes, HEADER_LEN))
    } else {
        1
    };
    if buckets == 0 || buckets > MAX_BUCKETS {
        return Err(format!(
            "{buckets} output buckets: must be 1 to {MAX_BUCKETS}"
        ));
    }
    let inputs = u32_at(bytes, 12);
    if u64::from(inputs) != INPUTS {
        return Err(format!("{inputs} inputs per side; expected {INPUTS}"));
    }
    let hidden = u64::from(u32_at(bytes, 16));
    if hidden == 0 || hidden % 32 != 0 {
        return Err(format!(
            "hidden size {hidden}: must be a positive multiple of 32"
        ));
    }
    // The king buckets: the largest in the map plus one (a file writes its
    // map whole, the mirrored half too).
    let king_buckets = if version >= 3 {
        u64::from(
            *bytes[HEADER_LEN + 8..HEADER_LEN + 72]
                .iter()
                .max()
                .expect("64 bytes"),
        ) + 1
    } else {
        1
    };
    let expected =
        2 * (INPUTS * king_buckets * hidden + hidden + 2 * buckets * hidden) + 4 * buckets;
    let stated = u64_at(bytes, 36);
    let present = (bytes.len() - header_len) as u64;
    if stated != expected || present != expected {
        return Err(format!(
            "the payload is {present} bytes and the header says {stated}; hidden size {hidden} with {buckets} output buckets and {king_buckets} king buckets needs {expected}"
        ));
    }
    let (stored, computed) = (u64_at(bytes, 44), fnv1a64(&bytes[header_len..]));
    if stored != computed {
        return Err(format!(
            "the payload's checksum is {computed:016x}, the header's {stored:016x}: the file is damaged"
        ));
    }
    Ok(())
}

fn main() {
    println!("cargo:rerun-if-env-changed=KESTREL_EVALFILE");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let default = manifest.join("nets/default.nnue");
    let chosen = std::env::var_os("KESTREL_EVALFILE").filter(|v| !v.is_empty());
    let source = match &chosen {
        Some(path) => PathBuf::from(path),
        None => default,
    };
    println!("cargo:rerun-if-changed={}", source.display());
    let what = match &chosen {
        Some(_) => format!("KESTREL_EVALFILE={}", source.display()),
        None => format!("the default network {}", source.display()),
    };
    let bytes = match std::fs::read(&source) {
        Ok(b) => b,
        Err(e) => fail(&format!(
            "cannot read {what}: {e}{}",
            if chosen.is_some() && source.is_relative() {
                " (a relative path is read from crates/engine: give an absolute one)"
            } else {
                ""
            }
        )),
    };
    if let Err(why) = check(&bytes) {
        fail(&format!(
            "{what} is not a network this build can embed: {why}"
        ));
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    write(&out.join("embedded.nnue"), &bytes);
    write(
        &out.join("embedded_source.txt"),
        match &chosen {
            Some(_) => source.display().to_string(),
            None => "nets/default.nnue".to_string(),
        }
        .as_bytes(),
    );
}

fn write(path: &Path, bytes: &[u8]) {
    if let Err(e) = std::fs::write(path, bytes) {
        fail(&format!("cannot write {}: {e}", path.display()));
    }
}

fn fail(message: &str) -> ! {
    // cargo shows a build script's stderr when it fails; the first line
    // says what to fix.
    eprintln!("error: {message}");
    println!("cargo:warning={message}");
    std::process::exit(1);
}
