//! The report of a study: errors against the reference, observed orders, the long runs, as
//! JSON or CSV ([`Report`]).
use super::plan::*;
use super::run::*;
use crate::Method;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write as _;

/// log2 of successive error ratios (None where an error is missing or zero).
pub fn orders(errors: &[f64]) -> Vec<Option<f64>> {
    errors
        .windows(2)
        .map(|w| {
            (w[0] > 0.0 && w[1] > 0.0 && w[0].is_finite() && w[1].is_finite())
                .then(|| libm::log2(w[0] / w[1]))
        })
        .collect()
}

/// log10 of (max energy error over the last decade of time) / (max over the decade before):
/// about 0 for a bounded error, 1 for a linear drift (NaN if the run is shorter than 100 steps).
pub fn energy_growth(r: &Record) -> f64 {
    let t = r.t;
    let max_in = |lo: f64, hi: f64| {
        r.series
            .iter()
            .filter(|p| p[0] > lo && p[0] <= hi)
            .map(|p| p[1])
            .fold(f64::NAN, f64::max)
    };
    libm::log10(max_in(t / 10.0, t) / max_in(t / 100.0, t / 10.0))
}

/// A number for the CSV and its comment lines: `{:?}` (reads back to the same bits), `null`
/// when missing or not finite.
fn csv_num(x: Option<f64>) -> String {
    match x {
        Some(x) if x.is_finite() => format!("{x:?}"),
        _ => "null".into(),
    }
}

/// A number for JSON: None (null) when not finite.
fn fin(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// A CSV field: quoted when it holds a comma or a quote.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One level of one integrator in the report.
#[derive(Clone, Debug)]
pub struct Row<'a> {
    /// the run's record
    pub record: &'a Record,
    /// error, position part, rotation part (NaN for a failed run or reference)
    pub error: f64,
    /// max over bodies of |x - x_ref| (m)
    pub error_position: f64,
    /// max over bodies of L ||R - R_ref||_F (m)
    pub error_rotation: f64,
}

/// One integrator's levels and observed orders.
#[derive(Clone, Debug)]
pub struct Table<'a> {
    /// index into the plan's methods
    pub index: usize,
    /// the integrator
    pub method: Method,
    /// one row per level
    pub rows: Vec<Row<'a>>,
    /// log2(error(h) / error(h/2)) of successive levels
    pub orders: Vec<Option<f64>>,
}

/// A study's report: the errors against the reference, the orders and the long runs.
#[derive(Clone, Debug)]
pub struct Report<'a> {
    plan: &'a Plan,
    scenario: String,
    /// where the reference comes from
    pub source: String,
    /// why the computed reference failed, if it did
    pub reference_failed: Option<String>,
    /// the reference's own error, estimated from the check run
    pub estimate: Option<f64>,
    /// finest error / estimated reference error
    pub ratio: Option<f64>,
    /// per integrator
    pub tables: Vec<Table<'a>>,
    /// the long runs
    pub longs: Vec<&'a Record>,
}

/// The reference of a report: computed by the plan's reference runs, or given.
pub enum Reference {
    /// the plan's reference runs
    Computed,
    /// poses at T from elsewhere, with a description of the source
    Given(String, Vec<Pose>),
}

impl<'a> Report<'a> {
    /// The report of `plan` on the scenario with canonical text `scenario`, from `records`
    /// (one per spec of the plan, in its order).
    pub fn new(
        plan: &'a Plan,
        scenario: &str,
        records: &'a [Record],
        reference: Reference,
    ) -> Report<'a> {
        let find = |role: Role| plan.find(role).map(|i| &records[i]);
        let (poses, source, reference_failed): (Option<Vec<Pose>>, String, Option<String>) =
            match reference {
                Reference::Given(source, poses) => (Some(poses), source, None),
                Reference::Computed => {
                    let r = find(Role::Reference).expect("the plan has a reference run");
                    let src = format!(
                        "director at h = min H0 / 2^(K+3) = {:e} s, Newton tolerance {:e}",
                        r.settings.dt, r.settings.tol
                    );
                    (
                        r.failed.is_none().then(|| r.bodies.clone()),
                        src,
                        r.failed.clone(),
                    )
                }
            };
        // the reference's own error, estimated from the check run at twice its step
        let estimate = match (find(Role::ReferenceCheck), &poses) {
            (Some(c), Some(r)) if c.failed.is_none() => {
                let (p, q) = pose_error(&c.bodies, r);
                Some(p.max(q) / 3.0)
            }
            _ => None,
        };
        let mut tables = vec![];
        for (i, &m) in plan.methods.iter().enumerate() {
            let mut rows = vec![];
            for l in 0..plan.levels {
                let r = find(Role::Level(i, l)).expect("the plan has every level");
                let (p, q) = match (&poses, &r.failed) {
                    (Some(reference), None) => pose_error(&r.bodies, reference),
                    _ => (f64::NAN, f64::NAN),
                };
                rows.push(Row {
                    record: r,
                    error: p.max(q),
                    error_position: p,
                    error_rotation: q,
                });
            }
            let errors: Vec<f64> = rows.iter().map(|r| r.error).collect();
            tables.push(Table {
                index: i,
                method: m,
                rows,
                orders: orders(&errors),
            });
        }
        let finest = tables
            .iter()
            .map(|t| t.rows.last().unwrap().error)
            .filter(|e| e.is_finite())
            .fold(f64::NAN, f64::min);
        let ratio = estimate.map(|e| finest / e);
        let longs = (0..plan.methods.len())
            .filter_map(|i| find(Role::Long(i)))
            .collect();
        Report {
            plan,
            scenario: scenario.to_string(),
            source,
            reference_failed,
            estimate,
            ratio,
            tables,
            longs,
        }
    }

    /// A warning when the reference is less than 100 times more accurate than the finest level.
    pub fn warning(&self) -> Option<String> {
        self.ratio.filter(|r| *r < 100.0).map(|r| {
            format!("the reference is only {r:.1} times more accurate than the finest level (estimated); a larger --levels makes the reference finer too")
        })
    }

    /// The report as CSV (docs/cli.md, "Convergence studies").
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# tumble study {}; T = {} s; {ERROR_DEFINITION}; {ENERGY_DEFINITION}",
            self.scenario, self.plan.duration
        );
        let _ = writeln!(
            out,
            "# reference: {}; failed: {}; estimated error {}; finest error / reference error {}",
            self.source,
            self.reference_failed.as_deref().unwrap_or("no"),
            csv_num(self.estimate),
            csv_num(self.ratio)
        );
        out.push_str("integrator,level,h,steps,steps_done,failed,error,error_position,error_rotation,order,max_energy_error,l1_drift,l2_drift,l3_drift,max_joint_violation,max_internal_violation,mean_iterations,wall_seconds,wall_per_step\n");
        for t in &self.tables {
            for (l, row) in t.rows.iter().enumerate() {
                let r = row.record;
                let d = r
                    .momentum_drift
                    .map(|d| d.map_or(String::new(), |x| format!("{x:?}")));
                let _ = writeln!(
                    out,
                    "{},{l},{:?},{},{},{},{},{},{},{},{:?},{},{},{},{:?},{:?},{:?},{:?},{:?}",
                    t.method.name(),
                    r.settings.dt,
                    r.steps,
                    r.steps_done,
                    csv_field(r.failed.as_deref().unwrap_or("")),
                    csv_num(Some(row.error)).replace("null", ""),
                    csv_num(Some(row.error_position)).replace("null", ""),
                    csv_num(Some(row.error_rotation)).replace("null", ""),
                    if l == 0 {
                        String::new()
                    } else {
                        t.orders[l - 1].map_or(String::new(), |o| format!("{o:?}"))
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
        if !self.longs.is_empty() {
            out.push_str("\nintegrator,dt,t,energy_error,joint_violation,internal_violation\n");
            for r in &self.longs {
                for p in &r.series {
                    let _ = writeln!(
                        out,
                        "{},{:?},{:?},{:?},{:?},{:?}",
                        r.integrator, r.settings.dt, p[0], p[1], p[2], p[3]
                    );
                }
            }
        }
        out
    }

    /// The report as JSON, one line (docs/cli.md, "Convergence studies"), written by serde from the
    /// structs below; non-finite numbers are null.
    pub fn to_json(&self) -> String {
        let s = self.plan;
        let series = |r: &Record| r.series.iter().map(|p| p.map(fin)).collect();
        let doc = ReportDoc {
            scenario: &self.scenario,
            duration: s.duration,
            long_duration: s.long,
            levels: s.levels,
            error_definition: ERROR_DEFINITION,
            length_scale: LENGTH_SCALE,
            energy_definition: ENERGY_DEFINITION,
            reference: ReferenceDoc {
                source: &self.source,
                failed: self.reference_failed.as_deref(),
                estimated_error: self.estimate.and_then(fin),
                estimate: ESTIMATE_DEFINITION,
                finest_error_over_reference_error: self.ratio.and_then(fin),
            },
            integrators: self
                .tables
                .iter()
                .map(|t| TableDoc {
                    integrator: t.method.name(),
                    h0: fin(s.h0[t.index]),
                    orders: t.orders.iter().map(|o| o.and_then(fin)).collect(),
                    runs: t
                        .rows
                        .iter()
                        .map(|row| {
                            let r = row.record;
                            RowDoc {
                                h: fin(r.settings.dt),
                                steps: r.steps,
                                steps_done: r.steps_done,
                                failed: r.failed.as_deref(),
                                error: fin(row.error),
                                error_position: fin(row.error_position),
                                error_rotation: fin(row.error_rotation),
                                max_energy_error: fin(r.max_energy_error),
                                momentum_drift: r.momentum_drift.map(|d| d.and_then(fin)),
                                max_joint_violation: fin(r.max_joint_violation),
                                max_internal_violation: fin(r.max_internal_violation),
                                mean_iterations: fin(r.mean_iterations),
                                wall_seconds: fin(r.wall_seconds),
                                wall_per_step: fin(r.wall_seconds / r.steps_done.max(1) as f64),
                            }
                        })
                        .collect(),
                })
                .collect(),
            long: self
                .longs
                .iter()
                .map(|r| LongDoc {
                    integrator: &r.integrator,
                    dt: fin(r.settings.dt),
                    duration: fin(r.duration),
                    steps_done: r.steps_done,
                    failed: r.failed.as_deref(),
                    max_energy_error: fin(r.max_energy_error),
                    max_joint_violation: fin(r.max_joint_violation),
                    energy_growth: fin(energy_growth(r)),
                    series_fields: SERIES_FIELDS,
                    series: series(r),
                    wall_seconds: fin(r.wall_seconds),
                })
                .collect(),
            long_grid: LONG_GRID,
        };
        let mut out = serde_json::to_string(&doc).expect("a report is numbers and strings");
        out.push('\n');
        out
    }
}

/// The fields of a run's series.
const SERIES_FIELDS: [&str; 4] = ["t", "energy_error", "joint_violation", "internal_violation"];

#[derive(serde::Serialize)]
struct ReportDoc<'a> {
    scenario: &'a str,
    duration: f64,
    long_duration: f64,
    levels: usize,
    error_definition: &'static str,
    length_scale: f64,
    energy_definition: &'static str,
    reference: ReferenceDoc<'a>,
    integrators: Vec<TableDoc<'a>>,
    long: Vec<LongDoc<'a>>,
    long_grid: &'static str,
}

#[derive(serde::Serialize)]
struct ReferenceDoc<'a> {
    source: &'a str,
    failed: Option<&'a str>,
    estimated_error: Option<f64>,
    estimate: &'static str,
    finest_error_over_reference_error: Option<f64>,
}

#[derive(serde::Serialize)]
struct TableDoc<'a> {
    integrator: &'static str,
    h0: Option<f64>,
    orders: Vec<Option<f64>>,
    runs: Vec<RowDoc<'a>>,
}

#[derive(serde::Serialize)]
struct RowDoc<'a> {
    h: Option<f64>,
    steps: u64,
    steps_done: u64,
    failed: Option<&'a str>,
    error: Option<f64>,
    error_position: Option<f64>,
    error_rotation: Option<f64>,
    max_energy_error: Option<f64>,
    momentum_drift: [Option<f64>; 3],
    max_joint_violation: Option<f64>,
    max_internal_violation: Option<f64>,
    mean_iterations: Option<f64>,
    wall_seconds: Option<f64>,
    wall_per_step: Option<f64>,
}

#[derive(serde::Serialize)]
struct LongDoc<'a> {
    integrator: &'a str,
    dt: Option<f64>,
    duration: Option<f64>,
    steps_done: u64,
    failed: Option<&'a str>,
    max_energy_error: Option<f64>,
    max_joint_violation: Option<f64>,
    energy_growth: Option<f64>,
    series_fields: [&'static str; 4],
    series: Vec<[Option<f64>; 4]>,
    wall_seconds: Option<f64>,
}
