// The share-link codec (www/shared/url.js) without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseQuery, buildQuery, DEFAULTS } from '../../www/shared/url.js';
import { INTEGRATORS } from '../../www/shared/names.js';
import { initSync, presets, canonical_scenario } from '../../www/pkg/tumble_wasm.js';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

test('every preset, with non-default parameters, round-trips through a link', () => {
  // the four-bar's lengths are checked together (a Grashof crank-rocker): a valid set of them
  // and the stop-pendulum's stop must lie below its start angle
  const coupled = { 'four-bar': ['ground=3', 'crank=0.8', 'coupler=2.6', 'rocker=2.2', 'speed=-3', 'angle=-2.5'], 'stop-pendulum': ['angle=2', 'stop=-1', 'restitution=0.5'] };
  for (const p of presets()) {
    const params = coupled[p.name] ?? p.params.map((q) => `${q.key}=${q.choices.length ? q.choices[q.choices.length - 1] : q.integer ? q.max : q.min + (q.max - q.min) / 3}`);
    const scenario = canonical_scenario(params.length ? `${p.name}?${params.join('&')}` : p.name);
    for (const integrator of INTEGRATORS) {
      const settings = { ...DEFAULTS, scenario, integrator, dt: 0.0025, compare: integrator === 'rattle' ? 'all' : integrator === 'director' ? 'baumgarte' : '' };
      const back = parseQuery(buildQuery(settings));
      assert.equal(back.error, null);
      assert.deepEqual(back.settings, settings);
      assert.equal(canonical_scenario(back.settings.scenario), scenario);
    }
  }
});

test('links round-trip the scenario text, integrator and step', () => {
  for (const settings of [
    { scenario: 'chain?links=64&joint=spherical', integrator: 'rattle', dt: 0.005, tol: 1e-12, alpha: 10, beta: 10, compare: '', mujoco: '', mjsolver: '' },
    { scenario: 'nk-revolute', integrator: 'director', dt: 0, tol: 0, alpha: 10, beta: 10, compare: 'all', mujoco: 'RK4', mjsolver: '' },
    // MuJoCo's CG solver (Newton, its default, is left out of the link)
    { scenario: 'ball-pit', integrator: 'rattle', dt: 0, tol: 0, alpha: 10, beta: 10, compare: '', mujoco: 'implicitfast', mjsolver: 'CG' },
    { scenario: 'top?spin=12.5&tilt=0.2', integrator: 'baumgarte', dt: 0.001, tol: 0, alpha: 25, beta: 0, compare: 'rattle', mujoco: 'implicitfast', mjsolver: '' },
    // the reaction chart's joint (joint 0, the default, is left out of the link)
    { scenario: 'slider-crank', integrator: 'director', dt: 0, tol: 0, alpha: 10, beta: 10, compare: '', mujoco: '', mjsolver: '', joint: 3 },
  ]) {
    const { settings: back, error } = parseQuery(buildQuery(settings));
    assert.equal(error, null);
    assert.deepEqual(back, settings);
  }
  assert.deepEqual(parseQuery('').settings, DEFAULTS);
});

test('malformed links are rejected with a message and fall back to the defaults', () => {
  for (const [q, needle] of [
    ['?integrator=euler', 'Unknown integrator'],
    ['?dt=abc', 'dt'],
    ['?mujoco=rk4', "'mujoco' in this link must be RK4, Euler, implicit, implicitfast"],
    ['?mujoco=RK4&mjsolver=cg', "'mjsolver' in this link must be Newton, CG or PGS"],
    ['?reaction=two', "'reaction' in this link must be the number of the joint"],
    ['?reaction=-1', "'reaction' in this link must be the number of the joint"],
    ['?reaction=1e3', "'reaction' in this link must be the number of the joint"],
    ['?dt=1e9', 'dt'],
    ['?dt=NaN', 'dt'],
    ['?scenario=', 'empty'],
    ['?foo=1', 'unknown setting'],
    ['?compare=yes', 'compare'],
    ['?tol=0', 'tol'],
    ['?alpha=-1', 'alpha'],
    ['?beta=1e9', 'beta'],
    ['?scenario=' + 'x'.repeat(3000), 'at most'],
    ['?scenario=%3Cscript%3Ealert(1)%3C%2Fscript%3E&integrator=javascript:alert(1)', 'Unknown integrator'],
  ]) {
    const { settings, error } = parseQuery(q);
    assert.ok(error && error.includes(needle), `${q.slice(0, 60)}: ${error}`);
    assert.deepEqual(settings, DEFAULTS);
  }
});

test('an unencoded scenario in a hand-written link still reads as one scenario, or fails naming the stray key', () => {
  // '?' and '=' inside a value survive URLSearchParams; only '&' splits the scenario text
  assert.equal(parseQuery('?scenario=chain?links=0').settings.scenario, 'chain?links=0');
  assert.throws(() => canonical_scenario('chain?links=0'), /links/);
  const { error } = parseQuery('?scenario=chain?links=4&joint=spherical');
  assert.match(error, /'joint'.*put it in the scenario text, encoded \(encodeURIComponent\): \?scenario=chain%3Flinks%3D4%26joint%3Dspherical$/);
  // a preset's parameter beside the scenario: the same hint, the parameter put in
  assert.match(parseQuery('?scenario=chain&links=abc').error, /^This link has an unknown setting 'links'\. If it belongs to the scenario, put it in the scenario text, encoded \(encodeURIComponent\): \?scenario=chain%3Flinks%3Dabc/);
  assert.doesNotMatch(parseQuery('?links=4').error, /belongs/);
  // what buildQuery writes is encoded, so it never splits
  assert.ok(!buildQuery({ ...DEFAULTS, scenario: 'chain?links=4&joint=spherical' }).includes('&joint'));
});

test('a link with several invalid fields names each of them', () => {
  for (const [q, needles] of [
    ['?dt=abc&tol=xyz', ["The step dt in this link must be a number between 1e-6 and 1, not 'abc'.", "'tol' in this link must be a number between 1e-14 and 0.001, not 'xyz'."]],
    ['?integrator=euler&alpha=-1&beta=1e9', ["Unknown integrator 'euler'", "'alpha' in this link", "'beta' in this link"]],
    ['?dt=0&compare=yes&view=nope', ['The step dt', "'compare' in this link", "'view' in this link"]],
  ]) {
    const { settings, error } = parseQuery(q);
    for (const n of needles) assert.ok(error?.includes(n), `${q}: ${error} (no ${n})`);
    assert.deepEqual(settings, DEFAULTS);
  }
});
