//! `Engine::set_option` as the protocols use it: refused values leave the
//! engine as it was, and on/off options read the one boolean vocabulary.

use engine::{Engine, OptionError};

#[test]
fn a_hash_size_that_cannot_be_had_keeps_the_old_table() {
    let mut e = Engine::new();
    e.set_option("Hash", "2").unwrap();
    assert_eq!(e.hash_mib(), 2);
    // 32 TiB: within the option's range, beyond any machine's memory.
    match e.set_option("Hash", &(1u64 << 25).to_string()) {
        Err(OptionError::Hash { kept_mib, .. }) => assert_eq!(kept_mib, 2),
        other => panic!("32 TiB was not refused: {other:?}"),
    }
    assert_eq!(e.hash_mib(), 2);
    assert!(matches!(
        e.set_option("Hash", "0"),
        Err(OptionError::Param(_))
    ));
    assert_eq!(e.hash_mib(), 2);
}

#[test]
fn check_options_read_one_vocabulary() {
    let mut e = Engine::new();
    for (word, on) in [
        ("on", true),
        ("YES", true),
        ("1", true),
        ("off", false),
        ("false", false),
    ] {
        e.set_option("UCI_LimitStrength", word).unwrap();
        assert_eq!(e.level().is_some(), on, "{word}");
        e.set_option("NullMove", word).unwrap();
        assert_eq!(e.params().null_move, on, "{word}");
        e.set_option("Ponder", word).unwrap();
    }
    let err = e.set_option("UCI_LimitStrength", "maybe").unwrap_err();
    assert_eq!(
        err.to_string(),
        "option 'UCI_LimitStrength' takes true or false (or on/off, yes/no, 1/0), not 'maybe'"
    );
}

/// A scratch path of this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("kestrel-options-{}-{name}", std::process::id()))
}

#[test]
fn eval_file_refuses_devices_fifos_and_directories_at_once() {
    let mut e = Engine::new();
    let mut cases = vec![
        ("/dev/zero".to_string(), "a character device"),
        ("/dev/urandom".to_string(), "a character device"),
        ("/".to_string(), "a directory"),
    ];
    let fifo = scratch("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        cases.push((fifo.display().to_string(), "a FIFO"));
    } else {
        eprintln!("mkfifo is missing: the FIFO case is skipped");
    }
    for (path, what) in &cases {
        let start = std::time::Instant::now();
        let message = e.set_option("EvalFile", path).expect_err(path).to_string();
        assert!(
            message.contains(what) && message.contains(path.as_str()),
            "{path}: {message}"
        );
        assert!(start.elapsed().as_secs() < 2, "{path}: answered at once");
    }
    std::fs::remove_file(&fifo).ok();
    // Still the built-in evaluation.
    e.set_option("EvalFile", "<default>").expect("default");
}

#[test]
fn eval_file_errors_never_quote_the_file() {
    let mut e = Engine::new();
    let path = scratch("eval-words");
    for text in [
        "root:*:19000:0:99999:7:::\n",
        "root x 1 2\n",
        "PIECE_VALUE 0 secret 1\n",
    ] {
        std::fs::write(&path, text).expect("scratch file");
        let message = e
            .set_option("EvalFile", &path.display().to_string())
            .expect_err(text)
            .to_string();
        for word in ["root", "secret", "19000"] {
            assert!(!message.contains(word), "{text:?} quoted: {message}");
        }
        assert!(message.contains("line 1"), "{message}");
    }
    // Longer than any network or weight file: refused unread.
    let big = std::fs::File::create(&path).expect("scratch file");
    big.set_len(64 << 20).expect("sparse file");
    let message = e
        .set_option("EvalFile", &path.display().to_string())
        .expect_err("too long")
        .to_string();
    assert!(message.contains("more than the"), "{message}");
    std::fs::remove_file(&path).ok();
}
