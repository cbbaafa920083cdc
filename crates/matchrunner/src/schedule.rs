//! Who plays whom, with which colours and opening: fastchess's schedule,
//! game for game. Each round, each encounter (all pairs in a round robin,
//! the first engine against each other one in a gauntlet) plays `games`
//! games (1 or 2) from one opening; the openings are taken one per
//! encounter and round, in order. Colours follow the game's number over the
//! whole run (from 1): an even game gives the encounter's second engine
//! White, so a pair of two games plays its opening with both colours, and
//! single games alternate colours. `-noswap` keeps the first engine White
//! throughout; `-reverse` swaps every game's colours (fastchess's
//! `RoundRobin::createMatch` and `TournamentSchedulerBase::next`).

/// How games are paired among the engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TournamentKind {
    /// Everyone plays everyone.
    RoundRobin,
    /// The first engine plays each of the others.
    Gauntlet,
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// Its number, from 0, in schedule order.
    pub number: usize,
    /// The round, from 1.
    pub round: u32,
    /// The encounter of its round it belongs to (fastchess's pairing id):
    /// with two games a round, the game pair that shares an opening.
    pub pair: usize,
    /// The engine with White.
    pub white: usize,
    /// The engine with Black.
    pub black: usize,
    /// Which opening (modulo the number of openings).
    pub opening: usize,
}

/// How colours are given (fastchess's `-noswap` and `-reverse`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Colours {
    /// Never swap colours: the encounter's first engine always has White.
    pub noswap: bool,
    /// Swap every game's colours (applied after `noswap`).
    pub reverse: bool,
}

/// The encounters of one round: pairs of engine indices, first one is the
/// engine whose view results are counted from. A gauntlet's first `seeds`
/// engines (fastchess's `-seeds`, 1 by default) each play every engine
/// after them, in fastchess's order.
pub fn encounters(engines: usize, kind: TournamentKind, seeds: usize) -> Vec<(usize, usize)> {
    let firsts = match kind {
        TournamentKind::RoundRobin => engines,
        TournamentKind::Gauntlet => seeds.clamp(1, engines.saturating_sub(1).max(1)),
    };
    (0..firsts)
        .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
        .collect()
}

/// All games: for each round, for each encounter, `games` games on one
/// opening; colours as the module says.
pub fn schedule(
    engines: usize,
    kind: TournamentKind,
    seeds: usize,
    games: u32,
    rounds: u32,
    colours: Colours,
) -> Vec<GameJob> {
    let mut jobs = Vec::new();
    let mut pair = 0;
    for round in 1..=rounds {
        for (a, b) in encounters(engines, kind, seeds) {
            for _ in 0..games {
                let id = jobs.len() + 1;
                let swap = (id % 2 == 0 && !colours.noswap) != colours.reverse;
                let (white, black) = if swap { (b, a) } else { (a, b) };
                jobs.push(GameJob {
                    number: id - 1,
                    round,
                    pair,
                    white,
                    black,
                    opening: pair,
                });
            }
            pair += 1;
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(jobs: &[GameJob]) -> Vec<(usize, usize, usize)> {
        jobs.iter().map(|j| (j.white, j.black, j.opening)).collect()
    }

    #[test]
    fn round_robin_pairs_share_openings_with_colours_reversed() {
        let jobs = schedule(3, TournamentKind::RoundRobin, 1, 2, 2, Colours::default());
        assert_eq!(jobs.len(), 3 * 2 * 2);
        assert_eq!((jobs[0].white, jobs[0].black, jobs[0].pair), (0, 1, 0));
        assert_eq!((jobs[1].white, jobs[1].black, jobs[1].pair), (1, 0, 0));
        assert_eq!((jobs[2].white, jobs[2].black, jobs[2].pair), (0, 2, 1));
        assert_eq!(jobs[11].round, 2);
        assert_eq!(jobs[11].pair, 5);
    }

    #[test]
    fn single_games_alternate_colours_over_the_run() {
        // fastchess -games 1 -rounds 4: game ids 1..4, even ids swapped.
        let jobs = schedule(2, TournamentKind::RoundRobin, 1, 1, 4, Colours::default());
        assert_eq!(pattern(&jobs), [(0, 1, 0), (1, 0, 1), (0, 1, 2), (1, 0, 3)]);
        // Three engines, one game an encounter: the global id decides.
        let jobs = schedule(3, TournamentKind::RoundRobin, 1, 1, 1, Colours::default());
        assert_eq!(pattern(&jobs), [(0, 1, 0), (2, 0, 1), (1, 2, 2)]);
    }

    #[test]
    fn noswap_and_reverse() {
        let noswap = Colours {
            noswap: true,
            reverse: false,
        };
        let jobs = schedule(2, TournamentKind::RoundRobin, 1, 2, 2, noswap);
        assert!(jobs.iter().all(|j| j.white == 0));
        let reverse = Colours {
            noswap: false,
            reverse: true,
        };
        let jobs = schedule(2, TournamentKind::RoundRobin, 1, 2, 1, reverse);
        assert_eq!(pattern(&jobs), [(1, 0, 0), (0, 1, 0)]);
        let both = Colours {
            noswap: true,
            reverse: true,
        };
        let jobs = schedule(2, TournamentKind::RoundRobin, 1, 2, 2, both);
        assert!(jobs.iter().all(|j| j.white == 1));
    }

    #[test]
    fn gauntlet_encounters() {
        assert_eq!(
            encounters(4, TournamentKind::Gauntlet, 1),
            [(0, 1), (0, 2), (0, 3)]
        );
        // fastchess's GauntletScheduler: seeds play everyone after them;
        // n_seeds*n - n_seeds*(n_seeds+1)/2 encounters a round.
        assert_eq!(
            encounters(4, TournamentKind::Gauntlet, 2),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)]
        );
        assert_eq!(encounters(3, TournamentKind::Gauntlet, 9).len(), 3);
        assert_eq!(encounters(4, TournamentKind::RoundRobin, 1).len(), 6);
    }
}
