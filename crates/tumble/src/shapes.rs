//! Collision shapes and contact materials: what a model says about contact (data only; the
//! contact forces are in `contact/`).
//!
//! A body may carry several shapes, each in its own frame (offset and rotation in the body's
//! frame): a sphere (radius), a capsule (radius, half-length of its segment along the shape's
//! z axis), a box (half-sizes along the shape's axes) or a mesh (triangles, collided as their
//! bounding box in the shape's frame). The world holds planes (half-spaces:
//! a point and an outward normal). Which pairs can touch is decided by the collision filter
//! (MuJoCo's rule for contype/conaffinity: shapes A and B may touch when
//! `A.group & B.mask != 0 || B.group & A.mask != 0`; planes have group and mask 1), and bodies
//! joined by a joint do not touch each other unless `collide_joined` is set (MuJoCo's
//! parent-child rule, extended to every joint; bodies welded together by fixed joints count as
//! one body, as MuJoCo's weld bodies do).
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// A contact material. A pair's law combines the two (the material rules of `contact/`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Young's modulus E (Pa), > 0
    pub young: f64,
    /// Poisson's ratio, in [0, 0.5)
    pub poisson: f64,
    /// coefficient of restitution e of a normal impact, in [0.01, 1]
    pub restitution: f64,
    /// kinetic (sliding) friction coefficient mu_k, >= 0
    pub friction: f64,
    /// static friction coefficient mu_s, >= mu_k
    pub static_friction: f64,
    /// whether the normal force may pull: the textbook spring-dashpot, whose damping pulls at
    /// the end of an impact (false: a contact pushes, never pulls; `contact/law.rs`). A pair
    /// pulls where either material does
    pub pull: bool,
}

impl Default for Material {
    /// A hard rubber: E = 10 MPa, nu = 0.45, e = 0.8, mu = 0.5 (sliding and static), pushing only.
    fn default() -> Self {
        Material {
            young: 1e7,
            poisson: 0.45,
            restitution: 0.8,
            friction: 0.5,
            static_friction: 0.5,
            pull: false,
        }
    }
}

/// The geometry of a shape, in its own frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeKind {
    /// a ball of this radius (m) about the shape's origin
    Sphere {
        /// radius (m)
        radius: f64,
    },
    /// the points within `radius` of the segment from -half_length to +half_length along z
    Capsule {
        /// radius (m)
        radius: f64,
        /// half the length of the segment (m)
        half_length: f64,
    },
    /// a box with these half-sizes along x, y, z (m)
    Box {
        /// half-sizes (m)
        half: DVec3,
    },
}

impl ShapeKind {
    /// The name used in the JSON form.
    pub fn name(&self) -> &'static str {
        match self {
            ShapeKind::Sphere { .. } => "sphere",
            ShapeKind::Capsule { .. } => "capsule",
            ShapeKind::Box { .. } => "box",
        }
    }
}

/// A collision shape fixed to a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// the body
    pub body: usize,
    /// the geometry
    pub kind: ShapeKind,
    /// the shape's origin in the body's frame (m)
    pub offset: DVec3,
    /// the shape's axes in the body's frame (columns)
    pub rotation: DMat3,
    /// the material
    pub material: Material,
    /// collision filter: the groups the shape belongs to (MuJoCo's contype)
    pub group: u32,
    /// collision filter: the groups it touches (MuJoCo's conaffinity)
    pub mask: u32,
}

/// A fixed half-space of the world: the points x with normal . (x - point) < 0 are inside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    /// a point on the surface (m)
    pub point: DVec3,
    /// the outward unit normal
    pub normal: DVec3,
    /// the material
    pub material: Material,
}

/// Everything a model says about contact, and the shapes only drawn. Empty by default: nothing
/// touches anything.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Contact {
    /// the bodies' shapes
    pub shapes: Vec<Shape>,
    /// the world's planes
    pub planes: Vec<Plane>,
    /// whether bodies joined by a joint touch each other
    pub collide_joined: bool,
    /// pairs of bodies whose shapes never touch each other (MuJoCo's `<exclude>`), each two
    /// different bodies
    pub exclude: Vec<[usize; 2]>,
    /// the triangles of the shapes given as meshes (each a box against other shapes; against planes its hull's corners)
    pub meshes: Vec<Mesh>,
    /// shapes only drawn (`"visual": true`; MuJoCo's geoms that collide with nothing, such as
    /// the finger's distal capsule): fixed to their bodies, touching nothing; the contact code
    /// never reads them, so a model runs bit for bit as without them
    pub visuals: Vec<Shape>,
    /// the triangles of the visual shapes given as meshes (`Mesh::shape` an index in `visuals`)
    pub visual_meshes: Vec<Mesh>,
}

/// A shape given as a triangle mesh (`"type": "mesh"`): drawn as its triangles, collided as
/// its bounding box in its own frame, `shapes[shape]` (a box centred on the mesh's box).
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// the index of its box in `Contact::shapes`
    pub shape: usize,
    /// the mesh's origin in the body's frame, as written (m); the box's offset is this plus
    /// the shape's rotation times `centre`
    pub offset: DVec3,
    /// the centre of the bounding box in the mesh's own frame (m)
    pub centre: DVec3,
    /// the vertices in the mesh's own frame (m)
    pub vertices: Vec<DVec3>,
    /// the triangles: three vertex indices each, counter-clockwise seen from outside
    pub faces: Vec<[u32; 3]>,
}

impl Contact {
    /// No shapes: no contact forces at all.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// The triangles of shape `i`, where it was given as a mesh.
    pub fn mesh(&self, i: usize) -> Option<&Mesh> {
        self.meshes.iter().find(|m| m.shape == i)
    }

    /// The triangles of visual shape `i`, where it was given as a mesh.
    pub fn visual_mesh(&self, i: usize) -> Option<&Mesh> {
        self.visual_meshes.iter().find(|m| m.shape == i)
    }

    /// The kind of shape `i` as the JSON form names it ("mesh" for a mesh's box).
    pub fn kind_name(&self, i: usize) -> &'static str {
        if self.mesh(i).is_some() {
            "mesh"
        } else {
            self.shapes[i].kind.name()
        }
    }
}
