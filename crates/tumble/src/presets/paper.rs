//! The presets of the papers (free body, flip, top, the Nielsen & Krenk chains, the long
//! chain), and the table that builds every preset by name: each preset's builder, suitable
//! step and duration (`table.rs` holds the names and parameters; the other presets' builders
//! are in the other files of `presets/`).
use crate::math::rotation;
use crate::model::{box_for_inertia, box_inertia, Body, BodyState, Joint, JointKind, Model};
use alloc::vec;
use alloc::vec::Vec;
use core::f64::consts::FRAC_PI_4;
use glam::{DMat3, DVec3};

/// A preset's builder: its model and initial state from its parameter values (validated by
/// `Scenario::parse`, in the table's order), its suitable step and its duration (s).
struct Builder {
    name: &'static str,
    system: fn(&[f64]) -> (Model, Vec<BodyState>),
    step: Step,
    duration: f64,
}

/// A preset's suitable step (s): fixed, or from its parameter values.
enum Step {
    Fixed(f64),
    Of(fn(&[f64]) -> f64),
}

/// Every preset's builder, in the order of the table in `table.rs`.
const BUILDERS: [Builder; 25] = {
    use super::{contact, course, crane, forces, iftomm};
    use Step::{Fixed, Of};
    const fn b(
        name: &'static str,
        system: fn(&[f64]) -> (Model, Vec<BodyState>),
        step: Step,
        duration: f64,
    ) -> Builder {
        Builder {
            name,
            system,
            step,
            duration,
        }
    }
    [
        b("free-body", free_body, Fixed(0.01), 30.0),
        b("flip", flip, Fixed(0.005), 20.0),
        b("top", top, Fixed(0.005), 10.0),
        b("nk-revolute", nk_revolute, Fixed(0.01), 10.0),
        b("nk-spherical", nk_spherical, Fixed(0.1), 10.0),
        b("chain", chain, Fixed(0.01), 10.0),
        b(
            "double-pendulum",
            course::double_pendulum,
            Of(course::double_pendulum_step),
            10.0,
        ),
        b(
            "four-bar",
            course::four_bar,
            Of(course::four_bar_step),
            10.0,
        ),
        b("catenary", course::catenary, Fixed(0.01), 10.0),
        b(
            "spring-pendulum",
            forces::spring_pendulum,
            Fixed(0.01),
            20.0,
        ),
        b(
            "damped-pendulum",
            forces::damped_pendulum,
            Fixed(0.01),
            20.0,
        ),
        b(
            "driven-pendulum",
            forces::driven_pendulum,
            Fixed(0.01),
            30.0,
        ),
        b("slider-crank", forces::slider_crank, Fixed(0.005), 20.0),
        b("kapitza", forces::kapitza, Fixed(0.001), 10.0),
        b("andrews", |_| iftomm::andrews(), Fixed(1e-5), 0.03),
        b("governor", iftomm::governor, Fixed(1e-3), 5.0),
        b("crane", crane::crane, Fixed(0.005), 10.0),
        b("bouncing-ball", contact::bouncing_ball, Fixed(2.5e-4), 10.0),
        b("newtons-cradle", contact::newtons_cradle, Fixed(1e-4), 10.0),
        b("ball-pit", contact::ball_pit, Fixed(1e-3), 5.0),
        b("stop-pendulum", contact::stop_pendulum, Fixed(0.005), 10.0),
        b("incline", contact::incline, Fixed(5e-4), 2.5),
        b("billiards", contact::billiards, Fixed(1e-4), 8.0),
        b("falling-chain", contact::falling_chain, Fixed(2e-4), 1.5),
        b("dominoes", contact::dominoes, Fixed(2e-4), 3.0),
    ]
};

/// The model, initial state, suitable step (s) and duration (s) of preset `name` with its
/// parameter `values` (validated by `Scenario::parse`, in the table's order).
pub(crate) fn build(name: &str, values: &[f64]) -> (Model, Vec<BodyState>, f64, f64) {
    let b = BUILDERS
        .iter()
        .find(|b| b.name == name)
        .expect("every preset has a builder");
    let (model, initial) = (b.system)(values);
    let step = match b.step {
        Step::Fixed(h) => h,
        Step::Of(f) => f(values),
    };
    (model, initial, step, b.duration)
}

/// Bodies and joints under `gravity`, without forces, drives, contact or names.
fn bare(bodies: Vec<Body>, joints: Vec<Joint>, gravity: DVec3) -> Model {
    Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
        bodies,
        joints,
        gravity,
        drives: alloc::vec::Vec::new(),
        forces: alloc::vec::Vec::new(),
        contact: Default::default(),
    }
}

/// A free body, J = diag(0.9144, 1.098, 1.66), spun at the angular velocity `values` (body
/// components), without gravity.
fn free_body(values: &[f64]) -> (Model, Vec<BodyState>) {
    let j = DVec3::new(0.9144, 1.098, 1.66);
    let body = Body {
        mass: 1.0,
        inertia: j,
        size: box_for_inertia(1.0, j),
    };
    let mut s = BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY);
    s.w = DVec3::new(values[0], values[1], values[2]);
    (bare(vec![body], vec![], DVec3::ZERO), vec![s])
}

/// A 2 x 1 x 0.5 box of 12 kg spun about its middle axis at `values[0]` rad/s (with a small
/// disturbance about the other two), without gravity.
fn flip(values: &[f64]) -> (Model, Vec<BodyState>) {
    let size = DVec3::new(2.0, 1.0, 0.5);
    let body = Body {
        mass: 12.0,
        inertia: box_inertia(12.0, size),
        size,
    };
    let mut s = BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY);
    s.w = DVec3::new(0.01, values[0], 0.01);
    (bare(vec![body], vec![], DVec3::ZERO), vec![s])
}

/// A spinning top on a ball joint at the ground: spin `values[0]` rad/s about its symmetry
/// axis, tilted `values[1]` rad about x1.
fn top(values: &[f64]) -> (Model, Vec<BodyState>) {
    let size = DVec3::new(1.0, 1.0, 0.2);
    let body = Body {
        mass: 1.0,
        inertia: box_inertia(1.0, size),
        size,
    };
    let pivot = DVec3::new(0.0, 0.0, -0.5); // stem: the pivot is 0.5 below the centre of mass
    let r = rotation(DVec3::X, values[1]);
    let mut s = BodyState::at_rest(-(r * pivot), r);
    s.w = DVec3::new(0.0, 0.0, values[0]); // about the symmetry axis: the pivot stays at rest
    let joint = Joint {
        kind: JointKind::Spherical,
        a: None,
        point_a: DVec3::ZERO,
        b: 0,
        point_b: pivot,
    };
    let g = DVec3::new(0.0, 0.0, -9.81);
    (bare(vec![body], vec![joint], g), vec![s])
}

/// The Nielsen & Krenk four-link chain on revolute joints.
fn nk_revolute(_: &[f64]) -> (Model, Vec<BodyState>) {
    let a = [FRAC_PI_4, FRAC_PI_4, 3.0 * FRAC_PI_4, 3.0 * FRAC_PI_4];
    hanging_chain(&a, true, 0.0)
}

/// The Nielsen & Krenk four-link chain on spherical joints, turned by pi/4 about x2.
fn nk_spherical(_: &[f64]) -> (Model, Vec<BodyState>) {
    let a = [FRAC_PI_4, FRAC_PI_4, 3.0 * FRAC_PI_4, 3.0 * FRAC_PI_4];
    hanging_chain(&a, false, FRAC_PI_4)
}

/// A chain of `values[0]` links (revolute when `values[1]` is 0, else spherical), each at
/// angle `values[2]`, pushed at its tip at `values[3]` m/s.
fn chain(values: &[f64]) -> (Model, Vec<BodyState>) {
    let n = values[0] as usize;
    let a = vec![values[2]; n];
    let (m, mut s) = hanging_chain(&a, values[1] == 0.0, 0.0);
    // a push: the straight chain turns rigidly about the ground point (the origin)
    // about x1, with the tip (at distance 3 n) moving at `push` m/s; a rigid motion
    // keeps every joint's velocity constraint exactly, revolute (axes x1) or spherical
    // (no push: the state stays exactly at rest, not at -0.0, so old links keep their bits)
    let omega = DVec3::new(values[3] / (3.0 * n as f64), 0.0, 0.0);
    for b in s.iter_mut().filter(|_| values[3] != 0.0) {
        b.v = omega.cross(b.x);
        b.w = b.r.transpose() * omega;
    }
    (m, s)
}

/// The Nielsen & Krenk chain (section 6): boxes [1, 0.5, 3], M = 12, J = diag(9.25, 10, 1.25),
/// joints at local (0, 0, +-1.5), body 1 hung from the ground point at the origin.
/// Body k is rotated `angles[k]` about +x1, then the whole shape by `turn` about +x2.
/// Revolute axes along the body (and ground) x1 axis.
pub fn hanging_chain(angles: &[f64], revolute: bool, turn: f64) -> (Model, Vec<BodyState>) {
    let size = DVec3::new(1.0, 0.5, 3.0);
    let mass = 12.0;
    let half = DVec3::new(0.0, 0.0, 1.5);
    let turn_r = rotation(DVec3::Y, turn);
    let mut bodies = Vec::with_capacity(angles.len());
    let mut joints = Vec::with_capacity(angles.len());
    let mut states = Vec::with_capacity(angles.len());
    let mut top = DVec3::ZERO;
    for (k, &a) in angles.iter().enumerate() {
        let r = turn_r * rotation(DVec3::X, a);
        let x = top - r * half;
        bodies.push(Body {
            mass,
            inertia: box_inertia(mass, size),
            size,
        });
        states.push(BodyState::at_rest(x, r));
        let (body_a, point_a, axis_a) = if k == 0 {
            (None, DVec3::ZERO, r * DVec3::X)
        } else {
            (Some(k - 1), -half, DVec3::X)
        };
        let kind = if revolute {
            JointKind::Revolute {
                axis_a,
                axis_b: DVec3::X,
            }
        } else {
            JointKind::Spherical
        };
        joints.push(Joint {
            kind,
            a: body_a,
            point_a,
            b: k,
            point_b: half,
        });
        top = x - r * half;
    }
    (bare(bodies, joints, DVec3::new(0.0, 0.0, -9.81)), states)
}

#[cfg(test)]
mod tests {
    use super::BUILDERS;
    use crate::presets::table::PRESETS;

    #[test]
    fn every_preset_has_one_builder_in_the_order_of_the_table() {
        let names: alloc::vec::Vec<&str> = BUILDERS.iter().map(|b| b.name).collect();
        let table: alloc::vec::Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        assert_eq!(names, table);
    }
}
