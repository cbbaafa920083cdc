//! Training data as `train`, `datagen stats`/`merge`/`shuffle` and the
//! self-play store read it. The first byte picks: 0, a viriformat stream
//! (`.vf`); 1, a compact shard (`.vfc`, after its zstd layer); 2, 32-byte
//! training records. Nothing may panic; whatever is read must write out and
//! read back the same: viriformat games through `write_to`, compact games
//! through `encode` and back, and records through `to_bytes`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use trainingdata::viriformat::GameReader;
use trainingdata::{compact, TrainingRecord, RECORD_SIZE};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => {
            let games: Vec<_> = GameReader::new(rest, "fuzz.vf")
                .map_while(Result::ok)
                .collect();
            let mut written = Vec::new();
            for game in &games {
                let before = written.len();
                game.write_to(&mut written).expect("in memory");
                assert_eq!(written.len() - before, game.encoded_len());
            }
            let back: Vec<_> = GameReader::new(&written[..], "written.vf")
                .collect::<Result<_, _>>()
                .expect("games written read back");
            assert_eq!(back, games);
        }
        1 => {
            if let Ok(games) = compact::decode(rest) {
                let bytes = compact::encode(&games).expect("decoded games encode");
                assert_eq!(
                    compact::decode(&bytes).expect("encoded games decode"),
                    games
                );
            }
        }
        _ => {
            for chunk in rest.chunks_exact(RECORD_SIZE) {
                let Ok(record) = TrainingRecord::from_bytes(chunk.try_into().expect("32 bytes"))
                else {
                    continue;
                };
                let back =
                    TrainingRecord::from_bytes(&record.to_bytes()).expect("written reads back");
                assert_eq!(back, record);
            }
        }
    }
});
