//! Control schedules: `tumble run --control 'NAME=T:V,T:V,...'` (repeated, one per control) and
//! a share link's `control=` parameters in the same form. NAME is a control's name (its
//! motor's, as `tumble run`'s head lists them) or its index; each T:V holds the control at V
//! from time T (s) on, and a bare V is 0:V. A value takes effect at the start of step
//! round(T / h), the step the page's slider takes it at, so that a link replays the page's run
//! bit for bit. Every name, time and value is checked before the run starts, each message naming
//! the control.
use tumble::text::Num;
use tumble::Simulation;

/// A control's value from the start of step `step` on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    pub step: u64,
    pub control: usize,
    pub value: f64,
}

/// The events of `specs` (module notes) for `sim` at step `h`, in the order they apply.
pub fn schedule(specs: &[String], sim: &Simulation, h: f64) -> Result<Vec<Event>, String> {
    let model = sim.model();
    let names: Vec<String> = (0..model.controls.len())
        .map(|c| control_name(sim, c))
        .collect();
    let mut events = vec![];
    for spec in specs {
        let (who, list) = spec.split_once('=').ok_or_else(|| {
            format!("--control '{spec}': write NAME=VALUE or NAME=T:V,T:V,... (NAME a control's name or index)")
        })?;
        let c = names
            .iter()
            .position(|n| n == who)
            .or_else(|| who.parse::<usize>().ok().filter(|&c| c < names.len()))
            .ok_or_else(|| match names.len() {
                0 => format!("--control '{who}': this system has no controls (a motor's \"control\", docs/scenarios.md)"),
                _ => format!("--control '{who}': no such control; the controls are {}", quoted(&names)),
            })?;
        let ctl = model.controls[c];
        let mut last = -1.0;
        for item in list.split(',') {
            let (t, v) = item.split_once(':').unwrap_or(("0", item));
            let (t, v) = (number(who, "time", t)?, number(who, "value", v)?);
            if !(t >= 0.0 && t > last && t <= 1e6) {
                return Err(format!("--control '{who}': its times must start at 0 or later and increase, up to 1e6 s; {} does not", Num(t)));
            }
            if !(ctl.lower..=ctl.upper).contains(&v) {
                return Err(format!(
                    "--control '{who}': {} is not within its range [{}, {}]",
                    Num(v),
                    Num(ctl.lower),
                    Num(ctl.upper)
                ));
            }
            last = t;
            let step = (t / h).round() as u64;
            events.push(Event {
                step,
                control: c,
                value: v,
            });
        }
    }
    events.sort_by_key(|e| e.step);
    Ok(events)
}

/// Apply the events of `events[*next..]` due at the start of step `step` (0: the first).
pub fn apply(
    sim: &mut Simulation,
    events: &[Event],
    next: &mut usize,
    step: u64,
) -> Result<(), String> {
    while let Some(e) = events.get(*next).filter(|e| e.step <= step) {
        sim.set_control(e.control, e.value)?;
        *next += 1;
    }
    Ok(())
}

/// Control `c`'s name: its motor's, or its index.
fn control_name(sim: &Simulation, c: usize) -> String {
    let model = sim.model();
    tumble::model::Names::of(&model.names.forces, model.controls[c].element)
        .map_or_else(|| c.to_string(), String::from)
}

fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn number(who: &str, what: &str, text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("--control '{who}': its {what} '{text}' is not a finite number"))
}
