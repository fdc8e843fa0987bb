//! Scenarios, defined once and shared by the tests, the command line, the page and share links.
//!
//! A scenario has a compact canonical text: `name` or `name?key=value&key=value`, for example
//! `chain?links=64&joint=spherical`. [`Scenario::parse`] validates it and [`Scenario::canonical`]
//! prints it back (defaults omitted, keys in a fixed order), so parse(canonical(s)) == s.
pub use crate::model::{box_for_inertia, box_inertia};
use crate::model::{BodyState, Model};
pub use crate::presets::hanging_chain;
pub use crate::validate::{check_body, check_consistent, ScenarioError, MAX_LINKS};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

/// Longest scenario text accepted.
pub const MAX_TEXT: usize = 512;

fn err<T>(msg: String) -> Result<T, ScenarioError> {
    Err(ScenarioError(msg))
}

pub use crate::presets::table::{Param, ParamKind, Preset, PRESETS};

/// A ready-to-run scenario: the model, the initial state and the default run settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// preset name
    pub name: String,
    /// parameter values in the preset's order (choices as their index)
    pub values: Vec<f64>,
    /// bodies, joints, gravity
    pub model: Model,
    /// initial state of every body
    pub initial: Vec<BodyState>,
    /// default time step h (s)
    pub dt: f64,
    /// default duration (s)
    pub duration: f64,
    /// the normalised JSON of a custom scenario (`None` for presets)
    pub json: Option<String>,
}

/// Find a preset by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

fn format_number(v: f64) -> String {
    // shortest text that parses back to the same f64
    format!("{v}")
}

impl Scenario {
    /// Parse and validate a canonical scenario text such as `chain?links=64&joint=spherical`,
    /// or the JSON form of a custom system (text starting with `{`, see `custom.rs`).
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        if text.trim_start().starts_with('{') {
            let c = crate::custom::parse(text)?;
            return Ok(Scenario {
                name: "custom".to_string(),
                values: vec![],
                model: c.model,
                initial: c.initial,
                dt: c.dt,
                duration: c.duration,
                json: Some(c.json),
            });
        }
        if text.len() > MAX_TEXT {
            return err(format!(
                "scenario text is {} characters long; at most {MAX_TEXT} are accepted",
                text.len()
            ));
        }
        let text = text.trim();
        let (name, query) = match text.split_once('?') {
            Some((n, q)) => (n, q),
            None => (text, ""),
        };
        let Some(p) = preset(name) else {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            return err(format!(
                "unknown scenario '{}'; the presets are: {}",
                name,
                names.join(", ")
            ));
        };
        let mut values: Vec<Option<f64>> = vec![None; p.params.len()];
        for pair in query.split('&').filter(|s| !s.is_empty()) {
            let Some((key, raw)) = pair.split_once('=') else {
                return err(format!(
                    "'{pair}' in scenario '{name}' is not of the form key=value"
                ));
            };
            let Some(i) = p.params.iter().position(|q| q.key == key) else {
                let keys: Vec<&str> = p.params.iter().map(|q| q.key).collect();
                return err(if keys.is_empty() {
                    format!("scenario '{name}' takes no parameters, but '{key}' was given")
                } else {
                    format!(
                        "unknown parameter '{key}' for scenario '{name}'; it takes: {}",
                        keys.join(", ")
                    )
                });
            };
            if values[i].is_some() {
                return err(format!("parameter '{key}' is given twice"));
            }
            values[i] = Some(parse_value(name, &p.params[i], raw)?);
        }
        let values: Vec<f64> = values
            .iter()
            .zip(p.params)
            .map(|(v, q)| {
                v.unwrap_or(match q.kind {
                    ParamKind::Number { default, .. } => default,
                    ParamKind::Choice(_) => 0.0,
                })
            })
            .collect();
        if p.name == "four-bar" {
            crate::presets::course::check_four_bar(&values)?;
        }
        if p.name == "newtons-cradle" && values[1] >= values[0] {
            return err(format!(
                "newtons-cradle: {} of {} balls lifted; at least one must hang to be hit",
                values[1], values[0]
            ));
        }
        if p.name == "stop-pendulum" && values[1] >= values[0] {
            return err(format!(
                "stop-pendulum: the stop ({} rad) must be below the start angle ({} rad): the rod swings down onto it",
                values[1], values[0]
            ));
        }
        if p.name == "incline" && values[2] < values[1] {
            return err(format!(
                "incline: static_friction ({}) must be at least friction ({}): a box that slides at mu_k would not stick at less",
                values[2], values[1]
            ));
        }
        if p.name == "slider-crank" && values[6] <= values[5] {
            return err(format!(
                "slider-crank: the rod ({} m) must be longer than the crank ({} m), or the piston cannot follow it round",
                values[6], values[5]
            ));
        }
        Ok(build(p, values))
    }

    /// A time step (s) that suits `method` on this scenario: the scenario's own step unless
    /// that is beyond what the method handles. Measured (tumble run, 30 s from the preset's
    /// start): on nk-spherical the paper's h = 0.1 suits the director method only (RATTLE's
    /// Newton solve fails at 1.3 s, at 0.05 after 16 s; 0.02 runs 120 s; Baumgarte's explicit
    /// step loses the chain at 0.05 and drifts 130 % in energy at 0.02, 18 % at 0.01); the
    /// explicit Baumgarte step on a chain of n > 32 links needs h <= 0.32 / n (64 links fail
    /// at 16.8 s with 0.01 and run 30 s with 0.005; 128 at 0.0025, 256 at 0.00125 run); RATTLE's
    /// Newton solve on a chain of n > 1024 links needs h <= 10.24 / n (2048 links fail at step 8
    /// with 0.01 and run 10 s with 0.005; 4096 fail at step 4 and run 3 s with 0.0025).
    /// The course presets (10 s, presets/course.rs): the double pendulum's and the four-bar's own
    /// steps come from their rotation rates (`double_pendulum_step`, `four_bar_step`), Baumgarte
    /// gets half; on the catenary of N links (span 9.5 m, tilt 1 rad the worst) RATTLE runs at
    /// 0.32 / N and fails at twice that, Baumgarte at 0.08 / N, so they get 0.16 / N and 0.04 / N.
    /// The governor's spring-dampers are explicit in RATTLE and Baumgarte: both fail at
    /// h = 1e-4 and run its 5 s at 5e-5 (tests/governor.rs), so they get 2.5e-5; the director
    /// runs it at 5e-3 and gets the scenario's 1e-3.
    /// The incline's box slides 5 m in its 5 s: at the director's 5e-4 RATTLE and Baumgarte
    /// lose most of the friction's work to their explicit corner springs (kinetic energy 1.0
    /// and 8.9 J after 3 s against 47.0 J), at 2e-4 all three agree to 1e-4 (`tumble run`).
    /// Every preset runs its 10 s at twice the step given here.
    pub fn suitable_dt(&self, method: crate::step::Method) -> f64 {
        use crate::step::Method::{Baumgarte, Rattle};
        match (self.preset().map(|p| p.name), method) {
            (Some("nk-spherical"), Rattle) => 0.02,
            (Some("nk-spherical"), Baumgarte) => 0.01,
            (Some("chain"), Baumgarte) => self.dt.min(0.32 / self.values[0]),
            (Some("chain"), Rattle) => self.dt.min(10.24 / self.values[0]),
            (Some("double-pendulum" | "four-bar"), Baumgarte) => 0.5 * self.dt,
            (Some("catenary"), Rattle) => self.dt.min(0.16 / self.values[0]),
            (Some("catenary"), Baumgarte) => self.dt.min(0.04 / self.values[0]),
            (Some("governor"), Rattle | Baumgarte) => 2.5e-5,
            (Some("incline"), Rattle | Baumgarte) => 2e-4,
            // Heun's trapezoidal W of the drive misses by O(h^3) a period, all one way: at 30 Hz
            // the balance grows 96 J over 20 s at h = 1e-3 (past E0 = 32 J at 8.8 s), 11.9 J at
            // 5e-4, 1.48 J at 2.5e-4 (RATTLE 3.6e-5 J at 1e-3): 7.5e-3 periods a step
            (Some("kapitza"), Baumgarte) => self.dt.min(7.5e-3 / self.values[1]),
            _ => self.dt,
        }
    }

    /// The preset this scenario was built from (`None` for a custom JSON scenario).
    pub fn preset(&self) -> Option<&'static Preset> {
        preset(&self.name).filter(|_| self.json.is_none())
    }

    /// The canonical text: name, then non-default parameters in the preset's order;
    /// for a custom scenario its normalised JSON.
    pub fn canonical(&self) -> String {
        let Some(p) = self.preset() else {
            return self.json.clone().unwrap_or_default();
        };
        let mut out = self.name.clone();
        let mut sep = '?';
        for (q, &v) in p.params.iter().zip(&self.values) {
            let text = match q.kind {
                ParamKind::Number { default, .. } if v == default => continue,
                ParamKind::Number { .. } => format_number(v),
                ParamKind::Choice(_) if v == 0.0 => continue,
                ParamKind::Choice(opts) => opts[v as usize].to_string(),
            };
            out.push(sep);
            out.push_str(q.key);
            out.push('=');
            out.push_str(&text);
            sep = '&';
        }
        out
    }
}

fn parse_value(name: &str, q: &Param, raw: &str) -> Result<f64, ScenarioError> {
    match q.kind {
        ParamKind::Choice(opts) => match opts.iter().position(|o| *o == raw) {
            Some(i) => Ok(i as f64),
            None => err(format!(
                "'{}' for scenario '{name}' must be one of {}, not '{raw}'",
                q.key,
                opts.join(", ")
            )),
        },
        ParamKind::Number {
            min, max, integer, ..
        } => {
            let v: f64 = match raw.parse() {
                Ok(v) => v,
                Err(_) => {
                    return err(format!(
                        "'{}' for scenario '{name}' must be a number, not '{raw}'",
                        q.key
                    ))
                }
            };
            if !v.is_finite() || v < min || v > max {
                return err(format!(
                    "'{}' for scenario '{name}' must be between {} and {}, not {raw}",
                    q.key,
                    crate::text::Num(min),
                    crate::text::Num(max)
                ));
            }
            if integer && v != libm::floor(v) {
                return err(format!(
                    "'{}' for scenario '{name}' must be a whole number, not {raw}",
                    q.key
                ));
            }
            Ok(v)
        }
    }
}

fn build(p: &'static Preset, values: Vec<f64>) -> Scenario {
    let (model, initial, dt, duration) = crate::presets::build(p.name, &values);
    Scenario {
        name: p.name.to_string(),
        values,
        model,
        initial,
        dt,
        duration,
        json: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f64::consts::FRAC_PI_4;
    use glam::DVec3;

    #[test]
    fn canonical_round_trips_every_preset() {
        for p in PRESETS {
            let s = Scenario::parse(p.name).unwrap();
            assert_eq!(s.canonical(), p.name);
            assert_eq!(Scenario::parse(&s.canonical()).unwrap(), s);
        }
        let s = Scenario::parse("chain?joint=spherical&links=64").unwrap();
        assert_eq!(s.canonical(), "chain?links=64&joint=spherical");
        assert_eq!(Scenario::parse(&s.canonical()).unwrap(), s);
        let s = Scenario::parse("top?tilt=0.1234567890123").unwrap();
        assert_eq!(Scenario::parse(&s.canonical()).unwrap(), s);
    }

    #[test]
    fn rejects_bad_text_with_the_field_named() {
        for (text, needle) in [
            ("pendulum", "unknown scenario"),
            ("chain?links=0", "'links'"),
            ("chain?links=2.5", "whole number"),
            ("chain?links=NaN", "'links'"),
            ("chain?joint=hinge", "revolute, spherical"),
            ("chain?links", "key=value"),
            ("chain?size=3", "unknown parameter 'size'"),
            ("chain?links=3&links=4", "twice"),
            ("free-body?x=1", "it takes: w1, w2, w3"),
            ("nk-revolute?x=1", "takes no parameters"),
            ("top?spin=inf", "'spin'"),
        ] {
            let e = Scenario::parse(text).unwrap_err();
            assert!(e.0.contains(needle), "{text}: {e}");
        }
        assert!(Scenario::parse(&"chain?".repeat(200))
            .unwrap_err()
            .0
            .contains("at most"));
    }

    #[test]
    fn json_scenarios_parse_validate_and_round_trip() {
        let pendulum = r#"{"bodies": [{"mass": 12, "inertia": [9.25, 10, 1.25], "position": [0, 0, -1.5]}],
            "joints": [{"type": "revolute", "b": 0, "point_b": [0, 0, 1.5]}]}"#;
        let s = Scenario::parse(pendulum).unwrap();
        assert_eq!(s.model.bodies.len(), 1);
        assert_eq!(s.model.constraint_rows(), 5);
        assert_eq!(Scenario::parse(&s.canonical()).unwrap(), s);
        for (text, needle) in [
            ("{", "scenario JSON"),
            (r#"{"bodies": []}"#, "bodies"),
            (
                r#"{"bodies": [{"mass": -1, "inertia": [1, 1, 1]}]}"#,
                "bodies[0].mass",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 3]}]}"#,
                "triangle",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1], "colour": 3}]}"#,
                "bodies[0].colour is not a field here",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}], "joints": [{"type": "hinge", "b": 0}]}"#,
                "joints[0].type",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}], "joints": [{"type": "spherical", "b": 3}]}"#,
                "numbered",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}], "joints": [{"type": "spherical", "b": 0, "point_b": [0, 0, 1]}]}"#,
                "initial positions",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1], "rotation": [[2, 0, 0], [0, 1, 0], [0, 0, 1]]}]}"#,
                "rotation",
            ),
            (
                r#"{"dt": 0, "bodies": [{"mass": 1, "inertia": [1, 1, 1]}]}"#,
                "dt",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}, {"mass": 1, "inertia": [1, 1, 1], "position": [1, 0, 0]}],
                "joints": [{"type": "spherical", "b": 0}, {"type": "spherical", "a": 0, "b": 1, "point_a": [1, 0, 0]},
                           {"type": "spherical", "b": 1, "point_a": [2, 0, 0]}]}"#,
                "joints[2] closes a loop between the ground and body 1, and the loop cannot close at the initial positions: its two points are 1.000e0 m apart",
            ),
        ] {
            let e = Scenario::parse(text).unwrap_err();
            assert!(e.0.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn nk_revolute_matches_the_paper_start() {
        let s = Scenario::parse("nk-revolute").unwrap();
        let x1 = s.initial[0].x;
        assert!(
            (x1 - DVec3::new(0.0, 1.5 * FRAC_PI_4.sin(), -1.5 * FRAC_PI_4.cos())).length() < 1e-15
        );
        // V = sum M g x3 = -998.887323375 J
        let v: f64 = s.initial.iter().map(|b| 12.0 * 9.81 * b.x.z).sum();
        assert!((v - -998.887323375).abs() < 1e-8, "{v}");
        assert_eq!(s.model.bodies[0].inertia, DVec3::new(9.25, 10.0, 1.25));
        assert_eq!(12 * s.model.bodies.len() + s.model.constraint_rows(), 68);
        let s = Scenario::parse("nk-spherical").unwrap();
        assert_eq!(12 * s.model.bodies.len() + s.model.constraint_rows(), 60);
    }
}
