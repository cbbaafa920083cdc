//! Kestrel's viriformat and bullet code against the reference crates:
//! `viriformat` (the Viridithas engine's own implementation of its game
//! format) and `bulletformat` (bullet's record type). Games are random
//! legal games from positions with castling, en passant and promotions.

use ::viriformat::chess::board::{Board, DrawType, GameOutcome, WinType};
use ::viriformat::chess::chessmove::Move as ViriMove;
use ::viriformat::dataformat::{Filter, Game as ViriGame, WDL};
use chess::Position;
use trainingdata::viriformat::{self as vf, Game, GameReader};
use trainingdata::{bullet, RecordResult, TrainingRecord};

const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R w KQkq c6 0 30",
    "7k/PPPP4/8/8/8/8/5ppp/K7 b - - 7 50",
];

/// A small deterministic generator (SplitMix64), so the games are the same
/// on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Random legal games with random scores and results.
fn games() -> Vec<Game> {
    let mut rng = Rng(2026);
    let mut games = Vec::new();
    for i in 0..120 {
        let start = Position::from_fen(STARTS[i % STARTS.len()]).unwrap();
        let result = [
            RecordResult::BlackWin,
            RecordResult::Draw,
            RecordResult::WhiteWin,
        ][i % 3];
        let mut game = Game::new(start, result);
        let mut pos = start;
        for _ in 0..(rng.next() % 160) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            let score = (rng.next() % 4001) as i16 - 2000;
            game.moves.push((m, score));
            pos.play_unchecked(m);
        }
        games.push(game);
    }
    games
}

/// The reference crate's board for `pos`.
fn reference_board(pos: &Position) -> Board {
    let mut board = Board::new();
    board.set_from_fen(&pos.fen(), false).unwrap();
    board
}

fn outcome(result: RecordResult) -> GameOutcome {
    match result {
        RecordResult::WhiteWin => GameOutcome::WhiteWin(WinType::Adjudication),
        RecordResult::Draw => GameOutcome::Draw(DrawType::Adjudication),
        RecordResult::BlackWin => GameOutcome::BlackWin(WinType::Adjudication),
    }
}

/// The FEN fields the reference board prints that Kestrel's FEN also has:
/// board, side, castling (X-FEN), en passant.
fn fen4(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

#[test]
fn games_written_by_kestrel_read_back_with_the_reference_crate() {
    let games = games();
    let mut bytes = Vec::new();
    for g in &games {
        g.write_to(&mut bytes).unwrap();
    }
    let mut reader = &bytes[..];
    let mut castles = 0;
    let mut promotions = 0;
    let mut en_passant = 0;
    for g in &games {
        let theirs = ViriGame::deserialise_from(&mut reader, Vec::new()).unwrap();
        assert_eq!(theirs.len(), g.moves.len());
        let result = match theirs.outcome() {
            WDL::Win => RecordResult::WhiteWin,
            WDL::Draw => RecordResult::Draw,
            WDL::Loss => RecordResult::BlackWin,
        };
        assert_eq!(result, g.result);
        let mut board = theirs.initial_position();
        assert_eq!(fen4(&board.to_string()), fen4(&g.start.fen()));
        let mut pos = g.start;
        for (&(m, score), &(vm, vscore)) in g.moves.iter().zip(&theirs.moves) {
            assert_eq!(vscore.get(), score);
            assert_eq!(vm.inner(), vf::encode_move(m));
            castles += usize::from(vm.is_castle());
            promotions += usize::from(vm.is_promo());
            en_passant += usize::from(vm.is_ep());
            assert!(
                board.make_move_simple(vm),
                "{vm:?} illegal for the reference"
            );
            pos.play_unchecked(m);
            assert_eq!(fen4(&board.to_string()), fen4(&pos.fen()));
        }
    }
    assert!(reader.is_empty());
    assert!(
        castles > 10 && promotions > 10 && en_passant > 3,
        "{castles} {promotions} {en_passant}"
    );
}

#[test]
fn games_written_by_the_reference_crate_read_back_with_kestrel() {
    let games = games();
    let mut bytes = Vec::new();
    for g in &games {
        let board = reference_board(&g.start);
        let mut theirs = ViriGame::new(&board);
        for &(m, score) in &g.moves {
            theirs.add_move(ViriMove::from_raw(vf::encode_move(m)).unwrap(), score);
        }
        theirs.set_outcome(outcome(g.result));
        theirs.serialise_into(&mut bytes).unwrap();
    }
    let back: Vec<Game> = GameReader::new(&bytes[..], "reference.vf")
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(back.len(), games.len());
    for (ours, g) in back.iter().zip(&games) {
        assert_eq!(fen4(&ours.start.fen()), fen4(&g.start.fen()));
        assert_eq!(ours.moves, g.moves);
        assert_eq!(ours.result, g.result);
    }
}

#[test]
fn every_position_packs_and_converts_to_bullet_as_the_reference_does() {
    let mut checked = 0;
    for g in games() {
        let board = reference_board(&g.start);
        let mut theirs = ViriGame::new(&board);
        for &(m, score) in &g.moves {
            theirs.add_move(ViriMove::from_raw(vf::encode_move(m)).unwrap(), score);
        }
        theirs.set_outcome(outcome(g.result));
        let mut packed = Vec::new();
        theirs
            .splat_to_marlinformat(
                |b| {
                    packed.push(b.as_bytes());
                    Ok(())
                },
                &Filter::UNRESTRICTED,
            )
            .unwrap();
        let mut boards = Vec::new();
        theirs
            .splat_to_bulletformat(
                |b| {
                    boards.push(b);
                    Ok(())
                },
                &Filter::UNRESTRICTED,
            )
            .unwrap();
        assert_eq!(packed.len(), g.moves.len());
        for (i, (pos, _, score)) in g.positions().enumerate() {
            // The packed position, byte for byte.
            assert_eq!(vf::pack(&pos, score, g.result), packed[i], "{}", pos.fen());
            // bullet's ChessBoard, byte for byte.
            let record = TrainingRecord::from_position(&pos, score, g.result);
            let reference: &[u8] = bulletformat::BulletFormat::as_bytes_slice(&boards[i..=i]);
            assert_eq!(
                &bullet::to_chessboard(&record)[..],
                reference,
                "{}",
                pos.fen()
            );
            checked += 1;
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn bullet_text_lines_parse_as_bullet_parses_them() {
    for g in games().iter().take(20) {
        for (pos, _, score) in g.positions() {
            let record = TrainingRecord::from_position(&pos, score, g.result);
            let line = bullet::to_text(&record);
            let theirs: bulletformat::ChessBoard = line.parse().unwrap();
            let theirs = [theirs];
            let reference: &[u8] = bulletformat::BulletFormat::as_bytes_slice(&theirs);
            assert_eq!(&bullet::to_chessboard(&record)[..], reference, "{line}");
        }
    }
}
