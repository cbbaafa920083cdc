//! An engine side's settings as the page sends them with each search: how
//! long to think, whether to use the book, and the engine options. The
//! options the page may set are the engine's own list (`Engine::options`),
//! less those that belong to the whole server (table size, threads, files),
//! so a new search switch shows up in the GUI without touching it.

use std::collections::BTreeMap;

use engine::{Engine, EngineOption, Limits, OptionKind};
use serde::{Deserialize, Serialize};

use crate::error::{GameError, Invalid};
use crate::limits::MAX_CLOCK_MS;

/// Options the page does not set: they size or load things for the whole
/// server, or mean nothing in a GUI.
const SERVER_OPTIONS: [&str; 6] = [
    "Hash",
    "Clear Hash",
    "Threads",
    "Ponder",
    "Move Overhead",
    "EvalFile",
];

pub use crate::limits::{MAX_DEPTH, MAX_MOVETIME_MS};

/// One side's settings.
#[derive(Serialize, Deserialize, Debug, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct EngineSettings {
    /// Think this many milliseconds.
    pub movetime_ms: Option<u64>,
    /// Search to this depth.
    pub depth: Option<i32>,
    /// Think until stopped (analysis).
    #[serde(default)]
    pub infinite: bool,
    /// Play on a clock: both sides' time left and increments, in
    /// milliseconds (`wtime`/`btime`/`winc`/`binc` of UCI); the engine
    /// shares out its time itself.
    pub clock: Option<ClockLimits>,
    /// Play a book move when the book knows the position (default on).
    pub own_book: Option<bool>,
    /// Engine options by name: booleans, numbers or words.
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
}

/// The clocks of a timed game, as the engine is told them.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClockLimits {
    /// White's time left.
    pub wtime_ms: u64,
    /// Black's time left.
    pub btime_ms: u64,
    /// White's increment per move.
    #[serde(default)]
    pub winc_ms: u64,
    /// Black's increment per move.
    #[serde(default)]
    pub binc_ms: u64,
}

impl EngineSettings {
    /// The search limits: exactly one of time, depth, clock and infinite
    /// (time by default: one second).
    pub fn limits(&self) -> Result<Limits, GameError> {
        if let Some(c) = self.clock {
            if self.movetime_ms.is_some() || self.depth.is_some() || self.infinite {
                return Err(Invalid::ClockAndLimit.into());
            }
            if [c.wtime_ms, c.btime_ms, c.winc_ms, c.binc_ms]
                .iter()
                .any(|&ms| ms > MAX_CLOCK_MS)
                || c.wtime_ms == 0
                || c.btime_ms == 0
            {
                return Err(Invalid::ClockRange.into());
            }
            return Ok(Limits {
                wtime: Some(c.wtime_ms),
                btime: Some(c.btime_ms),
                winc: Some(c.winc_ms),
                binc: Some(c.binc_ms),
                ..Limits::default()
            });
        }
        match (self.movetime_ms, self.depth, self.infinite) {
            (None, None, false) => Ok(Limits::movetime(1000)),
            (Some(ms), None, false) if (1..=MAX_MOVETIME_MS).contains(&ms) => {
                Ok(Limits::movetime(ms))
            }
            (Some(ms), None, false) => Err(Invalid::MovetimeRange(ms).into()),
            (None, Some(d), false) if (1..=MAX_DEPTH).contains(&d) => Ok(Limits::depth(d)),
            (None, Some(d), false) => Err(Invalid::DepthRange(d).into()),
            (None, None, true) => Ok(Limits {
                infinite: true,
                ..Limits::default()
            }),
            _ => Err(Invalid::SeveralLimits.into()),
        }
    }

    /// Whether the book may answer.
    pub fn own_book(&self) -> bool {
        self.own_book.unwrap_or(true)
    }

    /// The options given, each checked by its own parser, by the
    /// engine's names: what [`Self::apply`] sets (a host without the
    /// engine at hand checks a request with it).
    pub fn checked_options(&self) -> Result<Vec<(&'static str, String)>, GameError> {
        let known = page_options();
        let mut values = Vec::new();
        for (name, value) in &self.options {
            let option = known
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| Invalid::UnknownOption(name.clone()))?;
            let text = match value {
                serde_json::Value::Bool(b) => b.to_string(),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::String(s) => s.clone(),
                other => {
                    return Err(Invalid::OptionType {
                        name: name.clone(),
                        value: other.to_string(),
                    }
                    .into())
                }
            };
            check_value(option, &text)?;
            values.push((option.name, text));
        }
        Ok(values)
    }

    /// Sets every page option of `engine` to its default, then to the
    /// values given. Nothing is changed when a name or value is wrong.
    pub fn apply(&self, engine: &mut Engine) -> Result<(), GameError> {
        let values = self.checked_options()?;
        for option in &page_options() {
            if let Some(default) = option.default_text() {
                // Defaults come from the engine's own list: they are valid.
                let _ = engine.set_option(option.name, &default);
            }
        }
        for (name, text) in values {
            engine
                .set_option(name, &text)
                .map_err(Invalid::OptionRefused)?;
        }
        Ok(())
    }
}

/// Checks `text` with the option's own parser before anything is set, so
/// a bad value leaves the engine as it was.
fn check_value(option: &EngineOption, text: &str) -> Result<(), GameError> {
    option
        .parse(text)
        .map(|_| ())
        .map_err(|e| Invalid::OptionValue(e).into())
}

/// The engine options the page shows and sets.
pub fn page_options() -> Vec<EngineOption> {
    Engine::options()
        .into_iter()
        .filter(|o| {
            !SERVER_OPTIONS
                .iter()
                .any(|s| s.eq_ignore_ascii_case(o.name))
        })
        .filter(|o| !matches!(o.kind, OptionKind::Button | OptionKind::Text { .. }))
        .collect()
}

/// The answer to `GET /api/options`: the options a side can set, whether
/// the engine has playing levels, and what the host has: endgame tables
/// (the page asks them only then), search threads and the largest table.
#[derive(Serialize, Debug, Clone)]
pub struct OptionsAnswer {
    /// The engine's options the page sets.
    pub options: Vec<OptionView>,
    /// The engine plays at levels (`UCI_LimitStrength` and `UCI_Elo`).
    pub levels: bool,
    /// Endgame tables answer the page (the panel asks them only then).
    pub tablebase: bool,
    /// The most pieces a position they hold may have (0: none).
    pub tablebase_pieces: u32,
    /// The most search threads a game's engine may have.
    pub threads_max: usize,
    /// The largest table a game's engine may have, MiB.
    pub hash_max_mib: usize,
    /// The player's own games the explorer has (`None`: none yet).
    pub own_games: Option<crate::explorer::OwnGamesView>,
    /// The page may give its own games (a file chosen in the page:
    /// `POST /api/explorer/own`), up to `own_games_max_bytes`.
    pub own_games_upload: bool,
    /// The largest own games the host indexes, bytes.
    pub own_games_max_bytes: u64,
    /// `SyzygyPath` as the page set it (`None`: the host's own tables).
    pub syzygy_path: Option<String>,
    /// The page may set `SyzygyPath` (`POST /api/syzygy`): a host with
    /// files of its own.
    pub syzygy_settable: bool,
}

impl OptionsAnswer {
    /// The engine's options, for a host with (or without) `tablebase`,
    /// `threads_max` threads and tables up to `hash_max_mib`.
    pub fn new(tablebase: bool, threads_max: usize, hash_max_mib: usize) -> OptionsAnswer {
        let options: Vec<OptionView> = page_options().iter().filter_map(OptionView::new).collect();
        let has = |name: &str| options.iter().any(|o| o.name == name);
        let levels = has("UCI_LimitStrength") && has("UCI_Elo");
        OptionsAnswer {
            options,
            levels,
            tablebase,
            tablebase_pieces: 0,
            threads_max,
            hash_max_mib,
            own_games: None,
            own_games_upload: false,
            own_games_max_bytes: crate::explorer::MAX_OWN_BYTES,
            syzygy_path: None,
            syzygy_settable: false,
        }
    }
}

/// An option as the page reads it.
#[derive(Serialize, Debug, Clone)]
pub struct OptionView {
    /// Its name.
    pub name: &'static str,
    /// `check`, `spin` or `combo`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Its default (boolean, number or word).
    pub default: serde_json::Value,
    /// Smallest value (spin).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// Largest value (spin).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    /// The choices (combo).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<&'static str>>,
}

impl OptionView {
    /// The view of `option`, or `None` for kinds the page does not set.
    pub fn new(option: &EngineOption) -> Option<OptionView> {
        let (kind, default, min, max, choices) = match &option.kind {
            OptionKind::Check { default } => {
                ("check", serde_json::json!(default), None, None, None)
            }
            OptionKind::Spin { default, min, max } => (
                "spin",
                serde_json::json!(default),
                Some(*min),
                Some(*max),
                None,
            ),
            OptionKind::Combo { default, choices } => (
                "combo",
                serde_json::json!(default),
                None,
                None,
                Some(choices.to_vec()),
            ),
            OptionKind::Button | OptionKind::Text { .. } => return None,
        };
        Some(OptionView {
            name: option.name,
            kind,
            default,
            min,
            max,
            choices,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(json: serde_json::Value) -> EngineSettings {
        serde_json::from_value(json).expect("settings")
    }

    #[test]
    fn limits_take_one_of_time_depth_and_infinite() {
        assert_eq!(
            settings(serde_json::json!({})).limits().expect("default"),
            Limits::movetime(1000)
        );
        assert_eq!(
            settings(serde_json::json!({"depth": 3}))
                .limits()
                .expect("depth"),
            Limits::depth(3)
        );
        assert!(settings(serde_json::json!({"depth": 0})).limits().is_err());
        assert!(settings(serde_json::json!({"depth": 3, "movetime_ms": 5}))
            .limits()
            .is_err());
        assert!(settings(serde_json::json!({"movetime_ms": 0}))
            .limits()
            .is_err());
    }

    #[test]
    fn options_come_from_the_engine_and_bad_values_change_nothing() {
        let mut engine = Engine::new();
        let names: Vec<&str> = page_options().iter().map(|o| o.name).collect();
        assert!(names.contains(&"Evaluator") && names.contains(&"MultiPV"));
        assert!(!names.contains(&"Hash") && !names.contains(&"EvalFile"));
        let switch = engine::SearchParams::list()
            .into_iter()
            .find(|p| matches!(p.kind, engine::params::ParamKind::Switch { default: true }))
            .expect("a search switch");
        let before = engine.params();
        let bad = settings(serde_json::json!({"options": {switch.name: false, "MultiPV": 9999}}));
        assert!(bad.apply(&mut engine).is_err());
        assert_eq!(engine.params(), before);
        assert!(settings(serde_json::json!({"options": {"Hash": 64}}))
            .apply(&mut engine)
            .is_err());
        let good =
            settings(serde_json::json!({"options": {switch.name: false, "Evaluator": "Simple"}}));
        good.apply(&mut engine).expect("applies");
        assert_ne!(engine.params(), before);
        // The next side's settings start from the defaults again.
        settings(serde_json::json!({}))
            .apply(&mut engine)
            .expect("applies");
        assert_eq!(engine.params(), before);
    }
}
