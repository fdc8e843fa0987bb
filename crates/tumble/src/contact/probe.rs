//! A probe: one contact the step evaluates, what it measures (`Geometry`: a body point against
//! a plane, two spheres, a point against a box's face), its normal law and its friction
//! coefficients, and its gap. The pair functions (`pairs.rs`) make the pairs' probes, the
//! compiler (`compile.rs`) the plane contacts'.
use super::law::Law;
use crate::model::BodyState;
use glam::DVec3;

/// What a probe measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Geometry {
    /// a body point of radius `r` against a plane (point `p0`, unit normal `n`)
    PointPlane {
        /// the body
        body: usize,
        /// the point in the body's frame
        s: DVec3,
        /// its radius (m)
        r: f64,
        /// a point of the plane
        p0: DVec3,
        /// the plane's outward normal
        n: DVec3,
    },
    /// a point of body a (radius r: a sphere's centre, or a box's corner with r = 0) against a
    /// face of a box on body b: the face's outward normal is R_b m, its plane at m . x = off in
    /// b's frame; the gap n . (p_a - x_b) - off - r is bilinear in the two bodies' coordinates
    PointFace {
        /// body a
        a: usize,
        /// the point in a's frame
        sa: DVec3,
        /// its radius (m)
        r: f64,
        /// body b (the box's)
        b: usize,
        /// the face's outward unit normal in b's frame
        m: DVec3,
        /// the face's offset along it from b's centre (m)
        off: f64,
    },
    /// two spheres on two bodies
    SpherePair {
        /// body a, its centre in a's frame, its radius
        a: usize,
        /// centre in a's frame
        sa: DVec3,
        /// a's radius
        ra: f64,
        /// body b
        b: usize,
        /// centre in b's frame
        sb: DVec3,
        /// b's radius
        rb: f64,
    },
    /// a point of one body against a capsule's segment on the other (a sphere's centre, or
    /// another capsule's end: `capsule.rs`): with w = p_b - p_a from the segment's centre, n
    /// its axis (world), s = w . n and half-length L, g = sqrt(|w|^2 + c(s)) - r_a - r_b with
    /// c(s) = -s^2 for |s| <= L and L^2 - 2 L |s| beyond (the distance to the line inside, to
    /// the nearer end beyond: one C^1 function, so a point passing an end within a step is
    /// exact); |w|^2 is quadratic and s bilinear in the director coordinates, c a function of
    /// s alone (its difference quotient: `segment_slope`), so the discrete gradient is exact
    PointLine {
        /// body a (the pair's first collider's) and its point in a's frame (the line's
        /// centre if the line is a's)
        a: usize,
        /// a's point in a's frame
        sa: DVec3,
        /// a's radius
        ra: f64,
        /// body b
        b: usize,
        /// b's point in b's frame
        sb: DVec3,
        /// b's radius
        rb: f64,
        /// the line's unit axis in its body's frame
        m: DVec3,
        /// the segment's half-length L (m) along `m` from its body point
        half: f64,
        /// whether the line is b's (else a's)
        line_b: bool,
    },
    /// two capsules' segments (`capsule.rs`): with w = c_b - c_a between their centres, n_a, n_b
    /// their axes (world) and half-lengths L_a, L_b, g = d - r_a - r_b, d^2 = F the least of
    /// |w + t n_b - s n_a|^2 over s in [-L_a, L_a], t in [-L_b, L_b]: one function of the
    /// invariants w . w, w . n_a, w . n_b, n_a . n_b wherever the closest points lie, whose
    /// discrete gradient is exact and has no moment (`methods/director/segments.rs`)
    Segments {
        /// body a and its segment's centre in a's frame
        a: usize,
        /// a's centre in a's frame
        sa: DVec3,
        /// a's radius
        ra: f64,
        /// a's unit axis in a's frame
        ma: DVec3,
        /// body b
        b: usize,
        /// b's centre in b's frame
        sb: DVec3,
        /// b's radius
        rb: f64,
        /// b's unit axis in b's frame
        mb: DVec3,
        /// a's half-length L_a (m)
        ha: f64,
        /// b's half-length L_b (m)
        hb: f64,
    },
}

/// The minimiser (s, t) over [-ha, ha] x [-hb, hb] of ww + s^2 + t^2 - 2 s wa + 2 t wb - 2 s t
/// ab (`Geometry::Segments`) from (wa, wb, ab): Ericson's segment-segment search (Real-Time Collision
/// Detection, 5.1.9); where the axes are parallel, s the middle of b's projection on a.
pub fn segment_feet(wa: f64, wb: f64, ab: f64, ha: f64, hb: f64) -> (f64, f64) {
    let denom = 1.0 - ab * ab;
    let mut s = if denom > 1e-12 {
        ((wa - ab * wb) / denom).clamp(-ha, ha)
    } else {
        // parallel: the middle of the overlap of b's projection, wa +- hb |ab|, on a
        let (lo, hi) = (wa - hb * ab.abs(), wa + hb * ab.abs());
        0.5 * (lo.clamp(-ha, ha) + hi.clamp(-ha, ha))
    };
    let mut t = ab * s - wb;
    if t < -hb || t > hb {
        t = t.clamp(-hb, hb);
        s = (wa + t * ab).clamp(-ha, ha);
    }
    (s, t)
}

/// c(s) of a point against a segment of half-length `half` (`Geometry::PointLine`): |w|^2 + c(s)
/// is the squared distance, c = -s^2 inside, L^2 - 2 L |s| beyond an end.
pub fn segment_c(s: f64, half: f64) -> f64 {
    let f = s.clamp(-half, half);
    f * f - 2.0 * f * s
}

/// The difference quotient (c(s1) - c(s0)) / (s1 - s0) of `segment_c`, -2 clamp(s) where
/// s1 = s0: the slopes of its three pieces over [s0, s1] (below -L: 2 L; inside [a, b]: -(a + b);
/// beyond L: -2 L), each weighted by its share of the interval, so that it stays accurate for
/// s1 near s0 on either side of an end (no difference of two nearly equal c).
pub fn segment_slope(s0: f64, s1: f64, half: f64) -> f64 {
    let (lo, hi) = if s0 <= s1 { (s0, s1) } else { (s1, s0) };
    let span = hi - lo;
    if span <= 0.0 {
        return -2.0 * s0.clamp(-half, half);
    }
    let (a, b) = (lo.clamp(-half, half), hi.clamp(-half, half));
    let below = (hi.min(-half) - lo).max(0.0);
    let above = (hi - lo.max(half)).max(0.0);
    (2.0 * half * (below - above) - (a + b) * (b - a)) / span
}

/// A compiled contact: geometry, normal law, friction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe {
    /// where
    pub geometry: Geometry,
    /// the normal law
    pub law: Law,
    /// kinetic and static friction coefficients (a pair's set by `friction.rs`)
    pub mu_k: f64,
    /// static
    pub mu_s: f64,
    /// the tangential stiffness k_t (N/m)
    pub kt: f64,
    /// what it comes from: a plane contact's shape (`model.contact.shapes`), a pair's two
    /// colliders (`collider.rs`)
    pub shapes: [usize; 2],
    /// which of the pair's probes (a box's corner, an edge crossing: `box_box.rs`), 0 for the
    /// only one
    pub part: u32,
}

impl Probe {
    /// The two bodies of a pair (a plane contact's body twice).
    pub fn bodies(&self) -> (usize, usize) {
        match self.geometry {
            Geometry::SpherePair { a, b, .. }
            | Geometry::PointFace { a, b, .. }
            | Geometry::PointLine { a, b, .. }
            | Geometry::Segments { a, b, .. } => (a, b),
            Geometry::PointPlane { body, .. } => (body, body),
        }
    }

    /// A sphere pair's, point-line or line-line pair's two nearest points at `s` (a sphere's
    /// centre, the foot of the point on the line, the lines' closest points), as arms from their bodies' centres (world), with the
    /// bodies and radii: (a, arm_a, r_a, b, arm_b, r_b); their distance is the pair's
    /// l = g + r_a + r_b. None for the other geometries.
    #[allow(clippy::type_complexity)]
    pub fn centres(&self, s: &[BodyState]) -> Option<(usize, DVec3, f64, usize, DVec3, f64)> {
        match self.geometry {
            Geometry::SpherePair {
                a,
                sa,
                ra,
                b,
                sb,
                rb,
            } => Some((a, s[a].r * sa, ra, b, s[b].r * sb, rb)),
            Geometry::PointLine {
                a,
                sa,
                ra,
                b,
                sb,
                rb,
                m,
                half,
                line_b,
            } => {
                let (arm_a, arm_b) = (s[a].r * sa, s[b].r * sb);
                let n = s[if line_b { b } else { a }].r * m;
                let w = s[b].x + arm_b - s[a].x - arm_a;
                let along = n * w.dot(n).clamp(-half, half);
                Some(if line_b {
                    (a, arm_a, ra, b, arm_b - along, rb)
                } else {
                    (a, arm_a + along, ra, b, arm_b, rb)
                })
            }
            Geometry::Segments {
                a,
                sa,
                ra,
                ma,
                b,
                sb,
                rb,
                mb,
                ha,
                hb,
            } => {
                let (arm_a, arm_b) = (s[a].r * sa, s[b].r * sb);
                let (na, nb) = (s[a].r * ma, s[b].r * mb);
                let w = s[b].x + arm_b - s[a].x - arm_a;
                let (ta, tb) = segment_feet(w.dot(na), w.dot(nb), na.dot(nb), ha, hb);
                Some((a, arm_a + na * ta, ra, b, arm_b + nb * tb, rb))
            }
            _ => None,
        }
    }

    /// A pair's probe of the body point `sa` (radius `r`) of body `a` against the plane
    /// m . x = off of body `b`'s frame (`Geometry::PointFace`), with `law`, keyed `key` (its
    /// two colliders and part); its friction is set by `friction.rs`.
    pub fn point_face(
        (a, sa, r): (usize, DVec3, f64),
        (b, m, off): (usize, DVec3, f64),
        law: Law,
        key: ([usize; 2], u32),
    ) -> Probe {
        Probe {
            geometry: Geometry::PointFace {
                a,
                sa,
                r,
                b,
                m,
                off,
            },
            law,
            mu_k: 0.0,
            mu_s: 0.0,
            kt: 0.0,
            shapes: key.0,
            part: key.1,
        }
    }
}
/// The probe's gap at `s` (m): negative in contact.
pub fn gap(p: &Probe, s: &[BodyState]) -> f64 {
    match p.geometry {
        Geometry::PointPlane {
            body,
            s: sp,
            r,
            p0,
            n,
        } => n.dot(s[body].x + s[body].r * sp - p0) - r,
        Geometry::SpherePair {
            a,
            sa,
            ra,
            b,
            sb,
            rb,
        } => crate::math::length(s[b].x + s[b].r * sb - s[a].x - s[a].r * sa) - ra - rb,
        Geometry::PointFace {
            a,
            sa,
            r,
            b,
            m,
            off,
        } => (s[b].r * m).dot(s[a].x + s[a].r * sa - s[b].x) - off - r,
        Geometry::PointLine {
            a,
            sa,
            ra,
            b,
            sb,
            rb,
            m,
            half,
            line_b,
        } => {
            let w = s[b].x + s[b].r * sb - s[a].x - s[a].r * sa;
            let along = w.dot(s[if line_b { b } else { a }].r * m);
            let l2 = w.length_squared() + segment_c(along, half);
            crate::math::sqrt(l2.max(0.0)) - ra - rb
        }
        Geometry::Segments { .. } => {
            let (a, arm_a, ra, b, arm_b, rb) = p.centres(s).unwrap_or_default();
            crate::math::length(s[b].x + arm_b - s[a].x - arm_a) - ra - rb
        }
    }
}
