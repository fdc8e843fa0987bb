// tumble-view.js: the <tumble-view> custom element, for course pages on any host:
//
//   <script type="module" src="https://host/tumble/tumble-view.js"></script>
//   <tumble-view scenario="flip" integrator="director" compare="rattle" charts="energy" autoplay></tumble-view>
//
// `system="..."` instead of `scenario` carries a custom system: a share link's system= value
// (the JSON deflate-raw compressed and base64url-encoded, docs/scenarios.md).
//
// One module, no bundler. It loads the wasm module relative to its own URL (import.meta.url),
// so it works when the course page lives on another origin (the host must send CORS headers
// for module scripts, as GitHub Pages does); every element on a page shares that one module.
// Attributes are validated exactly like a share link (url.js); a bad one shows its message
// inside the element. The element sizes to its CSS box (default 100% x 400 px), draws into a
// shadow root (the course page's CSS cannot reach it), starts paused on its first frame unless
// `autoplay` is set (ignored under prefers-reduced-motion), pauses itself when scrolled out of
// sight or when the tab is hidden, and resumes when it comes back if it was playing.
//
// `mujoco="RK4"` (or Euler, implicit, implicitfast) adds MuJoCo's run of the system beside
// Tumble's, as the page's MuJoCo menu does: MuJoCo's own wasm build (vendor/mujoco, 9 MB) is
// fetched then, once per page; when it cannot start, the element says why and runs without it.
// `reaction="k"` picks the joint whose reaction the reactions chart shows (default 0).
// `explain` adds the scenario's and the integrators' explanation (explain.js), closed, over the view.
// JS API: el.play(), el.pause(), el.reset(); read-only el.time (s), el.playing, el.error,
// el.stateHash; an `invariants` event about four times a second while running, with detail
// { t, runs: [{ integrator, energy, energyError, momentum: [l1, l2, l3], jointViolation, error,
// work, dissipated, balance }] } (work W put in by loads and motors, energy D taken out by
// dampers and the balance E - E0 - W + D, all in J; 0 for a system without force elements).
import * as wasm from './pkg/tumble_wasm.js';
import { loadSolver } from './sim/engine.js';
import { Player } from './view/player.js';
import { LABEL, MUJOCO } from './shared/names.js';
import { INV } from './shared/invariants.js';
import { parseQuery, buildQuery, systemScenario } from './shared/url.js';
import { renderExplanation } from './view/explain.js';
import { endSentence, sentences } from './shared/text.js';

const BASE = new URL('./', import.meta.url);
const ATTRS = ['scenario', 'system', 'integrator', 'compare', 'mujoco', 'dt', 'tol', 'alpha', 'beta', 'charts', 'reaction', 'autoplay', 'explain'];

let mujocoBytes = null; // MuJoCo's wasm, fetched once per page (each element's worker is sent a copy)

/** Start MuJoCo in the worker of `engine` (an element's player's): null, or why it did not. */
async function startMujoco(engine) {
  try {
    mujocoBytes ??= fetch(new URL('vendor/mujoco/mujoco.wasm', BASE)).then((res) => {
      if (!res.ok) throw new Error(`${new URL(res.url).pathname} answered ${res.status}`);
      return res.arrayBuffer();
    });
    const bytes = new Uint8Array((await mujocoBytes).slice(0));
    const reply = await engine.request({ type: 'mujoco-load', url: new URL('vendor/mujoco/mujoco.js', BASE).href, bytes }, [bytes.buffer]);
    return reply.type === 'error' ? reply.message : null;
  } catch (e) {
    mujocoBytes = null;
    return `MuJoCo could not load here: ${e.message}`;
  }
}
const EVENT_EVERY_MS = 250;

const TEMPLATE = `
<link rel="stylesheet" href="${new URL('vendor/uPlot.min.css', BASE)}">
<link rel="stylesheet" href="${new URL('tumble-view.css', BASE)}">
<link rel="stylesheet" href="${new URL('view/charts.css', BASE)}">
<link rel="stylesheet" href="${new URL('view/explain.css', BASE)}">
<div class="frame">
  <div class="view">
    <canvas aria-label="3-D view of the bodies; drag to orbit, wheel or pinch to zoom"></canvas>
    <button class="start" type="button" aria-label="Play the simulation" hidden>&#9654;</button>
    <div class="about" hidden></div>
  </div>
  <div class="charts" role="group"></div>
  <div class="bar">
    <button class="play" type="button" aria-pressed="false">Play</button>
    <button class="reset" type="button">Reset</button>
    <span class="look" role="group" aria-label="View">
      <button type="button" data-look="top" title="Look from above, the bodies framed to their bounds" aria-label="Top view">Top</button>
      <button type="button" data-look="side" title="Look from the side, the bodies framed to their bounds" aria-label="Side view">Side</button>
      <button type="button" data-look="fit" title="Frame the bodies to their bounds from here" aria-label="Fit the bodies in the view">Fit</button>
    </span>
    <span class="time" aria-hidden="true"></span>
    <a class="open" target="_blank" rel="noopener">Open in Tumble</a>
  </div>
  <p class="msg" role="alert" hidden></p>
</div>`;

export class TumbleView extends HTMLElement {
  static observedAttributes = ATTRS;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.innerHTML = TEMPLATE; // a constant: no attribute text is ever parsed as HTML
    const q = (s) => this.root.querySelector(s);
    this.ui = { about: q('.about'), frame: q('.frame'), canvas: q('canvas'), charts: q('.charts'), play: q('.play'), reset: q('.reset'), start: q('.start'), time: q('.time'), open: q('.open'), msg: q('.msg') };
    this.ui.play.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    this.ui.start.addEventListener('click', () => this.play());
    this.ui.reset.addEventListener('click', () => this.reset());
    for (const b of this.root.querySelectorAll('[data-look]')) b.addEventListener('click', () => this.player?.look(b.dataset.look));
    this.player = null;
    this.autoPaused = false;
    this.eventAt = 0;
  }

  connectedCallback() {
    this.visible = true;
    this.io = new IntersectionObserver((entries) => this.onVisible(entries[entries.length - 1].isIntersecting));
    this.io.observe(this);
    // charts beside the view in a wide box, below it in a tall one
    this.ro = new ResizeObserver(([e]) => this.ui.frame.classList.toggle('wide', e.contentRect.width >= 1.25 * e.contentRect.height && e.contentRect.width >= 480));
    this.ro.observe(this);
    this.onHidden = () => this.onVisible(!document.hidden && this.visible, true);
    document.addEventListener('visibilitychange', this.onHidden);
    this.load();
  }

  disconnectedCallback() {
    this.io?.disconnect();
    this.ro?.disconnect();
    document.removeEventListener('visibilitychange', this.onHidden);
    this.player?.destroy();
    this.player = null;
  }

  attributeChangedCallback() {
    if (this.isConnected && this.loaded) this.load();
  }

  /** The element's attributes as a share link's query: validated by the same parser. */
  query() {
    const p = new URLSearchParams();
    for (const a of ATTRS) if (this.hasAttribute(a)) p.set(a, this.getAttribute(a));
    for (const flag of ['autoplay', 'explain']) if (p.get(flag) === '') p.set(flag, '1');
    return '?' + p.toString();
  }

  async load() {
    this.loaded = true;
    const token = (this.token = {});
    try {
      await loadSolver(); // once per page, shared by every element
    } catch (e) {
      this.fail(`Tumble could not load its solver module: ${e.message}`);
      return;
    }
    if (token !== this.token || !this.isConnected) return;
    const { settings, error } = parseQuery(this.query());
    if (error) { this.fail(error.replace(/this link('s)?/g, "this element's attributes")); return; }
    if (settings.system) {
      // a custom system (a share link's system= value): inflated with a cap, then validated
      // exactly as typed JSON
      try {
        settings.scenario = await systemScenario(settings.system, wasm.check_scenario);
      } catch (e) {
        if (token === this.token) this.fail(e.message.replace(/this link/g, 'the system attribute'));
        return;
      }
      if (token !== this.token) return;
    } else {
      try {
        settings.scenario = wasm.canonical_scenario(settings.scenario);
      } catch (e) {
        this.fail(`The scenario attribute is not valid: ${e.message}`);
        return;
      }
    }
    const charts = settings.charts ?? ['energy'];
    const notes = []; // said over the view once it runs
    this.ui.charts.hidden = charts.length === 0;
    this.ui.frame.classList.toggle('no-charts', charts.length === 0);
    try {
      this.player?.destroy();
      this.player = new Player({ canvas: this.ui.canvas, charts: charts.length ? this.ui.charts : null, chartsOptions: { only: charts, fit: true } }, {
        failure: (failed, live) => this.say(failed.map((x) => `${LABEL[x.name]} stopped ${endSentence(x.error)}`).join(' ') + (live.length ? ' The others keep running.' : '')),
        playing: (on) => this.showPlaying(on),
        frame: (now) => this.onFrame(now),
      });
      if (settings.mujoco) {
        const why = await startMujoco(await this.player.engine);
        if (token !== this.token) return;
        if (why) {
          delete settings.mujoco;
          notes.push(sentences(why, "This view runs without MuJoCo's run."));
        }
      }
      await this.player.load(settings);
    } catch (e) {
      if (token === this.token) this.fail(e.message);
      return;
    }
    if (token !== this.token) return;
    this.settings = settings;
    const label = `Tumble: ${this.describe(settings.scenario)}, ${this.player.runs.map((x) => LABEL[x.name]).join(' vs ')}`;
    this.setAttribute('role', 'figure');
    this.setAttribute('aria-label', label);
    this.ui.charts.setAttribute('aria-label', `Charts of ${charts.join(', ')}`);
    this.ui.open.href = new URL('index.html', BASE) + buildQuery(settings);
    this.ui.msg.hidden = true;
    if (this.player.jointNote) notes.push(this.player.jointNote);
    const mujoco = this.player.runs.find((x) => x.name === MUJOCO);
    if (mujoco?.notes?.length) notes.push(`MuJoCo has no counterpart for: ${mujoco.notes.join('; ')}.`);
    if (notes.length) this.say(notes.join(' '));
    this.ui.about.hidden = !settings.explain;
    if (settings.explain) renderExplanation(this.ui.about, { scenario: settings.scenario, integrators: this.player.runs.map((x) => x.name), open: false });
    this.showPlaying(false);
    const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.ui.start.hidden = false;
    if (settings.autoplay && !reduced) this.play();
  }

  describe(scenario) {
    const name = scenario.split('?')[0];
    return wasm.presets().find((p) => p.name === name)?.description ?? 'a custom system';
  }

  fail(msg) {
    this.player?.destroy();
    this.player = null;
    this.ui.frame.classList.add('failed');
    this.say(msg);
    this.dispatchEvent(new CustomEvent('error', { detail: { message: msg } }));
  }

  say(msg) {
    this.ui.msg.textContent = msg; // text only
    this.ui.msg.hidden = false;
  }

  onVisible(on, fromTab = false) {
    if (!fromTab) this.visible = on;
    if (!this.player) return;
    if (!on && this.player.playing) { this.autoPaused = true; this.player.setPlaying(false); }
    else if (on && this.autoPaused && !document.hidden) { this.autoPaused = false; this.player.setPlaying(true); }
  }

  showPlaying(on) {
    this.ui.play.textContent = on ? 'Pause' : 'Play';
    this.ui.play.setAttribute('aria-pressed', String(on));
    if (on) this.ui.start.hidden = true;
  }

  onFrame(now) {
    const p = this.player, { inv } = p.shown();
    const text = `t = ${inv[INV.t].toFixed(2)} s`;
    if (this.ui.time.textContent !== text) this.ui.time.textContent = text;
    if (p.playing && now - this.eventAt > EVENT_EVERY_MS) {
      this.eventAt = now;
      this.dispatchEvent(new CustomEvent('invariants', {
        detail: {
          t: p.run.inv[INV.t],
          runs: p.runs.map((x) => ({
            integrator: x.name, energy: x.inv[INV.energy], energyError: Math.abs(x.inv[INV.energy] - x.energy0) / Math.max(Math.abs(x.energy0), 1e-300),
            momentum: [x.inv[INV.l1], x.inv[INV.l2], x.inv[INV.l3]], jointViolation: x.inv[INV.joint_violation], error: x.error,
            work: x.inv[INV.work], dissipated: x.inv[INV.dissipated], balance: x.inv[INV.balance],
          })),
        },
      }));
    }
  }

  play() { this.autoPaused = false; this.player?.setPlaying(true); }
  pause() { this.autoPaused = false; this.player?.setPlaying(false); }
  reset() { if (this.settings && this.player) { this.player.load(this.settings).catch((e) => this.say(e.message)); this.ui.msg.hidden = true; } }
  get time() { return this.player?.run?.inv[INV.t] ?? NaN; }
  get playing() { return this.player?.playing ?? false; }
  get error() { return this.ui.msg.hidden ? null : this.ui.msg.textContent; }
  get stateHash() { return this.player?.run?.hash ?? null; }
}

if (!customElements.get('tumble-view')) customElements.define('tumble-view', TumbleView);
