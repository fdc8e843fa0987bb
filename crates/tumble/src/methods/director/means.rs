//! The joint rows at the mean configuration qbar = (q_n + q_n+1) / 2 of a director step: the
//! mean directors, the forces' gradients there ((41)-(42): the revolute rows' bilinear
//! gradients at the mean, the spherical rows' constant ones (35), the sliding and distance
//! rows' whole gradient), and the work the drives did over the step. The rows themselves are
//! in `rows.rs`.
use super::rows::joint_row_into;
use super::{mat, Ctx};
use crate::compiled::{Row, RowSpec};
use crate::model::Model;
use glam::{DMat3, DVec3};

impl Ctx<'_> {
    /// The mean directors of every body, `qbar` (for the current `q1`), and the revolute rows
    /// of `gmean` replaced by the gradients at the mean configuration (42), in place (the
    /// elements that stay zero are zero from `Workspace::new`).
    pub(super) fn mean_gradients(&mut self, model: &Model, h: f64) {
        let tn = self.s.forces.t;
        let c = self.c;
        for ((m, q), q1) in self.w.qbar.iter_mut().zip(&self.s.q).zip(&self.w.q1) {
            let mut out = [0.0; 9];
            for i in 0..9 {
                out[i] = 0.5 * (q[3 + i] + q1[3 + i]);
            }
            *m = DMat3::from_cols_array(&out);
        }
        for (
            k,
            &Row {
                joint: j, row: r, ..
            },
        ) in c.rows.iter().enumerate()
        {
            let jt = &model.joints[j];
            let f = &c.frames[j];
            let (na, e) = match f.spec[r] {
                RowSpec::Pos(_) => continue, // spherical rows: constant gradient (35)
                RowSpec::Dot(na, e) => (na, e),
                // an angle drive: the dot row of the mean vbar = (v(t_n) + v(t_n+1)) / 2, the
                // product rule for increments (Delta(v w) = vbar Delta w + Delta v wbar); the
                // time part Delta v . wbar is the drive's work (`drive_work`)
                RowSpec::Angle(rr, m, e, tf) => (
                    (RowSpec::angle_vector(rr, m, &tf, tn)
                        + RowSpec::angle_vector(rr, m, &tf, tn + h))
                        * 0.5,
                    e,
                ),
                RowSpec::Perp(_) | RowSpec::Slide(..) | RowSpec::Dist(..) | RowSpec::Offset(..) => {
                    // the whole gradient at the mean configuration (positions too)
                    let qm = &mut self.w.qm;
                    for b in [f.a, Some(f.b)].into_iter().flatten() {
                        for ((m, q), q1) in qm[b].iter_mut().zip(&self.s.q[b]).zip(&self.w.q1[b]) {
                            *m = 0.5 * (q + q1);
                        }
                    }
                    joint_row_into(c, qm, j, r, &mut self.w.gmean[k], tn + h);
                    continue;
                }
            };
            let e = e.to_array();
            let ubar = self.w.qbar[jt.b] * DVec3::from_array(e);
            let nbar = match jt.a {
                Some(a) => self.w.qbar[a] * na,
                None => na,
            };
            let [ga, gb] = &mut self.w.gmean[k];
            let nn = na.to_array();
            for i in 0..3 {
                for c in 0..3 {
                    if jt.a.is_some() {
                        ga[3 + 3 * i + c] = nn[i] * ubar[c];
                    }
                    gb[3 + 3 * i + c] = e[i] * nbar[c];
                }
            }
        }
    }

    /// The work the drives did over the step from q_n (time t_n) to q_n+1: for each drive row,
    /// lambda times the time part of its increment, Phi(q_n+1, t_n+1) - Phi(q_n, t_n) =
    /// grad Phi(qbar) . Delta q + R, so that with Delta Phi = 0 the energy changes by lambda R
    /// (Delta E = -lambda grad Phi . Delta q, the director's discrete-gradient identity). For an
    /// angle drive R = Delta v . wbar with w = Q_a^T Q_b e (ground: Q_b e), wbar the mean of its
    /// two end values; for a slide drive R = -Delta f; for a distance row R = -Delta S.
    pub(super) fn drive_work(&self, h: f64) -> f64 {
        let c = self.c;
        let t = self.s.forces.t;
        let mut work = 0.0;
        for (k, row) in c.rows.iter().enumerate() {
            let f = &c.frames[row.joint];
            let r = match f.spec[row.row] {
                RowSpec::Angle(rr, m, e, tf) => {
                    let w = |q: &[[f64; 12]]| {
                        let u = mat(&q[f.b]) * e;
                        match f.a {
                            Some(a) => mat(&q[a]).transpose() * u,
                            None => u,
                        }
                    };
                    let dv = RowSpec::angle_vector(rr, m, &tf, t + h)
                        - RowSpec::angle_vector(rr, m, &tf, t);
                    dv.dot((w(&self.s.q) + w(&self.w.q1)) * 0.5)
                }
                RowSpec::Slide(_, _, tf) => -(tf.at(t + h) - tf.at(t)),
                RowSpec::Dist(l0, tf) => {
                    -(RowSpec::distance_terms(l0, &tf, t + h).0
                        - RowSpec::distance_terms(l0, &tf, t).0)
                }
                _ => continue,
            };
            work += self.w.lambda1[k] * r;
        }
        work
    }
}
