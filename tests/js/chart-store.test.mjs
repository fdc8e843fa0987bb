// www/view/chart-store.js under Node: values that come later (MuJoCo's beside Tumble's, filled
// into rows already taken: mujoco-pipe.js) end in the same points as values put at once, through
// every merge of the store; a value that never came stays a gap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChartStore, CAP } from '../../www/view/chart-store.js';

const value = (s) => Math.sin(0.37 * s) * (1 + (s % 97 === 0 ? 50 : 0)); // spikes now and then

test('late values (filled in behind the rows, through the merges) end as values put at once', () => {
  const now = new ChartStore(), late = new ChartStore();
  now.reset(2);
  late.reset(2);
  const total = 5 * CAP + 123; // past three merges
  let filled = 0;
  for (let s = 0; s < total; s++) {
    now.begin(0.001 * s);
    now.put(0, value(s));
    now.put(1, -value(s));
    late.begin(0.001 * s);
    late.put(0, value(s));
    late.put(1, NaN, false); // its place held
    // the late run fills in behind, in bursts, some way back
    if (s % 700 === 699 || s === total - 1) {
      const upto = s === total - 1 ? total : s - 300;
      for (; filled < upto; filled++) late.late(1, filled, -value(filled));
    }
  }
  assert.equal(late.length, now.length);
  assert.ok(now.span >= 8, `span ${now.span}`);
  assert.deepEqual(Array.from(late.t.subarray(0, late.length)), Array.from(now.t.subarray(0, now.length)));
  for (const j of [0, 1]) assert.deepEqual(Array.from(late.ys[j].subarray(0, late.length)), Array.from(now.ys[j].subarray(0, now.length)), `series ${j}`);
});

test('a late value that never comes is a gap; the values around it are kept', () => {
  const st = new ChartStore();
  st.reset(1);
  for (let s = 0; s < 10; s++) { st.begin(s); st.put(0, NaN, false); }
  for (const s of [0, 1, 2, 3, 6, 7, 8, 9]) st.late(0, s, s + 1); // 4 and 5 never come
  const y = Array.from(st.ys[0].subarray(0, st.length));
  assert.deepEqual(y.slice(0, 4), [1, 2, 3, 4]);
  assert.ok(Number.isNaN(y[4]) && Number.isNaN(y[5]), JSON.stringify(y));
  assert.deepEqual(y.slice(6), [7, 8, 9, 10]);
});
