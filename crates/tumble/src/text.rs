//! Numbers and counts in messages, written as a person writes them: "between 0.01 and 1",
//! "between 0 and 1e12", "there are 3 joints, numbered 0 to 2".
use alloc::format;
use alloc::string::String;

/// A number for a message, by one rule:
///
/// - 0, and magnitudes from 1e-4 up to (not including) 1e6: the shortest decimal that reads
///   back to the same f64 (`0`, `0.01`, `1`, `10`, `-0.25`, `123456.5`, `0.30000000000000004`);
/// - smaller or larger magnitudes: the shortest mantissa that reads back to the same f64, in
///   exponent form (`1e-9`, `2.5e-6`, `1e6`, `1e12`), so that 1e300 is not spelled out in 301
///   digits nor 1e-9 as 0.000000001;
/// - not finite: `NaN`, `inf`, `-inf`.
///
/// Either form parses back (`str::parse::<f64>`, JSON) to the very number printed.
pub struct Num(pub f64);

impl core::fmt::Display for Num {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let a = self.0.abs();
        if a == 0.0 || !a.is_finite() || (1e-4..1e6).contains(&a) {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{:e}", self.0)
        }
    }
}

/// "1 joint", "3 joints".
pub fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        _ => format!("{n} {many}"),
    }
}

/// How the elements of a list are numbered: "there are no joints", "there is 1 joint,
/// numbered 0", "there are 3 joints, numbered 0 to 2".
pub fn numbered(n: usize, one: &str, many: &str) -> String {
    match n {
        0 => format!("there are no {many}"),
        1 => format!("there is 1 {one}, numbered 0"),
        _ => format!("there are {n} {many}, numbered 0 to {}", n - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::Num;
    use alloc::format;

    fn text(v: f64) -> alloc::string::String {
        format!("{}", Num(v))
    }

    #[test]
    fn numbers_read_as_a_person_writes_them() {
        for (v, t) in [
            (0.01, "0.01"),
            (1.0, "1"),
            (0.0, "0"),
            (10.0, "10"),
            (-0.25, "-0.25"),
            (0.5, "0.5"),
            (1e3, "1000"),
            (1e-4, "0.0001"),
            (999_999.5, "999999.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            // outside 1e-4 ..< 1e6: exponent form
            (1e-9, "1e-9"),
            (2.5e-6, "2.5e-6"),
            (9.99e-5, "9.99e-5"),
            (1e6, "1e6"),
            (1e12, "1e12"),
            (-1e13, "-1e13"),
            (1e300, "1e300"),
            (f64::INFINITY, "inf"),
            (f64::NAN, "NaN"),
        ] {
            assert_eq!(text(v), t, "{v:?}");
        }
    }

    #[test]
    fn every_number_reads_back_to_itself() {
        for v in [
            0.01,
            1.0 / 3.0,
            2.5e-6,
            1e-9,
            1e12,
            6.02214076e23,
            123456.789,
            -7e-5,
        ] {
            assert_eq!(
                text(v).parse::<f64>().unwrap().to_bits(),
                v.to_bits(),
                "{v:?}"
            );
        }
    }
}
