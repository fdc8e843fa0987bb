//! What the page's scenario editor needs beyond `Scenario::parse` to point at a mistake, kept in
//! the wasm layer so the solver crate stays as it is: [`check`] parses a text and, when it is
//! rejected, names the field (a JSON path such as `bodies[2].inertia`) and the line and column
//! the message is about. The editor's JSON export is in [`crate::export`].
//!
//! Everything here treats the text as untrusted: the scanner is iterative (no recursion), stops
//! at a depth of [`MAX_DEPTH`] and reads each byte at most once per call.
use std::fmt::Write as _;
use tumble::Scenario;

/// Deepest nesting the locating scanner follows (serde_json itself stops at 128).
pub const MAX_DEPTH: usize = 256;
/// Longest key (characters) quoted in a path.
const MAX_KEY: usize = 40;

/// A rejected text: the message (naming the field, ending with the line and column when known),
/// the field's JSON path ("" when the message is about the whole text), and 1-based line and
/// column (0 when unknown).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Problem {
    pub message: String,
    pub path: String,
    pub line: usize,
    pub column: usize,
}

/// Parse `text` as `Scenario::parse` does; on failure, the problem located in the text.
pub fn check(text: &str) -> Result<Scenario, Problem> {
    Scenario::parse(text).map_err(|e| locate(text, &e.0))
}

/// Place a message from `Scenario::parse` in the text: serde's "at line L column C" gives the
/// position (the path is what the scanner finds there); a validation message names the path
/// first ("bodies[2].inertia ...") and the scanner finds where it is written.
pub fn locate(text: &str, msg: &str) -> Problem {
    let json = text.trim_start().starts_with('{');
    if !json {
        return Problem {
            message: msg.to_string(),
            path: String::new(),
            line: 0,
            column: 0,
        };
    }
    if let Some((body, line, column)) = serde_position(msg) {
        let body = body.strip_prefix("scenario JSON: ").unwrap_or(body);
        let offset = offset_of_line_column(text, line, column);
        let mut path = path_at(text, offset);
        // serde reads a tagged element (a force, a time function) whole before it looks at its
        // fields, so it places a field's error after the element's end: an unknown field is
        // placed at its key (the last key of that name before the end), a missing or invalid
        // one at the element just closed (not a text that ends early: that is about its end)
        let key_at = unknown_field(body).and_then(|k| last_key_before(text, k, offset));
        let (line, column) = if let Some((at, p)) = key_at {
            path = p;
            line_column(text, at)
        } else if let Some((at, p)) = closed_before(text, offset).filter(|(_, p)| {
            !body.starts_with("EOF") && p.starts_with(&path) && p.len() > path.len()
        }) {
            path = p;
            line_column(text, at)
        } else if line == 0 {
            (1, 1)
        } else {
            (line, column.max(1))
        };
        let field = if path.is_empty() {
            "the scenario".to_string()
        } else {
            path.clone()
        };
        return Problem {
            message: format!("{field}: {body} (line {line}, column {column})"),
            path,
            line,
            column,
        };
    }
    let mut path = leading_path(msg);
    if path.is_empty() && msg.starts_with("the joints") {
        path = "joints".to_string();
    }
    // a message about bodies that meet ("contact: the spheres of bodies 0 and 1 start ...
    // inside each other", from the run's start) is placed at the last body it names
    let named = (path.is_empty() || path == "contact")
        .then(|| named_body(msg))
        .flatten();
    if let Some(b) = named {
        path = format!("bodies[{b}]");
    }
    // the field itself, or the nearest enclosing one that is written (defaults are not)
    let mut at = None;
    let mut p = path.clone();
    while !p.is_empty() {
        if let Some(o) = offset_of(text, &p) {
            at = Some(o);
            break;
        }
        p = parent(&p);
    }
    let (line, column) = line_column(text, at.unwrap_or(text.len() - text.trim_start().len()));
    let message = if path.is_empty() || msg.starts_with(&path) || named.is_some() {
        msg.to_string()
    } else {
        format!("{path}: {msg}")
    };
    Problem {
        message: format!("{message} (line {line}, column {column})"),
        path,
        line,
        column,
    }
}

/// The last body a message names: "... bodies 0 and 3 ..." or "... of body 3 ..." -> 3.
fn named_body(msg: &str) -> Option<usize> {
    let number = |t: &str| {
        let end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        t[..end].parse::<usize>().ok()
    };
    let pair = msg.rfind("bodies ").and_then(|i| {
        let (_, rest) = msg[i + 7..].split_once(" and ")?;
        Some((i, number(rest)?))
    });
    let one = msg
        .rfind("body ")
        .and_then(|i| Some((i, number(&msg[i + 5..])?)));
    match (pair, one) {
        (Some((i, a)), Some((j, b))) => Some(if i > j { a } else { b }),
        (p, o) => p.or(o).map(|(_, b)| b),
    }
}

/// "unknown field `rat`, expected ..." -> "rat"
fn unknown_field(msg: &str) -> Option<&str> {
    let (_, rest) = msg.split_once("unknown field `")?;
    rest.split_once('`').map(|(k, _)| k)
}

/// The last key `key` written before byte `offset`: its offset and path.
fn last_key_before(text: &str, key: &str, offset: usize) -> Option<(usize, String)> {
    let mut found = None;
    scan(text, |stack, tok, start, _end, before| {
        if start > offset {
            return true;
        }
        if let Tok::Key(k) = tok {
            if !before && k == key {
                found = Some((start, path_of(stack)));
            }
        }
        false
    });
    found
}

/// The last object (a body, a joint, a force, a time function ...) that closes at or before
/// byte `offset`, if nothing but whitespace, commas and closing brackets follow it up to there:
/// the offset where it opens and its path.
fn closed_before(text: &str, offset: usize) -> Option<(usize, String)> {
    let mut opened: Vec<usize> = Vec::new();
    let mut found = None;
    scan(text, |stack, tok, start, _end, before| {
        if start > offset {
            return true;
        }
        match tok {
            Tok::Open if before => {
                opened.push(start);
                found = None;
            }
            Tok::Close if before => {
                let at = opened.pop();
                if let (Some(at), Some(Frame::Obj { .. })) = (at, stack.last()) {
                    found = Some((at, path_of(&stack[..stack.len() - 1])));
                }
            }
            Tok::Close | Tok::Comma | Tok::Open => {}
            _ if before => found = None,
            _ => {}
        }
        false
    });
    found
}

/// "... at line 3 column 14" -> ("...", 3, 14)
fn serde_position(msg: &str) -> Option<(&str, usize, usize)> {
    let (head, tail) = msg.rsplit_once(" at line ")?;
    let (l, c) = tail.split_once(" column ")?;
    Some((head, l.parse().ok()?, c.parse().ok()?))
}

/// "bodies[2].inertia must ..." -> "bodies[2].inertia"; "dt must ..." -> "dt"
fn leading_path(msg: &str) -> String {
    let end = msg
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '[' | ']' | '.')))
        .unwrap_or(msg.len());
    let p = msg[..end].trim_end_matches('.');
    let known = [
        "gravity", "dt", "duration", "bodies", "joints", "forces", "drives", "contact",
    ];
    let head = p.split(['[', '.']).next().unwrap_or("");
    if known.contains(&head) {
        p.to_string()
    } else {
        String::new()
    }
}

fn parent(p: &str) -> String {
    match p.rfind(['[', '.']) {
        Some(i) => p[..i].to_string(),
        None => String::new(),
    }
}

/// Byte offset of serde's 1-based line and column (serde counts the column in bytes).
fn offset_of_line_column(text: &str, line: usize, column: usize) -> usize {
    if line == 0 {
        return 0;
    }
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    (start + column.saturating_sub(1)).min(text.len())
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

enum Frame {
    Obj { key: Option<String>, want_key: bool },
    Arr { index: usize },
}

fn path_of(stack: &[Frame]) -> String {
    let mut s = String::new();
    for f in stack {
        match f {
            Frame::Obj { key: Some(k), .. } => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Frame::Obj { key: None, .. } => break,
            Frame::Arr { index } => {
                let _ = write!(s, "[{index}]");
            }
        }
    }
    s
}

/// One token of the scan: its kind, start and end (exclusive).
#[derive(PartialEq)]
enum Tok {
    Open,
    Close,
    Colon,
    Comma,
    Key(String),
    Value,
}

/// Walk the text token by token, keeping the stack of containers; `visit(stack, tok, start, end,
/// before)` is called before (`before = true`) and after each token is applied; it returns true
/// to stop. The walk also stops at malformed input or beyond MAX_DEPTH.
fn scan(text: &str, mut visit: impl FnMut(&[Frame], &Tok, usize, usize, bool) -> bool) {
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let tok = match c {
            b'{' | b'[' => {
                i += 1;
                Tok::Open
            }
            b'}' | b']' => {
                i += 1;
                Tok::Close
            }
            b':' => {
                i += 1;
                Tok::Colon
            }
            b',' => {
                i += 1;
                Tok::Comma
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                let want_key = matches!(stack.last(), Some(Frame::Obj { want_key: true, .. }));
                if want_key {
                    let raw = &text[start + 1..i.saturating_sub(1).max(start + 1)];
                    Tok::Key(raw.chars().take(MAX_KEY).collect())
                } else {
                    Tok::Value
                }
            }
            _ => {
                while i < b.len() && !b"{}[]:,\" \t\r\n".contains(&b[i]) {
                    i += 1;
                }
                Tok::Value
            }
        };
        if visit(&stack, &tok, start, i, true) {
            return;
        }
        match &tok {
            Tok::Open => {
                if stack.len() >= MAX_DEPTH {
                    return;
                }
                stack.push(if c == b'{' {
                    Frame::Obj {
                        key: None,
                        want_key: true,
                    }
                } else {
                    Frame::Arr { index: 0 }
                });
            }
            Tok::Close => {
                stack.pop();
            }
            Tok::Colon => {
                if let Some(Frame::Obj { want_key, .. }) = stack.last_mut() {
                    *want_key = false;
                }
            }
            Tok::Comma => match stack.last_mut() {
                Some(Frame::Obj { key, want_key }) => {
                    *key = None;
                    *want_key = true;
                }
                Some(Frame::Arr { index }) => *index += 1,
                None => return,
            },
            Tok::Key(k) => {
                if let Some(Frame::Obj { key, .. }) = stack.last_mut() {
                    *key = Some(k.clone());
                }
            }
            Tok::Value => {}
        }
        if visit(&stack, &tok, start, i, false) {
            return;
        }
    }
}

/// The JSON path of the innermost field at byte `offset` ("" at the top level).
pub fn path_at(text: &str, offset: usize) -> String {
    let mut found = String::new();
    scan(text, |stack, tok, start, end, before| {
        // a closing bracket at the offset: the container it closes is the field
        if before && *tok == Tok::Close && start >= offset {
            found = path_of(&stack[..stack.len().saturating_sub(1)]);
            return true;
        }
        if before && start > offset {
            found = path_of(stack);
            return true;
        }
        if !before && end > offset {
            found = path_of(stack);
            return true;
        }
        // at the end of the text: the innermost open container (an unclosed list, not its last element)
        found = match stack.last() {
            Some(Frame::Arr { .. }) => path_of(&stack[..stack.len() - 1]),
            _ => path_of(stack),
        };
        false
    });
    found
}

/// Byte offset where the field `path` is written (its key, or an array element's value).
pub fn offset_of(text: &str, path: &str) -> Option<usize> {
    let mut at = None;
    scan(text, |stack, tok, start, _end, before| {
        let hit = match tok {
            Tok::Key(_) if !before => path_of(stack) == path,
            Tok::Open | Tok::Value if before && matches!(stack.last(), Some(Frame::Arr { .. })) => {
                path_of(stack) == path
            }
            _ => false,
        };
        if hit {
            at = Some(start);
        }
        hit
    });
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_name_the_field_line_and_column() {
        let cases = [
            ("{\"bodies\": [\n {\"mass\": \"x\", \"inertia\": [1, 1, 1]}]}", "bodies[0].mass", 2),
            ("{\"bodies\": [\n {\"inertia\": [1, 1, 1]}\n]}", "bodies[0]", 2),
            ("{\"bodies\": [\n {\"mass\": 1, \"inertia\": [1, 1, 1],\n \"colour\": 3}]}", "bodies[0].colour", 3),
            ("{\"bodies\": [\n {\"mass\": 1, \"inertia\": [1, 1, 1]},\n {\"mass\": -1, \"inertia\": [1, 1, 1]}]}", "bodies[1].mass", 3),
            ("{\"bodies\": [\n {\"mass\": 1, \"inertia\": [1, 1, 3]}]}", "bodies[0].inertia", 2),
            ("{\"bodies\": [{\"mass\": 1, \"inertia\": [1, 1, 1]}],\n \"joints\": [{\"type\": \"spherical\", \"a\": 0, \"b\": 0}]}", "joints[0]", 2),
            ("{\"bodies\": [{\"mass\": 1, \"inertia\": [1, 1, 1]}],\n\n \"dt\": 0}", "dt", 3),
            ("{\"bodies\": [{\"mass\": 1, \"inertia\": [1, 1, 1]}\n", "bodies", 2),
            ("{\"bodies\": [{\"mass\": 1, \"inertia\": [1, 1, 1, 4]}]}", "bodies[0].inertia", 1),
            ("{\"bodies\": [{\"mass\": 1,\n \"inertia\": [1, 1, 1]}],\n \"dt\": NaN}", "dt", 3),
        ];
        for (text, path, line) in cases {
            let p = check(text).unwrap_err();
            assert_eq!((p.path.as_str(), p.line), (path, line), "{text}: {p:?}");
            assert!(
                p.message.contains(path) && p.message.contains(&format!("line {line}, column ")),
                "{p:?}"
            );
        }
    }

    #[test]
    fn problems_inside_forces_and_drives_are_placed_at_their_field() {
        let head = "{\"bodies\": [{\"mass\": 2, \"inertia\": [1, 1, 1], \"position\": [0, 0, -1]}],\n \"joints\": [{\"type\": \"revolute\", \"b\": 0, \"point_b\": [0, 0, 1]}],\n";
        let cases = [
            // validation messages (they name the field)
            ("\"forces\": [\n {\"type\": \"joint_spring\", \"joint\": 0,\n \"stiffness\": -3}]}", "forces[0].stiffness", 5),
            ("\"forces\": [\n {\"type\": \"motor\", \"joint\": 3, \"torque\": 1}]}", "forces[0].joint", 4),
            ("\"forces\": [\n {\"type\": \"torque\", \"body\": 0, \"torque\": [0, 0, 1],\n \"time\": {\"kind\": \"sine\", \"frequency\": -1}}]}", "forces[0].time.frequency", 5),
            ("\"drives\": [\n {\"joint\": 0, \"type\": \"angle\", \"time\": {\"kind\": \"constant\", \"value\": 1}}]}", "drives[0]", 4),
            ("\"drives\": [\n {\"joint\": 5, \"type\": \"angle\",\n \"time\": {\"kind\": \"linear\", \"rate\": 0}}]}", "drives[0].joint", 4),
            ("\"drives\": [\n {\"joint\": 0, \"type\": \"angle\",\n \"time\": {\"kind\": \"ramp\", \"time\": -1}}]}", "drives[0].time.time", 5),
            // serde's messages about tagged elements (placed after the element by serde)
            ("\"forces\": [\n {\"type\": \"joint_spring\", \"joint\": 0,\n \"stifness\": 3\n }\n]}", "forces[0].stifness", 5),
            ("\"forces\": [\n {\"type\": \"motor\", \"joint\": 0}\n]}", "forces[0]", 4),
            ("\"drives\": [\n {\"joint\": 0, \"type\": \"angle\",\n \"time\": {\"kind\": \"linear\",\n \"rat\": 0}}]}", "drives[0].time.rat", 6),
            ("\"forces\": [\n {\"type\": \"jointspring\", \"joint\": 0}]}", "forces[0].type", 4),
            // a field inside a tagged element, whatever the order of its keys
            ("\"forces\": [\n {\"type\": \"motor\",\n \"joint\": -1, \"torque\": 1}]}", "forces[0].joint", 5),
            ("\"forces\": [\n {\"joint\": 0, \"torque\": 1,\n \"time\": {\"kind\": \"boom\"}, \"type\": \"motor\"}]}", "forces[0].time.kind", 5),
            ("\"contact\": {\"planes\": [\n {\"point\": [0, 0, 0],\n \"normal\": [0, 0, \"up\"]}]}}", "contact.planes[0].normal[2]", 5),
        ];
        for (tail, path, line) in cases {
            let text = format!("{head}{tail}");
            let p = check(&text).unwrap_err();
            assert_eq!((p.path.as_str(), p.line), (path, line), "{text}: {p:?}");
            assert!(
                p.message.contains(&format!("line {line}, column ")),
                "{p:?}"
            );
        }
    }

    #[test]
    fn bodies_that_meet_are_placed_at_the_last_body_named() {
        let text = "{\"bodies\": [\n {\"mass\": 1, \"inertia\": [1, 1, 1]},\n {\"mass\": 1, \"inertia\": [1, 1, 1]}]}";
        for msg in [
            "contact: the spheres of bodies 0 and 1 start 0.09 m inside each other, more than a quarter of the smaller radius (0.025 m): the contact would throw them apart; start them apart or touching",
            "contact: a sphere or capsule of body 0 starts 0.2 m inside the box of body 1, more than a quarter of its size (0.1 m): the contact would throw them apart; start them apart or touching",
        ] {
            let p = locate(text, msg);
            assert_eq!((p.path.as_str(), p.line, p.column), ("bodies[1]", 3, 2), "{p:?}");
            assert_eq!(p.message, format!("{msg} (line 3, column 2)"));
        }
    }

    #[test]
    fn hostile_text_is_located_without_recursion_or_quadratic_time() {
        let deep = "[".repeat(500_000);
        let p = check(&format!("{{\"bodies\": {deep}")).unwrap_err();
        assert!(
            p.message
                .starts_with("bodies[0][0]: must be a number, not a list")
                && p.line == 1,
            "{p:?}"
        );
        for t in [
            "{",
            "{\"",
            "{\"bodies\":",
            "{\"bodies\": [{\"mass\": \"\\",
            "{\"a\\u00e9\": 1}",
            "{\"bodies\": [1e999]}",
            "{\"bodies\": NaN}",
        ] {
            let p = check(t).unwrap_err();
            assert!(p.line >= 1 && !p.message.is_empty(), "{t}: {p:?}");
        }
    }
}
