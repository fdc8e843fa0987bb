// www/view/camera.js under Node: several bodies over a plane kept framed as they move (ease):
// bodies spreading from a cluster (billiard balls after the break) stay in the view at every
// frame, the camera drawing back smoothly (no reversal, no jump); a scene that draws together (a
// chain piling up) is framed closer within about 4 s, its wider start kept while it hangs; a
// still scene leaves the camera still.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Camera, FOVY } from '../../www/view/camera.js';

const canvas = { clientWidth: 800, clientHeight: 500, addEventListener() {} };
const PLANE = new Float64Array([0, 0, 0, 0, 0, 1]); // the floor z = 0

// n balls of diameter d (m) on the floor, centres at (x, y) of `at(b)`
function scene(n, d, at) {
  const poses = new Float64Array(12 * n), sizes = new Float64Array(3 * n).fill(d);
  const place = () => {
    for (let b = 0; b < n; b++) {
      const [x, y] = at(b);
      poses.set([x, y, d / 2, 1, 0, 0, 0, 1, 0, 0, 0, 1], 12 * b);
    }
  };
  place();
  return { poses, sizes, place };
}

// whether world point p is drawn inside the view of camera c
function inView(c, p) {
  const cp = Math.cos(c.pitch), back = [cp * Math.cos(c.yaw), cp * Math.sin(c.yaw), Math.sin(c.pitch)];
  const f = back.map((x) => -x), right = [f[1], -f[0], 0].map((x, _, a) => x / Math.hypot(...a));
  const up = [right[1] * f[2] - right[2] * f[1], right[2] * f[0] - right[0] * f[2], right[0] * f[1] - right[1] * f[0]];
  const r = p.map((x, k) => x - c.target[k]), dot = (v) => r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
  const depth = c.dist - dot(back), t = Math.tan(FOVY / 2);
  return depth > 0 && Math.abs(dot(up)) / depth <= t && Math.abs(dot(right)) / depth <= t * canvas.clientWidth / canvas.clientHeight;
}

test('balls spreading from a cluster stay in the view at every frame, the camera drawing back smoothly', () => {
  const n = 16, speed = 1.0; // m/s, each ball outwards along its own direction
  let time = 0;
  const dir = (b) => [Math.cos(2.4 * b), Math.sin(2.4 * b)];
  const s = scene(n, 0.057, (b) => dir(b).map((u) => 0.05 * u + speed * time * u));
  const c = new Camera(canvas);
  c.scale = 0.2;
  c.target = [0, 0, 0];
  c.dist = 0.8;
  c.autoOn(PLANE, n, s.poses, s.sizes, new Float64Array(0));
  for (let frame = 0; frame < 60; frame++) c.ease(s.poses, s.sizes, new Float64Array(0), 1000 * (frame / 60 - 1)); // framed at rest
  const dists = [];
  for (let frame = 0; frame <= 120; frame++) { // 2 s at 60 frames a second
    time = frame / 60;
    s.place();
    c.ease(s.poses, s.sizes, new Float64Array(0), 1000 * time);
    dists.push(c.dist);
    {
      for (let b = 0; b < n; b++) assert.ok(inView(c, Array.from(s.poses.subarray(12 * b, 12 * b + 3))), `frame ${frame}: ball ${b} out of the view`);
    }
  }
  let worst = 0, jerk = 0;
  for (let i = 1; i < dists.length; i++) {
    assert.ok(dists[i] >= dists[i - 1] - 1e-12, `the camera came closer at frame ${i} while the balls spread`);
    worst = Math.max(worst, (dists[i] - dists[i - 1]) / dists[i - 1]);
    // no jump: the rate at which it draws back changes little from one frame to the next
    if (i > 1) jerk = Math.max(jerk, Math.abs(dists[i] - 2 * dists[i - 1] + dists[i - 2]) / dists[i - 1]);
  }
  console.log(`# 16 balls spreading at 1 m/s: distance ${dists[0].toFixed(2)} m -> ${dists[120].toFixed(2)} m in 2 s, at most ${(100 * worst).toFixed(1)} % a frame, its change of pace at most ${(100 * jerk).toFixed(2)} % a frame`);
  assert.ok(dists[120] > 3 * dists[0]);
  // (the balls' own spread jumps from rest to 16 % of the camera's distance a frame at t = 0)
  assert.ok(jerk < 0.03, `the camera's pace jumps by ${jerk} of its distance in a frame`);
});

test('a chain that piles up is framed closer within about 4 s of its pile; its start, framed wider, is kept while it hangs; a still scene leaves the camera still', () => {
  const n = 30;
  // a chain hanging 1.5 m tall, then piled up about 6 cm across
  const s = scene(n, 0.02, (b) => [0.01 * (b % 5), 0.01 * Math.floor(b / 5)]);
  const hang = () => { for (let b = 0; b < n; b++) s.poses.set([0, 0, 0.01 + 0.05 * b], 12 * b); };
  const c = new Camera(canvas);
  c.scale = 1.5;
  c.target = [0, 0, 0.75];
  c.dist = 4.6; // the start framing of the hanging chain (camera.js frame), wider than its bounds need
  hang();
  c.autoOn(PLANE, n, s.poses, s.sizes, new Float64Array(0));
  for (let frame = 0; frame <= 30; frame++) c.ease(s.poses, s.sizes, new Float64Array(0), 1000 * frame / 60);
  assert.deepEqual([c.dist, ...c.target], [4.6, 0, 0, 0.75], 'the start framing kept while the chain hangs');
  s.place();
  for (let frame = 31; frame <= 270; frame++) c.ease(s.poses, s.sizes, new Float64Array(0), 1000 * frame / 60);
  const fit = c.fitDistance(s.poses, s.sizes, new Float64Array(0));
  assert.ok(c.dist < 1.3 * fit && c.dist >= fit, `distance ${c.dist} m, the fit ${fit} m`);
  assert.equal(c.easing, false);
  const [d, t] = [c.dist, [...c.target]];
  for (let frame = 271; frame <= 330; frame++) c.ease(s.poses, s.sizes, new Float64Array(0), 1000 * frame / 60);
  // framed (no longer easing: within 0.5 % of its goal), it creeps by less than 1 % more
  assert.ok(Math.abs(c.dist - d) < 1e-2 * d && Math.hypot(...t.map((x, k) => x - c.target[k])) < 1e-2 * d, 'still');
  // a single body is not kept framed (a bouncing ball's view stays still)
  c.autoOn(PLANE, 1, s.poses.subarray(0, 12), s.sizes.subarray(0, 3), new Float64Array(0));
  assert.equal(c.auto, false);
});
