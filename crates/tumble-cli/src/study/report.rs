//! The study's report: errors against the reference, observed orders, the long runs; JSON or
//! CSV (docs/cli.md, "Convergence studies"). Computed and written by tumble::study::Report, which
//! the page's Study view uses too; here only the reference file is read and the result printed.
use super::record::{poses_from_file, Record};
use super::Study;
use crate::out::out;
use tumble::study::{Reference, Report};

pub(crate) fn report(s: &Study, records: &[Record]) -> Result<(), String> {
    let reference = match &s.reference_file {
        Some(path) => Reference::Given(
            format!("file {path}"),
            poses_from_file(path, s.plan.duration)?,
        ),
        None => Reference::Computed,
    };
    let r = Report::new(&s.plan, &s.scenario.canonical(), records, reference);
    if let Some(w) = r.warning() {
        eprintln!("tumble study: warning: {w}");
    }
    out!("{}", if s.csv { r.to_csv() } else { r.to_json() });
    Ok(())
}
