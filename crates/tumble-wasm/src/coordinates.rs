//! The joints' coordinates of a drawn state (`tumble::coordinates`: each hinge's angle and each
//! slide, measured from the start, as MuJoCo's qpos holds them), for the page's coordinate
//! panel: read from the poses the page holds of every run (Tumble's, MuJoCo's, a scrubbed
//! moment's), compiled once per system.
use glam::{DMat3, DVec3};
use tumble::coordinates::Reader;
use tumble::model::BodyState;
use tumble::Scenario;
use wasm_bindgen::prelude::*;

/// Reads the coordinates of one scenario's joints from poses.
#[wasm_bindgen]
pub struct Coordinates {
    reader: Reader,
    /// scratch: the poses as body states
    states: Vec<BodyState>,
}

#[wasm_bindgen]
impl Coordinates {
    /// For `scenario` (a preset text or system JSON), measured from its start.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario: &str) -> Result<Coordinates, JsError> {
        let sc = Scenario::parse(scenario).map_err(|e| JsError::new(&e.0))?;
        Ok(Coordinates {
            reader: Reader::new(&sc.model, &sc.initial),
            states: sc.initial,
        })
    }

    /// Each coordinate's label: the joint's name (or "joint k"), with the coordinate's own
    /// where the joint has several ("root: slide 1").
    pub fn labels(&self) -> Vec<String> {
        self.reader.list().iter().map(|c| c.label.clone()).collect()
    }

    /// Each coordinate's unit: "rad" for an angle, "m" for a slide.
    pub fn units(&self) -> Vec<String> {
        self.reader.list().iter().map(|c| c.unit().into()).collect()
    }

    /// The coordinates at `poses` (12 numbers a body: the centre, then the directors, the
    /// columns of R) into `out`, one each; angles unwrapped against `out`'s values (keep one
    /// `out` per run, 0 at first). Allocates nothing.
    pub fn read(&mut self, poses: &[f64], out: &mut [f64]) {
        for (s, p) in self.states.iter_mut().zip(poses.chunks_exact(12)) {
            s.x = DVec3::new(p[0], p[1], p[2]);
            s.r = DMat3::from_cols_slice(&p[3..12]);
        }
        self.reader.read(&self.states, out);
    }
}
