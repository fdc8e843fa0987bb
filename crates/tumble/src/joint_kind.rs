//! The joint types: the forms a joint between two bodies takes, their rows, names, axes and
//! coordinates (`model.rs` holds the joints themselves).
use glam::DVec3;

/// Joint type. Axes are unit vectors (the JSON reader normalises them): `axis_a` in body a's
/// frame (global when a is the ground), `axis_b` in body b's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    /// Spherical joint (Nielsen & Krenk eq. 34): the two points coincide. 3 equations.
    Spherical,
    /// Revolute joint (eq. 37): the points coincide and the axis `axis_a` (in body a's frame,
    /// or global if a is ground) stays parallel to `axis_b` (in body b's frame). 5 equations.
    Revolute {
        /// Unit axis in body a's frame (global when a is the ground).
        axis_a: DVec3,
        /// Unit axis in body b's frame.
        axis_b: DVec3,
    },
    /// Prismatic joint (slider): body b keeps its orientation relative to a, and its point
    /// stays on the line through a's point along `axis_a`. 5 equations.
    Prismatic {
        /// the sliding axis in a's frame
        axis_a: DVec3,
        /// the axis in b's frame that stays parallel to it
        axis_b: DVec3,
        /// perpendicular to `axis_a` in a's frame: where b's first perpendicular vector
        /// ([`crate::math::perpendicular_pair`] of `axis_b`) pointed at the start, which the joint
        /// keeps (see [`twist_reference`])
        twist_a: DVec3,
    },
    /// Cylindrical joint: b's point stays on a's line along `axis_a` and `axis_b` stays
    /// parallel to it; b slides along and turns about the axis. 4 equations.
    Cylindrical {
        /// the axis in a's frame
        axis_a: DVec3,
        /// the axis in b's frame
        axis_b: DVec3,
    },
    /// Universal (Cardan) joint: the cross axes stay perpendicular, `axis_a` (fixed in a) and
    /// `axis_b` (fixed in b), and b's point is `offset` (m) from a's along (R_a axis_a) x
    /// (R_b axis_b): 0 where the hinges' lines meet, else two hinges at offset points (MuJoCo's
    /// ankle), each point on its hinge's line. 4 equations.
    Universal {
        /// the cross axis fixed in a
        axis_a: DVec3,
        /// the cross axis fixed in b, perpendicular to `axis_a` at the start
        axis_b: DVec3,
        /// b's point from a's along axis_a x axis_b (m)
        offset: f64,
    },
    /// A gimbal (MuJoCo's three hinges through one point): the points coincide (3 equations);
    /// its angles about `axis_a`, `middle` and `axis_b` are coordinates (`hinge_frame`).
    Gimbal {
        /// the first hinge's axis, fixed in a
        axis_a: DVec3,
        /// the middle hinge's axis, in b's frame at the start
        middle: DVec3,
        /// the last hinge's axis, fixed in b
        axis_b: DVec3,
    },
    /// Fixed joint (weld): the points coincide and b keeps its orientation relative to a.
    /// 6 equations.
    Fixed {
        /// b's `axis_b` as seen from a at the start (the JSON reader sets it)
        axis_a: DVec3,
        /// a unit vector of b (x1 from the JSON reader)
        axis_b: DVec3,
        /// as for [`JointKind::Prismatic`]
        twist_a: DVec3,
    },
    /// Planar joint (MuJoCo's slide, slide, hinge normal to both): b's point stays in the plane
    /// through a's point normal to `axis_a`, and `axis_b` stays parallel to it, so b slides in
    /// the plane and turns about its normal. 3 equations. Its coordinates: the slides along
    /// `slides[0]` and `slides[1]` (a's frame, perpendicular to `axis_a`), measured as a
    /// prismatic joint's, and the angle about the normal, measured as a revolute joint's.
    Planar {
        /// the plane's normal in a's frame
        axis_a: DVec3,
        /// the normal in b's frame
        axis_b: DVec3,
        /// the two slide directions in a's frame, unit, perpendicular to `axis_a`, not parallel
        slides: [DVec3; 2],
    },
    /// Planar slide (MuJoCo's two slides on one body): as [`JointKind::Planar`], and b keeps
    /// its orientation relative to a. 4 equations; the coordinates are the two slides.
    PlanarSlide {
        /// the plane's normal in a's frame
        axis_a: DVec3,
        /// the normal in b's frame
        axis_b: DVec3,
        /// as for [`JointKind::Prismatic`]
        twist_a: DVec3,
        /// as for [`JointKind::Planar`]
        slides: [DVec3; 2],
    },
    /// Translation (MuJoCo's three slides on one body): b keeps its orientation relative to a
    /// and moves freely. 3 equations (a weld's rotational rows: bilinear in the directors).
    /// Its coordinates: the slides along `slides[0]`, `slides[1]` and `axis_a` (slide 2), each
    /// measured as a prismatic joint's.
    Translation {
        /// slide 2's direction in a's frame
        axis_a: DVec3,
        /// slide 2's direction in b's frame
        axis_b: DVec3,
        /// as for [`JointKind::Prismatic`]
        twist_a: DVec3,
        /// slides 0 and 1 in a's frame, unit, perpendicular to each other and to `axis_a`
        slides: [DVec3; 2],
    },
    /// Distance joint (a massless rigid rod with ball ends): the two points stay `length`
    /// apart; a [`DriveKind::Distance`] drive on it makes the length a function of time
    /// (STAR-CCM+'s distance driver). 1 equation.
    Distance {
        /// the distance between the points (m), > 0 (the JSON reader's default: the distance
        /// at the start)
        length: f64,
    },
}

impl JointKind {
    /// Number of scalar constraint equations.
    pub fn rows(&self) -> usize {
        match self {
            JointKind::Distance { .. } => 1,
            JointKind::Spherical
            | JointKind::Gimbal { .. }
            | JointKind::Planar { .. }
            | JointKind::Translation { .. } => 3,
            JointKind::PlanarSlide { .. } => 4,
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => 5,
            JointKind::Cylindrical { .. } | JointKind::Universal { .. } => 4,
            JointKind::Fixed { .. } => 6,
        }
    }

    /// The name used in the JSON form.
    pub fn name(&self) -> &'static str {
        match self {
            JointKind::Spherical => "spherical",
            JointKind::Revolute { .. } => "revolute",
            JointKind::Prismatic { .. } => "prismatic",
            JointKind::Cylindrical { .. } => "cylindrical",
            JointKind::Universal { .. } => "universal",
            JointKind::Gimbal { .. } => "gimbal",
            JointKind::Fixed { .. } => "fixed",
            JointKind::Distance { .. } => "distance",
            JointKind::Planar { .. } => "planar",
            JointKind::PlanarSlide { .. } => "planar_slide",
            JointKind::Translation { .. } => "translation",
        }
    }

    /// (axis_a, axis_b), zero for a spherical or distance joint.
    pub fn axes(&self) -> (DVec3, DVec3) {
        match *self {
            JointKind::Spherical | JointKind::Distance { .. } => (DVec3::ZERO, DVec3::ZERO),
            JointKind::Revolute { axis_a, axis_b }
            | JointKind::Prismatic { axis_a, axis_b, .. }
            | JointKind::Cylindrical { axis_a, axis_b }
            | JointKind::Universal { axis_a, axis_b, .. }
            | JointKind::Gimbal { axis_a, axis_b, .. }
            | JointKind::Planar { axis_a, axis_b, .. }
            | JointKind::PlanarSlide { axis_a, axis_b, .. }
            | JointKind::Translation { axis_a, axis_b, .. }
            | JointKind::Fixed { axis_a, axis_b, .. } => (axis_a, axis_b),
        }
    }

    /// The direction of the joint's slide `k` in a's frame: a prismatic or cylindrical joint's
    /// axis (k = 0), a planar joint's slide k (0 or 1), a translation's (0, 1 or 2: `axis_a`);
    /// `None` where it has no such slide.
    pub fn slide_axis(&self, k: usize) -> Option<DVec3> {
        match *self {
            JointKind::Prismatic { axis_a, .. } | JointKind::Cylindrical { axis_a, .. }
                if k == 0 =>
            {
                Some(axis_a)
            }
            JointKind::Planar { slides, .. } | JointKind::PlanarSlide { slides, .. } => {
                slides.get(k).copied()
            }
            JointKind::Translation { slides, axis_a, .. } => match k {
                0 | 1 => Some(slides[k]),
                2 => Some(axis_a),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether the joint has an angle about its axis (revolute, cylindrical, planar): what joint
    /// springs, motors, angle limits and angle drives act on.
    pub fn has_angle(&self) -> bool {
        matches!(
            self,
            JointKind::Revolute { .. } | JointKind::Cylindrical { .. } | JointKind::Planar { .. }
        )
    }
}
