//! Every repository path the documentation names exists: README.md, docs/*.md and
//! benches/README.md (CHANGELOG.md is history and may name files that have since moved).
//!
//! What counts as a path, in each file's text:
//! - any token that starts with a top-level folder (`crates/`, `www/`, `tests/`, `docs/`,
//!   `scripts/`, `benches/`), anywhere, fenced code included, read from the repository root;
//! - any backquoted span of path characters (no spaces) that ends in a known extension (`.rs`,
//!   `.js`, `.mjs`, `.md`, `.css`, `.html`, `.sh`, `.py`) or in '/' (a folder): a full path from the root, or
//!   the tail of one (`contact/law.rs`, `broad.rs`, `study/`), which must be the end, at a '/',
//!   of at least one file or folder in the repository. A tail is a short name for the reader,
//!   so it may fit several files (`forces.rs`); where a doc means one file in particular it
//!   should give its full path;
//! - every link target `](...)` that is not a URL or an anchor, read relative to the file
//!   that holds it (as GitHub does), which must exist as written.
//!
//! Not checked, because a fresh clone lacks them on purpose: build outputs and installed
//! packages (`www/pkg/`, `www/vendor/`, `tests/out/`, `benches/peers/.venv`, `target/`,
//! `node_modules/`) and the files of third-party packages that the docs describe (MuJoCo's
//! `mujoco.js` and `mt/`, uPlot's files, the wasm module's `tumble_wasm.js`), listed in `OUTSIDE`.
//! On failure the test lists every missing path with its file and line.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const TOP: [&str; 6] = ["crates/", "www/", "tests/", "docs/", "scripts/", "benches/"];
const EXTENSIONS: [&str; 8] = [".rs", ".js", ".mjs", ".md", ".css", ".html", ".sh", ".py"];
/// Build outputs under the top-level folders (git-ignored).
const GENERATED: [&str; 4] = ["www/pkg", "www/vendor", "tests/out", "benches/peers/.venv"];
/// Backquoted names of things outside the repository: build outputs, installed packages and
/// the files of third-party packages (a span equal to one, or starting with one that ends in '/').
const OUTSIDE: [&str; 9] = [
    "target/",
    "node_modules/",
    "pkg/",
    "vendor/",
    "mt/",
    "mujoco.js",
    "tumble_wasm.js",
    "uPlot.esm.js",
    "uPlot.min.css",
];
/// Folders not walked anywhere: build outputs and installed packages.
const SKIP_DIRS: [&str; 2] = ["target", "node_modules"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file and folder under the top-level folders, as paths from the root ("a/b.rs", "a/").
fn repository_paths(root: &Path) -> BTreeSet<String> {
    fn walk(root: &Path, rel: &str, out: &mut BTreeSet<String>) {
        let Ok(entries) = std::fs::read_dir(root.join(rel)) else {
            return;
        };
        for e in entries {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let path = format!("{rel}{name}");
            if e.file_type().unwrap().is_dir() {
                if SKIP_DIRS.contains(&name.as_str()) || name.starts_with('.') || generated(&path) {
                    continue;
                }
                out.insert(format!("{path}/"));
                walk(root, &format!("{path}/"), out);
            } else {
                out.insert(path);
            }
        }
    }
    let mut out = BTreeSet::new();
    for top in TOP {
        out.insert(top.to_string());
        walk(root, top, &mut out);
    }
    out
}

fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')
}

/// A token as a path: trailing punctuation of the sentence removed.
fn trim(token: &str) -> &str {
    token.trim_end_matches(['.', ',', ':', ';'])
}

/// Tokens starting with a top-level folder, at a word boundary.
fn rooted_tokens(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in line.char_indices() {
        let before = line[..i].chars().next_back();
        if before.is_some_and(|c| is_path_char(c) || c == '~' || c == '$' || c == '@') {
            continue;
        }
        let rest = &line[i..];
        if TOP.iter().any(|t| rest.starts_with(t)) {
            let end = rest.find(|c: char| !is_path_char(c)).unwrap_or(rest.len());
            out.push(trim(&rest[..end]).to_string());
        }
    }
    out
}

/// Backquoted spans outside fenced code.
fn backquoted(line: &str) -> Vec<String> {
    line.split('`')
        .skip(1)
        .step_by(2)
        .map(|s| trim(s).to_string())
        .collect()
}

/// Link targets `](...)`.
fn links(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
        }
    }
    out
}

fn looks_like_path(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(is_path_char)
        && (s.ends_with('/') || EXTENSIONS.iter().any(|e| s.ends_with(e)))
        && !s.starts_with('.')
        && !s.starts_with('/')
        && !s.contains("//")
        && !OUTSIDE
            .iter()
            .any(|o| s == *o || (o.ends_with('/') && s.starts_with(o)))
}

fn generated(path: &str) -> bool {
    GENERATED
        .iter()
        .any(|g| path == *g || path.starts_with(&format!("{g}/")))
}

/// A full path, or the tail of one at a '/' boundary.
fn names_something(paths: &BTreeSet<String>, s: &str) -> bool {
    let dir = format!("{}/", s.trim_end_matches('/'));
    let candidates = if s.ends_with('/') {
        vec![dir]
    } else {
        vec![s.to_string(), dir]
    };
    candidates.iter().any(|c| {
        paths.contains(c)
            || paths
                .iter()
                .any(|p| p.ends_with(c.as_str()) && p[..p.len() - c.len()].ends_with('/'))
    })
}

fn docs() -> Vec<String> {
    let root = root();
    let mut files = vec!["README.md".to_string(), "benches/README.md".to_string()];
    let mut in_docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    in_docs.sort();
    files.extend(in_docs);
    files
}

#[test]
fn every_path_the_docs_name_exists() {
    let root = root();
    let paths = repository_paths(&root);
    assert!(
        paths.contains("crates/tumble/src/lib.rs"),
        "the repository was not found at {root:?}"
    );
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in docs() {
        let text = std::fs::read_to_string(root.join(&doc)).unwrap();
        let dir = Path::new(&doc).parent().unwrap().to_path_buf();
        let mut fenced = false;
        for (n, line) in text.lines().enumerate() {
            let mut report = |what: &str| missing.push(format!("{doc}:{}: {what}", n + 1));
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            for t in rooted_tokens(line) {
                checked += 1;
                let full = [t.clone(), format!("{}/", t.trim_end_matches('/'))];
                if !generated(&t) && !full.iter().any(|p| paths.contains(p)) {
                    report(&t);
                }
            }
            if fenced {
                continue;
            }
            for s in backquoted(line) {
                if looks_like_path(&s) && !generated(&s) && !TOP.iter().any(|t| s.starts_with(t)) {
                    checked += 1;
                    if !names_something(&paths, &s) {
                        report(&s);
                    }
                }
            }
            for l in links(line) {
                if l.contains("://") || l.starts_with('#') || l.starts_with("mailto:") {
                    continue;
                }
                let target = l.split('#').next().unwrap();
                checked += 1;
                if !root.join(&dir).join(target).exists() {
                    report(&format!("link {l}"));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} paths found in the docs");
    assert!(
        missing.is_empty(),
        "{} paths named in the docs do not exist:\n{}",
        missing.len(),
        missing.join("\n")
    );
}
