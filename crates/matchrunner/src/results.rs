//! The results of a match or tournament as data: every game in order (what
//! the JSON file holds, and what shards are merged from), and the statistics
//! computed from them with `elo`.

use crate::schedule::TournamentKind;
use elo::{Estimate, Pentanomial, PlayerResult, Sprt, SprtDecision, WdlCounts};
use matchcore::ending::Termination;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// SPRT settings (`-sprt`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SprtSpec {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// How elo0 and elo1 are read (`model=normalized|logistic|bayesian`,
    /// fastchess's models; normalized by default).
    #[serde(default, with = "model_name")]
    pub model: elo::SprtModel,
}

/// `SprtModel` as its fastchess name in JSON.
mod model_name {
    use elo::SprtModel;
    use serde::{Deserialize, Deserializer, Serializer};

    // serde's `with` passes a reference.
    #[allow(clippy::trivially_copy_pass_by_ref)]
    pub fn serialize<S: Serializer>(m: &SprtModel, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(m.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SprtModel, D::Error> {
        let name = String::deserialize(d)?;
        SprtModel::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown SPRT model '{name}'")))
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    /// Its number in the schedule, from 1.
    pub number: usize,
    /// The round, from 1.
    pub round: u32,
    /// Its game pair (same opening, colours reversed).
    pub pair: usize,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How it ended.
    pub termination: Termination,
    /// The result in words.
    pub reason: String,
    /// Plies played, opening included.
    pub plies: usize,
}

impl GameEntry {
    /// White's score: 1, 0.5 or 0 (`None` for an unknown result).
    pub fn white_score(&self) -> Option<f64> {
        match self.result.as_str() {
            "1-0" => Some(1.0),
            "0-1" => Some(0.0),
            "1/2-1/2" => Some(0.5),
            _ => None,
        }
    }

    /// The result for `name`, if it played.
    pub fn result_for(&self, name: &str) -> Option<PlayerResult> {
        let s = self.white_score()?;
        let s = if self.white == name {
            s
        } else if self.black == name {
            1.0 - s
        } else {
            return None;
        };
        Some(if s == 1.0 {
            PlayerResult::Win
        } else if s == 0.0 {
            PlayerResult::Loss
        } else {
            PlayerResult::Draw
        })
    }
}

/// The SPRT state as printed and stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtState {
    /// The settings.
    pub spec: SprtSpec,
    /// The log-likelihood ratio now.
    pub llr: f64,
    /// The bounds (accept H0 at or below the lower, H1 at or above the upper).
    pub lower: f64,
    /// See `lower`.
    pub upper: f64,
    /// `H0`, `H1` or `continue`.
    pub decision: String,
    /// What the LLR counts: `pairs` (pentanomial) or `games` (trinomial).
    #[serde(default)]
    pub on: String,
}

impl SprtSpec {
    /// The test these settings describe.
    pub fn test(&self) -> Sprt {
        Sprt::new(self.elo0, self.elo1, self.alpha, self.beta, self.model)
            .expect("the command line checked the SPRT settings")
    }
}

/// A two-player summary from the first player's view.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadToHead {
    /// First player's name.
    pub first: String,
    /// Second player's name.
    pub second: String,
    /// Wins, draws, losses.
    pub wdl: WdlCounts,
    /// Complete game pairs (none counted when the statistics are not on
    /// pairs).
    pub penta: Pentanomial,
    /// Whether Elo and SPRT count pairs (fastchess's `report_penta`).
    pub paired: bool,
    /// Of the pairs scoring one point, those of a win and a loss (the rest
    /// are two draws): fastchess's `WL/DD Ratio`.
    pub pairs_won_lost: u64,
}

impl HeadToHead {
    /// Counts the games between `first` and `second` in `games`, with the
    /// statistics on pairs where there are any.
    pub fn count(first: &str, second: &str, games: &[GameEntry]) -> HeadToHead {
        HeadToHead::count_as(first, second, games, true)
    }

    /// Counts as [`HeadToHead::count`] does; `paired` false counts single
    /// games only (fastchess without `report_penta`: `-games 1`,
    /// `-report penta=false`, the bayesian model).
    pub fn count_as(first: &str, second: &str, games: &[GameEntry], paired: bool) -> HeadToHead {
        HeadToHead::count_where(first, second, games, paired, |g| {
            (g.white == first && g.black == second) || (g.white == second && g.black == first)
        })
    }

    /// `name`'s games against every opponent, counted as
    /// [`HeadToHead::count_as`] counts one opponent's (fastchess's
    /// per-engine statistics in a tournament).
    pub fn against_all(name: &str, games: &[GameEntry], paired: bool) -> HeadToHead {
        HeadToHead::count_where(name, "*", games, paired, |g| {
            g.white == name || g.black == name
        })
    }

    fn count_where(
        first: &str,
        second: &str,
        games: &[GameEntry],
        paired: bool,
        between: impl Fn(&GameEntry) -> bool,
    ) -> HeadToHead {
        let mut wdl = WdlCounts::new(0, 0, 0);
        let mut pairs: BTreeMap<usize, Vec<PlayerResult>> = BTreeMap::new();
        for g in games {
            if !between(g) {
                continue;
            }
            let Some(r) = g.result_for(first) else {
                continue;
            };
            match r {
                PlayerResult::Win => wdl.wins += 1,
                PlayerResult::Draw => wdl.draws += 1,
                PlayerResult::Loss => wdl.losses += 1,
            }
            pairs.entry(g.pair).or_default().push(r);
        }
        let mut penta = Pentanomial::default();
        let mut pairs_won_lost = 0;
        for results in pairs.values().filter(|_| paired) {
            if let [a, b] = results[..] {
                penta.add_pair(a, b);
                pairs_won_lost += u64::from(matches!(
                    (a, b),
                    (PlayerResult::Win, PlayerResult::Loss)
                        | (PlayerResult::Loss, PlayerResult::Win)
                ));
            }
        }
        HeadToHead {
            first: first.to_string(),
            second: second.to_string(),
            wdl,
            penta,
            paired,
            pairs_won_lost,
        }
    }

    /// Whether the statistics are on pairs: asked for, and pairs finished.
    pub fn on_pairs(&self) -> bool {
        self.paired && self.penta.pairs() > 0
    }

    /// The Elo estimate: from the finished pairs when the statistics are
    /// on pairs (the pentanomial model's smaller, honest error; fastchess's
    /// `EloPentanomial`), else from games (`EloWDL`).
    pub fn elo(&self) -> Estimate {
        if self.on_pairs() {
            self.penta.elo()
        } else {
            self.wdl.elo()
        }
    }

    /// Normalized Elo, from pairs or games as [`HeadToHead::elo`].
    pub fn nelo(&self) -> Estimate {
        if self.on_pairs() {
            self.penta.nelo()
        } else {
            self.wdl.nelo()
        }
    }

    /// The SPRT state for `spec`: on pairs when the statistics are, else on games.
    pub fn sprt(&self, spec: SprtSpec) -> SprtState {
        let test = spec.test();
        let llr = if self.on_pairs() {
            test.llr(&self.penta)
        } else {
            test.llr_wdl(&self.wdl)
        };
        let (lower, upper) = test.bounds();
        let on = if self.on_pairs() { "pairs" } else { "games" };
        let decision = match test.decide(llr) {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0",
            SprtDecision::AcceptH1 => "H1",
        };
        SprtState {
            spec,
            llr,
            lower,
            upper,
            decision: decision.to_string(),
            on: on.to_string(),
        }
    }
}

/// One participant's line in a tournament table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// Name.
    pub name: String,
    /// Fitted rating (maximum likelihood; anchored or mean 0); null when
    /// unbounded (all games won or lost).
    pub elo: Option<f64>,
    /// 95% half-width of the rating (null when unbounded).
    pub error: Option<f64>,
    /// Games played.
    pub games: u64,
    /// Points.
    pub points: f64,
    /// Draws.
    pub draws: u64,
}

/// Everything a run wrote: the JSON file's contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResults {
    /// The participants in command-line order.
    pub engines: Vec<String>,
    /// Pairing scheme.
    pub tournament: TournamentKind,
    /// The PGN file written, if any (merged along with the results).
    pub pgn: Option<String>,
    /// Every finished game, in schedule order.
    pub games: Vec<GameEntry>,
    /// Known ratings used as anchors.
    pub anchors: Vec<(String, f64)>,
    /// The SPRT, for two-engine runs that asked for one.
    pub sprt: Option<SprtState>,
    /// Whether the statistics count game pairs (see [`HeadToHead::count_as`]).
    #[serde(default = "yes")]
    pub paired: bool,
    /// Summary of the first two engines (first's view) for matches.
    pub summary: Option<MatchSummary>,
    /// Ratings and points for every participant.
    pub standings: Vec<Standing>,
}

/// The numbers a two-engine match reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    /// Wins of the first engine.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of the first engine.
    pub losses: u64,
    /// Score fraction.
    pub score: f64,
    /// Elo difference (null when infinite).
    pub elo: Option<f64>,
    /// 95% half-width (null when unbounded).
    pub elo_error: Option<f64>,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
    /// Draws per game.
    pub draw_ratio: f64,
    /// Pair counts by pair score 0, 0.5, 1, 1.5, 2.
    pub pentanomial: [u64; 5],
}

fn yes() -> bool {
    true
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

impl RunResults {
    /// Computes the summary, SPRT state and standings from the games.
    pub fn compute(
        engines: Vec<String>,
        tournament: TournamentKind,
        pgn: Option<String>,
        mut games: Vec<GameEntry>,
        anchors: Vec<(String, f64)>,
        sprt: Option<SprtSpec>,
        paired: bool,
    ) -> RunResults {
        games.sort_by_key(|g| g.number);
        let (summary, sprt) = if engines.len() == 2 {
            let h = HeadToHead::count_as(&engines[0], &engines[1], &games, paired);
            let e = h.elo();
            let summary = MatchSummary {
                wins: h.wdl.wins,
                draws: h.wdl.draws,
                losses: h.wdl.losses,
                score: h.wdl.score(),
                elo: finite(e.elo),
                elo_error: finite(e.error),
                los: h.wdl.los(),
                draw_ratio: h.wdl.draw_ratio(),
                pentanomial: h.penta.counts,
            };
            (Some(summary), sprt.map(|s| h.sprt(s)))
        } else {
            (None, None)
        };
        let standings = standings(&engines, &games, &anchors);
        RunResults {
            engines,
            tournament,
            pgn,
            games,
            anchors,
            sprt,
            paired,
            summary,
            standings,
        }
    }
}

/// Points, draws and fitted ratings for every engine.
pub fn standings(
    engines: &[String],
    games: &[GameEntry],
    anchors: &[(String, f64)],
) -> Vec<Standing> {
    let index = |name: &str| engines.iter().position(|e| e == name);
    let mut fit_games = Vec::new();
    let mut table: Vec<Standing> = engines
        .iter()
        .map(|name| Standing {
            name: name.clone(),
            elo: None,
            error: None,
            games: 0,
            points: 0.0,
            draws: 0,
        })
        .collect();
    for g in games {
        let (Some(w), Some(b), Some(s)) = (index(&g.white), index(&g.black), g.white_score())
        else {
            continue;
        };
        fit_games.push((w, b, s));
        for (i, p) in [(w, s), (b, 1.0 - s)] {
            table[i].games += 1;
            table[i].points += p;
            if s == 0.5 {
                table[i].draws += 1;
            }
        }
    }
    let anchor_idx: Vec<(usize, f64)> = anchors
        .iter()
        .filter_map(|(n, e)| index(n).map(|i| (i, *e)))
        .collect();
    for (s, est) in table
        .iter_mut()
        .zip(elo::ratings::fit(engines.len(), &fit_games, &anchor_idx))
    {
        s.elo = finite(est.elo);
        s.error = finite(est.error);
    }
    table
}

/// A finished 40-ply game of round 1, for tests here and in `history`.
#[cfg(test)]
pub(crate) fn test_game(
    number: usize,
    pair: usize,
    white: &str,
    black: &str,
    result: &str,
) -> GameEntry {
    GameEntry {
        number,
        round: 1,
        pair,
        white: white.to_string(),
        black: black.to_string(),
        result: result.to_string(),
        termination: Termination::Normal,
        reason: String::new(),
        plies: 40,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(number: usize, pair: usize, white: &str, black: &str, result: &str) -> GameEntry {
        test_game(number, pair, white, black, result)
    }

    #[test]
    fn head_to_head_counts_games_and_pairs_from_the_first_view() {
        let games = [
            game(1, 0, "a", "b", "1-0"),
            game(2, 0, "b", "a", "1/2-1/2"),
            game(3, 1, "a", "b", "0-1"),
            game(4, 1, "b", "a", "0-1"),
            game(5, 2, "a", "b", "1-0"),
        ];
        let h = HeadToHead::count("a", "b", &games);
        assert_eq!((h.wdl.wins, h.wdl.draws, h.wdl.losses), (3, 1, 1));
        // Pair 0: win + draw = 1.5 points; pair 1: loss + win = 1; pair 2 incomplete.
        assert_eq!(h.penta.counts, [0, 0, 1, 1, 0]);
    }

    #[test]
    fn standings_give_points_and_ratings_that_order_the_players() {
        let mut games = Vec::new();
        for i in 0..10 {
            games.push(game(i, i, "a", "b", if i < 8 { "1-0" } else { "1/2-1/2" }));
            games.push(game(
                100 + i,
                100 + i,
                "b",
                "c",
                if i < 7 { "1-0" } else { "0-1" },
            ));
            games.push(game(
                200 + i,
                200 + i,
                "c",
                "a",
                if i < 2 { "1-0" } else { "0-1" },
            ));
        }
        let names = ["a", "b", "c"].map(String::from).to_vec();
        let t = standings(&names, &games, &[]);
        assert_eq!(t[0].points, 8.0 + 1.0 + 8.0);
        assert_eq!(t[0].draws, 2);
        let elo = |t: &[Standing], i: usize| t[i].elo.unwrap();
        assert!(elo(&t, 0) > elo(&t, 1) && elo(&t, 1) > elo(&t, 2), "{t:?}");
        let anchored = standings(&names, &games, &[("c".to_string(), 1500.0)]);
        assert_eq!(elo(&anchored, 2), 1500.0);
        let gap = elo(&anchored, 0) - elo(&anchored, 2);
        assert!(
            (gap - (elo(&t, 0) - elo(&t, 2))).abs() < 1e-3,
            "{anchored:?}"
        );
    }

    #[test]
    fn json_round_trip() {
        let r = RunResults::compute(
            vec!["a".into(), "b".into()],
            TournamentKind::RoundRobin,
            None,
            vec![game(2, 0, "b", "a", "0-1"), game(1, 0, "a", "b", "1-0")],
            vec![],
            Some(SprtSpec {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
                model: elo::SprtModel::Normalized,
            }),
            true,
        );
        assert_eq!(r.games[0].number, 1, "games come in schedule order");
        let text = serde_json::to_string(&r).unwrap();
        let back: RunResults = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
        assert_eq!(r.summary.unwrap().pentanomial, [0, 0, 0, 0, 1]);
        assert_eq!(r.sprt.unwrap().decision, "continue");
    }
}
