//! The joint rows of the director method: Phi(q) and its gradient per side for the three kinds
//! of rows (`compiled::RowSpec`), at q_n+1 for the Newton rows and at the mean configuration
//! for the forces.
//!
//! ```text
//! Pos(r)     e_r . (x_b + Q_b s_b - x_a - Q_a s_a)        (34)-(35): constant gradient
//! Dot(v, u)  (Q_a v) . (Q_b u)                            (37)-(38): bilinear
//! Perp(m)    (Q_a m) . (x_b + Q_b s_b - x_a - Q_a s_a)    quadratic in q_a, bilinear in q_a, q_b
//! Offset(r, v, u, delta)   Pos(r) - delta e_r . (Q_a v) x (Q_b u)   bilinear
//! Dist(L0, f) (d . d - L(t)^2) / (2 L0), d = x_b + Q_b s_b - x_a - Q_a s_a   quadratic in q
//! ```
//! A distance row's gradient, with u = d / L0: u on x_b, s_b,i u on q_b,i, and the negatives
//! with s_a on a. Its time part S(t) = L(t)^2 / (2 L0) is apart from q, so the step's increment
//! is grad Phi(qbar) . Delta q - Delta S exactly, and the rod does work lambda Delta S
//! (`drive_work`); without a drive S is constant and the rod does none.
//! Every row is a polynomial of degree at most two, so its gradient at the mean configuration
//! qbar = (q_n + q_n+1) / 2 is an exact finite derivative: Phi(q_n+1) - Phi(q_n) =
//! grad Phi(qbar) . (q_n+1 - q_n) (eqs. 41-42), and the joint forces do no work over a step.
use crate::compiled::{Compiled, JointFrame, RowSpec};
use glam::{DMat3, DVec3};

/// How one joint row acts on one body: the gradient dPhi/dq of that body (12 numbers).
pub(crate) type Grad = [f64; 12];

/// Joint `j` row `r` at configuration `q`: (Phi, gradient of side a, gradient of side b).
pub(crate) fn joint_row(
    c: &Compiled,
    qs: &[[f64; 12]],
    j: usize,
    r: usize,
    t: f64,
) -> (f64, Grad, Grad) {
    let mut g = [[0.0; 12]; 2];
    let phi = joint_row_into(c, qs, j, r, &mut g, t);
    let [ga, gb] = g;
    (phi, ga, gb)
}

/// Joint `j` row `r` at configuration `q`: Phi, and its gradients written into `g` (side a,
/// side b). Writes only the elements that can be non-zero for this row (the others keep their
/// zeros), so the workspace's gradients are updated in place.
pub(crate) fn joint_row_into(
    c: &Compiled,
    qs: &[[f64; 12]],
    j: usize,
    r: usize,
    g: &mut [Grad; 2],
    t: f64,
) -> f64 {
    let jt = &c.frames[j];
    let [ga, gb] = g;
    let qb = &qs[jt.b];
    match jt.spec[r] {
        RowSpec::Pos(r) => pos_row(qs, jt, r, ga, gb),
        RowSpec::Dot(na, e) => dot_row(qs, jt.a, qb, na, e, ga, gb),
        RowSpec::Offset(r, v, u, delta) => offset_row(qs, jt, (r, v, u, delta), ga, gb),
        // an angle drive is the dot row of v(t) = sin(f) r - cos(f) m (compiled.rs)
        RowSpec::Angle(rr, m, e, f) => {
            dot_row(qs, jt.a, qb, RowSpec::angle_vector(rr, m, &f, t), e, ga, gb)
        }
        RowSpec::Dist(l0, f) => dist_row(qs, jt, l0, ga, gb) - RowSpec::distance_terms(l0, &f, t).0,
        RowSpec::Perp(m) => perp_row(qs, jt, m, ga, gb),
        RowSpec::Slide(m, s0, f) => perp_row(qs, jt, m, ga, gb) - s0 - f.at(t),
    }
}

/// The rows whose mean gradient on one body turns with the other body (the tangent's
/// cross-body term, `cross.rs`): dot rows and angle drives of joints between two bodies.
pub(crate) fn cross_candidates(c: &Compiled) -> alloc::vec::Vec<usize> {
    (0..c.rows.len())
        .filter(|&k| {
            let r = &c.rows[k];
            r.a.is_some()
                && matches!(
                    c.frames[r.joint].spec[r.row],
                    RowSpec::Dot(..) | RowSpec::Angle(..)
                )
        })
        .collect()
}

/// The point s of a body at configuration q: x + Q s.
#[inline(always)]
fn point(q: &[f64; 12], s: DVec3) -> DVec3 {
    DVec3::new(q[0], q[1], q[2]) + DMat3::from_cols_slice(&q[3..12]) * s
}

/// Body a's joint point p_a (the fixed point for a ground joint).
#[inline(always)]
fn point_a(qs: &[[f64; 12]], jt: &JointFrame) -> DVec3 {
    match jt.a {
        Some(a) => point(&qs[a], jt.point_a),
        None => jt.point_a,
    }
}

/// A spherical row (34)-(35), component r of x_b + Q_b s_b - (x_a + Q_a s_a), and its
/// constant gradients.
#[inline(always)]
fn pos_row(qs: &[[f64; 12]], jt: &JointFrame, r: usize, ga: &mut Grad, gb: &mut Grad) -> f64 {
    let sb = jt.point_b.to_array();
    gb[r] = 1.0;
    for i in 0..3 {
        gb[3 + 3 * i + r] = sb[i];
    }
    let pa = match jt.a {
        Some(a) => {
            let sa = jt.point_a.to_array();
            ga[r] = -1.0;
            for i in 0..3 {
                ga[3 + 3 * i + r] = -sa[i];
            }
            point(&qs[a], jt.point_a)
        }
        None => jt.point_a,
    };
    (point(&qs[jt.b], jt.point_b) - pa)[r]
}

/// An offset universal joint's position row r: e_r . (p_b - p_a) - delta (n x m)_r with
/// n = Q_a v (the fixed v for the ground) and m = Q_b u, bilinear in the two bodies'
/// directors: on director i of b, s_b,i e_r - delta u_i (e_r x n); on director i of a,
/// -s_a,i e_r - delta v_i (m x e_r) (every rotational entry written).
#[inline(always)]
fn offset_row(
    qs: &[[f64; 12]],
    jt: &JointFrame,
    (r, v, u, delta): (usize, DVec3, DVec3, f64),
    ga: &mut Grad,
    gb: &mut Grad,
) -> f64 {
    let er = DVec3::AXES[r];
    let m = DMat3::from_cols_slice(&qs[jt.b][3..12]) * u;
    let n =
        jt.a.map_or(v, |a| DMat3::from_cols_slice(&qs[a][3..12]) * v);
    let phi = pos_row(qs, jt, r, ga, gb) - delta * n.cross(m)[r];
    let (sb, ub, wb) = (jt.point_b.to_array(), u.to_array(), er.cross(n).to_array());
    for i in 0..3 {
        for k in 0..3 {
            let own = if k == r { sb[i] } else { 0.0 };
            gb[3 + 3 * i + k] = own - delta * ub[i] * wb[k];
        }
    }
    if jt.a.is_some() {
        let (sa, va, wa) = (jt.point_a.to_array(), v.to_array(), m.cross(er).to_array());
        for i in 0..3 {
            for k in 0..3 {
                let own = if k == r { -sa[i] } else { 0.0 };
                ga[3 + 3 * i + k] = own - delta * va[i] * wa[k];
            }
        }
    }
    phi
}

/// A distance row without its time part: (d . d) / (2 L0), d = p_b - p_a, and its gradients
/// (u = d / L0 on x_b, s_b,i u on q_b,i, the negatives with s_a on a).
#[inline(always)]
fn dist_row(qs: &[[f64; 12]], jt: &JointFrame, l0: f64, ga: &mut Grad, gb: &mut Grad) -> f64 {
    let d = point(&qs[jt.b], jt.point_b) - point_a(qs, jt);
    let u = (d / l0).to_array();
    let sb = jt.point_b.to_array();
    for k in 0..3 {
        gb[k] = u[k];
        for i in 0..3 {
            gb[3 + 3 * i + k] = sb[i] * u[k];
        }
    }
    if jt.a.is_some() {
        let sa = jt.point_a.to_array();
        for k in 0..3 {
            ga[k] = -u[k];
            for i in 0..3 {
                ga[3 + 3 * i + k] = -sa[i] * u[k];
            }
        }
    }
    0.5 * d.dot(d) / l0
}

/// A sliding joint's row without its drive: (Q_a m) . d, d = p_b - p_a, quadratic in q: on b,
/// mw on x_b and s_b,i mw on q_b,i; on a, -mw on x_a and m_i d - s_a,i mw on q_a,i (the product
/// rule on the Q_a-dependence of both mw and p_a).
#[inline(always)]
fn perp_row(qs: &[[f64; 12]], jt: &JointFrame, m: DVec3, ga: &mut Grad, gb: &mut Grad) -> f64 {
    let d = point(&qs[jt.b], jt.point_b) - point_a(qs, jt);
    let mw = match jt.a {
        Some(a) => DMat3::from_cols_slice(&qs[a][3..12]) * m,
        None => m,
    };
    let (sb, mwa, da) = (jt.point_b.to_array(), mw.to_array(), d.to_array());
    for k in 0..3 {
        gb[k] = mwa[k];
        for i in 0..3 {
            gb[3 + 3 * i + k] = sb[i] * mwa[k];
        }
    }
    if jt.a.is_some() {
        let (sa, mm) = (jt.point_a.to_array(), m.to_array());
        for k in 0..3 {
            ga[k] = -mwa[k];
            for i in 0..3 {
                ga[3 + 3 * i + k] = mm[i] * da[k] - sa[i] * mwa[k];
            }
        }
    }
    mw.dot(d)
}

/// A dot row (37)-(38), n . (Q_b e), n = Q_a n_a (or the fixed global axis): its value, and its
/// gradients into `ga` (side a) and `gb` (side b); the same form for any pair of body vectors
/// (revolute, sliding, universal and fixed joints, angle drives).
#[inline(always)]
fn dot_row(
    qs: &[[f64; 12]],
    a: Option<usize>,
    qb: &[f64; 12],
    na: DVec3,
    e: DVec3,
    ga: &mut Grad,
    gb: &mut Grad,
) -> f64 {
    let e = e.to_array();
    let u = DMat3::from_cols_slice(&qb[3..12]) * DVec3::from_array(e);
    let n = match a {
        Some(a) => {
            let nn = na.to_array();
            for i in 0..3 {
                for k in 0..3 {
                    ga[3 + 3 * i + k] = nn[i] * u[k];
                }
            }
            DMat3::from_cols_slice(&qs[a][3..12]) * na
        }
        None => na,
    };
    for i in 0..3 {
        for k in 0..3 {
            gb[3 + 3 * i + k] = e[i] * n[k];
        }
    }
    n.dot(u)
}
