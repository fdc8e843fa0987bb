//! The joints' coordinates as MuJoCo's qpos holds them: each hinge's angle (rad) and each
//! slide (m), measured from the start, in MuJoCo's order within a joint (the first nearest the
//! parent). Each is read by the frame that joint springs, stops and tendons measure it by
//! (`forces/frame.rs`, `forces::tendons::coordinate_frame`):
//!
//! ```text
//! angle   theta = atan2(y, x), x = (R_a r_a) . (R_b e), y = (R_a m_a) . (R_b e)   (0 at the start)
//!         a universal joint's second and a gimbal's last hinge measured from b (flipped), a
//!         gimbal's middle one asin(x) - s0
//! slide   s = (R_a n) . (p_b - p_a) - s0                                         (0 at the start)
//! ```
//!
//! A joint's coordinates: revolute (angle), prismatic (slide), cylindrical (slide, angle),
//! universal (angle 1, angle 2), gimbal (angles 1 to 3), planar (slide 1, slide 2, angle),
//! planar slide (slides 1, 2), translation (slides 1 to 3); spherical, distance and fixed
//! joints have none that a single number reads. Angles are unwrapped against the values the
//! caller last read (so a rotor counts its turns between reads less than half a turn apart).
//! A joint's coordinates may carry their own names (`joints[i].coordinates` in the JSON form, in
//! this order: the import gives a composite joint its MuJoCo joints' names), else each is
//! labelled by the joint's name and its place ("root: slide 1").
use crate::forces::{frame, tendons::coordinate_frame, Frame};
use crate::model::{BodyState, Joint, JointKind, LimitKind, Model};
use crate::validate::ScenarioError;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// One coordinate: joint `joint`'s angle or slide number `index`, and its label.
#[derive(Clone, Debug, PartialEq)]
pub struct Coordinate {
    /// the joint
    pub joint: usize,
    /// an angle (rad) or a slide (m)
    pub kind: LimitKind,
    /// which of the joint's angles or slides (as tendon terms and springs number them)
    pub index: usize,
    /// the joint's name (or "joint k"), with the coordinate's own where the joint has several
    /// ("pitch: slide 1")
    pub label: String,
}

impl Coordinate {
    /// Its unit: "rad" for an angle, "m" for a slide.
    pub fn unit(&self) -> &'static str {
        match self.kind {
            LimitKind::Angle => "rad",
            LimitKind::Slide => "m",
        }
    }
}

/// The coordinates of a joint of kind `kind`, in order: (kind, index, label suffix).
fn of_joint(kind: &JointKind) -> &'static [(LimitKind, usize, &'static str)] {
    use LimitKind::{Angle, Slide};
    match kind {
        JointKind::Revolute { .. } => &[(Angle, 0, "")],
        JointKind::Prismatic { .. } => &[(Slide, 0, "")],
        JointKind::Cylindrical { .. } => &[(Slide, 0, "slide"), (Angle, 0, "angle")],
        JointKind::Universal { .. } => &[(Angle, 0, "angle 1"), (Angle, 1, "angle 2")],
        JointKind::Gimbal { .. } => &[
            (Angle, 0, "angle 1"),
            (Angle, 1, "angle 2"),
            (Angle, 2, "angle 3"),
        ],
        JointKind::Planar { .. } => &[
            (Slide, 0, "slide 1"),
            (Slide, 1, "slide 2"),
            (Angle, 0, "angle"),
        ],
        JointKind::PlanarSlide { .. } => &[(Slide, 0, "slide 1"), (Slide, 1, "slide 2")],
        JointKind::Translation { .. } => &[
            (Slide, 0, "slide 1"),
            (Slide, 1, "slide 2"),
            (Slide, 2, "slide 3"),
        ],
        JointKind::Spherical | JointKind::Distance { .. } | JointKind::Fixed { .. } => &[],
    }
}

/// The joints' coordinates' names as given (`given[j]`, `joints[j].coordinates`), checked: one
/// per coordinate of the joint's kind, each a valid name, none twice in a joint; per joint the
/// names, or none.
pub fn check_names(
    joints: &[Joint],
    given: &[Option<&[String]>],
) -> Result<Vec<Vec<String>>, ScenarioError> {
    let mut out = Vec::with_capacity(joints.len());
    for (j, (joint, names)) in joints.iter().zip(given).enumerate() {
        let Some(names) = names else {
            out.push(Vec::new());
            continue;
        };
        let want = of_joint(&joint.kind);
        if names.len() != want.len() {
            let which: Vec<_> = want.iter().map(|c| c.2).collect();
            return Err(ScenarioError(format!(
                "joints[{j}].coordinates names {} coordinates, but a {} joint has {}{}",
                names.len(),
                joint.kind.name(),
                want.len(),
                if which.len() > 1 {
                    format!(" ({})", which.join(", "))
                } else {
                    String::new()
                }
            )));
        }
        for (k, n) in names.iter().enumerate() {
            if !crate::names::valid(n) {
                return Err(ScenarioError(format!(
                    "joints[{j}].coordinates[{k}] must be 1 to {} letters, digits, spaces or _-.:/, not {}",
                    crate::names::MAX_NAME,
                    crate::names::shown(n)
                )));
            }
            if names[..k].contains(n) {
                return Err(ScenarioError(format!(
                    "joints[{j}].coordinates[{k}] is {}, as an earlier coordinate of that joint is",
                    crate::names::shown(n)
                )));
            }
        }
        out.push(names.to_vec());
    }
    Ok(if out.iter().all(Vec::is_empty) {
        Vec::new()
    } else {
        out
    })
}

/// Every joint's coordinates with the frames that read them, compiled once from a model and
/// its start.
#[derive(Clone, Debug)]
pub struct Reader {
    list: Vec<Coordinate>,
    frames: Vec<Frame>,
}

impl Reader {
    /// The coordinates of `model`'s joints, measured from `init`.
    pub fn new(model: &Model, init: &[BodyState]) -> Reader {
        let mut list = Vec::new();
        let mut frames = Vec::new();
        for (j, joint) in model.joints.iter().enumerate() {
            let name = match crate::model::Names::of(&model.names.joints, j) {
                Some(n) => String::from(n),
                None => format!("joint {j}"),
            };
            let own = model.names.coordinates.get(j).filter(|c| !c.is_empty());
            for (k, &(kind, index, suffix)) in of_joint(&joint.kind).iter().enumerate() {
                let label = if let Some(own) = own {
                    own[k].clone()
                } else if suffix.is_empty() {
                    name.clone()
                } else {
                    format!("{name}: {suffix}")
                };
                list.push(Coordinate {
                    joint: j,
                    kind,
                    index,
                    label,
                });
                frames.push(coordinate_frame(model, j, kind, index, Some(init)));
            }
        }
        Reader { list, frames }
    }

    /// The coordinates, in order.
    pub fn list(&self) -> &[Coordinate] {
        &self.list
    }

    /// The coordinates at the state `s` into `out` (one per coordinate; angles unwrapped
    /// against the values `out` holds, 0 for the first read). Allocates nothing.
    pub fn read(&self, s: &[BodyState], out: &mut [f64]) {
        for ((c, fr), x) in self.list.iter().zip(&self.frames).zip(out.iter_mut()) {
            *x = match c.kind {
                LimitKind::Angle => {
                    frame::hinge_angle(fr, &frame::rot(s, fr.a), &frame::rot(s, Some(fr.b)), *x)
                }
                LimitKind::Slide => frame::slide(fr, s),
            };
        }
    }
}
