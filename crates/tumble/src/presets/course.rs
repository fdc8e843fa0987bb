//! The presets a multibody course starts with: the double pendulum, the four-bar
//! linkage and the catenary. `table.rs` holds their table entries (names, parameters) and
//! `paper.rs` calls the builders here.
//!
//! All three are made of uniform rods: 1 kg per metre, a square cross-section of
//! [`ROD_WIDTH`] = 0.05 m, the long axis along the body's x3 axis. A thin box rather than a
//! line: its moments of inertia m (L^2 + w^2) / 12, m (L^2 + w^2) / 12 and m w^2 / 6 obey the
//! triangle inequality strictly (a line's m L^2 / 12, m L^2 / 12, 0 would not; the RATTLE
//! matrix D would be singular). Rod k runs from its end P (body point -L/2 x3) to its end Q
//! (+L/2 x3). The planar presets move in the x2-x3 plane with every hinge axis along x1.
use crate::math::rotation;
use crate::model::{box_inertia, Body, BodyState, Joint, JointKind, Model};
use crate::validate::ScenarioError;
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;
use core::f64::consts::{FRAC_PI_2, PI};
use glam::{DMat3, DVec3};

/// Mass per length of every rod (kg/m).
pub const ROD_DENSITY: f64 = 1.0;
/// Side of the square cross-section of every rod (m).
pub const ROD_WIDTH: f64 = 0.05;
/// Length of the catenary's chain (m), whatever the number of links.
pub const CATENARY_LENGTH: f64 = 10.0;

const GRAVITY: DVec3 = DVec3::new(0.0, 0.0, -9.81);

/// A uniform rod of `length` (m): mass 1 kg/m, box w x w x length.
pub fn rod(length: f64) -> Body {
    let mass = ROD_DENSITY * length;
    let size = DVec3::new(ROD_WIDTH, ROD_WIDTH, length);
    Body {
        mass,
        inertia: box_inertia(mass, size),
        size,
    }
}

pub(crate) fn revolute_x() -> JointKind {
    JointKind::Revolute {
        axis_a: DVec3::X,
        axis_b: DVec3::X,
    }
}

/// A rod in the x2-x3 plane at the planar angle `theta` (from +x2 towards +x3) with its centre
/// at `x`: R = rotation about x1 by theta - pi/2, so that R x3 = (0, cos theta, sin theta).
pub(crate) fn planar_rod_state(x: DVec3, theta: f64) -> BodyState {
    BodyState::at_rest(x, rotation(DVec3::X, theta - FRAC_PI_2))
}

/// The double pendulum: two rods (lengths `values[2]`, `values[3]` m) hinged end to end and
/// hung from a hinge at the origin, axes along x1; rod k at the angle `values[k]` (rad) from the
/// downward vertical, rotated about +x1 (the convention of `hanging_chain`: its centre at
/// (0, d sin theta, -d cos theta) below its upper end), released from rest.
pub fn double_pendulum(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (angles, lengths) = ([values[0], values[1]], [values[2], values[3]]);
    let mut bodies = Vec::with_capacity(2);
    let mut joints = Vec::with_capacity(2);
    let mut states = Vec::with_capacity(2);
    let mut top = DVec3::ZERO;
    for k in 0..2 {
        let half = DVec3::new(0.0, 0.0, 0.5 * lengths[k]);
        let r = rotation(DVec3::X, angles[k]);
        let x = top - r * half;
        bodies.push(rod(lengths[k]));
        states.push(BodyState::at_rest(x, r));
        let (a, point_a) = if k == 0 {
            (None, DVec3::ZERO)
        } else {
            (Some(0), -DVec3::new(0.0, 0.0, 0.5 * lengths[0]))
        };
        joints.push(Joint {
            kind: revolute_x(),
            a,
            point_a,
            b: k,
            point_b: half,
        });
        top = x - r * half;
    }
    let model = Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
        bodies,
        joints,
        gravity: GRAVITY,
        drives: alloc::vec::Vec::new(),
        forces: alloc::vec::Vec::new(),
        contact: Default::default(),
    };
    (model, states)
}

/// The double pendulum's step (s): 0.01 s, halved until the rods turn at most 0.1 rad per step
/// at the rate scale omega = sqrt(4 g (L1 + L2)) / min(L1, L2) (the speed of a fall through the
/// whole height over the shorter rod). Measured: RATTLE's rotation update fails from about
/// 0.3 rad per step at that rate (rods 0.1 m and 10 m: fails at h = 0.0025 s, runs at 0.00125 s;
/// 0.1 m and 1 m: 0.005 s and 0.0025 s; 0.3 m and 3 m: 0.01 s and 0.005 s; 1 m and 1 m: 0.05 s
/// and 0.03 s), so this step keeps a margin of 2 to 4.
pub fn double_pendulum_step(values: &[f64]) -> f64 {
    let (l1, l2) = (values[2], values[3]);
    let rate = crate::math::sqrt(4.0 * 9.81 * (l1 + l2)) / l1.min(l2);
    let mut h = 0.01;
    while h * rate > 0.1 {
        h *= 0.5;
    }
    h
}

/// The four-bar's step (s): 0.01 s, halved until h sqrt(speed^2 + g / crank) <= 0.08 rad, with
/// the crank's start rate and the rate gravity gives a pendulum of the crank's length. Measured
/// (10 s from the start, default lengths unless named): RATTLE fails from about 0.18 rad per
/// step at that rate (speed 0: fails at h = 0.04 s, runs at 0.02 s; 5 rad/s: 0.04 s and 0.02 s;
/// 20 rad/s: 0.01 s and 0.005 s; 50 rad/s: 0.005 s and 0.0025 s; the default linkage scaled by
/// 0.2 at 20 rad/s: 0.01 s and 0.005 s), so this step keeps a margin of 2 to 4.
pub fn four_bar_step(values: &[f64]) -> f64 {
    let rate = crate::math::sqrt(values[4] * values[4] + 9.81 / values[1]);
    let mut h = 0.01;
    while h * rate > 0.08 {
        h *= 0.5;
    }
    h
}

/// The four-bar's parameters are a Grashof crank-rocker: the crank strictly the shortest link
/// and shortest + longest < the sum of the other two (strictly: at equality the linkage has
/// change points where it can fold, and its position is no longer a function of the crank).
/// `values`: ground, crank, coupler, rocker (m), then speed, angle.
pub fn check_four_bar(values: &[f64]) -> Result<(), ScenarioError> {
    let [d, a, b, c] = [values[0], values[1], values[2], values[3]];
    let longest = d.max(b).max(c);
    if !(a < d && a < b && a < c) || a + longest >= d + b + c - longest {
        return Err(ScenarioError(format!(
            "the links of scenario 'four-bar' (ground {d}, crank {a}, coupler {b}, rocker {c} m) must form a Grashof crank-rocker: the crank strictly the shortest, and crank + longest less than the sum of the other two"
        )));
    }
    Ok(())
}

/// The closed-form position and velocity analysis of the four-bar at crank angle `theta2`
/// (rad, from the ground line O2 -> O4): the ground pivots O2 = (0, -d/2, 0), O4 = (0, d/2, 0),
/// the crank tip A = O2 + a e(theta2), the coupler-rocker pin B the intersection of the circles
/// |B - A| = b and |B - O4| = c on the left of A -> O4 (the open assembly: B above the ground
/// line when the crank points up). Returns the link angles (theta2, theta3, theta4) and the
/// angular velocities per unit crank speed (1, k3, k4) from differentiating the loop
/// a e(theta2) + b e(theta3) - c e(theta4) - d e(0) = 0.
pub fn four_bar_pose(
    d: f64,
    a: f64,
    b: f64,
    c: f64,
    theta2: f64,
) -> ([DVec3; 4], [f64; 3], [f64; 3]) {
    let e = |t: f64| DVec3::new(0.0, libm::cos(t), libm::sin(t));
    let o2 = DVec3::new(0.0, -0.5 * d, 0.0);
    let o4 = DVec3::new(0.0, 0.5 * d, 0.0);
    let pa = o2 + a * e(theta2);
    let to = o4 - pa;
    let dist = crate::math::length(to);
    let u = to / dist;
    let n = DVec3::new(0.0, -u.z, u.y); // u turned +90 degrees in the plane
    let along = (b * b - c * c + dist * dist) / (2.0 * dist);
    let h = crate::math::sqrt((b * b - along * along).max(0.0));
    let pb = pa + along * u + h * n;
    let theta3 = libm::atan2(pb.z - pa.z, pb.y - pa.y);
    let theta4 = libm::atan2(pb.z - o4.z, pb.y - o4.y);
    let k3 = -a * libm::sin(theta4 - theta2) / (b * libm::sin(theta4 - theta3));
    let k4 = a * libm::sin(theta3 - theta2) / (c * libm::sin(theta3 - theta4));
    ([o2, pa, pb, o4], [theta2, theta3, theta4], [1.0, k3, k4])
}

/// The four-bar crank-rocker (`values`: ground, crank, coupler, rocker in m, crank speed in
/// rad/s, crank angle in rad): three rods, crank O2 -> A, coupler A -> B, rocker O4 -> B, and four
/// hinges with axes along x1: ground-crank at O2, crank-coupler at A, coupler-rocker at B,
/// rocker-ground at O4. The loop closes exactly (to round-off) and the velocities follow the
/// crank speed through the velocity coefficients, so every joint holds in position and velocity.
pub fn four_bar(values: &[f64]) -> (Model, Vec<BodyState>) {
    let [d, a, b, c, speed, angle] = [
        values[0], values[1], values[2], values[3], values[4], values[5],
    ];
    let (p, theta, k) = four_bar_pose(d, a, b, c, angle);
    let e1 = |t: f64| DVec3::new(0.0, -libm::sin(t), libm::cos(t)); // d e(t) / dt
    let half = |l: f64| DVec3::new(0.0, 0.0, 0.5 * l);
    // (start, end, length, angle index) of crank, coupler, rocker
    let rods = [(p[0], p[1], a, 0), (p[1], p[2], b, 1), (p[3], p[2], c, 2)];
    let mut states: Vec<BodyState> = rods
        .iter()
        .map(|&(s, q, _, i)| planar_rod_state(0.5 * (s + q), theta[i]))
        .collect();
    let w = [speed * k[0], speed * k[1], speed * k[2]];
    states[0].v = w[0] * 0.5 * a * e1(theta[0]);
    states[1].v = w[0] * a * e1(theta[0]) + w[1] * 0.5 * b * e1(theta[1]);
    states[2].v = w[2] * 0.5 * c * e1(theta[2]);
    for (s, &wk) in states.iter_mut().zip(&w) {
        s.w = DVec3::new(wk, 0.0, 0.0); // about x1, which every rotation about x1 keeps
    }
    let joint = |a_body: Option<usize>, point_a: DVec3, b_body: usize, point_b: DVec3| Joint {
        kind: revolute_x(),
        a: a_body,
        point_a,
        b: b_body,
        point_b,
    };
    let joints = vec![
        joint(None, p[0], 0, -half(a)),
        joint(Some(0), half(a), 1, -half(b)),
        joint(Some(1), half(b), 2, half(c)),
        joint(None, p[3], 2, -half(c)),
    ];
    let model = Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
        bodies: vec![rod(a), rod(b), rod(c)],
        joints,
        gravity: GRAVITY,
        drives: alloc::vec::Vec::new(),
        forces: alloc::vec::Vec::new(),
        contact: Default::default(),
    };
    (model, states)
}

/// The half chord angle alpha of a chain of `n` equal chords of length `l` inscribed in a
/// circular arc whose ends are `span` apart: sin(n alpha) / sin(alpha) = span / l, alpha in
/// (0, pi / n) where the left side falls from n to 0. Bisection to the last bit.
fn arc_half_angle(n: usize, l: f64, span: f64) -> f64 {
    let target = span / l;
    let f = |al: f64| libm::sin(n as f64 * al) / libm::sin(al) - target;
    let (mut lo, mut hi) = (0.0, PI / n as f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The catenary (`values`: links N, span in m, tilt in rad): a chain of N equal rods, 10 m in
/// all, hung by spherical joints between the ground points (0, -span/2, 0) and (0, span/2, 0).
/// It starts at rest as a circular arc through both ground points (the chords inscribed in
/// it), not the hanging chain's shape, turned by `tilt` about the x2 axis through the two
/// ground points (which keeps them fixed). Rod k runs from joint k to joint k + 1.
pub fn catenary(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (n, span, tilt) = (values[0] as usize, values[1], values[2]);
    let l = CATENARY_LENGTH / n as f64;
    let al = arc_half_angle(n, l, span);
    let radius = 0.5 * l / libm::sin(al);
    let centre = DVec3::new(0.0, 0.0, radius * libm::cos(n as f64 * al));
    let turn: DMat3 = rotation(DVec3::Y, tilt);
    let half = DVec3::new(0.0, 0.0, 0.5 * l);
    let mut states = Vec::with_capacity(n);
    let mut joints = Vec::with_capacity(n + 1);
    for k in 0..n {
        // the chord's middle at the angle beta from the downward vertical about the centre
        let beta = (2 * k + 1) as f64 * al - n as f64 * al;
        let mid = DVec3::new(0.0, libm::sin(beta), -libm::cos(beta));
        let x = centre + radius * libm::cos(al) * mid;
        // R x3 = (0, cos beta, sin beta), the chord's direction
        let r = rotation(DVec3::X, beta - FRAC_PI_2);
        states.push(BodyState::at_rest(turn * x, turn * r));
        let (a, point_a) = if k == 0 {
            (None, DVec3::new(0.0, -0.5 * span, 0.0))
        } else {
            (Some(k - 1), half)
        };
        joints.push(Joint {
            kind: JointKind::Spherical,
            a,
            point_a,
            b: k,
            point_b: -half,
        });
    }
    joints.push(Joint {
        kind: JointKind::Spherical,
        a: None,
        point_a: DVec3::new(0.0, 0.5 * span, 0.0),
        b: n - 1,
        point_b: half,
    });
    let model = Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
        bodies: vec![rod(l); n],
        joints,
        gravity: GRAVITY,
        drives: alloc::vec::Vec::new(),
        forces: alloc::vec::Vec::new(),
        contact: Default::default(),
    };
    (model, states)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn closure(model: &Model, states: &[BodyState]) -> (f64, f64) {
        (
            crate::invariants::joint_violation(model, states),
            crate::invariants::joint_velocity_violation(model, states),
        )
    }

    #[test]
    fn the_start_states_satisfy_every_joint() {
        let (m, s) = double_pendulum(&[2.0, 2.5, 1.0, 0.7]);
        assert!(closure(&m, &s).0 < 1e-15);
        for v in [
            [2.0, 0.5, 2.0, 1.5, 5.0, 1.0],
            [4.0, 1.0, 3.0, 3.5, -3.0, -2.5],
        ] {
            check_four_bar(&v).unwrap();
            let (m, s) = four_bar(&v);
            let (p, w) = closure(&m, &s);
            assert!(p < 1e-14 && w < 1e-14, "{v:?}: {p:e} {w:e}");
        }
        for v in [[8.0, 8.0, 0.5], [2.0, 9.5, 0.0], [256.0, 6.5, -1.0]] {
            let (m, s) = catenary(&v);
            let (p, _) = closure(&m, &s);
            assert!(p < 1e-13, "{v:?}: {p:e}");
        }
    }

    #[test]
    fn grashof_is_checked() {
        assert!(check_four_bar(&[2.0, 0.5, 2.0, 1.5, 0.0, 0.0]).is_ok());
        // crank not the shortest; shortest + longest too long
        assert!(check_four_bar(&[2.0, 1.6, 2.0, 1.5, 0.0, 0.0]).is_err());
        assert!(check_four_bar(&[4.0, 0.5, 2.0, 1.5, 0.0, 0.0]).is_err());
    }
}
