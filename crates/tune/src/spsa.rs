//! SPSA tuning of an engine's numeric options by game pairs, the method
//! OpenBench uses: every iteration perturbs all parameters at once by +-c
//! (a random sign each), plays one game pair from a balanced opening
//! between the "plus" and the "minus" engine (colours swapped), and moves
//! every parameter along its sign by the pair's result. The gains follow
//! OpenBench's schedule, so its SPSA input lines (`name, int, value, min,
//! max, c_end, r_end`) mean the same here. Every finished pair is appended
//! to a log (CSV), from which a run resumes.

use std::fmt::Write as _;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use thiserror::Error;

use matchcore::engine_process::EngineProcess;
use matchcore::game_loop::GameRules;
use matchcore::openings::Opening;
use matchcore::worker_pool::WorkerPool;
use matchrunner::engine_spec::{EngineSpec, HANDSHAKE_TIMEOUT};
use matchrunner::game_play::play_game;
use matchrunner::move_comments::MoveDetail;
use matchrunner::player;
use pgn::GameResult;

/// Why a tuning run cannot start or go on.
#[derive(Debug, Error)]
pub enum SpsaError {
    /// A parameter line is not `name, int|float, value, min, max, c_end, r_end`.
    #[error("line {line} of the parameters: {reason} (expected `name, int, value, min, max, c_end, r_end`)")]
    BadParam {
        /// Line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// No parameters to tune.
    #[error("no parameters to tune")]
    NoParams,
    /// The engine cannot be started or does not offer the parameters.
    #[error("the engine {cmd}: {reason}")]
    Engine {
        /// Its command.
        cmd: String,
        /// What went wrong.
        reason: String,
    },
    /// The log cannot be read, written, or belongs to other parameters.
    #[error("the log {path}: {reason}")]
    Log {
        /// The log's path.
        path: String,
        /// What went wrong.
        reason: String,
    },
}

/// One parameter as OpenBench's SPSA input describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// The engine option's name.
    pub name: String,
    /// Whether the engine takes whole numbers (values are rounded).
    pub integer: bool,
    /// The starting value.
    pub start: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// The perturbation at the end of the run.
    pub c_end: f64,
    /// The learning rate at the end of the run.
    pub r_end: f64,
}

/// Reads OpenBench SPSA input: one `name, int, value, min, max, c_end,
/// r_end` line per parameter (`float` for real-valued ones; blank lines
/// and `#` comments skipped).
pub fn parse_params(text: &str) -> Result<Vec<SpsaParam>, SpsaError> {
    let mut params = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| SpsaError::BadParam {
            line: i + 1,
            reason,
        };
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 7 {
            return Err(bad(format!("{} fields", fields.len())));
        }
        let integer = match fields[1] {
            "int" => true,
            "float" => false,
            other => return Err(bad(format!("type '{other}'"))),
        };
        let mut numbers = [0.0; 5];
        for (n, text) in numbers.iter_mut().zip(&fields[2..]) {
            *n = text
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad(format!("'{text}' is not a number")))?;
        }
        let [start, min, max, c_end, r_end] = numbers;
        if !(min <= start && start <= max) {
            return Err(bad(format!("{start} is outside {min}..={max}")));
        }
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(bad("c_end and r_end must be positive".to_string()));
        }
        params.push(SpsaParam {
            name: fields[0].to_string(),
            integer,
            start,
            min,
            max,
            c_end,
            r_end,
        });
    }
    if params.is_empty() {
        return Err(SpsaError::NoParams);
    }
    Ok(params)
}

/// The gain schedule's constants (OpenBench's defaults: alpha 0.602,
/// gamma 0.101, A one tenth of the iterations).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Game pairs in the whole run.
    pub iterations: u64,
    /// Decay exponent of the learning rate.
    pub alpha: f64,
    /// Decay exponent of the perturbation.
    pub gamma: f64,
    /// The stability constant A as a share of the iterations.
    pub a_ratio: f64,
}

impl Schedule {
    /// OpenBench's defaults for a run of `iterations` pairs.
    pub fn new(iterations: u64) -> Schedule {
        Schedule {
            iterations,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
        }
    }

    /// The perturbation `c_k` and learning rate `r_k` of `param` at
    /// iteration `k` (from 0): `c_k` falls to `c_end` and `r_k` to `r_end`
    /// at the last iteration.
    pub fn gains(&self, param: &SpsaParam, k: u64) -> (f64, f64) {
        let n = self.iterations.max(1) as f64;
        let a_big = self.a_ratio * n;
        let c = param.c_end * n.powf(self.gamma);
        let a_end = param.r_end * param.c_end * param.c_end;
        let a = a_end * (a_big + n).powf(self.alpha);
        let k = k as f64 + 1.0;
        let c_k = c / k.powf(self.gamma);
        let a_k = a / (a_big + k).powf(self.alpha);
        (c_k, a_k / (c_k * c_k))
    }

    /// The most `param` can move over the whole run: every pair scored
    /// 2-0 for the side its step favours (a pair moves a value by `r_k *
    /// c_k * (wins - losses)`, at most `2 r_k c_k`).
    pub fn max_change(&self, param: &SpsaParam) -> f64 {
        (0..self.iterations)
            .map(|k| {
                let (c_k, r_k) = self.gains(param, k);
                2.0 * r_k * c_k
            })
            .sum()
    }
}

/// Half a step of a whole-number parameter: a value moves only when its
/// rounding does.
const HALF_STEP: f64 = 0.5;

/// The longest run [`Budget::check`] looks at for `pairs_needed`.
const MOST_PAIRS: u64 = 1 << 20;

/// What keeps a run of game pairs from tuning whole-number parameters,
/// found before a game is played.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    /// Parameters whose `c_end` is below half a step: late in the run both
    /// engines of a pair often play the same rounded value, and such a
    /// pair teaches nothing (OpenBench's guide: a `c_end` of about a
    /// twentieth of the range, never below 0.5 for an integer).
    pub small_c_end: Vec<String>,
    /// Parameters that could not move half a step even if every pair went
    /// their way: their values cannot change in this run.
    pub frozen: Vec<String>,
    /// The fewest pairs with which every parameter could move a whole step
    /// (`None` when even a million would not).
    pub pairs_needed: Option<u64>,
}

impl Budget {
    /// Checks `params` for a run of `pairs` pairs with OpenBench's gains.
    pub fn check(params: &[SpsaParam], pairs: u64) -> Budget {
        let ints: Vec<&SpsaParam> = params.iter().filter(|p| p.integer).collect();
        let schedule = Schedule::new(pairs);
        let frozen = ints
            .iter()
            .filter(|p| schedule.max_change(p) < HALF_STEP)
            .map(|p| p.name.clone())
            .collect();
        // A parameter's largest change is r_end * c_end times a factor of
        // the run's length alone: the parameter with the smallest product
        // needs the longest run.
        let pairs_needed = ints
            .iter()
            .min_by(|a, b| (a.r_end * a.c_end).total_cmp(&(b.r_end * b.c_end)))
            .map_or(Some(0), |slowest| {
                let moves = |n: u64| Schedule::new(n).max_change(slowest) >= 2.0 * HALF_STEP;
                let mut high = 1u64;
                while !moves(high) && high < MOST_PAIRS {
                    high *= 2;
                }
                moves(high).then(|| {
                    // A longer run moves a value further: halve the gap,
                    // to within 1 %.
                    let mut low = high / 2;
                    while high - low > 1.max(high / 100) {
                        let mid = low + (high - low) / 2;
                        if moves(mid) {
                            high = mid;
                        } else {
                            low = mid;
                        }
                    }
                    high
                })
            });
        Budget {
            small_c_end: ints
                .iter()
                .filter(|p| p.c_end < HALF_STEP)
                .map(|p| p.name.clone())
                .collect(),
            frozen,
            pairs_needed,
        }
    }
}

/// A tuning run.
pub struct SpsaConfig {
    /// The engine (its limits, options and command); both sides run it.
    pub engine: EngineSpec,
    /// The parameters, set as engine options.
    pub params: Vec<SpsaParam>,
    /// The gains.
    pub schedule: Schedule,
    /// Balanced openings, taken at random.
    pub openings: Vec<Opening>,
    /// Adjudication and game rules.
    pub rules: GameRules,
    /// Pairs played at once.
    pub concurrency: usize,
    /// Seed of the signs and openings (each iteration's own stream).
    pub seed: u64,
}

/// Where a run stands: the iterations done and the current values.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    /// Game pairs finished.
    pub iteration: u64,
    /// Current values, in the parameters' order.
    pub values: Vec<f64>,
    /// Plus engine's wins, losses and draws over the run.
    pub wins: u64,
    /// See `wins`.
    pub losses: u64,
    /// See `wins`.
    pub draws: u64,
}

impl SpsaState {
    /// A run's start: every parameter at its start value.
    pub fn start(params: &[SpsaParam]) -> SpsaState {
        SpsaState {
            iteration: 0,
            values: params.iter().map(|p| p.start).collect(),
            wins: 0,
            losses: 0,
            draws: 0,
        }
    }
}

/// The log's header line for these parameters.
fn log_header(params: &[SpsaParam]) -> String {
    let mut h = "iteration,wins,losses,draws".to_string();
    for p in params {
        let _ = write!(h, ",{}", p.name);
    }
    h
}

/// Reads a log (`None` when it does not exist yet) and returns the state
/// after its last complete line. A log of other parameters is refused.
pub fn resume(path: &Path, params: &[SpsaParam]) -> Result<Option<SpsaState>, SpsaError> {
    let err = |reason: String| SpsaError::Log {
        path: path.display().to_string(),
        reason,
    };
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(err(e.to_string())),
    };
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok(None),
        Some(h) if h.trim() == log_header(params) => {}
        Some(_) => {
            return Err(err(
                "it was written for other parameters (its header differs)".to_string(),
            ))
        }
    }
    let mut state = SpsaState::start(params);
    // A line cut short by an interruption is not a finished pair.
    for line in lines.filter(|l| l.split(',').count() == 4 + params.len()) {
        let fields: Vec<&str> = line.split(',').collect();
        let parse = |s: &str| s.trim().parse::<f64>().ok();
        let (Some(k), Some(w), Some(l), Some(d)) = (
            parse(fields[0]),
            parse(fields[1]),
            parse(fields[2]),
            parse(fields[3]),
        ) else {
            return Err(err(format!("unreadable line '{line}'")));
        };
        let values: Option<Vec<f64>> = fields[4..].iter().map(|s| parse(s)).collect();
        let Some(values) = values else {
            return Err(err(format!("unreadable line '{line}'")));
        };
        state = SpsaState {
            iteration: k as u64,
            values,
            wins: w as u64,
            losses: l as u64,
            draws: d as u64,
        };
    }
    Ok(Some(state))
}

/// Starts the engine once and checks that it offers every parameter as a
/// UCI option: a normal Kestrel build compiles its tunables as constants,
/// and an engine that ignores an option would be "tuned" without effect.
pub fn check_options(engine: &EngineSpec, params: &[SpsaParam]) -> Result<(), SpsaError> {
    let err = |reason: String| SpsaError::Engine {
        cmd: engine.cmd.clone(),
        reason,
    };
    let mut process = EngineProcess::spawn(engine.command()).map_err(|e| err(e.to_string()))?;
    process.send("uci").map_err(|e| err(e.to_string()))?;
    let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
    let mut offered = Vec::new();
    process
        .recv_until(deadline, |line| {
            let mut words = line.split_whitespace();
            if words.next() == Some("option") && words.next() == Some("name") {
                let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
                offered.push(name.join(" ").to_ascii_lowercase());
            }
            line.trim() == "uciok"
        })
        .map_err(|e| err(e.to_string()))?;
    process.quit("quit");
    let missing: Vec<&str> = params
        .iter()
        .filter(|p| !offered.contains(&p.name.to_ascii_lowercase()))
        .map(|p| p.name.as_str())
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(err(format!(
            "it offers no option {} (Kestrel's tunables are options only in a build with `--features tune`)",
            missing.join(", ")
        )))
    }
}

/// The engine with `values` set as its options (rounded for integers).
fn with_values(engine: &EngineSpec, params: &[SpsaParam], values: &[f64]) -> EngineSpec {
    let mut spec = engine.clone();
    for (p, v) in params.iter().zip(values) {
        let text = if p.integer {
            format!("{}", v.round() as i64)
        } else {
            format!("{v}")
        };
        spec.options.push((p.name.clone(), text));
    }
    spec
}

/// The plus engine's score in a game (1, 0.5, 0), or `None` when unfinished.
fn plus_score(result: GameResult, plus_is_white: bool) -> Option<f64> {
    let white = match result {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
        _ => return None,
    };
    Some(if plus_is_white { white } else { 1.0 - white })
}

/// Plays one game pair, plus against minus with colours swapped, from one
/// opening; returns the plus engine's (wins, losses, draws), or an error
/// message when an engine could not play.
fn play_pair(
    plus: &EngineSpec,
    minus: &EngineSpec,
    opening: &Opening,
    rules: &GameRules,
) -> Result<(u64, u64, u64), String> {
    let (mut w, mut l, mut d) = (0, 0, 0);
    for plus_is_white in [true, false] {
        let (white, black) = if plus_is_white {
            (plus, minus)
        } else {
            (minus, plus)
        };
        let mut pw = player::start(white, &[]).map_err(|e| e.to_string())?;
        let mut pb = player::start(black, &[]).map_err(|e| e.to_string())?;
        let record = play_game(
            [pw.as_mut(), pb.as_mut()],
            [white, black],
            opening,
            rules,
            &MoveDetail::default(),
        );
        pw.quit();
        pb.quit();
        match plus_score(record.result, plus_is_white) {
            Some(s) if s > 0.75 => w += 1,
            Some(s) if s < 0.25 => l += 1,
            Some(_) => d += 1,
            None => return Err(format!("a game ended without a result: {}", record.reason)),
        }
    }
    Ok((w, l, d))
}

/// Runs (or resumes) the tuning until the schedule's iterations are done
/// or `stop` is set; appends each finished pair to `log` and calls
/// `progress` after it. Returns the final state.
pub fn run(
    config: &SpsaConfig,
    log: &Path,
    stop: &AtomicBool,
    progress: &(dyn Fn(&SpsaState) + Sync),
) -> Result<SpsaState, SpsaError> {
    let log_err = |e: std::io::Error| SpsaError::Log {
        path: log.display().to_string(),
        reason: e.to_string(),
    };
    let params = &config.params;
    if params.is_empty() {
        return Err(SpsaError::NoParams);
    }
    let state = match resume(log, params)? {
        Some(s) => s,
        None => {
            fs::write(log, format!("{}\n", log_header(params))).map_err(log_err)?;
            SpsaState::start(params)
        }
    };
    let file = OpenOptions::new().append(true).open(log).map_err(log_err)?;
    let shared = Mutex::new((state, file));
    let next = AtomicU64::new(shared.lock().expect("state lock").0.iteration);
    let failure: Mutex<Option<SpsaError>> = Mutex::new(None);
    WorkerPool::new(config.concurrency).run(
        || {
            let k = next.fetch_add(1, Ordering::Relaxed);
            (k < config.schedule.iterations && !stop.load(Ordering::Relaxed)).then_some(k)
        },
        |iterations| {
            for k in iterations {
                // Each iteration draws its signs and opening from its own
                // stream, so a resumed run continues the same sequence.
                let mut rng =
                    SmallRng::seed_from_u64(config.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let values = shared.lock().expect("state lock").0.values.clone();
                let signs: Vec<f64> = params
                    .iter()
                    .map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 })
                    .collect();
                let mut plus = Vec::with_capacity(params.len());
                let mut minus = Vec::with_capacity(params.len());
                let mut gains = Vec::with_capacity(params.len());
                for ((p, v), s) in params.iter().zip(&values).zip(&signs) {
                    let (c_k, r_k) = config.schedule.gains(p, k);
                    plus.push((v + c_k * s).clamp(p.min, p.max));
                    minus.push((v - c_k * s).clamp(p.min, p.max));
                    gains.push((c_k, r_k));
                }
                let opening = &config.openings[rng.random_range(0..config.openings.len())];
                let pair = play_pair(
                    &with_values(&config.engine, params, &plus),
                    &with_values(&config.engine, params, &minus),
                    opening,
                    &config.rules,
                );
                let (w, l, d) = match pair {
                    Ok(r) => r,
                    Err(reason) => {
                        *failure.lock().expect("failure lock") = Some(SpsaError::Engine {
                            cmd: config.engine.cmd.clone(),
                            reason: format!("iteration {k} could not be played: {reason}"),
                        });
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                };
                let mut guard = shared.lock().expect("state lock");
                let (state, file) = &mut *guard;
                let result = w as f64 - l as f64;
                for (i, p) in params.iter().enumerate() {
                    let (c_k, r_k) = gains[i];
                    state.values[i] =
                        (state.values[i] + r_k * c_k * result * signs[i]).clamp(p.min, p.max);
                }
                state.iteration += 1;
                state.wins += w;
                state.losses += l;
                state.draws += d;
                let mut line = format!(
                    "{},{},{},{}",
                    state.iteration, state.wins, state.losses, state.draws
                );
                for v in &state.values {
                    let _ = write!(line, ",{v:.4}");
                }
                if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
                    *failure.lock().expect("failure lock") = Some(log_err(e));
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                progress(state);
            }
        },
    );
    if let Some(e) = failure.into_inner().expect("failure lock") {
        return Err(e);
    }
    Ok(shared.into_inner().expect("state lock").0)
}

/// Every logged iteration's values (for a chart): `(iteration, values)`.
pub fn trajectory(path: &Path, params: &[SpsaParam]) -> Result<Vec<(u64, Vec<f64>)>, SpsaError> {
    let text = fs::read_to_string(path).map_err(|e| SpsaError::Log {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<f64> = line
                .split(',')
                .map(|s| s.trim().parse::<f64>())
                .collect::<Result<_, _>>()
                .ok()?;
            (fields.len() == 4 + params.len()).then(|| (fields[0] as u64, fields[4..].to_vec()))
        })
        .collect())
}

/// The values as OpenBench SPSA input lines (the run's result, ready for
/// the next run or for the engine's defaults): one parameter a line and no
/// newline after the last, as OpenBench's form takes it
/// ([`check_openbench_input`]).
pub fn as_input(params: &[SpsaParam], values: &[f64]) -> String {
    let lines: Vec<String> = params
        .iter()
        .zip(values)
        .map(|(p, v)| {
            let kind = if p.integer { "int" } else { "float" };
            let value = if p.integer {
                format!("{}", v.round() as i64)
            } else {
                format!("{v:.4}")
            };
            format!(
                "{}, {kind}, {value}, {}, {}, {}, {}",
                p.name, p.min, p.max, p.c_end, p.r_end
            )
        })
        .collect();
    lines.join("\n")
}

/// Whether `text` passes OpenBench's check of an SPSA test's input
/// (`verify_spsa_inputs` in OpenBench's `workloads/verify_workload.py`):
/// the text split at every newline, each piece exactly `name, int|float,
/// value, min, max, c_end, r_end` (so no empty line, not even after the
/// last, and no comment), min at most max, the value within them, c_end
/// above 0 for a float and r_end above 0. The errors, in OpenBench's words.
pub fn check_openbench_input(text: &str) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    let float = |x: &str| x.trim().parse::<f64>().ok();
    for (n, line) in text.split('\n').enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        let [name, kind, value, min, max, c, r] = fields[..] else {
            errors.push(format!("line {}: Malformed SPSA Input ('{line}')", n + 1));
            continue;
        };
        let (Some(value), Some(min), Some(max), Some(c), Some(r)) =
            (float(value), float(min), float(max), float(c), float(r))
        else {
            errors.push(format!("line {}: Malformed SPSA Input ('{line}')", n + 1));
            continue;
        };
        let kind = kind.trim();
        if kind != "int" && kind != "float" {
            errors.push(format!("Datatype must be int for float, for {name}"));
        }
        if min > max {
            errors.push(format!("Max does not exceed Min, for {name}"));
        }
        if !(min <= value && value <= max) {
            errors.push(format!("Value must be within [Min, Max], for {name}"));
        }
        if kind == "float" && c <= 0.0 {
            errors.push(format!("C for floats must be > 0.00, for {name}"));
        }
        if r <= 0.0 {
            errors.push(format!("R must be > 0.00, for {name}"));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &str = "# two parameters\nRfpMargin, int, 80, 30, 200, 6, 0.002\n\nLmrBase, int, 75, 0, 200, 8, 0.002\n";

    #[test]
    fn printed_input_passes_openbench_check() {
        let params = parse_params(INPUT).unwrap();
        let text = as_input(&params, &[80.0, 75.0]);
        assert_eq!(
            text,
            "RfpMargin, int, 80, 30, 200, 6, 0.002\nLmrBase, int, 75, 0, 200, 8, 0.002"
        );
        check_openbench_input(&text).unwrap();
        // What OpenBench refuses: a newline after the last line, a comment,
        // a value out of range, a missing field.
        for bad in [
            format!("{text}\n"),
            format!("# comment\n{text}"),
            "X, int, 300, 0, 200, 8, 0.002".to_string(),
            "X, int, 3, 0, 200, 8".to_string(),
            "X, char, 3, 0, 200, 8, 0.002".to_string(),
            "X, float, 3, 0, 200, 0, 0.002".to_string(),
        ] {
            assert!(check_openbench_input(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn reads_openbench_input() {
        let params = parse_params(INPUT).unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!(params[0].name, "RfpMargin");
        assert!(params[0].integer);
        assert_eq!(
            (params[0].start, params[0].min, params[0].max),
            (80.0, 30.0, 200.0)
        );
        for bad in [
            "A, int, 5, 0, 10, 1",
            "A, long, 5, 0, 10, 1, 0.002",
            "A, int, 50, 0, 10, 1, 0.002",
            "A, int, x, 0, 10, 1, 0.002",
            "A, int, 5, 0, 10, 0, 0.002",
        ] {
            assert!(parse_params(bad).is_err(), "{bad}");
        }
        assert!(matches!(
            parse_params("# nothing\n"),
            Err(SpsaError::NoParams)
        ));
        // Written back, the input reads the same.
        assert_eq!(
            parse_params(&as_input(&params, &[80.0, 75.0])).unwrap(),
            params
        );
    }

    #[test]
    fn a_budget_too_small_to_move_an_integer_is_found() {
        let params = parse_params(
            "LmrBase, int, 78, 0, 200, 8, 0.002\nRazorDepth, int, 3, 1, 8, 0.5, 0.002",
        )
        .expect("params");
        // 30 pairs (the run that never moved a value) cannot move RazorDepth.
        let small = Budget::check(&params, 30);
        assert_eq!(small.frozen, ["RazorDepth"]);
        assert!(small.small_c_end.is_empty());
        let needed = small.pairs_needed.expect("a finite run");
        assert!(needed > 30, "{needed}");
        // The run it names could move every value a whole step, and
        // freezes none.
        assert!(Budget::check(&params, needed).frozen.is_empty());
        for p in &params {
            assert!(Schedule::new(needed).max_change(p) >= 1.0, "{}", p.name);
        }
        let tiny = parse_params("X, int, 3, 1, 8, 0.25, 0.002").expect("params");
        assert_eq!(Budget::check(&tiny, 10_000).small_c_end, ["X"]);
        // Floats are never frozen by rounding.
        let float = parse_params("Y, float, 0.5, 0, 1, 0.01, 0.002").expect("params");
        assert!(Budget::check(&float, 1).frozen.is_empty());
    }

    #[test]
    fn gains_end_at_c_end_and_r_end() {
        let p = &parse_params(INPUT).unwrap()[0];
        let s = Schedule::new(1000);
        let (c_last, r_last) = s.gains(p, 999);
        assert!((c_last - p.c_end).abs() < 1e-9, "{c_last}");
        assert!((r_last - p.r_end).abs() < 1e-9, "{r_last}");
        let (c_first, r_first) = s.gains(p, 0);
        assert!(c_first > c_last && r_first > r_last);
    }

    #[test]
    fn a_log_resumes_where_it_stopped() {
        let dir = std::env::temp_dir().join(format!("kestrel-spsa-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log.csv");
        let params = parse_params(INPUT).unwrap();
        assert_eq!(resume(&log, &params).unwrap(), None);
        fs::write(
            &log,
            format!(
                "{}\n1,1,0,1,80.5,74.0\n2,1,1,2,81.0,73.5\n3,1,1",
                log_header(&params)
            ),
        )
        .unwrap();
        let state = resume(&log, &params).unwrap().unwrap();
        assert_eq!(state.iteration, 2, "the cut-off last line is not a pair");
        assert_eq!(state.values, vec![81.0, 73.5]);
        assert_eq!((state.wins, state.losses, state.draws), (1, 1, 2));
        assert_eq!(trajectory(&log, &params).unwrap().len(), 2);
        let other = parse_params("X, int, 1, 0, 2, 1, 0.002").unwrap();
        assert!(resume(&log, &other).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
