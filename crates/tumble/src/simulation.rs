//! One entry point for all three integrators: `Simulation::step` matches on the [`Method`].
//! Its measurements of the state (invariants, contact forces, reactions, state hash) are in
//! `simulation/measure.rs`, the sub-stepping through contact in `simulation/substep.rs`.
mod measure;
mod solver;
pub(crate) mod substep;

use crate::compiled::Compiled;
use crate::mechanism::{self, Mechanism};
use crate::methods::{baumgarte, director, rattle};
use crate::model::{BodyState, DriveKind, ForceElement, Model};
use crate::scenario::Scenario;
use crate::step::{Method, Settings, StepError, StepInfo};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};
use solver::{Saved, Solver};

impl Settings {
    /// Default settings for a scenario.
    pub fn for_scenario(s: &Scenario) -> Settings {
        Settings {
            dt: s.dt,
            tol: 1e-12,
            max_iter: 30,
            alpha: 10.0,
            beta: 10.0,
        }
    }
}

/// A running simulation: the compiled model, the settings, the method's state and workspace.
pub struct Simulation {
    compiled: Compiled,
    mechanism: Mechanism,
    settings: Settings,
    method: Method,
    solver: Solver,
    t: f64,
    steps: u64,
    last: StepInfo,
    /// E at the start, for the energy balance
    e0: f64,
    /// scratch space of [`Simulation::reactions`], made at its first call
    reactions: Option<(baumgarte::Workspace, Vec<BodyState>)>,
    /// the element that a pointer pulls with (`pull`), once a pull has started
    pull: Option<usize>,
    /// with collision shapes: the state before a step, for its sub-steps (`substep.rs`)
    saved: Option<Saved>,
    /// with collision shapes: one state per body, for the sub-stepping's check
    scratch: Vec<BodyState>,
    /// how many sub-steps the last step took (1: none)
    substeps: u32,
    /// (steps, h): the state after that many steps was found resolved by steps of h at the end
    /// of the last one (`substep.rs`), so the next step of h need not check it again
    resolved_at: Option<(u64, f64)>,
    /// with joint limits: each stop's mark at the checked states (`forces/resolve.rs`)
    marks: crate::forces::resolve::Marks,
}

/// A pull: a zero-length spring-damper from a body point to a target point that the user moves
/// (the page's grab and pull).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pull {
    /// the body
    pub body: usize,
    /// the point in the body's frame (m)
    pub point: DVec3,
    /// the target, world (m)
    pub target: DVec3,
    /// stiffness (N/m)
    pub stiffness: f64,
    /// damping (N s/m)
    pub damping: f64,
}

impl Simulation {
    /// Start `scenario` with `method` and `settings`.
    pub fn new(
        scenario: &Scenario,
        method: Method,
        settings: Settings,
    ) -> Result<Simulation, String> {
        settings.validate()?;
        let init = &scenario.initial;
        check_start(scenario, method)?;
        // the elements and drives first: compiling reads the joints they name
        crate::forces::validate(&scenario.model, init)?;
        crate::validate::check_drives(&scenario.model).map_err(|e| e.0)?;
        crate::validate::check_distances(&scenario.model, scenario.duration).map_err(|e| e.0)?;
        let mut c = Compiled::new(&scenario.model)?;
        crate::contact::check_start(&scenario.model, &c.contacts, init)?;
        c.measure_from(init);
        let mechanism = mechanism::analyse(&mut c, init)?;
        // a drive whose row depends on the others cannot move the mechanism: the solvers would
        // hold it at zero force and the prescribed motion would silently not happen
        if !scenario.model.drives.is_empty() {
            // each drive must take one degree of freedom: compare with the mechanism without
            // them (a drive whose row the joints already fix would be held at zero force)
            let mut free = scenario.model.clone();
            free.drives.clear();
            // a driven distance joint's row is its drive's: without the drive it is not there
            // (the forces name joints by index and do not change the degrees of freedom)
            free.forces.clear();
            let m = &scenario.model;
            let rod = |j: usize| {
                m.drives
                    .iter()
                    .any(|d| d.joint == j && d.kind == DriveKind::Distance)
            };
            free.joints = (0..m.joints.len())
                .filter(|&j| !rod(j))
                .map(|j| m.joints[j].clone())
                .collect();
            let mut c0 = Compiled::new(&free)?;
            let dof0 = mechanism::analyse(&mut c0, init)?.dof;
            let n = scenario.model.drives.len() as i64;
            if mechanism.dof != dof0 - n {
                return Err(format!(
                    "the drives cannot all move the mechanism: without them it has {dof0} degree(s) of freedom, with its {n} drive(s) {} (a driven loop that cannot move, or two drives fixing the same motion)",
                    mechanism.dof
                ));
            }
        }
        for &k in &mechanism.redundant {
            let row = c.rows[k];
            if scenario.model.is_drive_row(row.joint, row.row) {
                return Err(format!(
                    "a drive on joints[{}] cannot move the mechanism: at the start its coordinate is fixed by the other joints (the driven loop cannot move)",
                    row.joint
                ));
            }
        }
        let solver = match method {
            Method::Director => Solver::Director(
                director::State::new(&c, init)?,
                director::Workspace::new(&c),
            ),
            Method::Rattle => {
                Solver::Rattle(rattle::State::new(&c, init)?, rattle::Workspace::new(&c))
            }
            Method::Baumgarte => Solver::Baumgarte(
                baumgarte::State::new(&c, init),
                baumgarte::Workspace::new(&c),
            ),
        };
        let mut sim = Simulation {
            compiled: c,
            mechanism,
            settings,
            method,
            solver,
            t: 0.0,
            steps: 0,
            last: StepInfo::default(),
            e0: 0.0,
            reactions: None,
            pull: None,
            saved: None,
            scratch: Vec::new(),
            substeps: 1,
            resolved_at: None,
            marks: Default::default(),
        };
        if !sim.model().contact.is_empty() || sim.compiled.has_limits {
            sim.saved = Some(Saved::of(&sim.solver));
            sim.scratch = init.to_vec();
            sim.marks = crate::forces::resolve::Marks::new(sim.model().forces.len());
        }
        sim.e0 = sim.invariants().energy();
        Ok(sim)
    }

    /// Advance one step of `settings.dt` (with collision shapes, in the sub-steps its contacts
    /// need: `simulation/substep.rs`). On error nothing changes.
    pub fn step(&mut self) -> Result<StepInfo, StepError> {
        let h = self.settings.dt;
        let info = if self.saved.is_some() {
            self.step_resolved(h)
        } else {
            self.solve()
        };
        // a singular joint-space system where the joints are sound at the step's start (the
        // state stays there): Newton ran away, not the joints' fault
        let info = match info {
            Err(StepError::Singular) if self.joints_sound() => Err(StepError::TooLarge),
            other => other,
        }?;
        self.steps += 1;
        self.t += h;
        self.last = info;
        Ok(info)
    }

    /// How many sub-steps the last step took (1 when it was taken whole).
    pub fn substeps(&self) -> u32 {
        self.substeps
    }

    /// One step of the method at `settings.dt`; on error nothing changes.
    fn solve(&mut self) -> Result<StepInfo, StepError> {
        let (c, st) = (&self.compiled, &self.settings);
        match &mut self.solver {
            Solver::Director(s, w) => director::step(c, s, w, st),
            Solver::Rattle(s, w) => rattle::step(c, s, w, st),
            Solver::Baumgarte(s, w) => baumgarte::step(c, s, w, st),
        }
    }

    /// Whether the joint-space matrix J M^-1 J^T factors at the current state: the joints are
    /// neither redundant nor degenerate there.
    fn joints_sound(&self) -> bool {
        let c = &self.compiled;
        let states = self.states();
        let evals: Vec<_> = (0..c.frames.len())
            .map(|j| crate::joints::evaluate_frame(&c.frames[j], &states, self.t))
            .collect();
        let w: Vec<_> = (0..states.len())
            .map(|i| crate::joints::InverseMass::new(c, i, &states[i].r))
            .collect();
        let mut js = crate::sparse::JointMatrix::new(&c.pattern);
        crate::joints::assemble_and_factor(&evals, &evals, &w, c, &mut js).is_ok()
    }

    /// Change the time step from now on (e.g. to continue with a smaller step after a failed
    /// one). The state is the same for any step, so the run continues from where it stands.
    pub fn set_dt(&mut self, dt: f64) -> Result<(), String> {
        let s = Settings {
            dt,
            ..self.settings
        };
        s.validate()?;
        self.settings = s;
        Ok(())
    }

    /// Change the Baumgarte gains alpha and beta from now on (validated like [`Settings`]).
    pub fn set_gains(&mut self, alpha: f64, beta: f64) -> Result<(), String> {
        let s = Settings {
            alpha,
            beta,
            ..self.settings
        };
        s.validate()?;
        self.settings = s;
        Ok(())
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.compiled.model
    }

    /// The compiled model.
    pub fn compiled(&self) -> &Compiled {
        &self.compiled
    }

    /// Loops, redundant joint rows and degrees of freedom, found at the initial state.
    pub fn mechanism(&self) -> &Mechanism {
        &self.mechanism
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The method.
    pub fn method(&self) -> Method {
        self.method
    }

    /// Simulated time (steps x dt).
    pub fn time(&self) -> f64 {
        self.t
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Body states after the last step, converted from the method's own state.
    pub fn states(&self) -> Vec<BodyState> {
        let mut out =
            alloc::vec![BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY); self.compiled.bodies()];
        self.body_states(&mut out);
        out
    }

    /// Body states after the last step into `out` (one per body).
    pub fn body_states(&self, out: &mut [BodyState]) {
        let c = &self.compiled;
        match &self.solver {
            Solver::Director(s, _) => s.body_states(&c.model, out),
            Solver::Rattle(s, _) => s.body_states(c, out),
            Solver::Baumgarte(s, _) => out.copy_from_slice(&s.bodies),
        }
    }

    /// Body `b`'s state after the last step (`states()[b]` without building the others).
    /// Panics if `b` is not a body.
    pub fn body_state(&self, b: usize) -> BodyState {
        let c = &self.compiled;
        match &self.solver {
            Solver::Director(s, _) => s.body_state(&c.model, b),
            Solver::Rattle(s, _) => s.bodies[b].state(&c.model.bodies[b]),
            Solver::Baumgarte(s, _) => s.bodies[b],
        }
    }

    /// The poses into `out`, 12 numbers per body: x, then R column-major.
    pub fn write_poses(&self, out: &mut [f64]) {
        match &self.solver {
            Solver::Director(s, _) => s.write_poses(out),
            Solver::Rattle(s, _) => {
                for (o, b) in out.chunks_exact_mut(12).zip(&s.bodies) {
                    o[0..3].copy_from_slice(&b.x.to_array());
                    o[3..12].copy_from_slice(&b.r.to_cols_array());
                }
            }
            Solver::Baumgarte(s, _) => {
                for (o, b) in out.chunks_exact_mut(12).zip(&s.bodies) {
                    o[0..3].copy_from_slice(&b.x.to_array());
                    o[3..12].copy_from_slice(&b.r.to_cols_array());
                }
            }
        }
    }

    /// Steps the director took by its full Newton solve because the condensed one did not
    /// converge (zero for the other methods).
    pub fn fallbacks(&self) -> u64 {
        match &self.solver {
            Solver::Director(s, _) => s.fallbacks(),
            _ => 0,
        }
    }

    /// Pull body `p.body` at its point `p.point` towards `p.target` with a zero-length
    /// spring-damper (`None`: let go). Between steps the target jumps, and with it the
    /// spring's potential: the jump counts as work put in, so E - E0 - W + D stays what the
    /// method makes of it. The first pull adds the spring to the model (a run that was pulled
    /// is no longer the run its scenario describes); letting go sets its coefficients to zero.
    pub fn set_pull(&mut self, p: Option<Pull>) -> Result<(), String> {
        use crate::forces::ForceElement;
        if let Some(p) = &p {
            if p.body >= self.compiled.bodies() {
                return Err(format!("pull: there is no body {}", p.body));
            }
            let ok = [p.point, p.target]
                .iter()
                .all(|v| v.is_finite() && v.abs().max_element() <= 1e9)
                && (0.0..=crate::forces::MAX_COEFFICIENT).contains(&p.stiffness)
                && (0.0..=crate::forces::MAX_COEFFICIENT).contains(&p.damping);
            if !ok {
                return Err("pull: the point, target and coefficients must be finite, the coefficients between 0 and 1e12".into());
            }
        }
        let before = self.invariants().potential;
        let k = match self.pull {
            Some(k) => k,
            None => {
                if p.is_none() {
                    return Ok(());
                }
                let k = self.compiled.model.forces.len();
                self.compiled.model.forces.push(ForceElement::Spring {
                    a: None,
                    point_a: DVec3::ZERO,
                    b: 0,
                    point_b: DVec3::ZERO,
                    stiffness: 0.0,
                    rest_length: 0.0,
                    damping: 0.0,
                });
                // (the tendons' terms keep their frames and angles after the elements': the
                // pull's go in at its place, k)
                self.compiled
                    .force_frames
                    .insert(k, crate::forces::Frame::default());
                match &mut self.solver {
                    Solver::Director(s, w) => {
                        s.forces.angles.insert(k, 0.0);
                        w.grow_elements(&self.compiled);
                    }
                    Solver::Rattle(s, w) => {
                        s.forces.angles.insert(k, 0.0);
                        w.grow_elements();
                    }
                    Solver::Baumgarte(s, w) => {
                        s.forces.angles.insert(k, 0.0);
                        w.grow_elements();
                    }
                }
                self.reactions = None;
                self.pull = Some(k);
                k
            }
        };
        let q = p.unwrap_or(Pull {
            body: 0,
            point: DVec3::ZERO,
            target: DVec3::ZERO,
            stiffness: 0.0,
            damping: 0.0,
        });
        self.compiled.model.forces[k] = ForceElement::Spring {
            a: None,
            point_a: q.target,
            b: q.body,
            point_b: q.point,
            stiffness: q.stiffness,
            rest_length: 0.0,
            damping: q.damping,
        };
        let jump = self.invariants().potential - before;
        match &mut self.solver {
            Solver::Director(s, _) => s.forces.work += jump,
            Solver::Rattle(s, _) => s.forces.work += jump,
            Solver::Baumgarte(s, _) => s.forces.work += jump,
        }
        Ok(())
    }

    /// Set control `c` (the model's `controls[c]`: MuJoCo's ctrl) to `value` from the next step
    /// on: its motor's factor. The motor's work over each step is W's as for any motor, so the
    /// balance holds through the change. Refused (with a message naming the control) where
    /// there is no such control or `value` is not a finite number within its range.
    pub fn set_control(&mut self, c: usize, value: f64) -> Result<(), String> {
        let model = &self.compiled.model;
        let Some(&ctl) = model.controls.get(c) else {
            return Err(format!(
                "control {c} does not exist: {}",
                crate::text::numbered(model.controls.len(), "control", "controls")
            ));
        };
        let name = crate::model::Names::of(&model.names.forces, ctl.element).map_or_else(
            || format!("control {c}"),
            |n| format!("control {c} ('{n}')"),
        );
        if !(value.is_finite() && (ctl.lower..=ctl.upper).contains(&value)) {
            return Err(format!(
                "{name}: {} is not within its range [{}, {}]",
                crate::text::Num(value),
                crate::text::Num(ctl.lower),
                crate::text::Num(ctl.upper)
            ));
        }
        let value = crate::timefn::TimeFn::Constant { value };
        if let ForceElement::Motor { time, .. }
        | ForceElement::SliderMotor { time, .. }
        | ForceElement::TendonMotor { time, .. } = &mut self.compiled.model.forces[ctl.element]
        {
            *time = value;
        }
        Ok(())
    }

    /// Control `c`'s value now (`None`: no such control).
    pub fn control(&self, c: usize) -> Option<f64> {
        let ctl = self.compiled.model.controls.get(c)?;
        self.compiled.model.forces[ctl.element]
            .time_fn()
            .map(|t| t.at(0.0))
    }

    /// Whether the run was pulled (its link no longer reproduces it).
    pub fn pulled(&self) -> bool {
        self.pull.is_some()
    }

    /// The force elements' part of the state: time, work W, dissipation D, joint spring angles.
    pub fn force_state(&self) -> &crate::forces::State {
        match &self.solver {
            Solver::Director(s, _) => &s.forces,
            Solver::Rattle(s, _) => &s.forces,
            Solver::Baumgarte(s, _) => &s.forces,
        }
    }
}

/// An initial state of every body, and nothing that only the director integrates (a tendon
/// armature) for the other methods.
fn check_start(scenario: &Scenario, method: Method) -> Result<(), String> {
    let init = &scenario.initial;
    if init.len() != scenario.model.bodies.len() {
        return Err(format!(
            "the initial state is of {}, the model has {}",
            crate::text::count(init.len(), "body", "bodies"),
            crate::text::count(scenario.model.bodies.len(), "body", "bodies")
        ));
    }
    let armature = scenario
        .model
        .forces
        .iter()
        .position(|f| matches!(f, ForceElement::TendonArmature { .. }));
    match armature {
        Some(k) if method != Method::Director => Err(format!(
            "forces[{k}] (tendon_armature): a rotor inertia is integrated by the director only; RATTLE and Baumgarte do not take it yet (choose the director, or remove the armature)"
        )),
        _ => Ok(()),
    }
}
