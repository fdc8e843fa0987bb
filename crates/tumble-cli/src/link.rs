//! Share links of the page on the command line: `tumble run 'https://host/?integrator=rattle#system=...'`
//! (or `?system=` in the query, as older links have it), the
//! bare `system=` value, or a link with `scenario=`. The codec is the page's (www/shared/url.js): the
//! custom system's JSON compressed with deflate-raw and base64url-encoded (no padding). Every
//! part is untrusted: the same limits as the page (16 KB compressed, 1 MiB inflated: a
//! compression bomb stops there), and the JSON is then validated by `Scenario::parse` exactly
//! like a typed one.
//!
//! Inflate is miniz_oxide's: pure Rust, no C library or unsafe code to audit, the crate behind
//! flate2's default backend, with an output limit built in (`decompress_to_vec_with_limit`).

/// Largest compressed system a link carries (bytes), as the page (www/shared/url.js MAX_SYSTEM_BYTES).
pub const MAX_SYSTEM_BYTES: usize = 16384;
/// Largest inflated system (bytes): the solver's limit on JSON scenarios.
pub const MAX_SYSTEM_JSON: usize = tumble::custom::MAX_JSON;

/// A scenario text and the run settings a link carries (integrator, dt, tol, alpha, beta, its
/// control schedules), as
/// `--key value` pairs that explicit options override.
#[derive(Debug, PartialEq)]
pub struct Link {
    pub scenario: String,
    pub settings: Vec<(String, String)>,
}

/// `Some` when `arg` is a link or a bare `system=` value, else `None` (a preset, scenario text
/// or file). A bare value is recognised when it is not a preset name: base64url only and at
/// least 16 characters.
pub fn parse(arg: &str) -> Option<Result<Link, String>> {
    // a link's parameters: its query, and its fragment's after them (the page puts a custom
    // system in the fragment, `#system=...`, which browsers do not send to servers)
    let query = if let Some(i) = arg.find(['?', '#']).filter(|_| arg.contains("://")) {
        &arg[i + 1..]
    } else if arg.starts_with("system=")
        || arg.starts_with("?system=")
        || arg.starts_with("#system=")
    {
        arg.trim_start_matches(['?', '#'])
    } else if arg.len() >= 16
        && arg.bytes().all(is_b64url)
        && tumble::scenario::preset(arg).is_none()
    {
        return Some(decode_system(arg).map(|scenario| Link {
            scenario,
            settings: vec![],
        }));
    } else {
        return None;
    };
    Some(from_query(&query.replacen('#', "&", 1)))
}

fn from_query(query: &str) -> Result<Link, String> {
    let mut scenario = None;
    let mut settings = vec![];
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let v = percent_decode(v)?;
        match k {
            "system" | "scenario" if scenario.is_some() => {
                return Err("this link has more than one scenario or system".into())
            }
            "system" => scenario = Some(decode_system(&v)?),
            "scenario" => scenario = Some(v),
            "integrator" | "dt" | "tol" | "alpha" | "beta" | "control" => {
                settings.push((k.to_string(), v))
            }
            _ => {} // the page's view settings (compare, charts, embed, ...)
        }
    }
    let scenario = scenario.ok_or("this link has neither a scenario= nor a system=")?;
    Ok(Link { scenario, settings })
}

fn percent_decode(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = b
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok());
                let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok());
                out.push(byte.ok_or("this link has a bad %-escape")?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| "this link is not UTF-8 text".to_string())
}

fn is_b64url(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

fn sextet(c: u8) -> u32 {
    match c {
        b'A'..=b'Z' => (c - b'A') as u32,
        b'a'..=b'z' => (c - b'a' + 26) as u32,
        b'0'..=b'9' => (c - b'0' + 52) as u32,
        b'-' => 62,
        _ => 63, // '_' (callers check is_b64url first)
    }
}

/// base64url without padding (a trailing '=' is tolerated) to bytes.
pub fn base64url_decode(s: &str) -> Result<Vec<u8>, String> {
    let s = s.trim_end_matches('=').as_bytes();
    if !s.iter().all(|&c| is_b64url(c)) || s.len() % 4 == 1 {
        return Err(
            "the system is damaged: it is not base64url text (A-Z, a-z, 0-9, - and _)".into(),
        );
    }
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for chunk in s.chunks(4) {
        let mut n = 0u32;
        for (k, &c) in chunk.iter().enumerate() {
            n |= sextet(c) << (18 - 6 * k);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    Ok(out)
}

/// bytes to base64url without padding (the tests; the page encodes with url.js).
#[cfg_attr(not(test), allow(dead_code))]
pub fn base64url_encode(b: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(b.len().div_ceil(3) * 4);
    for chunk in b.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (k, &c)| n | (c as u32) << (16 - 8 * k));
        for k in 0..=chunk.len() {
            out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}

/// The JSON text of a `system=` value: base64url, then inflate (deflate-raw) to at most
/// MAX_SYSTEM_JSON bytes, then UTF-8. Errors say what is wrong, for a user.
pub fn decode_system(value: &str) -> Result<String, String> {
    if value.is_empty() {
        return Err("the system in this link is empty".into());
    }
    if value.len() > MAX_SYSTEM_BYTES.div_ceil(3) * 4 {
        return Err(format!(
            "the system in this link is about {} bytes compressed; links carry at most {MAX_SYSTEM_BYTES} bytes (16 KB)",
            value.len() * 3 / 4
        ));
    }
    let packed = base64url_decode(value)?;
    let raw = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_SYSTEM_JSON).map_err(|e| {
        if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            format!("the system in this link inflates to more than {MAX_SYSTEM_JSON} bytes (1 MiB); it is not accepted")
        } else {
            "the system in this link is damaged: its compressed data does not inflate (deflate-raw); was the link cut short?".to_string()
        }
    })?;
    String::from_utf8(raw)
        .map_err(|_| "the system in this link is damaged: it is not UTF-8 text".to_string())
}

/// The `system=` value of a JSON text (deflate-raw at level 9, base64url).
#[cfg_attr(not(test), allow(dead_code))]
pub fn encode_system(json: &str) -> String {
    base64url_encode(&miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const PENDULUM: &str = r#"{"bodies": [{"mass": 12, "inertia": [9.25, 10, 1.25], "position": [0, 0, -1.5]}],
        "joints": [{"type": "revolute", "b": 0, "point_b": [0, 0, 1.5]}]}"#;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

        #[test]
        fn base64url_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let e = base64url_encode(&bytes);
            prop_assert!(e.bytes().all(is_b64url));
            prop_assert_eq!(base64url_decode(&e).unwrap(), bytes);
        }

        #[test]
        fn systems_round_trip(text in "\\PC{0,2000}") {
            let v = encode_system(&text);
            prop_assert_eq!(decode_system(&v).unwrap(), text.clone());
            let link = parse(&format!("https://example.org/tumble/?system={v}&integrator=director&dt=0.005")).unwrap().unwrap();
            prop_assert_eq!(link.scenario, text);
            prop_assert_eq!(link.settings, vec![("integrator".to_string(), "director".to_string()), ("dt".to_string(), "0.005".to_string())]);
        }

        /// anything at all: a value or a message, never a panic
        #[test]
        fn arbitrary_values_give_a_message_not_a_panic(s in "[A-Za-z0-9_=%?&:/.+-]{0,300}") {
            let _ = decode_system(&s);
            let _ = parse(&s);
            let _ = parse(&format!("https://h/?system={s}"));
        }

        /// a valid stream cut short or with a byte changed: a message (or, rarely, other text
        /// that the JSON validation then rejects), never a panic
        #[test]
        fn damaged_streams_are_rejected(cut in 0usize..200, flip in 0usize..200, bit in 0u8..8) {
            let mut packed = miniz_oxide::deflate::compress_to_vec(PENDULUM.as_bytes(), 9);
            let i = flip % packed.len();
            packed[i] ^= 1 << bit;
            let _ = decode_system(&base64url_encode(&packed));
            let whole = encode_system(PENDULUM);
            let short = &whole[..cut.min(whole.len() - 1)];
            prop_assert!(decode_system(short).map(|t| t != PENDULUM).unwrap_or(true));
        }
    }

    #[test]
    fn limits_and_bombs_give_clear_messages() {
        // 64 MiB of spaces compress to about 64 KB: over the link limit
        let e = decode_system(&encode_system(&" ".repeat(64 << 20))).unwrap_err();
        assert!(e.contains("16 KB"), "{e}");
        // 8 MiB compress to under 16 KB and inflate past 1 MiB: stopped there
        let bomb = encode_system(&" ".repeat(8 << 20));
        assert!(bomb.len() * 3 / 4 < MAX_SYSTEM_BYTES, "{}", bomb.len());
        let e = decode_system(&bomb).unwrap_err();
        assert!(e.contains("1 MiB"), "{e}");
        for (bad, needle) in [
            ("", "empty"),
            ("ab!d", "base64url"),
            ("abcde", "base64url"),
            ("AAAAAAAA", "inflate"),
        ] {
            let e = decode_system(bad).unwrap_err();
            assert!(e.contains(needle), "{bad}: {e}");
        }
        assert!(parse("https://h/?integrator=rattle")
            .unwrap()
            .unwrap_err()
            .contains("neither"));
        assert!(parse("https://h/?scenario=top&system=AAAA")
            .unwrap()
            .is_err());
        assert!(parse("https://h/?scenario=%zz")
            .unwrap()
            .unwrap_err()
            .contains("%-escape"));
    }

    #[test]
    fn links_name_presets_systems_and_settings() {
        assert_eq!(parse("chain?links=4"), None);
        assert_eq!(parse("free-body"), None);
        assert_eq!(parse("nk-spherical"), None);
        assert_eq!(parse("my-system.json"), None);
        let l = parse("https://h/p/?scenario=chain%3Flinks%3D4%26joint%3Dspherical&integrator=rattle&compare=all").unwrap().unwrap();
        assert_eq!(l.scenario, "chain?links=4&joint=spherical");
        assert_eq!(
            l.settings,
            vec![("integrator".to_string(), "rattle".to_string())]
        );
        let v = encode_system(PENDULUM);
        for arg in [
            v.clone(),
            format!("system={v}"),
            format!("?system={v}"),
            format!("http://127.0.0.1:8000/?system={v}#x"),
            // the page's links: the system in the fragment
            format!("https://h/p/?integrator=rattle#system={v}"),
            format!("https://h/#system={v}"),
            format!("#system={v}"),
        ] {
            assert_eq!(parse(&arg).unwrap().unwrap().scenario, PENDULUM, "{arg}");
        }
        // the page's encoding of this text (CompressionStream('deflate-raw') in Chromium and Node)
        let page = "q1ZKyk_JTC1WsoquVspNLC5WsjLUUcrMSy0qyUxUsoo21DHUMYytja0FAA";
        assert_eq!(
            decode_system(page).unwrap(),
            r#"{"bodies":[{"mass":1,"inertia":[1,1,1]}]}"#
        );
    }
}
