//! The `crane` preset: a boom luffed by a hydraulic cylinder, a load on a rope, in the x2-x3
//! plane under gravity. The cylinder is a distance driver (a distance joint whose length a
//! drive prescribes, STAR-CCM+'s distance driver); the rope is a distance joint (a massless
//! rod, so the load swings as a pendulum from the boom's tip).
//!
//! - boom: a uniform rod, 3 m, 60 kg, 0.12 m square, hinged about x1 at the origin at its
//!   lower end, at `angle` above the horizontal (toward +x2);
//! - cylinder: from the ground point (0, 0.8, -0.5) to the boom's point 1.2 m from the hinge;
//!   its length grows by `stroke` over `time` s along a smooth ramp (3x^2 - 2x^3: it starts and
//!   stops without a jolt), then holds. The parameter ranges keep every start and stroke
//!   between 0.34 m and 1.8 m, away from the lengths where cylinder and boom line up (0.26 m and
//!   2.14 m) and the boom below vertical;
//! - rope: `rope` m from the boom's tip to the top of a `load` kg cube of 0.3 m, hanging straight
//!   down at rest at the start.
//!
//! The cylinder's work W is what the boom and the load gain in E = T + V; the director keeps
//! E - E0 - W at the Newton tolerance (tests/distance.rs).
use crate::model::{box_inertia, Body, BodyState, Drive, DriveKind, Joint, JointKind, Model};
use crate::presets::course::{planar_rod_state, revolute_x};
use crate::timefn::TimeFn;
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// The cylinder's ground point (m).
const BASE: DVec3 = DVec3::new(0.0, 0.8, -0.5);
/// The boom: length (m), mass (kg), side of its square section (m), the cylinder's point from
/// the hinge (m).
const BOOM: (f64, f64, f64, f64) = (3.0, 60.0, 0.12, 1.2);
/// The load's side (m).
const CUBE: f64 = 0.3;

/// `values` = [stroke (m), time (s), load (kg), rope (m), angle (rad)].
pub fn crane(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (stroke, time, load, rope, angle) = (values[0], values[1], values[2], values[3], values[4]);
    let (len, mass, side, at) = BOOM;
    let size = DVec3::new(side, side, len);
    let boom = Body {
        mass,
        inertia: box_inertia(mass, size),
        size,
    };
    let cube = DVec3::splat(CUBE);
    let weight = Body {
        mass: load,
        inertia: box_inertia(load, cube),
        size: cube,
    };
    // the boom along its x3, from the hinge at the origin
    let dir = DVec3::new(0.0, libm::cos(angle), libm::sin(angle));
    let boom_state = planar_rod_state(dir * (0.5 * len), angle);
    let tip = dir * len;
    let hang = tip - DVec3::new(0.0, 0.0, rope + 0.5 * CUBE);
    let load_state = BodyState::at_rest(hang, DMat3::IDENTITY);
    let half = DVec3::new(0.0, 0.0, 0.5 * len);
    let point = DVec3::new(0.0, 0.0, at - 0.5 * len);
    let cylinder = crate::math::length(boom_state.x + boom_state.r * point - BASE);
    let model = Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
        bodies: vec![boom, weight],
        joints: vec![
            Joint {
                kind: revolute_x(),
                a: None,
                point_a: DVec3::ZERO,
                b: 0,
                point_b: -half,
            },
            Joint {
                kind: JointKind::Distance { length: cylinder },
                a: None,
                point_a: BASE,
                b: 0,
                point_b: point,
            },
            Joint {
                kind: JointKind::Distance { length: rope },
                a: Some(0),
                point_a: half,
                b: 1,
                point_b: DVec3::new(0.0, 0.0, 0.5 * CUBE),
            },
        ],
        gravity: DVec3::new(0.0, 0.0, -9.81),
        forces: vec![],
        drives: vec![Drive {
            joint: 1,
            kind: DriveKind::Distance,
            time: TimeFn::Ramp {
                value: stroke,
                time,
            },
        }],
        contact: Default::default(),
    };
    (model, vec![boom_state, load_state])
}
