//! Genetic tuning of the evaluation weights (one seed program's method,
//! done with game pairs and error bars): a population of weight sets plays
//! a round robin in the arena, both colours, at fixed nodes or depth, with
//! a move cap where unfinished games are judged by the two evaluations.
//! The best survive; the rest are replaced either by fresh sets drawn
//! around the starting weights ("preservation") or by children of the
//! survivors, crossed term by term and mutated ("mutation"). Each
//! generation's best then plays a match against the starting weights.

use std::sync::Arc;

use chess::Position;
use engine::eval::hce::pair::{pair, Pair};
use engine::eval::hce::weights::{Term, Weights, TERMS};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use arena::pairs::{self, ArenaConfig, Contender, MoveLimit, Pairing, Tally};
use charts::{LineChart, Point, Series};
use matchcore::openings;

/// How the losers of a generation are replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// By fresh random sets around the starting weights.
    Preservation,
    /// By children of two survivors (crossover by term), mutated.
    Mutation,
}

/// The terms tuned when none are named: material and mobility (72 pairs of
/// weights, 144 numbers; all 1,242 are too many for a GA).
pub const DEFAULT_TERMS: [&str; 8] = [
    "PIECE_VALUE",
    "BISHOP_PAIR",
    "KNIGHT_PAWNS",
    "ROOK_PAWNS",
    "KNIGHT_MOBILITY",
    "BISHOP_MOBILITY",
    "ROOK_MOBILITY",
    "QUEEN_MOBILITY",
];

/// A term name that is not one of the evaluation's.
#[derive(Debug, thiserror::Error)]
#[error("unknown term `{0}` (the names are those of weights.txt, e.g. PIECE_VALUE, KNIGHT_MOBILITY, KING_ATTACK)")]
pub struct UnknownTerm(pub String);

/// Looks up terms by name (case-insensitive).
pub fn terms(names: &[&str]) -> Result<Vec<&'static Term>, UnknownTerm> {
    names
        .iter()
        .map(|n| {
            TERMS
                .iter()
                .find(|t| t.name.eq_ignore_ascii_case(n))
                .ok_or_else(|| UnknownTerm(n.to_string()))
        })
        .collect()
}

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct GaConfig {
    /// Weight sets per generation.
    pub population: usize,
    /// Generations.
    pub generations: usize,
    /// How many of the best survive each generation.
    pub survivors: usize,
    /// Replacement of the rest.
    pub mode: Mode,
    /// The terms whose weights evolve.
    pub terms: Vec<&'static Term>,
    /// Search per move.
    pub limit: MoveLimit,
    /// Game pairs each two members play per generation.
    pub pairs_per_match: usize,
    /// Game pairs of each generation's best against the starting weights.
    pub elo_pairs: usize,
    /// Relative size of a change: a mutated or fresh weight moves by up to
    /// this share of its size, plus `step_cp`.
    pub step: f64,
    /// See `step` (centipawns).
    pub step_cp: i32,
    /// Chance that a child's weight mutates.
    pub mutation_rate: f64,
    /// Tournament games: move cap and adjudication (the cap judged by the
    /// evaluations).
    pub tournament: ArenaConfig,
    /// The matches against the starting weights.
    pub elo_match: ArenaConfig,
    /// Random seed (openings, fresh sets, crossover, mutation).
    pub seed: u64,
}

/// A finished generation.
#[derive(Clone, Debug)]
pub struct Generation {
    /// 1-based.
    pub number: usize,
    /// The population, best first, with its tournament score (share of
    /// points).
    pub ranking: Vec<(Arc<Weights>, f64)>,
    /// The best set's results against the starting weights (`None` when
    /// the best is the starting set itself).
    pub vs_start: Option<Tally>,
}

impl Generation {
    /// The best weight set.
    pub fn best(&self) -> &Arc<Weights> {
        &self.ranking[0].0
    }
}

/// The weight indices a run changes.
fn genes(terms: &[&'static Term]) -> Vec<usize> {
    terms
        .iter()
        .flat_map(|t| t.first..t.first + t.len)
        .collect()
}

/// `value` moved at random by up to `share` of its size plus `cp`.
fn nudge(rng: &mut SmallRng, value: i32, share: f64, cp: i32) -> i32 {
    let reach = (f64::from(value.abs()) * share) as i32 + cp;
    (value + rng.random_range(-reach..=reach)).clamp(-10_000, 10_000)
}

fn nudge_pair(rng: &mut SmallRng, p: Pair, share: f64, cp: i32) -> Pair {
    pair(nudge(rng, p.mg, share, cp), nudge(rng, p.eg, share, cp))
}

/// A fresh set: every tuned weight of `start` moved at random.
fn fresh(start: &Weights, genes: &[usize], config: &GaConfig, rng: &mut SmallRng) -> Weights {
    let mut w = start.clone();
    for &g in genes {
        w.set(
            g,
            nudge_pair(rng, start.get(g), config.step, config.step_cp),
        );
    }
    w
}

/// A child: each term from one parent or the other, then each weight
/// mutated with `mutation_rate`.
fn child(a: &Weights, b: &Weights, config: &GaConfig, rng: &mut SmallRng) -> Weights {
    let mut w = a.clone();
    for term in &config.terms {
        let parent = if rng.random_bool(0.5) { a } else { b };
        for g in term.first..term.first + term.len {
            let mut v = parent.get(g);
            if rng.random_bool(config.mutation_rate.clamp(0.0, 1.0)) {
                v = nudge_pair(rng, v, config.step, config.step_cp);
            }
            w.set(g, v);
        }
    }
    w
}

/// Every member plays every other `pairs_per_match` game pairs; returns
/// each member's share of the points.
fn round_robin(
    population: &[Arc<Weights>],
    openings: &[Position],
    config: &GaConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<f64> {
    let players: Vec<Contender> = population
        .iter()
        .enumerate()
        .map(|(i, w)| Contender {
            weights: w.clone(),
            ..Contender::new(format!("member {i}"), config.limit)
        })
        .collect();
    let mut pairings = Vec::new();
    let mut next_opening = openings.iter().cycle();
    for a in 0..players.len() {
        for b in a + 1..players.len() {
            for _ in 0..config.pairs_per_match {
                pairings.push(Pairing {
                    first: a,
                    second: b,
                    opening: *next_opening.next().expect("openings are not empty"),
                });
            }
        }
    }
    let played = pairs::play_pairs(&players, &pairings, &config.tournament, progress);
    (0..players.len())
        .map(|i| pairs::tally(&played, i).wdl.score())
        .collect()
}

/// A match of `pairs` game pairs (arena's head-to-head match) between two
/// weight sets; returns the results of `a`.
pub fn versus(
    a: &Arc<Weights>,
    b: &Arc<Weights>,
    pairs: usize,
    limit: MoveLimit,
    openings: &[Position],
    config: &ArenaConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Tally {
    let players = [
        Contender {
            weights: a.clone(),
            ..Contender::new("a", limit)
        },
        Contender {
            weights: b.clone(),
            ..Contender::new("b", limit)
        },
    ];
    pairs::head_to_head(&players, pairs, openings, config, progress)
}

/// Games one generation plays: the round robin and the match against the
/// starting weights.
pub fn games_per_generation(config: &GaConfig) -> usize {
    let p = config.population;
    p * p.saturating_sub(1) / 2 * config.pairs_per_match * 2 + config.elo_pairs * 2
}

/// Runs the GA from `start` with openings drawn from `all_openings`.
/// `on_generation` sees each finished generation; `progress(games)` counts
/// games within the current generation.
pub fn run(
    start: Arc<Weights>,
    all_openings: &[Position],
    config: &GaConfig,
    mut on_generation: impl FnMut(&Generation),
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Generation> {
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let genes = genes(&config.terms);
    let size = config.population.max(2);
    let keep = config.survivors.clamp(1, size - 1);
    // The starting set competes too, so a generation never ends worse than it.
    let mut population: Vec<Arc<Weights>> = vec![start.clone()];
    while population.len() < size {
        population.push(Arc::new(fresh(&start, &genes, config, &mut rng)));
    }
    let mut history = Vec::new();
    for number in 1..=config.generations {
        let tournament_openings = openings::pick(
            all_openings,
            size * (size - 1) / 2 * config.pairs_per_match,
            rng.random(),
        );
        let scores = round_robin(&population, &tournament_openings, config, progress);
        let mut order: Vec<usize> = (0..population.len()).collect();
        // Stable: on equal scores the older member (lower index) ranks first.
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let ranking: Vec<(Arc<Weights>, f64)> = order
            .iter()
            .map(|&i| (population[i].clone(), scores[i]))
            .collect();
        let best = ranking[0].0.clone();
        let vs_start = if *best == *start {
            None
        } else {
            let before = size * (size - 1) / 2 * config.pairs_per_match * 2;
            Some(versus(
                &best,
                &start,
                config.elo_pairs,
                config.limit,
                &openings::pick(all_openings, config.elo_pairs, rng.random()),
                &config.elo_match,
                &|n| progress(before + n),
            ))
        };
        let generation = Generation {
            number,
            ranking,
            vs_start,
        };
        on_generation(&generation);
        // The next population: survivors, then replacements.
        let survivors: Vec<Arc<Weights>> = generation
            .ranking
            .iter()
            .take(keep)
            .map(|(w, _)| w.clone())
            .collect();
        let mut next = survivors.clone();
        while next.len() < size {
            let w = match config.mode {
                Mode::Preservation => fresh(&start, &genes, config, &mut rng),
                Mode::Mutation => {
                    let a = &survivors[rng.random_range(0..survivors.len())];
                    let b = &survivors[rng.random_range(0..survivors.len())];
                    child(a, b, config, &mut rng)
                }
            };
            next.push(Arc::new(w));
        }
        population = next;
        history.push(generation);
    }
    history
}

/// Elo of each generation's best against the starting weights, with 95%
/// error bars (a generation whose best is the start counts 0).
pub fn elo_chart(generations: &[Generation], title: &str) -> LineChart {
    let points = generations
        .iter()
        .map(|g| {
            let e = g.vs_start.map(|t| t.pairs.elo());
            Point {
                x: g.number as f64,
                y: e.map_or(0.0, |e| e.elo),
                err: e.map_or(0.0, |e| e.error),
            }
        })
        .collect();
    LineChart {
        title: title.to_string(),
        x_label: "generation".into(),
        y_label: "Elo of the best vs the start".into(),
        log_y: false,
        series: vec![Series {
            name: "best of each generation".into(),
            points,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::eval::hce::weights::PIECE_VALUE;

    fn tiny(mode: Mode) -> GaConfig {
        let quick = ArenaConfig {
            threads: 2,
            rules: matchcore::game_loop::GameRules {
                max_plies: Some(40),
                at_cap: matchcore::game_loop::CapVerdict::Judge { margin: 100 },
                ..ArenaConfig::default().rules
            },
            ..ArenaConfig::default()
        };
        GaConfig {
            population: 3,
            generations: 1,
            survivors: 1,
            mode,
            terms: terms(&DEFAULT_TERMS).unwrap(),
            limit: MoveLimit::Nodes(150),
            pairs_per_match: 1,
            elo_pairs: 1,
            step: 0.2,
            step_cp: 5,
            mutation_rate: 0.2,
            tournament: quick.clone(),
            elo_match: quick,
            seed: 5,
        }
    }

    #[test]
    fn term_names_are_checked() {
        assert_eq!(terms(&["piece_value"]).unwrap()[0].first, PIECE_VALUE);
        let e = terms(&["NOPE"]).unwrap_err();
        assert!(e.to_string().contains("NOPE"));
        let default = terms(&DEFAULT_TERMS).unwrap();
        assert_eq!(genes(&default).len(), 5 + 1 + 1 + 1 + 9 + 14 + 15 + 28);
    }

    #[test]
    fn children_and_fresh_sets_change_only_the_tuned_terms() {
        let config = tiny(Mode::Mutation);
        let start = Weights::default_shared();
        let g = genes(&config.terms);
        let mut rng = SmallRng::seed_from_u64(1);
        let a = fresh(&start, &g, &config, &mut rng);
        let b = fresh(&start, &g, &config, &mut rng);
        let c = child(&a, &b, &config, &mut rng);
        let unmutated = child(
            &a,
            &b,
            &GaConfig {
                mutation_rate: 0.0,
                ..config.clone()
            },
            &mut rng,
        );
        for w in [&a, &b, &c] {
            for i in 0..start.as_slice().len() {
                if !g.contains(&i) {
                    assert_eq!(w.get(i), start.get(i), "weight {i} is not tuned");
                }
            }
        }
        assert!(g.iter().any(|&i| a.get(i) != start.get(i)));
        for &i in &g {
            let v = unmutated.get(i);
            assert!(
                v == a.get(i) || v == b.get(i),
                "weight {i} comes from a parent"
            );
        }
    }

    #[test]
    fn one_generation_runs_and_its_best_loads() {
        for mode in [Mode::Preservation, Mode::Mutation] {
            let config = tiny(mode);
            let mut seen = 0;
            let gens = run(
                Weights::default_shared(),
                &openings::embedded(),
                &config,
                |g| {
                    seen += 1;
                    assert_eq!(g.ranking.len(), 3);
                    let total: f64 = g.ranking.iter().map(|(_, s)| s).sum();
                    // Three members, each plays 4 games: shares sum to 1.5.
                    assert!((total - 1.5).abs() < 1e-9, "{total}");
                    assert!(g.ranking.windows(2).all(|w| w[0].1 >= w[1].1));
                    if let Some(t) = g.vs_start {
                        assert_eq!(t.wdl.games(), 2);
                    }
                },
                &|_| {},
            );
            assert_eq!((seen, gens.len()), (1, 1));
            // The engine loads the best set as an EvalFile.
            let path = std::env::temp_dir()
                .join(format!("kestrel-ga-{}-{mode:?}.txt", std::process::id()));
            std::fs::write(&path, gens[0].best().to_text()).unwrap();
            let mut engine = engine::Engine::new();
            engine
                .set_option("EvalFile", path.to_str().unwrap())
                .unwrap();
            assert_eq!(Weights::load(&path).unwrap(), **gens[0].best());
            std::fs::remove_file(&path).unwrap();
            let chart = elo_chart(&gens, "t");
            assert_eq!(chart.series[0].points.len(), 1);
        }
        assert_eq!(games_per_generation(&tiny(Mode::Mutation)), 3 * 2 + 2);
    }
}
