//! The presets from the IFToMM multibody benchmarks: Andrews' squeezing mechanism (A03, a
//! constant motor torque and a stiff spring on seven bodies in three closed loops) and the
//! flyball governor (A05, a spindle driven at constant speed, two arms with balls, a sleeve held
//! by stiff spring-dampers). `table.rs` holds their table entries; the builders are here.
use crate::forces::ForceElement;
use crate::math::rotation;
use crate::model::{box_inertia, Body, BodyState, Joint, JointKind, Model};
use crate::presets::forces::{slider_z, GRAVITY};
use crate::timefn::TimeFn;
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

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
    let start = andrews_start();
    let joints = andrews_joints(&start);
    let bodies = andrews_bodies(&start, &joints);
    let model = Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
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
                point_a: start.c,
                b: 2,
                point_b: start.local(2, start.d),
                stiffness: 4530.0,
                rest_length: 0.07785,
                damping: 0.0,
            },
        ],
        contact: Default::default(),
    };
    let states = (0..7)
        .map(|k| BodyState::at_rest(start.centres[k], rot_z(start.angles[k])))
        .collect();
    (model, states)
}

/// A rotation by `a` about x3.
fn rot_z(a: f64) -> DMat3 {
    rotation(DVec3::Z, a)
}

/// A point of the x1-x2 plane.
fn v(x: f64, y: f64) -> DVec3 {
    DVec3::new(x, y, 0.0)
}

/// Andrews' mechanism at the start, all global: the bodies' frame angles and centres, the
/// fixed points and the points where the bodies meet.
struct AndrewsStart {
    /// the frames' absolute angles about x3, K1 to K7
    angles: [f64; 7],
    /// the centres of mass, K1 to K7
    centres: [DVec3; 7],
    /// the fixed pivots A and B and the spring's fixed end C
    pa: DVec3,
    pb: DVec3,
    c: DVec3,
    /// where K1 meets K2, K5 meets K4, K7 meets K6
    p: DVec3,
    f: DVec3,
    g: DVec3,
    /// E, where K2, K3, K4 and K6 meet; D on K3, the spring's end
    e: DVec3,
    d: DVec3,
}

impl AndrewsStart {
    /// A body point given globally at the start, in body k's frame.
    fn local(&self, k: usize, q: DVec3) -> DVec3 {
        rot_z(self.angles[k]).transpose() * (q - self.centres[k])
    }
}

/// The test set's data and consistent angles, and the points they place.
fn andrews_start() -> AndrewsStart {
    let (beta, theta, gamma, phi, delta, omega, epsilon) = (
        -0.061_713_890_014_276_45,
        0.0,
        0.455_279_819_163_070_4,
        0.222_668_390_165_885_9,
        0.487_364_979_543_842_55,
        -0.222_668_390_165_885_9,
        1.230_547_444_549_821_2,
    );
    let (xa, ya, xb, yb, xc, yc) = (-0.06934, -0.00227, -0.03635, 0.03273, 0.014, 0.072);
    let (d, da, e, ea) = (28e-3, 115e-4, 2e-2, 1421e-5);
    let (rr, ra) = (7e-3, 92e-5);
    let (sa, sb, sc, sd) = (1874e-5, 1043e-5, 18e-3, 2e-2); // ss = 35e-3 is |E - B|, implied
    let (ta, tb) = (2308e-5, 916e-5);
    let (u, ua, ub) = (4e-2, 1228e-5, 449e-5);
    let (zf, zt, fa) = (2e-2, 4e-2, 1421e-5);
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
    let p = rot_z(beta) * v(rr, 0.0); // K1-K2
    let x1 = rot_z(beta) * v(ra, 0.0);
    let x2 = p + rot_z(angles[1]) * v(-da, 0.0);
    let x3 = pb + rot_z(gamma) * v(sa, sb);
    let f = pa + rot_z(delta) * v(zt, 0.0); // K5-K4
    let x4 = f + rot_z(angles[3]) * v(0.0, -(e - ea));
    let x5 = pa + rot_z(delta) * v(ta, tb);
    let g = pa + rot_z(epsilon) * v(0.0, -u); // K7-K6
    let x6 = g + rot_z(angles[5]) * v(zf - fa, 0.0);
    let x7 = pa + rot_z(epsilon) * v(ua, ub);
    AndrewsStart {
        angles,
        centres: [x1, x2, x3, x4, x5, x6, x7],
        pa,
        pb,
        c: v(xc, yc),
        p,
        f,
        g,
        e: p + rot_z(angles[1]) * v(-d, 0.0),
        d: pb + rot_z(gamma) * v(sd, -sc),
    }
}

/// The ten hinges about x3: K1, K3, K5 and K7 on the ground, the three loops closed at E.
fn andrews_joints(s: &AndrewsStart) -> Vec<Joint> {
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
    let at = |a: usize, b: usize, q: DVec3| hinge(Some(a), s.local(a, q), b, s.local(b, q));
    vec![
        hinge(None, DVec3::ZERO, 0, s.local(0, DVec3::ZERO)),
        at(0, 1, s.p),
        hinge(None, s.pb, 2, s.local(2, s.pb)),
        hinge(None, s.pa, 4, s.local(4, s.pa)),
        at(4, 3, s.f),
        hinge(None, s.pa, 6, s.local(6, s.pa)),
        at(6, 5, s.g),
        at(1, 2, s.e),
        at(1, 3, s.e),
        at(1, 5, s.e),
    ]
}

/// The seven bodies with the test set's masses and planar inertias, drawn as the plates
/// spanning each body's joint points (and the spring's end on K3).
fn andrews_bodies(s: &AndrewsStart, joints: &[Joint]) -> Vec<Body> {
    let m = [
        0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498,
    ];
    let inertia = [
        2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5,
    ];
    let mut extent = [DVec3::splat(0.001); 7];
    for jt in joints {
        for (body, p) in [(jt.a, jt.point_a), (Some(jt.b), jt.point_b)] {
            if let Some(k) = body {
                extent[k] = extent[k].max(p.abs());
            }
        }
    }
    extent[2] = extent[2].max(s.local(2, s.d).abs());
    m.iter()
        .zip(inertia)
        .zip(extent)
        .map(|((&mass, i), x)| Body {
            mass,
            inertia: DVec3::splat(i),
            size: DVec3::new(2.0 * x.x + 0.002, 2.0 * x.y + 0.002, 0.002),
        })
        .collect()
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
    let mut g = governor_spindle(speed, alpha);
    for side in [1.0, -1.0] {
        governor_arm(&mut g, side, speed, alpha, k, c);
    }
    let model = Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
        bodies: g.bodies,
        joints: g.joints,
        gravity: GRAVITY,
        drives: vec![crate::model::Drive {
            joint: 0,
            kind: crate::model::DriveKind::Angle,
            time: TimeFn::Linear {
                start: 0.0,
                rate: speed,
            },
        }],
        forces: g.forces,
        contact: Default::default(),
    };
    (model, g.states)
}

/// The governor as it is assembled: bodies, their states, joints and springs.
struct Governor {
    bodies: Vec<Body>,
    states: Vec<BodyState>,
    joints: Vec<Joint>,
    forces: Vec<ForceElement>,
}

/// The spindle's midpoint below the arms' pivot at its top (0, 0, 1).
const HALF: DVec3 = DVec3::new(0.0, 0.0, 0.5);

/// A rod like the spindle (an arm): 1 x 0.01 x 0.01 m of density 3000 kg/m^3.
fn governor_rod() -> Body {
    let rod_size = DVec3::new(0.01, 0.01, 1.0);
    let rod_mass = 3000.0 * 0.01 * 0.01 * 1.0;
    Body {
        mass: rod_mass,
        inertia: box_inertia(rod_mass, rod_size),
        // drawn 0.04 m thick: a 0.01 m rod is a hair on the screen (the size is for drawing)
        size: DVec3::new(0.04, 0.04, 1.0),
    }
}

/// Every body turning rigidly at `speed` about x3: v = Omega x3 x x, body angular velocity
/// R^T (Omega x3).
fn spinning(speed: f64, x: DVec3, r: DMat3) -> BodyState {
    BodyState {
        x,
        r,
        v: DVec3::new(-speed * x.y, speed * x.x, 0.0),
        w: r.transpose() * DVec3::new(0.0, 0.0, speed),
    }
}

/// The spindle on its hinge about x3 and the sleeve on it: the springs (rest length 0.5 m)
/// from the arm midpoints reach the axis at 1 - 2 (0.5 cos alpha).
fn governor_spindle(speed: f64, alpha: f64) -> Governor {
    let sleeve_size = DVec3::splat(0.1);
    let sleeve = Body {
        mass: 3000.0 * 0.1 * 0.1 * 0.1,
        inertia: box_inertia(3.0, sleeve_size),
        size: sleeve_size,
    };
    let sleeve_z = 1.0 - libm::cos(alpha);
    Governor {
        bodies: vec![governor_rod(), sleeve],
        states: vec![
            spinning(speed, HALF, DMat3::IDENTITY),
            spinning(speed, DVec3::new(0.0, 0.0, sleeve_z), DMat3::IDENTITY),
        ],
        joints: vec![
            Joint {
                kind: JointKind::Revolute {
                    axis_a: DVec3::Z,
                    axis_b: DVec3::Z,
                },
                a: None,
                point_a: DVec3::ZERO,
                b: 0,
                point_b: -HALF,
            },
            slider_z(Some(0), 1),
        ],
        forces: Vec::new(),
    }
}

/// Arm `side` (+1: towards +x1, -1: towards -x1) at `alpha` from the downward vertical: the rod
/// hinged about x2 at the spindle's top, its ball welded to its end, its spring-damper (k, c)
/// from its midpoint to the sleeve. Its body x3 runs along the rod, downwards from the pivot,
/// x2 is the hinge axis, x1 = x2 x x3.
fn governor_arm(g: &mut Governor, side: f64, speed: f64, alpha: f64, k: f64, c: f64) {
    let (s, co) = (libm::sin(alpha), libm::cos(alpha));
    let r = {
        let u = DVec3::new(side * s, 0.0, -co);
        let e2 = DVec3::Y;
        DMat3::from_cols(e2.cross(u), e2, u)
    };
    let ball = Body {
        mass: 5.0,
        inertia: DVec3::splat(0.4 * 5.0 * 0.01 * 0.01),
        size: DVec3::splat(0.1),
    };
    let top = DVec3::new(0.0, 0.0, 1.0);
    let arm = g.bodies.len();
    g.bodies.push(governor_rod());
    g.bodies.push(ball);
    g.states.push(spinning(speed, top + r * HALF, r));
    g.states.push(spinning(speed, top + r * (2.0 * HALF), r));
    g.joints.push(Joint {
        kind: JointKind::Revolute {
            axis_a: DVec3::Y,
            axis_b: DVec3::Y,
        },
        a: Some(0),
        point_a: HALF,
        b: arm,
        point_b: -HALF,
    });
    g.joints.push(Joint {
        kind: JointKind::Fixed {
            axis_a: DVec3::X,
            axis_b: DVec3::X,
            twist_a: crate::model::twist_reference(DVec3::X, DVec3::X, &r, &r),
        },
        a: Some(arm),
        point_a: HALF,
        b: arm + 1,
        point_b: DVec3::ZERO,
    });
    g.forces.push(ForceElement::Spring {
        a: Some(arm),
        point_a: DVec3::ZERO,
        b: 1,
        point_b: DVec3::ZERO,
        stiffness: k,
        rest_length: 0.5,
        damping: c,
    });
}
