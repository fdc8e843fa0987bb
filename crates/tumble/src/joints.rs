//! Joint equations in world form, for the rotation-matrix methods (RATTLE, Baumgarte).
//!
//! Velocities per body are (v, w) with w the angular velocity in global components.
//! With r = R s the joint point relative to the centre of mass, n = R_a axis_a and
//! u_i = R_b e_i (e_1, e_2 unit vectors perpendicular to axis_b):
//! - spherical (N&K eq. 34): Phi = x_b + r_b - x_a - r_a;
//!   dPhi/dt = v_b - r_b^ w_b - v_a + r_a^ w_a.
//! - revolute (eq. 37): the spherical rows plus Phi_i = n.u_i (i = 1, 2);
//!   dPhi_i/dt = w_a.(n x u_i) + w_b.(u_i x n).
//!
//! The bias term is the velocity-product part of d2Phi/dt2 (for the index-1 method):
//! spherical w_b x (w_b x r_b) - w_a x (w_a x r_a); revolute
//! (w_a x (w_a x n)).u + 2 (w_a x n).(w_b x u) + n.(w_b x (w_b x u)).
//! Every joint is a list of three kinds of rows (`compiled::RowSpec`): the spherical rows
//! above, the revolute's dot rows n.u for any pair of body vectors, and the sliding joints'
//! rows Phi = mw . d, mw = R_a m, d = p_b - p_a (b's point in a plane of a):
//! dPhi/dt = mw . (v_b - v_a) + w_b . (r_b x mw) + w_a . (mw x (d + r_a)); bias
//! (w_a x (w_a x mw)) . d + 2 (w_a x mw) . ddot + mw . (w_b x (w_b x r_b) - w_a x (w_a x r_a)).
//! A distance row (d . d - L(t)^2) / (2 L0), u = d / L0: Jacobian (u, r_b x u) on b and
//! (-u, u x r_a) on a; bias (ddot . ddot + d . (w_b x (w_b x r_b) - w_a x (w_a x r_a))) / L0
//! less (L'^2 + L L'') / L0, its Phi_t = -L L' / L0.
//! An offset universal joint's position rows (`RowSpec::Offset`) are the spherical rows less
//! delta (R_a v) x (R_b u), their terms below.
//! The director method has its own forms, eqs. (35) and (38), in `methods/director/rows.rs`.
use crate::compiled::{Compiled, JointFrame, RowSpec};
use crate::math::skew;
use crate::model::{BodyState, Model};
use crate::sparse::{JointMatrix, JointPattern, B};
use crate::step::StepError;
use glam::{DMat3, DVec3};

/// One joint evaluated at a state: residual, Jacobian rows and bias.
#[derive(Clone, Copy, Debug, Default)]
pub struct JointEval {
    /// number of rows (3 to 6)
    pub rows: usize,
    /// Phi
    pub phi: [f64; 6],
    /// Jacobian rows for body a (zero if ground) over (v, w): 6 numbers each
    pub ca: [[f64; 6]; 6],
    /// Jacobian rows for body b
    pub cb: [[f64; 6]; 6],
    /// velocity-product part of d2Phi/dt2, with a drive's d2Phi/dt2 at fixed q and twice its
    /// d(dPhi/dt)/dq qdot
    pub bias: [f64; 6],
    /// the explicit time derivative dPhi/dt at fixed q (drives; zero for joints)
    pub phi_t: [f64; 6],
    /// body indices (a may be None)
    pub a: Option<usize>,
    /// body b
    pub b: usize,
}

fn row(lin: DVec3, ang: DVec3) -> [f64; 6] {
    [lin.x, lin.y, lin.z, ang.x, ang.y, ang.z]
}

fn mat_row(m: &DMat3, i: usize) -> DVec3 {
    m.row(i)
}

impl JointEval {
    /// d Phi_r / dt at `states`.
    pub fn velocity(&self, r: usize, states: &[BodyState], _model: &Model) -> f64 {
        let at = |b: usize| (states[b].v, states[b].r * states[b].w);
        let mut s = dot6(&self.cb[r], at(self.b));
        if let Some(a) = self.a {
            s += dot6(&self.ca[r], at(a));
        }
        s
    }

    /// [`JointEval::velocity`] with every body's world angular velocity R w given in `omega`
    /// (formed once per body instead of once per row and side: the same bits).
    pub fn velocity_with(&self, r: usize, states: &[BodyState], omega: &[DVec3]) -> f64 {
        let mut s = dot6(&self.cb[r], (states[self.b].v, omega[self.b]));
        if let Some(a) = self.a {
            s += dot6(&self.ca[r], (states[a].v, omega[a]));
        }
        s
    }
}

/// c . (v, w) for a Jacobian row c over a body's velocity v and world angular velocity w.
fn dot6(c: &[f64; 6], (v, w): (DVec3, DVec3)) -> f64 {
    c[0] * v.x + c[1] * v.y + c[2] * v.z + c[3] * w.x + c[4] * w.y + c[5] * w.z
}

/// Evaluate joint `j` of `model` at `states` (for checks and reports, without its drives; the
/// integrators use [`evaluate_frame`] with the compiled frames).
pub fn evaluate(model: &Model, j: usize, states: &[BodyState]) -> JointEval {
    evaluate_frame(&JointFrame::new(&model.joints[j]), states, 0.0)
}

/// The distance between joint `j`'s two points at `states` (m).
pub fn distance_at(j: &crate::model::Joint, states: &[BodyState]) -> f64 {
    let at = |b: usize, p: DVec3| states[b].x + states[b].r * p;
    let pa = j.a.map_or(j.point_a, |a| at(a, j.point_a));
    crate::math::length(at(j.b, j.point_b) - pa)
}

/// Evaluate the joint of frame `jt` at `states`, time `t` (for its drives).
pub fn evaluate_frame(jt: &JointFrame, states: &[BodyState], t: f64) -> JointEval {
    let mut e = JointEval::default();
    evaluate_into(jt, states, t, &mut e);
    e
}

/// [`evaluate_frame`] into `e` in place (the integrators' form: every row of the joint is
/// written, the rows beyond it are left as they are and never read).
pub fn evaluate_into(jt: &JointFrame, states: &[BodyState], t: f64, e: &mut JointEval) {
    let p = Points::at(jt, states);
    e.rows = jt.rows;
    e.a = jt.a;
    e.b = jt.b;
    if jt.classic {
        classic_rows(jt, &p, e);
        return;
    }
    for (k, spec) in jt.spec[..jt.rows].iter().enumerate() {
        e.phi_t[k] = 0.0;
        spec_row(*spec, k, &p, t, e);
    }
}

/// A joint's two points at a state, shared by its rows: body b's rotation, arm r_b = R_b s_b,
/// velocity and world angular velocity; body a's (the ground's: the fixed point, no arm, at
/// rest); d = x_b + r_b - p_a (the spherical rows' Phi) and the velocity-product part of its
/// second derivative, w_b x (w_b x r_b) - w_a x (w_a x r_a).
struct Points {
    rot_b: DMat3,
    rb: DVec3,
    vb: DVec3,
    wb: DVec3,
    rot_a: DMat3,
    ra: DVec3,
    va: DVec3,
    wa: DVec3,
    phi: DVec3,
    kb: DMat3,
    ka: DMat3,
    bias: DVec3,
}

impl Points {
    fn at(jt: &JointFrame, states: &[BodyState]) -> Points {
        let sb = &states[jt.b];
        let rb = sb.r * jt.point_b;
        let wb = sb.r * sb.w;
        let (pa, ra, wa, rot_a) = match jt.a {
            Some(a) => {
                let sa = &states[a];
                let ra = sa.r * jt.point_a;
                (sa.x + ra, ra, sa.r * sa.w, sa.r)
            }
            None => (jt.point_a, DVec3::ZERO, DVec3::ZERO, DMat3::IDENTITY),
        };
        Points {
            rot_b: sb.r,
            rb,
            vb: sb.v,
            wb,
            rot_a,
            ra,
            va: jt.a.map_or(DVec3::ZERO, |a| states[a].v),
            wa,
            phi: sb.x + rb - pa,
            kb: skew(rb),
            ka: skew(ra),
            bias: wb.cross(wb.cross(rb)) - wa.cross(wa.cross(ra)),
        }
    }

    /// A dot row (R_a v) . (R_b u): its value, Jacobian (a, b), bias and first derivative.
    fn dot(&self, v: DVec3, u: DVec3) -> (f64, DVec3, DVec3, f64, f64) {
        let (wa, wb) = (self.wa, self.wb);
        let n = self.rot_a * v;
        let u = self.rot_b * u;
        let nd = wa.cross(n);
        let ud = wb.cross(u);
        let bias = wa.cross(nd).dot(u) + 2.0 * nd.dot(ud) + n.dot(wb.cross(ud));
        (
            n.dot(u),
            n.cross(u),
            u.cross(n),
            bias,
            nd.dot(u) + n.dot(ud),
        )
    }

    /// d/dt of d = p_b - p_a.
    fn ddot(&self) -> DVec3 {
        self.vb + self.wb.cross(self.rb) - self.va - self.wa.cross(self.ra)
    }
}

/// Spherical and revolute joints: the position rows and the two axis rows (eq. 34, 37).
fn classic_rows(jt: &JointFrame, p: &Points, e: &mut JointEval) {
    let (wa, wb) = (p.wa, p.wb);
    for i in 0..3 {
        e.phi[i] = p.phi[i];
        e.bias[i] = p.bias[i];
        e.phi_t[i] = 0.0;
        e.cb[i] = row(DVec3::AXES[i], -mat_row(&p.kb, i));
        e.ca[i] = row(-DVec3::AXES[i], mat_row(&p.ka, i));
    }
    if jt.rows == 5 {
        let n = p.rot_a * jt.n_a;
        for (i, ei) in jt.e.into_iter().enumerate() {
            let u = p.rot_b * ei;
            let k = 3 + i;
            e.phi[k] = n.dot(u);
            e.phi_t[k] = 0.0;
            e.ca[k] = row(DVec3::ZERO, n.cross(u));
            e.cb[k] = row(DVec3::ZERO, u.cross(n));
            let nd = wa.cross(n);
            let ud = wb.cross(u);
            e.bias[k] = wa.cross(nd).dot(u) + 2.0 * nd.dot(ud) + n.dot(wb.cross(ud));
        }
    }
}

/// Row `k` of a joint given by its `spec` (module notes), at time `t` for its drive.
fn spec_row(spec: RowSpec, k: usize, p: &Points, t: f64, e: &mut JointEval) {
    let (wa, wb, phi, bias) = (p.wa, p.wb, p.phi, p.bias);
    match spec {
        RowSpec::Angle(r, m, u, f) => {
            // sin(f) x - cos(f) y: the dot row of v(t); its time terms from x, y and their
            // rates
            let (th, th1, th2) = (f.at(t), f.rate(t), f.accel(t));
            let (sn, cs) = (libm::sin(th), libm::cos(th));
            let (phi, ja, jb, bias, _) = p.dot(r * sn - m * cs, u);
            let (x, .., xdot) = p.dot(r, u);
            let (y, .., ydot) = p.dot(m, u);
            e.phi[k] = phi;
            e.ca[k] = row(DVec3::ZERO, ja);
            e.cb[k] = row(DVec3::ZERO, jb);
            let along = cs * x + sn * y; // d(sin f x - cos f y)/df
            e.phi_t[k] = th1 * along;
            e.bias[k] = bias + 2.0 * th1 * (cs * xdot + sn * ydot) + th2 * along - th1 * th1 * phi;
        }
        RowSpec::Pos(i) => {
            e.phi[k] = phi[i];
            e.bias[k] = bias[i];
            e.cb[k] = row(DVec3::AXES[i], -mat_row(&p.kb, i));
            e.ca[k] = row(-DVec3::AXES[i], mat_row(&p.ka, i));
        }
        RowSpec::Offset(i, v, u, delta) => {
            // e_i . (d - delta n x m), n = R_a v, m = R_b u: d/dt (n x m) = (w_a x n) x m +
            // n x (w_b x m), so on w_a the row n x (m x e_i), on w_b m x (e_i x n); the bias
            // adds -delta e_i . (n'' x m + 2 n' x m' + n x m'') at zero accelerations
            let (n, m, ei) = (p.rot_a * v, p.rot_b * u, DVec3::AXES[i]);
            let (nd, md) = (wa.cross(n), wb.cross(m));
            let c2 = wa.cross(nd).cross(m) + 2.0 * nd.cross(md) + n.cross(wb.cross(md));
            e.phi[k] = phi[i] - delta * n.cross(m)[i];
            e.bias[k] = bias[i] - delta * c2[i];
            e.cb[k] = row(ei, -mat_row(&p.kb, i) - delta * m.cross(ei.cross(n)));
            e.ca[k] = row(-ei, mat_row(&p.ka, i) - delta * n.cross(m.cross(ei)));
        }
        RowSpec::Dot(v, u) => {
            let n = p.rot_a * v;
            let u = p.rot_b * u;
            e.phi[k] = n.dot(u);
            e.ca[k] = row(DVec3::ZERO, n.cross(u));
            e.cb[k] = row(DVec3::ZERO, u.cross(n));
            let nd = wa.cross(n);
            let ud = wb.cross(u);
            e.bias[k] = wa.cross(nd).dot(u) + 2.0 * nd.dot(ud) + n.dot(wb.cross(ud));
        }
        RowSpec::Dist(l0, f) => {
            // (d . d) / (2 L0) - S(t), u = d / L0: dPhi/dt = u . ddot - S'; the
            // velocity-product part of d2Phi/dt2 is (ddot . ddot + d . bias) / L0
            let ddot = p.ddot();
            let u = phi / l0;
            let (s, s1, s2) = RowSpec::distance_terms(l0, &f, t);
            e.phi[k] = 0.5 * phi.dot(u) - s;
            e.cb[k] = row(u, p.rb.cross(u));
            e.ca[k] = row(-u, u.cross(p.ra));
            e.bias[k] = (ddot.dot(ddot) + phi.dot(bias)) / l0 - s2;
            e.phi_t[k] = -s1;
        }
        RowSpec::Perp(m) | RowSpec::Slide(m, ..) => {
            // (R_a m) . d, d = p_b - p_a: d/dt = (w_a x mw) . d + mw . ddot
            let mw = p.rot_a * m;
            let ddot = p.ddot();
            e.phi[k] = mw.dot(phi);
            e.cb[k] = row(mw, p.rb.cross(mw));
            e.ca[k] = row(-mw, mw.cross(phi + p.ra));
            let md = wa.cross(mw);
            e.bias[k] = wa.cross(md).dot(phi) + 2.0 * md.dot(ddot) + mw.dot(bias);
            if let RowSpec::Slide(_, s0, f) = spec {
                e.phi[k] -= s0 + f.at(t);
                e.phi_t[k] = -f.rate(t);
                e.bias[k] -= f.accel(t);
            }
        }
    }
}

/// Inverse mass of a body in world form: 1/M and the world inverse inertia R J^-1 R^T.
#[derive(Clone, Copy, Debug)]
pub struct InverseMass {
    /// 1 / M
    pub inv_mass: f64,
    /// R J^-1 R^T
    pub inv_inertia: DMat3,
}

impl InverseMass {
    /// For body `b` of the compiled model at rotation `r`.
    pub fn new(c: &Compiled, b: usize, r: &DMat3) -> Self {
        InverseMass {
            inv_mass: c.inv_mass[b],
            inv_inertia: *r * DMat3::from_diagonal(c.inv_inertia[b]) * r.transpose(),
        }
    }

    /// Zero (a placeholder for scratch space).
    pub const ZERO: InverseMass = InverseMass {
        inv_mass: 0.0,
        inv_inertia: DMat3::ZERO,
    };

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

/// S = C_left W C_right^T into `s`, for the Jacobians `left` and `right` (the same slice for
/// the symmetric C W C^T) and inverse masses `w`. Every block is a sum over the bodies its two
/// joints share, in body order: each body's term is written straight into the block as the
/// first term (0 + value, the bits of adding it to a cleared matrix) or added, as
/// `Compiled::pair_first` says; no block is cleared first.
pub fn assemble(
    left: &[JointEval],
    right: &[JointEval],
    w: &[InverseMass],
    c: &Compiled,
    s: &mut JointMatrix,
) {
    for (b, list) in c.at_body.iter().enumerate() {
        let n = list.len();
        for (jl, ij) in list.iter().enumerate() {
            let ej = &right[ij.joint];
            let cjs = if ij.is_b { &ej.cb } else { &ej.ca };
            let mut wc = [[0.0; 6]; B];
            for (x, cj) in wc.iter_mut().zip(&cjs[..ej.rows]) {
                *x = w[b].apply(cj);
            }
            for (kl, ik) in list.iter().enumerate() {
                let ek = &left[ik.joint];
                let cks = if ik.is_b { &ek.cb } else { &ek.ca };
                let general = c.frames[ik.joint].general;
                let blk = s.block_mut(c.block(b, kl, jl));
                let first = c.pair_first[b][kl * n + jl];
                // the common sizes as constants, so that the loops unroll
                match (general, ek.rows, ej.rows) {
                    (false, 5, 5) => body_term(blk, cks, &wc, first, 5, 5, false),
                    (false, 3, 3) => body_term(blk, cks, &wc, first, 3, 3, false),
                    (false, 5, 3) => body_term(blk, cks, &wc, first, 5, 3, false),
                    (false, 3, 5) => body_term(blk, cks, &wc, first, 3, 5, false),
                    (g, rk, rj) => body_term(blk, cks, &wc, first, rk, rj, g),
                }
            }
        }
    }
}

/// One body's term C_k W C_j^T (`rk` x `rj`, from k's Jacobian rows `ck` on the body and
/// `wc` = W C_j^T) stored into or added to `blk`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn body_term(
    blk: &mut [f64; B * B],
    ck: &[[f64; 6]; 6],
    wc: &[[f64; 6]; B],
    first: bool,
    rk: usize,
    rj: usize,
    general: bool,
) {
    for (r, ck) in ck.iter().enumerate().take(rk) {
        for (x, wc) in blk[r * B..r * B + rj].iter_mut().zip(wc) {
            // row r's translational part is +-e_r (r < 3) or zero (the rows of
            // `evaluate_frame` without a Perp row), so of its first three products only
            // ck[r] wc[r] can be non-zero: the same sum, bit for bit, in half the
            // multiplications
            let lin = if general {
                ck[0] * wc[0] + ck[1] * wc[1] + ck[2] * wc[2]
            } else {
                debug_assert!((0..3).all(|i| ck[i] == 0.0 || i == r));
                if r < 3 {
                    ck[r] * wc[r]
                } else {
                    0.0
                }
            };
            let v = lin + ck[3] * wc[3] + ck[4] * wc[4] + ck[5] * wc[5];
            *x = if first { 0.0 + v } else { *x + v };
        }
    }
}

/// [`assemble`] then factor; a singular matrix (redundant or degenerate joints) is an error.
pub fn assemble_and_factor(
    left: &[JointEval],
    right: &[JointEval],
    w: &[InverseMass],
    c: &Compiled,
    s: &mut JointMatrix,
) -> Result<(), StepError> {
    assemble(left, right, w, c, s);
    if s.factor(&c.pattern) {
        Ok(())
    } else {
        Err(StepError::Singular)
    }
}

/// Generalised force -C^T lambda on every body, added to `force` and `torque` (world).
pub fn add_constraint_forces(
    evals: &[JointEval],
    lambda: &[f64],
    p: &JointPattern,
    scale: f64,
    force: &mut [DVec3],
    torque: &mut [DVec3],
) {
    for (j, e) in evals.iter().enumerate() {
        let o = p.offset(j);
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
