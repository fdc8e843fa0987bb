//! The start's check (`contact/start.rs`): spheres that start deeper in each other than a
//! quarter of the smaller radius are refused, naming the bodies, by a sweep that stops at the
//! first such pair: 4096 spheres started at one point (8.4 million overlapping pairs) are refused
//! with the first pair's message (natively 0.02 s and 13 MB, where building every pair took
//! 11.5 s and 4 GB: a figure for docs/performance.md, not a timed test). A deep pair hidden in a
//! field of separate spheres is found; a shallow one, or one the collision filter keeps apart,
//! is accepted.
use tumble::{Method, Scenario, Settings, Simulation};

/// Spheres of radius 0.1 m at `centres`, each with its filter (group, mask), on a floor.
fn spheres(centres: &[([f64; 3], u32, u32)]) -> Scenario {
    let bodies: Vec<String> = centres
        .iter()
        .map(|(c, g, m)| {
            format!(
                r#"{{"mass":1,"inertia":[0.004,0.004,0.004],"position":{c:?},
                   "shapes":[{{"type":"sphere","radius":0.1,"group":{g},"mask":{m}}}]}}"#
            )
        })
        .collect();
    Scenario::parse(&format!(
        r#"{{"bodies":[{}],"contact":{{"planes":[{{"point":[0,0,0],"normal":[0,0,1]}}]}}}}"#,
        bodies.join(",")
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

fn start(sc: &Scenario) -> Result<(), String> {
    Simulation::new(sc, Method::Rattle, Settings::for_scenario(sc)).map(|_| ())
}

#[test]
fn spheres_started_at_one_point_are_refused_naming_the_first_pair() {
    let sc = spheres(&vec![([0.0, 0.0, 1.0], 1, 1); 4096]);
    let e = start(&sc).unwrap_err();
    assert_eq!(e, "contact: the spheres of bodies 0 and 1 start 0.2 m inside each other, more than a quarter of the smaller radius (0.1 m): the contact would throw them apart; start them apart or touching");
}

#[test]
fn a_deep_pair_in_a_field_is_found_a_shallow_or_filtered_one_is_not() {
    // 400 spheres 0.3 m apart on a grid, then sphere 400 placed 0.05 m above sphere 137
    let mut list: Vec<([f64; 3], u32, u32)> = (0..400)
        .map(|k| ([0.3 * (k % 20) as f64, 0.3 * (k / 20) as f64, 0.5], 1, 1))
        .collect();
    let c = list[137].0;
    let at = |dz: f64| [c[0], c[1], c[2] + dz];
    list.push((at(0.05), 1, 1));
    let e = start(&spheres(&list)).unwrap_err();
    let head = "contact: the spheres of bodies 137 and 400 start ";
    let depth: f64 = e
        .strip_prefix(head)
        .and_then(|r| r.split(' ').next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("{e}"));
    assert!(
        (depth - 0.15).abs() < 1e-12 && e.contains("m inside each other"),
        "{e}"
    );
    // 0.19 m apart: 0.01 m deep, within a quarter of the radius: accepted
    list[400] = (at(0.19), 1, 1);
    start(&spheres(&list)).unwrap();
    // deep, but the filter keeps them apart (groups 2 and 4 against masks 1): accepted
    list[400] = (at(0.05), 2, 1);
    list[137].1 = 4;
    start(&spheres(&list)).unwrap();
}
