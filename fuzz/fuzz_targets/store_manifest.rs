//! The self-play store's manifest as `datagen verify`, `adopt`, `restore`,
//! `retire` and `train` read it (a store made elsewhere is outside input).
//! Nothing may panic; a manifest that is accepted names only plain shard
//! files, each of which stays inside the store's `shards/` folder when
//! joined to it, none twice; and it writes out and reads back the same.
#![no_main]

use std::path::{Component, Path};

use libfuzzer_sys::fuzz_target;
use trainingdata::store::{is_shard_name, Manifest};

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz/manifest.json");
    let Ok(manifest) = Manifest::parse(data, path) else {
        return;
    };
    let shards = Path::new("/store/shards");
    let mut seen = std::collections::HashSet::new();
    for shard in &manifest.shards {
        assert!(is_shard_name(&shard.file), "{:?}", shard.file);
        let joined = shards.join(&shard.file);
        assert_eq!(joined.parent(), Some(shards), "{:?}", shard.file);
        assert!(
            Path::new(&shard.file)
                .components()
                .all(|c| matches!(c, Component::Normal(_))),
            "{:?}",
            shard.file
        );
        assert!(seen.insert(shard.file.clone()), "listed twice: {:?}", shard.file);
    }
    let text = serde_json::to_vec(&manifest).expect("a manifest serialises");
    assert_eq!(Manifest::parse(&text, path).expect("reads back"), manifest);
});
