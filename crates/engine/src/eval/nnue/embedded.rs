//! The network built into the binary, so that `Evaluator NNUE` needs no
//! file. Which net it is and how it was trained: `crates/engine/nets/README.md`.

use std::sync::{Arc, OnceLock};

use super::Network;

/// The embedded network file: `crates/engine/nets/default.nnue`, or the
/// file `KESTREL_EVALFILE` named when the engine was built (`make
/// EVALFILE=<path>`, as OpenBench builds for a network test; `build.rs`
/// checks it and copies it here).
pub const EMBEDDED_NET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.nnue"));

/// Where the embedded network came from: `nets/default.nnue`, or the path
/// `KESTREL_EVALFILE` gave.
pub const EMBEDDED_NET_SOURCE: &str =
    include_str!(concat!(env!("OUT_DIR"), "/embedded_source.txt"));

/// The embedded network, parsed on first use and shared after that.
pub fn embedded_network() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        // A test below parses the file, so a bad one fails the build's tests.
        Arc::new(Network::from_bytes(EMBEDDED_NET).expect("the embedded network is valid"))
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Position;

    #[test]
    fn embedded_network_loads_and_sees_material() {
        let net = embedded_network();
        let even = super::super::evaluate_position(&net, &Position::startpos());
        let queen_up =
            Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let up = super::super::evaluate_position(&net, &queen_up);
        assert!(even.abs() < 100, "start position {even} cp");
        assert!(up > 500, "a queen up {up} cp");
    }
}
