//! `kestrel net` end to end: a net written here in bullet's quantised
//! layout is imported, loads in the engine and plays a search through UCI,
//! exports back to the same bytes, and `net info` describes both files;
//! wrong files and shapes are refused with what to fix.

mod common;

use std::path::{Path, PathBuf};

use common::{kestrel, kestrel_ok as ok, kestrel_with_input, stderr, stdout};
use engine::eval::nnue::Network;
use trainingdata::store::short_hash;

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("net", name)
}

fn refused(args: &[&str]) -> String {
    let o = kestrel(args);
    assert!(!o.status.success(), "kestrel {args:?} succeeded: {o:?}");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// A net of `hidden` neurons and `buckets` output buckets as bullet saves
/// it (`l0w`, `l0b`, `l1w` transposed to a run per bucket, `l1b`, all
/// i16, padded to 64 bytes with "bullet"), from a simple generator.
fn bullet_file(hidden: usize, buckets: usize, seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = |range: i64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state % (2 * range as u64 + 1)) as i64 - range) as i16
    };
    let mut words = Vec::new();
    words.extend((0..768 * hidden).map(|_| next(150)));
    words.extend((0..hidden).map(|_| next(200)));
    words.extend((0..2 * hidden * buckets).map(|_| next(127)));
    words.extend((0..buckets).map(|_| next(20_000)));
    let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let pad = bytes.len().next_multiple_of(64) - bytes.len();
    bytes.extend(b"bullet".iter().cycle().take(pad));
    bytes
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_bullet_net_is_imported_played_and_exported_byte_identical() {
    let dir = scratch("round-trip");
    for (buckets, activation) in [(1, "screlu"), (8, "crelu"), (8, "screlu")] {
        let original = bullet_file(64, buckets, buckets as u64);
        let bin = dir.join(format!("quantised-{buckets}-{activation}.bin"));
        std::fs::write(&bin, &original).unwrap();
        let nnue = dir.join(format!("net-{buckets}-{activation}.nnue"));
        let b = buckets.to_string();
        let said = ok(&[
            "net",
            "import",
            path(&bin),
            "--hidden",
            "64",
            "--output-buckets",
            &b,
            "--activation",
            activation,
            // Random weights have no scale to check.
            "--no-scale-check",
            "-o",
            path(&nnue),
        ]);
        let written = std::fs::read(&nnue).unwrap();
        assert!(said.contains(&short_hash(&written)), "{said}");
        let net = Network::from_bytes(&written).unwrap();
        assert_eq!((net.hidden(), net.output_buckets()), (64, buckets));
        assert_eq!(net.activation().name(), activation);

        // net info: the header and the manifest's hash.
        let info = ok(&["net", "info", path(&nnue)]);
        assert!(info.contains(&format!("768->64x2->{buckets}")), "{info}");
        assert!(
            info.contains(&format!("version {}", if buckets == 1 { 1 } else { 2 })),
            "{info}"
        );
        assert!(info.contains("QA 255, QB 64"), "{info}");
        assert!(info.contains(&short_hash(&written)), "{info}");
        assert!(info.contains(&format!("{} bytes", written.len())), "{info}");

        // The engine loads it and searches with it.
        let uci = format!(
            "uci\nsetoption name EvalFile value {}\nsetoption name Evaluator value NNUE\nisready\n\
             position startpos moves e2e4 e7e5\ngo depth 4\n",
            nnue.display()
        );
        let o = kestrel_with_input(&[], &uci);
        let out = stdout(&o);
        assert!(out.contains("bestmove"), "{out}");
        assert!(
            !out.contains("refused") && !out.to_lowercase().contains("error"),
            "{out}"
        );

        // Back to bullet: the same bytes.
        let back = dir.join(format!("back-{buckets}-{activation}.bin"));
        let said = ok(&["net", "export", path(&nnue), "-o", path(&back)]);
        assert!(
            said.contains(&format!("MaterialCount<{buckets}>")),
            "{said}"
        );
        assert_eq!(
            std::fs::read(&back).unwrap(),
            original,
            "{buckets} {activation}"
        );

        // And as float weights for bullet's load_weights_from_file.
        let weights = dir.join(format!("weights-{buckets}.bin"));
        ok(&[
            "net",
            "export",
            path(&nnue),
            "--format",
            "weights",
            "-o",
            path(&weights),
        ]);
        let w = std::fs::read(&weights).unwrap();
        assert!(w.starts_with(b"l0b\n"));
        assert_eq!(
            w.len(),
            4 * 4 + 4 * 8 + 4 * (768 * 64 + 64 + 2 * 64 * buckets + buckets)
        );
    }
}

#[test]
fn info_says_what_a_file_is_not() {
    let dir = scratch("info");
    let bin = dir.join("quantised.bin");
    std::fs::write(&bin, bullet_file(32, 8, 3)).unwrap();
    let o = kestrel(&["net", "info", path(&bin)]);
    assert!(!o.status.success());
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(out.contains("not a Kestrel network"), "{out}");
    assert!(out.contains("--hidden 32 --output-buckets 8"), "{out}");
    assert!(err.contains("not a Kestrel network"), "{err}");

    let text = dir.join("notes.txt");
    std::fs::write(&text, "hello").unwrap();
    let o = kestrel(&["net", "info", path(&text)]);
    assert!(!o.status.success());
    assert!(stdout(&o).contains("fits no bullet net"), "{}", stdout(&o));

    // The built-in net, for the record.
    let info = ok(&["net", "info", "crates/engine/nets/default.nnue"]);
    assert!(info.contains("Kestrel NNUE"), "{info}");
    let err = refused(&["net", "info", "/dev/zero"]);
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn wrong_files_and_shapes_are_refused_with_what_to_fix() {
    let dir = scratch("refused");
    let bin = dir.join("quantised.bin");
    std::fs::write(&bin, bullet_file(64, 1, 5)).unwrap();
    let out = dir.join("out.nnue");
    let o = path(&out);

    let import = |extra: &[&str]| {
        let mut args = vec!["net", "import", path(&bin), "--hidden"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["-o", o]);
        refused(&args)
    };
    for (extra, says) in [
        (&["128"][..], "768->64x2->1"),
        (&["64", "--qa", "256"][..], "QA 256"),
        (&["64", "--activation", "relu"][..], "screlu or crelu"),
        (&["64", "--output-buckets", "8"][..], "768->64x2->1"),
    ] {
        let err = import(extra);
        assert!(err.contains(says), "{extra:?}: {err}");
        assert!(!out.exists(), "a refused import left a file");
    }
    let err = refused(&["net", "import", "/dev/zero", "--hidden", "64", "-o", o]);
    assert!(err.contains("not a regular file"), "{err}");

    // Kestrel's export refuses what is not a Kestrel net.
    let err = refused(&["net", "export", path(&bin), "-o", o]);
    assert!(err.contains("not a Kestrel network"), "{err}");
}

/// A net imported with another QB than bullet saved it with scores a power
/// of two too high or low: import measures its scores against the
/// hand-crafted evaluation's and refuses it with the QB it looks quantised
/// with (issue 61, item 6: a wrong --qb imported silently at about 4x).
#[test]
fn import_refuses_a_net_whose_scale_says_the_qb_is_wrong() {
    let dir = std::env::temp_dir().join(format!("kestrel-cli-net-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bullet = dir.join("default.bin");
    let net = "crates/engine/nets/default.nnue";
    ok(&["net", "export", net, "-o", bullet.to_str().unwrap()]);
    let import = |qb: &str, extra: &[&str]| {
        let out = dir.join(format!("qb{qb}.nnue"));
        let mut args = vec![
            "net",
            "import",
            bullet.to_str().unwrap(),
            "--hidden",
            "256",
            "--output-buckets",
            "8",
            "--qb",
            qb,
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        (kestrel(&args), out)
    };
    let (o, out) = import("256", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("x the hand-crafted evaluation's"),
        "{}",
        stdout(&o)
    );
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(net).unwrap());
    let (o, out) = import("64", &[]);
    assert!(!o.status.success());
    let said = stderr(&o);
    assert!(
        said.contains("it looks quantised with QB 256, not --qb 64"),
        "{said}"
    );
    assert!(!out.exists(), "nothing written");
    let (o, out) = import("64", &["--no-scale-check"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `EvalFile` says what it loaded, as Stockfish confirms its network, and a
/// bullet file given as it is gets told to be imported first (issue 61,
/// item 9).
#[test]
fn eval_file_confirms_a_network_and_points_a_bullet_file_to_import() {
    let dir = scratch("eval-file");
    let bullet = dir.join("quantised.bin");
    ok(&[
        "net",
        "export",
        "crates/engine/nets/round11.nnue",
        "-o",
        path(&bullet),
    ]);
    let input = format!(
        "uci\nsetoption name EvalFile value crates/engine/nets/round11.nnue\n\
         setoption name EvalFile value {}\nsetoption name EvalFile value <default>\nisready\nquit\n",
        path(&bullet)
    );
    let said = stdout(&kestrel_with_input(&[], &input));
    assert!(
        said.contains(
            "info string EvalFile loaded: crates/engine/nets/round11.nnue (network 768->256x2->8 screlu)"
        ),
        "{said}"
    );
    assert!(
        said.contains("this looks like a bullet quantised net")
            && said.contains("kestrel net import"),
        "{said}"
    );
    assert!(
        said.contains("info string EvalFile <default>: the built-in network"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
