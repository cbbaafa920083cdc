//! `kestrel net`: net files. `info` prints what a file is, `import` reads
//! a net that bullet saved into Kestrel's checked file, `export` writes a
//! Kestrel net for bullet. The formats are `train::bullet` and
//! `train::net_info`; here only the command line.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use engine::eval::nnue::{Activation, InputBuckets, Network, QA};
use train::bullet::{self, BulletShape, OutputOrder};
use train::net_info;
use trainingdata::store::short_hash;

/// The `net` subcommands.
#[derive(Subcommand)]
pub enum NetCommand {
    /// Print a net file's format version, architecture, quantisation, size
    /// and hash (the short SHA-256 the self-play manifest names nets by). A
    /// file that is not a Kestrel network is named as such, with the bullet
    /// shapes its length fits, and exits with status 1.
    Info {
        /// The file.
        net: PathBuf,
    },
    /// Read a net that bullet saved quantised (`quantised.bin`: l0w, l0b,
    /// l1w, l1b as i16) for 768->Hx2->B and write Kestrel's net file.
    Import(ImportArgs),
    /// Write a Kestrel net for bullet: its quantised layout (what `import`
    /// reads back, byte for byte) or its float `weights.bin`, which bullet's
    /// `load_weights_from_file` loads to go on training.
    Export(ExportArgs),
}

/// The orders of bullet's output weights, on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Order {
    /// l1w saved with `.transpose()` (bullet's output-bucket example): 2H
    /// weights per bucket.
    BucketMajor,
    /// l1w saved as bullet holds it (no `.transpose()`): B weights per
    /// hidden input.
    InputMajor,
}

impl From<Order> for OutputOrder {
    fn from(order: Order) -> OutputOrder {
        match order {
            Order::BucketMajor => OutputOrder::BucketMajor,
            Order::InputMajor => OutputOrder::InputMajor,
        }
    }
}

/// What `export` writes.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ExportFormat {
    /// bullet's quantised net (`quantised.bin`), padded to 64 bytes.
    Quantised,
    /// bullet's float weights (`weights.bin`, for `load_weights_from_file`).
    Weights,
}

/// Options of `kestrel net import`.
#[derive(Args)]
pub struct ImportArgs {
    /// The bullet file (`checkpoints/NAME/quantised.bin`).
    file: PathBuf,
    /// Hidden size H of `new_affine("l0", 768, H)` (a multiple of 32, at most 1024).
    #[arg(long)]
    hidden: usize,
    /// The hidden layer's activation: screlu or crelu.
    #[arg(long, default_value = "screlu")]
    activation: String,
    /// Output buckets B (`MaterialCount<B>`; 1 without output buckets), 1 to 8.
    #[arg(long, default_value_t = 1)]
    output_buckets: usize,
    /// How l1w was saved (matters only with output buckets).
    #[arg(long, value_enum, default_value_t = Order::BucketMajor)]
    output_order: Order,
    /// QA of l0w and l0b (Kestrel needs 255).
    #[arg(long, default_value_t = QA)]
    qa: i32,
    /// QB of l1w (l1b in QA*QB units), 1 to 512.
    #[arg(long, default_value_t = engine::eval::nnue::QB)]
    qb: i32,
    /// The eval scale of bullet's schedule (`eval_scale`), centipawns per unit.
    #[arg(long, default_value_t = engine::eval::nnue::DEFAULT_SCALE)]
    scale: i32,
    /// The inputs: `none` (`Chess768`), or a mirrored king-bucket layout of
    /// `kestrel train --input-buckets` (`mirror`, `mirror4`) trained in
    /// bullet as `ChessBucketsMirrored::new` with the layout `net export`
    /// prints for it.
    #[arg(long, default_value = "none")]
    input_buckets: String,
    /// The Kestrel net file to write.
    #[arg(short, long)]
    out: PathBuf,
    /// Import even when the net's scores are far from the hand-crafted
    /// evaluation's scale (a wrong --qb, or a net trained to another scale).
    #[arg(long)]
    no_scale_check: bool,
}

/// Options of `kestrel net export`.
#[derive(Args)]
pub struct ExportArgs {
    /// The Kestrel net file.
    net: PathBuf,
    /// What to write.
    #[arg(long, value_enum, default_value_t = ExportFormat::Quantised)]
    format: ExportFormat,
    /// The order of l1w in the quantised file (matters only with output buckets).
    #[arg(long, value_enum, default_value_t = Order::BucketMajor)]
    output_order: Order,
    /// The file to write.
    #[arg(short, long)]
    out: PathBuf,
}

/// Runs a `net` subcommand.
pub fn run(command: NetCommand) -> Result<()> {
    match command {
        NetCommand::Info { net } => info(&net),
        NetCommand::Import(args) => import(args),
        NetCommand::Export(args) => export(args),
    }
}

fn info(path: &Path) -> Result<()> {
    let bytes = engine::file::read_regular(path, net_info::MAX_LEN)
        .with_context(|| format!("{}", path.display()))?;
    let info = net_info::inspect(&bytes);
    println!("file          {}", path.display());
    println!("{info}");
    if let Some(error) = info.error() {
        bail!("{}: {error}", path.display());
    }
    Ok(())
}

fn import(args: ImportArgs) -> Result<()> {
    let activation = Activation::parse(&args.activation)
        .with_context(|| format!("--activation {}: use screlu or crelu", args.activation))?;
    let inputs = InputBuckets::named(&args.input_buckets)
        .with_context(|| format!("--input-buckets {}", args.input_buckets))?;
    let shape = BulletShape {
        hidden: args.hidden,
        activation,
        buckets: args.output_buckets,
        order: args.output_order.into(),
        qa: args.qa,
        qb: args.qb,
        scale: args.scale,
        inputs,
    };
    let bytes = engine::file::read_regular(&args.file, bullet::MAX_LEN)
        .with_context(|| format!("{}", args.file.display()))?;
    let net = bullet::import(&bytes, &shape)
        .with_context(|| format!("{}: not a bullet net of this shape", args.file.display()))?;
    let ratio = if args.no_scale_check {
        bullet::scale_ratio(&net)
    } else {
        bullet::check_scale(&net, args.qb)
            .with_context(|| format!("{}: imported with --qb {}", args.file.display(), args.qb))?
    };
    let out = net.to_bytes();
    let what = format!(
        "{}, sha256 {}; its scores {ratio:.2}x the hand-crafted evaluation's",
        described(&net),
        short_hash(&out)
    );
    write_out(&args.file, &args.out, &out, &what)
}

fn export(args: ExportArgs) -> Result<()> {
    let net = Network::from_file(&args.net).with_context(|| format!("{}", args.net.display()))?;
    let order: OutputOrder = args.output_order.into();
    let (bytes, what) = match args.format {
        ExportFormat::Quantised => (
            bullet::export(&net, order)
                .with_context(|| format!("{}: cannot be written for bullet", args.net.display()))?,
            format!("bullet's quantised layout, l1w {}", order.name()),
        ),
        ExportFormat::Weights => (
            bullet::export_weights(&net)
                .with_context(|| format!("{}: cannot be written for bullet", args.net.display()))?,
            "bullet's float weights.bin".to_string(),
        ),
    };
    let inputs = net.input_buckets();
    let bullet_inputs = if inputs.is_plain() {
        "Chess768".to_string()
    } else {
        format!(
            "ChessBucketsMirrored::new({:?})",
            bullet::bullet_layout(inputs)
        )
    };
    let what = format!(
        "{what}, {}; in bullet: {bullet_inputs}, MaterialCount<{}>, eval_scale {}",
        described(&net),
        net.output_buckets(),
        net.scale()
    );
    write_out(&args.net, &args.out, &bytes, &what)
}

/// Writes `bytes` to `to` and says so: `FROM -> TO: WHAT`.
fn write_out(from: &Path, to: &Path, bytes: &[u8], what: &str) -> Result<()> {
    engine::output::write(to, bytes).with_context(|| format!("{}", to.display()))?;
    println!("{} -> {}: {what}", from.display(), to.display());
    Ok(())
}

/// A net's shape and constants, as both conversions report them.
fn described(net: &Network) -> String {
    format!(
        "{}, QA {QA}, QB {}, scale {}",
        net.shape(),
        net.qb(),
        net.scale()
    )
}
