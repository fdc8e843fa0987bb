//! The force elements and contacts in a director step: the broad phase at the step's start
//! (`contact/step.rs`: the plane probes within reach, the pairs), and at each Newton iterate their
//! generalised forces, the step's work and dissipation (`forces.rs`, `contact.rs`) and
//! the stiffness the tangent takes from the contacts and joint limits.
use super::{forces, Ctx};
use crate::model::Model;

impl Ctx<'_> {
    /// The force elements' generalised forces at the current iterate `q1` (into `fext`), with
    /// the step's work, dissipation and angles (see `forces.rs`). Nothing without elements.
    pub(super) fn element_forces(&mut self, h: f64) {
        if !self.c.model.has_elements() {
            return;
        }
        self.w.budget = forces::evaluate(
            self.c,
            &self.s.q,
            &self.w.q1,
            &self.s.forces.angles,
            &mut self.w.angles1,
            self.s.forces.t,
            h,
            &mut self.w.fext,
        );
        if self.stiff_elements() {
            for st in self.w.stiff.iter_mut() {
                *st = super::stiffness::Stiffness::default();
            }
            self.w.couple.clear();
        }
        if !self.c.contacts.list.is_empty() || self.s.forces.broad.busy() {
            let step = super::contact::Step {
                qn: &self.s.q,
                q1: &self.w.q1,
                h,
            };
            let mut out = super::contact::Sinks {
                g: &mut self.w.fext,
                stiff: &mut self.w.stiff,
                couple: &mut self.w.couple,
            };
            self.w.budget.dissipated += super::contact::evaluate(
                &self.c.contacts,
                &mut self.s.forces.broad,
                &step,
                (&self.s.forces.contact, &mut self.w.slots1),
                &mut out,
            );
        }
        if self.c.has_springs {
            let (q, rows) = ((&self.s.q[..], &self.w.q1[..]), &self.w.springs.list);
            forces::spring_stiffness(self.c, q, h, rows, &mut self.w.stiff);
        }
        if self.c.has_limits || self.c.has_springs {
            let (q, rows) = ((&self.s.q[..], &self.w.q1[..]), &self.w.springs.list);
            let at = (&self.w.angles1[..], h);
            if self.c.has_limits {
                forces::limit_stiffness(self.c, q, at, rows, &mut self.w.stiff);
            }
            // the tendons' stops and armatures
            super::tendons::limit_stiffness(self.c, q, at, rows, &mut self.w.stiff);
        }
    }

    /// Whether the tangent takes the contacts', joint limits' and stiff springs' stiffness
    /// (`stiff`).
    pub(super) fn stiff_elements(&self) -> bool {
        !self.c.contacts.list.is_empty()
            || !self.c.contacts.colliders.list.is_empty()
            || self.c.has_limits
            || self.c.has_springs
    }

    /// The sphere pairs that may touch in a step of `h` from the current state (`contact/step.rs`).
    pub(super) fn sweep(&mut self, model: &Model, h: f64) {
        if self.c.contacts.list.is_empty() && self.c.contacts.colliders.list.is_empty() {
            return;
        }
        self.s.body_states(model, &mut self.w.states);
        let f = &mut self.s.forces;
        f.dissipated += self
            .c
            .contacts
            .sweep(&self.w.states, h, &f.contact, &mut f.broad);
    }
}
