//! The study's report: errors against the reference, observed orders, the long runs; JSON or
//! CSV (README, "Convergence studies").
use super::record::{poses_from_file, Pose, Record};
use super::{Role, Study};
use crate::{json_num, json_str};
use std::fmt::Write as _;

/// The length that weighs rotation errors against position errors (m).
const LENGTH_SCALE: f64 = 1.0;
const ERROR_DEFINITION: &str = "error = max over bodies k of max(|x_k - x_k_ref|, L ||R_k - R_k_ref||_F) at t = T, with L = 1 m (x the centre, R the rotation; error_position and error_rotation are the two parts)";
const ENERGY_DEFINITION: &str = "max_energy_error = max over steps of |E - E0| / |E0|; momentum_drift[k] = max over steps of |l_k - l_k(0)| (kg m^2/s) for each component the model conserves (null if not); violations are max over steps";

/// Position and rotation errors, max over bodies (NaN if the body counts differ).
fn pose_error(a: &[Pose], b: &[Pose]) -> (f64, f64) {
    if a.len() != b.len() {
        return (f64::NAN, f64::NAN);
    }
    a.iter()
        .zip(b)
        .fold((0.0f64, 0.0f64), |(p, q), ((xa, ra), (xb, rb))| {
            let d = *ra - *rb;
            let fro =
                (d.x_axis.length_squared() + d.y_axis.length_squared() + d.z_axis.length_squared())
                    .sqrt();
            (p.max((*xa - *xb).length()), q.max(LENGTH_SCALE * fro))
        })
}

/// log2 of successive error ratios (None where an error is missing or zero).
fn orders(errors: &[f64]) -> Vec<Option<f64>> {
    errors
        .windows(2)
        .map(|w| {
            (w[0] > 0.0 && w[1] > 0.0 && w[0].is_finite() && w[1].is_finite())
                .then(|| (w[0] / w[1]).log2())
        })
        .collect()
}

fn opt_num(x: Option<f64>) -> String {
    x.map_or("null".into(), json_num)
}

/// A CSV field: quoted when it holds a comma or a quote.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// log10 of (max energy error over the last decade of time) / (max over the decade before):
/// about 0 for a bounded error, 1 for a linear drift (NaN if the run is shorter than 100 steps).
fn energy_growth(r: &Record) -> f64 {
    let t = r.t;
    let max_in = |lo: f64, hi: f64| {
        r.series
            .iter()
            .filter(|p| p[0] > lo && p[0] <= hi)
            .map(|p| p[1])
            .fold(f64::NAN, f64::max)
    };
    (max_in(t / 10.0, t) / max_in(t / 100.0, t / 10.0)).log10()
}

pub(crate) fn report(s: &Study, records: &[Record]) -> Result<(), String> {
    let find = |role: Role| {
        s.specs
            .iter()
            .position(|p| p.role == role)
            .map(|i| &records[i])
    };
    let (reference, source): (Option<Vec<Pose>>, String) = match &s.reference_file {
        Some(path) => (
            Some(poses_from_file(path, s.duration)?),
            format!("file {path}"),
        ),
        None => {
            let r = find(Role::Reference).unwrap();
            let src = format!(
                "director at h = min H0 / 2^(K+3) = {:e} s, Newton tolerance {:e}",
                r.settings.dt, r.settings.tol
            );
            (r.failed.is_none().then(|| r.bodies.clone()), src)
        }
    };
    let reference_failed = match &s.reference_file {
        None => find(Role::Reference).unwrap().failed.clone(),
        Some(_) => None,
    };
    // the reference's own error, estimated from the check run at twice its step
    let estimate = match (find(Role::ReferenceCheck), &reference) {
        (Some(c), Some(r)) if c.failed.is_none() => {
            let (p, q) = pose_error(&c.bodies, r);
            Some(p.max(q) / 3.0)
        }
        _ => None,
    };
    // per integrator: rows of (h, record, error, position, rotation)
    let mut tables = vec![];
    for (i, &m) in s.methods.iter().enumerate() {
        let mut rows = vec![];
        for l in 0..s.levels {
            let r = find(Role::Level(i, l)).unwrap();
            let (p, q) = match (&reference, &r.failed) {
                (Some(reference), None) => pose_error(&r.bodies, reference),
                _ => (f64::NAN, f64::NAN),
            };
            rows.push((r, p.max(q), p, q));
        }
        let errors: Vec<f64> = rows.iter().map(|r| r.1).collect();
        tables.push((i, m, rows, orders(&errors)));
    }
    let finest = tables
        .iter()
        .map(|t| t.2.last().unwrap().1)
        .filter(|e| e.is_finite())
        .fold(f64::NAN, f64::min);
    let ratio = estimate.map(|e| finest / e);
    if let Some(r) = ratio.filter(|r| *r < 100.0) {
        eprintln!("tumble study: warning: the reference is only {r:.1} times more accurate than the finest level (estimated); a larger --levels makes the reference finer too");
    }
    let longs: Vec<&Record> = (0..s.methods.len())
        .filter_map(|i| find(Role::Long(i)))
        .collect();

    let mut out = String::new();
    if s.csv {
        let _ = writeln!(
            out,
            "# tumble study {}; T = {} s; {ERROR_DEFINITION}; {ENERGY_DEFINITION}",
            s.scenario.canonical(),
            s.duration
        );
        let _ = writeln!(out, "# reference: {source}; failed: {}; estimated error {}; finest error / reference error {}", reference_failed.as_deref().unwrap_or("no"), opt_num(estimate), opt_num(ratio));
        out.push_str("integrator,level,h,steps,steps_done,failed,error,error_position,error_rotation,order,max_energy_error,l1_drift,l2_drift,l3_drift,max_joint_violation,max_internal_violation,mean_iterations,wall_seconds,wall_per_step\n");
        for (_, m, rows, ord) in &tables {
            for (l, (r, e, p, q)) in rows.iter().enumerate() {
                let d = r
                    .momentum_drift
                    .map(|d| d.map_or(String::new(), |x| format!("{x:?}")));
                let _ = writeln!(
                    out,
                    "{},{l},{:?},{},{},{},{},{},{},{},{:?},{},{},{},{:?},{:?},{:?},{:?},{:?}",
                    m.name(),
                    r.settings.dt,
                    r.steps,
                    r.steps_done,
                    csv_field(r.failed.as_deref().unwrap_or("")),
                    json_num(*e).replace("null", ""),
                    json_num(*p).replace("null", ""),
                    json_num(*q).replace("null", ""),
                    if l == 0 {
                        String::new()
                    } else {
                        ord[l - 1].map_or(String::new(), |o| format!("{o:?}"))
                    },
                    r.max_energy_error,
                    d[0],
                    d[1],
                    d[2],
                    r.max_joint_violation,
                    r.max_internal_violation,
                    r.mean_iterations,
                    r.wall_seconds,
                    r.wall_seconds / r.steps_done.max(1) as f64
                );
            }
        }
        if !longs.is_empty() {
            out.push_str("\nintegrator,dt,t,energy_error,joint_violation,internal_violation\n");
            for r in &longs {
                for p in &r.series {
                    let _ = writeln!(
                        out,
                        "{},{:?},{:?},{:?},{:?},{:?}",
                        r.integrator, r.settings.dt, p[0], p[1], p[2], p[3]
                    );
                }
            }
        }
        print!("{out}");
        return Ok(());
    }
    let _ = write!(
        out,
        "{{\"scenario\":{},\"duration\":{},\"long_duration\":{},\"levels\":{},\"error_definition\":{},\"length_scale\":{},\"energy_definition\":{},",
        json_str(&s.scenario.canonical()), json_num(s.duration), json_num(s.long), s.levels, json_str(ERROR_DEFINITION),
        json_num(LENGTH_SCALE), json_str(ENERGY_DEFINITION)
    );
    let _ = write!(
        out,
        "\"reference\":{{\"source\":{},\"failed\":{},\"estimated_error\":{},\"estimate\":\"|reference-check - reference| / 3, the check run being the director at twice the reference step\",\"finest_error_over_reference_error\":{}}},\"integrators\":[",
        json_str(&source), reference_failed.as_deref().map_or("null".into(), json_str), opt_num(estimate), opt_num(ratio)
    );
    for (k, (i, m, rows, ord)) in tables.iter().enumerate() {
        let _ = write!(
            out,
            "{}{{\"integrator\":\"{}\",\"h0\":{},\"orders\":[{}],\"runs\":[",
            if k > 0 { "," } else { "" },
            m.name(),
            json_num(s.h0[*i]),
            ord.iter()
                .map(|o| opt_num(*o))
                .collect::<Vec<_>>()
                .join(",")
        );
        for (l, (r, e, p, q)) in rows.iter().enumerate() {
            let _ = write!(
                out,
                "{}{{\"h\":{},\"steps\":{},\"steps_done\":{},\"failed\":{},\"error\":{},\"error_position\":{},\"error_rotation\":{},\"max_energy_error\":{},\"momentum_drift\":[{}],\"max_joint_violation\":{},\"max_internal_violation\":{},\"mean_iterations\":{},\"wall_seconds\":{},\"wall_per_step\":{}}}",
                if l > 0 { "," } else { "" }, json_num(r.settings.dt), r.steps, r.steps_done,
                r.failed.as_deref().map_or("null".into(), json_str),
                json_num(*e), json_num(*p), json_num(*q), json_num(r.max_energy_error),
                r.momentum_drift.iter().map(|d| opt_num(*d)).collect::<Vec<_>>().join(","),
                json_num(r.max_joint_violation), json_num(r.max_internal_violation), json_num(r.mean_iterations),
                json_num(r.wall_seconds), json_num(r.wall_seconds / r.steps_done.max(1) as f64)
            );
        }
        out.push_str("]}");
    }
    out.push_str("],\"long\":[");
    for (k, r) in longs.iter().enumerate() {
        let _ = write!(
            out,
            "{}{{\"integrator\":{},\"dt\":{},\"duration\":{},\"steps_done\":{},\"failed\":{},\"max_energy_error\":{},\"max_joint_violation\":{},\"energy_growth\":{},\"series_fields\":[\"t\",\"energy_error\",\"joint_violation\",\"internal_violation\"],\"series\":[{}],\"wall_seconds\":{}}}",
            if k > 0 { "," } else { "" }, json_str(&r.integrator), json_num(r.settings.dt), json_num(r.duration), r.steps_done,
            r.failed.as_deref().map_or("null".into(), json_str), json_num(r.max_energy_error), json_num(r.max_joint_violation),
            json_num(energy_growth(r)),
            r.series.iter().map(|p| format!("[{}]", p.map(json_num).join(","))).collect::<Vec<_>>().join(","),
            json_num(r.wall_seconds)
        );
    }
    let _ = writeln!(out, "],\"long_grid\":\"t = h round(10^(j/20)): 20 points per decade, each value the max since the previous point; energy_growth = log10 of the max energy error over the last decade of time over that of the decade before (about 0 bounded, 1 linear drift)\"}}");
    print!("{out}");
    Ok(())
}
