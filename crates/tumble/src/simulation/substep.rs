//! Sub-stepping through contact: a step of a system with collision shapes or joint limits is
//! taken whole when it converges and resolves its contacts and stops (`forces/resolve.rs`:
//! omega h <= 1/4 for a stop, as for a contact), else again from its start as 2, 4, ... and at most
//! [`MAX_SUBSTEPS`] equal sub-steps: the fewest that do.
//!
//! ```text
//! resolved   contact::resolved at the start of the step and the end of every sub-step h_s
//!            (both ends: an impact can begin and end within a step): each touching contact rings
//!            at most a quarter radian a sub-step (omega h_s <= 1/4, omega^2 = F_e'(d) / m; its
//!            damping takes at most half the speed) and no sphere pair closes by more
//!            than half the smaller radius in one (so none passes through another)
//! stops      a pressed stop at rest is let through whole (`forces/resolve.rs`: still, pressed
//!            at the sub-step's start too, and pressed and still at its end; the stops' marks
//!            at each checked state, `Marks`, saved and restored with the state)
//! accepted   the first n = 1, 2, 4, ..., MAX_SUBSTEPS whose start resolves at h / n and whose
//!            n steps of h / n all converge and resolve; at MAX_SUBSTEPS converged sub-steps are
//!            accepted as they are
//! on error   the state before the step (saved once a step, copied into storage made at the
//!            start: no allocation), the step size as it was
//! ```
//! Why: a stiff contact needs steps short against its own period (a 10 cm rubber ball hitting
//! the ground at 14 m/s rings at 790 rad/s: a step of 0.01 s sees the impact in one step, where
//! the director's Newton fails and RATTLE and Baumgarte leave with fifteen times the energy),
//! but only for the few steps an impact lasts. The rule reads the state alone, so it is
//! deterministic: the page and the command line take the same sub-steps and reach the same
//! state hash; and a step that needs none is the step it was, bit for bit (the stored hashes of
//! the contact presets hold). Each sub-step keeps the method's own properties (the director's
//! exact energy balance holds through them).
use super::solver::{Saved, Solver};
use super::Simulation;
use crate::step::{StepError, StepInfo};

/// Most sub-steps of one step.
pub const MAX_SUBSTEPS: u32 = 1024;

impl Simulation {
    /// One step of `h` of a system with contact, in as many sub-steps as its contacts need (see
    /// the module); on error nothing changes.
    pub(super) fn step_resolved(&mut self, h: f64) -> Result<StepInfo, StepError> {
        self.save();
        // the start must be resolved too (the end of each sub-step is checked as it is taken):
        // a step that begins inside an impact and ends clear of it would pass unseen. A start
        // that the last step, taken whole at this h, already checked at its end (the same
        // state, the same pairs) is not checked again: the same answer, half of RATTLE's
        // checks in the ball pit (`benches/README.md` section 6)
        let mut n = 1;
        if self.resolved_at != Some((self.steps, h)) {
            while n < MAX_SUBSTEPS && !self.resolved(h / n as f64, false) {
                n *= 2;
            }
        }
        self.marks.save();
        loop {
            match self.sub_steps(h, n) {
                Ok(Some(info)) => {
                    self.substeps = n;
                    // taken whole: its end was checked at h (`sub_steps`)
                    self.resolved_at = (n == 1).then_some((self.steps + 1, h));
                    return Ok(info);
                }
                Ok(None) => {}
                Err(e) if n >= MAX_SUBSTEPS => {
                    self.restore();
                    return Err(e);
                }
                Err(_) => {}
            }
            self.restore();
            n *= 2;
        }
    }

    /// `n` steps of `h / n`: their summed iterations and largest residual, or None when one
    /// leaves a contact unresolved (below [`MAX_SUBSTEPS`]); the step size is `h` again after.
    fn sub_steps(&mut self, h: f64, n: u32) -> Result<Option<StepInfo>, StepError> {
        let hs = h / n as f64;
        self.settings.dt = hs;
        let mut sum = StepInfo::default();
        for _ in 0..n {
            let info = match self.solve() {
                Ok(info) => info,
                Err(e) => {
                    self.settings.dt = h;
                    return Err(e);
                }
            };
            sum.iterations += info.iterations;
            sum.residual = sum.residual.max(info.residual);
            if n < MAX_SUBSTEPS && !self.resolved(hs, true) {
                self.settings.dt = h;
                return Ok(None);
            }
        }
        self.settings.dt = h;
        Ok(Some(sum))
    }

    /// Whether the contacts and stops at the current state are resolved by steps of `h` (`end`:
    /// the state ends a sub-step; `forces/resolve.rs`); if so its stops' marks are kept.
    fn resolved(&mut self, h: f64, end: bool) -> bool {
        let mut states = core::mem::take(&mut self.scratch);
        let mut marks = core::mem::take(&mut self.marks);
        self.body_states(&mut states);
        let f = self.force_state();
        let ok = crate::contact::resolved(
            &self.compiled.contacts,
            &f.broad,
            &self.compiled.model,
            &states,
            h,
        ) && (!self.compiled.has_limits
            || crate::forces::resolve::resolved(
                &self.compiled.model,
                (&self.compiled.force_frames, &states, &f.angles),
                (h, matches!(self.solver, Solver::Director(..)), end),
                &mut marks,
            ));
        if ok {
            marks.commit();
        }
        self.scratch = states;
        self.marks = marks;
        ok
    }

    fn save(&mut self) {
        match (&self.solver, &mut self.saved) {
            (Solver::Director(s, _), Some(Saved::Director(b))) => b.assign(s),
            (Solver::Rattle(s, _), Some(Saved::Rattle(b))) => b.assign(s),
            (Solver::Baumgarte(s, _), Some(Saved::Baumgarte(b))) => b.assign(s),
            (solver, slot) => *slot = Some(Saved::of(solver)),
        }
    }

    fn restore(&mut self) {
        self.marks.restore();
        match (&mut self.solver, &self.saved) {
            (Solver::Director(s, _), Some(Saved::Director(b))) => s.assign(b),
            (Solver::Rattle(s, _), Some(Saved::Rattle(b))) => s.assign(b),
            (Solver::Baumgarte(s, _), Some(Saved::Baumgarte(b))) => s.assign(b),
            _ => unreachable!("restore follows save"),
        }
    }
}
