//! Records through real files: writing, reading back (streaming and whole
//! file), merging by concatenation, and files cut short.

use chess::{CastlingMode, Position};
use std::io::Write;
use trainingdata::{
    read_file, RecordReader, RecordResult, RecordWriter, TrainingRecord, RECORD_SIZE,
};

/// Records of a short game: every position after each move.
fn game_records() -> Vec<TrainingRecord> {
    let mut pos = Position::startpos();
    let mut records = vec![TrainingRecord::from_position(
        &pos,
        20,
        RecordResult::WhiteWin,
    )];
    for (i, uci) in [
        "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6",
    ]
    .iter()
    .enumerate()
    {
        let m = pos.parse_uci_move(uci, CastlingMode::Standard).unwrap();
        pos.play_unchecked(m);
        let score = if i % 2 == 0 {
            -(i as i16) * 37
        } else {
            i as i16 * 11
        };
        records.push(TrainingRecord::from_position(
            &pos,
            score,
            RecordResult::WhiteWin,
        ));
    }
    records
}

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("trainingdata-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn written_records_read_back_both_ways() {
    let path = temp_path("both.bin");
    let records = game_records();
    let mut writer = RecordWriter::create(&path).unwrap();
    for r in &records {
        writer.write(r).unwrap();
    }
    assert_eq!(writer.records_written(), records.len() as u64);
    writer.finish().unwrap();
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        (records.len() * RECORD_SIZE) as u64
    );

    let streamed: Vec<_> = RecordReader::open(&path)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(streamed, records);
    let whole = read_file(&path).unwrap();
    assert_eq!(whole.records, records);
    assert_eq!(whole.trailing_bytes, 0);
    for r in &whole.records {
        assert_eq!(
            TrainingRecord::from_position(&r.to_position().unwrap(), r.score(), r.result()),
            *r
        );
    }
}

#[test]
fn a_truncated_file_reads_its_whole_records() {
    let path = temp_path("cut.bin");
    let records = game_records();
    let mut bytes = Vec::new();
    for r in &records {
        bytes.extend_from_slice(&r.to_bytes());
    }
    bytes.truncate(bytes.len() - 13);
    std::fs::write(&path, &bytes).unwrap();

    let mut reader = RecordReader::open(&path).unwrap();
    let streamed: Vec<_> = reader.by_ref().map(Result::unwrap).collect();
    assert_eq!(streamed, records[..records.len() - 1]);
    assert_eq!(reader.trailing_bytes(), RECORD_SIZE - 13);
    let whole = read_file(&path).unwrap();
    assert_eq!(whole.records, streamed);
    assert_eq!(whole.trailing_bytes, RECORD_SIZE - 13);

    // Appending cuts the partial record off first, so the file stays aligned.
    let mut writer = RecordWriter::append(&path).unwrap();
    writer.write(&records[0]).unwrap();
    writer.finish().unwrap();
    let whole = read_file(&path).unwrap();
    assert_eq!(whole.trailing_bytes, 0);
    assert_eq!(whole.records.len(), records.len());
    assert_eq!(whole.records.last(), Some(&records[0]));
}

#[test]
fn shards_merge_by_concatenation() {
    let records = game_records();
    let (a, b) = records.split_at(4);
    let mut merged = Vec::new();
    for part in [a, b] {
        let mut writer = RecordWriter::new(Vec::new());
        for r in part {
            writer.write(r).unwrap();
        }
        merged.write_all(&writer.finish().unwrap()).unwrap();
    }
    let read: Vec<_> = RecordReader::new(merged.as_slice(), "merged")
        .map(Result::unwrap)
        .collect();
    assert_eq!(read, records);
}

#[test]
fn a_damaged_record_is_reported_and_skipped_when_streaming() {
    let records = game_records();
    let mut bytes = Vec::new();
    for r in &records[..3] {
        bytes.extend_from_slice(&r.to_bytes());
    }
    bytes[RECORD_SIZE + 26] = 9; // record 1's result byte.
    let items: Vec<_> = RecordReader::new(bytes.as_slice(), "bad.bin").collect();
    assert_eq!(items.len(), 3);
    let err = items[1].as_ref().unwrap_err().to_string();
    assert!(
        err.contains("record 1") && err.contains("result byte is 9"),
        "{err}"
    );
    assert_eq!(items[2].as_ref().unwrap(), &records[2]);

    let path = temp_path("bad.bin");
    std::fs::write(&path, &bytes).unwrap();
    assert!(read_file(&path).is_err());
    assert!(read_file(temp_path("missing.bin"))
        .unwrap_err()
        .to_string()
        .contains("missing.bin"));
}

#[test]
fn devices_fifos_and_directories_are_refused_at_once() {
    let fifo = temp_path("fifo");
    let mut cases = vec![
        (std::path::PathBuf::from("/dev/zero"), "a character device"),
        (std::path::PathBuf::from("/"), "a directory"),
    ];
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        cases.push((fifo.clone(), "a FIFO"));
    }
    for (path, what) in cases {
        let start = std::time::Instant::now();
        let e = trainingdata::read_file(&path)
            .expect_err("refused")
            .to_string();
        assert!(
            e.contains(what) && e.contains(&path.display().to_string()),
            "{e}"
        );
        let e = trainingdata::RecordReader::open(&path)
            .map(|_| ())
            .expect_err("refused")
            .to_string();
        assert!(e.contains(what), "{e}");
        assert!(start.elapsed().as_secs() < 2, "at once");
    }
    std::fs::remove_file(&fifo).ok();
}

#[cfg(unix)]
#[test]
fn games_and_bullet_readers_refuse_devices() {
    use trainingdata::source::{read_positions, DataFormat};
    use trainingdata::PositionFilter;
    let dev = std::path::Path::new("/dev/zero");
    let err = trainingdata::games_file::open_games(dev)
        .err()
        .expect("refused");
    assert!(err.to_string().contains("character device"), "{err}");
    for format in [DataFormat::Bullet, DataFormat::Text] {
        let err = read_positions(dev, format, &PositionFilter::default(), |_| {}).unwrap_err();
        assert!(err.to_string().contains("character device"), "{err}");
    }
}
