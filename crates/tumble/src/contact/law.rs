//! The normal contact law and its restitution calibration.
//!
//! ```text
//! indentation d = -gap (> 0 in contact), rate ddot
//! Hertz (curved)  F_e = K d^(3/2),  V = (2/5) K d^(5/2),   K = (4/3) E* sqrt(R)
//!                 F_d = c d^(1/4) ddot,    c = alpha sqrt(m K)
//! linear (flat)   F_e = k d,        V = k d^2 / 2
//!                 F_d = c ddot,            c = alpha sqrt(m k)
//! force           F = max(0, F_e + F_d)    (a contact pushes, never pulls)
//!                 F = F_e + F_d             (with `pull`: the textbook spring-dashpot, whose
//!                                            damping pulls at the end of a contact)
//! ```
//! Why these damping laws: with d^(1/4) (Hertz, as Tsuji et al. 1992) or a constant (linear)
//! the equation of a normal impact, m ddot' = -F, has no scale left once d and t are measured
//! in units of the impact (d ~ v0^(4/5), t ~ v0^(-1/5) for Hertz): the coefficient of
//! restitution depends on alpha alone, not on the impact speed, the mass or the stiffness.
//! So alpha is found once for the e asked, by bisection on the impact integrated in those
//! units (m = K = v0 = 1) with the clamp F >= 0 included. The clamp is what makes the named
//! laws miss their e (the force would pull at the end of the contact); calibrating through it
//! gives the e asked, to the accuracy of that integration (below 1e-6, `tests`).
//!
//! Energy: F_e is the derivative of V, so V is part of the potential energy; F - F_e has the
//! sign of ddot (it is c d^(1/4) ddot, or -F_e when the clamp acts while ddot < 0), so its
//! power (F - F_e) ddot >= 0 is dissipated: D never decreases. Allowed to pull, F - F_e is
//! the damping c d^(1/4) ddot throughout, the same sign.
//!
//! Where several probes share one flat contact (a box's four corners on a face), each is
//! damped on its share of the mass (m/4), so that the face, landing flat, has the damping
//! alpha sqrt(m K) of its whole stiffness K = 4 k and rebounds at the e asked (`compile.rs`, `box_box.rs`).

/// Which normal law.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// F_e = K d^(3/2): a curved surface (a sphere, a capsule's cap)
    Hertz,
    /// F_e = k d: a box's corner (a flat contact shared by its corners)
    Linear,
}

/// A normal law: kind, stiffness K (N/m^1.5) or k (N/m), damping coefficient c, and whether
/// the force may pull.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Law {
    /// the kind
    pub kind: Kind,
    /// K or k
    pub k: f64,
    /// c (N s/m^1.25 for Hertz, N s/m for linear)
    pub c: f64,
    /// the force is F_e + F_d even where that pulls (a material's `pull`); else max(0, ...)
    pub pull: bool,
}

/// d^(1/4) for d > 0, else 0.
fn quarter(d: f64) -> f64 {
    if d > 0.0 {
        crate::math::sqrt(crate::math::sqrt(d))
    } else {
        0.0
    }
}

impl Law {
    /// The law of `kind` with stiffness `k`, effective mass `m` and restitution `e`, kept from
    /// pulling.
    pub fn new(kind: Kind, k: f64, m: f64, e: f64) -> Law {
        Law {
            kind,
            k,
            c: alpha(kind, e, false) * crate::math::sqrt(m * k),
            pull: false,
        }
    }

    /// F_e + F_d, kept from pulling unless the law allows it.
    fn total(&self, f: f64) -> f64 {
        if self.pull {
            f
        } else {
            f.max(0.0)
        }
    }

    /// The potential V(d) (J), zero for d <= 0.
    pub fn potential(&self, d: f64) -> f64 {
        if d <= 0.0 {
            return 0.0;
        }
        match self.kind {
            Kind::Hertz => 0.4 * self.k * d * d * crate::math::sqrt(d),
            Kind::Linear => 0.5 * self.k * d * d,
        }
    }

    /// The elastic force's slope F_e'(d) (N/m), zero for d <= 0: the contact's stiffness.
    pub fn slope(&self, d: f64) -> f64 {
        if d <= 0.0 {
            return 0.0;
        }
        match self.kind {
            Kind::Hertz => 1.5 * self.k * crate::math::sqrt(d),
            Kind::Linear => self.k,
        }
    }

    /// The damping force's slope dF_d/d(ddot) (N s/m), zero for d <= 0.
    pub fn damping(&self, d: f64) -> f64 {
        match self.kind {
            Kind::Hertz => self.c * quarter(d),
            Kind::Linear if d > 0.0 => self.c,
            Kind::Linear => 0.0,
        }
    }

    /// The elastic force F_e(d) = V'(d) (N), zero for d <= 0.
    pub fn elastic(&self, d: f64) -> f64 {
        if d <= 0.0 {
            return 0.0;
        }
        match self.kind {
            Kind::Hertz => self.k * d * crate::math::sqrt(d),
            Kind::Linear => self.k * d,
        }
    }

    /// dF_e/dd (N/m), zero for d <= 0.
    pub fn stiffness(&self, d: f64) -> f64 {
        if d <= 0.0 {
            return 0.0;
        }
        match self.kind {
            Kind::Hertz => 1.5 * self.k * crate::math::sqrt(d),
            Kind::Linear => self.k,
        }
    }

    /// The factor of c ddot in F_d: d^(1/4) (Hertz) or 1 (linear), zero out of contact.
    pub fn damping_factor(&self, d: f64) -> f64 {
        match self.kind {
            Kind::Hertz => quarter(d),
            Kind::Linear => {
                if d > 0.0 {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }

    /// The force at indentation `d` and rate `ddot` (continuous form): (F, F_e).
    pub fn force(&self, d: f64, ddot: f64) -> (f64, f64) {
        let fe = self.elastic(d);
        let f = self.total(fe + self.c * self.damping_factor(d) * ddot);
        (f, fe)
    }

    /// phi(d) with phi' the damping factor: (4/5) d^(5/4) (Hertz) or d (linear), 0 for d <= 0.
    pub fn phi(&self, d: f64) -> f64 {
        if d <= 0.0 {
            return 0.0;
        }
        match self.kind {
            Kind::Hertz => 0.8 * d * quarter(d),
            Kind::Linear => d,
        }
    }

    /// The discrete force of a step from `d0` to `d1` (h the step): (F, F_e) with
    /// F_e = (V(d1) - V(d0)) / (d1 - d0), exactly -Delta V / Delta gap, and the damping F_d = c (phi(d1) - phi(d0)) / h, the
    /// step's mean of c phi'(d) ddot (c d^(1/4) ddot for Hertz); F = max(0, F_e + F_d). The
    /// step dissipates (F - F_e) Delta d >= 0, since phi never decreases. Why phi and not the
    /// mean of d^(1/4) at the two ends: d^(1/4) has an infinite slope at d = 0, where a
    /// contact starts, and Newton's fixed point on the forces then does not converge (seen:
    /// a ball arriving without gravity stalled at a residual of 7e-7); phi's slope is finite.
    pub fn discrete(&self, d0: f64, d1: f64, h: f64) -> (f64, f64) {
        if d0 <= 0.0 && d1 <= 0.0 {
            return (0.0, 0.0);
        }
        let dd = d1 - d0;
        let fe = if d0 > 0.0 && d1 > 0.0 {
            // both ends in contact: the divided difference in a form without cancellation
            // (at rest d hardly changes, and (V(d1) - V(d0)) / (d1 - d0) would lose its digits
            // there: a force noise of 1e-6 that stalled Newton at 1e-10)
            match self.kind {
                Kind::Hertz => {
                    // 0.4 K (b^5 - a^5) / (b^2 - a^2), a = sqrt(d0), b = sqrt(d1)
                    let (a, b) = (crate::math::sqrt(d0), crate::math::sqrt(d1));
                    let (a2, b2) = (a * a, b * b);
                    0.4 * self.k * (b2 * b2 + b2 * b * a + b2 * a2 + b * a2 * a + a2 * a2) / (a + b)
                }
                Kind::Linear => 0.5 * self.k * (d0 + d1),
            }
        } else {
            // one end out of contact: d changes by at least that end's distance
            (self.potential(d1) - self.potential(d0)) / dd
        };
        let f = self.total(fe + self.c * (self.phi(d1) - self.phi(d0)) / h);
        (f, fe)
    }
}

/// The coefficient of restitution of law `kind` with damping `alpha` (m = K = 1), kept from
/// pulling or not (`pull`): a normal impact at unit speed integrated by RK4 in steps of 1e-3
/// of the contact's time unit (halved down to 1e-9 where the clamp takes over and at the
/// end); the speed when the indentation returns to zero is e.
pub fn restitution(kind: Kind, alpha: f64, pull: bool) -> f64 {
    let law = Law {
        kind,
        k: 1.0,
        c: alpha,
        pull,
    };
    // the contact phase's law, continued to d <= 0: the linear dashpot's force is c v already
    // at d = 0+, and taking it as zero at the start (d = 0) cost the first step its order (e
    // off by 1.4e-5 at z = 0.05)
    let acc = |d: f64, v: f64| -law.force(d.max(f64::MIN_POSITIVE), v).0;
    let mut dt = 1e-3;
    let (mut d, mut v) = (0.0f64, 1.0f64);
    // from the first touch, d = 0, at unit speed
    for _ in 0..200_000 {
        let (k1d, k1v) = (v, acc(d, v));
        let (k2d, k2v) = (
            v + 0.5 * dt * k1v,
            acc(d + 0.5 * dt * k1d, v + 0.5 * dt * k1v),
        );
        let (k3d, k3v) = (
            v + 0.5 * dt * k2v,
            acc(d + 0.5 * dt * k2d, v + 0.5 * dt * k2v),
        );
        let (k4d, k4v) = (v + dt * k3v, acc(d + dt * k3d, v + dt * k3v));
        let d1 = d + dt / 6.0 * (k1d + 2.0 * k2d + 2.0 * k3d + k4d);
        let v1 = v + dt / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
        if d1 <= 0.0 && v1 < 0.0 {
            // out of contact within this step: the step is halved until it is 1e-9 long (the
            // force is not smooth at d = 0, where a full step would mix the two sides), then
            // the speed at the crossing is taken by linear interpolation in d
            if dt > 1e-9 {
                dt *= 0.5;
                continue;
            }
            let s = d / (d - d1);
            return -(v + s * (v1 - v));
        }
        // the clamp taking over within this step (F_e + F_d turning negative): the force's
        // slope jumps there, which costs RK4 its order (an e off by 5e-5 at alpha = 1 when
        // stepped across); the step is halved down to 1e-9 as at the end, and the full step
        // taken again once across
        let raw = |d: f64, v: f64| law.elastic(d) + law.c * law.damping_factor(d) * v;
        if !pull && raw(d, v) > 0.0 && raw(d1, v1) < 0.0 {
            if dt > 1e-9 {
                dt *= 0.5;
                continue;
            }
            dt = 1e-3;
        }
        d = d1;
        v = v1;
    }
    0.0
}

/// The calibrated alpha of each (kind, e, pull) a model uses, found once when it is compiled.
#[derive(Clone, Debug, Default)]
pub struct Alphas(alloc::vec::Vec<(Kind, f64, bool, f64)>);

impl Alphas {
    /// Calibrate `kind`'s alpha for (e, pull) unless it is known.
    pub fn add(&mut self, kind: Kind, e: f64, pull: bool) -> f64 {
        match self.0.iter().find(|x| (x.0, x.1, x.2) == (kind, e, pull)) {
            Some(x) => x.3,
            None => {
                let a = alpha(kind, e, pull);
                self.0.push((kind, e, pull, a));
                a
            }
        }
    }

    /// The alpha of (kind, e, pull), 0 if it was not added.
    pub fn get(&self, kind: Kind, e: f64, pull: bool) -> f64 {
        self.0
            .iter()
            .find(|x| (x.0, x.1, x.2) == (kind, e, pull))
            .map_or(0.0, |x| x.3)
    }
}

/// The damping alpha for which a normal impact has restitution `e` (0 < e <= 1), with the
/// force kept from pulling or not (`pull`): bisection on [`restitution`], which falls as alpha
/// grows.
pub fn alpha(kind: Kind, e: f64, pull: bool) -> f64 {
    if e >= 1.0 {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while restitution(kind, hi, pull) > e && hi < 1e6 {
        lo = hi;
        hi *= 2.0;
    }
    for _ in 0..48 {
        let mid = 0.5 * (lo + hi);
        if restitution(kind, mid, pull) > e {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-9 * hi {
            break;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undamped_impact_is_elastic_and_linear_dashpot_matches_its_closed_form() {
        for kind in [Kind::Hertz, Kind::Linear] {
            for pull in [false, true] {
                assert!(
                    (restitution(kind, 0.0, pull) - 1.0).abs() < 1e-10,
                    "{kind:?}"
                );
            }
        }
        // linear spring-dashpot, m = k = 1, c = 2 z: while the force does not pull, the motion
        // is the damped oscillator; the clamp acts where d + 2 z v = 0, after which the speed
        // stays. Closed form of the unclamped law for comparison: e = exp(-pi z / sqrt(1-z^2)),
        // which the clamped law must exceed (the pull at the end is what the clamp removes)
        for z in [0.05f64, 0.2, 0.4] {
            let e = restitution(Kind::Linear, 2.0 * z, false);
            let unclamped = libm::exp(-core::f64::consts::PI * z / libm::sqrt(1.0 - z * z));
            assert!(
                e > unclamped && e < unclamped + 0.2,
                "z {z}: {e} vs {unclamped}"
            );
            // allowed to pull, the law is the damped oscillator to the end: its closed form
            let pulled = restitution(Kind::Linear, 2.0 * z, true);
            assert!(
                (pulled - unclamped).abs() < 1e-8,
                "z {z}: {pulled} vs {unclamped}"
            );
        }
    }

    #[test]
    fn calibration_gives_the_restitution_asked() {
        for kind in [Kind::Hertz, Kind::Linear] {
            for e in [0.1, 0.5, 0.8, 0.95] {
                for pull in [false, true] {
                    let a = alpha(kind, e, pull);
                    assert!(
                        (restitution(kind, a, pull) - e).abs() < 1e-6,
                        "{kind:?} {e}"
                    );
                }
                // the linear law allowed to pull: the closed form's inverse,
                // z = -ln e / sqrt(pi^2 + ln^2 e), alpha = c / sqrt(m k) = 2 z
                let l = libm::log(e);
                let z = -l / libm::sqrt(core::f64::consts::PI * core::f64::consts::PI + l * l);
                let a = alpha(Kind::Linear, e, true);
                assert!((a - 2.0 * z).abs() < 1e-6 * z, "{e}: {a} vs {}", 2.0 * z);
            }
        }
    }
}
