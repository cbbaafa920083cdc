//! How to start an engine and how it is told to think: everything one
//! `-engine` (or `-each`) group of cutechess-cli's flags describes.

use chess::CastlingMode;
use matchcore::search_limits::SearchLimits;
use std::fmt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

/// How long an engine may take to start and to answer a ping.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// The Universal Chess Interface.
    Uci,
    /// xboard / CECP version 2.
    Xboard,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
        })
    }
}

/// One engine of a match or tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The name in the PGN and the results.
    pub name: String,
    /// The program to run.
    pub cmd: String,
    /// Its command-line arguments (`arg=`, repeatable).
    pub args: Vec<String>,
    /// The directory it runs in (`dir=`).
    pub dir: Option<PathBuf>,
    /// Its protocol (`proto=`).
    pub protocol: Protocol,
    /// Engine options set at start (`option.NAME=VALUE`), in order.
    pub options: Vec<(String, String)>,
    /// Lines sent right after the protocol handshake (`initstr=`).
    pub init: Vec<String>,
    /// How long it thinks.
    pub limits: SearchLimits,
    /// How far it may overrun its clock without losing (`timemargin=` in ms).
    pub time_margin: Duration,
    /// The variant it plays: Chess960 (`-variant fischerandom`, set for
    /// every engine) turns on its `UCI_Chess960` option and writes castling
    /// as king takes rook.
    pub variant: CastlingMode,
}

impl EngineSpec {
    /// An engine running `cmd` over UCI with no limits yet.
    pub fn new(cmd: &str) -> EngineSpec {
        EngineSpec {
            name: String::new(),
            cmd: cmd.to_string(),
            args: Vec::new(),
            dir: None,
            protocol: Protocol::Uci,
            options: Vec::new(),
            init: Vec::new(),
            limits: SearchLimits::default(),
            time_margin: Duration::ZERO,
            variant: CastlingMode::Standard,
        }
    }

    /// The command that starts the engine (in its directory, stderr piped,
    /// so that its last lines can be shown when it fails), for
    /// [`matchcore::engine_process::EngineProcess::spawn`].
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.cmd);
        cmd.args(&self.args).stderr(Stdio::piped());
        if let Some(dir) = &self.dir {
            cmd.current_dir(dir);
        }
        cmd
    }
}
