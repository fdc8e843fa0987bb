//! The solver's shape: its modules stack without an import cycle, the tree reads model ->
//! compiled -> methods -> simulation (each imports only from the ones before it), and no
//! source file is much over 600 lines. Read from the source, so a change that breaks either fails here.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn solver_sources() -> (PathBuf, Vec<PathBuf>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/tumble/src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    assert!(
        files.len() > 20,
        "the solver's sources were not found in {src:?}"
    );
    (src, files)
}

/// The top-level module a file belongs to (`director/condensed.rs` -> `director`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// The top-level modules named by `crate::m` in `text` outside its `#[cfg(test)]` part.
fn imports(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap();
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            // use crate::{a, b::c, d::{e, f}}: the first name of each item at depth 0
            let (mut depth, mut start) = (0, 0);
            for (k, ch) in group.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.insert(ident(&group[start..k]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.insert(ident(&group[start..k]));
                        start = k + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out.remove("");
    out
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

#[test]
fn the_solver_modules_have_no_import_cycle() {
    let (src, files) = solver_sources();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let m = module_of(&src, f);
        if m == "lib" {
            continue;
        }
        let deps = imports(&std::fs::read_to_string(f).unwrap());
        let entry = graph.entry(m.clone()).or_default();
        entry.extend(deps.into_iter().filter(|d| *d != m));
    }
    assert!(graph["methods"].contains("step") && graph["simulation"].contains("methods"));
    // model -> compiled -> methods -> simulation: none imports one after it
    let order = ["model", "compiled", "methods", "simulation"];
    for (i, m) in order.iter().enumerate() {
        for later in &order[i + 1..] {
            assert!(
                !graph[*m].contains(*later),
                "{m} imports {later}, which comes after it (model -> compiled -> methods -> simulation)"
            );
        }
    }
    assert_eq!(
        find_cycle(&graph),
        None,
        "an import cycle among the solver's modules"
    );
    // and the check finds one where there is one
    let mut bad = graph.clone();
    bad.get_mut("step").unwrap().insert("simulation".into());
    assert!(find_cycle(&bad).is_some());
}

#[test]
fn no_solver_file_is_much_over_600_lines() {
    let (src, files) = solver_sources();
    let long: Vec<String> = files
        .iter()
        .map(|f| (f, std::fs::read_to_string(f).unwrap().lines().count()))
        .filter(|&(_, n)| n > 620)
        .map(|(f, n)| format!("{}: {n} lines", f.strip_prefix(&src).unwrap().display()))
        .collect();
    assert!(
        long.is_empty(),
        "split these (about 600 lines at most): {long:?}"
    );
}
