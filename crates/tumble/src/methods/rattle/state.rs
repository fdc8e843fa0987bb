//! The RATTLE state (per body x, p = M v, R, P = dR/dt D, and the multipliers that start the
//! next step's position stage) and the scratch space of a step (`stages.rs`).
use super::rotation::body_w;
use crate::compiled::Compiled;
use crate::joints::{InverseMass, JointEval};
use crate::math::skew;
use crate::model::BodyState;
use crate::sparse::JointMatrix;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// The RATTLE state of one body.
#[derive(Clone, Copy, Debug)]
pub struct Rb {
    /// centre of mass
    pub x: DVec3,
    /// linear momentum M v
    pub p: DVec3,
    /// rotation
    pub r: DMat3,
    /// matrix momentum P = dR/dt D
    pub pm: DMat3,
}

impl Rb {
    /// x, R, v, w of the body (`b`: its model body).
    pub fn state(&self, b: &crate::model::Body) -> BodyState {
        BodyState {
            x: self.x,
            r: self.r,
            v: self.p / b.mass,
            w: body_w(b, &self.r, &self.pm),
        }
    }
}

/// The RATTLE state: the bodies and the multipliers that start the next step's position stage
/// (the last step's velocity-stage multipliers mu, see the end of `stages.rs`).
#[derive(Clone, Debug)]
pub struct State {
    /// per body: x, p, R, P (n x 1)
    pub bodies: Vec<Rb>,
    /// the start of the next position stage: the last step's mu (m x 1)
    pub lambda: Vec<f64>,
    /// time, work, dissipation and joint spring angles of the force elements
    pub forces: crate::forces::State,
}

impl State {
    /// Become a copy of `src`, reusing this state's storage (`simulation/substep.rs`).
    pub fn assign(&mut self, src: &State) {
        self.bodies.clone_from(&src.bodies);
        self.lambda.clone_from(&src.lambda);
        self.forces.assign(&src.forces);
    }

    /// From the initial body states: p = M v, P = R Omega^ D. Fails when a body's D (eq. 2)
    /// is not positive definite.
    pub fn new(c: &Compiled, init: &[BodyState]) -> Result<Self, String> {
        if c.d.iter().any(|d| d.min_element() <= 0.0) {
            return Err(
                "inertia: each principal moment must be less than the sum of the other two"
                    .to_string(),
            );
        }
        let bodies = c
            .model
            .bodies
            .iter()
            .zip(init)
            .zip(&c.d)
            .map(|((b, s), d)| Rb {
                x: s.x,
                p: s.v * b.mass,
                r: s.r,
                pm: s.r * skew(s.w) * DMat3::from_diagonal(*d),
            })
            .collect();
        Ok(State {
            bodies,
            lambda: vec![0.0; c.pattern.dim()],
            forces: crate::forces::State::start(&c.model, &c.contacts, init),
        })
    }

    /// Write x, R, v, w of every body.
    pub fn body_states(&self, c: &Compiled, out: &mut [BodyState]) {
        fill_scratch(c, &self.bodies, out);
    }

    /// max |R^T R - I| over the bodies.
    pub fn internal_violation(&self) -> f64 {
        self.bodies
            .iter()
            .map(|s| crate::math::orthonormality_error(&s.r))
            .fold(0.0, f64::max)
    }
}

/// Scratch space of a RATTLE step, allocated once.
pub struct Workspace {
    pub(super) next: Vec<Rb>,
    pub(super) half: Vec<(DVec3, DMat3)>, // p_1/2, P_1/2
    pub(super) lambda_start: Vec<f64>,    // lambda at the start of the step, restored if it fails
    pub(super) rhs: Vec<f64>,
    // the position stage's last Newton point and direction (the backtracking of `try_step`)
    pub(super) lambda_base: Vec<f64>,
    pub(super) dlambda: Vec<f64>,
    pub(super) evals: Vec<JointEval>,
    pub(super) evals1: Vec<JointEval>,
    pub(super) inv_mass: Vec<InverseMass>,
    pub(super) force: Vec<DVec3>,
    pub(super) torque: Vec<DVec3>,
    pub(super) js: JointMatrix,
    pub(super) scratch: Vec<BodyState>,
    // the force elements: their forces and torques at the start of the step, the start's world
    // velocities, a probe state at the end of the step, the angles there
    pub(super) ext: Vec<(DVec3, DVec3)>,
    pub(super) vel0: Vec<(DVec3, DVec3)>,
    pub(super) probe: Vec<BodyState>,
    pub(super) angles: Vec<f64>,
}

impl Workspace {
    /// Room for one more force element (a pull added during the run).
    pub fn grow_elements(&mut self) {
        self.angles.push(0.0);
    }

    /// Scratch space for `c`.
    pub fn new(c: &Compiled) -> Self {
        let n = c.bodies();
        let m = c.pattern.dim();
        let nj = c.frames.len();
        let rb = Rb {
            x: DVec3::ZERO,
            p: DVec3::ZERO,
            r: DMat3::IDENTITY,
            pm: DMat3::ZERO,
        };
        Workspace {
            next: vec![rb; n],
            half: vec![(DVec3::ZERO, DMat3::ZERO); n],
            lambda_start: vec![0.0; m],
            rhs: vec![0.0; m],
            lambda_base: vec![0.0; m],
            dlambda: vec![0.0; m],
            evals: vec![JointEval::default(); nj],
            evals1: vec![JointEval::default(); nj],
            inv_mass: vec![InverseMass::ZERO; n],
            force: vec![DVec3::ZERO; n],
            torque: vec![DVec3::ZERO; n],
            js: JointMatrix::new(&c.pattern),
            scratch: vec![BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY); n],
            ext: vec![(DVec3::ZERO, DVec3::ZERO); n],
            vel0: vec![(DVec3::ZERO, DVec3::ZERO); n],
            probe: vec![BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY); n],
            angles: vec![0.0; crate::forces::angle_slots(&c.model)],
        }
    }
}

/// x, R, v, w of the bodies `src` into `out`.
pub(super) fn fill_scratch(c: &Compiled, src: &[Rb], out: &mut [BodyState]) {
    for ((o, s), b) in out.iter_mut().zip(src).zip(&c.model.bodies) {
        *o = s.state(b);
    }
}
