//! The optional names of a scenario's elements (`bodies[i].name`, `joints[i].name`,
//! `forces[i].name`, `drives[i].name` in the JSON form): checked here, kept in
//! [`Model::names`](crate::model::Model::names), written back by the exports and into each
//! sample of `tumble run`.
//!
//! A name is 1 to [`MAX_NAME`] characters, each a letter, a digit, a space or one of `_-.:/`
//! (so that it needs no escaping in a CSV header, a file name's part or a JSON path, and
//! cannot carry markup), and names are unique within their list.
use crate::validate::ScenarioError;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Longest name accepted (characters).
pub const MAX_NAME: usize = 64;

/// Whether `c` may appear in a name.
pub fn allowed(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.' | ':' | '/')
}

/// Whether `name` is a valid name.
pub fn valid(name: &str) -> bool {
    let n = name.chars().count();
    (1..=MAX_NAME).contains(&n) && name.chars().all(allowed)
}

/// `text` as a message shows it: quoted, at most 40 characters, control characters escaped.
pub(crate) fn shown(text: &str) -> String {
    let mut s: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().count() > 40 {
        s.push_str("...");
    }
    format!("\"{s}\"")
}

/// The names of list `list` ("bodies", "joints", ...) as [`crate::model::Names`] keeps them:
/// empty when none is given, else one per element ("" for an unnamed one). Each is checked
/// (the message names the field, `bodies[2].name`) and no two may be the same.
pub fn check(list: &str, names: &[Option<&str>]) -> Result<Vec<String>, ScenarioError> {
    if names.iter().all(Option::is_none) {
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let name = name.unwrap_or("");
        if names[i].is_some() && !valid(name) {
            return Err(ScenarioError(format!(
                "{list}[{i}].name must be 1 to {MAX_NAME} characters of letters, digits, spaces and _-.:/, not {}",
                shown(name)
            )));
        }
        if let Some(k) = out
            .iter()
            .position(|o: &String| !name.is_empty() && o == name)
        {
            return Err(ScenarioError(format!(
                "{list}[{i}].name {} is also {list}[{k}]'s: names must differ within {list}",
                shown(name)
            )));
        }
        out.push(String::from(name));
    }
    Ok(out)
}
