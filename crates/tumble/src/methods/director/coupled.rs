//! The centres' Newton step on all bodies at once where sphere pairs couple them and no joint
//! rows do (`condensed.rs` calls it in place of its body-by-body update of the centres).
use super::Ctx;
use crate::model::Model;
use glam::{DMat3, DVec3};

/// Conjugate gradients stop when the preconditioned residual (r . P^-1 r)^(1/2) has fallen by
/// this factor, or after `CG_MAX` iterations.
const CG_TOL: f64 = 1e-3;
const CG_MAX: usize = 20;

impl Ctx<'_> {
    /// The centres' momenta at n+1 by one Newton step on all bodies at once, where contacts
    /// couple them (sphere pairs and their stick springs: `Coupling`, `director/stiffness.rs`). The residual of (27)'s translational part,
    /// r_b = p1_b - p_n,b + h f0_b(x1) with x1 = x_n + h (p_n + p1) / 2M, has the Jacobian
    /// I + h^2/2 K M^-1 (K the contacts' stiffness over all bodies: each body's own block
    /// `stiff[b].x`, and -k between the two bodies of a pair); with Delta p = M y the step
    /// solves the symmetric
    ///
    /// (M + h^2/2 K) y = -r
    ///
    /// by conjugate gradients preconditioned with its diagonal blocks (M_b + h^2/2 K_bb)^-1,
    /// one application of which is the body-by-body update of `step_condensed` (which this
    /// replaces while sphere pairs touch and there are no joint rows): a pile of balls then
    /// converges as one system, not as a block Jacobi iteration (the ball pit of 400 balls,
    /// its first 0.5 s: 5.9 Newton iterations a step instead of 7.9, docs/performance.md). The solve is inexact (its preconditioned residual falls by [`CG_TOL`],
    /// at most [`CG_MAX`] iterations) and the step is judged on the residual all the same, so
    /// this changes how fast Newton converges, never what it converges to. On the first
    /// iteration p1 = p_n (the drift the forces were evaluated at).
    // `!(rz > ...)`, `!(pq > 0)` on purpose: a value that is not finite stops the iteration
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    pub(super) fn translate_coupled(&mut self, model: &Model, h: f64, first: bool) {
        let nb = self.s.q.len();
        let c2 = 0.5 * h * h;
        for b in 0..nb {
            let f0 = DVec3::from_array(self.force_translational(b, model));
            let m = model.bodies[b].mass;
            if first {
                self.w.p1[b][0..3].copy_from_slice(&self.s.p[b][0..3]);
            }
            let pn = DVec3::new(self.s.p[b][0], self.s.p[b][1], self.s.p[b][2]);
            let p1 = DVec3::new(self.w.p1[b][0], self.w.p1[b][1], self.w.p1[b][2]);
            self.w.cg[1][b] = -(p1 - pn + f0 * h);
            self.w.cg_pre[b] =
                (DMat3::from_diagonal(DVec3::splat(m)) + self.w.stiff[b].x * c2).inverse();
        }
        let [x, r, z, p, q] = &mut self.w.cg;
        let (pre, couple, stiff) = (&self.w.cg_pre, &self.w.couple, &self.w.stiff);
        let mut rz = 0.0;
        for b in 0..nb {
            x[b] = DVec3::ZERO;
            z[b] = pre[b] * r[b];
            p[b] = z[b];
            rz += r[b].dot(z[b]);
        }
        let rz0 = rz;
        for _ in 0..CG_MAX {
            if !(rz > CG_TOL * CG_TOL * rz0) {
                break;
            }
            // q = (M + h^2/2 K) p
            for b in 0..nb {
                q[b] = p[b] * model.bodies[b].mass + stiff[b].x * (p[b] * c2);
            }
            for k in couple {
                let (pa, pb) = (p[k.a], p[k.b]);
                q[k.a] -= k.k * (pb * c2);
                q[k.b] -= k.k * (pa * c2);
            }
            let pq: f64 = (0..nb).map(|b| p[b].dot(q[b])).sum();
            if !(pq > 0.0) {
                break;
            }
            let alpha = rz / pq;
            let mut rz1 = 0.0;
            for b in 0..nb {
                x[b] += p[b] * alpha;
                r[b] -= q[b] * alpha;
                z[b] = pre[b] * r[b];
                rz1 += r[b].dot(z[b]);
            }
            let beta = rz1 / rz;
            rz = rz1;
            for b in 0..nb {
                p[b] = z[b] + p[b] * beta;
            }
        }
        for ((p1, x), body) in self.w.p1.iter_mut().zip(x.iter()).zip(&model.bodies) {
            let dp = *x * body.mass;
            for (p, d) in p1[..3].iter_mut().zip(dp.to_array()) {
                *p += d;
            }
        }
    }
}
