//! The presets with force elements (issue 19): the spring pendulum, the damped pendulum and the
//! driven pendulum. `scenario.rs` holds their table entries; the builders are here.
//!
//! - `spring-pendulum`: a 1 kg body (a 0.1 m cube) on a spring (k N/m, rest length 1 m) from a
//!   ground point, released from rest at an angle from the vertical and stretched beyond its
//!   hanging length 1 + g/k: the elastic pendulum, which trades energy between swinging and
//!   bouncing. Conservative: E stays at the tolerance with the director method.
//! - `damped-pendulum`: a rod (1 m, 1 kg, `presets_course::rod`) on a hinge at the ground with a
//!   torsional damper (and an optional torsional spring): E decays, D grows by what E loses.
//! - `driven-pendulum`: the same rod with a sinusoidal motor torque at the hinge and a damper:
//!   the motor puts energy in (W), the damper takes it out (D).
use crate::forces::ForceElement;
use crate::math::rotation;
use crate::model::{box_inertia, Body, BodyState, Joint, JointKind, Model};
use crate::timefn::TimeFn;
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

const GRAVITY: DVec3 = DVec3::new(0.0, 0.0, -9.81);

/// The spring pendulum: `values` = [stiffness (N/m), angle (rad), stretch (m)].
pub fn spring_pendulum(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (k, angle, stretch) = (values[0], values[1], values[2]);
    let size = DVec3::splat(0.1);
    let body = Body {
        mass: 1.0,
        inertia: box_inertia(1.0, size),
        size,
    };
    let l = 1.0 + 9.81 / k + stretch;
    let x = DVec3::new(0.0, l * libm::sin(angle), -l * libm::cos(angle));
    let model = Model {
        bodies: vec![body],
        joints: vec![],
        gravity: GRAVITY,
        forces: vec![ForceElement::Spring {
            a: None,
            point_a: DVec3::ZERO,
            b: 0,
            point_b: DVec3::ZERO,
            stiffness: k,
            rest_length: 1.0,
            damping: 0.0,
        }],
    };
    (model, vec![BodyState::at_rest(x, DMat3::IDENTITY)])
}

/// A 1 m rod hung from a hinge (axis x1) at the origin at `angle` from the downward vertical,
/// with the given force elements on the hinge (joint 0).
fn hinged_rod(angle: f64, forces: Vec<ForceElement>) -> (Model, Vec<BodyState>) {
    let rod = crate::presets_course::rod(1.0);
    let half = DVec3::new(0.0, 0.0, 0.5);
    let r = rotation(DVec3::X, angle);
    let model = Model {
        bodies: vec![rod],
        joints: vec![Joint {
            kind: JointKind::Revolute {
                axis_a: DVec3::X,
                axis_b: DVec3::X,
            },
            a: None,
            point_a: DVec3::ZERO,
            b: 0,
            point_b: half,
        }],
        gravity: GRAVITY,
        forces,
    };
    (model, vec![BodyState::at_rest(-(r * half), r)])
}

/// The damped pendulum: `values` = [damping (N m s/rad), stiffness (N m/rad), angle (rad)].
pub fn damped_pendulum(values: &[f64]) -> (Model, Vec<BodyState>) {
    hinged_rod(
        values[2],
        vec![ForceElement::JointSpring {
            joint: 0,
            stiffness: values[1],
            rest_angle: 0.0,
            damping: values[0],
        }],
    )
}

/// The driven pendulum: `values` = [torque amplitude (N m), frequency (Hz), damping
/// (N m s/rad)]; the motor's torque starts at zero (a sine with zero phase), the rod at rest.
pub fn driven_pendulum(values: &[f64]) -> (Model, Vec<BodyState>) {
    hinged_rod(
        0.0,
        vec![
            ForceElement::Motor {
                joint: 0,
                torque: values[0],
                time: TimeFn::Sine {
                    offset: 0.0,
                    amplitude: 1.0,
                    frequency: values[1],
                    phase: 0.0,
                },
            },
            ForceElement::JointSpring {
                joint: 0,
                stiffness: 0.0,
                rest_angle: 0.0,
                damping: values[2],
            },
        ],
    )
}
