//! The presets' table: each preset's name, description and parameters (with their units,
//! ranges and defaults), which `scenario.rs` parses and prints and the page and the command
//! line list.
use crate::validate::MAX_LINKS;
use core::f64::consts::FRAC_PI_4;

/// One tunable parameter of a preset.
#[derive(Clone, Copy, Debug)]
pub enum ParamKind {
    /// A number in [min, max]; `integer` requires a whole number.
    Number {
        /// default value
        default: f64,
        /// smallest allowed
        min: f64,
        /// largest allowed
        max: f64,
        /// whole numbers only
        integer: bool,
    },
    /// One of a fixed list of words; the first is the default.
    Choice(&'static [&'static str]),
}

/// A named parameter of a preset.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// key in the scenario text
    pub key: &'static str,
    /// what it means, with its unit
    pub help: &'static str,
    /// its type, range and default
    pub kind: ParamKind,
}

/// A preset scenario family.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// name in the scenario text
    pub name: &'static str,
    /// one line for `tumble scenarios` and the page
    pub description: &'static str,
    /// its parameters, in canonical order
    pub params: &'static [Param],
}

/// Every preset, in the order shown to users.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "free-body",
        description: "free spinning body of Terze, Mueller & Zlatar: J = diag(0.9144, 1.098, 1.66) kg m^2, omega0 = [0.45549, 0.82623, 0.03476] rad/s",
        params: &[
            Param { key: "w1", help: "initial angular velocity about the body's x1 axis (rad/s)", kind: ParamKind::Number { default: 0.45549, min: -50.0, max: 50.0, integer: false } },
            Param { key: "w2", help: "initial angular velocity about the body's x2 axis (rad/s)", kind: ParamKind::Number { default: 0.82623, min: -50.0, max: 50.0, integer: false } },
            Param { key: "w3", help: "initial angular velocity about the body's x3 axis (rad/s)", kind: ParamKind::Number { default: 0.03476, min: -50.0, max: 50.0, integer: false } },
        ],
    },
    Preset {
        name: "flip",
        description: "intermediate-axis flip (Dzhanibekov effect): a free box spun about its middle principal axis",
        params: &[Param { key: "spin", help: "spin rate about the middle axis (rad/s)", kind: ParamKind::Number { default: 4.0, min: 0.1, max: 50.0, integer: false } }],
    },
    Preset {
        name: "top",
        description: "heavy symmetric top on a spherical joint at the ground: precession and nutation",
        params: &[
            Param { key: "spin", help: "spin rate about the symmetry axis (rad/s)", kind: ParamKind::Number { default: 30.0, min: 0.0, max: 200.0, integer: false } },
            Param { key: "tilt", help: "initial tilt from the vertical (rad)", kind: ParamKind::Number { default: 0.3, min: 0.0, max: 3.0, integer: false } },
        ],
    },
    Preset {
        name: "nk-revolute",
        description: "Nielsen & Krenk 6.1: 4-box hanging chain with revolute joints, released from rest (h = 0.01)",
        params: &[],
    },
    Preset {
        name: "nk-spherical",
        description: "Nielsen & Krenk 6.2: the same chain with spherical joints, turned pi/4 about x2 (h = 0.1)",
        params: &[],
    },
    Preset {
        name: "chain",
        description: "straight hanging chain of N boxes (1 x 0.5 x 3 m, 12 kg) released at an angle, from rest or pushed",
        params: &[
            Param { key: "links", help: "number of bodies (1 to 4096)", kind: ParamKind::Number { default: 8.0, min: 1.0, max: MAX_LINKS as f64, integer: true } },
            Param { key: "joint", help: "joint type: revolute or spherical", kind: ParamKind::Choice(&["revolute", "spherical"]) },
            Param { key: "angle", help: "initial angle from the vertical (rad)", kind: ParamKind::Number { default: FRAC_PI_4, min: -3.2, max: 3.2, integer: false } },
            Param { key: "push", help: "initial speed of the tip: the straight chain starts turning rigidly about the ground point, about x1 (m/s)", kind: ParamKind::Number { default: 0.0, min: -50.0, max: 50.0, integer: false } },
        ],
    },
    Preset {
        name: "double-pendulum",
        description: "double pendulum: two uniform rods (1 kg/m, 0.05 x 0.05 m section) hinged end to end and hung from a hinge, planar, released from rest",
        params: &[
            Param { key: "angle1", help: "initial angle of the upper rod from the downward vertical (rad)", kind: ParamKind::Number { default: 2.0, min: -3.2, max: 3.2, integer: false } },
            Param { key: "angle2", help: "initial angle of the lower rod from the downward vertical (rad)", kind: ParamKind::Number { default: 2.5, min: -3.2, max: 3.2, integer: false } },
            Param { key: "length1", help: "length of the upper rod (m)", kind: ParamKind::Number { default: 1.0, min: 0.1, max: 10.0, integer: false } },
            Param { key: "length2", help: "length of the lower rod (m)", kind: ParamKind::Number { default: 1.0, min: 0.1, max: 10.0, integer: false } },
        ],
    },
    Preset {
        name: "four-bar",
        description: "four-bar crank-rocker in a vertical plane: crank, coupler and rocker (uniform rods, 1 kg/m) and the ground closing the loop through four hinges, the crank started turning",
        params: &[
            Param { key: "ground", help: "distance between the two ground hinges (m)", kind: ParamKind::Number { default: 2.0, min: 0.1, max: 10.0, integer: false } },
            Param { key: "crank", help: "crank length, the shortest link (m)", kind: ParamKind::Number { default: 0.5, min: 0.1, max: 10.0, integer: false } },
            Param { key: "coupler", help: "coupler length (m)", kind: ParamKind::Number { default: 2.0, min: 0.1, max: 10.0, integer: false } },
            Param { key: "rocker", help: "rocker length (m)", kind: ParamKind::Number { default: 1.5, min: 0.1, max: 10.0, integer: false } },
            Param { key: "speed", help: "initial angular speed of the crank (rad/s)", kind: ParamKind::Number { default: 5.0, min: -50.0, max: 50.0, integer: false } },
            Param { key: "angle", help: "initial crank angle from the ground line (rad)", kind: ParamKind::Number { default: 1.0, min: -3.2, max: 3.2, integer: false } },
        ],
    },
    Preset {
        name: "catenary",
        description: "catenary: a 10 m chain of N rods (1 kg/m) on ball joints hung between two ground points, released from rest as a circular arc tilted about the line between them",
        params: &[
            Param { key: "links", help: "number of rods (2 to 256)", kind: ParamKind::Number { default: 8.0, min: 2.0, max: 256.0, integer: true } },
            Param { key: "span", help: "distance between the two ground points of the 10 m chain; from 6.5 m the start arc hangs below them (m)", kind: ParamKind::Number { default: 8.0, min: 6.5, max: 9.5, integer: false } },
            Param { key: "tilt", help: "initial turn of the arc about the line through the ground points (rad)", kind: ParamKind::Number { default: 0.5, min: -1.0, max: 1.0, integer: false } },
        ],
    },
    Preset {
        name: "spring-pendulum",
        description: "elastic pendulum: a 1 kg body on a spring (rest length 1 m) from a ground point, released at an angle and stretched; it trades energy between swinging and bouncing",
        params: &[
            Param { key: "stiffness", help: "spring stiffness (N/m)", kind: ParamKind::Number { default: 40.0, min: 1.0, max: 1e4, integer: false } },
            Param { key: "angle", help: "initial angle from the downward vertical (rad)", kind: ParamKind::Number { default: 0.6, min: -3.0, max: 3.0, integer: false } },
            Param { key: "stretch", help: "initial stretch beyond the hanging length 1 + g/k (m)", kind: ParamKind::Number { default: 0.2, min: -0.5, max: 2.0, integer: false } },
        ],
    },
    Preset {
        name: "damped-pendulum",
        description: "damped pendulum: a 1 m rod (1 kg) on a hinge with a torsional damper (and spring), released from rest; its energy decays into the damper",
        params: &[
            Param { key: "damping", help: "damping of the hinge (N m s/rad)", kind: ParamKind::Number { default: 0.2, min: 0.0, max: 100.0, integer: false } },
            Param { key: "stiffness", help: "torsional spring of the hinge, relaxed hanging down (N m/rad)", kind: ParamKind::Number { default: 0.0, min: 0.0, max: 1000.0, integer: false } },
            Param { key: "angle", help: "initial angle from the downward vertical (rad)", kind: ParamKind::Number { default: 2.0, min: -3.1, max: 3.1, integer: false } },
        ],
    },
    Preset {
        name: "driven-pendulum",
        description: "driven pendulum: a 1 m rod (1 kg) on a hinge turned by a sinusoidal motor torque and slowed by a damper; energy flows in through the motor and out through the damper",
        params: &[
            Param { key: "torque", help: "amplitude of the motor torque (N m)", kind: ParamKind::Number { default: 3.0, min: 0.0, max: 100.0, integer: false } },
            Param { key: "frequency", help: "frequency of the motor torque (Hz)", kind: ParamKind::Number { default: 0.5, min: 0.01, max: 20.0, integer: false } },
            Param { key: "damping", help: "damping of the hinge (N m s/rad)", kind: ParamKind::Number { default: 0.1, min: 0.0, max: 100.0, integer: false } },
        ],
    },
    Preset {
        name: "slider-crank",
        description: "slider-crank: a flywheel crank driven at constant speed (reached by a smooth 1 s ramp) or turned by a motor, a connecting rod and a piston on a prismatic joint, optionally on a spring-damper; a closed loop with one degree of freedom",
        params: &[
            Param { key: "speed", help: "crank speed the drive ramps to over 1 s (rad/s); 0: turned by the motor torque instead", kind: ParamKind::Number { default: core::f64::consts::TAU, min: -100.0, max: 100.0, integer: false } },
            Param { key: "torque", help: "motor torque on the crank when speed is 0 (N m), reached after a smooth 1 s ramp", kind: ParamKind::Number { default: 1.0, min: 0.0, max: 100.0, integer: false } },
            Param { key: "damping", help: "damping of the crank's hinge (N m s/rad)", kind: ParamKind::Number { default: 0.1, min: 0.0, max: 100.0, integer: false } },
            Param { key: "spring", help: "stiffness of the piston's spring, relaxed at the start (N/m)", kind: ParamKind::Number { default: 0.0, min: 0.0, max: 1e4, integer: false } },
            Param { key: "piston_damping", help: "damping of the piston's damper (N s/m)", kind: ParamKind::Number { default: 0.0, min: 0.0, max: 1e3, integer: false } },
            Param { key: "crank", help: "crank length r (m)", kind: ParamKind::Number { default: 0.2, min: 0.05, max: 1.0, integer: false } },
            Param { key: "rod", help: "connecting rod length l, more than r (m)", kind: ParamKind::Number { default: 0.6, min: 0.1, max: 3.0, integer: false } },
            Param { key: "angle", help: "initial crank angle from the piston's line (rad)", kind: ParamKind::Number { default: 1.0, min: -3.2, max: 3.2, integer: false } },
        ],
    },
    Preset {
        name: "kapitza",
        description: "Kapitza's pendulum: a rod hinged to a carriage that a drive shakes up and down; shaken fast enough, the rod stays upright",
        params: &[
            Param { key: "amplitude", help: "amplitude of the pivot's motion (m)", kind: ParamKind::Number { default: 0.05, min: 0.0, max: 0.5, integer: false } },
            Param { key: "frequency", help: "frequency of the pivot's motion (Hz); upright is stable above about sqrt(4 g L / 3) / (2 pi A), 8.1 Hz at A = 0.05 m", kind: ParamKind::Number { default: 30.0, min: 0.1, max: 100.0, integer: false } },
            Param { key: "angle", help: "initial tilt of the rod from upright (rad)", kind: ParamKind::Number { default: 0.2, min: -3.1, max: 3.1, integer: false } },
        ],
    },
    Preset {
        name: "andrews",
        description: "Andrews' squeezing mechanism (IFToMM A03, Hairer & Wanner's test set): seven bodies, ten hinges, three loops, a 0.033 N m motor and a stiff spring, 0.03 s",
        params: &[],
    },
    Preset {
        name: "governor",
        description: "flyball governor with the data of IFToMM A05 (the stiff flyball governor): a spindle driven at a constant speed, two arms with 5 kg balls, and a sleeve on the spindle held by two stiff spring-dampers in place of the lower links",
        params: &[
            Param { key: "speed", help: "spindle speed, kept by a drive; the governor turns at it from the start (rad/s)", kind: ParamKind::Number { default: 5.0, min: -30.0, max: 30.0, integer: false } },
            Param { key: "stiffness", help: "stiffness of the two spring-dampers (N/m)", kind: ParamKind::Number { default: 8e5, min: 0.0, max: 1e8, integer: false } },
            Param { key: "damping", help: "damping of the two spring-dampers (N s/m)", kind: ParamKind::Number { default: 4e4, min: 0.0, max: 1e6, integer: false } },
            Param { key: "angle", help: "initial angle of the arms from the downward vertical, the springs relaxed (rad)", kind: ParamKind::Number { default: 0.5235987755982988, min: 0.1, max: 1.4, integer: false } },
        ],
    },
    Preset {
        name: "crane",
        description: "crane: a 3 m boom luffed by a hydraulic cylinder (a distance driver) with a load on a 1.5 m rope (a distance joint); the load swings as the boom lifts",
        params: &[
            Param { key: "stroke", help: "how far the cylinder extends along a smooth ramp; negative: it retracts (m)", kind: ParamKind::Number { default: 0.5, min: -0.3, max: 0.6, integer: false } },
            Param { key: "time", help: "duration of the cylinder's stroke (s)", kind: ParamKind::Number { default: 2.0, min: 0.1, max: 20.0, integer: false } },
            Param { key: "load", help: "mass of the load (kg)", kind: ParamKind::Number { default: 20.0, min: 0.1, max: 500.0, integer: false } },
            Param { key: "rope", help: "length of the rope from the boom's tip to the load (m)", kind: ParamKind::Number { default: 1.5, min: 0.2, max: 5.0, integer: false } },
            Param { key: "angle", help: "initial angle of the boom above the horizontal (rad)", kind: ParamKind::Number { default: 0.3, min: 0.0, max: 0.6, integer: false } },
        ],
    },
    Preset {
        name: "bouncing-ball",
        description: "bouncing ball: a rubber ball (0.1 m, 1 kg) dropped on the ground, optionally thrown and spinning; Hertz contact with the restitution asked, and friction that turns a skid into rolling",
        params: &[
            Param { key: "height", help: "drop height of the ball's lowest point (m)", kind: ParamKind::Number { default: 1.0, min: 0.0, max: 5.0, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e: rebound speed over impact speed", kind: ParamKind::Number { default: 0.8, min: 0.01, max: 1.0, integer: false } },
            Param { key: "friction", help: "friction coefficient mu between ball and ground", kind: ParamKind::Number { default: 0.3, min: 0.0, max: 2.0, integer: false } },
            Param { key: "speed", help: "horizontal throw speed along x2 (m/s)", kind: ParamKind::Number { default: 0.0, min: -5.0, max: 5.0, integer: false } },
            Param { key: "spin", help: "spin about x1, across the throw (rad/s)", kind: ParamKind::Number { default: 0.0, min: -100.0, max: 100.0, integer: false } },
        ],
    },
    Preset {
        name: "newtons-cradle",
        description: "Newton's cradle: balls on hinged strings in a touching row; the first ones are pulled aside and let go, and the impact runs through the row",
        params: &[
            Param { key: "balls", help: "number of balls", kind: ParamKind::Number { default: 5.0, min: 2.0, max: 8.0, integer: true } },
            Param { key: "lifted", help: "how many balls are pulled aside", kind: ParamKind::Number { default: 1.0, min: 1.0, max: 4.0, integer: true } },
            Param { key: "angle", help: "how far they are pulled aside (rad)", kind: ParamKind::Number { default: 0.5, min: 0.05, max: 1.5, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e between balls", kind: ParamKind::Number { default: 0.95, min: 0.01, max: 1.0, integer: false } },
        ],
    },
    Preset {
        name: "ball-pit",
        description: "ball pit: soft hollow balls (5 cm, 0.1 kg) poured into a box; a broad phase finds the pairs that may touch each step, so the cost grows about linearly with the number of balls",
        params: &[
            Param { key: "balls", help: "number of balls", kind: ParamKind::Number { default: 100.0, min: 2.0, max: 4096.0, integer: true } },
            Param { key: "restitution", help: "coefficient of restitution e of every contact", kind: ParamKind::Number { default: 0.5, min: 0.01, max: 1.0, integer: false } },
            Param { key: "friction", help: "friction coefficient mu with the box", kind: ParamKind::Number { default: 0.3, min: 0.0, max: 2.0, integer: false } },
        ],
    },
    Preset {
        name: "stop-pendulum",
        description: "pendulum against a stop: a 1 m rod let go from an angle swings down onto a stop on the other side and rebounds from it (a joint limit with the restitution asked)",
        params: &[
            Param { key: "angle", help: "angle it is let go from, from hanging straight down (rad)", kind: ParamKind::Number { default: 1.2, min: -3.0, max: 3.0, integer: false } },
            Param { key: "stop", help: "where the stop is, from hanging straight down; below the start angle (rad)", kind: ParamKind::Number { default: -0.4, min: -3.0, max: 3.0, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e of an impact on the stop", kind: ParamKind::Number { default: 0.7, min: 0.01, max: 1.0, integer: false } },
        ],
    },
    Preset {
        name: "incline",
        description: "box on an incline: a 2 kg box on a tilted plane; it stays put while tan(angle) is below the static friction coefficient and slides at g (sin a - mu_k cos a) beyond; or a ball, which rolls at 5/7 g sin a",
        params: &[
            Param { key: "angle", help: "tilt of the plane (rad); 0.46 rad is the friction angle of mu_s = 0.5", kind: ParamKind::Number { default: 0.6, min: 0.0, max: 1.2, integer: false } },
            Param { key: "friction", help: "kinetic friction coefficient mu_k", kind: ParamKind::Number { default: 0.4, min: 0.0, max: 2.0, integer: false } },
            Param { key: "static_friction", help: "static friction coefficient mu_s (at least mu_k)", kind: ParamKind::Number { default: 0.5, min: 0.0, max: 2.0, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e of the box's corners", kind: ParamKind::Number { default: 0.3, min: 0.01, max: 1.0, integer: false } },
            Param { key: "shape", help: "what is on the incline: the box, or a ball (0.1 m) that rolls when mu_s >= 2/7 tan(angle) and skids beyond", kind: ParamKind::Choice(&["box", "ball"]) },
        ],
    },
    Preset {
        name: "billiards",
        description: "billiards: a break; the cue ball shot into fifteen touching balls racked on the cloth of an 8-ft table; it skids, then rolls, and the impact spreads through the rack",
        params: &[
            Param { key: "speed", help: "speed of the cue ball (m/s)", kind: ParamKind::Number { default: 6.0, min: 0.5, max: 12.0, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e between balls", kind: ParamKind::Number { default: 0.93, min: 0.01, max: 1.0, integer: false } },
            Param { key: "friction", help: "friction coefficient mu between ball and cloth, and between balls", kind: ParamKind::Number { default: 0.2, min: 0.0, max: 1.0, integer: false } },
        ],
    },
    Preset {
        name: "falling-chain",
        description: "falling chain: a chain of capsule links hanging just above the floor is let go; it piles up on the floor, which it pushes with three times the weight of the part that has landed",
        params: &[
            Param { key: "links", help: "number of links (5 cm each)", kind: ParamKind::Number { default: 30.0, min: 2.0, max: 400.0, integer: true } },
            Param { key: "height", help: "height of the chain's lower end above the floor (m)", kind: ParamKind::Number { default: 0.05, min: 0.0, max: 2.0, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e of a link on the floor", kind: ParamKind::Number { default: 0.3, min: 0.01, max: 1.0, integer: false } },
            Param { key: "touching", help: "1: links touch each other in the pile (0: they pass through each other)", kind: ParamKind::Number { default: 0.0, min: 0.0, max: 1.0, integer: true } },
        ],
    },
    Preset {
        name: "dominoes",
        description: "dominoes: a row of wooden-sized blocks on the floor; the first is tipped over and each falls onto the next, which comes to rest leaning on it",
        params: &[
            Param { key: "count", help: "number of blocks (20 x 10 x 3 cm, 0.3 kg)", kind: ParamKind::Number { default: 12.0, min: 2.0, max: 64.0, integer: true } },
            Param { key: "spacing", help: "distance between neighbouring blocks, centre to centre (m); at most the blocks' height, 0.2 m, so that each reaches the next", kind: ParamKind::Number { default: 0.12, min: 0.04, max: 0.19, integer: false } },
            Param { key: "tilt", help: "how far the first block is tipped forward at the start (rad); it falls by itself beyond 0.15 rad", kind: ParamKind::Number { default: 0.25, min: 0.0, max: 1.2, integer: false } },
            Param { key: "restitution", help: "coefficient of restitution e of every contact", kind: ParamKind::Number { default: 0.3, min: 0.01, max: 1.0, integer: false } },
            Param { key: "friction", help: "friction coefficient mu of every contact, block on floor and block on block", kind: ParamKind::Number { default: 0.4, min: 0.0, max: 2.0, integer: false } },
        ],
    },
];
