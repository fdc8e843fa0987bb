//! Angle springs as rows of the condensed Newton solve (`springs.rs` has the rows' form).
//!
//! A joint spring on a hinge, or the spring of a tendon of one hinge's angle (the import's form
//! for each hinge of a universal joint or a gimbal), has the force
//!
//! ```text
//! F = k (Lbar - L_r) + c Delta L / h,   L = coef theta,   F' = dF/dL_n+1 = k / 2 + c / h
//! ```
//! on the discrete gradient coef G of theta (Gonzalez's, `coordinates.rs`: Delta theta =
//! G . Delta q exactly) of the two bodies it joins. As a fixed point within Newton (`forces.rs`)
//! its contraction per iteration is about h^2 F' (1/I_a + 1/I_b): a damper of 4 N m s on a
//! humanoid's hip, the thigh's least moment 8e-3 kg m^2, at a sub-step of 0.625 ms is 0.3, and
//! as a stiffness on each body's own block (`forces.rs` `spring_stiffness`) it still leaves the
//! two bodies' coupling out: Newton converged linearly, the hips and thighs taking turns
//! (`benches/models/figure.xml` lying on the floor: 21 iterations a sub-step, each about halving
//! the residual). As a row, with the force as its unknown mu, the coupling is in the
//! joint-space system: rho = (F - mu) / F' with the gradient of L at q_n+1 for its
//! linearisation (theta = atan2(y, x) with (x, y) bilinear in the directors: d theta =
//! (x dy - y dx) / r^2). At convergence mu = F, so the balance of `forces.rs` holds unchanged.
//!
//! Which: those that would leave Newton slow, from the rate r of the iteration without the row,
//! with s = h^2 F' coef^2 and I_a, I_b the two bodies' least principal moments (the ground's
//! infinite):
//! - stops pressed at the step's start, on each body's own block in the tangent: block Jacobi
//!   between the two bodies, r = sqrt(s / (I_a + s) s / (I_b + s)); a row above r = 0.25 (the
//!   figure's hips on their stops: 0.37);
//! - springs with s <= min(I_a, I_b), which `forces.rs` `spring_stiffness` leaves off the
//!   blocks: a fixed point, r = s (1/I_a + 1/I_b); a row above 1, where it diverges;
//! - joint springs past min(I_a, I_b), on both blocks: block Jacobi,
//!   r = sqrt(s / (J_a + s) s / (J_b + s)) on the moments J about the hinge's axis; a row above
//!   0.5. Two equal rotors on a damper took 25 iterations a step on the blocks at
//!   h c (1/I_a + 1/I_b) = 3 (r = 0.6) and did not converge from 4 (r = 2/3, residual 1.9
//!   after 60 iterations: the 1-D estimate is not all Newton sees); as rows, 2. Every such
//!   spring as a row costs the suite's cheetah and quadruped 30 % more instructions for 3 % and
//!   10 % fewer iterations (the dense border: a joint-space solve per row and fresh tangent), and
//!   on the least moments (which overstate r about a limb's long axis tenfold) their hinge
//!   springs (0.30-0.64, 0.51-0.73) became rows for +19 % and +15 %; on the axis's moments
//!   they are 0.02-0.25, and none of the suite's or the bench models' springs is a row. The
//!   stops keep the least moments (tuned on the figure; all three rules on the axis's moments
//!   moved the suite's humanoid from 137 to 133 iterations a step and the cheetah from 130 to
//!   131: not pursued);
//! - a tendon's spring past min(I_a, I_b): on no block (`spring_stiffness` takes joint springs
//!   only), a fixed point, r = s (1/J_a + 1/J_b) on the moments J about the hinge's axis; a row
//!   above 1. It was left a fixed point before: the rotors' damper as a one-hinge tendon did not
//!   converge from h c (1/I_a + 1/I_b) = 3 (residual 2.2 after 60 iterations). On the least
//!   moments the figure's airborne steps would take 16 such rows; on the axis's, the figure keeps
//!   its iterations a step (98.51 over 1000 steps), the suite's humanoid 137.09 -> 137.08.
//!
//! - a tendon's armature A (a rotor inertia, `tendons.rs`: F' = 2A / h^2, s = 2A coef^2), on both
//!   blocks at any size: block Jacobi on the moments about the hinge's axis, a row above 0.5.
//!   The rotors of `tests/tests/armature.rs` (A = 2.5 I) took 33 iterations on the blocks.
//!
//! after the spring-dampers, in element order, up to `MAX_ROWS` in all. A gimbal's middle hinge
//! (an arcsine) stays as it was.
use super::coordinates::{angle_dg, angle_grads, dirs, frame_axis, Step};
use super::spring_rows::{AngleRow, RowLaw};
use super::{Ctx, Grad};
use crate::forces::ForceElement;
use crate::model::{LimitKind, Model};
use glam::DMat3;

/// Above this rate (module notes) stops pressed at the step's start become a Newton row.
const STIFF_STOP: f64 = 0.25;

/// Above this rate (module notes) a spring on both bodies' blocks becomes a Newton row.
const STIFF_BLOCK: f64 = 0.5;

/// Above this rate (module notes) a spring on neither body's block becomes a Newton row.
const STIFF_SPRING: f64 = 1.0;

impl Ctx<'_> {
    /// Add this step's angle rows after the spring-dampers' (module notes).
    pub(super) fn angle_rows_select(&mut self, model: &Model, h: f64) {
        let c = self.c;
        for k in 0..model.forces.len() {
            let Some(row) = self.angle_row_of(model, k, h) else {
                continue;
            };
            let fr = &c.force_frames[row.frame];
            let least = |b: usize| model.bodies[b].inertia.min_element();
            let (ia, ib) = (fr.a.map_or(f64::INFINITY, least), least(fr.b));
            // h^2 F' on the hinge's angle
            let s = h
                * h
                * row.coef
                * row.coef
                * match row.law {
                    RowLaw::Spring { k, c, .. } => 0.5 * k + c / h,
                    RowLaw::Stop { scale, .. } => scale,
                };
            let tendon = matches!(model.forces[k], ForceElement::TendonSpring { .. });
            let armature = matches!(model.forces[k], ForceElement::TendonArmature { .. });
            let (rate, bound) = match row.law {
                // an armature, on both blocks (`tendons.rs` `limit_stiffness`) whatever its
                // size: block Jacobi, on the moments about the hinge's axis
                RowLaw::Spring { .. } if armature => {
                    let (ja, jb) = self.axis_moments(model, fr);
                    (libm::sqrt(s / (ja + s) * (s / (jb + s))), STIFF_BLOCK)
                }
                // a tendon's: on no block (`forces.rs` `spring_stiffness` takes joint springs
                // only), a fixed point, on the moments about the hinge's axis
                RowLaw::Spring { .. } if tendon && s > ia.min(ib) => {
                    let (ja, jb) = self.axis_moments(model, fr);
                    (s * (1.0 / ja + 1.0 / jb), STIFF_SPRING)
                }
                // on both blocks: block Jacobi, on the moments about the hinge's axis
                RowLaw::Spring { .. } if s > ia.min(ib) => {
                    let (ja, jb) = self.axis_moments(model, fr);
                    (libm::sqrt(s / (ja + s) * (s / (jb + s))), STIFF_BLOCK)
                }
                // on neither body's block: a fixed point
                RowLaw::Spring { .. } => (s * (1.0 / ia + 1.0 / ib), STIFF_SPRING),
                // on both blocks: block Jacobi between the two bodies
                RowLaw::Stop { .. } => (libm::sqrt(s / (ia + s) * (s / (ib + s))), STIFF_STOP),
            };
            let rows = &mut self.w.springs;
            if rate > bound && rows.list.len() < rows.f.len() {
                let e = rows.list.len();
                rows.sides[e] = [fr.a, Some(fr.b)];
                rows.angle[e] = Some(row);
                rows.list.push(k);
            }
        }
    }

    /// The two bodies' moments of inertia about the hinge's axis of `fr` at the step's start
    /// (the ground's infinite).
    fn axis_moments(&self, model: &Model, fr: &crate::forces::Frame) -> (f64, f64) {
        let q = &self.s.q;
        let axis = frame_axis(fr, |b| dirs(&q[b]));
        let about = |b: usize| {
            let m = dirs(&q[b]).transpose() * axis;
            (m * m * model.bodies[b].inertia).element_sum()
        };
        (fr.a.map_or(f64::INFINITY, about), about(fr.b))
    }

    /// Element `k` as an angle row, if it is an angle spring or stops pressed at the step's
    /// start (not on a gimbal's middle hinge).
    fn angle_row_of(&self, model: &Model, k: usize, h: f64) -> Option<AngleRow> {
        let el = &model.forces[k];
        let (frame, coef) = match *el {
            ForceElement::JointSpring { .. }
            | ForceElement::Limit {
                kind: LimitKind::Angle,
                ..
            } => (k, 1.0),
            ForceElement::TendonSpring { .. }
            | ForceElement::TendonLimit { .. }
            | ForceElement::TendonArmature { .. } => {
                match crate::forces::tendons::parts(model, k) {
                    Some((_, first, [term])) if term.kind == LimitKind::Angle => (first, term.coef),
                    _ => return None,
                }
            }
            _ => return None,
        };
        if self.c.force_frames[frame].middle {
            return None;
        }
        let law = match *el {
            ForceElement::JointSpring {
                stiffness,
                rest_angle,
                damping,
                ..
            } => RowLaw::Spring {
                k: stiffness,
                rest: rest_angle,
                c: damping,
            },
            ForceElement::TendonSpring {
                stiffness,
                rest_length,
                damping,
                ..
            } => RowLaw::Spring {
                k: stiffness,
                rest: rest_length,
                c: damping,
            },
            // F = 2A (Delta L - h w_n) / h^2 (`tendons.rs`): a spring of 4A / h^2 about
            // L_n + h w_n / 2, this step's
            ForceElement::TendonArmature { armature, .. } => RowLaw::Spring {
                k: 4.0 * armature / (h * h),
                rest: coef * self.s.forces.angles[frame] + 0.5 * h * self.s.forces.angles[k],
                c: 0.0,
            },
            ForceElement::Limit { lower, upper, .. }
            | ForceElement::TendonLimit { lower, upper, .. } => {
                let law = self.c.force_frames[k].law.as_ref()?;
                let scale = super::coordinates::stop_slope(
                    law,
                    coef * self.s.forces.angles[frame],
                    lower,
                    upper,
                    h,
                );
                if scale <= 0.0 {
                    return None;
                }
                RowLaw::Stop {
                    element: k,
                    lower,
                    upper,
                    scale,
                }
            }
            _ => return None,
        };
        Some(AngleRow {
            frame,
            slot: frame,
            coef,
            law,
        })
    }

    /// Angle row `row` at the current iterate: its force F, the row's scale F' and, per side
    /// (a, b), the gradient of L: the discrete one over the step (`mean`, where the force acts)
    /// or the one at q_n+1 (the row's linearisation, times F' there over the scale for stops).
    pub(super) fn angle_row(&self, row: &AngleRow, h: f64, mean: bool) -> (f64, f64, [Grad; 2]) {
        let fr = &self.c.force_frames[row.frame];
        let step = Step {
            qn: &self.s.q,
            q1: &self.w.q1,
            t: self.s.forces.t,
            h,
        };
        let th0 = self.s.forces.angles[row.slot];
        let (th1, gx, gy) = angle_dg(fr, &step, th0);
        let (l0, l1) = (row.coef * th0, row.coef * th1);
        let (f, fp, slope) = match row.law {
            RowLaw::Spring { k, rest, c } => {
                let fp = 0.5 * k + c / h;
                (k * (0.5 * (l0 + l1) - rest) + c * (l1 - l0) / h, fp, 1.0)
            }
            RowLaw::Stop {
                element,
                lower,
                upper,
                scale,
            } => {
                let law = self.c.force_frames[element]
                    .law
                    .as_ref()
                    .expect("a stop's law");
                let (f, _) = crate::forces::limits::discrete(law, l0, l1, lower, upper, h);
                (
                    f,
                    scale,
                    super::coordinates::stop_slope(law, l1, lower, upper, h) / scale,
                )
            }
        };
        let ground = |b: Option<usize>, at: &dyn Fn(usize) -> DMat3| b.map_or(DMat3::IDENTITY, at);
        let (on_b, on_a) = if mean {
            let qa = ground(fr.a, &|a| step.mean_dirs(a));
            angle_grads(fr, &qa, &step.mean_dirs(fr.b), row.coef * gx, row.coef * gy)
        } else {
            let qa = ground(fr.a, &|a| dirs(&self.w.q1[a]));
            let qb = dirs(&self.w.q1[fr.b]);
            let (x, y) = crate::forces::angle_xy(fr, &qa, &qb);
            let r2 = x * x + y * y;
            let (fx, fy) = if r2 > 1e-300 {
                (-y / r2, x / r2)
            } else {
                (0.0, 0.0)
            };
            let w = row.coef * slope;
            angle_grads(fr, &qa, &qb, w * fx, w * fy)
        };
        (f, fp, [grad(&on_a), grad(&on_b)])
    }
}

/// A directors' block as a body's 12-vector gradient (nothing on the centre).
fn grad(block: &DMat3) -> Grad {
    let mut g = [0.0; 12];
    g[3..12].copy_from_slice(&block.to_cols_array());
    g
}
