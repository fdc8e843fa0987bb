// record.js: record the 3-D view (and, if asked, the charts beside it) to a video file with the
// browser's own MediaRecorder on a canvas stream. WebM (VP9, else VP8, else whatever WebM the
// browser has); MP4 only where no WebM recorder exists (Safari).
//
// "With charts": every animation frame while recording, the view canvas and the uPlot chart
// canvases inside the charts container are drawn side by side onto one 2-D canvas, and that
// canvas's stream is recorded. Its size is fixed when the recording starts (an encoder does
// not like a stream that changes size); the layout (which canvases, titles, legends) is read
// from the DOM only when the charts are rebuilt, so a frame only copies pixels.

export const VIDEO_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm', 'video/mp4'];
const FPS = 30;
const MAX_HEIGHT = 1080;   // px: the composite is scaled down to at most this height
const BITRATE = 5e6;       // bits/s: sharp lines and text at 1080p

/** Why recording cannot work in this browser (a sentence), or null when it can. */
export function recordingUnsupported(canvas = document.createElement('canvas')) {
  if (typeof window.MediaRecorder !== 'function') return 'Recording a video needs the browser\'s MediaRecorder, which this browser does not have. Try a current Chrome, Edge or Firefox.';
  if (typeof canvas.captureStream !== 'function') return 'Recording a video needs canvas.captureStream(), which this browser does not have. Try a current Chrome, Edge or Firefox.';
  if (!pickVideoType()) return 'This browser cannot record WebM (or MP4) video from a canvas.';
  return null;
}

/** The first video type of VIDEO_TYPES this browser's MediaRecorder can write ('' if none). */
export function pickVideoType() {
  const ok = (t) => typeof window.MediaRecorder?.isTypeSupported !== 'function' || window.MediaRecorder.isTypeSupported(t);
  return VIDEO_TYPES.find(ok) ?? '';
}

/** File extension for a recorded type: 'webm' or 'mp4'. */
export const extensionOf = (type) => (type.startsWith('video/mp4') ? 'mp4' : 'webm');

const even = (x) => Math.max(2, 2 * Math.round(x / 2));

export class Recorder {
  /** `view`: the 3-D canvas (WebGL2, preserveDrawingBuffer); `charts`: the element holding the uPlot charts. */
  constructor({ view, charts }) {
    this.view = view;
    this.charts = charts;
    this.mediaRecorder = null;
    this.canvas = null;     // the composite (with charts only)
    this.ctx = null;
    this.layout = null;     // chart canvases and where they go
    this.t0 = 0;
    this.raf = 0;
    this.type = '';
    this.chunks = [];
    this.frame = this.frame.bind(this); // one bound callback for the whole recording
    this.readout = view.parentElement?.querySelector('.readout') ?? null; // burnt into the composite
    this.caption = [];
    this.frames = 0;
  }

  get recording() {
    return this.mediaRecorder !== null && this.mediaRecorder.state !== 'inactive';
  }

  /** Seconds since start (0 when not recording). */
  elapsed() {
    return this.recording ? (performance.now() - this.t0) / 1000 : 0;
  }

  /** Start recording; throws an Error with a sentence for the user when it cannot. */
  start({ withCharts = false } = {}) {
    if (this.recording) return;
    const why = recordingUnsupported(this.view);
    if (why) throw new Error(why);
    this.type = pickVideoType();
    let stream;
    if (withCharts) {
      this.setupComposite();
      this.draw();
      stream = this.canvas.captureStream(FPS);
    } else {
      this.canvas = null;
      stream = this.view.captureStream(FPS);
    }
    this.chunks = [];
    const mr = new MediaRecorder(stream, { mimeType: this.type, videoBitsPerSecond: BITRATE });
    mr.addEventListener('dataavailable', (e) => { if (e.data && e.data.size > 0) this.chunks.push(e.data); });
    this.mediaRecorder = mr;
    this.stream = stream;
    mr.start(1000); // a chunk a second: a long recording is not held as one growing buffer
    this.t0 = performance.now();
    if (withCharts) this.raf = requestAnimationFrame(this.frame);
  }

  /** Stop; resolves to the recorded video (a Blob of type `this.type`). */
  stop() {
    const mr = this.mediaRecorder;
    if (!mr) return Promise.reject(new Error('not recording'));
    cancelAnimationFrame(this.raf);
    this.raf = 0;
    return new Promise((resolve, reject) => {
      const finish = () => {
        this.lastStats = `${this.chunks.length} chunks, ${((performance.now() - this.t0) / 1000).toFixed(1)} s, track ${this.stream.getVideoTracks()[0]?.readyState}`;
        for (const t of this.stream.getTracks()) t.stop();
        this.mediaRecorder = null;
        const blob = new Blob(this.chunks, { type: this.type.split(';')[0] });
        this.chunks = [];
        resolve(blob);
      };
      if (mr.state === 'inactive') { finish(); return; }
      mr.addEventListener('stop', finish, { once: true });
      mr.addEventListener('error', (e) => { this.mediaRecorder = null; reject(e.error ?? new Error('recording failed')); }, { once: true });
      if (this.canvas) this.draw(); // the last frame
      mr.stop();
    });
  }

  // ---- the composite: view on the left, the charts stacked on the right ----

  setupComposite() {
    const v = this.view;
    this.canvas ??= document.createElement('canvas');
    this.ctx = this.canvas.getContext('2d', { alpha: false });
    // tall enough for the charts at their own size (as sharp as on screen), at most MAX_HEIGHT
    const items = this.chartItems();
    const need = items.reduce((s, it) => s + it.canvas.height, 0) + this.bands(items.length, 1);
    const h = even(Math.min(MAX_HEIGHT, Math.max(v.height, need, 360)));
    this.viewW = even((v.width / Math.max(1, v.height)) * h);
    this.canvas.width = 0; // readLayout sizes the chart column afresh
    this.canvas.height = h;
    this.scaleFont = Math.max(0.75, Math.min(1.5, h / 720));
    this.readLayout(items);
    this.canvas.width = this.viewW + this.layout.width;
    this.ctx = this.canvas.getContext('2d', { alpha: false }); // a resize resets the context state
  }

  // the uPlot charts in the container: canvas, title and legend entries
  chartItems() {
    return [...this.charts.querySelectorAll('.uplot')].map((p) => {
      const canvas = p.querySelector('canvas');
      const title = p.querySelector('.u-title')?.textContent ?? '';
      const legend = [...p.querySelectorAll('.u-legend .u-series')].slice(1).map((row) => {
        const marker = row.querySelector('.u-marker');
        const st = marker ? getComputedStyle(marker) : null;
        const style = st?.borderLeftStyle ?? 'solid';
        return { label: row.querySelector('.u-label')?.textContent ?? '', color: st?.borderLeftColor || '#555', dashed: style === 'dashed' || style === 'dotted', x: 0, y: 0, row: 0 };
      });
      return { canvas, title, legend, x: 0, y: 0, w: 0, h: 0, ty: 0, rows: 1 };
    }).filter((it) => it.canvas && it.canvas.width > 0 && it.canvas.height > 0);
  }

  // the title and legend bands of n charts (px) at font scale f
  bands(n, f) {
    return n * (Math.round(24 * f) + Math.round(20 * f) + Math.round(2 * f) + Math.round(8 * f)) + Math.round(8 * f);
  }

  // place the charts in a column of the composite's height beside the view; legends wrap
  // within the column (measured here, so a frame only draws)
  readLayout(items = this.chartItems()) {
    const f = this.scaleFont;
    const h = this.canvas.height;
    const titleH = Math.round(24 * f), rowH = Math.round(20 * f), pad = Math.round(8 * f);
    const layout = {
      items,
      width: 0,
      titleFont: `600 ${Math.round(15 * f)}px system-ui, "DejaVu Sans", sans-serif`,
      legendFont: `${Math.round(13 * f)}px system-ui, "DejaVu Sans", sans-serif`,
      swatch: 18 * f, lineWidth: 3 * f,
      captionFont: `${Math.round(14 * f)}px ui-monospace, "DejaVu Sans Mono", monospace`,
      captionWidth: 0,
    };
    this.frames = 0; // measure the caption on the next frame
    const natural = items.reduce((s, it) => s + it.canvas.height, 0);
    const maxW = items.length ? Math.max(...items.map((it) => it.canvas.width)) : 0;
    // first pass: one legend row a chart; the column width follows from that scale
    const s1 = natural > 0 ? Math.max(0.2, (h - this.bands(items.length, f)) / natural) : 1;
    layout.width = items.length ? even(maxW * s1 + 2 * pad) : 0;
    if (this.canvas.width > this.viewW) layout.width = this.canvas.width - this.viewW; // recording: the stream keeps its size
    // legend rows within the column
    this.ctx.font = layout.legendFont;
    let extra = 0;
    for (const it of items) {
      let x = 0, row = 0;
      for (const e of it.legend) {
        const w = layout.swatch + 5 + this.ctx.measureText(e.label).width;
        if (x > 0 && x + w > layout.width - 2 * pad) { x = 0; row++; }
        e.x = x; e.row = row;
        x += w + 12 * f;
      }
      it.rows = row + 1;
      extra += row * rowH;
    }
    // second pass: the charts shrink to make room for the extra rows
    const s = natural > 0 ? Math.max(0.2, (h - this.bands(items.length, f) - extra) / natural) : 1;
    let y = pad;
    for (const it of items) {
      it.x = this.viewW + pad;
      it.ty = y + titleH * 0.75;
      for (const e of it.legend) { e.x += it.x; e.y = y + titleH + e.row * rowH + rowH * 0.75; }
      it.y = y + titleH + it.rows * rowH + Math.round(2 * f);
      it.w = Math.round(it.canvas.width * s);
      it.h = Math.round(it.canvas.height * s);
      y = it.y + it.h + pad;
    }
    this.layout = layout;
  }

  frame() {
    this.draw();
    this.raf = requestAnimationFrame(this.frame);
  }

  // true when the charts were rebuilt (a restart replaces every uPlot canvas)
  stale() {
    const items = this.layout.items;
    for (let i = 0; i < items.length; i++) if (!items[i].canvas.isConnected) return true;
    return items.length === 0 && this.charts.querySelector('.uplot canvas') !== null;
  }

  draw() {
    const { ctx, canvas } = this;
    if (this.stale()) this.readLayout(); // the stream keeps its size: the new charts fit the old column
    const L = this.layout;
    const W = canvas.width, H = canvas.height, vw = this.viewW;
    ctx.fillStyle = '#0f1420';
    ctx.fillRect(0, 0, vw, H);
    ctx.drawImage(this.view, 0, 0, vw, H);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(vw, 0, W - vw, H);
    ctx.lineWidth = L.lineWidth;
    for (let i = 0; i < L.items.length; i++) {
      const it = L.items[i];
      ctx.fillStyle = '#1d2330';
      ctx.font = L.titleFont;
      ctx.fillText(it.title, it.x, it.ty);
      ctx.font = L.legendFont;
      for (let j = 0; j < it.legend.length; j++) {
        const e = it.legend[j];
        const y = e.y - 0.35 * L.swatch;
        ctx.strokeStyle = e.color;
        ctx.setLineDash(e.dashed ? DASH : NO_DASH);
        ctx.beginPath();
        ctx.moveTo(e.x, y);
        ctx.lineTo(e.x + L.swatch, y);
        ctx.stroke();
        ctx.fillText(e.label, e.x + L.swatch + 5, e.y);
      }
      ctx.setLineDash(NO_DASH);
      if (it.canvas.isConnected) ctx.drawImage(it.canvas, it.x, it.y, it.w, it.h);
    }
    // the page's readout (t, h, integrator, E) over the view, refreshed 5 times a second
    if (this.readout && this.frames++ % 6 === 0) {
      this.caption = this.readout.textContent.split('\n').slice(0, 2); // time, step, integrator; energy
      ctx.font = L.captionFont;
      L.captionWidth = 0;
      for (const line of this.caption) L.captionWidth = Math.max(L.captionWidth, ctx.measureText(line).width + 16 * this.scaleFont);
    }
    if (this.caption.length) {
      const f = this.scaleFont, lh = Math.round(17 * f);
      ctx.font = L.captionFont;
      ctx.fillStyle = 'rgba(15, 20, 32, 0.7)';
      ctx.fillRect(Math.round(8 * f), H - Math.round(10 * f) - this.caption.length * lh - Math.round(6 * f), L.captionWidth, this.caption.length * lh + Math.round(10 * f));
      ctx.fillStyle = '#e6ebf5';
      for (let i = 0; i < this.caption.length; i++) ctx.fillText(this.caption[i], Math.round(16 * f), H - Math.round(12 * f) - (this.caption.length - 1 - i) * lh);
    }
  }
}
const DASH = [6, 4];
const NO_DASH = [];

/** Format seconds as m:ss. */
export const clock = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

/**
 * Wire the page: `button` starts and stops, `withCharts` (a checkbox) chooses the composite,
 * the indicator (red dot, elapsed time, Stop) is put over the view. On stop the video is handed
 * to `download(name, type, blob)` with name `fileName(ext)`; problems go to `showError(msg)`.
 * Returns the Recorder.
 */
export function attachRecorder({ button, withCharts, view, charts, fileName, download, showError }) {
  const rec = new Recorder({ view, charts });
  const overlay = view.parentElement;
  const indicator = document.createElement('div');
  indicator.className = 'rec-indicator';
  indicator.id = 'rec-indicator';
  indicator.hidden = true;
  const dot = document.createElement('span');
  dot.className = 'rec-dot';
  dot.textContent = '●';
  dot.setAttribute('aria-hidden', 'true');
  const label = document.createElement('span');
  label.textContent = 'REC';
  const time = document.createElement('span');
  time.className = 'rec-time';
  time.textContent = '0:00';
  const stopButton = document.createElement('button');
  stopButton.type = 'button';
  stopButton.id = 'rec-stop';
  stopButton.textContent = 'Stop';
  stopButton.setAttribute('aria-label', 'Stop recording and save the video');
  indicator.append(dot, label, time, stopButton);
  overlay.append(indicator);
  const status = document.createElement('span'); // said once at start and stop, not every second
  status.className = 'visually-hidden'; // (style.css)
  status.setAttribute('role', 'status');
  overlay.append(status);

  const idle = button.textContent;
  let name = '';
  let shown = -1;
  let timer = 0;
  const tick = () => {
    const s = Math.floor(rec.elapsed());
    if (s !== shown) { shown = s; time.textContent = clock(s); }
  };
  const setUi = (on) => {
    indicator.hidden = !on;
    button.textContent = on ? 'Stop recording' : idle;
    button.classList.toggle('rec-on', on);
    button.setAttribute('aria-pressed', String(on));
    if (withCharts) withCharts.disabled = on;
  };
  button.setAttribute('aria-pressed', 'false');

  async function stop() {
    if (!rec.recording) return;
    clearInterval(timer);
    setUi(false);
    try {
      const blob = await rec.stop();
      if (blob.size === 0) throw new Error(`the browser delivered no video data (${rec.lastStats})`);
      download(name, blob.type, blob);
      status.textContent = `Recording stopped; saved ${name}.`;
    } catch (e) {
      showError(`The recording could not be saved: ${e.message ?? e}`);
    }
  }
  function start() {
    try {
      rec.start({ withCharts: !!withCharts?.checked });
    } catch (e) {
      showError(e.message);
      return;
    }
    name = fileName(extensionOf(rec.type));
    shown = -1;
    tick();
    timer = setInterval(tick, 250);
    setUi(true);
    status.textContent = 'Recording started.';
    // what is being recorded, with its indicator and Stop button, in sight
    const r = view.getBoundingClientRect();
    if (r.top < 0 || r.top > window.innerHeight - 80) view.scrollIntoView({ block: 'nearest' });
  }
  button.addEventListener('click', () => (rec.recording ? stop() : start()));
  stopButton.addEventListener('click', stop);
  rec.stopAndSave = stop;
  return rec;
}
