//! Who plays a side, and how the engine plays it.

use engine::eval::EvalKind;
use engine::strength::{EloOutOfRange, Level, DEFAULT_ELO};
use engine::{find_option, Engine, Limits, OptionValue, ParamError, SearchParams};
use std::fmt;

/// How long the engine thinks about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// To this depth (plies).
    Depth(i32),
    /// For this many milliseconds.
    Time(u64),
}

impl fmt::Display for SearchLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchLimit::Depth(d) => write!(f, "depth {d}"),
            SearchLimit::Time(ms) => write!(f, "{:.1} s per move", *ms as f64 / 1000.0),
        }
    }
}

/// The engine's settings for one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// Depth or time per move.
    pub limit: SearchLimit,
    /// Play book moves while the book knows the position.
    pub book: bool,
    /// Search techniques on or off, and their numbers.
    pub params: SearchParams,
    /// The evaluator: Full, or Simple (material and mobility).
    pub evaluator: EvalKind,
    /// Play at the level `elo` (`UCI_LimitStrength`) instead of full strength.
    pub limit_strength: bool,
    /// The playing level (`UCI_Elo`).
    pub elo: i64,
    /// The options set by the user, in order (name, value).
    changed: Vec<(&'static str, String)>,
}

impl Default for EngineSettings {
    fn default() -> EngineSettings {
        EngineSettings {
            limit: SearchLimit::Time(1_000),
            book: true,
            params: SearchParams::default(),
            evaluator: EvalKind::default(),
            limit_strength: false,
            elo: DEFAULT_ELO,
            changed: Vec::new(),
        }
    }
}

impl EngineSettings {
    /// Default search options with this limit, book on or off.
    pub fn new(limit: SearchLimit, book: bool) -> EngineSettings {
        EngineSettings {
            limit,
            book,
            ..EngineSettings::default()
        }
    }

    /// The search limits for one move.
    pub fn limits(&self) -> Limits {
        match self.limit {
            SearchLimit::Depth(d) => Limits::depth(d),
            SearchLimit::Time(ms) => Limits::movetime(ms),
        }
    }

    /// Plays at this Elo, or at full strength (`None`).
    pub fn set_level(&mut self, elo: Option<i64>) -> Result<(), EloOutOfRange> {
        if let Some(elo) = elo {
            Level::new(elo)?;
            self.elo = elo;
        }
        self.limit_strength = elo.is_some();
        Ok(())
    }

    /// The level played at (`None`: full strength).
    pub fn level(&self) -> Option<i64> {
        self.limit_strength.then_some(self.elo)
    }

    /// Sets a search option (`NullMove`, `Contempt`, ...), the
    /// `Evaluator` or the level (`UCI_LimitStrength`, `UCI_Elo`) by name
    /// and remembers it, for `settings`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let options = Engine::options();
        let option =
            find_option(&options, name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        match (option.name, option.parse(value)?) {
            ("UCI_LimitStrength", OptionValue::Check(on)) => {
                self.limit_strength = on;
                return Ok(());
            }
            ("UCI_Elo", OptionValue::Spin(elo)) => {
                self.elo = elo;
                return Ok(());
            }
            ("Evaluator", OptionValue::Combo(choice)) => {
                self.evaluator = EvalKind::parse(choice).expect("the combo lists evaluator names");
                self.changed.retain(|(n, _)| *n != "Evaluator");
                self.changed
                    .push(("Evaluator", self.evaluator.name().to_string()));
                return Ok(());
            }
            _ => {}
        }
        self.params.set(name, value)?;
        let Some(name) = SearchParams::list()
            .into_iter()
            .find(|i| i.name.eq_ignore_ascii_case(name))
            .map(|i| i.name)
        else {
            return Ok(());
        };
        self.changed.retain(|(n, _)| *n != name);
        self.changed.push((name, value.trim().to_string()));
        Ok(())
    }
}

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person typing moves.
    Human,
    /// Kestrel, with these settings.
    Engine(EngineSettings),
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => write!(f, "human"),
            Player::Engine(s) => {
                write!(
                    f,
                    "Kestrel ({}, book {})",
                    s.limit,
                    if s.book { "on" } else { "off" }
                )?;
                if let Some(elo) = s.level() {
                    write!(f, " level {elo}")?;
                }
                for (name, value) in &s.changed {
                    write!(f, " {name}={value}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_show_what_changed() {
        let mut s = EngineSettings::new(SearchLimit::Depth(5), true);
        s.set_option("nullmove", "false").unwrap();
        s.set_option("Contempt", "20").unwrap();
        s.set_option("evaluator", "simple").unwrap();
        assert_eq!(s.evaluator, EvalKind::Simple);
        assert!(s.set_option("Evaluator", "clever").is_err());
        assert!(s.set_option("Contempt", "999").is_err());
        assert!(!s.params.null_move);
        assert_eq!(
            Player::Engine(s.clone()).to_string(),
            "Kestrel (depth 5, book on) NullMove=false Contempt=20 Evaluator=Simple"
        );
        assert_eq!(s.limits().depth, Some(5));
    }

    #[test]
    fn levels_by_command_or_by_option() {
        let mut s = EngineSettings::new(SearchLimit::Time(1000), false);
        assert_eq!(s.level(), None);
        s.set_level(Some(1800)).unwrap();
        assert_eq!(s.level(), Some(1800));
        assert_eq!(
            Player::Engine(s.clone()).to_string(),
            "Kestrel (1.0 s per move, book off) level 1800"
        );
        assert!(s.set_level(Some(engine::strength::MIN_ELO - 1)).is_err());
        assert_eq!(s.level(), Some(1800));
        s.set_level(None).unwrap();
        assert_eq!(s.level(), None);
        s.set_option("uci_elo", "2000").unwrap();
        assert_eq!(s.level(), None);
        s.set_option("UCI_LimitStrength", "true").unwrap();
        assert_eq!(s.level(), Some(2000));
        assert!(s.set_option("UCI_Elo", "9999").is_err());
        assert!(s.set_option("UCI_LimitStrength", "maybe").is_err());
    }
}
