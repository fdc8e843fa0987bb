// test-hook.js: window.tumble, a read-only hook into the running page for the browser tests
// (tests/e2e/): what the player, the renderer and the controls show, without reaching into the
// modules. The Study view adds its own (window.tumble.study, study.js) once it is shown.
import { buildQuery } from '../shared/url.js';
import { INV, NINV } from '../shared/invariants.js';
import { $, app } from './page.js';

/** The full page's hook, over player `p`. */
export function installPageHook(p) {
  window.tumble = {
    chartPoints: () => p.charts.points(),
    time: () => p.run.inv[INV.t],
    steps: () => p.run.steps, // the steps of the newest state the page holds (the view draws it at the next frame)
    chunk: () => p.chunkMax,
    draws: () => p.draws, // the 3-D views drawn since the load // the most steps one reply of the worker brought since the load
    energy: () => p.run.inv[INV.energy],
    hash: () => p.run.hash,
    settled: () => p.settled(),
    loading: () => p.loads > 0, // a reset or a new scenario is being loaded in the worker
    engine: () => p.engine.then((e) => e.constructor.name),
    shownHash: () => $('hash').textContent,
    error: () => ($('error').hidden ? null : $('error-text').textContent),
    notice: () => ($('notice').hidden ? null : $('notice-text').textContent),
    playing: () => p.playing,
    runs: () => p.runs.map((x) => [x.name, x.inv[INV.t], x.inv[INV.energy], x.error]),
    balances: () => p.runs.map((x) => x.inv[INV.balance]), // each run's E - E0 - W + D (J)
    arrows: () => ({ on: p.renderer.arrows.on, count: p.renderer.arrows.count, shown: !$('arrows-label').hidden }),
    // of the contact forces, how many the view drew, from what force to the largest (N)
    arrowsDrawn: () => ({ drawn: p.renderer.arrows.drawn, cut: p.renderer.arrows.cut, max: p.renderer.arrows.max }),
    meshes: () => p.renderer.shapes.own.map((m) => m.count / 3), // the triangles of each mesh shape drawn
    heights: (b) => p.runs.map((x) => x.poses[12 * b + 2]), // body b's centre's x3 (m) in each run
    poses: (b) => p.runs.map((x) => Array.from(x.poses.slice(12 * b, 12 * b + 12))), // body b's centre and directors in each run
    works: () => p.runs.map((x) => x.inv[INV.work]), // each run's W (J)
    // the invariants of the state shown (the NINV numbers, read by INV: shared/invariants.js)
    invariants: () => Array.from(p.shown().inv).slice(0, NINV),
    // each point-to-point spring of the state shown: its length (m), and the coil vertices drawn
    springs: () => {
      const s = p.shown().springs, out = [];
      for (let j = 0; j < s.length; j += 6) out.push(Math.hypot(s[j + 3] - s[j], s[j + 4] - s[j + 1], s[j + 5] - s[j + 2]));
      return { lengths: out, coilVerts: p.renderer.coilVerts, dashVerts: p.renderer.dashVerts, rodVerts: p.renderer.rodVerts };
    },
    scenario: () => app.settings.scenario,
    // a body's centre on the screen (client pixels), for the grab tests
    bodyOnScreen: (b) => p.renderer.camera.toScreen(p.run.poses[12 * b], p.run.poses[12 * b + 1], p.run.poses[12 * b + 2]),
    // a joint's point on the screen (client pixels), for the reaction chart's tests
    jointOnScreen: (j) => p.renderer.camera.toScreen(p.run.joints[3 * j], p.run.joints[3 * j + 1], p.run.joints[3 * j + 2]),
    pulled: () => !!p.run.pulled,
    // the joint whose reaction is charted (framed in white in the view), -1 for none
    chartedJoint: () => p.renderer.chartedJoint,
    // the view's rectangle and where every body's box corners and joint points are drawn in it
    // (client pixels, [left, top, right, bottom]), for the framing tests
    framing: () => {
      const r = p.renderer.camera, P = p.run.poses, S = p.run.sizes, J = p.run.joints, v = $('canvas').getBoundingClientRect();
      const box = [Infinity, Infinity, -Infinity, -Infinity];
      const add = ([x, y]) => { box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y); box[2] = Math.max(box[2], x); box[3] = Math.max(box[3], y); };
      for (let b = 0; b < S.length / 3; b++) {
        for (let c = 0; c < 8; c++) {
          const q = [0, 1, 2].map((k) => (c & (1 << k) ? 0.5 : -0.5) * S[3 * b + k]);
          const w = [0, 1, 2].map((i) => P[12 * b + i] + P[12 * b + 3 + i] * q[0] + P[12 * b + 6 + i] * q[1] + P[12 * b + 9 + i] * q[2]);
          add(r.toScreen(w[0], w[1], w[2]));
        }
      }
      for (let j = 0; j < J.length; j += 3) add(r.toScreen(J[j], J[j + 1], J[j + 2]));
      return { view: [v.left, v.top, v.right, v.bottom], shown: box };
    },
    // the ghosts drawn beside the main run: their colours as 0-255 [r, g, b]
    ghostColors: () => p.ghosts.map((g) => Array.from(g.color, (c) => Math.round(255 * c))),
    // the sliding joints' rails drawn, and each joint's mark (1 driven, 2 motor)
    rails: () => (p.renderer.rails ? p.renderer.rails.length / 7 : 0),
    jointMarks: () => Array.from(p.renderer.jointMarks ?? []),
    // the collision shapes' instances drawn (spheres and caps, cylinders, strings and stops,
    // boxes and plane tiles)
    shapes: () => ({ counts: Array.from(p.renderer.shapes.counts) }),
    // the first stop's bar as drawn (shapes.js stop): the hinge's and the bar's far end's client pixels
    stopOnScreen: () => {
      const S = p.renderer.shapes.stops, cam = p.renderer.camera, d = Number.isFinite(S[4]) ? 4 : 7, bar = 1.6 * S[10];
      return [cam.toScreen(S[1], S[2], S[3]), cam.toScreen(S[1] + bar * S[d], S[2] + bar * S[d + 1], S[3] + bar * S[d + 2])];
    },
    scrubGhosts: () => (p.scrub ? p.scrubShown.length : null), // the ghosts drawn at the scrubbed moment
    autoFrame: () => p.renderer.camera.auto, // several bodies on a plane kept framed as they move
    camera: () => ({ dist: p.renderer.camera.dist, target: [...p.renderer.camera.target], easing: p.renderer.camera.easing }),
    markerPx: () => p.renderer.camera.marker, // the joint markers' size drawn (CSS px)
    wallTop: () => p.renderer.shapes.wallTop, // how high walls on the floor are drawn (m; 0: whole planes)
    pick: (x, y) => p.renderer.camera.pick(x, y, p.run.poses, p.run.sizes)?.body ?? null,
    link: () => location.origin + location.pathname + buildQuery(app.settings),
    view: () => app.view,
    study: null, // the Study view's hook (study.js), once it is shown
  };
}

/** The embed's hook (`&embed=1`): element `el`, or only the error when the link was bad. */
export function installEmbedHook(el, error = null) {
  window.tumble = el
    ? { element: el, time: () => el.time, playing: () => el.playing, error: () => el.error, hash: () => el.stateHash, chartPoints: () => el.player?.charts?.points() ?? 0 }
    : { error: () => error };
}
