// url.js: the share-link codec. Pure functions (no DOM), so Node tests can import them.
// A link holds the canonical scenario text, the integrator, the step, the solver settings and
// what to compare with ('all', or one other integrator):
//   ?scenario=chain%3Flinks%3D64%26joint%3Dspherical&integrator=rattle&dt=0.005
// A custom system travels instead as `system=`, in the link's fragment (`#system=...`, which
// browsers never send to the server, so the long value cannot hit a server's limit on request
// lines; a `?system=` in the query is read too): its JSON compressed (deflate-raw) and
// base64url-encoded (encodeSystem / decodeSystem below; at most MAX_SYSTEM_BYTES compressed and
// MAX_SYSTEM_JSON inflated).
// The Study view's link holds the scenario (or system=) and the study settings:
//   ?view=study&scenario=nk-revolute&integrators=director,rattle,baumgarte&h0=0&levels=4&T=1&long=1000
// (h0=0: each integrator's own step; long=0: no long run); parseQuery returns them as
// settings.view and settings.study, buildStudyQuery writes them.
// Nothing read here is trusted: the scenario text is validated by the wasm module before use.

import { INTEGRATORS, MUJOCO_INTEGRATORS, MUJOCO_SOLVERS } from './names.js';
import { scheduleForm } from './controls.js';

export const MAX_QUERY = 2048; // everything but the system= value
/** Largest compressed custom system a link carries (bytes), and its base64url length. */
export const MAX_SYSTEM_BYTES = 16384;
export const MAX_SYSTEM_PARAM = Math.ceil(MAX_SYSTEM_BYTES / 3) * 4;
/** Largest custom system JSON a link inflates to (bytes; the solver's own limit, custom.rs MAX_JSON). */
export const MAX_SYSTEM_JSON = 1 << 20;
export const DEFAULTS = { scenario: 'free-body', integrator: 'rattle', dt: 0, tol: 0, alpha: 10, beta: 10, compare: '', mujoco: '', mjsolver: '' };
/** The Study view's defaults (study/study.js): the CLI's (tumble study), with a 1000 s long run. */
export const STUDY_DEFAULTS = { integrators: [...INTEGRATORS], h0: 0, levels: 4, duration: 1, long: 1000 };
/** The study settings a link carries (parseStudy). */
const STUDY_KEYS = ['integrators', 'h0', 'levels', 'T', 'long'];
/** The charts a link or an element can ask for (`charts=energy,momentum`; `none` for none;
 * `budget` shows only for systems with force elements). */
export const CHARTS = ['energy', 'budget', 'momentum', 'constraints', 'iterations', 'reactions'];

/** The parameters of a location: its query, and those of its fragment (`#system=...`) after
 * them, as one query string for parseQuery. */
export function locationQuery(loc = location) {
  const frag = loc.hash.replace(/^#/, '');
  if (!frag) return loc.search;
  return (loc.search && loc.search !== '?' ? loc.search + '&' : '?') + frag;
}

/** Parse a query string (locationQuery). Returns { settings, error } with defaults where invalid.
 * In stages, each giving the first thing wrong it finds: the link's length and form, unknown
 * keys, what runs (scenario or system), the integrator and its numbers, what is compared and
 * shown, and the study's settings; the error names what each stage found wrong. */
export function parseQuery(search) {
  const settings = { ...DEFAULTS };
  if (!search || search === '?') return { settings, error: null };
  const read = readLink(search);
  if (read.error) return { settings: { ...DEFAULTS }, error: read.error };
  const { params } = read;
  const errors = [unknownKey(params), readSource(params, settings), readIntegrator(params, settings),
    readComparison(params, settings), readDisplay(params, settings), readStudyPart(params, settings)].filter(Boolean);
  const error = errors.length ? errors.join(' ') : null;
  return error ? { settings: { ...DEFAULTS }, error } : { settings, error: null };
}

/** The link's parameters, or the error of a link too long or unreadable: { params } or
 * { error }. A link with a system= may be longer; either way far longer links are not read at
 * all. */
function readLink(search) {
  if (search.length > MAX_QUERY + 4 * MAX_SYSTEM_PARAM) return { error: `This link is ${search.length} characters long; at most ${MAX_QUERY + MAX_SYSTEM_PARAM} are accepted.` };
  let params;
  try {
    params = new URLSearchParams(search);
  } catch (e) {
    return { error: 'This link could not be read.' };
  }
  const system = params.get('system');
  if (system !== null && system.length > MAX_SYSTEM_PARAM) {
    return { error: `The custom system in this link is about ${Math.floor(system.length * 3 / 4)} bytes compressed; links carry at most ${MAX_SYSTEM_BYTES} bytes (16 KB). Share the JSON as a file instead (tumble run FILE.json).` };
  }
  const rest = search.length - (system?.length ?? 0);
  if (rest > MAX_QUERY) return { error: `This link is ${search.length} characters long; at most ${MAX_QUERY} are accepted${system !== null ? ' besides the system' : ''}.` };
  return { params };
}

/** The error of a key the page does not know, or null. */
function unknownKey(params) {
  const known = new Set(['scenario', 'system', 'integrator', 'dt', 'tol', 'alpha', 'beta', 'embed', 'compare', 'mujoco', 'mjsolver', 'charts', 'reaction', 'autoplay', 'explain', 'view', 'control', ...STUDY_KEYS]);
  for (const key of params.keys()) {
    if (known.has(key)) continue;
    // most likely a hand-written link whose scenario text was not encoded (its '&' split it) or
    // a preset's parameter written beside the scenario: the link as it would read, encoded
    const scenario = params.get('scenario') ?? '';
    const example = `${scenario}${scenario.includes('?') ? '&' : '?'}${key}=${params.get(key)}`.slice(0, 120);
    const hint = scenario ? ` If it belongs to the scenario, put it in the scenario text, encoded (encodeURIComponent): ?scenario=${encodeURIComponent(example)}` : '';
    return `This link has an unknown setting '${key.slice(0, 40)}'.${hint}`;
  }
  return null;
}

/** What runs: `scenario` (a preset's text) or `system` (a custom system, base64url), into
 * `settings`; the error, or null. */
function readSource(params, settings) {
  const scenario = params.get('scenario'), system = params.get('system');
  if (scenario !== null) {
    if (scenario.length === 0 || scenario.length > 512) return 'The scenario in this link is empty or too long.';
    settings.scenario = scenario;
  }
  if (system !== null) {
    if (scenario !== null) return 'This link has both a scenario and a system; a link carries one of them.';
    if (!/^[A-Za-z0-9_-]+$/.test(system) || system.length % 4 === 1) return 'The custom system in this link is damaged: it is not base64url text (A-Z, a-z, 0-9, - and _).';
    settings.system = system; // decoded and validated by decodeSystem and the wasm module
  }
  return null;
}

/** The integrator, its step dt, its numbers tol, alpha, beta and the control schedules
 * (shared/controls.js), into `settings`; the errors
 * (each field at fault named), or null. */
function readIntegrator(params, settings) {
  const errors = [];
  const integrator = params.get('integrator');
  if (integrator !== null) {
    if (!INTEGRATORS.includes(integrator)) errors.push(`Unknown integrator '${integrator.slice(0, 40)}' in this link; choose director, rattle or baumgarte.`);
    else settings.integrator = integrator;
  }
  const dt = params.get('dt');
  if (dt !== null) {
    const v = Number(dt);
    if (!/^[0-9.eE+-]+$/.test(dt) || !Number.isFinite(v) || v < 1e-6 || v > 1) errors.push(`The step dt in this link must be a number between 1e-6 and 1, not '${dt.slice(0, 40)}'.`);
    else settings.dt = v;
  }
  for (const [key, lo, hi] of [['tol', 1e-14, 1e-3], ['alpha', 0, 1e4], ['beta', 0, 1e4]]) {
    const raw = params.get(key);
    if (raw === null) continue;
    const v = Number(raw);
    if (!/^[0-9.eE+-]+$/.test(raw) || !Number.isFinite(v) || v < lo || v > hi) errors.push(`'${key}' in this link must be a number between ${lo} and ${hi}, not '${raw.slice(0, 40)}'.`);
    else settings[key] = v;
  }
  const controls = params.getAll('control');
  const bad = controls.find((c) => !scheduleForm(c));
  if (bad !== undefined || controls.length > 64) errors.push(`A control in this link must read NAME=T:V,T:V,... (a control's name, then times in s and values), not '${(bad ?? '').slice(0, 60)}'${controls.length > 64 ? ' (at most 64 of them)' : ''}.`);
  else if (controls.length) settings.controls = controls;
  return errors.length ? errors.join(' ') : null;
}

/** The runs beside the first: `compare` (Tumble's integrators) and `mujoco` (MuJoCo's), into
 * `settings`; the error, or null. */
function readComparison(params, settings) {
  const compare = params.get('compare');
  if (compare !== null) {
    if (compare !== 'all' && !INTEGRATORS.includes(compare)) return `'compare' in this link must be all, director, rattle or baumgarte, not '${compare.slice(0, 40)}'.`;
    settings.compare = compare;
  }
  const mujoco = params.get('mujoco');
  if (mujoco !== null) {
    if (!MUJOCO_INTEGRATORS.includes(mujoco)) return `'mujoco' in this link must be ${MUJOCO_INTEGRATORS.join(', ')}, not '${mujoco.slice(0, 40)}'.`;
    settings.mujoco = mujoco;
  }
  const solver = params.get('mjsolver');
  if (solver !== null) {
    if (!MUJOCO_SOLVERS.includes(solver)) return `'mjsolver' in this link must be ${MUJOCO_SOLVERS.slice(0, -1).join(', ')} or ${MUJOCO_SOLVERS.at(-1)}, not '${solver.slice(0, 40)}'.`;
    settings.mjsolver = solver === 'Newton' ? '' : solver;
  }
  return null;
}

/** What the page shows: `charts`, `reaction`, `autoplay`, `explain` and `view`, into
 * `settings`; the error, or null. */
function readDisplay(params, settings) {
  const charts = params.get('charts');
  if (charts !== null) {
    const list = charts.split(',').map((c) => c.trim()).filter(Boolean);
    const bad = list.find((c) => !CHARTS.includes(c) && c !== 'none');
    if (bad !== undefined || !list.length || (list.includes('none') && list.length > 1)) return `'charts' in this link must be none or a comma-separated list of ${CHARTS.join(', ')}, not '${charts.slice(0, 60)}'.`;
    settings.charts = list.includes('none') ? [] : list;
  }
  // reaction=k: the joint whose reaction the chart shows (whether the system has it is known
  // once loaded). Not 'joint': that is a preset's parameter (chain?joint=spherical), and a
  // hand-written link with its scenario unencoded must keep failing on it with its message
  const joint = params.get('reaction');
  if (joint !== null) {
    if (!/^\d{1,4}$/.test(joint)) return `'reaction' in this link must be the number of the joint whose reaction is charted (0, 1, 2, ...), not '${joint.slice(0, 40)}'.`;
    settings.joint = Number(joint);
  }
  for (const flag of ['autoplay', 'explain']) {
    const raw = params.get(flag);
    if (raw === null) continue;
    if (!['', '1', '0', 'true', 'false'].includes(raw)) return `'${flag}' in this link must be 1 or 0, not '${raw.slice(0, 40)}'.`;
    settings[flag] = raw === '' || raw === '1' || raw === 'true';
  }
  const view = params.get('view');
  if (view !== null) {
    if (view !== 'live' && view !== 'study') return `'view' in this link must be live or study, not '${view.slice(0, 40)}'.`;
    settings.view = view;
  }
  return null;
}

/** The study's settings (parseStudy), when the link opens the Study view or carries any of
 * them, into `settings`; the error, or null. */
function readStudyPart(params, settings) {
  if (params.get('view') === 'study' || STUDY_KEYS.some((k) => params.has(k))) {
    const { study, error } = parseStudy(params);
    if (error) return error;
    settings.study = study;
  }
  return null;
}

/** The study settings of a link's parameters (URLSearchParams), the defaults where absent:
 * { study: { integrators, h0, levels, duration, long }, error } (error: a message, or null). */
export function parseStudy(params) {
  const study = { ...STUDY_DEFAULTS, integrators: [...STUDY_DEFAULTS.integrators] };
  const bad = (key, what, raw) => ({ study: null, error: `'${key}' in this link must be ${what}, not '${String(raw).slice(0, 40)}'.` });
  const list = params.get('integrators');
  if (list !== null) {
    const names = list.split(',').map((x) => x.trim());
    if (!names.length || names.some((n) => !INTEGRATORS.includes(n)) || new Set(names).size !== names.length) {
      return bad('integrators', 'a comma-separated list of director, rattle and baumgarte (each at most once)', list);
    }
    study.integrators = names;
  }
  const number = (key, ok, what, field) => {
    const raw = params.get(key);
    if (raw === null) return null;
    const v = Number(raw);
    if (!/^[0-9.eE+-]+$/.test(raw) || !Number.isFinite(v) || !ok(v)) return bad(key, what, raw);
    study[field] = v;
    return null;
  };
  return number('h0', (v) => v === 0 || (v >= 1e-6 && v <= 1), '0 (each integrator\'s own step) or a step between 1e-6 and 1 s', 'h0')
    ?? number('levels', (v) => Number.isInteger(v) && v >= 1 && v <= 16, 'a whole number from 1 to 16', 'levels')
    ?? number('T', (v) => v > 0 && v <= 1e6, 'a time above 0 and at most 1e6 s', 'duration')
    ?? number('long', (v) => v >= 0 && v <= 1e6, '0 (no long run) or a time up to 1e6 s', 'long')
    ?? { study, error: null };
}

/** The Study view's link query: the scenario (or the custom system's system= value) and every
 * study setting, written out so the link means the same study whatever the defaults become. */
export function buildStudyQuery({ scenario, system }, { integrators, h0, levels, duration, long }) {
  const p = new URLSearchParams();
  p.set('view', 'study');
  if (!system) p.set('scenario', scenario);
  p.set('integrators', integrators.join(','));
  p.set('h0', String(h0));
  p.set('levels', String(levels));
  p.set('T', String(duration));
  p.set('long', String(long));
  return '?' + p.toString().replace(/integrators=[^&]*/, (m) => m.replace(/%2C/g, ',')) + fragment(system);
}

/** A custom system's value goes in the fragment: never sent to the server (see the top). */
const fragment = (system) => (system ? '#system=' + system : '');

/** The link (query, and a custom system in the fragment) for settings: the scenario text
 * encoded, dt omitted when it is the default; `extra` more parameters ({ embed: 1 }). */
export function buildQuery({ scenario, system, integrator, dt, tol, alpha, beta, compare, mujoco, mjsolver, joint, controls }, extra = {}) {
  const p = new URLSearchParams();
  if (!system) p.set('scenario', scenario);
  p.set('integrator', integrator);
  if (dt) p.set('dt', String(dt));
  if (tol) p.set('tol', String(tol));
  if (alpha !== undefined && alpha !== DEFAULTS.alpha) p.set('alpha', String(alpha));
  if (beta !== undefined && beta !== DEFAULTS.beta) p.set('beta', String(beta));
  if (compare) p.set('compare', compare);
  if (mujoco) p.set('mujoco', mujoco);
  if (mujoco && mjsolver) p.set('mjsolver', mjsolver);
  if (joint) p.set('reaction', String(joint));
  for (const c of controls ?? []) p.append('control', c);
  for (const [k, v] of Object.entries(extra)) p.set(k, String(v));
  return '?' + p.toString() + fragment(system);
}

const toBase64url = (bytes) => {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/** Read a stream into one Uint8Array, giving up (with an Error saying so) beyond `cap` bytes. */
async function readCapped(stream, cap, tooBig) {
  const reader = stream.getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > cap) {
      reader.cancel().catch(() => {});
      throw new Error(tooBig(n));
    }
    parts.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** The `system=` value for a custom system's JSON text: deflate-raw (CompressionStream), then
 * base64url without padding. Throws an Error (with the size) beyond MAX_SYSTEM_BYTES compressed. */
export async function encodeSystem(json) {
  const raw = new TextEncoder().encode(json);
  if (raw.length > MAX_SYSTEM_JSON) throw new Error(`This system is ${raw.length} bytes of JSON; links carry at most ${MAX_SYSTEM_JSON}.`);
  const stream = new Blob([raw]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const packed = await readCapped(stream, Infinity, () => '');
  if (packed.length > MAX_SYSTEM_BYTES) throw new Error(`This system compresses to ${packed.length} bytes; links carry at most ${MAX_SYSTEM_BYTES} bytes (16 KB). It runs here, but share its JSON as a file instead (tumble run FILE.json).`);
  return toBase64url(packed);
}

/** The JSON text of a `system=` value. Throws an Error with a message for the user on bad
 * base64url, a damaged deflate stream, text that is not UTF-8, or more than MAX_SYSTEM_JSON
 * bytes inflated (a compression bomb stops there). The JSON itself is validated by the caller. */
export async function decodeSystem(param) {
  if (typeof param !== 'string' || !param.length) throw new Error('The custom system in this link is empty.');
  if (param.length > MAX_SYSTEM_PARAM) throw new Error(`The custom system in this link is about ${Math.floor(param.length * 3 / 4)} bytes compressed; links carry at most ${MAX_SYSTEM_BYTES} bytes (16 KB).`);
  if (!/^[A-Za-z0-9_-]+$/.test(param) || param.length % 4 === 1) throw new Error('The custom system in this link is damaged: it is not base64url text (A-Z, a-z, 0-9, - and _).');
  const bin = atob(param.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (param.length % 4)) % 4));
  const packed = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  let raw;
  try {
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    raw = await readCapped(stream, MAX_SYSTEM_JSON, () => `The custom system in this link inflates to more than ${MAX_SYSTEM_JSON} bytes (1 MiB); it is not accepted.`);
  } catch (e) {
    if (/inflates to more/.test(e.message)) throw e;
    throw new Error('The custom system in this link is damaged: its compressed data does not inflate (deflate-raw). Was the link cut short?');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new Error('The custom system in this link is damaged: it is not UTF-8 text.');
  }
}

/** The canonical scenario text of a `system=` value: decoded (decodeSystem), then validated
 * exactly as typed JSON by `check` (the wasm module's check_scenario). Throws an Error with a
 * message for the user. */
export async function systemScenario(param, check) {
  const r = check(await decodeSystem(param));
  if (!r.ok) throw new Error(`The custom system in this link is not valid: ${r.message}.`);
  return r.canonical;
}
