//! Nothing is allocated inside a step: every integrator's scratch space is allocated
//! once, when the simulation starts. A counting global allocator (this file only: each
//! integration-test file is its own binary) counts the allocations made during `step()`.
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tumble::{Method, Scenario, Settings, Simulation};

struct Counting;

thread_local! {
    /// Allocations on this thread while counting is on (None: off).
    static COUNT: Cell<Option<u64>> = const { Cell::new(None) };
}

fn note() {
    // `try_with`: the allocator may run while the thread-local is being torn down
    let _ = COUNT.try_with(|c| {
        if let Some(n) = c.get() {
            c.set(Some(n + 1));
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    COUNT.with(|c| c.set(Some(0)));
    let out = f();
    let n = COUNT.with(|c| c.replace(None)).unwrap();
    (out, n)
}

#[test]
fn the_counter_counts() {
    let (_, n) = allocations(|| std::hint::black_box(vec![1.0f64; 8]));
    assert_eq!(n, 1);
}

/// Each integrator on presets with and without joints, trees and fallback steps (nk-spherical
/// at h = 0.1 makes the director take some steps by its full Newton solve): after a warm-up
/// step, 50 steps allocate nothing.
#[test]
fn steps_allocate_nothing() {
    let cases = [
        ("free-body", None),
        ("top", None),
        ("nk-revolute", None),
        ("nk-spherical", Some(0.05)),
        ("chain?links=64&joint=spherical", None),
        // contact: plane contacts with friction, sphere pairs, a box's corners
        ("bouncing-ball?height=0.01&speed=1&spin=-20", None),
        ("newtons-cradle", Some(1e-3)),
        // sphere pairs without joints: the director's coupled centres (director/coupled.rs)
        ("ball-pit?balls=64", None),
        ("incline", None),
        // capsule pairs (`contact/capsule.rs`): a sphere and a capsule resting across a
        // capsule welded to the ground
        (
            r#"{"gravity":[0,0,-9.81],"bodies":[
                {"mass":1,"inertia":[0.0155,0.0155,0.00125],"rotation":[[0,0,1],[0,1,0],[-1,0,0]],"shapes":[{"type":"capsule","radius":0.05,"half_length":0.2}]},
                {"mass":0.5,"inertia":[5e-4,5e-4,5e-4],"position":[0.1,0,0.0999],"shapes":[{"type":"sphere","radius":0.05}]},
                {"mass":1,"inertia":[0.0155,0.0155,0.00125],"position":[-0.1,0,0.0999],"rotation":[[1,0,0],[0,0,1],[0,-1,0]],"shapes":[{"type":"capsule","radius":0.05,"half_length":0.2}]}],
                "joints":[{"type":"fixed","a":null,"point_a":[0,0,0],"b":0,"point_b":[0,0,0]}],
                "contact":{"material":{"restitution":0.5}}}"#,
            Some(1e-3),
        ),
        // a closed loop: a body hinged to the ground twice (the loop rows' Schur complement,
        // 5 redundant rows)
        (
            r#"{"bodies": [{"mass": 12, "inertia": [9.25, 10, 1.25], "position": [0, 0, -1.5], "velocity": [0, 1.5, 0], "angular_velocity": [1, 0, 0]}],
                "joints": [{"type": "revolute", "point_a": [-0.5, 0, 0], "b": 0, "point_b": [-0.5, 0, 1.5]},
                           {"type": "revolute", "point_a": [0.5, 0, 0], "b": 0, "point_b": [0.5, 0, 1.5]}]}"#,
            None,
        ),
        // force elements, drives and the sliding joints: springs, dampers, a motor,
        // an angle drive on a closed loop with a prismatic joint, a slide drive, Andrews'
        // three loops with a motor and a spring
        ("driven-pendulum", None),
        ("spring-pendulum", None),
        ("slider-crank?spring=40&piston_damping=0.5", None),
        ("slider-crank?speed=0", None),
        ("kapitza", None),
        ("andrews", None),
        // stiff spring-dampers as rows of the director's Newton solve (at the step RATTLE and
        // Baumgarte need; the director still takes them as rows there)
        ("governor", Some(2.5e-5)),
        // distance joints and a distance driver (a 1-row joint)
        ("crane", None),
    ];
    for m in Method::ALL {
        for (text, dt) in cases {
            let sc = Scenario::parse(text).unwrap();
            let mut st = Settings::for_scenario(&sc);
            if let Some(dt) = dt {
                st.dt = dt;
            }
            let mut sim = Simulation::new(&sc, m, st).unwrap();
            sim.step().unwrap();
            let (ok, n) = allocations(|| (0..50).all(|_| sim.step().is_ok()));
            assert!(ok, "{} on {text}: a step failed", m.name());
            assert_eq!(n, 0, "{} on {text}: {n} allocations in 50 steps", m.name());
        }
    }
    // the director's fallback to the full solve allocates nothing either
    let sc = Scenario::parse("nk-spherical").unwrap();
    let mut sim = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).unwrap();
    sim.step().unwrap();
    let (_, n) = allocations(|| {
        for _ in 0..300 {
            sim.step().unwrap();
        }
    });
    assert!(sim.fallbacks() > 0, "no fallback step was taken");
    assert_eq!(
        n, 0,
        "director with fallbacks: {n} allocations in 300 steps"
    );
    // the joint reactions, after their first call made their scratch space
    let sc = Scenario::parse("slider-crank").unwrap();
    let mut sim = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).unwrap();
    let mut out = [0.0; 24];
    sim.reactions(&mut out).unwrap();
    let (_, n) = allocations(|| {
        for _ in 0..20 {
            sim.step().unwrap();
            sim.reactions(&mut out).unwrap();
        }
    });
    assert_eq!(n, 0, "reactions: {n} allocations in 20 steps");
}

/// The state hash and one body's state (the page reads them once per history sample) allocate
/// nothing, with every integrator.
#[test]
fn state_hash_and_body_state_allocate_nothing() {
    let sc = Scenario::parse("chain?links=8&joint=spherical").unwrap();
    for m in Method::ALL {
        let mut sim = Simulation::new(&sc, m, Settings::for_scenario(&sc)).unwrap();
        sim.step().unwrap();
        let (h, n) = allocations(|| {
            let x: f64 = (0..8).map(|b| sim.body_state(b).x.z).sum();
            (sim.state_hash(), x)
        });
        std::hint::black_box(h);
        assert_eq!(n, 0, "{}: {n} allocations", m.name());
    }
}

/// A study's run (tumble::study::Run: the CLI's `tumble study` and the page's Study view)
/// measures every step (energy, momentum, violations, the log-grid series) without allocating
/// either: after the first step, 2000 measured steps of each integrator allocate nothing.
#[test]
fn study_runs_allocate_nothing_per_step() {
    let sc = Scenario::parse("nk-revolute").unwrap();
    for m in Method::ALL {
        let mut run = tumble::study::Run::new(&sc, m, Settings::for_scenario(&sc), 30.0);
        assert_eq!(run.advance(1), 1);
        let (taken, n) = allocations(|| run.advance(2000));
        assert_eq!(taken, 2000, "{}: the run stopped early", m.name());
        assert_eq!(n, 0, "{}: {n} allocations in 2000 measured steps", m.name());
        let rec = run.finish();
        assert!(
            rec.series.len() > 40,
            "{}: {} grid points",
            m.name(),
            rec.series.len()
        );
    }
}
