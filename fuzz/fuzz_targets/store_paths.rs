//! `datagen adopt` and `datagen restore` on a hostile store: the input is a
//! manifest (JSON) of another store. Every entry whose name is a plain
//! file name gets a file of that name in the other store's `shards/`, and
//! its size and SHA-256 are made to match, so that names, not hashes,
//! decide. Adopting that store into a fresh one, and receiving each entry
//! as `restore` does (bypassing the manifest's own check), never panics and
//! never writes anything but shard files inside the fresh store: the
//! sandbox holds only the two stores afterwards, and the fresh store only
//! its own files.
#![no_main]

use std::fs;
use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use trainingdata::store::{hash_file, is_shard_name, ShardEntry, Store};

fn sandbox() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-fuzz-store-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("sandbox");
    dir
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fuzz_target!(|data: &[u8]| {
    let Ok(Value::Object(mut manifest)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let dir = sandbox();
    let theirs = Store::open(dir.join("theirs")).expect("their store");
    let ours = Store::open(dir.join("ours")).expect("our store");
    let mut entries = Vec::new();
    if let Some(Value::Array(shards)) = manifest.get_mut("shards") {
        for (i, shard) in shards.iter_mut().enumerate() {
            let Some(name) = shard.get("file").and_then(Value::as_str) else {
                continue;
            };
            // The harness itself writes only plain names.
            if !name.is_empty() && !name.contains('/') && name != "." && name != ".." {
                let path = theirs.shard_dir().join(name);
                if fs::write(&path, format!("shard {i}")).is_ok() {
                    if let Ok((bytes, sha)) = hash_file(&path) {
                        shard["bytes"] = bytes.into();
                        shard["sha256"] = sha.into();
                    }
                }
            }
            if let Ok(entry) = serde_json::from_value::<ShardEntry>(shard.clone()) {
                entries.push(entry);
            }
        }
    }
    let text = serde_json::to_vec(&manifest).expect("serialises");
    fs::write(theirs.root().join("manifest.json"), text).expect("their manifest");
    let writing = ours.lock().expect("our store's lock");
    let _ = writing.adopt(&theirs);
    for (i, entry) in entries.iter().enumerate() {
        let _ = writing.receive(entry, |w| w.write_all(format!("shard {i}").as_bytes()));
    }
    drop(writing);
    assert_eq!(names(&dir), ["ours", "theirs"], "written outside the stores");
    for name in names(&ours.root().to_path_buf()) {
        assert!(
            ["LOCK", "incoming", "manifest.json", "shards"].contains(&name.as_str()),
            "{name}"
        );
    }
    for name in names(&ours.shard_dir()) {
        assert!(is_shard_name(&name), "{name}");
    }
    assert!(names(&ours.incoming_dir()).is_empty());
    let _ = fs::remove_dir_all(&dir);
});
