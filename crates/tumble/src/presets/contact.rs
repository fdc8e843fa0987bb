//! The contact presets (`contact/`): what a teacher shows first once things can touch.
//!
//! - `bouncing-ball`: a rubber ball (0.1 m, 1 kg, E = 10 MPa, nu = 0.45) dropped from `height`
//!   onto the ground, optionally thrown sideways with `speed` and spinning with `spin` about
//!   the horizontal axis across the throw; restitution `restitution`, friction `friction`. With
//!   e = 1 and no friction it bounces back to its height forever (the director keeps E to the
//!   tolerance); a ball thrown spinning skids, then rolls at (5 v + 2 r w) / 7.
//! - `newtons-cradle`: `balls` balls (25 mm, 0.2 kg, a hard polymer, E = 100 MPa), each hung
//!   from a hinge 0.3 m above its centre, touching in a row along x2; the first `lifted` are
//!   pulled aside by `angle` and let go. Frictionless sphere-sphere contacts, restitution
//!   `restitution`. With touching balls the line is not "one in, one out": the collision
//!   spreads through the line (Hutzler et al., Am. J. Phys. 72, 2004).
//! - `ball-pit`: `balls` soft balls (5 cm, 0.1 kg, E = 0.2 MPa) poured from a loose lattice into
//!   a box of five planes (a floor and four walls); the broad phase keeps the cost of a step
//!   near linear in the number of balls (`tumble bench`, docs/performance.md). Why so soft: a ball of 5 cm
//!   and 0.1 kg (190 kg/m^3) is no solid rubber ball but a hollow one, a rubber shell 2.9 mm
//!   thick, and a shell is far softer than a solid ball. Under a point load it is a spring of
//!   k = 4 E t^2 / (R sqrt(3 (1 - nu^2))) = 4.35 kN/m (Reissner; E = 10 MPa, nu = 0.45), so its
//!   contact rings at sqrt(k / m) = 209 rad/s, on the floor as against another ball (two shells
//!   in series on the reduced mass). Solid rubber's Hertz law (E = 10 MPa) rang at 650-760
//!   rad/s in the resting pile; at E = 0.2 MPa the Hertz law rings at 130-210 rad/s there
//!   (omega grows as E^(1/3)), the rate of the shell, and the bottom balls sink about 2 mm. The
//!   preset's step, 1e-3 s, is then the longest at which no contact of the resting pile needs
//!   sub-steps (omega h <= 1/4, `simulation/substep.rs`) at 100, 400 or 1600 balls; the pour's
//!   impacts split some steps in two.
//! - `stop-pendulum`: the 1 m rod of the force presets, let go at `angle`, swings down onto a
//!   stop at `stop` (both measured from hanging straight down) and rebounds with
//!   `restitution`: a joint limit (`forces/limits.rs`).
//! - `incline`: a 0.3 x 0.2 x 0.1 m box (2 kg) on a plane tilted by `angle` about x2, kinetic
//!   and static friction `friction` and `static_friction`: it stays put when
//!   tan(angle) < mu_s and slides at g (sin a - mu_k cos a) otherwise; with `shape=ball` a
//!   solid ball (0.1 m, 2 kg) that rolls at 5/7 g sin a when mu_s >= 2/7 tan a, and skids
//!   at g (sin a - mu_k cos a) beyond while spinning up at 5 mu_k g cos a / (2 r).
//! - `billiards`: a break. Fifteen balls (57.15 mm, 0.17 kg, a hard resin taken as E = 200 MPa
//!   so that an impact lasts about 0.5 ms) racked in a touching triangle on the cloth of an 8-ft
//!   table (2.24 x 1.12 m between four cushions), the cue ball shot at them at `speed` without
//!   spin. Ball on ball: friction `friction` (the balls share the cloth's material; real balls have
//!   mu ~ 0.05), restitution `restitution`; ball on cloth: friction `friction` (the cue ball
//!   skids, then rolls at 5/7 of its speed), restitution 0.5; cushions: restitution 0.75.
//! - `falling-chain`: `links` capsules (5 cm long, 5 mm radius, 10 g: a chain of 0.5 kg/m)
//!   joined end to end by spherical joints, hanging straight but for a slight zig-zag, its
//!   lower end `height` above the floor, let go. Each link touches the floor with its two end
//!   caps (restitution `restitution`, friction 0.5); links do not touch each other (their
//!   filter keeps them apart) unless `touching` = 1, when they meet as capsule pairs
//!   (`contact/capsule.rs`), whose sliding contacts give the balance a first-order error. A free-falling chain landing on the
//!   floor pushes on it with three times the weight of the part that has landed (the momentum
//!   it brings adds twice that weight).
//! - `dominoes`: `count` blocks (20 x 10 x 3 cm, 0.3 kg) standing in a row `spacing` apart on
//!   the floor, the first tipped forward by `tilt` and let go; each falls onto the next and
//!   comes to rest leaning on it. Box on box: each block's corners against the other's faces
//!   (`contact/broad.rs`); a soft contact (E = 10 MPa, far softer than wood) so that an impact
//!   lasts a few milliseconds; restitution `restitution` and friction `friction` of every
//!   contact (block on floor and block on block).
use crate::math::rotation;
use crate::model::{box_for_inertia, box_inertia, Body, BodyState, Joint, Model};
use crate::presets::course::revolute_x;
use crate::shapes::{Contact, Material, Plane, Shape, ShapeKind};
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

const G: f64 = 9.81;

fn sphere(body: usize, radius: f64, material: Material) -> Shape {
    Shape {
        body,
        kind: ShapeKind::Sphere { radius },
        offset: DVec3::ZERO,
        rotation: DMat3::IDENTITY,
        material,
        group: 1,
        mask: 1,
    }
}

/// A box of half-sizes `half` on `body`, in its frame.
fn box_shape(body: usize, half: DVec3, material: Material) -> Shape {
    Shape {
        body,
        kind: ShapeKind::Box { half },
        offset: DVec3::ZERO,
        rotation: DMat3::IDENTITY,
        material,
        group: 1,
        mask: 1,
    }
}

/// A uniform block of mass `mass` and half-sizes `half`.
fn block(mass: f64, half: DVec3) -> Body {
    let size = half * 2.0;
    Body {
        mass,
        inertia: box_inertia(mass, size),
        size,
    }
}

fn solid_ball(mass: f64, radius: f64) -> Body {
    let j = DVec3::splat(0.4 * mass * radius * radius);
    Body {
        mass,
        inertia: j,
        size: box_for_inertia(mass, j),
    }
}

/// A system of the contact presets: `bodies` joined by `joints`, carrying `shapes`, among
/// `planes`, under gravity along -x3, with no force elements or drives.
fn contact_model(
    bodies: Vec<Body>,
    joints: Vec<Joint>,
    shapes: Vec<Shape>,
    planes: Vec<Plane>,
) -> Model {
    Model {
        names: Default::default(),
        controls: Vec::new(),
        tendons: Vec::new(),
        bodies,
        joints,
        gravity: DVec3::new(0.0, 0.0, -G),
        forces: vec![],
        drives: vec![],
        contact: Contact {
            shapes,
            planes,
            ..Contact::default()
        },
    }
}

/// The plane through `point` with outward normal `normal`, of `material`.
fn plane(point: DVec3, normal: DVec3, material: Material) -> Plane {
    Plane {
        point,
        normal,
        material,
    }
}

/// A solid ball (mass `m`, radius `r`) of `material` and the plane through the origin with
/// normal `normal`, under gravity along -x3.
fn ball_on_plane(m: f64, r: f64, material: Material, normal: DVec3) -> Model {
    let ground = plane(DVec3::ZERO, normal, material);
    contact_model(
        vec![solid_ball(m, r)],
        vec![],
        vec![sphere(0, r, material)],
        vec![ground],
    )
}

/// `values` = [height (m), restitution, friction, speed (m/s), spin (rad/s)].
pub fn bouncing_ball(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (height, e, mu, speed, spin) = (values[0], values[1], values[2], values[3], values[4]);
    let (r, m) = (0.1, 1.0);
    let material = Material {
        restitution: e,
        friction: mu,
        static_friction: mu,
        ..Material::default()
    };
    let mut s = BodyState::at_rest(DVec3::new(0.0, 0.0, r + height), DMat3::IDENTITY);
    s.v = DVec3::new(0.0, speed, 0.0);
    s.w = DVec3::new(spin, 0.0, 0.0);
    let model = ball_on_plane(m, r, material, DVec3::Z);
    (model, vec![s])
}

/// The string length of the cradle (m) and the balls' radius (m) and mass (kg).
const CRADLE: (f64, f64, f64) = (0.3, 0.025, 0.2);

/// `values` = [balls, lifted, angle (rad), restitution].
pub fn newtons_cradle(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (n, lifted, angle, e) = (values[0] as usize, values[1] as usize, values[2], values[3]);
    let (l, r, m) = CRADLE;
    let material = Material {
        young: 1e8,
        poisson: 0.4,
        restitution: e,
        friction: 0.0,
        static_friction: 0.0,
        pull: false,
    };
    let mut bodies = Vec::with_capacity(n);
    let mut joints = Vec::with_capacity(n);
    let mut shapes = Vec::with_capacity(n);
    let mut states = Vec::with_capacity(n);
    for i in 0..n {
        // the row centred on the origin, the pivots at z = 0
        let y = (2.0 * i as f64 - (n as f64 - 1.0)) * r;
        let pivot = DVec3::new(0.0, y, 0.0);
        // the lifted balls swing out to -x2 about the hinge's x1 axis
        let turn = if i < lifted { -angle } else { 0.0 };
        let rot = rotation(DVec3::X, turn);
        bodies.push(solid_ball(m, r));
        joints.push(Joint {
            kind: revolute_x(),
            a: None,
            point_a: pivot,
            b: i,
            point_b: DVec3::new(0.0, 0.0, l),
        });
        shapes.push(sphere(i, r, material));
        states.push(BodyState::at_rest(
            pivot - rot * DVec3::new(0.0, 0.0, l),
            rot,
        ));
    }
    (contact_model(bodies, joints, shapes, vec![]), states)
}

/// The incline's box: half-sizes (m) and mass (kg).
const BLOCK: (DVec3, f64) = (DVec3::new(0.15, 0.1, 0.05), 2.0);

/// `values` = [angle (rad), friction, static_friction, restitution, shape (0 box, 1 ball)].
pub fn incline(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (angle, mu_k, mu_s, e) = (values[0], values[1], values[2], values[3]);
    if values.get(4) == Some(&1.0) {
        return incline_ball(angle, mu_k, mu_s, e);
    }
    let (half, m) = BLOCK;
    let material = Material {
        restitution: e,
        friction: mu_k,
        static_friction: mu_s, // at least mu_k (Scenario::parse)
        ..Material::default()
    };
    // the plane through the origin turned by `angle` about x2: down the slope is +x1
    let rot = rotation(DVec3::Y, angle);
    let normal = rot * DVec3::Z;
    // resting on its four corners at the indentation of its weight
    let es = crate::contact::e_star(&material, &material);
    let d = m * G * libm::cos(angle) / (4.0 * crate::contact::corner_stiffness(es, half));
    let s = BodyState::at_rest(normal * (half.z - d), rot);
    let model = contact_model(
        vec![block(m, half)],
        vec![],
        vec![box_shape(0, half, material)],
        vec![plane(DVec3::ZERO, normal, material)],
    );
    (model, vec![s])
}

/// `values` = [balls, restitution, friction].
pub fn ball_pit(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (n, e, mu) = (values[0] as usize, values[1], values[2]);
    let (r, m) = (0.05, 0.1);
    // as soft as a hollow ball's shell (module notes)
    let material = Material {
        young: 2e5,
        restitution: e,
        friction: mu,
        static_friction: mu,
        ..Material::default()
    };
    // a square box that the balls fill about four layers deep; the lattice above it
    let side = libm::ceil(libm::sqrt(n as f64 / 4.0)).max(2.0) as usize;
    let half = side as f64 * r * 1.1;
    let pitch = 2.0 * half / side as f64;
    let mut bodies = Vec::with_capacity(n);
    let mut shapes = Vec::with_capacity(n);
    let mut states = Vec::with_capacity(n);
    for i in 0..n {
        let (col, row, layer) = (i % side, (i / side) % side, i / (side * side));
        // a small offset that differs from ball to ball, so that the layers do not stack
        let wobble = 0.15 * r * libm::sin(1.7 * i as f64);
        let x = -half + (col as f64 + 0.5) * pitch + wobble;
        let y = -half + (row as f64 + 0.5) * pitch - wobble;
        let z = r + 0.2 + layer as f64 * 2.4 * r;
        bodies.push(solid_ball(m, r));
        shapes.push(sphere(i, r, material));
        states.push(BodyState::at_rest(DVec3::new(x, y, z), DMat3::IDENTITY));
    }
    let wall = |point: DVec3, normal: DVec3| plane(point, normal, material);
    let walls = vec![
        wall(DVec3::ZERO, DVec3::Z),
        wall(DVec3::new(-half, 0.0, 0.0), DVec3::X),
        wall(DVec3::new(half, 0.0, 0.0), -DVec3::X),
        wall(DVec3::new(0.0, -half, 0.0), DVec3::Y),
        wall(DVec3::new(0.0, half, 0.0), -DVec3::Y),
    ];
    let model = contact_model(bodies, vec![], shapes, walls);
    (model, states)
}

/// `values` = [angle (rad), stop (rad), restitution]: the stop's bound measured from the start.
pub fn stop_pendulum(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (angle, stop, e) = (values[0], values[1], values[2]);
    let limit = crate::forces::ForceElement::Limit {
        joint: 0,
        kind: crate::model::LimitKind::Angle,
        slide: 0,
        lower: stop - angle,
        upper: 2.0 * core::f64::consts::PI,
        stiffness: 0.0,
        restitution: e,
    };
    crate::presets::forces::hinged_rod(angle, vec![limit])
}

/// A 2 kg solid ball of 0.1 m on the incline of [`incline`], resting at the indentation of its
/// weight: it rolls down at 5/7 g sin a where the static friction can hold its contact point
/// (mu_s >= 2/7 tan a), and skids beyond.
fn incline_ball(angle: f64, mu_k: f64, mu_s: f64, e: f64) -> (Model, Vec<BodyState>) {
    let (r, m) = (0.1, 2.0);
    let material = Material {
        restitution: e,
        friction: mu_k,
        static_friction: mu_s,
        ..Material::default()
    };
    let rot = rotation(DVec3::Y, angle);
    let normal = rot * DVec3::Z;
    let k = 4.0 / 3.0 * crate::contact::e_star(&material, &material) * libm::sqrt(r);
    let d = libm::pow(m * G * libm::cos(angle) / k, 2.0 / 3.0);
    let model = ball_on_plane(m, r, material, normal);
    (model, vec![BodyState::at_rest(normal * (r - d), rot)])
}

/// A pool ball: radius (m), mass (kg).
const POOL_BALL: (f64, f64) = (0.028575, 0.17);

/// `values` = [speed (m/s), restitution (ball on ball), friction (ball on cloth)].
pub fn billiards(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (speed, e, mu) = (values[0], values[1], values[2]);
    let (r, m) = POOL_BALL;
    let ball = Material {
        young: 2e8,
        poisson: 0.35,
        restitution: e,
        friction: mu,
        static_friction: mu,
        pull: false,
    };
    let cloth = Material {
        restitution: 0.5,
        ..ball
    };
    let cushion = Material {
        restitution: 0.75,
        ..ball
    };
    // resting on the cloth at the indentation of its weight (Hertz: m g = K d^(3/2))
    let k = 4.0 / 3.0 * crate::contact::e_star(&ball, &cloth) * libm::sqrt(r);
    let z = r - libm::pow(m * G / k, 2.0 / 3.0);
    // the rack's apex on the foot spot, a quarter of the table from its end; rows behind it
    let apex = 0.56;
    let mut states = Vec::with_capacity(16);
    states.push(BodyState {
        v: DVec3::new(speed, 0.0, 0.0),
        ..BodyState::at_rest(DVec3::new(-0.56, 0.0, z), DMat3::IDENTITY)
    });
    for row in 0..5 {
        for j in 0..=row {
            let x = apex + row as f64 * libm::sqrt(3.0) * r;
            let y = (j as f64 - 0.5 * row as f64) * 2.0 * r;
            states.push(BodyState::at_rest(DVec3::new(x, y, z), DMat3::IDENTITY));
        }
    }
    let n = states.len();
    let table = vec![
        plane(DVec3::ZERO, DVec3::Z, cloth),
        plane(DVec3::new(-1.12, 0.0, 0.0), DVec3::X, cushion),
        plane(DVec3::new(1.12, 0.0, 0.0), -DVec3::X, cushion),
        plane(DVec3::new(0.0, -0.56, 0.0), DVec3::Y, cushion),
        plane(DVec3::new(0.0, 0.56, 0.0), -DVec3::Y, cushion),
    ];
    let bodies = (0..n).map(|_| solid_ball(m, r)).collect();
    let shapes = (0..n).map(|i| sphere(i, r, ball)).collect();
    (contact_model(bodies, vec![], shapes, table), states)
}

/// A chain link: length between its end caps' centres (m), cap radius (m), mass (kg).
const LINK: (f64, f64, f64) = (0.05, 0.005, 0.01);

/// `values` = [links, height (m), restitution, touching (0 or 1)].
pub fn falling_chain(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (n, height, e, touching) = (values[0] as usize, values[1], values[2], values[3] > 0.5);
    let (l, r, m) = LINK;
    let material = Material {
        restitution: e,
        friction: 0.5,
        static_friction: 0.5,
        ..Material::default()
    };
    // a slender rod with hemispherical ends, taken as a rod of its length and the cap radius
    let inertia = DVec3::new(
        m * (l * l / 12.0 + r * r / 4.0),
        m * (l * l / 12.0 + r * r / 4.0),
        0.5 * m * r * r,
    );
    let mut bodies = Vec::with_capacity(n);
    let mut joints = Vec::with_capacity(n);
    let mut shapes = Vec::with_capacity(n);
    let mut states = Vec::with_capacity(n);
    // from the lower end up, each link tilted 0.05 rad the other way than the last
    let mut end = DVec3::new(0.0, 0.0, r + height);
    for i in 0..n {
        let rot = rotation(DVec3::X, if i % 2 == 0 { 0.05 } else { -0.05 });
        let axis = rot * DVec3::Z;
        bodies.push(Body {
            mass: m,
            inertia,
            size: box_for_inertia(m, inertia),
        });
        shapes.push(Shape {
            body: i,
            kind: ShapeKind::Capsule {
                radius: r,
                half_length: 0.5 * l,
            },
            offset: DVec3::ZERO,
            rotation: DMat3::IDENTITY,
            material,
            // the floor's group is 1: links meet it, and each other where `touching` (then
            // their mask holds their own group too; neighbours, joined, never touch)
            group: 2,
            mask: if touching { 3 } else { 1 },
        });
        states.push(BodyState::at_rest(end + axis * (0.5 * l), rot));
        if i > 0 {
            joints.push(Joint {
                kind: crate::model::JointKind::Spherical,
                a: Some(i - 1),
                point_a: DVec3::new(0.0, 0.0, 0.5 * l),
                b: i,
                point_b: DVec3::new(0.0, 0.0, -0.5 * l),
            });
        }
        end += axis * l;
    }
    let ground = plane(DVec3::ZERO, DVec3::Z, material);
    (contact_model(bodies, joints, shapes, vec![ground]), states)
}

/// The dominoes' blocks: half-sizes (m; 20 cm tall, 10 cm wide, 3 cm thick) and mass (kg).
const DOMINO: (DVec3, f64) = (DVec3::new(0.015, 0.05, 0.1), 0.3);

/// `values` = [count, spacing (m), tilt (rad), restitution, friction]: `count` blocks standing
/// in a row along x1, `spacing` apart centre to centre, the first tipped forward by `tilt`
/// about its front lower edge and let go from rest.
pub fn dominoes(values: &[f64]) -> (Model, Vec<BodyState>) {
    let (n, spacing, tilt) = (values[0] as usize, values[1], values[2]);
    let (half, m) = DOMINO;
    let material = Material {
        restitution: values[3],
        friction: values[4],
        static_friction: values[4],
        poisson: 0.3,
        ..Material::default()
    };
    let mut states = Vec::with_capacity(n);
    for i in 0..n {
        let foot = DVec3::new(i as f64 * spacing, 0.0, 0.0);
        let turn = if i == 0 { tilt } else { 0.0 };
        // turned about its front lower edge (at +half.x, -half.z in its frame), which stays put
        let rot = rotation(DVec3::Y, turn);
        let edge = DVec3::new(half.x, 0.0, -half.z);
        let x = foot + DVec3::new(half.x, 0.0, 0.0) - rot * edge;
        states.push(BodyState::at_rest(x, rot));
    }
    let bodies = (0..n).map(|_| block(m, half)).collect();
    let shapes = (0..n).map(|i| box_shape(i, half, material)).collect();
    let ground = plane(DVec3::ZERO, DVec3::Z, material);
    (contact_model(bodies, vec![], shapes, vec![ground]), states)
}
