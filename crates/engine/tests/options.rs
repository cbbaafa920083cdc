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
