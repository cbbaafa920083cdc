//! Kestrel's match runner: engine-vs-engine matches and tournaments over UCI and
//! xboard with cutechess-cli's command line, adjudication, PGN output,
//! Elo/LOS/SPRT results, and EPD test suites.

pub mod cli_args;
pub mod engine_spec;
pub mod epd_suite;
pub mod game_play;
pub mod history;
pub mod merge;
pub mod move_comments;
pub mod pgn_record;
pub mod player;
pub mod report;
pub mod results;
pub mod resume;
pub mod run_config;
pub mod run_log;
pub mod runner;
pub mod schedule;
pub mod uci_player;
pub mod variant;
pub mod xboard_player;
