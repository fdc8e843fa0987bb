//! The wasm-bindgen facade: a [`Simulation`] handle with a step/query API.
//!
//! Bulk data leaves through typed arrays the caller passes in (no JSON in the frame loop):
//! - `write_poses(out: Float64Array)`: 12 numbers per body, x y z then R column-major
//!   (the columns are the directors q1 q2 q3);
//! - `invariants(out: Float64Array)`: [`INVARIANT_FIELDS`] in that order.
//!
//! Errors (bad scenario text, bad settings, a failed step) come back as JS `Error`s or
//! as the message of `last_error()`; nothing panics on user input.
//!
//! Besides the handle, the scenario as a whole (presets, canonical text, the editor's check and
//! JSON, the mechanism, a suitable step) is here; what the view draws of a scenario is in
//! [`view`], the editor's JSON export in [`export`] and its locating of errors in [`editor`].
use tumble::{Method, Scenario, Settings};
use wasm_bindgen::prelude::*;

pub mod coordinates;
pub mod editor;
pub mod export;
pub mod external;
pub mod study;
pub mod view;

/// Names of the numbers `invariants()` writes, in order.
pub const INVARIANT_FIELDS: [&str; 15] = [
    "t",
    "energy",
    "kinetic",
    "potential",
    "l1",
    "l2",
    "l3",
    "internal_violation",
    "joint_violation",
    "iterations",
    "residual",
    "work",
    "dissipated",
    "balance",
    "contact",
];

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// A preset, for the page's scenario menu.
#[derive(serde::Serialize)]
struct PresetInfo {
    name: &'static str,
    description: &'static str,
    params: Vec<ParamInfo>,
}

#[derive(serde::Serialize)]
struct ParamInfo {
    key: &'static str,
    help: &'static str,
    default: f64,
    min: f64,
    max: f64,
    integer: bool,
    choices: Vec<&'static str>,
}

/// A control as `Simulation.controls` lists it.
#[derive(serde::Serialize)]
struct ControlInfo {
    name: String,
    lower: f64,
    upper: f64,
    value: f64,
    gear: f64,
    unit: &'static str,
}

/// Every preset with its parameters: `[{name, description, params: [{key, help, default, min, max, integer, choices}]}]`.
#[wasm_bindgen]
pub fn presets() -> Result<JsValue, JsError> {
    let list: Vec<PresetInfo> = tumble::scenario::PRESETS
        .iter()
        .map(|p| PresetInfo {
            name: p.name,
            description: p.description,
            params: p
                .params
                .iter()
                .map(|q| match q.kind {
                    tumble::scenario::ParamKind::Number {
                        default,
                        min,
                        max,
                        integer,
                    } => ParamInfo {
                        key: q.key,
                        help: q.help,
                        default,
                        min,
                        max,
                        integer,
                        choices: vec![],
                    },
                    tumble::scenario::ParamKind::Choice(c) => ParamInfo {
                        key: q.key,
                        help: q.help,
                        default: 0.0,
                        min: 0.0,
                        max: 0.0,
                        integer: false,
                        choices: c.to_vec(),
                    },
                })
                .collect(),
        })
        .collect();
    serde_wasm_bindgen::to_value(&list).map_err(|e| JsError::new(&e.to_string()))
}

/// Names of the numbers written by `Simulation.invariants`.
#[wasm_bindgen]
pub fn invariant_fields() -> Vec<String> {
    INVARIANT_FIELDS.iter().map(|s| s.to_string()).collect()
}

/// Canonical form of a scenario text, or an error naming the bad field.
#[wasm_bindgen]
pub fn canonical_scenario(text: &str) -> Result<String, JsError> {
    Scenario::parse(text)
        .map(|s| s.canonical())
        .map_err(|e| JsError::new(&e.0))
}

/// The scenario (preset or custom) as JSON in the documented format (docs/scenarios.md), one
/// body or joint a line: what the page's editor opens. Throws on a bad text or a scenario too
/// large for the JSON form (over 1 MiB).
#[wasm_bindgen]
pub fn scenario_json(text: &str) -> Result<String, JsError> {
    let sc = editor::check(text).map_err(|p| JsError::new(&p.message))?;
    export::export(&sc).map_err(|e| JsError::new(&e))
}

/// A problem with a scenario's text as the page's editor takes it: where it is (line and
/// column 0 when nothing places it) and what it is.
#[derive(serde::Serialize)]
struct Bad {
    ok: bool,
    message: String,
    path: String,
    line: usize,
    column: usize,
}

/// Check a scenario text for the editor: `{ ok: true, canonical }` or `{ ok: false, message,
/// path, line, column }` (the field's JSON path, 1-based line and column in characters; 0 when
/// the message is about no one place). Never throws.
#[wasm_bindgen]
pub fn check_scenario(text: &str) -> JsValue {
    #[derive(serde::Serialize)]
    struct Ok {
        ok: bool,
        canonical: String,
    }
    let r = match editor::check(text) {
        Ok(sc) => serde_wasm_bindgen::to_value(&Ok {
            ok: true,
            canonical: sc.canonical(),
        }),
        Err(p) => serde_wasm_bindgen::to_value(&Bad {
            ok: false,
            message: p.message,
            path: p.path,
            line: p.line,
            column: p.column,
        }),
    };
    r.unwrap_or(JsValue::NULL)
}

/// A message about scenario `text` that came later than the check (its run would not start:
/// bodies that start inside each other) placed in the text as `check_scenario` places its own:
/// `{ ok: false, message, path, line, column }` (line and column 0 when nothing places it).
#[wasm_bindgen]
pub fn locate_problem(text: &str, message: &str) -> JsValue {
    let p = editor::locate(text, message);
    let placed = p.line > 0 && !p.path.is_empty();
    serde_wasm_bindgen::to_value(&Bad {
        ok: false,
        message: if placed {
            p.message
        } else {
            message.to_string()
        },
        path: p.path,
        line: if placed { p.line } else { 0 },
        column: if placed { p.column } else { 0 },
    })
    .unwrap_or(JsValue::NULL)
}

/// The mechanism of `text` at its initial state, for the page's readout: "1 degree of
/// freedom; 3 of 20 joint rows redundant (1 loop)" (`tumble::mechanism`). Throws on a bad text
/// or joints that are degenerate at the initial state.
#[wasm_bindgen]
pub fn mechanism(text: &str) -> Result<String, JsError> {
    let sc = Scenario::parse(text).map_err(|e| JsError::new(&e.0))?;
    let mut c = tumble::compiled::Compiled::new(&sc.model).map_err(|e| JsError::new(&e))?;
    let m = tumble::mechanism::analyse(&mut c, &sc.initial).map_err(|e| JsError::new(&e))?;
    Ok(m.describe())
}

/// A time step (s) that suits `integrator` on `scenario` (canonical text): the scenario's
/// own step unless that is beyond what the integrator handles (`Scenario::suitable_dt`).
#[wasm_bindgen]
pub fn suitable_dt(scenario: &str, integrator: &str) -> Result<f64, JsError> {
    let sc = Scenario::parse(scenario).map_err(|e| JsError::new(&e.0))?;
    let method = Method::parse(integrator).map_err(|e| JsError::new(&e))?;
    Ok(sc.suitable_dt(method))
}

/// A running simulation.
#[wasm_bindgen]
pub struct Simulation {
    inner: tumble::Simulation,
    scenario: Scenario,
    error: Option<String>,
    /// scratch: one state per body, for `contact_forces`
    states: Vec<tumble::BodyState>,
}

#[wasm_bindgen]
impl Simulation {
    /// Start `scenario` (canonical text) with `integrator` (director, rattle or baumgarte).
    /// `dt` and `tol` of 0 mean the scenario's defaults.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario: &str, integrator: &str, dt: f64, tol: f64) -> Result<Simulation, JsError> {
        let sc = Scenario::parse(scenario).map_err(|e| JsError::new(&e.0))?;
        let method = Method::parse(integrator).map_err(|e| JsError::new(&e))?;
        let mut settings = Settings::for_scenario(&sc);
        settings.dt = if dt != 0.0 {
            dt
        } else {
            sc.suitable_dt(method)
        };
        if tol != 0.0 {
            settings.tol = tol;
        }
        let inner = tumble::Simulation::new(&sc, method, settings).map_err(|e| JsError::new(&e))?;
        let states = inner.states();
        Ok(Simulation {
            inner,
            scenario: sc,
            error: None,
            states,
        })
    }

    /// Take up to `n` steps; returns how many were taken. A failed step stops the run:
    /// the state stays at the last good step and `last_error()` says why.
    pub fn step(&mut self, n: u32) -> u32 {
        if self.error.is_some() {
            return 0;
        }
        for i in 0..n {
            if let Err(e) = self.inner.step() {
                self.error = Some(alloc_format(self.inner.time(), &e.to_string()));
                return i;
            }
        }
        n
    }

    /// Continue with time step `dt` (the run stopped by a failed step resumes from its last
    /// good state). Throws if `dt` is out of range.
    pub fn set_dt(&mut self, dt: f64) -> Result<(), JsError> {
        self.inner.set_dt(dt).map_err(|e| JsError::new(&e))?;
        self.error = None;
        Ok(())
    }

    /// Set the Baumgarte gains alpha and beta (1/s; defaults 10). Throws if out of range.
    pub fn set_gains(&mut self, alpha: f64, beta: f64) -> Result<(), JsError> {
        self.inner
            .set_gains(alpha, beta)
            .map_err(|e| JsError::new(&e))
    }

    /// Newton tolerance in use.
    pub fn tol(&self) -> f64 {
        self.inner.settings().tol
    }

    /// Baumgarte gains in use, [alpha, beta].
    pub fn gains(&self) -> Vec<f64> {
        vec![self.inner.settings().alpha, self.inner.settings().beta]
    }

    /// Why the run stopped, if it did.
    pub fn last_error(&self) -> Option<String> {
        self.error.clone()
    }

    /// Simulated time (s).
    pub fn time(&self) -> f64 {
        self.inner.time()
    }

    /// Time step (s).
    pub fn dt(&self) -> f64 {
        self.inner.settings().dt
    }

    /// The scenario's default duration (s).
    pub fn duration(&self) -> f64 {
        self.scenario.duration
    }

    /// Canonical scenario text.
    pub fn canonical(&self) -> String {
        self.scenario.canonical()
    }

    /// Integrator name.
    pub fn integrator(&self) -> String {
        self.inner.method().name().to_string()
    }

    /// How far from the origin the bodies can get through the joints from the ground (m), for
    /// framing the view (`tumble::reach`); -1 when a body has no path of joints to the ground.
    pub fn reach(&self) -> f64 {
        tumble::reach::reach(self.inner.model(), &self.inner.states()).unwrap_or(-1.0)
    }

    /// Number of bodies.
    pub fn body_count(&self) -> usize {
        self.inner.model().bodies.len()
    }

    /// Box sides of every body (3 per body) into `out`.
    pub fn write_sizes(&self, out: &mut [f64]) {
        for (o, b) in out.chunks_exact_mut(3).zip(&self.inner.model().bodies) {
            o.copy_from_slice(&b.size.to_array());
        }
    }

    /// Poses into `out` (12 per body: x, then R column-major).
    pub fn write_poses(&self, out: &mut [f64]) {
        self.inner.write_poses(out);
    }

    /// The contact forces at the current state into `out`, 6 numbers each: the contact point
    /// (m) and the force on the body (N), world components, as many as fit; returns how many
    /// there are (tumble::Simulation::contact_forces).
    pub fn contact_forces(&mut self, out: &mut [f64]) -> usize {
        self.inner.contact_forces(&mut self.states, out)
    }

    /// How many sub-steps the last step took through contact (1: it was taken whole).
    pub fn substeps(&self) -> u32 {
        self.inner.substeps()
    }

    /// Whether the bodies carry collision shapes (contact forces can act).
    pub fn has_contact(&self) -> bool {
        !self.inner.model().contact.is_empty()
    }

    /// Whether the system has stops (joint or tendon limits, ropes).
    pub fn has_limits(&self) -> bool {
        self.inner.model().forces.iter().any(|f| f.is_stop())
    }

    /// The weight of the heaviest body, m |g| (N; its mass times 1 m/s^2 without gravity): the
    /// force the page's contact arrows draw at a fixed length.
    pub fn weight(&self) -> f64 {
        let m = self.inner.model();
        let g = m.gravity.length();
        let heaviest = m.bodies.iter().map(|b| b.mass).fold(0.0, f64::max);
        heaviest * if g > 0.0 { g } else { 1.0 }
    }

    /// Which angular-momentum components (l1, l2, l3) the model conserves, as 0 or 1 each.
    pub fn conserved(&self) -> Vec<u8> {
        tumble::invariants::conserved_momentum(self.inner.model())
            .iter()
            .map(|&c| c as u8)
            .collect()
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.inner.model().joints.len()
    }

    /// World position of every joint (its point on body b), 3 per joint, into `out`.
    pub fn write_joints(&self, out: &mut [f64]) {
        for (o, j) in out.chunks_exact_mut(3).zip(&self.inner.model().joints) {
            let s = self.inner.body_state(j.b);
            o.copy_from_slice(&(s.x + s.r * j.point_b).to_array());
        }
    }

    /// Whether the system has force elements, loads, drives or contact: its energy balance is
    /// then E - E0 - W + D, and the page shows the budget (T, V, W, D).
    pub fn has_forces(&self) -> bool {
        let m = self.inner.model();
        !m.forces.is_empty() || !m.drives.is_empty() || !m.contact.is_empty()
    }

    /// Number of point-to-point elements drawn between two points: the spring-dampers (coils,
    /// dashpots) and ropes (lines) in the elements' order, then the distance joints (rods; a
    /// driven one as a cylinder).
    pub fn spring_count(&self) -> usize {
        let m = self.inner.model();
        m.forces
            .iter()
            .filter(|f| {
                matches!(
                    f,
                    tumble::ForceElement::Spring { .. } | tumble::ForceElement::Rope { .. }
                )
            })
            .count()
            + m.joints
                .iter()
                .filter(|j| matches!(j.kind, tumble::JointKind::Distance { .. }))
                .count()
    }

    /// The two world end points of every element of [`Simulation::spring_count`], 6 numbers
    /// each (a then b), into `out`.
    pub fn write_springs(&self, out: &mut [f64]) {
        let m = self.inner.model();
        let at = |b: Option<usize>, p: glam::DVec3| {
            b.map_or(p, |b| {
                let s = self.inner.body_state(b);
                s.x + s.r * p
            })
        };
        let springs = m.forces.iter().filter_map(|f| match *f {
            tumble::ForceElement::Spring {
                a,
                point_a,
                b,
                point_b,
                ..
            }
            | tumble::ForceElement::Rope {
                a,
                point_a,
                b,
                point_b,
                ..
            } => Some((at(a, point_a), at(Some(b), point_b))),
            _ => None,
        });
        let rods = m
            .joints
            .iter()
            .filter(|j| matches!(j.kind, tumble::JointKind::Distance { .. }))
            .map(|j| (at(j.a, j.point_a), at(Some(j.b), j.point_b)));
        for (o, (pa, pb)) in out.chunks_exact_mut(6).zip(springs.chain(rods)) {
            o[..3].copy_from_slice(&pa.to_array());
            o[3..].copy_from_slice(&pb.to_array());
        }
    }

    /// Pull body `body` at its point `point` (body frame, m) towards `target` (world, m) with a
    /// zero-length spring (`stiffness` N/m, `damping` N s/m), from the next step on; the jump
    /// of the spring's energy when the target moves counts as work W. Throws on a bad body or
    /// non-finite numbers.
    pub fn set_pull(
        &mut self,
        body: usize,
        point: &[f64],
        target: &[f64],
        stiffness: f64,
        damping: f64,
    ) -> Result<(), JsError> {
        if point.len() != 3 || target.len() != 3 {
            return Err(JsError::new(
                "set_pull: point and target take 3 numbers each",
            ));
        }
        let p = tumble::simulation::Pull {
            body,
            point: glam::DVec3::from_slice(point),
            target: glam::DVec3::from_slice(target),
            stiffness,
            damping,
        };
        self.inner.set_pull(Some(p)).map_err(|e| JsError::new(&e))
    }

    /// Every body's mass (kg), one per body, into `out` (the page scales a pull's spring to it).
    pub fn write_masses(&self, out: &mut [f64]) {
        for (o, b) in out.iter_mut().zip(&self.inner.model().bodies) {
            *o = b.mass;
        }
    }

    /// Let go of the pull (its spring's remaining energy leaves W).
    pub fn release_pull(&mut self) {
        let _ = self.inner.set_pull(None);
    }

    /// The controls (MuJoCo's ctrl: a motor's factor set while it runs), in order: per control
    /// { name (the motor's, or "control N"), lower, upper, value, gear (the motor's torque in
    /// N m or force in N at 1), unit ("N m" or "N") }.
    pub fn controls(&self) -> Result<JsValue, JsError> {
        let model = self.inner.model();
        let list: Vec<ControlInfo> = model
            .controls
            .iter()
            .enumerate()
            .map(|(c, ctl)| {
                let name = tumble::model::Names::of(&model.names.forces, ctl.element)
                    .map_or_else(|| format!("control {c}"), String::from);
                let (gear, unit) = match model.forces[ctl.element] {
                    tumble::ForceElement::Motor { torque, .. } => (torque, "N m"),
                    tumble::ForceElement::SliderMotor { force, .. } => (force, "N"),
                    tumble::ForceElement::TendonMotor { tendon, force, .. } => {
                        (force, tumble::forces::tendons::force_unit(model, tendon))
                    }
                    _ => (0.0, ""),
                };
                ControlInfo {
                    name,
                    lower: ctl.lower,
                    upper: ctl.upper,
                    value: self.inner.control(c).unwrap_or(0.0),
                    gear,
                    unit,
                }
            })
            .collect();
        serde_wasm_bindgen::to_value(&list).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Set control `c` to `value` from the next step on; throws, naming the control, where
    /// there is no such control or the value is not a number within its range.
    pub fn set_control(&mut self, c: usize, value: f64) -> Result<(), JsError> {
        self.inner
            .set_control(c, value)
            .map_err(|e| JsError::new(&e))
    }

    /// Whether this run was pulled: its link starts the run without the pull.
    pub fn pulled(&self) -> bool {
        self.inner.pulled()
    }

    /// The reaction every joint transmits at the current state, 6 numbers per joint into
    /// `out`: the force on its body b (N) and the torque on b about the joint's point (N m),
    /// world components. Returns false (and leaves `out`) where the joint-space system is
    /// singular at this state.
    pub fn write_reactions(&mut self, out: &mut [f64]) -> bool {
        self.inner.reactions(out).is_ok()
    }

    /// The invariants of the current state into `out` (see `invariant_fields()`).
    pub fn invariants(&self, out: &mut [f64]) {
        let i = self.inner.invariants();
        let v = [
            i.t,
            i.energy(),
            i.kinetic,
            i.potential,
            i.momentum.x,
            i.momentum.y,
            i.momentum.z,
            i.internal_violation,
            i.joint_violation,
            i.iterations as f64,
            i.residual,
            i.work,
            i.dissipated,
            i.balance,
            i.contact,
        ];
        let n = out.len().min(v.len());
        out[..n].copy_from_slice(&v[..n]);
    }

    /// Hash of the exact state bits, as 16 hex digits.
    pub fn state_hash(&self) -> String {
        let mut s = String::new();
        let h = self.inner.state_hash();
        for i in (0..16).rev() {
            s.push(char::from_digit(((h >> (4 * i)) & 0xf) as u32, 16).unwrap());
        }
        s
    }
}

fn alloc_format(t: f64, msg: &str) -> String {
    format!("at t = {t:.4} s: {msg}")
}
