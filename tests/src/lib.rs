//! Independent references shared by the physics tests.

/// The compound pendulum of `chain?links=1&joint=revolute&angle=theta0` in its one minimal
/// coordinate: I_p theta'' = -M g d sin(theta), I_p = J1 + M d^2, integrated by classical RK4
/// with `steps` steps to `t_end`. Returns theta(t_end); the centre of mass is then at
/// (0, d sin theta, -d cos theta).
pub fn pendulum_rk4(theta0: f64, t_end: f64, steps: usize) -> f64 {
    let (m, g, d, j1) = (12.0, 9.81, 1.5, 9.25);
    let k = m * g * d / (j1 + m * d * d);
    let f = |th: f64, om: f64| (om, -k * th.sin());
    let h = t_end / steps as f64;
    let (mut th, mut om) = (theta0, 0.0);
    for _ in 0..steps {
        let (a1, b1) = f(th, om);
        let (a2, b2) = f(th + 0.5 * h * a1, om + 0.5 * h * b1);
        let (a3, b3) = f(th + 0.5 * h * a2, om + 0.5 * h * b2);
        let (a4, b4) = f(th + h * a3, om + h * b3);
        th += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
        om += h / 6.0 * (b1 + 2.0 * b2 + 2.0 * b3 + b4);
    }
    th
}

/// Observed orders log2(e_k / e_k+1) for errors at halving steps.
pub fn observed_orders(errors: &[f64]) -> Vec<f64> {
    errors.windows(2).map(|w| (w[0] / w[1]).log2()).collect()
}
