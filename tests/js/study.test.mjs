// The Study view's computation (crates/tumble-wasm/src/study.rs over tumble::study) under Node:
// the same runs as `tumble study`, and the same report to the bit, timing aside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { initSync, study_plan, study_report, StudyRun } from '../../www/pkg/tumble_wasm.js';
import { withoutTiming, timeLeft, formatLeft, longestFirst, step, num, guessTime, GUESS_PER_BODY_STEP } from '../../www/study/study-core.js';
import { parseQuery, locationQuery, buildStudyQuery, STUDY_DEFAULTS, DEFAULTS } from '../../www/shared/url.js';

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

test('study links round-trip every setting; bad ones say which setting is wrong', () => {
  for (const [choice, study] of [
    [{ scenario: 'nk-revolute' }, STUDY_DEFAULTS],
    [{ scenario: 'chain?links=8&joint=spherical' }, { integrators: ['baumgarte', 'director'], h0: 0.005, levels: 6, duration: 2.5, long: 0 }],
    [{ scenario: '{}', system: 'AbC-_9' }, { integrators: ['rattle'], h0: 0, levels: 1, duration: 1e6, long: 1e6 }],
  ]) {
    const q = buildStudyQuery(choice, study);
    // as a browser reads it: the query, and the fragment that carries a custom system
    const i = q.indexOf('#');
    if (choice.system) assert.ok(q.endsWith('#system=' + choice.system), q);
    const { settings, error } = parseQuery(locationQuery({ search: i < 0 ? q : q.slice(0, i), hash: i < 0 ? '' : q.slice(i) }));
    assert.equal(error, null, q);
    assert.equal(settings.view, 'study');
    assert.deepEqual(settings.study, study);
    if (choice.system) assert.equal(settings.system, choice.system);
    else assert.equal(settings.scenario, choice.scenario);
  }
  assert.match(buildStudyQuery({ scenario: 'top' }, STUDY_DEFAULTS), /integrators=director,rattle,baumgarte/);
  // the live view's links have no study settings
  assert.equal(parseQuery('?scenario=top&integrator=director').settings.study, undefined);
  // view=study alone: the defaults
  assert.deepEqual(parseQuery('?view=study').settings.study, STUDY_DEFAULTS);
  for (const [q, what] of [
    ['?view=studies', /'view'/], ['?view=study&levels=0', /'levels'/], ['?view=study&levels=2.5', /'levels'/],
    ['?view=study&levels=17', /'levels'/], ['?view=study&T=0', /'T'/], ['?view=study&T=abc', /'T'/],
    ['?view=study&long=-1', /'long'/], ['?view=study&h0=2', /'h0'/], ['?view=study&integrators=euler', /'integrators'/],
    ['?view=study&integrators=rattle,rattle', /'integrators'/], ['?view=study&integrators=', /'integrators'/],
  ]) {
    const { settings, error } = parseQuery(q);
    assert.match(error ?? '', what, q);
    assert.deepEqual(settings, DEFAULTS, q);
  }
});

test('the time left: measured per integrator, shared among the slots, never below the longest run left', () => {
  assert.equal(timeLeft([{ integrator: 'director', steps: 100, done: 0, wall: 0, state: 'running' }], 2), null);
  const runs = [
    { integrator: 'director', steps: 1000, done: 500, wall: 1, state: 'running' }, // 2 ms a step
    { integrator: 'baumgarte', steps: 1000, done: 1000, wall: 0.5, state: 'done' }, // 0.5 ms a step
    { integrator: 'baumgarte', steps: 4000, done: 0, wall: 0, state: 'waiting' },
    { integrator: 'rattle', steps: 100, done: 0, wall: 0, state: 'waiting' }, // none measured: the mean, 1.5/1500 s a step
    { integrator: 'rattle', steps: 100, done: 50, wall: 0, state: 'failed' },
  ];
  const work = 500 * 0.002 + 4000 * 0.0005 + 100 * (1.5 / 1500);
  assert.ok(Math.abs(timeLeft(runs, 1) - work) < 1e-12, `${timeLeft(runs, 1)} against ${work}`);
  runs[2].steps = 2000; // now the work shared by 2 slots (1 + 1 + 0.1 s) / 2 is more than 1 s
  assert.ok(Math.abs(timeLeft(runs, 2) - 1.05) < 1e-12, `${timeLeft(runs, 2)}`);
  runs[2].steps = 4000;
  assert.ok(Math.abs(timeLeft(runs, 100) - 2) < 1e-12, 'the longest run left (4000 Baumgarte steps, 2 s) bounds it');
  assert.equal(formatLeft(null), 'estimating the time left');
  assert.equal(formatLeft(0.4), 'less than a second left');
  assert.equal(formatLeft(12.2), 'about 13 s left');
  assert.equal(formatLeft(600), 'about 10 min left');
});

test('runs start longest first; report texts compare without their timing; numbers keep their digits', () => {
  assert.deepEqual(longestFirst([{ steps: 10 }, { steps: 400 }, { steps: 10 }, { steps: 100000 }]), [3, 1, 0, 2]);
  const a = '{"runs":[{"h":0.01,"wall_seconds":0.123,"wall_per_step":1.2e-5}],"long":[{"wall_seconds":3.5}]}';
  const b = '{"runs":[{"h":0.01,"wall_seconds":9,"wall_per_step":null}],"long":[{"wall_seconds":0.1}]}';
  assert.equal(withoutTiming(a), withoutTiming(b));
  assert.notEqual(withoutTiming(a), withoutTiming(a.replace('0.01', '0.02')));
  assert.deepEqual([0.01, 0.00125, 7.8125e-5, 1000, 0.1 + 0.2].map(step), ['0.01', '0.00125', '7.8125e-5', '1000', '0.3']);
  assert.deepEqual([1.19e-4, 2.0004, 12345, 0, NaN, null, 5e-3].map((v) => num(v)), ['1.19e-4', '2', '1.23e4', '0', '-', '-', '5e-3']);
});

test('the guess before a study runs: steps x bodies x cost, shared among the slots, not below the longest run', () => {
  const plan = study_plan({ scenario: 'nk-revolute', integrators: ['director', 'baumgarte'], dt: 0, levels: 2, duration: 1, long: 0 });
  assert.equal(plan.bodies, 4);
  const cost = plan.runs.map((r) => r.steps * 4 * GUESS_PER_BODY_STEP[r.integrator]);
  const sum = cost.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(guessTime(plan.runs, 4, 1) - sum) < 1e-12);
  assert.equal(guessTime(plan.runs, 4, 100), Math.max(...cost));
  assert.equal(Math.max(...cost), 3200 * 4 * GUESS_PER_BODY_STEP.director, 'the reference (0.01 / 2^5 s to 1 s) is the longest run');
});
