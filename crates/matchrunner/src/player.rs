//! The match runner's players: engines in child processes, started by the protocol
//! their spec names, behind matchcore's [`Player`] trait (which the game
//! loop drives, and which in-process searchers implement too).

use crate::engine_spec::{EngineSpec, Protocol};
use crate::uci_player::UciPlayer;
use crate::xboard_player::XboardPlayer;
use matchcore::engine_process::{EngineError, IoLog, NamedLog};
use matchcore::player::Player;
use regex::Regex;
use std::sync::Arc;

/// Starts `spec`'s engine and does its protocol's handshake; `watch` are
/// the output lines a UCI engine's moves keep for the PGN (`-pgnout
/// match_line=`).
pub fn start(spec: &EngineSpec, watch: &[Regex]) -> Result<Box<dyn Player>, EngineError> {
    start_logged(spec, watch, None)
}

/// As [`start`], copying the engine's input and output to `log` (under
/// the engine's name).
pub fn start_logged(
    spec: &EngineSpec,
    watch: &[Regex],
    log: Option<&Arc<dyn IoLog>>,
) -> Result<Box<dyn Player>, EngineError> {
    let log: Option<NamedLog> = log.map(|l| (Arc::clone(l), Arc::from(spec.name.as_str())));
    Ok(match spec.protocol {
        Protocol::Uci => Box::new(UciPlayer::start(spec, watch, log)?),
        Protocol::Xboard => Box::new(XboardPlayer::start(spec, log)?),
    })
}
