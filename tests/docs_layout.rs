//! The layout chapter (`docs/layout.md`) kept true: its table lists every
//! workspace crate (no more) with its directory and its `description`, and
//! its arrows are the dependencies between workspace crates that `cargo
//! metadata` reports, drawn from each crate to crates below it; and each row
//! of its "Where is X" table names a file that holds the name it gives.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A normal dependency in the chapter's diagram.
const NORMAL: &str = "──▶";
/// A dependency of tests only.
const DEV: &str = "··▶";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A workspace crate as `cargo metadata` sees it.
struct Crate {
    dir: String,
    description: String,
    normal: BTreeSet<String>,
    dev: BTreeSet<String>,
}

fn workspace() -> BTreeMap<String, Crate> {
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata writes JSON");
    let members: BTreeSet<&str> = meta["workspace_members"]
        .as_array()
        .expect("workspace_members")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let packages: Vec<&Value> = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| p["id"].as_str().is_some_and(|id| members.contains(id)))
        .collect();
    let names: BTreeSet<String> = packages
        .iter()
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect();
    let workspace_root = PathBuf::from(meta["workspace_root"].as_str().expect("workspace_root"));
    let mut out = BTreeMap::new();
    for p in packages {
        let name = p["name"]
            .as_str()
            .expect("a package has a name")
            .to_string();
        let manifest = PathBuf::from(p["manifest_path"].as_str().expect("manifest_path"));
        let dir = manifest.parent().expect("a manifest has a directory");
        let dir = match dir.strip_prefix(&workspace_root) {
            Ok(d) if d == Path::new("") => ".".to_string(),
            Ok(d) => d.display().to_string(),
            Err(_) => dir.display().to_string(),
        };
        let mut normal = BTreeSet::new();
        let mut dev = BTreeSet::new();
        for d in p["dependencies"].as_array().expect("dependencies") {
            let dep = d["name"].as_str().expect("a dependency has a name");
            if !names.contains(dep) || d["path"].is_null() {
                continue;
            }
            match d["kind"].as_str() {
                None => {
                    normal.insert(dep.to_string());
                }
                Some("dev") => {
                    dev.insert(dep.to_string());
                }
                Some(_) => {}
            }
        }
        // A dev-dependency that is also a normal one adds no arrow.
        let dev = &dev - &normal;
        out.insert(
            name,
            Crate {
                dir,
                description: p["description"].as_str().unwrap_or("").trim().to_string(),
                normal,
                dev,
            },
        );
    }
    out
}

/// What the chapter says.
struct Chapter {
    /// name -> (directory, purpose), from the table under `## Crates`.
    table: BTreeMap<String, (String, String)>,
    /// Names in the table more than once.
    table_duplicates: Vec<String>,
    /// Arrow lines in order: (from, kind, to-set).
    arrows: Vec<(String, &'static str, BTreeSet<String>)>,
    /// The `crates/...` directories named at the start of a line of the
    /// `## Files` block.
    files_dirs: BTreeSet<String>,
}

/// The lines of the section under `## title`, up to the next `## `.
fn section<'a>(text: &'a str, title: &str) -> Vec<&'a str> {
    let head = format!("## {title}");
    text.lines()
        .skip_while(|l| l.trim() != head)
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect()
}

fn unquote(cell: &str) -> String {
    cell.trim().trim_matches('`').trim().to_string()
}

fn chapter() -> Chapter {
    let text = std::fs::read_to_string(root().join("docs/layout.md")).expect("docs/layout.md");
    let mut table = BTreeMap::new();
    let mut table_duplicates = Vec::new();
    for line in section(&text, "Crates") {
        let t = line.trim();
        if !t.starts_with('|') || t.starts_with("|---") || t.starts_with("| crate") {
            continue;
        }
        let cells: Vec<&str> = t.trim_matches('|').split('|').collect();
        assert_eq!(cells.len(), 3, "a crate row has three cells: {line}");
        let name = unquote(cells[0]);
        if table
            .insert(
                name.clone(),
                (unquote(cells[1]), cells[2].trim().to_string()),
            )
            .is_some()
        {
            table_duplicates.push(name);
        }
    }
    let mut arrows = Vec::new();
    let mut in_block = false;
    for line in section(&text, "Dependencies") {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        for kind in [NORMAL, DEV] {
            if let Some((from, to)) = line.split_once(kind) {
                let to: BTreeSet<String> = to
                    .split_whitespace()
                    .filter(|w| *w != "(none)")
                    .map(str::to_string)
                    .collect();
                arrows.push((from.trim().to_string(), kind, to));
            }
        }
    }
    let files_dirs = section(&text, "Files")
        .iter()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with("crates/"))
        .map(|w| w.trim_end_matches('/').to_string())
        .collect();
    Chapter {
        table,
        table_duplicates,
        arrows,
        files_dirs,
    }
}

#[test]
fn the_table_lists_every_crate_with_its_purpose() {
    let ws = workspace();
    let ch = chapter();
    let mut problems = Vec::new();
    for name in ws.keys() {
        if !ch.table.contains_key(name) {
            problems.push(format!(
                "crate `{name}` is missing from docs/layout.md's table"
            ));
        }
    }
    for name in ch.table.keys() {
        if !ws.contains_key(name) {
            problems.push(format!(
                "docs/layout.md lists `{name}`, which is not a workspace crate"
            ));
        }
    }
    for name in &ch.table_duplicates {
        problems.push(format!("docs/layout.md lists `{name}` twice"));
    }
    for (name, (dir, purpose)) in &ch.table {
        let Some(c) = ws.get(name) else { continue };
        if *dir != c.dir {
            problems.push(format!(
                "`{name}`: the table says directory `{dir}`, it is `{}`",
                c.dir
            ));
        }
        if *purpose != c.description {
            problems.push(format!(
                "`{name}`: the table's purpose is not its Cargo.toml description:\n  table:       {purpose}\n  description: {}",
                c.description
            ));
        }
    }
    for c in ws.values().filter(|c| c.dir.starts_with("crates/")) {
        if !ch.files_dirs.contains(&c.dir) {
            problems.push(format!("`{}` is not in docs/layout.md's Files tree", c.dir));
        }
    }
    for dir in &ch.files_dirs {
        if !ws.values().any(|c| c.dir == *dir) && !root().join(dir).is_dir() {
            problems.push(format!(
                "the Files tree names `{dir}`, which does not exist"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_arrows_are_the_dependencies() {
    let ws = workspace();
    let ch = chapter();
    let mut problems = Vec::new();
    let mut lines: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (from, kind, _) in &ch.arrows {
        *lines.entry((from.as_str(), kind)).or_insert(0) += 1;
        if !ws.contains_key(from) {
            problems.push(format!(
                "the diagram draws arrows from `{from}`, which is not a workspace crate"
            ));
        }
    }
    for ((from, kind), n) in &lines {
        if *n > 1 {
            problems.push(format!("the diagram has {n} `{from} {kind}` lines"));
        }
    }
    // Every crate has its one line of normal arrows, leaves `(none)`.
    for name in ws.keys() {
        if !lines.contains_key(&(name.as_str(), NORMAL)) {
            problems.push(format!(
                "the diagram has no `{name} {NORMAL}` line (write `{name} {NORMAL} (none)` for no dependency)"
            ));
        }
    }
    let drawn = |kind: &str| -> BTreeSet<(String, String)> {
        ch.arrows
            .iter()
            .filter(|(_, k, _)| *k == kind)
            .flat_map(|(f, _, to)| to.iter().map(move |t| (f.clone(), t.clone())))
            .collect()
    };
    for (kind, what) in [(NORMAL, "dependency"), (DEV, "dev-dependency")] {
        let real: BTreeSet<(String, String)> = ws
            .iter()
            .flat_map(|(n, c)| {
                let deps = if kind == NORMAL { &c.normal } else { &c.dev };
                deps.iter().map(move |d| (n.clone(), d.clone()))
            })
            .collect();
        let drawn = drawn(kind);
        for (a, b) in real.difference(&drawn) {
            problems.push(format!(
                "`{a}` has the {what} `{b}`, but docs/layout.md draws no `{a} {kind} {b}`"
            ));
        }
        for (a, b) in drawn.difference(&real) {
            problems.push(format!(
                "docs/layout.md draws `{a} {kind} {b}`, but `{a}` has no such {what}"
            ));
        }
    }
    // "Each crate depends only on crates below it."
    let order: BTreeMap<&str, usize> = ch
        .arrows
        .iter()
        .filter(|(_, k, _)| *k == NORMAL)
        .enumerate()
        .map(|(i, (f, _, _))| (f.as_str(), i))
        .collect();
    for (a, b) in drawn(NORMAL) {
        if let (Some(i), Some(j)) = (order.get(a.as_str()), order.get(b.as_str())) {
            if j <= i {
                problems.push(format!(
                    "the diagram's `{b}` line must come below `{a}`'s, which depends on it"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn where_is_x_names_files_that_hold_their_items() {
    let text = std::fs::read_to_string(root().join("docs/layout.md")).expect("docs/layout.md");
    let mut rows = 0;
    let mut wrong = Vec::new();
    for line in section(&text, "Where is X") {
        let cells: Vec<&str> = line.trim().trim_matches('|').split(" | ").collect();
        let [what, file, item] = cells[..] else {
            continue;
        };
        if !file.trim().starts_with('`') {
            continue; // the header and its rule
        }
        rows += 1;
        let (file, item) = (unquote(file), unquote(item));
        match std::fs::read_to_string(root().join(&file)) {
            Ok(code) if code.contains(&item) => {}
            Ok(_) => wrong.push(format!("{what}: {file} has no `{item}`")),
            Err(e) => wrong.push(format!("{what}: {file}: {e}")),
        }
    }
    assert!(
        rows >= 30,
        "the table has {rows} rows; it answers about 30 questions"
    );
    assert!(
        wrong.is_empty(),
        "docs/layout.md's Where is X:\n{}",
        wrong.join("\n")
    );
}
