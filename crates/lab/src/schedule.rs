//! Who plays whom, with which colours and opening: encounters (all pairs in a
//! round robin, the first engine against each other one in a gauntlet),
//! rounds, and game pairs that share an opening with colours reversed.

use crate::cli_args::TournamentKind;

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// Its number, from 0, in schedule order.
    pub number: usize,
    /// The round, from 1.
    pub round: u32,
    /// The game pair (or, without repeat, the game) it belongs to; games of
    /// one pair share an opening.
    pub pair: usize,
    /// The engine with White.
    pub white: usize,
    /// The engine with Black.
    pub black: usize,
    /// Which opening (modulo the number of openings).
    pub opening: usize,
}

/// The encounters of one round: pairs of engine indices, first one is the
/// engine whose view results are counted from.
pub fn encounters(engines: usize, kind: TournamentKind) -> Vec<(usize, usize)> {
    match kind {
        TournamentKind::RoundRobin => (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect(),
        TournamentKind::Gauntlet => (1..engines).map(|j| (0, j)).collect(),
    }
}

/// All games: for each round, for each encounter, `games` games; with
/// `repeat`, consecutive games form pairs with one opening and reversed
/// colours, otherwise each game has its own opening and colours alternate.
pub fn schedule(
    engines: usize,
    kind: TournamentKind,
    games: u32,
    rounds: u32,
    repeat: bool,
) -> Vec<GameJob> {
    let mut jobs = Vec::new();
    let mut pair = 0;
    for round in 1..=rounds {
        for (a, b) in encounters(engines, kind) {
            for g in 0..games {
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(GameJob {
                    number: jobs.len(),
                    round,
                    pair,
                    white,
                    black,
                    opening: pair,
                });
                if !repeat || g % 2 == 1 || g + 1 == games {
                    pair += 1;
                }
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_pairs_share_openings_with_colours_reversed() {
        let jobs = schedule(3, TournamentKind::RoundRobin, 2, 2, true);
        assert_eq!(jobs.len(), 3 * 2 * 2);
        assert_eq!((jobs[0].white, jobs[0].black, jobs[0].pair), (0, 1, 0));
        assert_eq!((jobs[1].white, jobs[1].black, jobs[1].pair), (1, 0, 0));
        assert_eq!((jobs[2].white, jobs[2].black, jobs[2].pair), (0, 2, 1));
        assert_eq!(jobs[11].round, 2);
        assert_eq!(jobs[11].pair, 5);
    }

    #[test]
    fn gauntlet_and_no_repeat() {
        assert_eq!(
            encounters(4, TournamentKind::Gauntlet),
            [(0, 1), (0, 2), (0, 3)]
        );
        let jobs = schedule(2, TournamentKind::RoundRobin, 3, 1, false);
        let pairs: Vec<usize> = jobs.iter().map(|j| j.pair).collect();
        assert_eq!(pairs, [0, 1, 2]);
        assert_eq!(jobs[1].white, 1, "colours alternate");
        // An odd game count leaves the last game alone in its pair.
        let jobs = schedule(2, TournamentKind::RoundRobin, 3, 1, true);
        let pairs: Vec<usize> = jobs.iter().map(|j| j.pair).collect();
        assert_eq!(pairs, [0, 0, 1]);
    }
}
