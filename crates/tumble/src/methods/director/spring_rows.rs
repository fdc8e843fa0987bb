//! The spring rows' storage (`springs.rs` has what they mean and how Newton uses them): per
//! stiff spring-damper or angle spring (`angle_rows.rs`) taken as a row, its bodies, force,
//! stiffness, multiplier, residual, gradients and its part of the dense border of the
//! joint-space system, allocated once.
use super::rows::Grad;
use crate::forces::ForceElement;
use crate::model::Model;
use alloc::vec;
use alloc::vec::Vec;
use glam::DVec3;

/// Most elements taken as Newton rows in one step (each costs a joint-space solve per fresh
/// tangent, and the border is dense): a humanoid's dampers on each hinge of its hips, knees,
/// ankles, waist, shoulders and elbows are 21 (`benches/models/figure.xml`).
pub const MAX_ROWS: usize = 32;

/// An angle element taken as a row (`angle_rows.rs`): its hinge's frame and angle slot (indices
/// into the compiled force frames and the angles), the coefficient of the angle in the row's
/// coordinate L = coef theta, and its law.
#[derive(Clone, Copy, Debug)]
pub struct AngleRow {
    pub frame: usize,
    pub slot: usize,
    pub coef: f64,
    pub law: RowLaw,
}

/// An angle row's law: a spring-damper F = k (Lbar - rest) + c Delta L / h, or the stops of
/// element `element` (its law in the element's frame) at `lower` and `upper`, pressed at the
/// step's start, whose row is scaled by `scale`, F' there.
#[derive(Clone, Copy, Debug)]
pub enum RowLaw {
    Spring {
        k: f64,
        rest: f64,
        c: f64,
    },
    Stop {
        element: usize,
        lower: f64,
        upper: f64,
        scale: f64,
    },
}

/// Scratch space of the spring rows, allocated once (and when a pull adds an element).
#[derive(Clone, Debug, Default)]
pub struct SpringRows {
    /// the elements taken as rows this step (their indices in `model.forces`)
    pub list: Vec<usize>,
    /// per row: its bodies (a, b; None for the ground), and its hinge where it is an angle spring
    pub(super) sides: Vec<[Option<usize>; 2]>,
    pub(super) angle: Vec<Option<AngleRow>>,
    /// per row: the force F at the iterate, F', mu, rho
    pub(super) f: Vec<f64>,
    pub(super) fp: Vec<f64>,
    pub(super) mu: Vec<f64>,
    pub(super) rho: Vec<f64>,
    /// per row and side (a, b): the discrete gradient gbar and the gradient at q_n+1
    pub(super) gm: Vec<[Grad; 2]>,
    pub(super) gn: Vec<[Grad; 2]>,
    /// per row and side: K^-1 dRes/dmu and d rho / dOmega
    pub(super) cy: Vec<[DVec3; 2]>,
    pub(super) dk: Vec<[DVec3; 2]>,
    /// S_je (m x E, column e at e m; X = A^-1 S_je after the factorisation), S_ej (E x m)
    pub(super) sje: Vec<f64>,
    pub(super) sej: Vec<f64>,
    /// D' (E x E, row-major) factored in place, its pivots, and the right-hand side
    pub(super) d: Vec<f64>,
    pub(super) piv: Vec<usize>,
    pub(super) r: Vec<f64>,
}

impl SpringRows {
    /// Room for the spring-dampers of `model` (m joint rows).
    pub fn new(model: &Model, m: usize) -> Self {
        let mut s = SpringRows::default();
        s.reserve(model, m);
        s
    }

    /// Make room for `model`'s spring-dampers (after a pull added one).
    pub fn reserve(&mut self, model: &Model, m: usize) {
        let e = model
            .forces
            .iter()
            .filter(|f| {
                matches!(
                    f,
                    ForceElement::Spring { .. }
                        | ForceElement::JointSpring { .. }
                        | ForceElement::TendonSpring { .. }
                        | ForceElement::Limit { .. }
                        | ForceElement::TendonLimit { .. }
                        | ForceElement::TendonArmature { .. }
                )
            })
            .count()
            .min(MAX_ROWS);
        if e <= self.f.len() {
            return;
        }
        self.list = Vec::with_capacity(e);
        self.sides = vec![[None; 2]; e];
        self.angle = vec![None; e];
        self.f = vec![0.0; e];
        self.fp = vec![0.0; e];
        self.mu = vec![0.0; e];
        self.rho = vec![0.0; e];
        self.gm = vec![[[0.0; 12]; 2]; e];
        self.gn = vec![[[0.0; 12]; 2]; e];
        self.cy = vec![[DVec3::ZERO; 2]; e];
        self.dk = vec![[DVec3::ZERO; 2]; e];
        self.sje = vec![0.0; m * e];
        self.sej = vec![0.0; m * e];
        self.d = vec![0.0; e * e];
        self.piv = vec![0; e];
        self.r = vec![0.0; e];
    }
}
