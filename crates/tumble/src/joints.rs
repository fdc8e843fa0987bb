//! Joint equations in world form, for the rotation-matrix methods (RATTLE, Baumgarte).
//!
//! Velocities per body are (v, w) with w the angular velocity in global components.
//! With r = R s the joint point relative to the centre of mass, n = R_a axis_a and
//! u_i = R_b e_i (e_1, e_2 unit vectors perpendicular to axis_b):
//! - spherical (N&K eq. 34): Phi = x_b + r_b - x_a - r_a;
//!   dPhi/dt = v_b - r_b^ w_b - v_a + r_a^ w_a.
//! - revolute (eq. 37): the spherical rows plus Phi_i = n.u_i (i = 1, 2);
//!   dPhi_i/dt = w_a.(n x u_i) + w_b.(u_i x n).
//! The bias term is the velocity-product part of d2Phi/dt2 (for the index-1 method):
//! spherical w_b x (w_b x r_b) - w_a x (w_a x r_a); revolute
//! (w_a x (w_a x n)).u + 2 (w_a x n).(w_b x u) + n.(w_b x (w_b x u)).
//! The director method has its own forms, eqs. (35) and (38), in `director.rs`.
use crate::math::skew;
use crate::model::{BodyState, JointKind, Model};
use glam::DVec3;

/// Two unit vectors completing `axis` to a right-handed orthonormal frame (axis, e1, e2);
/// for axis = x1 they are x2 and x3, as in eq. (37).
pub fn perpendicular_pair(axis: DVec3) -> (DVec3, DVec3) {
    let n = axis.normalize();
    let a = n.abs();
    let t = if a.x <= a.y && a.x <= a.z {
        DVec3::X
    } else if a.y <= a.z {
        DVec3::Y
    } else {
        DVec3::Z
    };
    let e1 = (t - n * t.dot(n)).normalize();
    (e1, n.cross(e1))
}

/// One joint evaluated at a state: residual, Jacobian rows and bias.
#[derive(Clone, Copy, Debug, Default)]
pub struct JointEval {
    /// number of rows (3 or 5)
    pub rows: usize,
    /// Phi
    pub phi: [f64; 5],
    /// Jacobian rows for body a (zero if ground) over (v, w): 6 numbers each
    pub ca: [[f64; 6]; 5],
    /// Jacobian rows for body b
    pub cb: [[f64; 6]; 5],
    /// velocity-product part of d2Phi/dt2
    pub bias: [f64; 5],
    /// body indices (a may be None)
    pub a: Option<usize>,
    /// body b
    pub b: usize,
}

fn row(lin: DVec3, ang: DVec3) -> [f64; 6] {
    [lin.x, lin.y, lin.z, ang.x, ang.y, ang.z]
}

fn mat_row(m: &glam::DMat3, i: usize) -> DVec3 {
    m.row(i)
}

impl JointEval {
    /// d Phi_r / dt at `states`.
    pub fn velocity(&self, r: usize, states: &[BodyState], _model: &Model) -> f64 {
        let mut s = dot6(&self.cb[r], &states[self.b]);
        if let Some(a) = self.a {
            s += dot6(&self.ca[r], &states[a]);
        }
        s
    }
}

fn dot6(c: &[f64; 6], s: &BodyState) -> f64 {
    let w = s.r * s.w;
    c[0] * s.v.x + c[1] * s.v.y + c[2] * s.v.z + c[3] * w.x + c[4] * w.y + c[5] * w.z
}

/// Evaluate joint `j` at `states`.
pub fn evaluate(model: &Model, j: usize, states: &[BodyState]) -> JointEval {
    let jt = &model.joints[j];
    let sb = &states[jt.b];
    let rb = sb.r * jt.point_b;
    let wb = sb.r * sb.w;
    let (pa, ra, wa, rot_a) = match jt.a {
        Some(a) => {
            let sa = &states[a];
            let ra = sa.r * jt.point_a;
            (sa.x + ra, ra, sa.r * sa.w, sa.r)
        }
        None => (jt.point_a, DVec3::ZERO, DVec3::ZERO, glam::DMat3::IDENTITY),
    };
    let mut e = JointEval {
        rows: jt.kind.rows(),
        a: jt.a,
        b: jt.b,
        ..Default::default()
    };
    let phi = sb.x + rb - pa;
    let kb = skew(rb);
    let ka = skew(ra);
    let bias = wb.cross(wb.cross(rb)) - wa.cross(wa.cross(ra));
    for i in 0..3 {
        e.phi[i] = phi[i];
        e.bias[i] = bias[i];
        e.cb[i] = row(DVec3::AXES[i], -mat_row(&kb, i));
        e.ca[i] = row(-DVec3::AXES[i], mat_row(&ka, i));
    }
    if let JointKind::Revolute { axis_a, axis_b } = jt.kind {
        let n = rot_a * axis_a.normalize();
        let (e1, e2) = perpendicular_pair(axis_b);
        for (i, ei) in [e1, e2].into_iter().enumerate() {
            let u = sb.r * ei;
            let k = 3 + i;
            e.phi[k] = n.dot(u);
            e.ca[k] = row(DVec3::ZERO, n.cross(u));
            e.cb[k] = row(DVec3::ZERO, u.cross(n));
            let nd = wa.cross(n);
            let ud = wb.cross(u);
            e.bias[k] = wa.cross(nd).dot(u) + 2.0 * nd.dot(ud) + n.dot(wb.cross(ud));
        }
    }
    e
}

/// Inverse mass of a body in world form: 1/M and the world inverse inertia R J^-1 R^T.
#[derive(Clone, Copy, Debug)]
pub struct InverseMass {
    /// 1 / M
    pub inv_mass: f64,
    /// R J^-1 R^T
    pub inv_inertia: glam::DMat3,
}

impl InverseMass {
    /// For a body of the model at rotation `r`.
    pub fn new(body: &crate::model::Body, r: &glam::DMat3) -> Self {
        InverseMass {
            inv_mass: 1.0 / body.mass,
            inv_inertia: *r * glam::DMat3::from_diagonal(body.inertia.recip()) * r.transpose(),
        }
    }

    /// W c for a Jacobian row c over (v, w).
    pub fn apply(&self, c: &[f64; 6]) -> [f64; 6] {
        let w = self.inv_inertia * DVec3::new(c[3], c[4], c[5]);
        [
            c[0] * self.inv_mass,
            c[1] * self.inv_mass,
            c[2] * self.inv_mass,
            w.x,
            w.y,
            w.z,
        ]
    }
}

/// Joints meeting at each body: (joint, true when the body is the joint's b side).
pub fn incidence(model: &Model) -> alloc::vec::Vec<alloc::vec::Vec<(usize, bool)>> {
    let mut at = alloc::vec![alloc::vec::Vec::new(); model.bodies.len()];
    for (j, jt) in model.joints.iter().enumerate() {
        at[jt.b].push((j, true));
        if let Some(a) = jt.a {
            at[a].push((j, false));
        }
    }
    at
}

/// S = C_left W C_right^T into `js` (cleared first), for the Jacobians `left` and `right`
/// (the same slice for the symmetric C W C^T) and inverse masses `w`.
pub fn assemble(
    left: &[JointEval],
    right: &[JointEval],
    w: &[InverseMass],
    at_body: &[alloc::vec::Vec<(usize, bool)>],
    js: &mut crate::sparse::JointSpace,
) {
    js.clear();
    for (b, list) in at_body.iter().enumerate() {
        for &(j, jb) in list {
            let ej = &right[j];
            for r in 0..ej.rows {
                let cj = if jb { &ej.cb[r] } else { &ej.ca[r] };
                let wc = w[b].apply(cj);
                for &(k, kb) in list {
                    let ek = &left[k];
                    for c in 0..ek.rows {
                        let ck = if kb { &ek.cb[c] } else { &ek.ca[c] };
                        let v: f64 = (0..6).map(|i| ck[i] * wc[i]).sum();
                        js.add(k, c, j, r, v);
                    }
                }
            }
        }
    }
}

/// [`assemble`] then factor; a singular matrix (redundant or degenerate joints) is an error.
pub fn assemble_and_factor(
    left: &[JointEval],
    right: &[JointEval],
    w: &[InverseMass],
    at_body: &[alloc::vec::Vec<(usize, bool)>],
    js: &mut crate::sparse::JointSpace,
) -> Result<(), crate::step::StepError> {
    assemble(left, right, w, at_body, js);
    if js.factor() {
        Ok(())
    } else {
        Err(crate::step::StepError::Singular)
    }
}

/// Generalised force -C^T lambda on every body, added to `force` and `torque` (world).
pub fn add_constraint_forces(
    evals: &[JointEval],
    lambda: &[f64],
    js: &crate::sparse::JointSpace,
    scale: f64,
    force: &mut [DVec3],
    torque: &mut [DVec3],
) {
    for (j, e) in evals.iter().enumerate() {
        let o = js.offset(j);
        for r in 0..e.rows {
            let l = -scale * lambda[o + r];
            let cb = &e.cb[r];
            force[e.b] += DVec3::new(cb[0], cb[1], cb[2]) * l;
            torque[e.b] += DVec3::new(cb[3], cb[4], cb[5]) * l;
            if let Some(a) = e.a {
                let ca = &e.ca[r];
                force[a] += DVec3::new(ca[0], ca[1], ca[2]) * l;
                torque[a] += DVec3::new(ca[3], ca[4], ca[5]) * l;
            }
        }
    }
}
