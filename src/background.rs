//! Long jobs that should take only the CPU nothing else wants (`kestrel
//! datagen run` under `nice -n 19`). On Linux with autogroups (the default
//! of desktop and server kernels), the scheduler first shares the CPU
//! equally between *sessions* and only then by nice within each: a
//! `nice 19` job started with `setsid` took as much CPU as a training run
//! started from another terminal (measured: 115 % against 35 % on two
//! cores). A process that leads its own session can lower its session's
//! share to match its nice, which is what [`match_session_to_nice`] does.

use std::fs;

/// Where the process's nice and session are, and its session's autogroup.
const STAT: &str = "/proc/self/stat";
const AUTOGROUP: &str = "/proc/self/autogroup";

/// Gives the process's session (its autogroup) the process's own nice
/// value when the process is niced and leads its session (started with
/// `setsid`), so that `nice` holds against jobs in other sessions too.
/// Returns a line for the user saying what was done, or why not; `None`
/// when there is nothing to say (not niced, or no autogroups here).
pub fn match_session_to_nice() -> Option<String> {
    let stat = fs::read_to_string(STAT).ok()?;
    let (nice, session) = nice_and_session(&stat)?;
    if nice <= 0 {
        return None;
    }
    let group = fs::read_to_string(AUTOGROUP).ok()?;
    let group_nice = autogroup_nice(&group)?;
    if group_nice >= nice {
        return None;
    }
    if session != std::process::id() {
        return Some(format!(
            "note: nice {nice} does not reach jobs started in other sessions (the kernel shares the CPU between sessions first); start this with `setsid` to let it lower its own session's priority"
        ));
    }
    Some(match fs::write(AUTOGROUP, nice.to_string()) {
        Ok(()) => format!("running at nice {nice}, and so is its session (autogroup)"),
        Err(e) => format!("note: cannot give its session nice {nice} ({e}): other sessions' jobs share the CPU equally with it"),
    })
}

/// The nice value (field 19) and session id (field 6) of a
/// `/proc/PID/stat` line. The command name (field 2) is in parentheses
/// and may hold spaces or parentheses itself, so fields are counted from
/// the last `)`.
fn nice_and_session(stat: &str) -> Option<(i32, u32)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (the state).
    let session = fields.get(6 - 3)?.parse().ok()?;
    let nice = fields.get(19 - 3)?.parse().ok()?;
    Some((nice, session))
}

/// The nice of an autogroup line, `/autogroup-12 nice 0`.
fn autogroup_nice(line: &str) -> Option<i32> {
    line.split_whitespace().last()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nice_and_session_past_an_awkward_command_name() {
        let stat =
            "4059 (kestrel (x) y) S 1 4058 4058 0 -1 4194560 9 0 0 0 160 5 0 0 39 19 3 0 1000 0 0";
        assert_eq!(nice_and_session(stat), Some((19, 4058)));
        assert_eq!(nice_and_session("garbage"), None);
        assert_eq!(nice_and_session("1 (a) S 1"), None);
    }

    #[test]
    fn reads_the_autogroup_nice() {
        assert_eq!(autogroup_nice("/autogroup-2 nice 0\n"), Some(0));
        assert_eq!(autogroup_nice("/autogroup-3 nice 19"), Some(19));
        assert_eq!(autogroup_nice(""), None);
    }

    #[test]
    fn this_process_reads_its_own_stat() {
        if let Ok(stat) = fs::read_to_string(STAT) {
            // The session id itself may be 0 in a container whose session
            // leader lives outside its PID namespace (CI's does), so only
            // the parse is checked.
            assert!(nice_and_session(&stat).is_some(), "{stat}");
        }
    }
}
