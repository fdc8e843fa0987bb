//! One sample of `tumble run` (JSON and NDJSON), and the names of the run's elements.
use serde::Serialize;
use tumble::model::{Model, Names};
use tumble::{Invariants, Simulation};

/// One sample of `tumble run`: the invariants, the energy budget (work W, dissipated D, the
/// balance E - E0 - W + D, in J), each joint's reaction (the force on its body b in N and the
/// torque on b about the joint's point in N m, world; absent without joints) and the poses.
#[derive(Serialize)]
pub(crate) struct Sample {
    t: f64,
    energy: f64,
    kinetic: f64,
    potential: f64,
    momentum: [f64; 3],
    internal_violation: f64,
    joint_violation: f64,
    iterations: u32,
    residual: f64,
    work: f64,
    dissipated: f64,
    balance: f64,
    /// the elastic energy of contacts and stops (J), a part of `potential`: in systems with
    /// collision shapes or joint limits only
    #[serde(skip_serializing_if = "Option::is_none")]
    contact: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reactions: Option<Vec<[f64; 6]>>,
    bodies: Vec<Pose>,
    /// the joints' coordinates (rad or m, from the start: the head's `coordinates` names them);
    /// absent where no joint has one
    #[serde(skip_serializing_if = "Option::is_none")]
    coordinates: Option<Vec<f64>>,
}

/// The joints' coordinates of a run (`tumble::coordinates`), followed step by step so that the
/// angles count their turns between samples: the reader, the values and the states' buffer.
pub(crate) struct Coords {
    reader: tumble::coordinates::Reader,
    values: Vec<f64>,
    states: Vec<tumble::model::BodyState>,
}

impl Coords {
    pub(crate) fn new(sim: &Simulation, sc: &tumble::Scenario) -> Coords {
        let reader = tumble::coordinates::Reader::new(&sc.model, &sc.initial);
        let values = vec![0.0; reader.list().len()];
        let mut c = Coords {
            reader,
            values,
            states: sc.initial.clone(),
        };
        c.follow(sim);
        c
    }

    /// Read the coordinates at the simulation's state (after each step).
    pub(crate) fn follow(&mut self, sim: &Simulation) {
        if !self.values.is_empty() {
            sim.body_states(&mut self.states);
            self.reader.read(&self.states, &mut self.values);
        }
    }

    /// The head's list: each coordinate's label and unit.
    pub(crate) fn head(&self) -> Option<Vec<CoordName>> {
        let list = self.reader.list();
        (!list.is_empty()).then(|| {
            list.iter()
                .map(|c| CoordName {
                    name: c.label.clone(),
                    unit: c.unit(),
                })
                .collect()
        })
    }
}

/// A coordinate in the run's head: its label (the joint's name, with the coordinate's own where
/// the joint has several) and its unit.
#[derive(Serialize)]
pub(crate) struct CoordName {
    name: String,
    unit: &'static str,
}

/// A body's name (when it has one), centre (m) and rotation (rows of the matrix mapping body
/// axes to global axes).
#[derive(Serialize)]
struct Pose {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    position: [f64; 3],
    rotation: [[f64; 3]; 3],
}

/// Whether `model` has collision shapes or stops (a run's samples then carry `contact`).
fn touches(model: &tumble::Model) -> bool {
    !model.contact.is_empty() || model.forces.iter().any(|f| f.is_stop())
}

impl Sample {
    pub(crate) fn new(inv: &Invariants, sim: &mut Simulation, coords: &Coords) -> Sample {
        let nj = sim.model().joints.len();
        let reactions = (nj > 0).then(|| {
            let mut r = vec![0.0; 6 * nj];
            if sim.reactions(&mut r).is_err() {
                return vec![];
            }
            r.chunks_exact(6)
                .map(|x| core::array::from_fn(|i| x[i]))
                .collect()
        });
        Sample {
            t: inv.t,
            energy: inv.energy(),
            kinetic: inv.kinetic,
            potential: inv.potential,
            momentum: inv.momentum.to_array(),
            internal_violation: inv.internal_violation,
            joint_violation: inv.joint_violation,
            iterations: inv.iterations,
            residual: inv.residual,
            work: inv.work,
            dissipated: inv.dissipated,
            balance: inv.balance,
            contact: touches(sim.model()).then_some(inv.contact),
            reactions,
            bodies: sim
                .states()
                .iter()
                .enumerate()
                .map(|(k, s)| Pose {
                    name: Names::of(&sim.model().names.bodies, k).map(String::from),
                    position: s.x.to_array(),
                    rotation: [0, 1, 2].map(|k| [s.r.x_axis[k], s.r.y_axis[k], s.r.z_axis[k]]),
                })
                .collect(),
            coordinates: (!coords.values.is_empty()).then(|| coords.values.clone()),
        }
    }
}

/// The names of a run's bodies, joints, force elements and drives, each list in the model's
/// order (so `names.joints[k]` names `reactions[k]`), `null` for an unnamed element: in the
/// run's head when any element is named.
#[derive(Serialize)]
pub(crate) struct RunNames {
    bodies: Vec<Option<String>>,
    joints: Vec<Option<String>>,
    forces: Vec<Option<String>>,
    drives: Vec<Option<String>>,
}

impl RunNames {
    pub(crate) fn of(model: &Model) -> Option<RunNames> {
        let n = &model.names;
        let list = |names: &[String], len: usize| {
            (0..len)
                .map(|i| Names::of(names, i).map(String::from))
                .collect()
        };
        (!n.is_empty()).then(|| RunNames {
            bodies: list(&n.bodies, model.bodies.len()),
            joints: list(&n.joints, model.joints.len()),
            forces: list(&n.forces, model.forces.len()),
            drives: list(&n.drives, model.drives.len()),
        })
    }
}
