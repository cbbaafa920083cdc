//! Measures Kestrel's PGN tokenizer against the `pgn-reader` crate's on the
//! same files, and the full reader (tokenize + replay every move) for scale.
//!
//! `cargo run --release -p pgn --example tokenizer_bench -- FILE...`

use pgn::token::{Token, Tokenizer};
use pgn::{PgnReader, RawGames, ReadOptions};
use std::ops::ControlFlow;
use std::time::Instant;

/// Counts main-line moves (variations skipped), as our tokenizer loop does.
struct CountSans(u64);

impl pgn_reader::Visitor for CountSans {
    type Tags = ();
    type Movetext = ();
    type Output = ();
    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn san(&mut self, _movetext: &mut (), _san: pgn_reader::SanPlus) -> ControlFlow<()> {
        self.0 += 1;
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _movetext: &mut ()) -> ControlFlow<(), pgn_reader::Skip> {
        ControlFlow::Continue(pgn_reader::Skip(true))
    }
    fn end_game(&mut self, _movetext: ()) {}
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: tokenizer_bench FILE...");
        std::process::exit(2);
    }
    let files: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("cannot read {p}: {e}")))
        .collect();
    let mb = files.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
    for round in 0..3 {
        let t = Instant::now();
        let mut moves = 0u64;
        let mut games = 0u64;
        for f in &files {
            for raw in RawGames::new(&f[..]) {
                let raw = raw.expect("in memory");
                games += 1;
                let mut tok = Tokenizer::new(&raw.text, raw.first_line);
                let mut depth = 0;
                while let Some(Ok((t, _))) = tok.next_token() {
                    match t {
                        Token::Open => depth += 1,
                        Token::Close => depth -= 1,
                        Token::Move(_) if depth == 0 => moves += 1,
                        _ => {}
                    }
                }
            }
        }
        let ours = t.elapsed().as_secs_f64();

        let t = Instant::now();
        let mut theirs_moves = 0u64;
        let mut theirs_games = 0u64;
        for f in &files {
            let mut reader = pgn_reader::Reader::new(&f[..]);
            let mut v = CountSans(0);
            while let Ok(Some(())) = reader.read_game(&mut v) {
                theirs_games += 1;
            }
            theirs_moves += v.0;
        }
        let theirs = t.elapsed().as_secs_f64();

        let t = Instant::now();
        let mut good = 0u64;
        let mut plies = 0u64;
        for f in &files {
            for g in PgnReader::with_options(&f[..], ReadOptions::mainline()).flatten() {
                good += 1;
                plies += g.moves.len() as u64;
            }
        }
        let full = t.elapsed().as_secs_f64();
        println!(
            "round {round}: {mb:.1} MB | kestrel tokenizer {games} games {moves} moves {ours:.3} s ({:.0} MB/s) | pgn-reader {theirs_games} games {theirs_moves} moves {theirs:.3} s ({:.0} MB/s) | kestrel full read+replay {good} games {plies} plies {full:.3} s ({:.0} games/s)",
            mb / ours,
            mb / theirs,
            good as f64 / full
        );
    }
}
