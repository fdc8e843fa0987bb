//! The presets with force elements and drives: the spring pendulum, the damped and driven
//! pendulums, the slider-crank and Kapitza's pendulum (the IFToMM benchmarks with forces are
//! in `iftomm.rs`). `table.rs` holds their table entries; the builders are here.
//!
//! - `spring-pendulum`: a 1 kg body (a 0.1 m cube) on a spring (k N/m, rest length 1 m) from a
//!   ground point, released from rest at an angle from the vertical and stretched beyond its
//!   hanging length 1 + g/k: the elastic pendulum, which trades energy between swinging and
//!   bouncing. Conservative: E stays at the tolerance with the director method.
//! - `damped-pendulum`: a rod (1 m, 1 kg, `course::rod`) on a hinge at the ground with a
//!   torsional damper (and an optional torsional spring): E decays, D grows by what E loses.
//! - `driven-pendulum`: the same rod with a sinusoidal motor torque at the hinge and a damper:
//!   the motor puts energy in (W), the damper takes it out (D).
//! - `slider-crank`: a crank (a 2 kg square plate 2.4 r on a side, the flywheel, hinged at its
//!   centre 0.06 m behind the mechanism's plane), a
//!   connecting rod and a piston on a prismatic joint along x2, in the x2-x3 plane under
//!   gravity; the crank driven at a constant speed reached by a smooth ramp (a drive), or turned
//!   by a motor torque (ramped up smoothly) against a damper there, and an optional
//!   spring-damper on the piston. With crank angle phi from +x2 towards +x3 the
//!   piston's centre is at y = r cos(phi) + sqrt(l^2 - r^2 sin(phi)^2): a closed loop, one
//!   degree of freedom (none left when driven).
//! - `kapitza`: Kapitza's pendulum: a 0.5 m rod (0.5 kg) hinged to a carriage (0.2 kg) that a
//!   slide drive moves up and down, A sin(2 pi f t), on a vertical prismatic joint; the rod starts
//!   near upright. Averaging over the fast motion, upright is stable when (A 2 pi f)^2 >
//!   2 g I / (m d) = (4/3) g L for a rod pivoted at its end (Kapitza 1951): at A = 0.05 m, above
//!   about 8.1 Hz.
use crate::forces::ForceElement;
use crate::math::rotation;
use crate::model::{box_inertia, Body, BodyState, Joint, JointKind, Model};
use crate::timefn::TimeFn;
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// Gravity in every preset here (m/s^2).
pub(crate) const GRAVITY: DVec3 = DVec3::new(0.0, 0.0, -9.81);

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
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
        bodies: vec![body],
        joints: vec![],
        gravity: GRAVITY,
        drives: alloc::vec::Vec::new(),
        forces: vec![ForceElement::Spring {
            a: None,
            point_a: DVec3::ZERO,
            b: 0,
            point_b: DVec3::ZERO,
            stiffness: k,
            rest_length: 1.0,
            damping: 0.0,
        }],
        contact: Default::default(),
    };
    (model, vec![BodyState::at_rest(x, DMat3::IDENTITY)])
}

/// A 1 m rod hung from a hinge (axis x1) at the origin at `angle` from the downward vertical,
/// with the given force elements on the hinge (joint 0).
pub(crate) fn hinged_rod(angle: f64, forces: Vec<ForceElement>) -> (Model, Vec<BodyState>) {
    let rod = crate::presets::course::rod(1.0);
    let half = DVec3::new(0.0, 0.0, 0.5);
    let r = rotation(DVec3::X, angle);
    let model = Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
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
        drives: alloc::vec::Vec::new(),
        forces,
        contact: Default::default(),
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

/// The slider-crank: `values` = [crank speed (rad/s; 0: turned by the motor instead), motor
/// torque (N m), crank damping (N m s/rad), piston spring stiffness (N/m), piston damping
/// (N s/m), crank length r (m), rod length l (m), initial crank angle (rad)]. With a speed the
/// crank's angle is driven (a drive ramped smoothly to that speed over 1 s, `TimeFn::RampSpeed`)
/// and the motor is left out.
pub fn slider_crank(values: &[f64]) -> (Model, Vec<BodyState>) {
    use crate::presets::course::planar_rod_state;
    let speed = values[0];
    let (torque, crank_damping, k, c) = (values[1], values[2], values[3], values[4]);
    let (r, l, phi) = (values[5], values[6], values[7]);
    let (bodies, joints) = slider_crank_mechanism(r, l);
    let mut model = Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
        bodies,
        joints,
        gravity: GRAVITY,
        drives: alloc::vec::Vec::new(),
        forces: vec![ForceElement::JointSpring {
            joint: 0,
            stiffness: 0.0,
            rest_angle: 0.0,
            damping: crank_damping,
        }],
        contact: Default::default(),
    };
    if speed != 0.0 {
        model.drives.push(crate::model::Drive {
            joint: 0,
            kind: crate::model::DriveKind::Angle,
            time: TimeFn::RampSpeed {
                rate: speed,
                time: 1.0,
            },
        });
    } else {
        model.forces.push(ForceElement::Motor {
            joint: 0,
            torque,
            time: TimeFn::Ramp {
                value: 1.0,
                time: 1.0,
            },
        });
    }
    // the crank pin's position at angle phi, and the piston's centre (0, y, 0)
    let pin = DVec3::new(0.0, r * libm::cos(phi), r * libm::sin(phi));
    let y = r * libm::cos(phi) + libm::sqrt(l * l - r * r * libm::sin(phi) * libm::sin(phi));
    let q = DVec3::new(0.0, y, 0.0);
    let psi = libm::atan2(q.z - pin.z, q.y - pin.y);
    if k > 0.0 || c > 0.0 {
        // the piston's spring-damper from a ground point 0.5 m beyond its farthest position,
        // relaxed at the start
        model.forces.push(ForceElement::Spring {
            a: None,
            point_a: DVec3::new(0.0, r + l + 0.5, 0.0),
            b: 2,
            point_b: DVec3::ZERO,
            stiffness: k,
            rest_length: r + l + 0.5 - y,
            damping: c,
        });
    }
    let states = vec![
        planar_rod_state(-CRANK_BEHIND, phi),
        planar_rod_state((pin + q) * 0.5, psi),
        BodyState::at_rest(q, DMat3::IDENTITY),
    ];
    (model, states)
}

/// The flywheel's centre, 0.06 m behind the mechanism's plane along the hinge axis x1 (so that
/// it does not hide the rod); the crank is hinged there.
const CRANK_BEHIND: DVec3 = DVec3::new(0.06, 0.0, 0.0);

/// The slider-crank's bodies (the crank, a flywheel plate 2.4 r on a side; the rod of length
/// l; the piston) and joints (three hinges about x1 and the piston's prismatic joint along x2).
fn slider_crank_mechanism(r: f64, l: f64) -> (Vec<Body>, Vec<Joint>) {
    use crate::presets::course::{revolute_x, rod};
    let plate = DVec3::new(0.05, 2.4 * r, 2.4 * r);
    let crank = Body {
        mass: 2.0,
        inertia: box_inertia(2.0, plate),
        size: plate,
    };
    let piston_size = DVec3::new(0.12, 0.2, 0.12);
    let piston = Body {
        mass: 0.5,
        inertia: box_inertia(0.5, piston_size),
        size: piston_size,
    };
    let half = DVec3::new(0.0, 0.0, 0.5 * l);
    let hinge = |a: Option<usize>, point_a: DVec3, b: usize, point_b: DVec3| Joint {
        kind: revolute_x(),
        a,
        point_a,
        b,
        point_b,
    };
    let joints = vec![
        hinge(None, DVec3::ZERO, 0, CRANK_BEHIND),
        hinge(Some(0), CRANK_BEHIND + DVec3::new(0.0, 0.0, r), 1, -half),
        hinge(Some(1), half, 2, DVec3::ZERO),
        Joint {
            kind: JointKind::Prismatic {
                axis_a: DVec3::Y,
                axis_b: DVec3::Y,
                // the piston does not turn: its x1 is b's first perpendicular of x2, the
                // identity at the start (`twist_reference`)
                twist_a: crate::model::twist_reference(
                    DVec3::Y,
                    DVec3::Y,
                    &DMat3::IDENTITY,
                    &DMat3::IDENTITY,
                ),
            },
            a: None,
            point_a: DVec3::ZERO,
            b: 2,
            point_b: DVec3::ZERO,
        },
    ];
    (vec![crank, rod(l), piston], joints)
}

/// A prismatic joint along x3 between the centres of `a` (or the ground) and `b`, both unturned
/// at the start (the carriage of `kapitza`, the governor's sleeve).
pub(crate) fn slider_z(a: Option<usize>, b: usize) -> Joint {
    Joint {
        kind: JointKind::Prismatic {
            axis_a: DVec3::Z,
            axis_b: DVec3::Z,
            twist_a: crate::model::twist_reference(
                DVec3::Z,
                DVec3::Z,
                &DMat3::IDENTITY,
                &DMat3::IDENTITY,
            ),
        },
        a,
        point_a: DVec3::ZERO,
        b,
        point_b: DVec3::ZERO,
    }
}

/// Kapitza's pendulum: `values` = [amplitude A (m), frequency f (Hz), angle from upright (rad)].
pub fn kapitza(values: &[f64]) -> (Model, Vec<BodyState>) {
    use crate::presets::course::{planar_rod_state, revolute_x, rod};
    let (amplitude, frequency, angle) = (values[0], values[1], values[2]);
    let size = DVec3::new(0.1, 0.1, 0.06);
    let carriage = Body {
        mass: 0.2,
        inertia: box_inertia(0.2, size),
        size,
    };
    let l = 0.5;
    let half = DVec3::new(0.0, 0.0, 0.5 * l);
    // upright is the planar angle pi/2 (R x3 = +x3); tilted by `angle` towards +x2
    let theta = core::f64::consts::FRAC_PI_2 - angle;
    let mut rod_state = planar_rod_state(DVec3::ZERO, theta);
    rod_state.x = rod_state.r * half; // its lower end (-half) at the pivot, the origin
                                      // the drive's rate at the start, A 2 pi f, is the carriage's and the rod's velocity
    let v = DVec3::new(
        0.0,
        0.0,
        amplitude * 2.0 * core::f64::consts::PI * frequency,
    );
    rod_state.v = v;
    let mut carriage_state = BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY);
    carriage_state.v = v;
    let model = Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
        bodies: vec![carriage, rod(l)],
        joints: vec![
            slider_z(None, 0),
            Joint {
                kind: revolute_x(),
                a: Some(0),
                point_a: DVec3::ZERO,
                b: 1,
                point_b: -half,
            },
        ],
        gravity: GRAVITY,
        drives: vec![crate::model::Drive {
            joint: 0,
            kind: crate::model::DriveKind::Slide,
            time: TimeFn::Sine {
                offset: 0.0,
                amplitude,
                frequency,
                phase: 0.0,
            },
        }],
        forces: vec![],
        contact: Default::default(),
    };
    (model, vec![carriage_state, rod_state])
}
