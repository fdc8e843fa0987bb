//! The presets of the papers (free body, flip, top, the Nielsen & Krenk chains, the long
//! chain): their models, initial states, suitable steps and durations, built from a preset's
//! name and parameter values (`scenario.rs` holds the table of names and parameters; the
//! course presets are in `presets/course.rs`).
use crate::math::rotation;
use crate::model::{box_for_inertia, box_inertia, Body, BodyState, Joint, JointKind, Model};
use alloc::vec;
use alloc::vec::Vec;
use core::f64::consts::FRAC_PI_4;
use glam::{DMat3, DVec3};

/// The model, initial state, suitable step (s) and duration (s) of preset `name` with its
/// parameter `values` (validated by `Scenario::parse`, in the table's order).
pub(crate) fn build(name: &str, values: &[f64]) -> (Model, Vec<BodyState>, f64, f64) {
    let g = DVec3::new(0.0, 0.0, -9.81);
    match name {
        "free-body" => {
            let j = DVec3::new(0.9144, 1.098, 1.66);
            let body = Body {
                mass: 1.0,
                inertia: j,
                size: box_for_inertia(1.0, j),
            };
            let mut s = BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY);
            s.w = DVec3::new(values[0], values[1], values[2]);
            (
                Model {
                    names: Default::default(),
                    bodies: vec![body],
                    joints: vec![],
                    gravity: DVec3::ZERO,
                    drives: alloc::vec::Vec::new(),
                    forces: alloc::vec::Vec::new(),
                    contact: Default::default(),
                },
                vec![s],
                0.01,
                30.0,
            )
        }
        "flip" => {
            let size = DVec3::new(2.0, 1.0, 0.5);
            let body = Body {
                mass: 12.0,
                inertia: box_inertia(12.0, size),
                size,
            };
            let mut s = BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY);
            s.w = DVec3::new(0.01, values[0], 0.01);
            (
                Model {
                    names: Default::default(),
                    bodies: vec![body],
                    joints: vec![],
                    gravity: DVec3::ZERO,
                    drives: alloc::vec::Vec::new(),
                    forces: alloc::vec::Vec::new(),
                    contact: Default::default(),
                },
                vec![s],
                0.005,
                20.0,
            )
        }
        "top" => {
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
            (
                Model {
                    names: Default::default(),
                    bodies: vec![body],
                    joints: vec![joint],
                    gravity: g,
                    drives: alloc::vec::Vec::new(),
                    forces: alloc::vec::Vec::new(),
                    contact: Default::default(),
                },
                vec![s],
                0.005,
                10.0,
            )
        }
        "nk-revolute" => {
            let a = [FRAC_PI_4, FRAC_PI_4, 3.0 * FRAC_PI_4, 3.0 * FRAC_PI_4];
            let (m, s) = hanging_chain(&a, true, 0.0);
            (m, s, 0.01, 10.0)
        }
        "nk-spherical" => {
            let a = [FRAC_PI_4, FRAC_PI_4, 3.0 * FRAC_PI_4, 3.0 * FRAC_PI_4];
            let (m, s) = hanging_chain(&a, false, FRAC_PI_4);
            (m, s, 0.1, 10.0)
        }
        "chain" => {
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
            (m, s, 0.01, 10.0)
        }
        "double-pendulum" => {
            let (m, s) = crate::presets::course::double_pendulum(&values);
            (
                m,
                s,
                crate::presets::course::double_pendulum_step(&values),
                10.0,
            )
        }
        "four-bar" => {
            let (m, s) = crate::presets::course::four_bar(&values);
            (m, s, crate::presets::course::four_bar_step(&values), 10.0)
        }
        "catenary" => {
            let (m, s) = crate::presets::course::catenary(&values);
            (m, s, 0.01, 10.0)
        }
        "spring-pendulum" => {
            let (m, s) = crate::presets::forces::spring_pendulum(values);
            (m, s, 0.01, 20.0)
        }
        "damped-pendulum" => {
            let (m, s) = crate::presets::forces::damped_pendulum(values);
            (m, s, 0.01, 20.0)
        }
        "driven-pendulum" => {
            let (m, s) = crate::presets::forces::driven_pendulum(values);
            (m, s, 0.01, 30.0)
        }
        "slider-crank" => {
            let (m, s) = crate::presets::forces::slider_crank(values);
            (m, s, 0.005, 20.0)
        }
        "kapitza" => {
            let (m, s) = crate::presets::forces::kapitza(values);
            (m, s, 0.001, 10.0)
        }
        "andrews" => {
            let (m, s) = crate::presets::forces::andrews();
            (m, s, 1e-5, 0.03)
        }
        "governor" => {
            let (m, s) = crate::presets::forces::governor(values);
            (m, s, 1e-3, 5.0)
        }
        "crane" => {
            let (m, s) = crate::presets::crane::crane(values);
            (m, s, 0.005, 10.0)
        }
        "bouncing-ball" => {
            let (m, s) = crate::presets::contact::bouncing_ball(values);
            (m, s, 2.5e-4, 10.0)
        }
        "newtons-cradle" => {
            let (m, s) = crate::presets::contact::newtons_cradle(values);
            (m, s, 1e-4, 10.0)
        }
        "ball-pit" => {
            let (m, s) = crate::presets::contact::ball_pit(values);
            (m, s, 1e-3, 5.0)
        }
        "stop-pendulum" => {
            let (m, s) = crate::presets::contact::stop_pendulum(values);
            (m, s, 0.005, 10.0)
        }
        "incline" => {
            let (m, s) = crate::presets::contact::incline(values);
            (m, s, 5e-4, 2.5)
        }
        "falling-chain" => {
            let (m, s) = crate::presets::contact::falling_chain(values);
            (m, s, 2e-4, 1.5)
        }
        "billiards" => {
            let (m, s) = crate::presets::contact::billiards(values);
            (m, s, 1e-4, 8.0)
        }
        "dominoes" => {
            let (m, s) = crate::presets::contact::dominoes(values);
            (m, s, 2e-4, 3.0)
        }
        _ => unreachable!("every preset has a builder"),
    }
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
    (
        Model {
            names: Default::default(),
            bodies,
            joints,
            gravity: DVec3::new(0.0, 0.0, -9.81),
            drives: alloc::vec::Vec::new(),
            forces: alloc::vec::Vec::new(),
            contact: Default::default(),
        },
        states,
    )
}
