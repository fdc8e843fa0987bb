//! Stiff spring-dampers as rows of the condensed Newton solve (`condensed.rs`).
//!
//! The elements' forces enter Newton as a fixed point (`forces.rs`): evaluated at each iterate,
//! left out of the tangent. Its contraction per iteration is about h^2 F' / M, with
//! F' = dF/dl_n+1 = k/2 + c/h for the spring-damper of `forces.rs`,
//! F = k (lbar - L) + c Delta l / h: a stiff one (IFToMM A05's governor, k = 8e5 N/m,
//! c = 4e4 N s/m on 5 kg arms) does not converge at any step an explicit method would not also
//! take. Such a spring-damper becomes a row of the Newton system instead, with its force as
//! the unknown mu, like a joint's multiplier:
//!
//! ```text
//! force on the bodies   mu gbar,    gbar = d(l)/dq of the discrete gradient, dbar / lbar on the
//!                                   points (the force direction of `forces.rs`)
//! row                   rho = (F(l_n, l_n+1(q_n+1)) - mu) / F' = 0         (in metres)
//! linearised            gnew . dq - dmu / F' = -rho,   gnew = d l_n+1 / d q_n+1 = d_n+1 / l_n+1
//! ```
//! so the joint-space system gains one row and column per such element, with the diagonal
//! -1/F' of a compliant constraint (a rigid link as F' -> infinity). Its coupling with the
//! joint rows is the same Schur complement as between joint rows
//! (S_kl = -sum_b (h^2 / 2M) e0_k . g0_l - d_k . K^-1 c_l), and the element rows are solved as a
//! dense border of the joint matrix: with the joint block A (factored by `sparse/`),
//! X = A^-1 S_je, D' = S_ee - diag(1/F') - S_ej X (E x E, LU), then
//! dmu = D'^-1 (r_e - S_ej A^-1 r_j), dlambda = A^-1 r_j - X dmu: E extra joint-space solves
//! per fresh tangent. The tangent leaves out the turn of the direction gbar (the geometric
//! stiffness, of size F / l, against F' along it). At convergence mu = F(l_n, l_n+1), so the
//! force is the element's exact discrete force and the energy balance of `forces.rs` holds
//! unchanged; the step is judged on the residual of (23)-(28) as written, as always.
//!
//! Which elements: a spring-damper (`ForceElement::Spring`) whose fixed point would contract
//! slowly, h^2 F' (1/M_a + 1/M_b) > 0.05 (the centres' masses; the ground counts as infinite),
//! in element order, then the angle springs and pressed stops of `angle_rows.rs` (the same row
//! on a hinge's angle), up to `MAX_ROWS` (32, `spring_rows.rs`) in all; the others stay a fixed
//! point. The choice is
//! made each step from h and the model alone, so a run is the same whatever ran before it; the
//! presets' softer springs (spring-pendulum: 2e-3 at its step) keep the fixed point, and their
//! steps are bit for bit what they were.
use super::{mat, Ctx, Grad};
use crate::forces::ForceElement;
use crate::math::skew_vec;
use crate::model::Model;
use glam::DVec3;

/// Above this h^2 F' (1/M_a + 1/M_b) a spring-damper becomes a Newton row.
const STIFF: f64 = 0.05;

/// Body, point and unit-force direction of a spring's side: (body, point) for a and b.
fn ends(el: &ForceElement) -> Option<[(Option<usize>, DVec3); 2]> {
    match *el {
        ForceElement::Spring {
            a,
            point_a,
            b,
            point_b,
            ..
        } => Some([(a, point_a), (Some(b), point_b)]),
        _ => None,
    }
}

/// The point s of body q: q0 + Q s.
fn point(q: &[f64; 12], s: DVec3) -> DVec3 {
    DVec3::new(q[0], q[1], q[2]) + mat(q) * s
}

/// The gradient of n . p(q) for the point s of a body: n on q0, s_i n on q_i.
fn point_grad(s: DVec3, n: DVec3) -> Grad {
    let mut g = [0.0; 12];
    let (n, s) = (n.to_array(), s.to_array());
    for k in 0..3 {
        g[k] = n[k];
        for i in 0..3 {
            g[3 + 3 * i + k] = s[i] * n[k];
        }
    }
    g
}

impl Ctx<'_> {
    /// Choose this step's spring rows (see the module notes); returns how many.
    pub(super) fn spring_rows_select(&mut self, model: &Model, h: f64) -> usize {
        let rows = &mut self.w.springs;
        rows.list.clear();
        for (k, el) in model.forces.iter().enumerate() {
            if let ForceElement::Spring {
                a,
                b,
                stiffness,
                damping,
                ..
            } = *el
            {
                let inv =
                    a.map_or(0.0, |a| 1.0 / model.bodies[a].mass) + 1.0 / model.bodies[b].mass;
                let fp = 0.5 * stiffness + damping / h;
                if h * h * fp * inv > STIFF && rows.list.len() < rows.f.len() {
                    let e = rows.list.len();
                    rows.sides[e] = [a, Some(b)];
                    rows.angle[e] = None;
                    rows.list.push(k);
                }
            }
        }
        self.angle_rows_select(model, h);
        self.w.springs.list.len()
    }

    /// The residual floor of this step's spring rows: 4 eps h F' |x|, |x| the largest position
    /// among the bodies (round-off of a point's position, times F', is round-off of the force,
    /// and h times that of the momentum residual). At k = 8e5 N/m, c = 4e4 N s/m and h = 1e-3 s:
    /// 3.5e-11 for positions of about 1 m; zero without spring rows.
    pub(super) fn spring_rows_floor(&self, h: f64) -> f64 {
        let rows = &self.w.springs;
        if rows.list.is_empty() {
            return 0.0;
        }
        let model = &self.c.model;
        let x = self
            .s
            .q
            .iter()
            .map(|q| q[0].abs().max(q[1].abs()).max(q[2].abs()))
            .fold(1.0f64, f64::max);
        let fp = rows
            .list
            .iter()
            .map(|&k| match model.forces[k] {
                ForceElement::Spring {
                    stiffness, damping, ..
                } => 0.5 * stiffness + damping / h,
                _ => 0.0,
            })
            .fold(0.0f64, f64::max);
        4.0 * f64::EPSILON * h * fp * x
    }

    /// The length, its change and the element's force F (and F') for spring row `e` at the
    /// current iterate; `(d0, d1, l0, l1)` as well.
    fn spring_state(&self, e: usize, h: f64) -> (DVec3, DVec3, f64, f64, f64, f64) {
        let el = &self.c.model.forces[self.w.springs.list[e]];
        let ForceElement::Spring {
            stiffness: k,
            rest_length: rest,
            damping: c,
            ..
        } = *el
        else {
            unreachable!("spring rows are spring-dampers")
        };
        let [(a, pa), (b, pb)] = ends(el).expect("a spring-damper");
        let at = |qs: &[[f64; 12]], body: Option<usize>, s: DVec3| match body {
            Some(x) => point(&qs[x], s),
            None => s,
        };
        let d0 = at(&self.s.q, b, pb) - at(&self.s.q, a, pa);
        let d1 = at(&self.w.q1, b, pb) - at(&self.w.q1, a, pa);
        let (l0, l1) = (crate::math::length(d0), crate::math::length(d1));
        let f = k * (0.5 * (l0 + l1) - rest) + c * (l1 - l0) / h;
        let fp = 0.5 * k + c / h;
        (d0, d1, l0, l1, f, fp)
    }

    /// After `element_forces` at the iterate: each row's force F, F', the discrete gradient
    /// gbar, and `fext` changed from F gbar to mu gbar (mu = F on the first iteration).
    pub(super) fn spring_rows_force(&mut self, h: f64, first: bool) {
        for e in 0..self.w.springs.list.len() {
            let (f, fp, gm) = match self.w.springs.angle[e] {
                Some(row) => self.angle_row(&row, h, true),
                None => {
                    let (d0, d1, l0, l1, f, fp) = self.spring_state(e, h);
                    let [(_, pa), (_, pb)] = ends(&self.c.model.forces[self.w.springs.list[e]])
                        .expect("a spring-damper");
                    let lbar = 0.5 * (l0 + l1);
                    let n = if lbar > 0.0 {
                        (d0 + d1) * (0.5 / lbar)
                    } else {
                        DVec3::ZERO
                    };
                    (f, fp, [point_grad(pa, -n), point_grad(pb, n)])
                }
            };
            let rows = &mut self.w.springs;
            let [a, b] = rows.sides[e];
            if first {
                rows.mu[e] = f;
            }
            rows.f[e] = f;
            rows.fp[e] = fp;
            rows.gm[e] = gm;
            let dmu = rows.mu[e] - f;
            for (side, body) in [(0, a), (1, b)] {
                if let Some(x) = body {
                    for i in 0..12 {
                        self.w.fext[x][i] += dmu * rows.gm[e][side][i];
                    }
                }
            }
        }
    }

    /// After the centres' update: rho = (F(q_n+1) - mu) / F' and gnew of each row; returns
    /// max |rho| (m).
    pub(super) fn spring_rows_residual(&mut self, h: f64) -> f64 {
        let mut worst = 0.0f64;
        for e in 0..self.w.springs.list.len() {
            let (f, fp, gn) = match self.w.springs.angle[e] {
                Some(row) => self.angle_row(&row, h, false),
                None => {
                    let (_, d1, _, l1, f, fp) = self.spring_state(e, h);
                    let [(_, pa), (_, pb)] = ends(&self.c.model.forces[self.w.springs.list[e]])
                        .expect("a spring-damper");
                    let u = if l1 > 0.0 { d1 / l1 } else { DVec3::ZERO };
                    (f, fp, [point_grad(pa, -u), point_grad(pb, u)])
                }
            };
            let rows = &mut self.w.springs;
            rows.gn[e] = gn;
            rows.rho[e] = (f - rows.mu[e]) / fp;
            worst = worst.max(rows.rho[e].abs());
        }
        worst
    }

    /// The sides (0: a, 1: b) and bodies of spring row `e` (`None` for the ground).
    fn spring_sides(&self, e: usize) -> [Option<(usize, usize)>; 2] {
        let [a, b] = self.w.springs.sides[e];
        [a.map(|x| (0, x)), b.map(|x| (1, x))]
    }

    /// K^-1 dRes/dx and dRow/dOmega of a row with rotational gradients `gm` (at the mean,
    /// where its force acts) and `gn` (at q_n+1) on body `b`: the general forms of
    /// `condensed.rs`, 2h vec(skew(Q_n+1^T G A)) and 2h vec(skew((Q_n A)^T E A^T)).
    pub(super) fn general_factors(&self, b: usize, gm: &Grad, gn: &Grad, h: f64) -> (DVec3, DVec3) {
        let amat = self.w.amat[b];
        let cc = 2.0 * h * skew_vec(&(mat(&self.w.q1[b]).transpose() * mat(gm) * amat));
        let d = 2.0 * h * skew_vec(&(self.w.qna[b].transpose() * mat(gn) * amat.transpose()));
        (self.w.kinv[b] * cc, d)
    }

    /// The fresh tangent of the spring rows, after the joint block is factored (when there are
    /// joint rows): their factors, S_je, S_ej, X = A^-1 S_je and D' factored. False when D' is
    /// singular.
    pub(super) fn spring_rows_tangent(&mut self, model: &Model, h: f64) -> bool {
        let c = self.c;
        let ne = self.w.springs.list.len();
        let m = c.rows.len();
        for e in 0..ne {
            for (side, b) in self.spring_sides(e).into_iter().flatten() {
                let (gm, gn) = (self.w.springs.gm[e][side], self.w.springs.gn[e][side]);
                let (cy, dk) = self.general_factors(b, &gm, &gn, h);
                self.w.springs.cy[e][side] = cy;
                self.w.springs.dk[e][side] = dk;
            }
        }
        let tdot = |x: &Grad, y: &Grad| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
        let rows = &mut self.w.springs;
        rows.sje[..m * ne].fill(0.0);
        rows.sej[..m * ne].fill(0.0);
        rows.d[..ne * ne].fill(0.0);
        for e in 0..ne {
            let [a, b] = rows.sides[e];
            for (side, body) in [(0usize, a), (1, b)] {
                let Some(body) = body else { continue };
                let t = -h * h * 0.5 / model.bodies[body].mass;
                // with the joint rows at this body
                for inc in &c.at_body[body] {
                    let o = c.pattern.offset(inc.joint);
                    let js = usize::from(inc.is_b);
                    for k in o..o + c.frames[inc.joint].rows {
                        let (gnk, gmk) = (&self.w.gnew[k][js], &self.w.gmean[k][js]);
                        rows.sje[e * m + k] += t * tdot(gnk, &rows.gm[e][side])
                            - self.w.dk[k][js].dot(rows.cy[e][side]);
                        rows.sej[e * m + k] += t * tdot(&rows.gn[e][side], gmk)
                            - rows.dk[e][side].dot(self.w.cy[k][js]);
                    }
                }
                // with the spring rows at this body (itself included)
                for f in 0..ne {
                    let [fa, fb] = rows.sides[f];
                    for (fside, fbody) in [(0usize, fa), (1, fb)] {
                        if fbody == Some(body) {
                            rows.d[e * ne + f] += t * tdot(&rows.gn[e][side], &rows.gm[f][fside])
                                - rows.dk[e][side].dot(rows.cy[f][fside]);
                        }
                    }
                }
            }
            rows.d[e * ne + e] -= 1.0 / rows.fp[e];
        }
        if m > 0 {
            for e in 0..ne {
                self.w
                    .js
                    .solve(&c.pattern, &mut rows.sje[e * m..(e + 1) * m]);
            }
            for e in 0..ne {
                for f in 0..ne {
                    let mut s = 0.0;
                    for k in 0..m {
                        s += rows.sej[e * m + k] * rows.sje[f * m + k];
                    }
                    rows.d[e * ne + f] -= s;
                }
            }
        }
        crate::math::lu_factor(&mut rows.d[..ne * ne], ne, &mut rows.piv[..ne])
    }

    /// Solve the bordered system for the joint rows' right-hand side `self.w.rj` (replaced by
    /// dlambda) and the spring rows' -rho + d . K^-1 Res (dmu, added to mu); adds the rows'
    /// K^-1 dRes/dmu dmu to `kres`.
    pub(super) fn spring_rows_solve(&mut self) {
        let c = self.c;
        let ne = self.w.springs.list.len();
        let m = c.rows.len();
        for e in 0..ne {
            let mut r = -self.w.springs.rho[e];
            for (side, b) in self.spring_sides(e).into_iter().flatten() {
                r += self.w.springs.dk[e][side].dot(self.w.kres[b]);
            }
            self.w.springs.r[e] = r;
        }
        if m > 0 {
            self.w.js.solve(&c.pattern, &mut self.w.rj); // y = A^-1 r_j
        }
        let rows = &mut self.w.springs;
        for e in 0..ne {
            let mut s = 0.0;
            for k in 0..m {
                s += rows.sej[e * m + k] * self.w.rj[k];
            }
            rows.r[e] -= s;
        }
        crate::math::lu_back(&rows.d[..ne * ne], ne, &rows.piv[..ne], &mut rows.r[..ne]);
        for e in 0..ne {
            let dmu = rows.r[e];
            rows.mu[e] += dmu;
            for k in 0..m {
                self.w.rj[k] -= rows.sje[e * m + k] * dmu;
            }
        }
        for e in 0..ne {
            let dmu = self.w.springs.r[e];
            for (side, b) in self.spring_sides(e).into_iter().flatten() {
                self.w.kres[b] += self.w.springs.cy[e][side] * dmu;
            }
        }
    }
}
