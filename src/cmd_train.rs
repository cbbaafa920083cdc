//! `kestrel train`: trains an NNUE network on training-data shards (see
//! `crates/train`), with a progress bar and a line per epoch.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use engine::eval::nnue::{Activation, InputBuckets, Network};
use indicatif::ProgressBar;
use matchcore::progress;
use train::schedule::Schedule;
use train::{train, Event, TrainConfig};

/// The learning-rate schedules.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ScheduleKind {
    /// Drop by --gamma every --step-every epochs.
    Step,
    /// Half a cosine down to --final-lr of the initial rate.
    Cosine,
}

/// Options of `kestrel train`.
#[derive(Args)]
pub struct TrainArgs {
    /// Training data: store folders (`selfplay`), game files (`.vf`,
    /// `.vf.zst`, `.vfc.zst`, read through the default filter), 32-byte
    /// record files, bullet records (`.bullet`) or bullet text (`.txt`).
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// Directory for checkpoints (`epoch-N.ckpt`), nets (`epoch-N.nnue`),
    /// the log (`log.csv`) and the loss chart (`loss.png`).
    #[arg(long, default_value = "nnue-run")]
    out: PathBuf,
    /// Hidden layer size (a multiple of 32, at most 1024) [default: 256, or
    /// the --init net's].
    #[arg(long)]
    hidden: Option<usize>,
    /// Hidden activation: screlu or crelu [default: screlu, or the --init net's].
    #[arg(long)]
    activation: Option<String>,
    /// Epochs in total (a resumed run counts the ones done).
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16_384)]
    batch_size: usize,
    /// Initial learning rate.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Learning-rate schedule.
    #[arg(long, value_enum, default_value_t = ScheduleKind::Cosine)]
    schedule: ScheduleKind,
    /// Step schedule: epochs between drops.
    #[arg(long, default_value_t = 4)]
    step_every: usize,
    /// Step schedule: factor at each drop.
    #[arg(long, default_value_t = 0.3)]
    gamma: f32,
    /// Cosine schedule: final rate as a fraction of the initial one.
    #[arg(long, default_value_t = 0.05)]
    final_lr: f32,
    /// AdamW weight decay.
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// Weight of the game result in the target (0: search score only, 1: result only).
    #[arg(long, default_value_t = 0.3)]
    wdl: f32,
    /// Centipawns per unit of network output (and of the score's sigmoid).
    #[arg(long, default_value_t = 400.0)]
    scale: f32,
    /// Fraction of each shard held out for the validation loss.
    #[arg(long, default_value_t = 0.02)]
    val_fraction: f64,
    /// Threads (0: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Continue from this checkpoint (`epoch-N.ckpt`).
    #[arg(long, conflicts_with = "init")]
    resume: Option<PathBuf>,
    /// Start from this net file instead of random weights: fine-tune a
    /// trained net (the built-in one is `crates/engine/nets/default.nnue`)
    /// on new data. Its shape and scale are the run's; usually with a
    /// lower --lr than a fresh run.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Validation positions on which the quantised net is compared with the float one.
    #[arg(long, default_value_t = 4096)]
    check_positions: usize,
    /// Output-layer quantisation of the net files (0: the finest that fits
    /// the weights, up to 512). A fixed value also keeps the output weights
    /// within ±127/qb while training, so 256 or 512 cost no saturation and
    /// round the output layer more finely than the default 64.
    #[arg(long, default_value_t = engine::eval::nnue::QB)]
    qb: i32,
    /// Train on each position or its left-right mirror image (files a and h
    /// swapped), chosen at random: chess is symmetric that way without
    /// castling rights, which records do not carry. Helps small data sets.
    #[arg(long)]
    mirror: bool,
    /// Output buckets chosen by the number of pieces on the board, 1 to 8
    /// (bullet's `MaterialCount`: with 8, `(pieces - 2) / 4`) [default: 1,
    /// or the --init net's]. A one-output --init net has its output copied
    /// into every bucket. Nets with more than one bucket are written in
    /// format version 2.
    #[arg(long)]
    output_buckets: Option<usize>,
    /// King input buckets: `none` (768 inputs), `mirror` (the board flipped
    /// left to right so that each side's king is on files e-h), `mirror4`
    /// (mirrored, and four sets of weights by the king's square: castled
    /// short, first-rank centre, second rank, further up) [default: none,
    /// or the --init net's]. A --init net without king buckets starts every
    /// bucket from its weights. Written in format version 3.
    #[arg(long)]
    input_buckets: Option<String>,
}

/// Runs `kestrel train`.
pub fn run(args: TrainArgs) -> Result<()> {
    let activation = match &args.activation {
        Some(name) => Some(
            Activation::parse(name)
                .with_context(|| format!("--activation {name}: use screlu or crelu"))?,
        ),
        None => None,
    };
    // A net to start from sets the shape the options leave open.
    let start = match &args.init {
        Some(path) => {
            Some(Network::from_file(path).with_context(|| format!("--init {}", path.display()))?)
        }
        None => None,
    };
    let hidden = args
        .hidden
        .or(start.as_ref().map(Network::hidden))
        .unwrap_or(256);
    let activation = activation
        .or(start.as_ref().map(Network::activation))
        .unwrap_or(Activation::SCReLU);
    let output_buckets = args
        .output_buckets
        .or(start.as_ref().map(Network::output_buckets))
        .unwrap_or(1);
    let input_buckets = match &args.input_buckets {
        Some(name) => {
            InputBuckets::named(name).with_context(|| format!("--input-buckets {name}"))?
        }
        None => start
            .as_ref()
            .map_or(InputBuckets::NONE, |net| *net.input_buckets()),
    };
    if !(1..=engine::eval::nnue::MAX_BUCKETS).contains(&output_buckets) {
        bail!(
            "--output-buckets {output_buckets}: use 1 to {}",
            engine::eval::nnue::MAX_BUCKETS
        );
    }
    if args.qb < 0 || args.qb > engine::eval::nnue::MAX_QB {
        bail!(
            "--qb {}: use 1 to {} (0: automatic)",
            args.qb,
            engine::eval::nnue::MAX_QB
        );
    }
    if !(0.0..=1.0).contains(&args.wdl) || !(0.0..1.0).contains(&args.val_fraction) {
        bail!("--wdl must be in [0, 1] and --val-fraction in [0, 1)");
    }
    let schedule = match args.schedule {
        ScheduleKind::Step => Schedule::Step {
            every: args.step_every,
            gamma: args.gamma,
        },
        ScheduleKind::Cosine => Schedule::Cosine {
            final_fraction: args.final_lr,
        },
    };
    let config = TrainConfig {
        shards: train::data::expand_stores(&args.shards)?,
        out_dir: args.out,
        hidden,
        activation,
        epochs: args.epochs,
        batch_size: args.batch_size,
        lr: args.lr,
        schedule,
        weight_decay: args.weight_decay,
        wdl: args.wdl,
        scale: args.scale,
        val_fraction: args.val_fraction,
        threads: args.threads,
        seed: args.seed,
        resume: args.resume,
        init: args.init,
        check_positions: args.check_positions,
        qb: args.qb,
        mirror: args.mirror,
        output_buckets,
        input_buckets,
    };
    // Everything that can be refused without reading the data is, before
    // the run says what it does.
    config.check()?;
    std::fs::create_dir_all(&config.out_dir)
        .with_context(|| format!("cannot create {}", config.out_dir.display()))?;
    eprintln!(
        "training {}{}x{}{} ({}{}), {} epochs, batch {}, lr {} {}, wdl {}, {}, into {}",
        engine::eval::nnue::INPUTS,
        if input_buckets.is_plain() {
            String::new()
        } else {
            format!(" ({input_buckets})")
        },
        config.hidden,
        if output_buckets > 1 {
            format!(" with {output_buckets} output buckets")
        } else {
            String::new()
        },
        activation.name(),
        config
            .init
            .as_ref()
            .map(|p| format!(", from {}", p.display()))
            .unwrap_or_default(),
        config.epochs,
        config.batch_size,
        config.lr,
        schedule.describe(),
        config.wdl,
        if config.val_fraction > 0.0 {
            format!("{} held out for validation", config.val_fraction)
        } else {
            "no validation split".to_string()
        },
        config.out_dir.display()
    );
    let bar = ProgressBar::hidden();
    let epochs = config.epochs;
    train(&config, &mut |event| match event {
        Event::EpochStart { epoch, positions } => {
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            bar.reset();
            bar.set_length(positions);
            bar.set_style(progress::style(&format!(
                "epoch {epoch}/{epochs} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {{rate}} positions/s, {{eta}} left"
            )));
        }
        Event::Trained { positions } => bar.inc(positions),
        Event::EpochEnd { row, net, .. } => {
            bar.finish_and_clear();
            let (validation, held) = if row.val_loss.is_nan() {
                ("no validation split".to_string(), "training")
            } else {
                (
                    format!(
                        "val {:.6} (hand-crafted {:.6})",
                        row.val_loss, row.hand_crafted_loss
                    ),
                    "validation",
                )
            };
            println!(
                "epoch {}/{epochs} train {:.6} {validation} lr {:.2e} {} positions/s; quantised (QB {}) vs float on {held} positions: mean {:.2} cp, max {:.1} cp -> {}",
                row.epoch,
                row.train_loss,
                row.lr,
                indicatif::HumanCount((row.positions as f64 / row.seconds.max(1e-9)).round() as u64),
                row.qb,
                row.quant_mean_cp,
                row.quant_max_cp,
                net.display()
            );
        }
    })?;
    Ok(())
}
