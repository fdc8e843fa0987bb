// benches/page/pause.mjs: how promptly the page answers under load: at the fastest
// speed, with every integrator and MuJoCo beside, how long a pause by Space takes to reach the
// readout, how far the run went past what the readout showed when Space was pressed, and how far
// the readout trails the newest state the page holds while it plays. A benchmark, not a test.
//   node benches/page/pause.mjs [--seconds 6] [--pauses 5] [--scenarios 'chain?links=64,ball-pit']
//     [--query '&compare=all&mujoco=RK4']
// Uses Debian's /usr/bin/chromium with SwiftShader (software WebGL), as the browser tests do.
import { serve } from '../../tests/e2e/harness.mjs';
import { chromium } from 'playwright-core';

const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const seconds = Number(arg('seconds', 6));
const pauses = Number(arg('pauses', 5));
const scenarios = arg('scenarios', 'chain?links=64,chain?links=256,ball-pit').split(',');
const query = arg('query', '&integrator=director&compare=all&mujoco=RK4');

const srv = await serve(arg('www', undefined)); // --www DIR: another build of the page (an A/B run)
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--use-gl=swiftshader', '--disable-background-timer-throttling', '--disable-renderer-backgrounding'],
});

// in the page: the readout's simulated time (s), parsed from its first line
const READOUT_T = `(() => { const m = /t = (-?[0-9.]+) s/.exec(document.getElementById('readout').textContent); return m ? Number(m[1]) : NaN; })`;

console.log('scenario            fps   readout lag while playing (s; frames)   Space -> readout final (ms; page holds it)   run past the readout at Space (s; steps)');
for (const sc of scenarios) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${srv.base}?scenario=${encodeURIComponent(sc)}${query}`);
  await page.waitForFunction(() => window.tumble?.time() > 0, null, { timeout: 120000 });
  await page.selectOption('#speed', '0');
  await page.waitForTimeout(1500); // warm up
  // while playing: at every frame (after the player's own frame callback), the newest state the
  // page holds against the readout
  const play = await page.evaluate(([ms, rt]) => new Promise((done) => {
    const readoutT = eval(rt);
    let frames = 0, worst = 0, worstFrames = 0;
    const t0 = performance.now();
    const seen = []; // the run's time at each of the last frames
    const each = () => {
      frames++;
      const run = window.tumble.time(), shown = readoutT();
      seen.push(run);
      const lag = run - shown;
      if (lag > worst) worst = lag;
      // how many frames back the readout's time was the run's
      let k = 0;
      while (k < seen.length && seen[seen.length - 1 - k] > shown + 1e-9) k++;
      worstFrames = Math.max(worstFrames, k);
      if (performance.now() - t0 < ms) requestAnimationFrame(each);
      else done({ fps: frames / ((performance.now() - t0) / 1000), worst, worstFrames });
    };
    requestAnimationFrame(each);
  }), [seconds * 1000, READOUT_T]);
  const lat = [], past = [], held = [], handler = [];
  for (let k = 0; k < pauses; k++) {
    await page.evaluate((rt) => {
      const readoutT = eval(rt);
      window.__pause = { changes: [], held: [] };
      window.addEventListener('keydown', (e) => {
        if (e.key !== ' ') return;
        window.__pause.at = e.timeStamp;
        window.__pause.handler = performance.now() - e.timeStamp;
        window.__pause.shown = readoutT();
        // when the page holds the run's final state (polled between tasks)
        const poll = () => { window.__pause.held.push([performance.now(), window.tumble.time()]); if (performance.now() - e.timeStamp < 3000) setTimeout(poll, 1); };
        poll();
      }, { once: true, capture: true });
      window.__obs?.disconnect();
      window.__obs = new MutationObserver(() => window.__pause.changes.push([performance.now(), readoutT(), document.getElementById('readout').textContent.includes('paused')]));
      window.__obs.observe(document.getElementById('readout'), { childList: true, characterData: true, subtree: true });
    }, READOUT_T);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => !window.tumble.playing());
    await page.evaluate(() => window.tumble.settled());
    await page.waitForTimeout(1500); // anything still to come
    const r = await page.evaluate(() => {
      const p = window.__pause, h = Number(document.getElementById('dt').value) || NaN;
      const t = window.tumble.time();
      // the first change after which the readout said "paused" at the run's final time
      const first = p.changes.find((c) => c[2] && c[1] === Number(t.toFixed(3)));
      const held = p.held.find((c) => c[1] === t);
      return { handler: p.handler, ms: first ? first[0] - p.at : NaN, held: held ? held[0] - p.at : NaN, past: t - p.shown, h };
    });
    lat.push(r.ms);
    held.push(r.held);
    handler.push(r.handler);
    past.push(r);
    await page.keyboard.press(' '); // play again
    await page.waitForTimeout(1500);
  }
  const fmt = (a) => `${Math.min(...a).toFixed(0)}..${Math.max(...a).toFixed(0)}`;
  const h = past[0].h || await page.evaluate(() => window.tumble.runs()[0] && Number(document.getElementById('dt').value));
  const steps = past.map((p) => p.past / h);
  console.log(`${sc.padEnd(18)}${play.fps.toFixed(1).padStart(5)}   ${play.worst.toFixed(3).padStart(10)} s; ${String(play.worstFrames).padStart(3)} frames${' '.repeat(14)}` +
    `${fmt(lat).padStart(12)} (held ${fmt(held)}, key handler ${fmt(handler)})${' '.repeat(6)}${past.map((p) => p.past.toFixed(3)).join(' ')} (${fmt(steps)} steps)`);
  if (errors.length) console.log(`  page errors: ${errors.join('; ')}`);
  await page.close();
}
await browser.close();
srv.close();
