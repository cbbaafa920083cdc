//! The README and the book in `docs/` kept true: relative links, images and
//! `#anchors` resolve, every image and chapter is shown or listed, every
//! `kestrel X` the text names is a sub-command whose `--help` runs, the
//! commands of the blocks marked `<!-- check -->` run, `.ci/run` runs the
//! README's test command, and the code the search tour quotes is the code.
//! (The layout chapter has its own test, `docs_layout.rs`.)

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The line that marks the next ```` ```console ```` block as one whose
/// `$ ...` commands the test runs.
const CHECK_MARKER: &str = "<!-- check -->";

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fenced code block.
struct Block {
    /// The info string (`console`, `sh`, ...).
    info: String,
    /// Its lines, without the fences.
    lines: Vec<String>,
    /// 1-based line of the opening fence.
    line: usize,
    /// Whether the line just before the fence is [`CHECK_MARKER`].
    checked: bool,
}

/// A Markdown file, split into what the checks need.
struct Doc {
    /// Path relative to the root, for messages.
    name: String,
    /// Absolute path.
    path: PathBuf,
    /// The text with fenced blocks and code spans blanked out (line
    /// structure kept), where links are looked for.
    prose: String,
    /// Headings' texts, in order.
    headings: Vec<String>,
    /// Fenced code blocks.
    blocks: Vec<Block>,
    /// Code spans, newlines turned into spaces.
    spans: Vec<String>,
    /// Lines equal to [`CHECK_MARKER`] not followed by a ```` ```console ````
    /// fence (1-based).
    stray_markers: Vec<usize>,
}

/// The fence a line opens or closes, if any: its character and length.
fn fence(line: &str) -> Option<(char, usize)> {
    let t = line.trim_start();
    for c in ['`', '~'] {
        let n = t.chars().take_while(|&x| x == c).count();
        if n >= 3 {
            return Some((c, n));
        }
    }
    None
}

fn parse(path: &Path) -> Doc {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    let mut prose_lines: Vec<String> = Vec::new();
    let mut blocks = Vec::new();
    let mut headings = Vec::new();
    let mut stray_markers = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some((c, n)) = fence(line) {
            let info = line.trim_start()[n..].trim().to_string();
            let checked = i > 0 && lines[i - 1].trim() == CHECK_MARKER;
            let start = i;
            let mut body = Vec::new();
            i += 1;
            while i < lines.len() {
                if let Some((c2, n2)) = fence(lines[i]) {
                    if c2 == c && n2 >= n && lines[i].trim_start()[n2..].trim().is_empty() {
                        break;
                    }
                }
                body.push(lines[i].to_string());
                i += 1;
            }
            // The fences and the body become blank prose lines.
            prose_lines.extend(std::iter::repeat_n(String::new(), i + 1 - start));
            blocks.push(Block {
                info,
                lines: body,
                line: start + 1,
                checked,
            });
            i += 1;
            continue;
        }
        if line.trim() == CHECK_MARKER {
            let next_is_console = lines
                .get(i + 1)
                .and_then(|l| fence(l).map(|(_, n)| l.trim_start()[n..].trim() == "console"))
                .unwrap_or(false);
            if !next_is_console {
                stray_markers.push(i + 1);
            }
        }
        let t = line.trim_start();
        if line.len() - t.len() <= 3 && t.starts_with('#') {
            let hashes = t.chars().take_while(|&c| c == '#').count();
            if hashes <= 6 && (t.len() == hashes || t[hashes..].starts_with(' ')) {
                let h = t[hashes..].trim().trim_end_matches('#').trim();
                headings.push(h.to_string());
            }
        }
        prose_lines.push(line.to_string());
        i += 1;
    }
    let (prose, spans) = blank_code_spans(&prose_lines.join("\n"));
    Doc {
        name,
        path: path.to_path_buf(),
        prose,
        headings,
        blocks,
        spans,
        stray_markers,
    }
}

/// Blanks the code spans of `text` (keeping newlines) and returns them.
/// A span opened by N backticks ends at the next run of exactly N within
/// its paragraph; an unmatched run is literal text.
fn blank_code_spans(text: &str) -> (String, Vec<String>) {
    let chars: Vec<char> = text.chars().collect();
    let mut out = chars.clone();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let n = chars[i..].iter().take_while(|&&c| c == '`').count();
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '\n' && chars.get(j + 1) == Some(&'\n') {
                break; // the paragraph ends
            }
            if chars[j] == '`' {
                let m = chars[j..].iter().take_while(|&&c| c == '`').count();
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                let span: String = chars[i + n..j].iter().collect();
                spans.push(span.replace('\n', " ").trim().to_string());
                for c in &mut out[i..j + n] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = j + n;
            }
            None => i += n,
        }
    }
    (out.into_iter().collect(), spans)
}

/// GitHub's anchor for a heading: the rendered text (code, emphasis and
/// link syntax gone) lower-cased, letters, digits, `-` and `_` kept, spaces
/// turned into `-`, everything else dropped.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // `[text](url)` renders as `text`.
    while let Some(open) = rest.find('[') {
        text.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after
            .find("](")
            .and_then(|c| after[c..].find(')').map(|e| (c, c + e)))
        {
            Some((close, end)) => {
                text.push_str(&after[..close]);
                rest = &after[end + 1..];
            }
            None => {
                text.push('[');
                rest = after;
            }
        }
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a document's headings, duplicates numbered as GitHub does
/// (`x`, `x-1`, `x-2`, ...).
fn anchors(doc: &Doc) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for h in &doc.headings {
        let s = slug(&h.replace(['`', '*'], ""));
        let n = seen.entry(s.clone()).or_insert(0);
        out.insert(if *n == 0 {
            s.clone()
        } else {
            format!("{s}-{n}")
        });
        *n += 1;
    }
    out
}

/// The link and image targets of a document's prose: `[..](target)`,
/// `[label]: target` definitions, and HTML `src=`/`href=` attributes.
fn links(doc: &Doc) -> Vec<String> {
    let p = &doc.prose;
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = p[from..].find("](") {
        let start = from + k + 2;
        let Some(len) = p[start..].find(')') else {
            break;
        };
        let inner = p[start..start + len].trim();
        let inner = inner.split_whitespace().next().unwrap_or("");
        out.push(inner.trim_matches(['<', '>']).to_string());
        from = start + len;
    }
    for line in p.lines() {
        let t = line.trim_start();
        if t.starts_with('[') {
            if let Some(k) = t.find("]: ") {
                if let Some(target) = t[k + 3..].split_whitespace().next() {
                    out.push(target.to_string());
                }
            }
        }
        for attr in ["src=\"", "href=\""] {
            let mut rest = line;
            while let Some(k) = rest.find(attr) {
                let after = &rest[k + attr.len()..];
                let end = after.find('"').unwrap_or(after.len());
                out.push(after[..end].to_string());
                rest = &after[end..];
            }
        }
    }
    out
}

/// `a/./b/../c` as `a/c`, without touching the file system.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// README.md and docs/*.md.
fn documents() -> Vec<Doc> {
    let mut paths = vec![root().join("README.md")];
    let mut chapters: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("docs/ is there")
        .map(|e| e.expect("docs/ lists").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    paths.extend(chapters);
    paths.iter().map(|p| parse(p)).collect()
}

#[test]
fn links_images_and_anchors_resolve() {
    let docs = documents();
    let mut parsed: BTreeMap<PathBuf, BTreeSet<String>> = docs
        .iter()
        .map(|d| (normalise(&d.path), anchors(d)))
        .collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for doc in &docs {
        let dir = doc.path.parent().expect("a file has a directory");
        for target in links(doc) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if file.is_empty() {
                doc.path.clone()
            } else {
                normalise(&dir.join(file))
            };
            if !file.exists() {
                problems.push(format!("{}: `{target}`: no such file", doc.name));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if file.extension().is_none_or(|e| e != "md") {
                problems.push(format!(
                    "{}: `{target}`: an anchor into a file that is not Markdown",
                    doc.name
                ));
                continue;
            }
            let known = parsed
                .entry(file.clone())
                .or_insert_with(|| anchors(&parse(&file)));
            if !known.contains(anchor) {
                problems.push(format!(
                    "{}: `{target}`: no heading with the anchor `#{anchor}` (there: {})",
                    doc.name,
                    known.iter().cloned().collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the parser broken?"
    );
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_image_is_shown_and_every_chapter_listed() {
    let docs = documents();
    let mut targets: BTreeSet<PathBuf> = BTreeSet::new();
    let mut listed: BTreeMap<String, BTreeSet<PathBuf>> = BTreeMap::new();
    for doc in &docs {
        let dir = doc.path.parent().expect("a file has a directory");
        for t in links(doc) {
            let file = t.split('#').next().unwrap_or("");
            if !file.is_empty() && !file.contains("://") {
                let p = normalise(&dir.join(file));
                targets.insert(p.clone());
                listed.entry(doc.name.clone()).or_default().insert(p);
            }
        }
    }
    let mut problems = Vec::new();
    for e in fs::read_dir(root().join("docs/images")).expect("docs/images is there") {
        let p = normalise(&e.expect("docs/images lists").path());
        if !targets.contains(&p) {
            problems.push(format!(
                "{} is shown nowhere in README.md or docs/*.md",
                p.display()
            ));
        }
    }
    for doc in &docs {
        let is_chapter = doc.path.parent() == Some(&root().join("docs"))
            && doc.path.file_name().is_some_and(|n| n != "README.md");
        if !is_chapter {
            continue;
        }
        let p = normalise(&doc.path);
        for index in ["README.md", "docs/README.md"] {
            if !listed.get(index).is_some_and(|l| l.contains(&p)) {
                problems.push(format!("{index} does not link the chapter {}", doc.name));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn check_markers_mark_console_blocks() {
    let problems: Vec<String> = documents()
        .iter()
        .flat_map(|d| {
            d.stray_markers.iter().map(move |l| {
                format!(
                    "{}:{l}: `{CHECK_MARKER}` must be the line just before a ```console block",
                    d.name
                )
            })
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn ci_runs_the_readme_test_command() {
    let readme = parse(&root().join("README.md"));
    let command = readme
        .blocks
        .iter()
        .flat_map(|b| &b.lines)
        .find_map(|l| {
            let cmd = l.split('#').next().unwrap_or("").trim();
            cmd.starts_with("cargo test").then(|| cmd.to_string())
        })
        .expect("the README gives the test command in a code block");
    assert_eq!(command, "cargo test --release --workspace");
    let ci = fs::read_to_string(root().join(".ci/run")).expect(".ci/run is there");
    let ci_tests: Vec<&str> = ci
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("cargo test"))
        .collect();
    assert_eq!(
        ci_tests,
        [command.as_str()],
        ".ci/run must run exactly the README's test command"
    );
}

/// The `kestrel` binary's directory first on the `PATH`.
fn path_with_kestrel() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_kestrel"));
    let dir = bin.parent().expect("the binary has a directory");
    let mut paths = vec![dir.to_path_buf()];
    if let Some(p) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(paths).expect("PATH joins")
}

/// Runs `cmd`, killing it after `limit`.
fn run_bounded(mut cmd: Command, limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = cmd
        .env_remove("KESTREL_SYZYGY_PATH")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    // Read the pipes on threads so that a talkative command cannot block.
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).ok();
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut v).ok();
        v
    });
    let status = loop {
        if let Some(s) = child.try_wait().expect("the command can be waited for") {
            break s;
        }
        if started.elapsed() > limit {
            child.kill().ok();
            break child.wait().expect("the killed command ends");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let output = Output {
        status,
        stdout: out_reader.join().expect("reader"),
        stderr: err_reader.join().expect("reader"),
    };
    (output, started.elapsed())
}

fn tail(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

/// The `$ ...` commands of a block (a line ending in `\` goes on on the next).
fn commands(block: &Block) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = block.lines.iter();
    while let Some(line) = lines.next() {
        let Some(cmd) = line.trim_start().strip_prefix("$ ") else {
            continue;
        };
        let mut cmd = cmd.to_string();
        while cmd.ends_with('\\') {
            cmd.pop();
            match lines.next() {
                Some(next) => cmd.push_str(next),
                None => break,
            }
        }
        out.push(cmd);
    }
    out
}

#[test]
fn checked_examples_run() {
    let path = path_with_kestrel();
    let mut ran = 0;
    let mut problems = Vec::new();
    for doc in documents() {
        for block in doc.blocks.iter().filter(|b| b.checked) {
            if block.info != "console" {
                problems.push(format!(
                    "{}:{}: a checked block must be ```console, not ```{}",
                    doc.name, block.line, block.info
                ));
            }
            let cmds = commands(block);
            if cmds.is_empty() {
                problems.push(format!(
                    "{}:{}: a checked block with no `$ ` command",
                    doc.name, block.line
                ));
            }
            for cmd in cmds {
                let mut c = Command::new("bash");
                c.args(["-o", "pipefail", "-c", &cmd])
                    .current_dir(root())
                    .env("PATH", &path);
                let (o, took) = run_bounded(c, Duration::from_secs(60));
                ran += 1;
                eprintln!(
                    "{}:{}: {:.1} s: {cmd}",
                    doc.name,
                    block.line,
                    took.as_secs_f64()
                );
                if !o.status.success() {
                    problems.push(format!(
                        "{}:{}: `{cmd}` failed ({}) after {:.1} s\nstdout:\n{}\nstderr:\n{}",
                        doc.name,
                        block.line,
                        o.status,
                        took.as_secs_f64(),
                        tail(&o.stdout),
                        tail(&o.stderr)
                    ));
                }
            }
        }
    }
    assert!(
        ran >= 5,
        "only {ran} checked commands: are the markers there?"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Whether a word could be a sub-command's name.
fn is_word(w: &str) -> bool {
    let mut c = w.chars();
    c.next().is_some_and(|f| f.is_ascii_lowercase())
        && c.all(|x| x.is_ascii_lowercase() || x.is_ascii_digit() || x == '-')
}

/// The words after each `kestrel` of a piece of code: `kestrel tune texel
/// --data x` gives `["tune", "texel"]`; alternatives `build|probe` are
/// split. Only `kestrel` itself or a path ending in `/kestrel` counts (not
/// `cmd=kestrel` or `uci:target/release/kestrel`).
fn invocations(code: &str) -> Vec<Vec<Vec<String>>> {
    let tokens: Vec<&str> = code.split_whitespace().collect();
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let t = t.trim_start_matches(['"', '\'', '(']);
        let is_kestrel =
            t == "kestrel" || (t.ends_with("/kestrel") && !t.contains([':', '=', ',']));
        if !is_kestrel {
            continue;
        }
        let mut words = Vec::new();
        for next in tokens.iter().skip(i + 1).take(2) {
            let w = next.trim_end_matches(['"', '\'', ')', ',', ';', '.', ':']);
            let alternatives: Vec<String> = w.split('|').map(str::to_string).collect();
            if next.starts_with(['"', '\''])
                || alternatives.is_empty()
                || !alternatives.iter().all(|a| is_word(a))
            {
                break;
            }
            words.push(alternatives);
        }
        out.push(words);
    }
    out
}

/// A `--help` text's sub-commands (clap's `Commands:` section), without `help`.
fn subcommands(help: &str) -> BTreeSet<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| *w != "help")
        .map(str::to_string)
        .collect()
}

fn help(args: &[&str]) -> Result<String, String> {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kestrel"));
    c.args(args).arg("--help");
    let (o, _) = run_bounded(c, Duration::from_secs(20));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    if o.status.success() && !text.trim().is_empty() {
        Ok(text)
    } else {
        Err(format!(
            "`kestrel {} --help` failed ({}): {}",
            args.join(" "),
            o.status,
            tail(&o.stderr)
        ))
    }
}

#[test]
fn every_subcommand_named_has_help() {
    // (first word, second word or none) -> where the docs name it.
    let mut named: BTreeMap<(String, Option<String>), String> = BTreeMap::new();
    for doc in documents() {
        let mut code: Vec<(String, String)> = doc
            .spans
            .iter()
            .map(|s| (s.clone(), doc.name.clone()))
            .collect();
        for b in &doc.blocks {
            for (k, l) in b.lines.iter().enumerate() {
                code.push((l.clone(), format!("{}:{}", doc.name, b.line + 1 + k)));
            }
        }
        for (text, place) in code {
            for words in invocations(&text) {
                let Some(first) = words.first() else { continue };
                for w1 in first {
                    named
                        .entry((w1.clone(), None))
                        .or_insert_with(|| place.clone());
                    for w2 in words.get(1).into_iter().flatten() {
                        named
                            .entry((w1.clone(), Some(w2.clone())))
                            .or_insert_with(|| place.clone());
                    }
                }
            }
        }
    }
    let top = subcommands(&help(&[]).expect("kestrel --help runs"));
    assert!(top.contains("perft"), "no sub-commands read from: {top:?}");
    let mut problems = Vec::new();
    let mut helps: BTreeMap<String, Result<String, String>> = BTreeMap::new();
    let mut checked = BTreeSet::new();
    for ((w1, w2), place) in &named {
        if !top.contains(w1) {
            problems.push(format!(
                "{place}: `kestrel {w1}`: no such sub-command (kestrel has: {})",
                top.iter().cloned().collect::<Vec<_>>().join(", ")
            ));
            continue;
        }
        let h = helps
            .entry(w1.clone())
            .or_insert_with(|| help(&[w1]))
            .clone();
        let h = match h {
            Ok(h) => h,
            Err(e) => {
                problems.push(format!("{place}: {e}"));
                continue;
            }
        };
        checked.insert(w1.clone());
        let Some(w2) = w2 else { continue };
        let subs = subcommands(&h);
        // A group whose usage requires a command takes no other word.
        let required = h
            .lines()
            .any(|l| l.starts_with("Usage:") && l.contains("<COMMAND>"));
        if subs.contains(w2) {
            match help(&[w1, w2]) {
                Ok(_) => {
                    checked.insert(format!("{w1} {w2}"));
                }
                Err(e) => problems.push(format!("{place}: {e}")),
            }
        } else if required {
            problems.push(format!(
                "{place}: `kestrel {w1} {w2}`: `{w1}` has no sub-command `{w2}` (it has: {})",
                subs.iter().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    eprintln!(
        "--help checked for: {}",
        checked.iter().cloned().collect::<Vec<_>>().join(", ")
    );
    assert!(
        checked.len() >= 10,
        "only {} sub-commands found in the docs",
        checked.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The chapter whose ```` ```rust ```` blocks quote the source.
const TOUR: &str = "docs/how-kestrel-searches.md";

/// The line inside a quote that stands for source lines left out.
const ELISION: &str = "// ...";

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.expect("the directory lists").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Lines trimmed, blank ones dropped: a quote may be re-indented.
fn code_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether `quote` (trimmed lines, [`ELISION`] between the parts) is in
/// `source`: each part a run of consecutive lines, the parts in order.
fn quote_found(quote: &[String], source: &[String]) -> bool {
    let parts: Vec<&[String]> = quote
        .split(|l| l == ELISION)
        .filter(|p| !p.is_empty())
        .collect();
    let mut from = 0;
    for part in parts {
        let Some(at) = (from..=source.len().saturating_sub(part.len()))
            .find(|&i| source.get(i..i + part.len()) == Some(part))
        else {
            return false;
        };
        from = at + part.len();
    }
    true
}

/// The tour's quotes are found in some source file of the workspace (the
/// engine's files may move between folders; the lines must not change
/// unseen).
#[test]
fn the_tour_quotes_the_code() {
    let tour = parse(&root().join(TOUR));
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    for e in fs::read_dir(root().join("crates")).expect("crates/ lists") {
        rust_files(&e.expect("crates/ lists").path().join("src"), &mut files);
    }
    let sources: Vec<Vec<String>> = files
        .iter()
        .map(|f| code_lines(&fs::read_to_string(f).expect("a source file reads")))
        .collect();
    let mut quotes = 0;
    let mut problems = Vec::new();
    for block in tour.blocks.iter().filter(|b| b.info == "rust") {
        quotes += 1;
        let quote = code_lines(&block.lines.join("\n"));
        if !sources.iter().any(|s| quote_found(&quote, s)) {
            problems.push(format!(
                "{TOUR}:{}: these lines are in no source file as quoted:\n{}",
                block.line,
                quote.join("\n")
            ));
        }
    }
    assert!(
        quotes >= 20,
        "only {quotes} quotes in {TOUR}: is the parser broken?"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn quotes_match_line_for_line_and_in_order() {
    let lines = |t: &str| code_lines(t);
    let source = lines("fn a() {\n    let x = 1;\n\n    let y = 2;\n    x + y\n}\n");
    assert!(quote_found(&lines("let x = 1;\n  let y = 2;"), &source));
    assert!(quote_found(&lines("fn a() {\n// ...\nx + y"), &source));
    assert!(
        !quote_found(&lines("let x = 1;\nx + y"), &source),
        "a gap needs `// ...`"
    );
    assert!(
        !quote_found(&lines("x + y\n// ...\nlet x = 1;"), &source),
        "order"
    );
    assert!(
        !quote_found(&lines("let x = 2;"), &source),
        "a changed line"
    );
    assert!(!quote_found(&lines("x + y\n}\n}"), &source), "past the end");
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(slug("Set up and run"), "set-up-and-run");
    assert_eq!(
        slug("Playing levels (UCI_LimitStrength, UCI_Elo)"),
        "playing-levels-uci_limitstrength-uci_elo"
    );
    assert_eq!(
        slug("Opening books: kestrel book build|probe|dump|convert"),
        "opening-books-kestrel-book-buildprobedumpconvert"
    );
    assert_eq!(slug("File format (*.nnue)"), "file-format-nnue");
    assert_eq!(slug("A [link](x.md) here"), "a-link-here");
    let doc = Doc {
        name: String::new(),
        path: PathBuf::new(),
        prose: String::new(),
        headings: vec!["Tests".into(), "Tests".into(), "Speed".into()],
        blocks: Vec::new(),
        spans: Vec::new(),
        stray_markers: Vec::new(),
    };
    let a: Vec<String> = anchors(&doc).into_iter().collect();
    assert_eq!(a, ["speed", "tests", "tests-1"]);
}

#[test]
fn invocations_are_read_as_meant() {
    let w = |s: &str| invocations(s);
    assert_eq!(
        w("kestrel tune texel --data x"),
        [vec![vec!["tune".to_string()], vec!["texel".to_string()]]]
    );
    assert_eq!(
        w("kestrel book build|probe --x")[0][1],
        ["build".to_string(), "probe".to_string()]
    );
    assert_eq!(w("kestrel perft 6")[0].len(), 1);
    assert!(w("kestrel \"position startpos\"")[0].is_empty());
    assert!(w("printf 'x' | kestrel | grep y")[0].is_empty());
    assert!(w("kestrel match -engine cmd=kestrel name=a")[0].len() == 1);
    assert_eq!(w("uci:target/release/kestrel uci:x").len(), 0);
    assert_eq!(w("-fcp \"kestrel xboard\"")[0][0], ["xboard".to_string()]);
}
