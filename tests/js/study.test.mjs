// The Study view's computation (crates/tumble-wasm/src/study.rs over tumble::study) under Node:
// the same runs as `tumble study`, and the same report to the bit, timing aside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { initSync, study_plan, study_report, StudyRun } from '../../www/pkg/tumble_wasm.js';
import { withoutTiming } from '../../www/study-core.js';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const cli = new URL('../../target/release/tumble', import.meta.url).pathname;

/** Every run of the study `options` in turn, as a worker would (chunks of 997 steps). */
function runStudy(options) {
  const plan = study_plan(options);
  const records = plan.runs.map((r) => {
    const run = new StudyRun(plan.scenario, r.integrator, r.dt, r.tol, r.max_iter, r.alpha, r.beta, r.duration);
    while (run.advance(997) > 0);
    assert.ok(run.is_over());
    const rec = run.finish(0.25);
    run.free();
    return rec;
  });
  return { plan, report: study_report(options, records) };
}

test('a study in the wasm module gives the CLI report, JSON and CSV, timing aside', () => {
  const options = { scenario: 'nk-revolute', integrators: ['director', 'rattle', 'baumgarte'], dt: 0, levels: 3, duration: 1, long: 20 };
  const { plan, report } = runStudy(options);
  assert.equal(plan.runs.length, 3 * 3 + 3 + 2);
  assert.deepEqual(plan.h0, [0.01, 0.01, 0.01]);
  const args = ['study', 'nk-revolute', '--levels', '3', '--duration', '1', '--long', '20'];
  const json = execFileSync(cli, [...args, '--format', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  assert.equal(withoutTiming(report.json), withoutTiming(json));
  const csv = execFileSync(cli, [...args, '--format', 'csv'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const cut = (s) => s.split('\n').map((l) => l.split(',').slice(0, 17).join(',')).join('\n');
  assert.equal(cut(report.csv), cut(csv));
  const orders = JSON.parse(report.json).integrators.map((t) => t.orders);
  for (const o of orders.flat()) assert.ok(Math.abs(o - 2) < 0.1, `order ${o}`);
});

test('a failed run is in its row and the study goes on; a bad study throws the reason', () => {
  const options = { scenario: 'nk-spherical', integrators: ['rattle', 'director'], dt: 0.1, levels: 2, duration: 2, long: 0 };
  const { report } = runStudy(options);
  const r = JSON.parse(report.json);
  assert.match(r.integrators[0].runs[0].failed, /step 14 \(t = 1\.300000 s\) failed/);
  assert.equal(r.integrators[0].runs[0].error, null);
  assert.ok(r.integrators[0].runs[1].error > 0);
  assert.throws(() => study_plan({ ...options, duration: 0.015, dt: 0 }), /whole number of steps/);
  assert.throws(() => study_plan({ ...options, integrators: ['euler'] }), /unknown integrator/);
  assert.throws(() => study_plan({ ...options, levels: 2.5 }), /levels/);
  assert.throws(() => study_plan({ ...options, scenario: 'nope' }), /unknown scenario/);
});
