//! The model compiled once for the integrators: everything that follows from the [`Model`]
//! and does not change during a run.
//!
//! - the joint frames: points, the unit axis n_a and the pair (e_1, e_2) completing axis_b to
//!   an orthonormal frame (eq. 37), so that no row evaluation recomputes them;
//! - the row table: joint, row and bodies of every scalar joint equation;
//! - the incidence of joints and bodies, and for every pair of joints meeting at a body the
//!   index of their block in the joint-space matrix (`sparse/`);
//! - the inverse masses 1/M, the inverse principal moments J^-1 and RATTLE's D (eq. 2).
use crate::math::{normalize, perpendicular_pair};
use crate::model::{d_from_inertia, BodyState, DriveKind, ForceElement, Joint, JointKind, Model};
use crate::sparse::JointPattern;
use crate::timefn::TimeFn;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// One scalar joint equation, in the forms every method evaluates (`joints.rs` for the
/// rotation-matrix methods, `director/mod.rs` for the director method). All are polynomials of
/// degree at most two in the bodies' positions and directors, so the director's gradient at the
/// mean configuration is an exact discrete derivative (Nielsen & Krenk eqs. 41-42).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RowSpec {
    /// e_r . (p_b - p_a), p = x + R s (eq. 34)
    Pos(usize),
    /// (R_a v) . (R_b u), v in a's frame (global for the ground), u in b's (eq. 37)
    Dot(DVec3, DVec3),
    /// (R_a m) . (p_b - p_a), m in a's frame: b's point stays in a plane of a through a's point
    Perp(DVec3),
    /// An angle drive: sin(f(t)) x - cos(f(t)) y with x = (R_a r) . (R_b e), y = (R_a m) . (R_b e)
    /// (r, m = n x r perpendicular to the axis in a, e in b; r is where e pointed at the start,
    /// so the angle is 0 there): the dot row of v(t) = sin(f) r - cos(f) m and e, bilinear in
    /// the directors with coefficients of t. Its time part: Phi_t = f' (cos f x + sin f y).
    Angle(DVec3, DVec3, DVec3, TimeFn),
    /// A slide drive: (R_a m) . (p_b - p_a) - s0 - f(t), the sliding row along the axis m
    /// itself, s0 its value at the start. Phi_t = -f'.
    Slide(DVec3, f64, TimeFn),
    /// An offset universal joint's position row r: e_r . (p_b - p_a - delta (R_a v) x (R_b u)),
    /// v in a's frame (global for the ground), u in b's, delta in m: b's point stays delta from
    /// a's along the hinges' common normal (MuJoCo's ankle); bilinear in the directors.
    Offset(usize, DVec3, DVec3, f64),
    /// A distance row (a distance joint, driven or not): (d . d - L(t)^2) / (2 L0), d = p_b - p_a,
    /// L(t) = L0 + f(t) (f = 0 for a joint without a drive). Quadratic in the positions and
    /// directors like the others; divided by 2 L0 so that near the solution it reads in metres
    /// (|d| - L) and its multiplier is the rod's tension in newtons. Phi_t = -L L' / L0.
    Dist(f64, TimeFn),
}

impl RowSpec {
    /// An angle drive's vector v(t) = sin(f) r - cos(f) m (the dot row it is at time t).
    pub fn angle_vector(r: DVec3, m: DVec3, f: &TimeFn, t: f64) -> DVec3 {
        let th = f.at(t);
        r * libm::sin(th) - m * libm::cos(th)
    }

    /// A distance row's time part S(t) = L(t)^2 / (2 L0) (Phi = d . d / (2 L0) - S) and its
    /// first and second derivatives.
    pub fn distance_terms(l0: f64, f: &TimeFn, t: f64) -> (f64, f64, f64) {
        let (l, l1, l2) = (l0 + f.at(t), f.rate(t), f.accel(t));
        (l * l / (2.0 * l0), l * l1 / l0, (l1 * l1 + l * l2) / l0)
    }

    /// Rows whose gradient is not of the revolute's rank-one form (their translational part is
    /// not +-e_r or zero): the sliding and distance rows take the general paths.
    pub fn is_general(&self) -> bool {
        matches!(
            self,
            RowSpec::Perp(_) | RowSpec::Slide(..) | RowSpec::Dist(..) | RowSpec::Offset(..)
        )
    }

    /// Rows with a time-dependent part (the drives): their forces do work.
    pub fn is_driven(&self) -> bool {
        matches!(
            self,
            RowSpec::Angle(..) | RowSpec::Slide(..) | RowSpec::Dist(..)
        )
    }
}

/// One joint with its frame precomputed.
#[derive(Clone, Copy, Debug)]
pub struct JointFrame {
    /// rows: 3 to 6
    pub rows: usize,
    /// body a, `None` for the ground
    pub a: Option<usize>,
    /// body b
    pub b: usize,
    /// joint point in body a's frame (global if ground)
    pub point_a: DVec3,
    /// joint point in body b's frame
    pub point_b: DVec3,
    /// revolute: axis_a normalised (zero for a spherical joint)
    pub n_a: DVec3,
    /// revolute: e_1, e_2 completing axis_b to a right-handed orthonormal frame
    pub e: [DVec3; 2],
    /// the equations, `rows` of them
    pub spec: [RowSpec; 6],
    /// whether a row is a [`RowSpec::Perp`]: its translational gradient is not +-e_r or zero,
    /// so the joint-space products take the general path
    pub general: bool,
    /// a spherical or revolute joint without drives: the rotation-matrix methods evaluate it
    /// by the fixed code of those two (`joints::evaluate_into`)
    pub classic: bool,
}

impl JointFrame {
    /// The frame of joint `j` of `model` with the rows of its drives appended, their references
    /// measured at `init` (the identity orientation and the bodies' centres at the origin when
    /// `init` is `None`).
    pub fn for_model(model: &Model, j: usize, init: Option<&[BodyState]>) -> Self {
        let joint = &model.joints[j];
        let mut f = JointFrame::new(joint);
        let rot = |b: Option<usize>| match (b, init) {
            (Some(b), Some(s)) => s[b].r,
            _ => DMat3::IDENTITY,
        };
        let at = |b: Option<usize>, p: DVec3| match (b, init) {
            (Some(b), Some(s)) => s[b].x + s[b].r * p,
            (Some(_), None) => p,
            (None, _) => p,
        };
        for d in model.drives.iter().filter(|d| d.joint == j) {
            if let (DriveKind::Distance, RowSpec::Dist(l0, _)) = (d.kind, f.spec[0]) {
                // the distance joint's own row, now with L(t) = L0 + f(t)
                f.spec[0] = RowSpec::Dist(l0, d.time);
                f.classic = false;
                continue;
            }
            if f.rows >= 6 {
                break; // rejected by `validate::check_drives`
            }
            let n_a = f.n_a;
            f.spec[f.rows] = match d.kind {
                DriveKind::Angle => {
                    let (ra, rb) = (rot(joint.a), rot(Some(joint.b)));
                    let r = ra.transpose() * (rb * f.e[0]);
                    let r = r - n_a * n_a.dot(r);
                    let r = if crate::math::length(r) > 0.5 {
                        normalize(r)
                    } else {
                        f.e[0]
                    };
                    RowSpec::Angle(r, n_a.cross(r), f.e[0], d.time)
                }
                DriveKind::Slide => {
                    let s0 = (rot(joint.a) * n_a)
                        .dot(at(Some(joint.b), joint.point_b) - at(joint.a, joint.point_a));
                    RowSpec::Slide(n_a, s0, d.time)
                }
                DriveKind::Distance => break, // only on a distance joint (`check_drives`)
            };
            f.rows += 1;
            f.general |= d.kind == DriveKind::Slide;
            f.classic = false;
        }
        f
    }

    /// The frame of `joint`.
    pub fn new(joint: &Joint) -> Self {
        use RowSpec::{Dist, Dot, Offset, Perp, Pos};
        let (n_a, e, [m1, m2]) = frame_axes(&joint.kind);
        let pos = [Pos(0), Pos(1), Pos(2)];
        let align = [Dot(n_a, e[0]), Dot(n_a, e[1])];
        let list: &[RowSpec] = &match joint.kind {
            // (a gimbal's rows are a ball joint's: its hinges' axes only measure its angles)
            JointKind::Spherical | JointKind::Gimbal { .. } => {
                [pos[0], pos[1], pos[2], Pos(0), Pos(0), Pos(0)]
            }
            JointKind::Distance { length } => {
                let still = TimeFn::Constant { value: 0.0 };
                [Dist(length, still), Pos(0), Pos(0), Pos(0), Pos(0), Pos(0)]
            }
            JointKind::Revolute { .. } => [pos[0], pos[1], pos[2], align[0], align[1], Pos(0)],
            JointKind::Prismatic { twist_a, .. } => [
                Perp(m1),
                Perp(m2),
                align[0],
                align[1],
                Dot(twist_a, e[1]),
                Pos(0),
            ],
            JointKind::Cylindrical { .. } => {
                [Perp(m1), Perp(m2), align[0], align[1], Pos(0), Pos(0)]
            }
            // the plane's normal n_a: b's point in the plane (Perp), axis_b along it (align)
            JointKind::Planar { .. } => [Perp(n_a), align[0], align[1], Pos(0), Pos(0), Pos(0)],
            JointKind::PlanarSlide { twist_a, .. } => [
                Perp(n_a),
                align[0],
                align[1],
                Dot(twist_a, e[1]),
                Pos(0),
                Pos(0),
            ],
            // b does not turn: a weld's rotational rows alone
            JointKind::Translation { twist_a, .. } => [
                align[0],
                align[1],
                Dot(twist_a, e[1]),
                Pos(0),
                Pos(0),
                Pos(0),
            ],
            JointKind::Universal {
                axis_a,
                axis_b,
                offset,
            } => {
                let (v, u) = (normalize(axis_a), normalize(axis_b));
                // (the rows of a Cardan joint whose lines meet stay the spherical ones)
                let at = |r| {
                    if offset == 0.0 {
                        Pos(r)
                    } else {
                        Offset(r, v, u, offset)
                    }
                };
                [at(0), at(1), at(2), Dot(v, u), Pos(0), Pos(0)]
            }
            JointKind::Fixed { twist_a, .. } => [
                pos[0],
                pos[1],
                pos[2],
                align[0],
                align[1],
                Dot(twist_a, e[1]),
            ],
        }[..joint.kind.rows()];
        let mut spec = [Pos(0); 6];
        spec[..list.len()].copy_from_slice(list);
        JointFrame {
            rows: joint.kind.rows(),
            a: joint.a,
            b: joint.b,
            point_a: joint.point_a,
            point_b: joint.point_b,
            n_a,
            e,
            spec,
            general: list.iter().any(RowSpec::is_general),
            classic: matches!(
                joint.kind,
                JointKind::Spherical | JointKind::Gimbal { .. } | JointKind::Revolute { .. }
            ),
        }
    }
}

/// One scalar joint equation.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// its joint
    pub joint: usize,
    /// its row within the joint (0..3 position, 3..5 revolute axis)
    pub row: usize,
    /// body a of the joint (`None`: ground)
    pub a: Option<usize>,
    /// body b of the joint
    pub b: usize,
}

/// A joint at a body.
#[derive(Clone, Copy, Debug)]
pub struct Incident {
    /// the joint
    pub joint: usize,
    /// true when the body is the joint's side b
    pub is_b: bool,
}

/// The compiled model, built once by [`Compiled::new`] and shared by the integrators.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// the model itself
    pub model: Model,
    /// per joint: its frame
    pub frames: Vec<JointFrame>,
    /// per scalar joint equation (m x 1): joint, row, bodies
    pub rows: Vec<Row>,
    /// the joint-space block pattern
    pub pattern: JointPattern,
    /// per body: the joints meeting there
    pub at_body: Vec<Vec<Incident>>,
    /// per body b with n = at_body[b].len(): element k * n + l is the block index of
    /// (at_body[b][k], at_body[b][l])
    pub pair_block: Vec<Vec<usize>>,
    /// parallel to `pair_block`: whether body b is the first body (lowest index) at which the
    /// two joints meet, so that a sum over bodies in order stores its first term
    /// (as 0 + value, `joints::assemble`) instead of clearing every block first
    pub pair_first: Vec<Vec<bool>>,
    /// per joint: its position in at_body of body a (unused for the ground) and of body b
    pub slot: Vec<[usize; 2]>,
    /// per body: 1 / M
    pub inv_mass: Vec<f64>,
    /// per body: J^-1 (inverse principal moments)
    pub inv_inertia: Vec<DVec3>,
    /// per body: RATTLE's D = diag(d) (Terze et al. eq. 2)
    pub d: Vec<DVec3>,
    /// per force element: its frame (`forces.rs`); the joint springs' angles are measured from
    /// the identity orientation until [`Compiled::measure_from`] sets the initial state
    pub force_frames: Vec<crate::forces::Frame>,
    /// the contact probes (`contact/`)
    pub contacts: crate::contact::Probes,
    /// whether the model has stops: joint and tendon limits, ropes (`forces/limits.rs`,
    /// `forces/rope.rs`): their sub-steps and the tangent's stiffness
    pub has_limits: bool,
    /// whether the model has joint or slider springs or tendon armatures (`director/forces.rs`
    /// `spring_stiffness`, `director/tendons.rs` `limit_stiffness`: the stiff ones in Newton's
    /// tangent)
    pub has_springs: bool,
}

impl Compiled {
    /// Compile `model`. Fails when the joints form a closed loop or name a body that does not
    /// exist.
    pub fn new(model: &Model) -> Result<Compiled, String> {
        let pattern = JointPattern::new(model).map_err(|e| e.to_string())?;
        let frames: Vec<JointFrame> = (0..model.joints.len())
            .map(|j| JointFrame::for_model(model, j, None))
            .collect();
        let mut rows = Vec::with_capacity(pattern.dim());
        for (j, f) in frames.iter().enumerate() {
            for row in 0..f.rows {
                rows.push(Row {
                    joint: j,
                    row,
                    a: f.a,
                    b: f.b,
                });
            }
        }
        let nb = model.bodies.len();
        let mut at_body: Vec<Vec<Incident>> = (0..nb).map(|_| Vec::new()).collect();
        let mut slot = alloc::vec![[0usize; 2]; frames.len()];
        for (j, f) in frames.iter().enumerate() {
            slot[j][1] = at_body[f.b].len();
            at_body[f.b].push(Incident {
                joint: j,
                is_b: true,
            });
            if let Some(a) = f.a {
                slot[j][0] = at_body[a].len();
                at_body[a].push(Incident {
                    joint: j,
                    is_b: false,
                });
            }
        }
        let pair_block: Vec<Vec<usize>> = at_body
            .iter()
            .map(|list| {
                let mut v = Vec::with_capacity(list.len() * list.len());
                for k in list {
                    for l in list {
                        v.push(pattern.index(k.joint, l.joint));
                    }
                }
                v
            })
            .collect();
        let nblocks = pair_block
            .iter()
            .flatten()
            .map(|&i| i + 1)
            .max()
            .unwrap_or(0);
        let mut seen = alloc::vec![false; nblocks];
        let pair_first = pair_block
            .iter()
            .map(|v| {
                v.iter()
                    .map(|&i| !core::mem::replace(&mut seen[i], true))
                    .collect()
            })
            .collect();
        Ok(Compiled {
            model: model.clone(),
            frames,
            rows,
            pattern,
            at_body,
            pair_block,
            pair_first,
            slot,
            inv_mass: model.bodies.iter().map(|b| 1.0 / b.mass).collect(),
            inv_inertia: model.bodies.iter().map(|b| b.inertia.recip()).collect(),
            d: model
                .bodies
                .iter()
                .map(|b| d_from_inertia(b.inertia))
                .collect(),
            force_frames: crate::forces::frames(model, None),
            contacts: crate::contact::Probes::new(model)?,
            has_limits: model.forces.iter().any(|f| f.is_stop()),
            has_springs: model.forces.iter().any(|f| {
                matches!(
                    f,
                    ForceElement::JointSpring { .. }
                        | ForceElement::SliderSpring { .. }
                        | ForceElement::TendonArmature { .. }
                )
            }),
        })
    }

    /// Measure the joint springs' angles and the drives' coordinates from the initial states
    /// `init` (zero there).
    pub fn measure_from(&mut self, init: &[crate::model::BodyState]) {
        self.force_frames = crate::forces::frames(&self.model, Some(init));
        for j in 0..self.frames.len() {
            self.frames[j] = JointFrame::for_model(&self.model, j, Some(init));
        }
    }

    /// Number of bodies.
    pub fn bodies(&self) -> usize {
        self.model.bodies.len()
    }

    /// Block index of (joint `k`, joint `l`) where both meet body `b`; `k` and `l` are
    /// positions in `at_body[b]`.
    #[inline]
    pub fn block(&self, b: usize, k: usize, l: usize) -> usize {
        self.pair_block[b][k * self.at_body[b].len() + l]
    }
}

/// A joint's axes for its rows: n_a (axis_a, unit), e (a perpendicular pair of axis_b) and a
/// perpendicular pair of n_a; zero for the joints without axes (spherical, gimbal, distance).
fn frame_axes(kind: &JointKind) -> (DVec3, [DVec3; 2], [DVec3; 2]) {
    let (axis_a, axis_b) = kind.axes();
    match kind {
        JointKind::Spherical | JointKind::Gimbal { .. } | JointKind::Distance { .. } => {
            (DVec3::ZERO, [DVec3::ZERO; 2], [DVec3::ZERO; 2])
        }
        _ => {
            let (e1, e2) = perpendicular_pair(axis_b);
            let n_a = normalize(axis_a);
            let (m1, m2) = if n_a == DVec3::ZERO {
                (DVec3::ZERO, DVec3::ZERO)
            } else {
                perpendicular_pair(n_a)
            };
            (n_a, [e1, e2], [m1, m2])
        }
    }
}
