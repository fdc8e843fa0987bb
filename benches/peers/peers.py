#!/usr/bin/env python3
"""Peer benchmark: MuJoCo RK4 against Tumble's director on the same hanging chains.

Run through ``bash benches/peers/run.sh`` (which creates the virtual environment with the
pinned MuJoCo); the options below pass through.  For each scenario this script

* writes the MJCF of the chain (the geometry of ``hanging_chain`` in
  crates/tumble/src/scenario.rs: boxes 1 x 0.5 x 3 m, 12 kg, J = diag(9.25, 10, 1.25) about
  the centre, joints at local z = +-1.5, body 1 hung from the ground point at the origin,
  revolute axes along x, gravity 9.81 along -z; no contacts, no damping, armature or limits;
  timestep 0.01, integrator RK4),
* checks that it is the same physical system as Tumble's: the initial energy equal to
  Tumble's to 1e-9 (relative), and the body centres at t = 1 s close to Tumble's
  (to the integrators' accuracy; at h = 0.001 as well, to show the gap closing),
* times MuJoCo's mj_step (RK4, nstep steps in one C call, energy computation off) and
  ``tumble bench --integrators director --repeats 1`` on the same scenario, alternating
  (one timed run of each per round, --repeats rounds), so that both see the same load;
  it reports the medians and the median of the rounds' ratios,
* computes each one's max relative energy error over the run (MuJoCo: a separate, untimed
  run with mjENBL_ENERGY and mj_forward after each step; Tumble: the bench's own column),
* prints the table and the issue's targets, met or missed.

Exit status: 0 when the model checks pass (the speed targets are reported, not enforced),
1 when a model check fails.
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

import mujoco
import numpy as np

SIZE = (1.0, 0.5, 3.0)
MASS = 12.0
HALF = 1.5
GRAVITY = 9.81


def box_inertia(m, s):
    sx, sy, sz = (v * v for v in s)
    return (m / 12.0 * (sy + sz), m / 12.0 * (sz + sx), m / 12.0 * (sx + sy))


INERTIA = box_inertia(MASS, SIZE)  # (9.25, 10.0, 1.25)


def scenario_angles(name):
    """The angles from the vertical (about x) of each body, as in scenario.rs `build`."""
    if name == "nk-revolute":
        a = math.pi / 4
        return [a, a, 3 * a, 3 * a]
    if name.startswith("chain?"):
        params = dict(kv.split("=") for kv in name.split("?", 1)[1].split("&"))
        extra = set(params) - {"links"}
        if extra:
            raise SystemExit(f"peers.py builds only revolute chains at the default angle, not {name}")
        return [math.pi / 4] * int(params["links"])
    raise SystemExit(f"peers.py knows nk-revolute and chain?links=N, not {name}")


def rot_x(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def mjcf(angles, dt):
    """The chain as a MuJoCo body tree, each hinge at its body's top end (local z = +1.5).

    Every body frame is at its centre of mass with the body's rotation; a child's pose is
    given relative to its parent, so qpos = 0 is the initial configuration (as in Tumble:
    body k's top is at its parent's bottom, body 1's top at the origin)."""
    ix, iy, iz = INERTIA
    lines = [
        '<mujoco model="tumble-chain">',
        f'  <option timestep="{dt!r}" integrator="RK4" gravity="0 0 {-GRAVITY!r}">',
        '    <flag contact="disable" energy="enable"/>',
        "  </option>",
        "  <worldbody>",
    ]
    top = np.zeros(3)
    prev_x, prev_r, prev_a = np.zeros(3), np.eye(3), 0.0
    half = np.array([0.0, 0.0, HALF])
    for k, a in enumerate(angles):
        r = rot_x(a)
        x = top - r @ half
        pos = [float(v) for v in prev_r.T @ (x - prev_x)]  # in the parent's frame
        rel = a - prev_a  # the relative rotation is about x as well
        quat = (math.cos(rel / 2), math.sin(rel / 2), 0.0, 0.0)
        ind = "    " + "  " * k
        lines.append(
            f'{ind}<body name="b{k}" pos="{pos[0]!r} {pos[1]!r} {pos[2]!r}" '
            f'quat="{quat[0]!r} {quat[1]!r} {quat[2]!r} {quat[3]!r}">'
        )
        lines.append(
            f'{ind}  <inertial pos="0 0 0" mass="{MASS!r}" diaginertia="{ix!r} {iy!r} {iz!r}"/>'
        )
        lines.append(f'{ind}  <joint name="j{k}" type="hinge" pos="0 0 {HALF!r}" axis="1 0 0"/>')
        prev_x, prev_r, prev_a = x, r, a
        top = x - r @ half
    for k in reversed(range(len(angles))):
        lines.append("    " + "  " * k + "</body>")
    lines += ["  </worldbody>", "</mujoco>"]
    return "\n".join(lines)


def model(name, dt):
    m = mujoco.MjModel.from_xml_string(mjcf(scenario_angles(name), dt))
    assert m.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4
    assert m.nbody == len(scenario_angles(name)) + 1 and m.nv == m.nbody - 1
    assert not m.dof_armature.any() and not m.dof_damping.any() and not m.jnt_limited.any()
    return m


def energy(m, d):
    """Total energy of the current state (mj_forward computes it with mjENBL_ENERGY)."""
    mujoco.mj_forward(m, d)
    return float(d.energy[0] + d.energy[1])


def tumble_run(tumble, name, dt, duration):
    out = subprocess.run(
        [tumble, "run", name, "--integrator", "director", "--dt", repr(dt), "--duration", repr(duration)],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def tumble_bench(tumble, name, steps, repeats, dt=0.01):
    # --format json: one object a row with named fields, which a renamed table column leaves be
    out = subprocess.run(
        [tumble, "bench", "--scenarios", name, "--integrators", "director", "--dt", repr(dt),
         "--steps", str(steps), "--repeats", str(repeats), "--format", "json"],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    row = json.loads(out[0])
    if "error" in row:
        raise SystemExit(f"tumble bench {name}: {row['error']}")
    return {"bodies": row["bodies"], "us": row["us_per_step"], "its": row["its_per_step"], "de": row["max_rel_balance"]}


def check_model(tumble, name):
    """Same physical system: E0 equal, and the body centres at t = 1 s close."""
    ok = True
    m = model(name, 0.01)
    d = mujoco.MjData(m)
    e0 = energy(m, d)
    t0 = tumble_run(tumble, name, 0.01, 0.0)["samples"][0]
    rel = abs(e0 - t0["energy"]) / abs(t0["energy"])
    x0 = max(
        float(np.max(np.abs(d.xipos[k + 1] - np.array(b["position"]))))
        for k, b in enumerate(t0["bodies"])
    )
    ok &= rel < 1e-9 and x0 < 1e-12
    print(f"  {name}: E0 MuJoCo {e0:.9f} J, Tumble {t0['energy']:.9f} J, rel. diff {rel:.1e}; "
          f"initial centres differ by {x0:.1e} m")
    for h in (0.01, 0.001):
        m = model(name, h)
        d = mujoco.MjData(m)
        mujoco.mj_forward(m, d)
        n = round(1.0 / h)
        mujoco.mj_step(m, d, nstep=n)
        mujoco.mj_forward(m, d)
        t1 = tumble_run(tumble, name, h, 1.0)["samples"][-1]
        assert abs(t1["t"] - 1.0) < 1e-9 and abs(d.time - 1.0) < 1e-9
        diff = max(
            float(np.linalg.norm(d.xipos[k + 1] - np.array(b["position"])))
            for k, b in enumerate(t1["bodies"])
        )
        tip = d.xipos[len(t1["bodies"])]
        print(f"    t = 1 s, h = {h}: largest distance between the body centres {diff:.2e} m "
              f"(tip centre MuJoCo [{tip[1]:.6f}, {tip[2]:.6f}] in y, z)")
        # the director is second order: 1e-2 at h = 0.01 would already be a different system
        ok &= diff < (1e-2 if h == 0.01 else 1e-3)
    return ok


def mujoco_timer(name, steps):
    """A function timing one run of `steps` MuJoCo RK4 steps from the initial state (us/step)."""
    m = model(name, 0.01)
    m.opt.enableflags &= ~int(mujoco.mjtEnableBit.mjENBL_ENERGY)  # timed without the diagnostic
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, nstep=min(steps, 50))  # warm up

    def run():
        mujoco.mj_resetData(m, d)
        t = time.perf_counter()
        mujoco.mj_step(m, d, nstep=steps)
        us = (time.perf_counter() - t) / steps * 1e6
        if not np.isfinite(d.qpos).all():
            raise SystemExit(f"MuJoCo {name}: non-finite state")
        return us

    return run


def mujoco_energy_error(name, steps):
    m = model(name, 0.01)
    d = mujoco.MjData(m)
    e0 = energy(m, d)
    de = 0.0
    for _ in range(steps):
        mujoco.mj_step(m, d)
        de = max(de, abs((energy(m, d) - e0) / e0))
    return de


def centres_at_1s_mujoco(name, h):
    """MuJoCo RK4's body centres at t = 1 s with step h, and its time per step (us)."""
    m = model(name, h)
    m.opt.enableflags &= ~int(mujoco.mjtEnableBit.mjENBL_ENERGY)
    d = mujoco.MjData(m)
    n = round(1.0 / h)
    t = time.perf_counter()
    mujoco.mj_step(m, d, nstep=n)
    us = (time.perf_counter() - t) / n * 1e6
    mujoco.mj_forward(m, d)
    return np.array(d.xipos[1:]), us


def work_precision(tumble, names, hs=(0.02, 0.01, 0.005, 0.0025, 0.00125), h_ref=1e-5, rounds=3):
    """Position error at t = 1 s against a fine reference (MuJoCo RK4 at h_ref: fourth order, so
    its own error is far below the others') versus the time a simulated second costs, for
    MuJoCo RK4 and the director over a range of h. The faster of `rounds` timings of each."""
    print()
    print(f"Work-precision: largest distance of a body centre from the reference at t = 1 s (MuJoCo RK4 at h = {h_ref}),")
    print("against the time per simulated second (the faster of the rounds); smaller is better in both")
    print(f"{'scenario':<16} {'h (s)':>8} {'RK4 error (m)':>14} {'RK4 ms/s':>9} {'dir error (m)':>14} {'dir ms/s':>9}")
    for name in names:
        ref, _ = centres_at_1s_mujoco(name, h_ref)
        for h in hs:
            n = round(1.0 / h)
            mj_us, dir_us = [], []
            for _ in range(rounds):
                x, us = centres_at_1s_mujoco(name, h)
                mj_us.append(us)
                dir_us.append(tumble_bench(tumble, name, n, 1, dt=h)["us"])
            t1 = tumble_run(tumble, name, h, 1.0)["samples"][-1]
            xd = np.array([b["position"] for b in t1["bodies"]])
            e_mj = float(np.max(np.linalg.norm(x - ref, axis=1)))
            e_dir = float(np.max(np.linalg.norm(xd - ref, axis=1)))
            print(f"{name:<16} {h:>8} {e_mj:>14.2e} {min(mj_us) * n / 1000:>9.3f} {e_dir:>14.2e} {min(dir_us) * n / 1000:>9.3f}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenarios", default="nk-revolute,chain?links=4,chain?links=16,chain?links=64,chain?links=256")
    p.add_argument("--steps", type=int, default=1000, help="steps per timed run (h = 0.01: 1000 = 10 s)")
    p.add_argument("--repeats", type=int, default=15, help="rounds (one timed run of each per round)")
    p.add_argument("--tumble", default=os.environ.get("TUMBLE", "target/release/tumble"))
    p.add_argument("--skip-checks", action="store_true")
    p.add_argument("--work-precision", action="store_true",
                   help="also the work-precision table: error at t = 1 s against cost per simulated second over a range of h")
    a = p.parse_args()
    names = a.scenarios.split(",")

    print(f"MuJoCo {mujoco.__version__}; Tumble: {a.tumble}; "
          f"{a.steps} steps of h = 0.01, {a.repeats} rounds; load average {os.getloadavg()[0]:.2f}")
    ok = True
    if not a.skip_checks:
        print("Model check (same physical system):")
        for name in names:
            ok &= check_model(a.tumble, name)
        if not ok:
            print("FAIL: the MuJoCo model differs from Tumble's")

    # MuJoCo and Tumble alternate, one timed run each per round, so that both see the same
    # load on a shared machine; the ratio is the median of the rounds' ratios
    rows = []
    for name in names:
        mj = mujoco_timer(name, a.steps)
        tm, tt, its, de_t = [], [], 0.0, 0.0
        for _ in range(a.repeats):
            t = tumble_bench(a.tumble, name, a.steps, 1)
            tt.append(t["us"])
            its, de_t = t["its"], max(de_t, t["de"])
            tm.append(mj())
        de_m = mujoco_energy_error(name, a.steps)
        ratios = [x / y for x, y in zip(tm, tt)]
        rows.append(dict(name=name, n=t["bodies"], mj=statistics.median(tm), mj_min=min(tm),
                         dir=statistics.median(tt), dir_min=min(tt), ratio=statistics.median(ratios),
                         rlo=min(ratios), rhi=max(ratios), its=its, de_m=de_m, de_t=de_t))

    print()
    print(f"{'scenario':<16} {'bodies':>6} {'MuJoCo RK4':>10} {'director':>9} {'MuJoCo/dir':>10} "
          f"{'(range)':>13} {'RK4 min':>8} {'dir min':>8} {'min/min':>7} {'its/step':>8} {'RK4 max|dE/E|':>13} {'dir max|dE/E|':>13}")
    print(f"{'':<16} {'':>6} {'us/step':>10} {'us/step':>9}")
    for r in rows:
        rng = f"({r['rlo']:.2f}-{r['rhi']:.2f})"
        print(f"{r['name']:<16} {r['n']:>6} {r['mj']:>10.2f} {r['dir']:>9.2f} {r['ratio']:>10.2f} {rng:>13} "
              f"{r['mj_min']:>8.2f} {r['dir_min']:>8.2f} {r['mj_min'] / r['dir_min']:>7.2f} {r['its']:>8.2f} {r['de_m']:>13.2e} {r['de_t']:>13.2e}")
    print("us/step: median of the rounds; MuJoCo/dir: median (range) of the rounds' ratios, > 1 when the")
    print(f"director is faster; min: the fastest round (min/min: their ratio, the least disturbed estimate). Load average now {os.getloadavg()[0]:.2f} (2 cores: > 2 is loaded).")

    print()
    print("Targets, judged on min/min (the fastest round of each; on a loaded machine the")
    print("median ratio mixes in other processes' load): MuJoCo RK4 / director >= 1.5 from 4 to 64 links")
    print("(nk-revolute included), >= 6 at 256 links, at the same h:")
    for r in rows:
        need = 6.0 if r["n"] >= 256 else 1.5
        mm = r["mj_min"] / r["dir_min"]
        print(f"  {'MET   ' if mm >= need else 'MISSED'} {r['name']}: {mm:.2f}x "
              f"(median of rounds {r['ratio']:.2f}x; needs >= {need:g}x)")
    if a.work_precision:
        work_precision(a.tumble, names)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
