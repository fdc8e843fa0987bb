//! RATTLE's external forces at a state: the force elements' and the contacts' continuous forms
//! (`forces/continuous.rs`, `contact/continuous.rs`), gathered per body for the kicks.
use super::state::Workspace;
use crate::compiled::Compiled;
use crate::model::BodyState;
use glam::DVec3;

/// The force elements' and contacts' forces and torques at the states `s` (time `t`, the
/// joint springs' angles and the contacts' friction state) into `ws.ext`; returns their powers.
pub(super) fn element_forces(
    c: &Compiled,
    s: &[BodyState],
    (angles, slots, broad): (
        &[f64],
        &[crate::contact::PlaneFriction],
        &crate::contact::StepState,
    ),
    t: f64,
    ws: &mut Workspace,
) -> crate::forces::Power {
    let mut p = elements(c, s, angles, t, ws);
    if !c.contacts.list.is_empty() || !broad.pairs.is_empty() {
        p.dissipation += crate::contact::continuous::add_world(
            &c.contacts,
            broad,
            s,
            slots,
            &mut ws.force,
            &mut ws.torque,
        );
    }
    for ((e, f), tau) in ws.ext.iter_mut().zip(&ws.force).zip(&ws.torque) {
        *e = (*f, *tau);
    }
    p
}

/// The force elements' and contacts' powers at the states `s` (as [`element_forces`], whose
/// forces the caller does not need: the contacts' friction is not evaluated).
pub(super) fn element_power(
    c: &Compiled,
    s: &[BodyState],
    (angles, broad): (&[f64], &crate::contact::StepState),
    t: f64,
    ws: &mut Workspace,
) -> crate::forces::Power {
    let mut p = elements(c, s, angles, t, ws);
    if !c.contacts.list.is_empty() || !broad.pairs.is_empty() {
        p.dissipation += crate::contact::continuous::power(&c.contacts, broad, s);
    }
    p
}

/// The force elements' forces and torques alone at `s` into `ws.force` and `ws.torque` (zeroed
/// first); their powers.
fn elements(
    c: &Compiled,
    s: &[BodyState],
    angles: &[f64],
    t: f64,
    ws: &mut Workspace,
) -> crate::forces::Power {
    ws.force.iter_mut().for_each(|f| *f = DVec3::ZERO);
    ws.torque.iter_mut().for_each(|f| *f = DVec3::ZERO);
    crate::forces::add_world(
        &c.model,
        &c.force_frames,
        s,
        angles,
        t,
        &mut ws.force,
        &mut ws.torque,
    )
}
