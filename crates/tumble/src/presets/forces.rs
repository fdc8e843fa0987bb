//! The presets with force elements: the spring pendulum, the damped pendulum and the
//! driven pendulum. `scenario.rs` holds their table entries; the builders are here.
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
        names: Default::default(),
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
    use crate::presets::course::{planar_rod_state, revolute_x, rod};
    let speed = values[0];
    let (torque, crank_damping, k, c) = (values[1], values[2], values[3], values[4]);
    let (r, l, phi) = (values[5], values[6], values[7]);
    // the flywheel: a square plate 2.4 r on a side, its centre 0.06 m behind the mechanism's
    // plane along the hinge axis x1 (so that it does not hide the rod), hinged at that centre
    let plate = DVec3::new(0.05, 2.4 * r, 2.4 * r);
    let behind = DVec3::new(0.06, 0.0, 0.0);
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
    let pin = DVec3::new(0.0, r * libm::cos(phi), r * libm::sin(phi));
    let y = r * libm::cos(phi) + libm::sqrt(l * l - r * r * libm::sin(phi) * libm::sin(phi));
    let q = DVec3::new(0.0, y, 0.0);
    let psi = libm::atan2(q.z - pin.z, q.y - pin.y);
    let half = DVec3::new(0.0, 0.0, 0.5 * l);
    let hinge = |a: Option<usize>, point_a: DVec3, b: usize, point_b: DVec3| Joint {
        kind: revolute_x(),
        a,
        point_a,
        b,
        point_b,
    };
    let mut model = Model {
        names: Default::default(),
        bodies: vec![crank, rod(l), piston],
        joints: vec![
            hinge(None, DVec3::ZERO, 0, behind),
            hinge(Some(0), behind + DVec3::new(0.0, 0.0, r), 1, -half),
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
        ],
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
        planar_rod_state(-behind, phi),
        planar_rod_state((pin + q) * 0.5, psi),
        BodyState::at_rest(q, DMat3::IDENTITY),
    ];
    (model, states)
}

/// A prismatic joint along x3 between the centres of `a` (or the ground) and `b`, both unturned
/// at the start (the carriage of `kapitza`, the governor's sleeve).
fn slider_z(a: Option<usize>, b: usize) -> Joint {
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

/// Andrews' squeezing mechanism (IFToMM benchmark A03; the IVP test set of Hairer & Wanner,
/// "Solving ODEs II", VII.7): seven bodies in the x1-x2 plane on ten hinges about x3 (three
/// closed loops meeting at the point E), a constant motor torque of 0.033 N m on the crank K1
/// and a spring (4530 N/m, rest length 0.07785 m) from the fixed point C to the point D of K3,
/// no gravity, released at rest at the test set's consistent angles. The bodies' frames are
/// turned by their absolute angles (K1 beta, K2 beta + Theta, K3 gamma, K4 Phi + delta,
/// K5 delta, K6 Omega + epsilon, K7 epsilon) and their points follow the test set's constraint
/// equations; the centre of a body on a fixed pivot lies at the test set's distance from the
/// pivot (its direction there does not enter the motion). Planar inertias I about x3; the
/// other two moments are set to I too (they do not enter the planar motion).
pub fn andrews() -> (Model, Vec<BodyState>) {
    let (beta, theta, gamma, phi, delta, omega, epsilon) = (
        -0.061_713_890_014_276_45,
        0.0,
        0.455_279_819_163_070_4,
        0.222_668_390_165_885_9,
        0.487_364_979_543_842_55,
        -0.222_668_390_165_885_9,
        1.230_547_444_549_821_2,
    );
    let m = [
        0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498,
    ];
    let inertia = [
        2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5,
    ];
    let (xa, ya, xb, yb, xc, yc) = (-0.06934, -0.00227, -0.03635, 0.03273, 0.014, 0.072);
    let (d, da, e, ea) = (28e-3, 115e-4, 2e-2, 1421e-5);
    let (rr, ra) = (7e-3, 92e-5);
    let (sa, sb, sc, sd) = (1874e-5, 1043e-5, 18e-3, 2e-2); // ss = 35e-3 is |E - B|, implied
    let (ta, tb) = (2308e-5, 916e-5);
    let (u, ua, ub) = (4e-2, 1228e-5, 449e-5);
    let (zf, zt, fa) = (2e-2, 4e-2, 1421e-5);
    let v = |x: f64, y: f64| DVec3::new(x, y, 0.0);
    let rot = |a: f64| rotation(DVec3::Z, a);
    let angles = [
        beta,
        beta + theta,
        gamma,
        phi + delta,
        delta,
        omega + epsilon,
        epsilon,
    ];
    let (pa, pb) = (v(xa, ya), v(xb, yb));
    // the bodies' centres (global) and points (in their own frames, from the centre)
    let p = rot(beta) * v(rr, 0.0); // K1-K2
    let x1 = rot(beta) * v(ra, 0.0);
    let x2 = p + rot(angles[1]) * v(-da, 0.0);
    let x3 = pb + rot(gamma) * v(sa, sb);
    let f = pa + rot(delta) * v(zt, 0.0); // K5-K4
    let x4 = f + rot(angles[3]) * v(0.0, -(e - ea));
    let x5 = pa + rot(delta) * v(ta, tb);
    let g = pa + rot(epsilon) * v(0.0, -u); // K7-K6
    let x6 = g + rot(angles[5]) * v(zf - fa, 0.0);
    let x7 = pa + rot(epsilon) * v(ua, ub);
    let centres = [x1, x2, x3, x4, x5, x6, x7];
    // a body point given globally at the start, in body k's frame
    let local = |k: usize, q: DVec3| rot(angles[k]).transpose() * (q - centres[k]);
    let e_point = p + rot(angles[1]) * v(-d, 0.0); // E, where K2, K3, K4 and K6 meet
    let d_point = pb + rot(gamma) * v(sd, -sc); // D on K3, the spring's end
    let hinge = |a: Option<usize>, qa: DVec3, b: usize, qb: DVec3| Joint {
        kind: JointKind::Revolute {
            axis_a: DVec3::Z,
            axis_b: DVec3::Z,
        },
        a,
        point_a: qa,
        b,
        point_b: qb,
    };
    let at = |a: usize, b: usize, q: DVec3| hinge(Some(a), local(a, q), b, local(b, q));
    let joints = vec![
        hinge(None, DVec3::ZERO, 0, local(0, DVec3::ZERO)),
        at(0, 1, p),
        hinge(None, pb, 2, local(2, pb)),
        hinge(None, pa, 4, local(4, pa)),
        at(4, 3, f),
        hinge(None, pa, 6, local(6, pa)),
        at(6, 5, g),
        at(1, 2, e_point),
        at(1, 3, e_point),
        at(1, 5, e_point),
    ];
    // drawn as the plates spanning each body's joint points (and the spring's end on K3)
    let mut extent = [DVec3::splat(0.001); 7];
    for jt in &joints {
        for (body, p) in [(jt.a, jt.point_a), (Some(jt.b), jt.point_b)] {
            if let Some(k) = body {
                extent[k] = extent[k].max(p.abs());
            }
        }
    }
    extent[2] = extent[2].max(local(2, d_point).abs());
    let bodies = m
        .iter()
        .zip(inertia)
        .zip(extent)
        .map(|((&mass, i), x)| Body {
            mass,
            inertia: DVec3::splat(i),
            size: DVec3::new(2.0 * x.x + 0.002, 2.0 * x.y + 0.002, 0.002),
        })
        .collect();
    let model = Model {
        names: Default::default(),
        bodies,
        joints,
        gravity: DVec3::ZERO,
        drives: vec![],
        forces: vec![
            ForceElement::Motor {
                joint: 0,
                torque: 0.033,
                time: TimeFn::Constant { value: 1.0 },
            },
            ForceElement::Spring {
                a: None,
                point_a: v(xc, yc),
                b: 2,
                point_b: local(2, d_point),
                stiffness: 4530.0,
                rest_length: 0.07785,
                damping: 0.0,
            },
        ],
        contact: Default::default(),
    };
    let states = (0..7)
        .map(|k| BodyState::at_rest(centres[k], rot(angles[k])))
        .collect();
    (model, states)
}

/// The flyball governor with the data of IFToMM benchmark A05 (the stiff flyball governor):
/// `values` = [spindle speed (rad/s), spring stiffness (N/m), spring damping (N s/m), initial
/// arm angle from the downward vertical (rad)].
///
/// A vertical spindle (a rod 1 x 0.01 x 0.01 m of density 3000 kg/m^3, 0.3 kg) on a hinge about
/// x3 at the origin, its angle driven at a constant speed Omega by a drive; two arms (rods like the spindle) hinged to its top at (0, 0, 1) about x2, each
/// carrying a 5 kg ball at its end; a sleeve (a 0.1 m cube of 3000 kg/m^3, 3 kg) sliding on the
/// spindle on a prismatic joint, turning with it; and in place of the governor's lower links two
/// stiff spring-dampers (k, c, rest length 0.5 m) from each arm's midpoint (s = 0.5 m from the
/// pivot) to the sleeve's centre. At the start the arms stand at alpha from the downward
/// vertical and the springs are at their rest length (pivot, arm midpoint and sleeve form an
/// isosceles triangle with sides 0.5 m), and the whole governor turns rigidly at Omega about
/// x3; the arms then swing out towards the minimum of the rotating frame's effective potential
/// and back (the springs, nearly rigid links, hardly stretch in that swing, so their dampers
/// hardly damp it).
///
/// The benchmark's balls are point masses; a body needs positive principal moments, so each is a
/// 5 kg sphere of radius 0.01 m (moments 2e-4 kg m^2, against about 5 kg m^2 of each arm about
/// its pivot) welded to the arm's end by a fixed joint, drawn as a 0.1 m cube. The springs attach
/// at the sleeve's centre on the spindle's axis.
pub fn governor(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (speed, k, c, alpha) = (values[0], values[1], values[2], values[3]);
    let rod_size = DVec3::new(0.01, 0.01, 1.0);
    let rod_mass = 3000.0 * 0.01 * 0.01 * 1.0;
    let rod = Body {
        mass: rod_mass,
        inertia: box_inertia(rod_mass, rod_size),
        // drawn 0.04 m thick: a 0.01 m rod is a hair on the screen (the size is for drawing)
        size: DVec3::new(0.04, 0.04, 1.0),
    };
    let ball = Body {
        mass: 5.0,
        inertia: DVec3::splat(0.4 * 5.0 * 0.01 * 0.01),
        size: DVec3::splat(0.1),
    };
    let sleeve_size = DVec3::splat(0.1);
    let sleeve = Body {
        mass: 3000.0 * 0.1 * 0.1 * 0.1,
        inertia: box_inertia(3.0, sleeve_size),
        size: sleeve_size,
    };
    let top = DVec3::new(0.0, 0.0, 1.0);
    let half = DVec3::new(0.0, 0.0, 0.5);
    let (s, co) = (libm::sin(alpha), libm::cos(alpha));
    // arm i (side +1: towards +x1, -1: towards -x1): its body x3 along the rod, downwards from
    // the pivot, x2 the hinge axis, x1 = x2 x x3
    let arm_frame = |side: f64| {
        let u = DVec3::new(side * s, 0.0, -co);
        let e2 = DVec3::Y;
        DMat3::from_cols(e2.cross(u), e2, u)
    };
    // the sleeve: the springs (rest length 0.5 m) from the arm midpoints reach the axis at
    // 1 - 2 (0.5 cos alpha)
    let sleeve_z = 1.0 - co;
    let hinge_y = JointKind::Revolute {
        axis_a: DVec3::Y,
        axis_b: DVec3::Y,
    };
    let mut bodies = vec![rod.clone(), sleeve];
    let mut joints = vec![
        Joint {
            kind: JointKind::Revolute {
                axis_a: DVec3::Z,
                axis_b: DVec3::Z,
            },
            a: None,
            point_a: DVec3::ZERO,
            b: 0,
            point_b: -half,
        },
        slider_z(Some(0), 1),
    ];
    // every body turning rigidly at Omega about x3: v = Omega x3 x x, body angular velocity
    // R^T (Omega x3)
    let spinning = |x: DVec3, r: DMat3| BodyState {
        x,
        r,
        v: DVec3::new(-speed * x.y, speed * x.x, 0.0),
        w: r.transpose() * DVec3::new(0.0, 0.0, speed),
    };
    let mut states = vec![
        spinning(half, DMat3::IDENTITY),
        spinning(DVec3::new(0.0, 0.0, sleeve_z), DMat3::IDENTITY),
    ];
    let mut forces = Vec::new();
    for side in [1.0, -1.0] {
        let r = arm_frame(side);
        let arm = bodies.len();
        bodies.push(rod.clone());
        bodies.push(ball.clone());
        states.push(spinning(top + r * half, r));
        states.push(spinning(top + r * (2.0 * half), r));
        joints.push(Joint {
            kind: hinge_y,
            a: Some(0),
            point_a: half,
            b: arm,
            point_b: -half,
        });
        joints.push(Joint {
            kind: JointKind::Fixed {
                axis_a: DVec3::X,
                axis_b: DVec3::X,
                twist_a: crate::model::twist_reference(DVec3::X, DVec3::X, &r, &r),
            },
            a: Some(arm),
            point_a: half,
            b: arm + 1,
            point_b: DVec3::ZERO,
        });
        forces.push(ForceElement::Spring {
            a: Some(arm),
            point_a: DVec3::ZERO,
            b: 1,
            point_b: DVec3::ZERO,
            stiffness: k,
            rest_length: 0.5,
            damping: c,
        });
    }
    let model = Model {
        names: Default::default(),
        bodies,
        joints,
        gravity: GRAVITY,
        drives: vec![crate::model::Drive {
            joint: 0,
            kind: crate::model::DriveKind::Angle,
            time: TimeFn::Linear {
                start: 0.0,
                rate: speed,
            },
        }],
        forces,
        contact: Default::default(),
    };
    (model, states)
}
