//! The training loop: epochs over shuffled shards, mini-batches spread
//! over all cores, validation, checkpoints, quantised nets and the log.

use std::path::{Path, PathBuf};
use std::time::Instant;

use engine::eval::nnue::{
    Activation, InputBuckets, Network, HIDDEN_ALIGN, INPUTS, MAX_BUCKETS, MAX_HIDDEN,
};
use engine::strength::Rng;
use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};
use rayon::prelude::*;
use trainingdata::TrainingRecord;

use crate::adamw::AdamW;
use crate::checkpoint::Checkpoint;
use crate::data::{count_records, load_shard};
use crate::error::TrainError;
use crate::model::{FloatNet, Scratch};
use crate::quantise::{agreement, dequantise, quantise, Agreement};
use crate::report::{append_row, draw_chart, read_log, LogRow};
use crate::sample::Sample;
use crate::schedule::Schedule;
use crate::yardstick::hand_crafted_loss;

/// A run's settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Training-data shards (32-byte records).
    pub shards: Vec<PathBuf>,
    /// Where checkpoints, nets, the log and the chart go.
    pub out_dir: PathBuf,
    /// Hidden size H (a multiple of 32).
    pub hidden: usize,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Epochs to run in total (a resumed run counts the ones done).
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch_size: usize,
    /// Initial learning rate.
    pub lr: f32,
    /// The learning-rate schedule.
    pub schedule: Schedule,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// Weight of the game result in the target (the rest: the search score).
    pub wdl: f32,
    /// Centipawns per unit of network output (and of the score's sigmoid).
    pub scale: f32,
    /// Fraction of every shard held out for validation.
    pub val_fraction: f64,
    /// Worker threads (0: every core).
    pub threads: usize,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// A checkpoint to continue from.
    pub resume: Option<PathBuf>,
    /// A net file to start from instead of random weights (fine-tuning a
    /// net on new data; `hidden` and `activation` must be the net's).
    pub init: Option<PathBuf>,
    /// Validation positions on which quantised and float scores are compared.
    pub check_positions: usize,
    /// The output layer's quantisation in the net files (0: the finest that
    /// fits the weights, see `quantise::auto_qb`). A fixed value also keeps
    /// the output weights within ±127/`qb` during training.
    pub qb: i32,
    /// Train on each position or its left-right mirror image, chosen at
    /// random each epoch (doubles what a small data set teaches).
    pub mirror: bool,
    /// Output buckets, chosen by piece count (1 to `MAX_BUCKETS`; a
    /// resumed run keeps its checkpoint's).
    pub output_buckets: usize,
    /// King buckets and mirroring of the inputs (a resumed run keeps its
    /// checkpoint's; an `init` net without them gets them, its weights
    /// becoming the factoriser).
    pub input_buckets: InputBuckets,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            shards: Vec::new(),
            out_dir: PathBuf::from("nnue-run"),
            hidden: 256,
            activation: Activation::SCReLU,
            epochs: 10,
            batch_size: 16_384,
            lr: 0.001,
            schedule: Schedule::Cosine {
                final_fraction: 0.05,
            },
            weight_decay: 0.01,
            wdl: 0.3,
            scale: 400.0,
            val_fraction: 0.02,
            threads: 0,
            seed: 1,
            resume: None,
            init: None,
            check_positions: 4096,
            qb: engine::eval::nnue::QB,
            mirror: false,
            output_buckets: 1,
            input_buckets: InputBuckets::NONE,
        }
    }
}

/// What the run reports as it goes.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// An epoch begins; about `positions` training positions follow.
    EpochStart {
        /// The epoch, from 1.
        epoch: usize,
        /// Training positions expected.
        positions: u64,
    },
    /// `positions` more positions were trained on.
    Trained {
        /// Positions in the batch just done.
        positions: u64,
    },
    /// An epoch ended with these figures and files.
    EpochEnd {
        /// The log row.
        row: &'a LogRow,
        /// The quantised net written.
        net: &'a Path,
        /// The float checkpoint written.
        checkpoint: &'a Path,
    },
}

/// The batch's data and each worker's gradient and scratch buffers.
struct Workers {
    grads: Vec<Vec<f32>>,
    scratch: Vec<Scratch>,
}

impl Workers {
    fn new(threads: usize, net: &FloatNet) -> Workers {
        Workers {
            grads: vec![vec![0.0; net.params.len()]; threads],
            scratch: vec![Scratch::new(net.hidden); threads],
        }
    }

    /// The batch's gradient of the mean loss, summed into `grads[0]`;
    /// returns the batch's summed loss. Each worker accumulates into its own
    /// gradient, so no locks; the sum happens once per batch.
    /// With `mirror_seed`, each record is mirrored left to right or not by
    /// a hash of the seed and its place in the batch.
    fn gradient(
        &mut self,
        net: &FloatNet,
        batch: &[TrainingRecord],
        target: (f32, f32),
        mirror_seed: Option<u64>,
    ) -> f64 {
        let (wdl, scale) = target;
        let per_worker = batch.len().div_ceil(self.grads.len()).max(1);
        let weight = 1.0 / batch.len() as f32;
        let loss: f64 = batch
            .par_chunks(per_worker)
            .zip(self.grads.par_iter_mut())
            .zip(self.scratch.par_iter_mut())
            .enumerate()
            .map(|(worker, ((chunk, grad), scratch))| {
                grad.fill(0.0);
                let mut loss = 0.0f64;
                for (i, record) in chunk.iter().enumerate() {
                    let sample = Sample::from_record(record, wdl, scale, &net.inputs);
                    let place = (worker * per_worker + i) as u64;
                    let sample = match mirror_seed {
                        Some(seed) if Rng::new(seed ^ place).next_u64() & 1 == 1 => {
                            sample.mirrored()
                        }
                        _ => sample,
                    };
                    loss += f64::from(net.backward(&sample, weight, grad, scratch));
                }
                loss
            })
            .sum();
        let used = batch.len().div_ceil(per_worker);
        let (first, rest) = self.grads.split_at_mut(1);
        const CHUNK: usize = 16 * 1024;
        first[0]
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(i, dst)| {
                for other in &rest[..used - 1] {
                    for (d, s) in dst.iter_mut().zip(&other[i * CHUNK..]) {
                        *d += s;
                    }
                }
            });
        loss
    }
}

/// The mean loss of `net` on `records` (all cores).
pub fn mean_loss(net: &FloatNet, records: &[TrainingRecord], wdl: f32, scale: f32) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    let total: f64 = records
        .par_chunks(4096)
        .map(|chunk| {
            let mut scratch = Scratch::new(net.hidden);
            chunk
                .iter()
                .map(|r| {
                    let sample = Sample::from_record(r, wdl, scale, &net.inputs);
                    f64::from(net.loss(&sample, &mut scratch))
                })
                .sum::<f64>()
        })
        .sum();
    total / records.len() as f64
}

impl TrainConfig {
    /// Refuses hyperparameters that are not finite or out of their range
    /// (a NaN or infinite learning rate trained the net to NaN and wrote it).
    pub fn check_numbers(&self) -> Result<(), TrainError> {
        let mut checks = vec![
            ("--lr", f64::from(self.lr), Bound::Positive),
            (
                "--weight-decay",
                f64::from(self.weight_decay),
                Bound::NonNegative,
            ),
            ("--wdl", f64::from(self.wdl), Bound::Unit),
            ("--scale", f64::from(self.scale), Bound::Positive),
            ("--val-fraction", self.val_fraction, Bound::BelowOne),
        ];
        match self.schedule {
            Schedule::Step { gamma, .. } => {
                checks.push(("--gamma", f64::from(gamma), Bound::Positive));
            }
            Schedule::Cosine { final_fraction } => {
                checks.push(("--final-lr", f64::from(final_fraction), Bound::Unit));
            }
        }
        for (name, value, bound) in checks {
            let ok = value.is_finite()
                && match bound {
                    Bound::Positive => value > 0.0,
                    Bound::NonNegative => value >= 0.0,
                    Bound::Unit => (0.0..=1.0).contains(&value),
                    Bound::BelowOne => (0.0..1.0).contains(&value),
                };
            if !ok {
                let expected = match bound {
                    Bound::Positive => "a finite number above 0",
                    Bound::NonNegative => "a finite number, 0 or more",
                    Bound::Unit => "a number from 0 to 1",
                    Bound::BelowOne => "a number from 0 up to (not including) 1",
                };
                return Err(TrainError::Config(format!(
                    "{name} must be {expected}, not {value}"
                )));
            }
        }
        Ok(())
    }
}

/// The range a hyperparameter must be in.
#[derive(Clone, Copy)]
enum Bound {
    Positive,
    NonNegative,
    Unit,
    BelowOne,
}

impl TrainConfig {
    /// Every check that needs no data read: the numbers, the shapes, the
    /// files to start from. [`train`] makes them first; a front end calls
    /// this before it says what it is about to do.
    pub fn check(&self) -> Result<(), TrainError> {
        if self.shards.is_empty() {
            return Err(TrainError::Config(
                "no training data: give shard files".into(),
            ));
        }
        if self.batch_size == 0 || self.epochs == 0 {
            return Err(TrainError::Config(
                "batch size and epochs must be positive".into(),
            ));
        }
        self.check_numbers()?;
        if self.mirror && self.input_buckets.mirrors() {
            return Err(TrainError::Config(
                "--mirror with a mirrored input layout: the net already sees a position and its \
                 left-right twin alike, so mirroring the data teaches nothing; drop --mirror"
                    .into(),
            ));
        }
        match (&self.resume, &self.init) {
            (Some(_), Some(_)) => {
                return Err(TrainError::Config(
                    "a run either resumes a checkpoint or starts from a net file, not both".into(),
                ))
            }
            (Some(path), None) => {
                engine::file::check_regular(path, Some(crate::checkpoint::MAX_FILE_LEN))
                    .map_err(|e| TrainError::io(path, e))?;
            }
            (None, _) => {
                if self.hidden == 0
                    || !self.hidden.is_multiple_of(HIDDEN_ALIGN)
                    || self.hidden > MAX_HIDDEN
                {
                    return Err(TrainError::Config(format!(
                        "hidden size {}: use a multiple of {HIDDEN_ALIGN} up to {MAX_HIDDEN}",
                        self.hidden
                    )));
                }
                if !(1..=MAX_BUCKETS).contains(&self.output_buckets) {
                    return Err(TrainError::Config(format!(
                        "{} output buckets: use 1 to {MAX_BUCKETS}",
                        self.output_buckets
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Runs the training; returns the log of every epoch (earlier ones too
/// when resuming).
pub fn train(
    config: &TrainConfig,
    progress: &mut (dyn FnMut(Event) + Send),
) -> Result<Vec<LogRow>, TrainError> {
    config.check()?;
    std::fs::create_dir_all(&config.out_dir).map_err(|e| TrainError::io(&config.out_dir, e))?;
    let threads = if config.threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        config.threads
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| TrainError::Config(format!("cannot start {threads} threads: {e}")))?;
    pool.install(|| run(config, threads, progress))
}

fn run(
    config: &TrainConfig,
    threads: usize,
    progress: &mut (dyn FnMut(Event) + Send),
) -> Result<Vec<LogRow>, TrainError> {
    let log_path = config.out_dir.join("log.csv");
    // `check` has refused a run with both.
    let (mut net, mut adam, done) = match (&config.resume, &config.init) {
        (Some(path), _) => {
            let ckpt = Checkpoint::load(path, config.weight_decay)?;
            (ckpt.net, ckpt.adam, ckpt.epochs_done)
        }
        (None, init) => {
            let net = match init {
                Some(path) => initial_net(path, config)?,
                None => FloatNet::new(
                    config.hidden,
                    config.activation,
                    config.output_buckets,
                    config.input_buckets,
                    config.seed,
                ),
            };
            let adam = AdamW::new(net.params.len(), config.weight_decay);
            // A new run starts a new log.
            let _ = std::fs::remove_file(&log_path);
            (net, adam, 0)
        }
    };
    let mut rows: Vec<LogRow> = read_log(&log_path)
        .into_iter()
        .filter(|r| r.epoch <= done)
        .collect();
    let expected = (count_records(&config.shards)? as f64 * (1.0 - config.val_fraction)) as u64;
    let mut workers = Workers::new(threads, &net);
    let clip = net.clip_of(config.qb);
    let mut hand_crafted: Option<f64> = None;
    for epoch in done + 1..=config.epochs {
        // Each epoch's shuffles depend only on the seed and the epoch, so a
        // resumed run repeats the epochs it redoes.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(
            config.seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        progress(Event::EpochStart {
            epoch,
            positions: expected,
        });
        let mut order: Vec<usize> = (0..config.shards.len()).collect();
        order.shuffle(&mut rng);
        let start = Instant::now();
        let (mut loss_sum, mut trained, mut steps_in_epoch) = (0.0f64, 0u64, 0u64);
        let mut validation: Vec<TrainingRecord> = Vec::new();
        // Without a validation split, the quantisation is checked on
        // training positions (never on none, which would read as perfect).
        let mut sample: Vec<TrainingRecord> = Vec::new();
        let mut lr = config.lr;
        for &shard_index in &order {
            let mut shard = load_shard(
                &config.shards[shard_index],
                shard_index,
                config.val_fraction,
            )?;
            shard.train.shuffle(&mut rng);
            validation.append(&mut shard.validation);
            if config.val_fraction == 0.0 && sample.len() < config.check_positions {
                let wanted = config.check_positions - sample.len();
                sample.extend_from_slice(&shard.train[..wanted.min(shard.train.len())]);
            }
            for batch in shard.train.chunks(config.batch_size) {
                let progress_now =
                    (epoch - 1) as f64 + (trained as f64 / expected.max(1) as f64).min(1.0);
                lr = config.schedule.rate(config.lr, progress_now, config.epochs);
                let mirror_seed = config.mirror.then(|| rng.next_u64());
                loss_sum += workers.gradient(&net, batch, (config.wdl, config.scale), mirror_seed);
                adam.step(&mut net.params, &workers.grads[0], lr, &clip);
                trained += batch.len() as u64;
                steps_in_epoch += 1;
                progress(Event::Trained {
                    positions: batch.len() as u64,
                });
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        if steps_in_epoch == 0 {
            return Err(TrainError::Config(
                "the shards hold no training positions".into(),
            ));
        }
        if validation.is_empty() && config.val_fraction > 0.0 {
            // A loss of 0 on no positions would read as a perfect net.
            return Err(TrainError::Config(format!(
                "the validation split is empty: --val-fraction {} held out none of the {trained} \
                 positions (they are held out in runs of {} by a hash, so a small shard can keep \
                 none back); give more positions, a larger --val-fraction, or --val-fraction 0 \
                 to train without a validation loss",
                config.val_fraction,
                crate::data::VALIDATION_RUN
            )));
        }
        // No validation split: no validation loss (NaN, an empty CSV field),
        // never a loss of 0 that would read as a perfect net.
        let (val_loss, hand_crafted) = if validation.is_empty() {
            (f64::NAN, f64::NAN)
        } else {
            // The validation positions are the same every epoch: one
            // evaluation pass is enough.
            let yardstick = *hand_crafted
                .get_or_insert_with(|| hand_crafted_loss(&validation, config.wdl, config.scale));
            (
                mean_loss(&net, &validation, config.wdl, config.scale),
                yardstick,
            )
        };
        let quantised = quantise(&net, config.scale.round() as i32, config.qb)?;
        let held = if validation.is_empty() {
            &sample
        } else {
            &validation
        };
        let check = &held[..held.len().min(config.check_positions)];
        let Agreement {
            mean_cp, max_cp, ..
        } = agreement(&net, &quantised, config.scale, check);
        let row = LogRow {
            epoch,
            train_loss: loss_sum / trained as f64,
            val_loss,
            lr,
            positions: trained,
            seconds,
            quant_mean_cp: mean_cp,
            quant_max_cp: max_cp,
            qb: quantised.qb(),
            hand_crafted_loss: hand_crafted,
        };
        let net_path = config.out_dir.join(format!("epoch-{epoch}.nnue"));
        let ckpt_path = config.out_dir.join(format!("epoch-{epoch}.ckpt"));
        engine::output::write(&net_path, quantised.to_bytes())
            .map_err(|e| TrainError::io(&net_path, e))?;
        Checkpoint {
            net: net.clone(),
            adam: adam.clone(),
            epochs_done: epoch,
        }
        .save(&ckpt_path)?;
        append_row(&log_path, &row)?;
        rows.push(row.clone());
        draw_chart(&rows, &config.out_dir.join("loss.png"))?;
        progress(Event::EpochEnd {
            row: &row,
            net: &net_path,
            checkpoint: &ckpt_path,
        });
    }
    Ok(rows)
}

/// The float network of the net file at `path`, which must have the
/// run's hidden size, activation and scale, either the run's output
/// buckets or one output (copied into every bucket), and either the run's
/// king buckets or none (its weights then become the factoriser).
fn initial_net(path: &Path, config: &TrainConfig) -> Result<FloatNet, TrainError> {
    let net = Network::from_file(path).map_err(|error| TrainError::InitNet {
        path: path.to_path_buf(),
        error,
    })?;
    let scale = config.scale.round() as i32;
    if net.hidden() != config.hidden
        || net.activation() != config.activation
        || net.scale() != scale
    {
        return Err(TrainError::Config(format!(
            "{} is a {}x{} {} net with scale {}; the run asks for {}x{} {} with scale {}",
            path.display(),
            INPUTS,
            net.hidden(),
            net.activation().name(),
            net.scale(),
            INPUTS,
            config.hidden,
            config.activation.name(),
            scale
        )));
    }
    let float = dequantise(&net);
    let float = match (net.output_buckets(), config.output_buckets) {
        (have, want) if have == want => float,
        (1, want) => float.with_copied_buckets(want),
        (have, want) => {
            return Err(TrainError::Config(format!(
                "{} has {have} output buckets; the run asks for {want} (a net with one output \
                 can start a run with any number)",
                path.display()
            )))
        }
    };
    let (have, want) = (*net.input_buckets(), config.input_buckets);
    if have == want {
        Ok(float)
    } else if have.is_plain() {
        Ok(float.with_input_buckets(want))
    } else {
        Err(TrainError::Config(format!(
            "{} has the input layout {}; the run asks for {} (a net without king buckets \
             can start a run with any layout)",
            path.display(),
            have,
            want
        )))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn non_finite_or_out_of_range_numbers_are_refused_before_anything_runs() {
        let base = || TrainConfig {
            shards: vec![PathBuf::from("never-read.bin")],
            out_dir: std::env::temp_dir().join("kestrel-train-never-made"),
            ..TrainConfig::default()
        };
        /// A change to the defaults that must be refused.
        type Change = fn(&mut TrainConfig);
        let cases: [(&str, Change); 10] = [
            ("--lr", (|c| c.lr = f32::NAN)),
            ("--lr", (|c| c.lr = f32::INFINITY)),
            ("--lr", (|c| c.lr = 0.0)),
            ("--weight-decay", (|c| c.weight_decay = f32::NAN)),
            ("--weight-decay", (|c| c.weight_decay = -1.0)),
            ("--wdl", (|c| c.wdl = 2.0)),
            ("--scale", (|c| c.scale = f32::NEG_INFINITY)),
            ("--val-fraction", (|c| c.val_fraction = 1.0)),
            (
                "--final-lr",
                (|c| {
                    c.schedule = Schedule::Cosine {
                        final_fraction: f32::NAN,
                    };
                }),
            ),
            (
                "--gamma",
                (|c| {
                    c.schedule = Schedule::Step {
                        every: 2,
                        gamma: f32::INFINITY,
                    };
                }),
            ),
        ];
        for (name, change) in cases {
            let mut config = base();
            change(&mut config);
            let e = train(&config, &mut |_| {}).expect_err(name).to_string();
            assert!(e.contains(name) && e.contains("must be"), "{name}: {e}");
        }
        assert!(base().check_numbers().is_ok(), "the defaults pass");
        assert!(!base().out_dir.exists(), "refused before anything is made");
    }

    use super::*;
    use crate::testdata::{records, scratch_dir, write_shard};

    #[test]
    fn an_empty_validation_split_is_refused() {
        let dir = scratch_dir("empty-val");
        let path = dir.join("small.bin");
        // One run of records: held out whole or not at all.
        write_shard(&path, &records(200, 7));
        let fraction = if crate::data::is_validation(0, 0, 0.02) {
            0.0001
        } else {
            0.02
        };
        assert!(!crate::data::is_validation(0, 0, fraction));
        let config = TrainConfig {
            shards: vec![path],
            out_dir: dir.join("run"),
            hidden: 32,
            epochs: 1,
            batch_size: 64,
            val_fraction: fraction,
            threads: 1,
            ..TrainConfig::default()
        };
        let err = train(&config, &mut |_| {}).unwrap_err().to_string();
        assert!(err.contains("the validation split is empty"), "{err}");
        // Without a validation split asked for, training goes on.
        let config = TrainConfig {
            val_fraction: 0.0,
            ..config
        };
        train(&config, &mut |_| {}).unwrap();
    }

    #[test]
    fn loss_decreases_and_every_epoch_leaves_its_files() {
        let dir = scratch_dir("loss");
        let shards: Vec<PathBuf> = (0..2)
            .map(|i| {
                let path = dir.join(format!("shard-{i}.bin"));
                write_shard(&path, &records(2500, 100 + i));
                path
            })
            .collect();
        let config = TrainConfig {
            shards,
            out_dir: dir.join("run"),
            hidden: 32,
            epochs: 6,
            batch_size: 256,
            lr: 0.01,
            wdl: 0.2,
            val_fraction: 0.1,
            threads: 2,
            check_positions: 500,
            ..TrainConfig::default()
        };
        let mut batches = 0;
        let rows = train(&config, &mut |e| {
            if let Event::Trained { .. } = e {
                batches += 1;
            }
        })
        .unwrap();
        assert_eq!(rows.len(), 6);
        assert!(batches >= 6 * 17);
        let (first, last) = (&rows[0], &rows[5]);
        eprintln!("{first:?}\n{last:?}");
        assert!(last.train_loss < 0.7 * first.train_loss, "{rows:?}");
        assert!(last.val_loss < first.val_loss, "{rows:?}");
        // The yardstick is measured once, on the same positions each epoch.
        assert!(first.hand_crafted_loss > 0.0, "{first:?}");
        assert!(rows
            .iter()
            .all(|r| r.hand_crafted_loss == first.hand_crafted_loss));
        for name in ["epoch-6.nnue", "epoch-6.ckpt", "log.csv", "loss.png"] {
            assert!(config.out_dir.join(name).exists(), "{name}");
        }
        let net = Network::from_file(&config.out_dir.join("epoch-6.nnue")).unwrap();
        assert_eq!(net.hidden(), 32);
        assert!(
            last.quant_mean_cp < 10.0 && last.quant_max_cp < 40.0,
            "{last:?}"
        );

        // Resuming from epoch 4 redoes epochs 5 and 6 exactly (the log keeps
        // six decimals).
        let resumed = TrainConfig {
            resume: Some(config.out_dir.join("epoch-4.ckpt")),
            ..config.clone()
        };
        let again = train(&resumed, &mut |_| {}).unwrap();
        assert_eq!(again.len(), 6);
        for (a, b) in again.iter().zip(&rows) {
            assert_eq!(a.epoch, b.epoch);
            assert!((a.train_loss - b.train_loss).abs() < 1e-6, "{a:?} {b:?}");
            assert!((a.val_loss - b.val_loss).abs() < 1e-6, "{a:?} {b:?}");
        }

        // Starting from the trained net's file goes on from where it ended,
        // not from scratch: one epoch at a small rate stays near its loss
        // (training loss: these random positions teach little that holds out).
        let tuned = TrainConfig {
            init: Some(config.out_dir.join("epoch-6.nnue")),
            out_dir: dir.join("tuned"),
            epochs: 1,
            lr: 0.0005,
            ..config.clone()
        };
        let fine = train(&tuned, &mut |_| {}).unwrap();
        eprintln!("{:?}", fine[0]);
        assert!(
            fine[0].train_loss < 1.1 * last.train_loss
                && fine[0].train_loss < 0.2 * first.train_loss,
            "{fine:?}"
        );
        // A one-output net starts a bucketed run with its output copied into
        // every bucket: the first epoch goes on from its loss, and the net
        // written is a version 2 file with eight buckets.
        let bucketed = TrainConfig {
            output_buckets: 8,
            out_dir: dir.join("bucketed"),
            ..tuned.clone()
        };
        let eight = train(&bucketed, &mut |_| {}).unwrap();
        eprintln!("{:?}", eight[0]);
        assert!(
            eight[0].train_loss < 1.1 * last.train_loss
                && eight[0].quant_mean_cp < 10.0
                && eight[0].quant_max_cp < 40.0,
            "{eight:?}"
        );
        let written = bucketed.out_dir.join("epoch-1.nnue");
        let bytes = std::fs::read(&written).unwrap();
        assert_eq!(&bytes[8..12], &2u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&bytes).unwrap().output_buckets(), 8);
        // A bucketed net starts only a run of its own bucket count.
        let err = train(
            &TrainConfig {
                init: Some(written),
                output_buckets: 4,
                out_dir: dir.join("four"),
                ..tuned.clone()
            },
            &mut |_| {},
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("8 output buckets"), "{err}");
        let err = train(
            &TrainConfig {
                output_buckets: 9,
                ..bucketed.clone()
            },
            &mut |_| {},
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("9 output buckets"), "{err}");
        // A net of another shape, a damaged file, or both sources are refused.
        let wrong = TrainConfig {
            hidden: 64,
            ..tuned.clone()
        };
        let err = train(&wrong, &mut |_| {}).unwrap_err().to_string();
        assert!(err.contains("768x32") && err.contains("768x64"), "{err}");
        let damaged = dir.join("damaged.nnue");
        std::fs::write(&damaged, b"KESTNNUE").unwrap();
        let err = train(
            &TrainConfig {
                init: Some(damaged),
                ..tuned.clone()
            },
            &mut |_| {},
        )
        .unwrap_err();
        assert!(matches!(err, TrainError::InitNet { .. }), "{err}");
        let both = TrainConfig {
            resume: Some(config.out_dir.join("epoch-4.ckpt")),
            ..tuned
        };
        let err = train(&both, &mut |_| {}).unwrap_err();
        assert!(
            matches!(&err, TrainError::Config(m) if m.contains("not both")),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
