// The page's stepper (www/sim/stepper.js) under Node, as the worker runs it: the states do not
// depend on how the steps are cut into chunks (the worker answers in chunks of a few
// ms); the contact forces are computed only while the page draws them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { Stepper } from '../../www/sim/stepper.js';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

/** A stepper with `scenario` loaded for `integrators`. */
async function loaded(scenario, integrators, extra = {}) {
  const s = new Stepper(wasm);
  const { reply } = await s.handle({ type: 'load', settings: { scenario: wasm.canonical_scenario(scenario), integrators, dt: 0, tol: 0, joint: 0, ...extra } });
  assert.equal(reply.type, 'loaded', reply.message);
  return s;
}

/** Ask for `n` steps in requests of at most `budget` ms each; the replies' step counts. */
async function stepAll(s, n, budget) {
  const taken = [];
  for (let left = n; left > 0;) {
    const { reply } = await s.handle({ type: 'step', n: left, budget });
    assert.equal(reply.type, 'state', reply.message);
    assert.ok(reply.taken >= 1, 'every request takes a step at least');
    taken.push(reply.taken);
    left -= reply.taken;
    s.pool.push(reply.buf);
  }
  return { taken, hashes: s.runs.map((x) => x.sim.state_hash()), history: s.history.count };
}

test('the states do not depend on the chunks: one request of 300 steps, or chunks of about a microsecond', async () => {
  const whole = await stepAll(await loaded('chain?links=8', ['director', 'rattle', 'baumgarte']), 300, Infinity);
  const chunked = await stepAll(await loaded('chain?links=8', ['director', 'rattle', 'baumgarte']), 300, 1e-3);
  assert.deepEqual(whole.taken, [300]);
  assert.ok(chunked.taken.length > 30, `${chunked.taken.length} chunks`);
  assert.deepEqual(chunked.hashes, whole.hashes);
  assert.equal(chunked.history, whole.history);
});

test('the contact forces are computed only while the page draws them', async () => {
  // a ball resting on the ground: a contact force at every state
  const s = await loaded('bouncing-ball?height=0', ['director']);
  const run = async (n) => (await s.handle({ type: 'step', n, budget: Infinity })).reply;
  assert.equal((await run(200)).ncontacts, 0, 'not drawn: none computed');
  const on = (await s.handle({ type: 'arrows', on: true })).reply;
  assert.equal(on.type, 'state');
  assert.ok(on.ncontacts >= 1, `${on.ncontacts} contact forces`);
  assert.ok((await run(1)).ncontacts >= 1);
  await s.handle({ type: 'arrows', on: false });
  assert.equal((await run(1)).ncontacts, 0);
  // a load that asks for them has them from its first state
  const t = await loaded('bouncing-ball?height=0', ['director'], { arrows: true });
  assert.ok((await t.handle({ type: 'step', n: 10, budget: Infinity })).reply.ncontacts >= 1);
});
