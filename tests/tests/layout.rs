//! The code's shape, read from the source so that a change that breaks it fails here:
//! - no import circle among the solver's files, counting every way one file reaches another:
//!   `crate::`, `super::` and `self::` paths, a mod.rs's paths into its own children, and names
//!   a module re-exports (`pub use`), followed to the file that defines them;
//! - no circle among the solver's top-level modules either, and the tree reads model ->
//!   compiled -> methods -> simulation (each imports only from the ones before it);
//!
//! (File and function sizes and issue numbers in comments: hygiene.rs.)
use std::collections::{BTreeMap, BTreeSet};
use tumble_tests::{repo_root as repo, source_files as sources};

/// The solver's files as (path relative to src/, text).
fn solver_files() -> Vec<(String, String)> {
    let src = repo().join("crates/tumble/src");
    let mut files = Vec::new();
    sources(&src, &["rs"], &mut files);
    files.sort();
    assert!(
        files.len() > 20,
        "the solver's sources were not found in {src:?}"
    );
    files
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

/// The code of a file without its `#[cfg(test)]` part, comments and the contents of strings.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap();
    let (b, mut out, mut i) = (text.as_bytes(), String::new(), 0);
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let end = text[i..].find("*/").map_or(b.len(), |k| i + k + 2);
            i = end;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i += 1;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// A path read from a use tree or an expression, with the name it is known by (`as`).
type UsePath = (Vec<String>, Option<String>);

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn ident(&mut self) -> Option<String> {
        self.ws();
        let start = self.i;
        while self.i < self.b.len() && is_ident(self.b[self.i]) {
            self.i += 1;
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.b[start..self.i]).into())
    }
    fn eat(&mut self, s: &str) -> bool {
        self.ws();
        let ok = self.b[self.i..].starts_with(s.as_bytes());
        if ok {
            self.i += s.len();
        }
        ok
    }
    /// One use tree (or path expression) after `prefix`: `a::b`, `a::{b, c::d}`, `a::*`, `a as b`.
    fn tree(&mut self, mut prefix: Vec<String>, out: &mut Vec<UsePath>) {
        if self.eat("{") {
            while !self.eat("}") && self.i < self.b.len() {
                let at = self.i;
                self.tree(prefix.clone(), out);
                self.eat(",");
                if self.i == at {
                    self.i += 1;
                }
            }
            return;
        }
        if self.eat("*") {
            out.push((prefix, None));
            return;
        }
        while let Some(id) = self.ident() {
            if id != "self" || prefix.is_empty() {
                prefix.push(id);
            }
            let save = self.i;
            if self.eat("::") {
                self.ws();
                if self.i < self.b.len() && (self.b[self.i] == b'{' || self.b[self.i] == b'*') {
                    return self.tree(prefix, out);
                }
                continue;
            }
            self.i = save;
            break;
        }
        let save = self.i;
        let alias = if self.eat("as") && self.b.get(self.i).is_some_and(|c| !is_ident(*c)) {
            self.ident()
        } else {
            self.i = save;
            None
        };
        if !prefix.is_empty() {
            out.push((prefix, alias));
        }
    }
}

/// Every path in `code` that starts with one of `roots` followed by `::`.
fn paths_from(code: &str, roots: &BTreeSet<String>) -> Vec<UsePath> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let boundary = i == 0 || (!is_ident(b[i - 1]) && b[i - 1] != b':');
        if !(boundary && is_ident(b[i])) {
            i += 1;
            continue;
        }
        let mut r = Reader { b, i };
        let id = r.ident().unwrap();
        if roots.contains(&id) && r.eat("::") {
            let mut r = Reader { b, i };
            r.tree(Vec::new(), &mut out);
            i = r.i.max(i + 1);
        } else {
            i += id.len();
        }
    }
    out
}

/// The `pub use` paths of a file (re-exports), with the names they export.
fn reexports(code: &str) -> Vec<UsePath> {
    let mut out = Vec::new();
    for (k, _) in code.match_indices("pub use ") {
        let mut r = Reader {
            b: code.as_bytes(),
            i: k + 8,
        };
        r.tree(Vec::new(), &mut out);
    }
    for (k, _) in code.match_indices("pub(crate) use ") {
        let mut r = Reader {
            b: code.as_bytes(),
            i: k + 15,
        };
        r.tree(Vec::new(), &mut out);
    }
    out
}

/// The names a file defines (functions, types, constants, statics, traits, macros).
fn definitions(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'))
        .filter(|w| !w.is_empty())
        .collect();
    for w in words.windows(2) {
        if [
            "fn",
            "struct",
            "enum",
            "const",
            "static",
            "type",
            "trait",
            "union",
            "macro_rules!",
        ]
        .contains(&w[0])
        {
            out.insert(w[1].to_string());
        }
    }
    out
}

/// The solver's files as a graph: file -> the files it names.
struct Files {
    /// module path (`contact::broad`) -> file index
    module: BTreeMap<Vec<String>, usize>,
    names: Vec<String>,
    mods: Vec<Vec<String>>,
    code: Vec<String>,
    defs: Vec<BTreeSet<String>>,
}

impl Files {
    fn new(files: &[(String, String)]) -> Files {
        let mods: Vec<Vec<String>> = files
            .iter()
            .map(|(rel, _)| {
                let mut m: Vec<String> = rel
                    .trim_end_matches(".rs")
                    .split('/')
                    .map(Into::into)
                    .collect();
                if matches!(m.last().map(String::as_str), Some("mod" | "lib")) {
                    m.pop();
                }
                m
            })
            .collect();
        let code: Vec<String> = files.iter().map(|(_, t)| code_of(t)).collect();
        Files {
            module: mods
                .iter()
                .cloned()
                .enumerate()
                .map(|(i, m)| (m, i))
                .collect(),
            names: files.iter().map(|(r, _)| r.clone()).collect(),
            defs: code.iter().map(|c| definitions(c)).collect(),
            mods,
            code,
        }
    }

    /// The child modules of file `f` (the names its relative paths may start with).
    fn children(&self, f: usize) -> BTreeSet<String> {
        let m = &self.mods[f];
        self.mods
            .iter()
            .filter(|c| c.len() == m.len() + 1 && c.starts_with(m))
            .map(|c| c.last().unwrap().clone())
            .collect()
    }

    /// The file that defines what `path`, written in file `f`, names.
    fn resolve(&self, f: usize, path: &[String], depth: usize) -> Option<usize> {
        let mut m = self.mods[f].clone();
        let mut rest = path;
        match rest.first()?.as_str() {
            "crate" => {
                m.clear();
                rest = &rest[1..];
            }
            "self" => rest = &rest[1..],
            "super" => {
                while rest.first().is_some_and(|s| s == "super") {
                    m.pop()?;
                    rest = &rest[1..];
                }
            }
            _ => {}
        }
        while let Some(next) = rest.first() {
            let mut deeper = m.clone();
            deeper.push(next.clone());
            if !self.module.contains_key(&deeper) {
                break;
            }
            m = deeper;
            rest = &rest[1..];
        }
        let file = *self.module.get(&m)?;
        let Some(item) = rest.first() else {
            return Some(file);
        };
        if self.defs[file].contains(item) || depth > 8 {
            return Some(file);
        }
        // a name the module re-exports: follow it to the file that defines it
        for (p, alias) in reexports(&self.code[file]) {
            let exported = alias.as_ref().or(p.last());
            if exported == Some(item) {
                return self.resolve(file, &p, depth + 1).or(Some(file));
            }
        }
        Some(file)
    }

    fn graph(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut g = BTreeMap::new();
        for f in 0..self.names.len() {
            let mut roots = self.children(f);
            roots.extend(["crate", "super", "self"].map(String::from));
            let deps: BTreeSet<String> = paths_from(&self.code[f], &roots)
                .iter()
                .filter_map(|(p, _)| self.resolve(f, p, 0))
                .filter(|&t| t != f)
                .map(|t| self.names[t].clone())
                .collect();
            g.insert(self.names[f].clone(), deps);
        }
        g
    }
}

/// A cycle in `graph` if there is one (depth-first search with the path on a stack).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        v: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        path.push(v.to_string());
        for w in g.get(v).into_iter().flatten() {
            match state.get(w.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = path.iter().position(|x| x == w).unwrap();
                    let mut c = path[at..].to_vec();
                    c.push(w.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(w, g, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in graph.keys() {
        if state.get(v.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(v, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

/// The file graph folded onto top-level modules (`contact/broad.rs` -> `contact`).
fn top_level(files: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let top = |f: &str| {
        f.split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string()
    };
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (f, deps) in files {
        if f == "lib.rs" {
            continue;
        }
        let m = top(f);
        let entry = g.entry(m.clone()).or_default();
        entry.extend(
            deps.iter()
                .map(|d| top(d))
                .filter(|d| *d != m && d != "lib"),
        );
    }
    g
}

#[test]
fn no_import_circle_among_the_solver_files_or_modules() {
    let files = Files::new(&solver_files());
    let graph = files.graph();
    assert_eq!(
        find_cycle(&graph),
        None,
        "an import circle among the solver's files"
    );
    let top = top_level(&graph);
    assert!(top["methods"].contains("step") && top["simulation"].contains("methods"));
    let order = ["model", "compiled", "methods", "simulation"];
    for (i, m) in order.iter().enumerate() {
        for later in &order[i + 1..] {
            assert!(
                !top[*m].contains(*later),
                "{m} imports {later}, which comes after it (model -> compiled -> methods -> simulation)"
            );
        }
    }
    assert_eq!(
        find_cycle(&top),
        None,
        "an import circle among the solver's modules"
    );
}

/// The reading finds the circles it is meant to: through `super::`, through a mod.rs's path
/// into its child, through a name re-exported by a parent, and through `self::` in a group.
#[test]
fn the_circle_check_sees_super_children_and_reexports() {
    let f = |p: &str, t: &str| (p.to_string(), t.to_string());
    let clean = vec![
        f("lib.rs", "pub mod a; pub mod z;"),
        f(
            "a/mod.rs",
            "mod b; mod c; pub use c::X; pub fn run() { b::go() }",
        ),
        f("a/b.rs", "use super::c::X; pub fn go() { let _ = X; }"),
        f(
            "a/c.rs",
            "pub struct X; // super::b::go would close a circle",
        ),
        f("z.rs", "use crate::a::{self, X}; fn f() { a::run(); }"),
    ];
    let g = Files::new(&clean).graph();
    assert_eq!(find_cycle(&g), None, "{g:?}");
    assert!(
        g["z.rs"].contains("a/c.rs"),
        "a re-exported name leads to its file: {g:?}"
    );
    assert!(
        g["a/mod.rs"].contains("a/b.rs"),
        "a mod.rs's path into its child: {g:?}"
    );

    let circles = [
        // the child reaches back into its parent, which calls it
        ("a/b.rs", "pub fn go() { super::run() }"),
        // the child names a re-exported name that lives in a file that names the child
        ("a/b.rs", "use super::X; pub fn go() {}"),
    ];
    for (path, text) in circles {
        let mut files = clean.clone();
        if path == "a/b.rs" && text.contains("super::X") {
            files[3] = f("a/c.rs", "pub struct X; fn g() { super::b::go() }");
        }
        files.iter_mut().find(|(p, _)| p == path).unwrap().1 = text.to_string();
        let g = Files::new(&files).graph();
        assert!(
            find_cycle(&g).is_some(),
            "missed the circle of {text:?}: {g:?}"
        );
    }
    let mut top = top_level(&g);
    top.get_mut("a").unwrap().insert("z".into());
    assert!(find_cycle(&top).is_some());
}
