//! Messages about a rejected scenario JSON that name the field and say what it must be.
//!
//! `custom::parse` reads the text with serde_json into its derived types. When that fails on
//! the data (not the syntax), the text is read again as a `serde_json::Value` and deserialised
//! through [`At`], a deserializer over the value that knows the JSON path of each field it
//! hands out: its error, [`PathError`], names the field (`forces[0].joint`) and says in words
//! what the field must be ("a joint number, 0 or more, not -1"), without Rust's type names.
//!
//! The elements tagged by a field (a force by `type`, a time function by `kind`) implement
//! [`Tagged`]: they read their tag first and then their fields, streamed, so an error inside
//! them is about the field, not the whole element (serde's derived internally tagged enums
//! buffer the element and lose the field). [`At`] hands out an object's `type` and `kind`
//! entries first; a text read directly whose tag comes later is buffered.
use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use serde::de::value::{MapAccessDeserializer, StrDeserializer};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, Expected, IntoDeserializer, MapAccess,
    SeqAccess, Unexpected, Visitor,
};
use serde::Deserialize;
use serde_json::Value;

/// The keys that tag an element; [`At`] hands them out before an object's other entries.
const TAGS: [&str; 2] = ["type", "kind"];

/// What is wrong with a field, and the field's JSON path ("" for the whole scenario).
#[derive(Debug)]
pub(crate) struct PathError {
    path: String,
    what: What,
}

#[derive(Debug)]
enum What {
    /// The value is not what the field takes: serde's name of what it expected, and the value.
    Wrong {
        expected: String,
        got: String,
    },
    /// A key the element does not take, and the keys it does.
    Unknown(&'static [&'static str]),
    Missing(&'static str),
    Twice(&'static str),
    Other(String),
}

impl PathError {
    fn new(what: What) -> Self {
        PathError {
            path: String::new(),
            what,
        }
    }

    /// The error inside field `key` (a name, or "[i]" for a list's element) of the value.
    fn inside(mut self, key: &str) -> Self {
        let sep = if self.path.is_empty() || self.path.starts_with('[') {
            ""
        } else {
            "."
        };
        self.path = format!("{key}{sep}{}", self.path);
        self
    }
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.path;
        let field = if p.is_empty() { "the scenario" } else { p };
        match &self.what {
            What::Wrong { expected, got } => {
                let last = p.rsplit(['.', '[']).next().unwrap_or("");
                write!(f, "{field} must be {}, not {got}", plain(expected, last))
            }
            What::Unknown([]) => write!(f, "{field} is not a field here"),
            What::Unknown(keys) => write!(
                f,
                "{field} is not a field here; the fields are {}",
                list(keys, "and")
            ),
            What::Missing(key) => write!(f, "{field} needs its field {key}"),
            What::Twice(key) => write!(f, "{field} gives {key} twice"),
            What::Other(msg) => write!(f, "{field}: {msg}"),
        }
    }
}

impl core::error::Error for PathError {}

impl de::Error for PathError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        PathError::new(What::Other(msg.to_string()))
    }
    fn invalid_type(got: Unexpected, expected: &dyn Expected) -> Self {
        PathError::new(What::Wrong {
            expected: expected.to_string(),
            got: value_words(got),
        })
    }
    fn invalid_value(got: Unexpected, expected: &dyn Expected) -> Self {
        Self::invalid_type(got, expected)
    }
    fn invalid_length(len: usize, expected: &dyn Expected) -> Self {
        let got = match len {
            1 => "a list of 1 value".to_string(),
            _ => format!("a list of {len} values"),
        };
        PathError::new(What::Wrong {
            expected: expected.to_string(),
            got,
        })
    }
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        PathError::new(What::Wrong {
            expected: format!("one of {}", list(expected, "or")),
            got: format!("'{}'", clip(variant)),
        })
    }
    fn unknown_field(_field: &str, expected: &'static [&'static str]) -> Self {
        // the path (set by the map that read the key) names the field
        PathError::new(What::Unknown(expected))
    }
    fn missing_field(field: &'static str) -> Self {
        PathError::new(What::Missing(field))
    }
    fn duplicate_field(field: &'static str) -> Self {
        PathError::new(What::Twice(field))
    }
}

/// "a, b or c"
fn list(items: &[&str], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., end] => format!("{} {last} {end}", init.join(", ")),
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s.to_owned()
    }
}

/// A value as the message shows it: -1, 2.5, "text", true, null, a list, an object.
fn value_words(v: Unexpected) -> String {
    match v {
        Unexpected::Bool(b) => format!("{b}"),
        Unexpected::Unsigned(u) => format!("{u}"),
        Unexpected::Signed(i) => format!("{i}"),
        Unexpected::Float(x) => format!("{}", crate::text::Num(x)),
        Unexpected::Str(s) => format!("the text \"{}\"", clip(s)),
        Unexpected::Unit | Unexpected::Option => "null".to_owned(),
        Unexpected::Seq => "a list".to_owned(),
        Unexpected::Map => "an object".to_owned(),
        other => format!("{other}"),
    }
}

/// What serde's derived types expect ("usize", "f64", "an array of length 3", "struct
/// JsonBody" ...) in words; `field` (the path's last name) says what a number counts.
fn plain(expected: &str, field: &str) -> String {
    match expected {
        "usize" | "u64" => match field {
            "joint" => "a joint number, 0 or more".to_owned(),
            "a" | "b" | "body" => "a body number, 0 or more".to_owned(),
            _ => "a whole number, 0 or more".to_owned(),
        },
        "u32" => "a whole number from 0 to 4294967295".to_owned(),
        "f64" | "f32" => "a number".to_owned(),
        "a boolean" => "true or false".to_owned(),
        "a string" => "a text in quotes".to_owned(),
        "a sequence" => "a list".to_owned(),
        e => match e.strip_prefix("an array of length ") {
            Some("1") => "a list of 1 value".to_owned(),
            Some(n) => format!("a list of {n} values"),
            None if e.starts_with("struct ") || e.starts_with("an object") => {
                "an object".to_owned()
            }
            None => e.to_owned(),
        },
    }
}

/// `T` read from `v`, or what is wrong and where.
pub(crate) fn from_value<T: DeserializeOwned>(v: &Value) -> Result<T, PathError> {
    T::deserialize(At(v))
}

/// A deserializer over a JSON value whose errors carry the path of the field at fault.
pub(crate) struct At<'a>(&'a Value);

impl<'de, 'a> Deserializer<'de> for At<'a> {
    type Error = PathError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else {
                    visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Value::String(s) => visitor.visit_str(s),
            Value::Array(a) => {
                let mut seq = SeqAt {
                    items: a.iter(),
                    index: 0,
                };
                let out = visitor.visit_seq(&mut seq)?;
                if seq.items.len() > 0 {
                    return Err(PathError::new(What::Wrong {
                        expected: format!("an array of length {}", seq.index),
                        got: format!("a list of {} values", a.len()),
                    }));
                }
                Ok(out)
            }
            Value::Object(m) => {
                // the tags first, then the rest in the map's order
                let mut entries: Vec<(&String, &Value)> = Vec::with_capacity(m.len());
                entries.extend(TAGS.iter().filter_map(|t| m.get_key_value(*t)));
                entries.extend(m.iter().filter(|(k, _)| !TAGS.contains(&k.as_str())));
                visitor.visit_map(MapAt {
                    entries: entries.into_iter(),
                    key: None,
                })
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        match self.0 {
            Value::String(s) => {
                let d: StrDeserializer<'_, PathError> = s.as_str().into_deserializer();
                visitor.visit_enum(d)
            }
            other => Err(PathError::new(What::Wrong {
                expected: format!("one of {}", list(variants, "or")),
                got: match other {
                    Value::Array(_) => "a list".to_owned(),
                    Value::Object(_) => "an object".to_owned(),
                    v => format!("{v}"),
                },
            })),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

struct SeqAt<'a> {
    items: core::slice::Iter<'a, Value>,
    index: usize,
}

impl<'de, 'a> SeqAccess<'de> for SeqAt<'a> {
    type Error = PathError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, PathError> {
        let Some(v) = self.items.next() else {
            return Ok(None);
        };
        let i = self.index;
        self.index += 1;
        seed.deserialize(At(v))
            .map(Some)
            .map_err(|e| e.inside(&format!("[{i}]")))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct MapAt<'a> {
    entries: alloc::vec::IntoIter<(&'a String, &'a Value)>,
    key: Option<(&'a String, &'a Value)>,
}

impl<'de, 'a> MapAccess<'de> for MapAt<'a> {
    type Error = PathError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, PathError> {
        let Some((k, v)) = self.entries.next() else {
            return Ok(None);
        };
        self.key = Some((k, v));
        let d: StrDeserializer<'_, PathError> = k.as_str().into_deserializer();
        seed.deserialize(d).map(Some).map_err(|e| e.inside(k))
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, PathError> {
        let (k, v) = self
            .key
            .take()
            .ok_or_else(|| <PathError as de::Error>::custom("a value without its key"))?;
        seed.deserialize(At(v)).map_err(|e| e.inside(k))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// An element tagged by one of its fields (`TAG`): the tag's value says which of its forms
/// the other fields are read into.
pub(crate) trait Tagged: Sized {
    /// The tag's name ("type", "kind").
    const TAG: &'static str;
    /// The tag's values (a unit enum).
    type Tag: DeserializeOwned;
    /// The element of form `tag` from the other fields.
    fn fields<'de, D: Deserializer<'de>>(tag: Self::Tag, rest: D) -> Result<Self, D::Error>;
}

/// `T` read from `d` (for `impl Deserialize for T`).
pub(crate) fn tagged<'de, D: Deserializer<'de>, T: Tagged>(d: D) -> Result<T, D::Error> {
    d.deserialize_map(TagVisitor(PhantomData))
}

struct TagVisitor<T>(PhantomData<T>);

impl<'de, T: Tagged> Visitor<'de> for TagVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object with its \"{}\"", T::TAG)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        use de::Error;
        let Some(first) = map.next_key::<String>()? else {
            return Err(A::Error::missing_field(T::TAG));
        };
        if first == T::TAG {
            let tag = map.next_value::<T::Tag>()?;
            return T::fields(tag, MapAccessDeserializer::new(map));
        }
        // the tag comes later (a text read directly): the element is buffered
        let mut obj = serde_json::Map::new();
        obj.insert(first, map.next_value::<Value>()?);
        while let Some(k) = map.next_key::<String>()? {
            let v = map.next_value::<Value>()?;
            if obj.contains_key(&k) {
                return Err(A::Error::custom(format_args!("{k} is given twice")));
            }
            obj.insert(k, v);
        }
        let Some(tag) = obj.remove(T::TAG) else {
            return Err(A::Error::missing_field(T::TAG));
        };
        let tag = T::Tag::deserialize(tag).map_err(A::Error::custom)?;
        T::fields(tag, Value::Object(obj)).map_err(A::Error::custom)
    }
}

/// The message for a scenario text serde_json rejected as type `T`: a data error names the
/// field (read again through [`At`]); a syntax error keeps serde's line and column and says
/// when the text has NaN or Infinity, which JSON does not allow.
pub(crate) fn message<T: DeserializeOwned>(text: &str, e: &serde_json::Error) -> String {
    // a text that reads as JSON holds data the scenario does not take (serde_json calls some
    // of those, such as a list too long, syntax errors)
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        if let Err(p) = from_value::<T>(&v) {
            return p.to_string();
        }
        // the value reads: a key given twice (the value keeps one)
        let m = e.to_string();
        if let Some((key, _)) = m
            .strip_prefix("duplicate field `")
            .and_then(|r| r.split_once('`'))
        {
            return format!(
                "scenario JSON: {key} is given twice at line {} column {}",
                e.line(),
                e.column()
            );
        }
    }
    let mut m = e.to_string();
    if let Some(word) = not_a_number(text, e.line(), e.column()) {
        m = format!(
            "{word} is not a number JSON allows (it has no NaN or Infinity; write a finite number) at line {} column {}",
            e.line(),
            e.column()
        );
    }
    // a text too deep for the value (serde_json stops at 128 levels) may still be rejected as data
    for (rust, words) in [
        ("expected usize", "expected a whole number, 0 or more"),
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        ("expected f64", "expected a number"),
        ("invalid type: sequence", "invalid type: a list"),
        ("invalid type: map", "invalid type: an object"),
    ] {
        m = m.replace(rust, words);
    }
    // "invalid type: a list, expected a number at ..." -> "must be a number, not a list at ..."
    let bad = m
        .strip_prefix("invalid type: ")
        .or_else(|| m.strip_prefix("invalid value: "));
    if let Some((got, rest)) = bad.and_then(|b| b.split_once(", expected ")) {
        let (want, at) = rest.rsplit_once(" at line ").unwrap_or((rest, ""));
        let at = if at.is_empty() {
            String::new()
        } else {
            format!(" at line {at}")
        };
        m = format!("must be {want}, not {got}{at}");
    }
    format!("scenario JSON: {m}")
}

/// The word NaN, Infinity or inf (any case, any sign) written where serde stopped, if it is one.
fn not_a_number(text: &str, line: usize, column: usize) -> Option<&str> {
    let start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let mut at = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.');
    let from = text[..at].rfind(|c: char| !word(c)).map_or(0, |i| i + 1);
    let to = text[at..]
        .find(|c: char| !word(c))
        .map_or(text.len(), |i| at + i);
    let token = text.get(from..to)?;
    let bare = token.trim_start_matches(['+', '-']).to_ascii_lowercase();
    matches!(bare.as_str(), "nan" | "infinity" | "inf").then_some(token)
}
