//! The network built into the binary, so that `Evaluator NNUE` needs no
//! file. Which net it is and how it was trained: `crates/engine/nets/README.md`.

use std::sync::{Arc, OnceLock};

use super::Network;

/// The embedded network file (`crates/engine/nets/default.nnue`).
pub const EMBEDDED_NET: &[u8] = include_bytes!("../../../nets/default.nnue");

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
