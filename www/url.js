// url.js: the share-link codec. Pure functions (no DOM), so Node tests can import them.
// A link holds the canonical scenario text, the integrator, the step, the solver settings and
// what to compare with ('all', or one other integrator):
//   ?scenario=chain%3Flinks%3D64%26joint%3Dspherical&integrator=rattle&dt=0.005
// Nothing read here is trusted: the scenario text is validated by the wasm module before use.

export const INTEGRATORS = ['director', 'rattle', 'baumgarte'];
export const MAX_QUERY = 2048;
export const DEFAULTS = { scenario: 'free-body', integrator: 'rattle', dt: 0, tol: 0, alpha: 10, beta: 10, compare: '' };

/** Parse a location.search string. Returns { settings, error } with defaults where invalid. */
export function parseQuery(search) {
  const settings = { ...DEFAULTS };
  const fail = (error) => ({ settings: { ...DEFAULTS }, error });
  if (!search || search === '?') return { settings, error: null };
  if (search.length > MAX_QUERY) return fail(`This link is ${search.length} characters long; at most ${MAX_QUERY} are accepted.`);
  let params;
  try {
    params = new URLSearchParams(search);
  } catch (e) {
    return fail('This link could not be read.');
  }
  const known = new Set(['scenario', 'integrator', 'dt', 'tol', 'alpha', 'beta', 'embed', 'explain', 'compare']);
  for (const key of params.keys()) {
    if (known.has(key)) continue;
    // most likely a hand-written link whose scenario text was not encoded: its '&' split it
    const hint = (params.get('scenario') ?? '').includes('?') ? ' If it belongs to the scenario, encode the scenario text (encodeURIComponent): ?scenario=chain%3Flinks%3D4%26joint%3Dspherical' : '';
    return fail(`This link has an unknown setting '${key.slice(0, 40)}'.${hint}`);
  }
  const scenario = params.get('scenario');
  if (scenario !== null) {
    if (scenario.length === 0 || scenario.length > 512) return fail('The scenario in this link is empty or too long.');
    settings.scenario = scenario;
  }
  const integrator = params.get('integrator');
  if (integrator !== null) {
    if (!INTEGRATORS.includes(integrator)) return fail(`Unknown integrator '${integrator.slice(0, 40)}' in this link; choose director, rattle or baumgarte.`);
    settings.integrator = integrator;
  }
  const dt = params.get('dt');
  if (dt !== null) {
    const v = Number(dt);
    if (!/^[0-9.eE+-]+$/.test(dt) || !Number.isFinite(v) || v < 1e-6 || v > 1) return fail(`The step dt in this link must be a number between 1e-6 and 1, not '${dt.slice(0, 40)}'.`);
    settings.dt = v;
  }
  for (const [key, lo, hi] of [['tol', 1e-14, 1e-3], ['alpha', 0, 1e4], ['beta', 0, 1e4]]) {
    const raw = params.get(key);
    if (raw === null) continue;
    const v = Number(raw);
    if (!/^[0-9.eE+-]+$/.test(raw) || !Number.isFinite(v) || v < lo || v > hi) return fail(`'${key}' in this link must be a number between ${lo} and ${hi}, not '${raw.slice(0, 40)}'.`);
    settings[key] = v;
  }
  const compare = params.get('compare');
  if (compare !== null) {
    if (compare !== 'all' && !INTEGRATORS.includes(compare)) return fail(`'compare' in this link must be all, director, rattle or baumgarte, not '${compare.slice(0, 40)}'.`);
    settings.compare = compare;
  }
  return { settings, error: null };
}

/** The query string for settings (scenario text encoded, dt omitted when it is the default). */
export function buildQuery({ scenario, integrator, dt, tol, alpha, beta, compare }) {
  const p = new URLSearchParams();
  p.set('scenario', scenario);
  p.set('integrator', integrator);
  if (dt) p.set('dt', String(dt));
  if (tol) p.set('tol', String(tol));
  if (alpha !== undefined && alpha !== DEFAULTS.alpha) p.set('alpha', String(alpha));
  if (beta !== undefined && beta !== DEFAULTS.beta) p.set('beta', String(beta));
  if (compare) p.set('compare', compare);
  return '?' + p.toString();
}
