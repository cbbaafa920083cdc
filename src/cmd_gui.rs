//! `kestrel gui`: the browser GUI on 127.0.0.1, its URL printed.

use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Options of `kestrel gui`.
#[derive(Args)]
pub struct GuiArgs {
    /// Port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. Other machines can reach the GUI only if you
    /// change it; then every request needs the token printed once at start
    /// in the page's URL (`?token=...`; scripts send it as the
    /// X-Kestrel-Token header). Requests must name the server by a loopback
    /// name (127.0.0.1, localhost, [::1]) or this address, with the port;
    /// 0.0.0.0 or :: lets any IP address in, never a foreign name.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Opening book to show and play from (Polyglot .bin or Kestrel .txt);
    /// "add move to book" writes to it when it is a .txt book.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Syzygy table directories, separated like PATH entries (default:
    /// $KESTREL_SYZYGY_PATH, else the first of ~/.local/share/syzygy,
    /// ~/syzygy, /usr/local/share/syzygy, /usr/share/syzygy that holds
    /// tables). The 3- and 4-piece tables are compiled in whatever is given.
    #[arg(long, value_name = "DIR")]
    syzygy_path: Option<String>,
    /// Your own PGN files (plain or compressed), indexed for the
    /// explorer's second collection, "My games", beside the master games
    /// (as `kestrel book explore --pgn` indexes them): their first 60 plies,
    /// at most 64 MiB on disk together and 100,000 games.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    explorer: Vec<PathBuf>,
    /// Memory for open games, MiB (each holds an engine with a 16 MiB
    /// table, about 18 MiB a game): past it the server drops games left
    /// idle for --games-idle, those no page shows first, then the least
    /// recently used; a new game is refused (503) while games in use fill
    /// it. Default 2048, or half the memory available if that is less.
    #[arg(long, value_name = "MIB")]
    games_memory: Option<usize>,
    /// Seconds a game must be left alone (no request naming it) before it
    /// may be dropped to make room for others. Default 300.
    #[arg(long, value_name = "SECONDS")]
    games_idle: Option<u64>,
}

/// Runs the server until Ctrl-C.
pub fn run(args: GuiArgs) -> Result<()> {
    let config = gui::Config {
        host: args.host,
        port: args.port,
        book: args.book,
        syzygy_path: args.syzygy_path,
        explorer: args.explorer,
        games_memory_mib: args.games_memory,
        games_idle: args.games_idle.map(std::time::Duration::from_secs),
    };
    let open = args.open;
    gui::run(config, |url| {
        println!("Kestrel GUI: {url}");
        let _ = std::io::stdout().flush();
        if open {
            if let Err(e) = std::process::Command::new("xdg-open").arg(url).spawn() {
                eprintln!("cannot open a browser ({e}); open {url} yourself");
            }
        }
    })?;
    Ok(())
}
