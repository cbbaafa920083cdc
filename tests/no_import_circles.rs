//! No circle of file imports inside a crate: if `a.rs` imports from `b.rs`,
//! nothing `b.rs` imports leads back to `a.rs`. A circle means neither file
//! can be read, tested or moved without the other, which is what a file of
//! its own was meant to allow (issue 60).
//!
//! Each crate's `src/` is read as text: every `use crate::…`, `use
//! super::…`, `use self::…` and `use child::…` line outside `#[cfg(test)]`
//! modules, with the path followed through the module tree (files and
//! inline modules) and through the re-exports (`pub use`) of the modules it
//! passes, to the file that defines what is imported. A re-export itself is
//! not an import of the file that makes it (a `mod.rs` that re-exports its
//! children is their front door, not their user). Tests are left out: a
//! test may import whatever it checks.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// One `use` tree flattened: the path's segments (the last may be `*`).
type UsePath = Vec<String>;

/// One module of a crate: the file that holds it, and what it imports and
/// re-exports.
#[derive(Default)]
struct Module {
    file: PathBuf,
    imports: Vec<UsePath>,
    /// Name re-exported here → the path it comes from.
    reexports: HashMap<String, UsePath>,
    /// A module compiled for tests only (`#[cfg(test)] mod x;`).
    test_only: bool,
}

/// The crates of the workspace: every `crates/*` with a `src/`, and the root.
fn crate_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![root.to_path_buf()];
    let mut members: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .expect("crates/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    members.sort();
    dirs.extend(members);
    dirs
}

/// The `.rs` files under `dir`, but `src/bin` (separate crates).
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("a source directory is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "bin") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file of `src/` (`lib.rs`, `main.rs`: the root).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("a file of src/");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if !(matches!(stem, "mod") || (parts.is_empty() && matches!(stem, "lib" | "main"))) {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a line without its string and character literals and its
/// `//` comment, so that braces and `use` are only those of the code.
/// `in_string` carries a string literal over line ends.
fn code_of(line: &str, in_string: &mut bool) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if *in_string {
            if c == '\\' {
                i += 2;
                continue;
            }
            if c == '"' {
                *in_string = false;
            }
            i += 1;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            break;
        }
        if c == '"' {
            *in_string = true;
            i += 1;
            continue;
        }
        if c == '\'' {
            // A character literal ('x', '\n', '{') or a lifetime ('a).
            if chars.get(i + 1) == Some(&'\\') {
                if let Some(end) = (i + 2..chars.len()).find(|&j| chars[j] == '\'') {
                    i = end + 1;
                    continue;
                }
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Expands a use tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str) -> Vec<UsePath> {
    // `x as y` names x: the alias is dropped before the spaces go.
    let mut words = Vec::new();
    let mut tokens = tree.split_whitespace();
    while let Some(t) = tokens.next() {
        if t == "as" {
            let alias = tokens.next().unwrap_or_default();
            // Keep what follows the alias (`,` or `}`).
            words.push(alias.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_'));
        } else {
            words.push(t);
        }
    }
    let tree: String = words.concat();
    let mut out = Vec::new();
    expand_into(&tree, &mut Vec::new(), &mut out);
    out
}

fn expand_into(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<UsePath>) {
    if let Some(open) = tree.find('{') {
        let head = &tree[..open];
        let inner = &tree[open + 1..tree.len() - 1];
        let base: Vec<String> = head
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let depth = prefix.len();
        prefix.extend(base);
        let mut level = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => level += 1,
                '}' => level -= 1,
                ',' if level == 0 => {
                    expand_into(&inner[start..i], prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand_into(&inner[start..], prefix, out);
        prefix.truncate(depth);
    } else if !tree.is_empty() {
        let mut path = prefix.clone();
        for seg in tree.split("::") {
            if seg == "self" {
                continue;
            }
            path.push(seg.to_string());
        }
        out.push(path);
    }
}

/// Reads one file into the modules it holds (itself and its inline modules).
fn read_file(path: &Path, module: &[String], modules: &mut BTreeMap<Vec<String>, Module>) {
    let text = fs::read_to_string(path).expect("a source file is readable");
    let mut in_string = false;
    // The inline modules open here: (their path, the brace depth they opened at).
    let mut stack: Vec<(Vec<String>, i32)> = vec![(module.to_vec(), 0)];
    let mut depth = 0;
    // A `#[cfg(test)]` module's depth while inside one.
    let mut skip_from: Option<i32> = None;
    let mut cfg_test = false;
    let mut statement: Option<(String, bool)> = None;
    modules.entry(module.to_vec()).or_default().file = path.to_path_buf();
    for raw in text.lines() {
        let code = code_of(raw, &mut in_string);
        let trimmed = code.trim();
        if trimmed.starts_with("#[cfg(test)]") || trimmed.starts_with("#[cfg(all(test") {
            cfg_test = true;
            continue;
        }
        let current = stack.last().expect("the file's own module").0.clone();
        if let Some(rest) = mod_opened(trimmed) {
            if cfg_test && skip_from.is_none() {
                skip_from = Some(depth);
            }
            let mut inner = current.clone();
            inner.push(rest);
            modules.entry(inner.clone()).or_default().file = path.to_path_buf();
            stack.push((inner, depth));
        }
        if cfg_test {
            if let Some(name) = trimmed
                .strip_prefix("mod ")
                .or_else(|| trimmed.strip_prefix("pub(crate) mod "))
                .and_then(|r| r.strip_suffix(';'))
            {
                let mut child = current.clone();
                child.push(name.trim().to_string());
                modules.entry(child).or_default().test_only = true;
            }
        }
        // A use for tests only is left out like a test module.
        let test_use = cfg_test && trimmed.starts_with("use ");
        if !trimmed.is_empty() && !trimmed.starts_with("#[") {
            cfg_test = false;
        }
        if skip_from.is_none() {
            if let Some((text, _)) = statement.as_mut() {
                text.push_str(trimmed);
                text.push(' ');
            } else if let Some(rest) = trimmed.strip_prefix("use ").filter(|_| !test_use) {
                statement = Some((format!("{rest} "), false));
            } else if let Some(rest) = trimmed
                .strip_prefix("pub use ")
                .or_else(|| trimmed.strip_prefix("pub(crate) use "))
                .or_else(|| trimmed.strip_prefix("pub(super) use "))
            {
                statement = Some((format!("{rest} "), true));
            }
            let in_use = statement.is_some();
            if !in_use && !test_use {
                let entry = modules.entry(current.clone()).or_default();
                entry.imports.extend(qualified_paths(trimmed));
            }
            if statement.as_ref().is_some_and(|(t, _)| t.contains(';')) {
                let (text, public) = statement.take().expect("a statement");
                let tree = text.split(';').next().unwrap_or_default();
                let entry = modules.entry(current.clone()).or_default();
                for path in expand(tree) {
                    if public {
                        // A re-exported glob (`pub use x::*`) is not
                        // followed: an import through it ends here.
                        if let Some(name) = path.last().filter(|n| *n != "*") {
                            entry.reexports.insert(name.clone(), path.clone());
                        }
                    } else {
                        entry.imports.push(path);
                    }
                }
            }
        }
        for c in code.chars() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if stack.len() > 1 && stack.last().is_some_and(|(_, d)| *d == depth) {
                        stack.pop();
                    }
                    if skip_from == Some(depth) {
                        skip_from = None;
                    }
                }
                _ => {}
            }
        }
    }
}

/// The paths written out in code (`crate::compact::decode(…)`,
/// `super::MAX_PHASE`): imports as much as a `use` line is.
fn qualified_paths(code: &str) -> Vec<UsePath> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"]
        .iter()
        .flat_map(|head| code.match_indices(head).map(|(i, _)| i))
    {
        let after_ident = start > 0
            && (bytes[start - 1].is_ascii_alphanumeric()
                || bytes[start - 1] == b'_'
                || bytes[start - 1] == b':');
        if after_ident {
            continue;
        }
        let mut path = Vec::new();
        for seg in code[start..].split("::") {
            let ident: String = seg
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if ident.is_empty() {
                break;
            }
            let whole = ident.len() == seg.len();
            path.push(ident);
            if !whole {
                break;
            }
        }
        out.push(path);
    }
    out
}

/// The name of an inline module opened on this line (`mod x {`).
fn mod_opened(code: &str) -> Option<String> {
    let rest = code
        .strip_prefix("pub(crate) ")
        .or_else(|| code.strip_prefix("pub(super) "))
        .or_else(|| code.strip_prefix("pub "))
        .unwrap_or(code);
    let rest = rest.strip_prefix("mod ")?;
    let name = rest.strip_suffix('{')?.trim();
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| name.to_string())
}

/// The absolute module path of `path` used in module `from`, or None for
/// another crate's (std, a dependency).
fn absolute(
    from: &[String],
    path: &[String],
    modules: &BTreeMap<Vec<String>, Module>,
) -> Option<Vec<String>> {
    let mut at: Vec<String> = from.to_vec();
    let mut segs = path.iter().peekable();
    match segs.peek().map(|s| s.as_str()) {
        Some("crate") => {
            at.clear();
            segs.next();
        }
        Some("super") => {
            while segs.peek().is_some_and(|s| *s == "super") {
                at.pop();
                segs.next();
            }
        }
        Some(first) => {
            let mut child = from.to_vec();
            child.push(first.to_string());
            if !modules.contains_key(&child) {
                // Not a child module: another crate, or a name imported here.
                return None;
            }
        }
        None => return None,
    }
    at.extend(segs.cloned());
    Some(at)
}

/// The file that defines what the absolute path `path` names.
fn defining_file(
    path: &[String],
    modules: &BTreeMap<Vec<String>, Module>,
    hops: usize,
) -> Option<PathBuf> {
    // The deepest module the path walks through.
    let mut module = Vec::new();
    let mut rest = path;
    while let Some((first, tail)) = rest.split_first() {
        let mut next = module.clone();
        next.push(first.clone());
        if !modules.contains_key(&next) {
            break;
        }
        module = next;
        rest = tail;
    }
    let m = modules.get(&module)?;
    if hops < 8 {
        if let Some(name) = rest.first().filter(|n| *n != "*") {
            if let Some(source) = m.reexports.get(name) {
                let mut source_path = absolute(&module, source, modules)?;
                source_path.extend(rest[1..].iter().cloned());
                return defining_file(&source_path, modules, hops + 1);
            }
        }
    }
    Some(m.file.clone())
}

/// The circles of file imports of one crate, each as its files.
fn crate_circles(dir: &Path) -> Vec<Vec<String>> {
    let src = dir.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut modules: BTreeMap<Vec<String>, Module> = BTreeMap::new();
    for f in &files {
        modules.entry(module_path(&src, f)).or_default().file = f.clone();
    }
    for f in &files {
        read_file(f, &module_path(&src, f), &mut modules);
    }
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    let test_only: Vec<&Vec<String>> = modules
        .iter()
        .filter(|(_, m)| m.test_only)
        .map(|(name, _)| name)
        .collect();
    for (name, m) in &modules {
        if test_only.iter().any(|t| name.starts_with(t)) {
            continue;
        }
        for import in &m.imports {
            let Some(abs) = absolute(name, import, &modules) else {
                continue;
            };
            if let Some(target) = defining_file(&abs, &modules, 0) {
                if target != m.file {
                    edges.entry(m.file.clone()).or_default().insert(target);
                }
            }
        }
    }
    strongly_connected(&edges)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            c.iter()
                .map(|f| {
                    f.strip_prefix(dir)
                        .unwrap_or(f)
                        .to_string_lossy()
                        .into_owned()
                })
                .collect()
        })
        .collect()
}

/// Tarjan's strongly connected components, each sorted.
fn strongly_connected(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        edges: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: HashMap<&'a PathBuf, usize>,
        low: HashMap<&'a PathBuf, usize>,
        on_stack: BTreeSet<&'a PathBuf>,
        stack: Vec<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(v: &'a PathBuf, st: &mut State<'a>) {
        let i = st.index.len();
        st.index.insert(v, i);
        st.low.insert(v, i);
        st.stack.push(v);
        st.on_stack.insert(v);
        if let Some(targets) = st.edges.get(v) {
            for w in targets {
                if !st.index.contains_key(w) {
                    visit(w, st);
                    let lw = st.low[w];
                    let lv = st.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if st.on_stack.contains(w) {
                    let iw = st.index[w];
                    let lv = st.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
        }
        if st.low[v] == st.index[v] {
            let mut component = Vec::new();
            while let Some(w) = st.stack.pop() {
                st.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            component.sort();
            st.out.push(component);
        }
    }
    let mut st = State {
        edges,
        index: HashMap::new(),
        low: HashMap::new(),
        on_stack: BTreeSet::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !st.index.contains_key(v) {
            visit(v, &mut st);
        }
    }
    st.out.sort();
    st.out
}

#[test]
fn no_crate_has_a_circle_of_file_imports() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in crate_dirs(root) {
        let name = dir
            .strip_prefix(root)
            .map_or_else(|_| dir.display().to_string(), |p| p.display().to_string());
        let name = if name.is_empty() {
            ".".to_string()
        } else {
            name
        };
        for circle in crate_circles(&dir) {
            let line = format!("{name}: {}", circle.join(" ↔ "));
            found.push(line);
        }
    }
    assert!(
        found.is_empty(),
        "circles of file imports (split the shared part into a file both import):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_reader_finds_a_circle_and_follows_reexports() {
    let dir = std::env::temp_dir().join(format!("kestrel-circles-{}", std::process::id()));
    let src = dir.join("src");
    fs::create_dir_all(src.join("room")).expect("a temporary crate");
    fs::write(
        src.join("lib.rs"),
        "mod a;\nmod room;\npub use room::Door;\n",
    )
    .expect("lib.rs");
    // a.rs imports the door through the root's re-export (room/door.rs),
    // and the door imports a.rs back: one circle of two files.
    fs::write(src.join("a.rs"), "use crate::Door;\npub struct A;\n").expect("a.rs");
    fs::write(src.join("room/mod.rs"), "mod door;\npub use door::Door;\n").expect("room/mod.rs");
    fs::write(
        src.join("room/door.rs"),
        "use crate::a::A;\npub struct Door(A);\n#[cfg(test)]\nmod tests {\n    use super::super::Door;\n}\n",
    )
    .expect("door.rs");
    let circles = crate_circles(&dir);
    fs::remove_dir_all(&dir).expect("the temporary crate is removed");
    assert_eq!(
        circles,
        vec![vec!["src/a.rs".to_string(), "src/room/door.rs".to_string()]]
    );
}
