//! `-resume`: a stopped run goes on where it stopped. The games it finished
//! are read back from its own `-pgnout` file (the `Round` tag, fastchess's
//! encounter number, and the players' colours place each game in the
//! schedule; an earlier Kestrel's `ROUND.GAME` is read too), so that a long
//! SPRT can span several sittings. The same arguments, `-srand` included, give the same schedule
//! and openings, so the games still to play are exactly the missing ones.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use pgn::{GameResult, PgnReader};
use thiserror::Error;

use crate::results::GameEntry;
use crate::schedule::GameJob;

/// Why the earlier games cannot be taken over.
#[derive(Debug, Error)]
pub enum ResumeError {
    /// The PGN file exists but cannot be read.
    #[error("cannot read {path} to resume: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A game's tags do not fit this run's schedule.
    #[error(
        "{path}: the game of line {line} ({detail}) does not fit this run's schedule: \
         resume with the arguments of the run that wrote it (engines, -games, -rounds, -srand)"
    )]
    Mismatch {
        /// The file.
        path: String,
        /// Where the game starts.
        line: usize,
        /// What does not fit.
        detail: String,
    },
}

/// What was read back.
#[derive(Debug, Default)]
pub struct Resumed {
    /// The finished games, in schedule order, with their jobs.
    pub games: Vec<(GameJob, GameEntry)>,
    /// Games in the file that could not be read (a game cut off when the
    /// run was killed while writing it is played again).
    pub unreadable: usize,
}

/// The finished games of `jobs` (the run's whole schedule) found in the PGN
/// at `path`, played by `names` (engine names by index). A missing file
/// resumes nothing; a game whose round, number or players do not match the
/// schedule is an error, since the run would then mix two experiments.
pub fn read_played(
    path: &Path,
    jobs: &[GameJob],
    names: &[String],
) -> Result<Resumed, ResumeError> {
    let shown = path.display().to_string();
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Resumed::default()),
        Err(source) => {
            return Err(ResumeError::Io {
                path: shown,
                source,
            })
        }
    };
    let by_number: HashMap<usize, &GameJob> = jobs.iter().map(|j| (j.number, j)).collect();
    let mut by_pair: HashMap<usize, Vec<&GameJob>> = HashMap::new();
    for j in jobs {
        by_pair.entry(j.pair).or_default().push(j);
    }
    let mut found: HashMap<usize, (GameJob, GameEntry)> = HashMap::new();
    let mut unreadable = 0;
    for game in PgnReader::new(BufReader::new(file)) {
        let Ok(game) = game else {
            unreadable += 1;
            continue;
        };
        let mismatch = |detail: String| ResumeError::Mismatch {
            path: shown.clone(),
            line: game.line,
            detail,
        };
        let round_tag = game.tag("Round").unwrap_or("?");
        let (white, black) = (
            game.tag("White").unwrap_or("?"),
            game.tag("Black").unwrap_or("?"),
        );
        let plays = |j: &GameJob| names[j.white] == white && names[j.black] == black;
        let job = if let Some((r, n)) = round_tag.split_once('.') {
            // An earlier Kestrel's `ROUND.GAME`.
            let (round, number) = r
                .parse::<u32>()
                .ok()
                .zip(n.parse::<usize>().ok())
                .ok_or_else(|| mismatch(format!("Round \"{round_tag}\", not ROUND.GAME")))?;
            let job = number
                .checked_sub(1)
                .and_then(|n| by_number.get(&n))
                .copied()
                .ok_or_else(|| mismatch(format!("game {number}, beyond the schedule")))?;
            if job.round != round || !plays(job) {
                return Err(mismatch(format!(
                    "round {round} game {number}: {white} vs {black}; scheduled: round {} {} vs {}",
                    job.round, names[job.white], names[job.black]
                )));
            }
            job
        } else {
            // fastchess's: the encounter, from 1. Its games (a pair) are
            // told apart by their colours, and where those agree
            // (-noswap) they are alike, so the first not yet read is taken.
            let pair = round_tag
                .parse::<usize>()
                .ok()
                .and_then(|p| p.checked_sub(1))
                .ok_or_else(|| mismatch(format!("Round \"{round_tag}\", not a number")))?;
            let scheduled = by_pair
                .get(&pair)
                .ok_or_else(|| mismatch(format!("encounter {round_tag}, beyond the schedule")))?;
            let mut theirs = scheduled.iter().copied().filter(|j| plays(j));
            let first = theirs.clone().next().ok_or_else(|| {
                let j = scheduled[0];
                mismatch(format!(
                    "encounter {round_tag}: {white} vs {black}; scheduled: {} vs {}",
                    names[j.white], names[j.black]
                ))
            })?;
            theirs
                .find(|j| !found.contains_key(&j.number))
                .unwrap_or(first)
        };
        let (round, number) = (job.round, job.number + 1);
        if game.result == GameResult::Unknown {
            // Not finished: it is played again.
            continue;
        }
        let termination = crate::pgn_record::termination_of(game.tag("Termination"));
        let plies = game
            .tag("PlyCount")
            .and_then(|p| p.parse().ok())
            .unwrap_or(game.moves.len());
        let entry = GameEntry {
            number,
            round,
            pair: job.pair,
            white: white.to_string(),
            black: black.to_string(),
            result: game.result.as_str().to_string(),
            termination,
            reason: "read back from the PGN (-resume)".to_string(),
            plies,
        };
        if found.insert(job.number, (*job, entry)).is_some() {
            return Err(mismatch(format!("game {number} is in the file twice")));
        }
    }
    let mut games: Vec<(GameJob, GameEntry)> = found.into_values().collect();
    games.sort_by_key(|(job, _)| job.number);
    Ok(Resumed { games, unreadable })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::schedule;
    use crate::schedule::TournamentKind;
    use matchcore::ending::Termination;

    fn names() -> Vec<String> {
        vec!["new".to_string(), "old".to_string()]
    }

    fn game(round: u32, number: usize, white: &str, black: &str, result: &str) -> String {
        format!(
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"2026.11.24\"]\n[Round \"{round}.{number}\"]\n\
             [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[PlyCount \"2\"]\n\
             [Termination \"adjudication\"]\n\n1. e4 e5 {result}\n\n"
        )
    }

    fn scratch(name: &str, text: &str) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("kestrel-resume-{}-{name}.pgn", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn finished_games_are_read_back_in_schedule_order() {
        // Two rounds of a game pair: new-old, old-new, new-old, old-new.
        let jobs = schedule(
            2,
            TournamentKind::RoundRobin,
            1,
            2,
            2,
            crate::schedule::Colours::default(),
        );
        let text = [
            game(1, 2, "old", "new", "0-1"),
            game(1, 1, "new", "old", "1/2-1/2"),
            game(2, 3, "new", "old", "*"),
        ]
        .concat();
        let path = scratch(
            "ok",
            &(text + "[Round \"2.4\"]\n[White \"old\"]\n\n1. e4 {cut"),
        );
        let resumed = read_played(&path, &jobs, &names()).unwrap();
        let numbers: Vec<usize> = resumed.games.iter().map(|(j, _)| j.number).collect();
        assert_eq!(numbers, [0, 1], "game 3 was unfinished, game 4 cut off");
        let (job, entry) = &resumed.games[1];
        assert_eq!((entry.number, entry.pair, job.pair), (2, 0, 0));
        assert_eq!(entry.result, "0-1");
        assert_eq!(entry.termination, Termination::Adjudication);
        assert_eq!(entry.plies, 2);
        assert!(resumed.unreadable <= 1);
        let _ = std::fs::remove_file(path);

        let none = read_played(Path::new("/nonexistent/kestrel.pgn"), &jobs, &names()).unwrap();
        assert!(none.games.is_empty());
    }

    /// A game as this runner writes it now: fastchess's `Round`, the encounter.
    fn encounter_game(encounter: usize, white: &str, black: &str, result: &str) -> String {
        format!(
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"2026.12.01\"]\n[Round \"{encounter}\"]\n\
             [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [PlyCount \"2\"]\n[Termination \"normal\"]\n\n1. e4 e5 {result}\n\n"
        )
    }

    #[test]
    fn fastchess_rounds_are_placed_by_encounter_and_colours() {
        let colours = |noswap| crate::schedule::Colours {
            noswap,
            reverse: false,
        };
        let jobs = schedule(2, TournamentKind::RoundRobin, 1, 2, 2, colours(false));
        let text = [
            encounter_game(2, "old", "new", "1-0"),
            encounter_game(1, "old", "new", "0-1"),
            encounter_game(1, "new", "old", "1/2-1/2"),
        ]
        .concat();
        let path = scratch("encounters", &text);
        let resumed = read_played(&path, &jobs, &names()).unwrap();
        let numbers: Vec<usize> = resumed.games.iter().map(|(j, _)| j.number).collect();
        assert_eq!(numbers, [0, 1, 3], "colours tell a pair's games apart");
        assert_eq!(resumed.games[0].1.termination, Termination::Normal);
        // -noswap: a pair's games are alike; each is taken once.
        let jobs = schedule(2, TournamentKind::RoundRobin, 1, 2, 1, colours(true));
        let twice = encounter_game(1, "new", "old", "1-0").repeat(2);
        std::fs::write(&path, &twice).unwrap();
        let resumed = read_played(&path, &jobs, &names()).unwrap();
        assert_eq!(resumed.games.len(), 2);
        std::fs::write(&path, twice + &encounter_game(1, "new", "old", "1-0")).unwrap();
        let err = read_played(&path, &jobs, &names()).unwrap_err();
        assert!(err.to_string().contains("twice"), "{err}");
        for (what, text) in [
            ("beyond", encounter_game(3, "new", "old", "1-0")),
            ("players", encounter_game(1, "new", "other", "1-0")),
        ] {
            std::fs::write(&path, text).unwrap();
            let err = read_played(&path, &jobs, &names()).unwrap_err();
            assert!(err.to_string().contains("encounter"), "{what}: {err}");
        }
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn games_of_another_run_are_refused() {
        let jobs = schedule(
            2,
            TournamentKind::RoundRobin,
            1,
            2,
            1,
            crate::schedule::Colours::default(),
        );
        for (name, text) in [
            ("players", game(1, 1, "old", "new", "1-0")),
            ("beyond", game(1, 9, "new", "old", "1-0")),
            ("round", game(2, 1, "new", "old", "1-0")),
            ("twice", game(1, 1, "new", "old", "1-0").repeat(2)),
        ] {
            let path = scratch(name, &text);
            let err = read_played(&path, &jobs, &names()).unwrap_err();
            assert!(
                err.to_string().contains("resume with the arguments"),
                "{name}: {err}"
            );
            let _ = std::fs::remove_file(path);
        }
    }
}
