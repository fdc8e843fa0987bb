//! Energy-momentum director integrator (Nielsen & Krenk 2013). Placeholder until issue 3 lands.
use crate::model::{BodyState, Model};
use crate::simulation::{Settings, StepError, StepInfo};
use alloc::string::{String, ToString};

/// Director integrator state.
pub struct Director;

impl Director {
    /// Not available yet.
    pub fn new(_model: &Model, _init: &[BodyState]) -> Result<Self, String> {
        Err("the director integrator is not built yet".to_string())
    }
    /// Not available yet.
    pub fn step(&mut self, _model: &Model, _settings: &Settings) -> Result<StepInfo, StepError> {
        Err(StepError::Singular)
    }
    /// Not available yet.
    pub fn body_states(&self, _model: &Model, _out: &mut [BodyState]) {}
    /// Not available yet.
    pub fn internal_violation(&self) -> f64 {
        0.0
    }
}
