//! Functions of time for loads and motors: a small closed set of kinds with named parameters,
//! data in the JSON, never text to evaluate. A leaf module.
//!
//! ```text
//! constant  f(t) = value
//! linear    f(t) = start + rate t
//! sine      f(t) = offset + amplitude sin(2 pi frequency t + phase)
//! ramp      f(t) = value s(t / time),  s(x) = 3x^2 - 2x^3 on [0, 1], 1 beyond
//!           (a smooth start: f and df/dt are continuous, so a motor starts without a jolt)
//! ramp_speed f(t) = rate time S(t / time),  S(x) = x^3 - x^4 / 2 on [0, 1], then
//!           f = rate (t - time / 2): an angle or slide whose speed ramps smoothly (as s above)
//!           from 0 to `rate` over `time` (a drive that starts without a jolt)
//! ```
//! Drives also need df/dt and d2f/dt2 ([`TimeFn::rate`], [`TimeFn::accel`]).
use alloc::format;
use alloc::string::String;

/// Largest frequency accepted (Hz): beyond it no step a run can take resolves the function.
pub const MAX_FREQUENCY: f64 = 1e6;
/// Largest magnitude of any parameter.
pub const MAX_PARAM: f64 = 1e12;

/// A function of time f(t) (dimensionless factor, or in the unit of what it scales).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeFn {
    /// f(t) = value
    Constant {
        /// the value
        value: f64,
    },
    /// f(t) = start + rate t
    Linear {
        /// f(0)
        start: f64,
        /// df/dt (per second)
        rate: f64,
    },
    /// f(t) = offset + amplitude sin(2 pi frequency t + phase)
    Sine {
        /// mean value
        offset: f64,
        /// amplitude
        amplitude: f64,
        /// frequency (Hz)
        frequency: f64,
        /// phase (rad)
        phase: f64,
    },
    /// f(t) = value (3x^2 - 2x^3), x = t / time, then value: a smooth ramp from 0
    Ramp {
        /// the final value
        value: f64,
        /// the ramp's duration (s), > 0
        time: f64,
    },
    /// f(0) = 0 and df/dt ramps smoothly from 0 to `rate` over `time`, then stays
    RampSpeed {
        /// the final rate df/dt (per second)
        rate: f64,
        /// the ramp's duration (s), > 0
        time: f64,
    },
}

impl Default for TimeFn {
    fn default() -> Self {
        TimeFn::Constant { value: 1.0 }
    }
}

impl TimeFn {
    /// f(t).
    pub fn at(&self, t: f64) -> f64 {
        match *self {
            TimeFn::Constant { value } => value,
            TimeFn::Linear { start, rate } => start + rate * t,
            TimeFn::Sine {
                offset,
                amplitude,
                frequency,
                phase,
            } => {
                offset + amplitude * libm::sin(2.0 * core::f64::consts::PI * frequency * t + phase)
            }
            TimeFn::Ramp { value, time } => {
                let x = (t / time).clamp(0.0, 1.0);
                value * x * x * (3.0 - 2.0 * x)
            }
            TimeFn::RampSpeed { rate, time } => {
                if t >= time {
                    rate * (t - 0.5 * time)
                } else {
                    let x = t / time;
                    rate * time * x * x * x * (1.0 - 0.5 * x)
                }
            }
        }
    }

    /// df/dt at t.
    pub fn rate(&self, t: f64) -> f64 {
        let tau = 2.0 * core::f64::consts::PI;
        match *self {
            TimeFn::Constant { .. } => 0.0,
            TimeFn::Linear { rate, .. } => rate,
            TimeFn::Sine {
                amplitude,
                frequency,
                phase,
                ..
            } => amplitude * tau * frequency * libm::cos(tau * frequency * t + phase),
            TimeFn::Ramp { value, time } => {
                let x = t / time;
                if (0.0..1.0).contains(&x) {
                    value * 6.0 * x * (1.0 - x) / time
                } else {
                    0.0
                }
            }
            TimeFn::RampSpeed { rate, time } => {
                let x = (t / time).clamp(0.0, 1.0);
                rate * x * x * (3.0 - 2.0 * x)
            }
        }
    }

    /// d2f/dt2 at t.
    pub fn accel(&self, t: f64) -> f64 {
        let tau = 2.0 * core::f64::consts::PI;
        match *self {
            TimeFn::Constant { .. } | TimeFn::Linear { .. } => 0.0,
            TimeFn::Sine {
                amplitude,
                frequency,
                phase,
                ..
            } => {
                let w = tau * frequency;
                -amplitude * w * w * libm::sin(w * t + phase)
            }
            TimeFn::Ramp { value, time } => {
                let x = t / time;
                if (0.0..1.0).contains(&x) {
                    value * (6.0 - 12.0 * x) / (time * time)
                } else {
                    0.0
                }
            }
            TimeFn::RampSpeed { rate, time } => {
                let x = t / time;
                if (0.0..1.0).contains(&x) {
                    rate * 6.0 * x * (1.0 - x) / time
                } else {
                    0.0
                }
            }
        }
    }

    /// Every parameter finite and of magnitude at most [`MAX_PARAM`], the frequency at most
    /// [`MAX_FREQUENCY`], the ramp's time positive. The message names `name` and the field.
    pub fn validate(&self, name: &str) -> Result<(), String> {
        let check = |field: &str, v: f64, lo: f64, hi: f64| {
            if v.is_finite() && v >= lo && v <= hi {
                Ok(())
            } else {
                Err(format!(
                    "{name}.{field} must be between {} and {}, not {}",
                    crate::text::Num(lo),
                    crate::text::Num(hi),
                    crate::text::Num(v)
                ))
            }
        };
        let p = MAX_PARAM;
        match *self {
            TimeFn::Constant { value } => check("value", value, -p, p),
            TimeFn::Linear { start, rate } => {
                check("start", start, -p, p)?;
                check("rate", rate, -p, p)
            }
            TimeFn::Sine {
                offset,
                amplitude,
                frequency,
                phase,
            } => {
                check("offset", offset, -p, p)?;
                check("amplitude", amplitude, -p, p)?;
                check("frequency", frequency, 0.0, MAX_FREQUENCY)?;
                check("phase", phase, -1e6, 1e6)
            }
            TimeFn::Ramp { value, time } => {
                check("value", value, -p, p)?;
                check("time", time, 1e-9, 1e9)
            }
            TimeFn::RampSpeed { rate, time } => {
                check("rate", rate, -p, p)?;
                check("time", time, 1e-9, 1e9)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramp_is_smooth_and_reaches_its_value() {
        let f = TimeFn::Ramp {
            value: 2.0,
            time: 0.5,
        };
        assert_eq!(f.at(0.0), 0.0);
        assert_eq!(f.at(0.5), 2.0);
        assert_eq!(f.at(3.0), 2.0);
        assert!((f.at(0.25) - 1.0).abs() < 1e-15);
        // the slope at both ends is zero: a finite difference of O(dt)
        assert!((f.at(1e-6) - f.at(0.0)) / 1e-6 < 1e-4);
    }

    #[test]
    fn derivatives_match_finite_differences() {
        let fs = [
            TimeFn::Linear {
                start: 0.3,
                rate: -2.0,
            },
            TimeFn::Sine {
                offset: 0.1,
                amplitude: 0.7,
                frequency: 1.3,
                phase: 0.4,
            },
            TimeFn::Ramp {
                value: 2.0,
                time: 0.8,
            },
            TimeFn::RampSpeed {
                rate: 5.0,
                time: 0.8,
            },
        ];
        let e = 1e-5;
        for f in fs {
            for t in [0.1, 0.5, 0.79, 1.3] {
                let d1 = (f.at(t + e) - f.at(t - e)) / (2.0 * e);
                let d2 = (f.rate(t + e) - f.rate(t - e)) / (2.0 * e);
                assert!(
                    (d1 - f.rate(t)).abs() < 1e-7,
                    "{f:?} at {t}: {d1} vs {}",
                    f.rate(t)
                );
                assert!(
                    (d2 - f.accel(t)).abs() < 1e-6,
                    "{f:?} at {t}: {d2} vs {}",
                    f.accel(t)
                );
            }
        }
        // the speed ramp is continuous with its constant-speed part
        let f = TimeFn::RampSpeed {
            rate: 5.0,
            time: 0.8,
        };
        assert!((f.at(0.8) - 5.0 * 0.4).abs() < 1e-15 && f.at(0.0) == 0.0 && f.rate(0.0) == 0.0);
    }

    #[test]
    fn bad_parameters_are_named() {
        let e = TimeFn::Sine {
            offset: 0.0,
            amplitude: 1.0,
            frequency: 1e300,
            phase: 0.0,
        }
        .validate("forces[2].time")
        .unwrap_err();
        assert!(e.contains("forces[2].time.frequency"), "{e}");
        let e = TimeFn::Constant { value: f64::NAN }
            .validate("x")
            .unwrap_err();
        assert!(e.contains("x.value") && e.contains("NaN"), "{e}");
    }
}
