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
use core::f64::consts::FRAC_PI_4;

/// Longest scenario text accepted.
pub const MAX_TEXT: usize = 512;

fn err<T>(msg: String) -> Result<T, ScenarioError> {
    Err(ScenarioError(msg))
}

/// One tunable parameter of a preset.
#[derive(Clone, Copy, Debug)]
pub enum ParamKind {
    /// A number in [min, max]; `integer` requires a whole number.
    Number {
        /// default value
        default: f64,
        /// smallest allowed
        min: f64,
        /// largest allowed
        max: f64,
        /// whole numbers only
        integer: bool,
    },
    /// One of a fixed list of words; the first is the default.
    Choice(&'static [&'static str]),
}

/// A named parameter of a preset.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// key in the scenario text
    pub key: &'static str,
    /// what it means, with its unit
    pub help: &'static str,
    /// its type, range and default
    pub kind: ParamKind,
}

/// A preset scenario family.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// name in the scenario text
    pub name: &'static str,
    /// one line for `tumble scenarios` and the page
    pub description: &'static str,
    /// its parameters, in canonical order
    pub params: &'static [Param],
}

/// Every preset, in the order shown to users.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "free-body",
        description: "free spinning body of Terze, Mueller & Zlatar: J = diag(0.9144, 1.098, 1.66) kg m^2, omega0 = [0.45549, 0.82623, 0.03476] rad/s",
        params: &[
            Param { key: "w1", help: "initial angular velocity about the body's x1 axis (rad/s)", kind: ParamKind::Number { default: 0.45549, min: -50.0, max: 50.0, integer: false } },
            Param { key: "w2", help: "initial angular velocity about the body's x2 axis (rad/s)", kind: ParamKind::Number { default: 0.82623, min: -50.0, max: 50.0, integer: false } },
            Param { key: "w3", help: "initial angular velocity about the body's x3 axis (rad/s)", kind: ParamKind::Number { default: 0.03476, min: -50.0, max: 50.0, integer: false } },
        ],
    },
    Preset {
        name: "flip",
        description: "intermediate-axis flip (Dzhanibekov effect): a free box spun about its middle principal axis",
        params: &[Param { key: "spin", help: "spin rate about the middle axis (rad/s)", kind: ParamKind::Number { default: 4.0, min: 0.1, max: 50.0, integer: false } }],
    },
    Preset {
        name: "top",
        description: "heavy symmetric top on a spherical joint at the ground: precession and nutation",
        params: &[
            Param { key: "spin", help: "spin rate about the symmetry axis (rad/s)", kind: ParamKind::Number { default: 30.0, min: 0.0, max: 200.0, integer: false } },
            Param { key: "tilt", help: "initial tilt from the vertical (rad)", kind: ParamKind::Number { default: 0.3, min: 0.0, max: 3.0, integer: false } },
        ],
    },
    Preset {
        name: "nk-revolute",
        description: "Nielsen & Krenk 6.1: 4-box hanging chain with revolute joints, released from rest (h = 0.01)",
        params: &[],
    },
    Preset {
        name: "nk-spherical",
        description: "Nielsen & Krenk 6.2: the same chain with spherical joints, turned pi/4 about x2 (h = 0.1)",
        params: &[],
    },
    Preset {
        name: "chain",
        description: "straight hanging chain of N boxes (1 x 0.5 x 3 m, 12 kg) released at an angle, from rest or pushed",
        params: &[
            Param { key: "links", help: "number of bodies (1 to 4096)", kind: ParamKind::Number { default: 8.0, min: 1.0, max: MAX_LINKS as f64, integer: true } },
            Param { key: "joint", help: "joint type: revolute or spherical", kind: ParamKind::Choice(&["revolute", "spherical"]) },
            Param { key: "angle", help: "initial angle from the vertical (rad)", kind: ParamKind::Number { default: FRAC_PI_4, min: -3.2, max: 3.2, integer: false } },
            Param { key: "push", help: "initial speed of the tip: the straight chain starts turning rigidly about the ground point, about x1 (m/s)", kind: ParamKind::Number { default: 0.0, min: -50.0, max: 50.0, integer: false } },
        ],
    },
    Preset {
        name: "double-pendulum",
        description: "double pendulum: two uniform rods (1 kg/m, 0.05 x 0.05 m section) hinged end to end and hung from a hinge, planar, released from rest",
        params: &[
            Param { key: "angle1", help: "initial angle of the upper rod from the downward vertical (rad)", kind: ParamKind::Number { default: 2.0, min: -3.2, max: 3.2, integer: false } },
            Param { key: "angle2", help: "initial angle of the lower rod from the downward vertical (rad)", kind: ParamKind::Number { default: 2.5, min: -3.2, max: 3.2, integer: false } },
            Param { key: "length1", help: "length of the upper rod (m)", kind: ParamKind::Number { default: 1.0, min: 0.1, max: 10.0, integer: false } },
            Param { key: "length2", help: "length of the lower rod (m)", kind: ParamKind::Number { default: 1.0, min: 0.1, max: 10.0, integer: false } },
        ],
    },
    Preset {
        name: "four-bar",
        description: "four-bar crank-rocker in a vertical plane: crank, coupler and rocker (uniform rods, 1 kg/m) and the ground closing the loop through four hinges, the crank started turning",
        params: &[
            Param { key: "ground", help: "distance between the two ground hinges (m)", kind: ParamKind::Number { default: 2.0, min: 0.1, max: 10.0, integer: false } },
            Param { key: "crank", help: "crank length, the shortest link (m)", kind: ParamKind::Number { default: 0.5, min: 0.1, max: 10.0, integer: false } },
            Param { key: "coupler", help: "coupler length (m)", kind: ParamKind::Number { default: 2.0, min: 0.1, max: 10.0, integer: false } },
            Param { key: "rocker", help: "rocker length (m)", kind: ParamKind::Number { default: 1.5, min: 0.1, max: 10.0, integer: false } },
            Param { key: "speed", help: "initial angular speed of the crank (rad/s)", kind: ParamKind::Number { default: 5.0, min: -50.0, max: 50.0, integer: false } },
            Param { key: "angle", help: "initial crank angle from the ground line (rad)", kind: ParamKind::Number { default: 1.0, min: -3.2, max: 3.2, integer: false } },
        ],
    },
    Preset {
        name: "catenary",
        description: "catenary: a 10 m chain of N rods (1 kg/m) on ball joints hung between two ground points, released from rest as a circular arc tilted about the line between them",
        params: &[
            Param { key: "links", help: "number of rods (2 to 256)", kind: ParamKind::Number { default: 8.0, min: 2.0, max: 256.0, integer: true } },
            Param { key: "span", help: "distance between the two ground points of the 10 m chain; from 6.5 m the start arc hangs below them (m)", kind: ParamKind::Number { default: 8.0, min: 6.5, max: 9.5, integer: false } },
            Param { key: "tilt", help: "initial turn of the arc about the line through the ground points (rad)", kind: ParamKind::Number { default: 0.5, min: -1.0, max: 1.0, integer: false } },
        ],
    },
    Preset {
        name: "spring-pendulum",
        description: "elastic pendulum: a 1 kg body on a spring (rest length 1 m) from a ground point, released at an angle and stretched; it trades energy between swinging and bouncing",
        params: &[
            Param { key: "stiffness", help: "spring stiffness (N/m)", kind: ParamKind::Number { default: 40.0, min: 1.0, max: 1e4, integer: false } },
            Param { key: "angle", help: "initial angle from the downward vertical (rad)", kind: ParamKind::Number { default: 0.6, min: -3.0, max: 3.0, integer: false } },
            Param { key: "stretch", help: "initial stretch beyond the hanging length 1 + g/k (m)", kind: ParamKind::Number { default: 0.2, min: -0.5, max: 2.0, integer: false } },
        ],
    },
    Preset {
        name: "damped-pendulum",
        description: "damped pendulum: a 1 m rod (1 kg) on a hinge with a torsional damper (and spring), released from rest; its energy decays into the damper",
        params: &[
            Param { key: "damping", help: "damping of the hinge (N m s/rad)", kind: ParamKind::Number { default: 0.2, min: 0.0, max: 100.0, integer: false } },
            Param { key: "stiffness", help: "torsional spring of the hinge, relaxed hanging down (N m/rad)", kind: ParamKind::Number { default: 0.0, min: 0.0, max: 1000.0, integer: false } },
            Param { key: "angle", help: "initial angle from the downward vertical (rad)", kind: ParamKind::Number { default: 2.0, min: -3.1, max: 3.1, integer: false } },
        ],
    },
    Preset {
        name: "driven-pendulum",
        description: "driven pendulum: a 1 m rod (1 kg) on a hinge turned by a sinusoidal motor torque and slowed by a damper; energy flows in through the motor and out through the damper",
        params: &[
            Param { key: "torque", help: "amplitude of the motor torque (N m)", kind: ParamKind::Number { default: 3.0, min: 0.0, max: 100.0, integer: false } },
            Param { key: "frequency", help: "frequency of the motor torque (Hz)", kind: ParamKind::Number { default: 0.5, min: 0.01, max: 20.0, integer: false } },
            Param { key: "damping", help: "damping of the hinge (N m s/rad)", kind: ParamKind::Number { default: 0.1, min: 0.0, max: 100.0, integer: false } },
        ],
    },
    Preset {
        name: "slider-crank",
        description: "slider-crank: a flywheel crank driven at constant speed (reached by a smooth 1 s ramp) or turned by a motor, a connecting rod and a piston on a prismatic joint, optionally on a spring-damper; a closed loop with one degree of freedom",
        params: &[
            Param { key: "speed", help: "crank speed the drive ramps to over 1 s (rad/s); 0: turned by the motor torque instead", kind: ParamKind::Number { default: 6.283185307179586, min: -100.0, max: 100.0, integer: false } },
            Param { key: "torque", help: "motor torque on the crank when speed is 0 (N m), reached after a smooth 1 s ramp", kind: ParamKind::Number { default: 1.0, min: 0.0, max: 100.0, integer: false } },
            Param { key: "damping", help: "damping of the crank's hinge (N m s/rad)", kind: ParamKind::Number { default: 0.1, min: 0.0, max: 100.0, integer: false } },
            Param { key: "spring", help: "stiffness of the piston's spring, relaxed at the start (N/m)", kind: ParamKind::Number { default: 0.0, min: 0.0, max: 1e4, integer: false } },
            Param { key: "piston_damping", help: "damping of the piston's damper (N s/m)", kind: ParamKind::Number { default: 0.0, min: 0.0, max: 1e3, integer: false } },
            Param { key: "crank", help: "crank length r (m)", kind: ParamKind::Number { default: 0.2, min: 0.05, max: 1.0, integer: false } },
            Param { key: "rod", help: "connecting rod length l, more than r (m)", kind: ParamKind::Number { default: 0.6, min: 0.1, max: 3.0, integer: false } },
            Param { key: "angle", help: "initial crank angle from the piston's line (rad)", kind: ParamKind::Number { default: 1.0, min: -3.2, max: 3.2, integer: false } },
        ],
    },
    Preset {
        name: "kapitza",
        description: "Kapitza's pendulum: a rod hinged to a carriage that a drive shakes up and down; shaken fast enough, the rod stays upright",
        params: &[
            Param { key: "amplitude", help: "amplitude of the pivot's motion (m)", kind: ParamKind::Number { default: 0.05, min: 0.0, max: 0.5, integer: false } },
            Param { key: "frequency", help: "frequency of the pivot's motion (Hz); upright is stable above about sqrt(4 g L / 3) / (2 pi A), 8.1 Hz at A = 0.05 m", kind: ParamKind::Number { default: 30.0, min: 0.1, max: 100.0, integer: false } },
            Param { key: "angle", help: "initial tilt of the rod from upright (rad)", kind: ParamKind::Number { default: 0.2, min: -3.1, max: 3.1, integer: false } },
        ],
    },
    Preset {
        name: "andrews",
        description: "Andrews' squeezing mechanism (IFToMM A03, Hairer & Wanner's test set): seven bodies, ten hinges, three loops, a 0.033 N m motor and a stiff spring, 0.03 s",
        params: &[],
    },
    Preset {
        name: "governor",
        description: "flyball governor with the data of IFToMM A05 (the stiff flyball governor): a spindle driven at a constant speed, two arms with 5 kg balls, and a sleeve on the spindle held by two stiff spring-dampers in place of the lower links",
        params: &[
            Param { key: "speed", help: "spindle speed, kept by a drive; the governor turns at it from the start (rad/s)", kind: ParamKind::Number { default: 5.0, min: -30.0, max: 30.0, integer: false } },
            Param { key: "stiffness", help: "stiffness of the two spring-dampers (N/m)", kind: ParamKind::Number { default: 8e5, min: 0.0, max: 1e8, integer: false } },
            Param { key: "damping", help: "damping of the two spring-dampers (N s/m)", kind: ParamKind::Number { default: 4e4, min: 0.0, max: 1e6, integer: false } },
            Param { key: "angle", help: "initial angle of the arms from the downward vertical, the springs relaxed (rad)", kind: ParamKind::Number { default: 0.5235987755982988, min: 0.1, max: 1.4, integer: false } },
        ],
    },
    Preset {
        name: "crane",
        description: "crane: a 3 m boom luffed by a hydraulic cylinder (a distance driver) with a load on a 1.5 m rope (a distance joint); the load swings as the boom lifts",
        params: &[
            Param { key: "stroke", help: "how far the cylinder extends along a smooth ramp; negative: it retracts (m)", kind: ParamKind::Number { default: 0.5, min: -0.3, max: 0.6, integer: false } },
            Param { key: "time", help: "duration of the cylinder's stroke (s)", kind: ParamKind::Number { default: 2.0, min: 0.1, max: 20.0, integer: false } },
            Param { key: "load", help: "mass of the load (kg)", kind: ParamKind::Number { default: 20.0, min: 0.1, max: 500.0, integer: false } },
            Param { key: "rope", help: "length of the rope from the boom's tip to the load (m)", kind: ParamKind::Number { default: 1.5, min: 0.2, max: 5.0, integer: false } },
            Param { key: "angle", help: "initial angle of the boom above the horizontal (rad)", kind: ParamKind::Number { default: 0.3, min: 0.0, max: 0.6, integer: false } },
        ],
    },
    Preset {
        name: "bouncing-ball",
        description: "bouncing ball: a rubber ball (0.1 m, 1 kg) dropped on the ground, optionally thrown and spinning; Hertz contact with the restitution asked, and friction that turns a skid into rolling",
        params: &[
            Param { key: "height", help: "drop height of the ball's lowest point (m)", kind: ParamKind::Number { default: 1.0, min: 0.0, max: 5.0, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e: rebound speed over impact speed", kind: ParamKind::Number { default: 0.8, min: 0.01, max: 1.0, integer: false } },
            Param { key: "friction", help: "friction coefficient mu between ball and ground", kind: ParamKind::Number { default: 0.3, min: 0.0, max: 2.0, integer: false } },
            Param { key: "speed", help: "horizontal throw speed along x2 (m/s)", kind: ParamKind::Number { default: 0.0, min: -5.0, max: 5.0, integer: false } },
            Param { key: "spin", help: "spin about x1, across the throw (rad/s)", kind: ParamKind::Number { default: 0.0, min: -100.0, max: 100.0, integer: false } },
        ],
    },
    Preset {
        name: "newtons-cradle",
        description: "Newton's cradle: balls on hinged strings in a touching row; the first ones are pulled aside and let go, and the impact runs through the row",
        params: &[
            Param { key: "balls", help: "number of balls", kind: ParamKind::Number { default: 5.0, min: 2.0, max: 8.0, integer: true } },
            Param { key: "lifted", help: "how many balls are pulled aside", kind: ParamKind::Number { default: 1.0, min: 1.0, max: 4.0, integer: true } },
            Param { key: "angle", help: "how far they are pulled aside (rad)", kind: ParamKind::Number { default: 0.5, min: 0.05, max: 1.5, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e between balls", kind: ParamKind::Number { default: 0.95, min: 0.01, max: 1.0, integer: false } },
        ],
    },
    Preset {
        name: "ball-pit",
        description: "ball pit: rubber balls (5 cm, 0.1 kg) poured into a box; a broad phase finds the pairs that may touch each step, so the cost grows about linearly with the number of balls",
        params: &[
            Param { key: "balls", help: "number of balls", kind: ParamKind::Number { default: 100.0, min: 2.0, max: 4096.0, integer: true } },
            Param { key: "restitution", help: "coefficient of restitution e of every contact", kind: ParamKind::Number { default: 0.5, min: 0.01, max: 1.0, integer: false } },
            Param { key: "friction", help: "friction coefficient mu with the box", kind: ParamKind::Number { default: 0.3, min: 0.0, max: 2.0, integer: false } },
        ],
    },
    Preset {
        name: "stop-pendulum",
        description: "pendulum against a stop: a 1 m rod let go from an angle swings down onto a stop on the other side and rebounds from it (a joint limit with the restitution asked)",
        params: &[
            Param { key: "angle", help: "angle it is let go from, from hanging straight down (rad)", kind: ParamKind::Number { default: 1.2, min: -3.0, max: 3.0, integer: false } },
            Param { key: "stop", help: "where the stop is, from hanging straight down; below the start angle (rad)", kind: ParamKind::Number { default: -0.4, min: -3.0, max: 3.0, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e of an impact on the stop", kind: ParamKind::Number { default: 0.7, min: 0.01, max: 1.0, integer: false } },
        ],
    },
    Preset {
        name: "incline",
        description: "box on an incline: a 2 kg box on a tilted plane; it stays put while tan(angle) is below the static friction coefficient and slides at g (sin a - mu_k cos a) beyond",
        params: &[
            Param { key: "angle", help: "tilt of the plane (rad); 0.46 rad is the friction angle of mu_s = 0.5", kind: ParamKind::Number { default: 0.6, min: 0.0, max: 1.2, integer: false } },
            Param { key: "friction", help: "kinetic friction coefficient mu_k", kind: ParamKind::Number { default: 0.4, min: 0.0, max: 2.0, integer: false } },
            Param { key: "static_friction", help: "static friction coefficient mu_s (at least mu_k)", kind: ParamKind::Number { default: 0.5, min: 0.0, max: 2.0, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e of the box's corners", kind: ParamKind::Number { default: 0.3, min: 0.01, max: 1.0, integer: false } },
        ],
    },
];

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
            let (model, initial, dt, duration, json) = crate::custom::parse(text)?;
            return Ok(Scenario {
                name: "custom".to_string(),
                values: vec![],
                model,
                initial,
                dt,
                duration,
                json: Some(json),
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
    pub fn suitable_dt(&self, method: crate::Method) -> f64 {
        use crate::Method::{Baumgarte, Rattle};
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
                    "'{}' for scenario '{name}' must be between {min} and {max}, not {raw}",
                    q.key
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
                "unknown field",
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
