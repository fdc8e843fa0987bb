//! The code's hygiene, read from the source so that a change that breaks it fails here:
//! - no source file over 600 lines (Rust in crates/ and tests/, JavaScript in www/, the
//!   benchmarks' and scripts' sources);
//! - no function over 100 lines in crates/ and www/ (a long step reads as named stages);
//! - no comment that names an issue number (history belongs in CHANGELOG.md).
use std::path::PathBuf;
use tumble_tests::{repo_root as repo, source_files as sources};

fn repo_sources() -> Vec<PathBuf> {
    let root = repo();
    let mut files = Vec::new();
    sources(&root.join("crates"), &["rs"], &mut files);
    sources(&root.join("tests"), &["rs", "mjs", "js"], &mut files);
    sources(&root.join("www"), &["js", "mjs"], &mut files);
    sources(&root.join("scripts"), &["sh", "mjs", "js"], &mut files);
    sources(
        &root.join("benches"),
        &["rs", "mjs", "js", "py", "sh"],
        &mut files,
    );
    files.sort();
    files
}

#[test]
fn no_source_file_is_over_600_lines() {
    let root = repo();
    let long: Vec<String> = repo_sources()
        .iter()
        .filter(|f| !f.to_string_lossy().contains("/fixtures/"))
        .map(|f| (f, std::fs::read_to_string(f).unwrap().lines().count()))
        .filter(|&(_, n)| n > 600)
        .map(|(f, n)| format!("{}: {n} lines", f.strip_prefix(&root).unwrap().display()))
        .collect();
    assert!(long.is_empty(), "split these (600 lines at most): {long:?}");
}

/// "issue" and a number, "issue #" and a number, "(#" and a number, in a comment or anywhere in code: the history is in
/// CHANGELOG.md, not in the code.
fn names_an_issue(line: &str) -> bool {
    let l = line.to_lowercase();
    let after_digits = |rest: &str| rest.chars().next().is_some_and(|c| c.is_ascii_digit());
    l.match_indices("issue").any(|(k, _)| {
        let rest = l[k + 5..].trim_start_matches(['s', ' ']);
        after_digits(rest.trim_start_matches('#'))
    }) || l
        .match_indices("(#")
        .any(|(k, _)| after_digits(&l[k + 2..]))
}

#[test]
fn no_comment_names_an_issue() {
    let (n, m) = (28, 12); // written apart so that this file does not name one itself
    assert!(names_an_issue(&format!("// why (issue {n})")));
    assert!(names_an_issue(&format!("//! issue #{n}: x")) && names_an_issue(&format!("(#{m})")));
    assert!(!names_an_issue("// the issue is the step"));
    let root = repo();
    let found: Vec<String> = repo_sources()
        .iter()
        .filter(|f| !f.to_string_lossy().contains("/fixtures/"))
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let rel = f.strip_prefix(&root).unwrap().display().to_string();
            text.lines()
                .enumerate()
                .filter(|(_, l)| names_an_issue(l))
                .map(|(i, _)| format!("{rel}:{}", i + 1))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        found.is_empty(),
        "name the reason, not the issue: {found:?}"
    );
}

/// The lines of a file with string and character literals blanked and `//` comments cut, the
/// literals followed across lines (a JS template, a Rust raw string), enough to count braces.
fn code_lines(text: &str, rust: bool) -> Vec<String> {
    let mut out = Vec::new();
    // inside a literal: its closing text ("\"", "'", "`", or "\"#" for a raw string)
    let mut close: Option<String> = None;
    for line in text.lines() {
        let (b, mut code, mut i) = (line.as_bytes(), String::new(), 0);
        while i < b.len() {
            if let Some(end) = &close {
                if b[i] == b'\\' && (end == "\"" || end == "'" || end == "`") {
                    i += 2;
                } else if b[i..].starts_with(end.as_bytes()) {
                    i += end.len();
                    close = None;
                } else {
                    i += 1;
                }
                continue;
            }
            let rest = &b[i..];
            if rest.starts_with(b"//") {
                break;
            } else if rest.starts_with(b"/*") {
                close = Some("*/".into());
                i += 2;
            } else if rust && (rest.starts_with(b"r#\"") || rest.starts_with(b"r\"")) {
                let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
                close = Some(format!("\"{}", "#".repeat(hashes)));
                i += 2 + hashes;
            } else if !rust && b[i] == b'/' && regex_may_start(&code) {
                i = regex_end(b, i);
            } else if b[i] == b'"' || (!rust && b[i] == b'`') {
                close = Some((b[i] as char).to_string());
                i += 1;
            } else if b[i] == b'\'' {
                // a JS string; in Rust a char literal ('{', '\\n') but not a lifetime ('a)
                let lifetime = rust
                    && b.get(i + 1)
                        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
                    && b.get(i + 2) != Some(&b'\'');
                if !lifetime {
                    close = Some("'".into());
                }
                i += 1;
            } else {
                code.push(b[i] as char);
                i += 1;
            }
        }
        out.push(code);
    }
    out
}

/// Whether a `/` after `code` starts a JS regular expression (not a division).
fn regex_may_start(code: &str) -> bool {
    let before = code.trim_end();
    before.is_empty()
        || before.ends_with("return")
        || before.ends_with(|c: char| "(,=:[!&|?{};".contains(c))
}

/// Where the regular expression that starts at `b[i]` ends (past its closing `/`).
fn regex_end(b: &[u8], mut i: usize) -> usize {
    let mut class = false;
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => class = true,
            b']' => class = false,
            b'/' if !class => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

/// Where a function starts on `line` (a line of code: literals blanked, comments cut), and its name: `fn name` in Rust; `function name`,
/// a method `name(...) {` or an arrow `name = (...) => {` in JavaScript.
fn function_start(line: &str, rust: bool) -> Option<String> {
    let t = line.trim_start();
    let word = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect()
    };
    if rust {
        let k = t.find("fn ")?;
        let before = &t[..k];
        let ok = before.split_whitespace().all(|w| {
            [
                "pub",
                "pub(crate)",
                "pub(super)",
                "const",
                "unsafe",
                "async",
                "extern",
            ]
            .contains(&w)
        });
        return ok.then(|| word(&t[k + 3..]));
    }
    if let Some(k) = t.find("function") {
        let name = word(t[k + 8..].trim_start_matches('*'));
        return Some(if name.is_empty() {
            "(anonymous)".into()
        } else {
            name
        });
    }
    let code = t.trim_end();
    if code.ends_with("=> {") {
        return Some(word(t));
    }
    let name = word(t.trim_start_matches("async ").trim_start_matches("static "));
    let keywords = [
        "if", "for", "while", "switch", "catch", "with", "return", "else", "do", "try",
    ];
    let after =
        t.trim_start_matches("async ").trim_start_matches("static ")[name.len()..].trim_start();
    (!name.is_empty()
        && !keywords.contains(&name.as_str())
        && after.starts_with('(')
        && code.ends_with(") {"))
    .then_some(name)
}

/// Every function of a file longer than `limit` lines, as (lines, name, first line).
fn long_functions(text: &str, rust: bool, limit: usize) -> Vec<(usize, String, usize)> {
    let lines = code_lines(text, rust);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = function_start(line, rust) else {
            continue;
        };
        let (mut depth, mut started) = (0i32, false);
        for (j, l) in lines.iter().enumerate().skip(i) {
            if rust && !started && l.contains(';') && !l.contains('{') {
                break; // a declaration without a body
            }
            for c in l.chars() {
                match c {
                    '{' => (depth, started) = (depth + 1, true),
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if started && depth <= 0 {
                if j + 1 - i > limit {
                    out.push((j + 1 - i, name.clone(), i + 1));
                }
                break;
            }
        }
    }
    out
}

#[test]
fn no_function_is_over_100_lines() {
    let sample = "fn a() {\n    let s = \"}\";\n    let c = '{';\n}\n".to_string()
        + "fn b<'x>(v: &'x str) {\n"
        + &"    x();\n".repeat(101)
        + "}\n";
    let found = long_functions(&sample, true, 100);
    assert_eq!(
        found,
        vec![(103, "b".to_string(), 5)],
        "the counter reads Rust"
    );
    let js =
        "export function f() {\n  const s = '}';\n".to_string() + &"  g();\n".repeat(99) + "}\n";
    assert_eq!(
        long_functions(&js, false, 100),
        vec![(102, "f".to_string(), 1)]
    );
    let root = repo();
    let mut files = Vec::new();
    sources(&root.join("crates"), &["rs"], &mut files);
    sources(&root.join("www"), &["js"], &mut files);
    files.sort();
    let long: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let rel = f.strip_prefix(&root).unwrap().display().to_string();
            let rust = rel.ends_with(".rs");
            long_functions(&text, rust, 100)
                .into_iter()
                .map(move |(n, name, at)| format!("{rel}:{at} {name}: {n} lines"))
        })
        .collect();
    assert!(
        long.is_empty(),
        "split these into named stages (100 lines at most): {long:#?}"
    );
}
