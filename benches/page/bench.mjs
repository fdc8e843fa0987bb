// benches/page/bench.mjs: the page's own speed in headless Chromium: for each chain,
// the real-time factor of the simulation, the frame rate of the view, and how long a click on
// Pause takes to take effect while it runs. A benchmark, not a test: it prints figures.
//   node benches/page/bench.mjs [--seconds 8] [--scenarios 'chain?links=256,chain?links=1024']
//   node benches/page/bench.mjs --scenarios 'ball-pit?balls=400' --integrator rattle --from 1 --to 1.5
//   [--size 1280x860] (the viewport, CSS px) [--fastest] (the page's speed "fastest", not
//   "real time": what it can do, not capped at 1) [--query '&mujoco=RK4'] (more of the page's
//   link, as pause.mjs takes it)
// (--from/--to: only the real-time factor between those simulated times, s)
// Uses Debian's /usr/bin/chromium with SwiftShader (software WebGL) as the browser tests do, so
// the frame rate here is a floor: a laptop's GPU draws faster.
import { serve } from '../../tests/e2e/harness.mjs';
import { chromium } from 'playwright-core';

const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const seconds = Number(arg('seconds', 8));
const scenarios = arg('scenarios', 'chain?links=256,chain?links=1024').split(',');
const integrator = arg('integrator', 'director');
const [width, height] = arg('size', '1280x860').split('x').map(Number); // --size WxH: the viewport
const from = arg('from', null) === null ? null : Number(arg('from')), to = Number(arg('to', from ?? 0));

const srv = await serve(arg('www', undefined)); // --www DIR: another build of the page (an A/B run)
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--disable-background-timer-throttling', '--disable-renderer-backgrounding'],
});
console.log(`scenario                      integrator  engine        x real time   view fps   click -> handler   click -> paused frame`);
for (const sc of scenarios) {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(`${srv.base}?scenario=${encodeURIComponent(sc)}&integrator=${integrator}${arg('query', '')}`);
  await page.waitForFunction(() => window.tumble?.time() > 0, null, { timeout: 60000 });
  const engine = await page.evaluate(() => window.tumble.engine());
  if (process.argv.includes('--fastest')) await page.selectOption('#speed', '0');
  if (from !== null) {
    // --from T0 --to T1: the real-time factor between two simulated times (a run whose cost
    // changes as it goes, the ball pit's fall and rest, compared over the same motion)
    const at = async (t) => { await page.waitForFunction((x) => window.tumble.time() >= x, t, { timeout: 600000, polling: 50 }); return [performance.now(), await page.evaluate(() => window.tumble.time())]; };
    const [w0, s0] = await at(from), [w1, s1] = await at(to);
    console.log(`${sc.padEnd(30)}${integrator.padEnd(12)}${engine.padEnd(14)}${((s1 - s0) / ((w1 - w0) / 1000)).toFixed(3).padStart(11)}   (t = ${s0.toFixed(3)} to ${s1.toFixed(3)} s)`);
    await page.close();
    continue;
  }
  await page.waitForTimeout(1500); // warm up
  const r = await page.evaluate((ms) => new Promise((done) => {
    let frames = 0;
    const t0 = performance.now(), s0 = window.tumble.time();
    const count = () => { frames++; if (performance.now() - t0 < ms) requestAnimationFrame(count); else done({ rt: (window.tumble.time() - s0) / ((performance.now() - t0) / 1000), fps: frames / ((performance.now() - t0) / 1000) }); };
    requestAnimationFrame(count);
  }), seconds * 1000);
  // a click on Pause while it runs: input -> handler, and input -> the first frame drawn paused
  const lat = [];
  for (let k = 0; k < 5; k++) {
    await page.evaluate(() => {
      window.__lat = null;
      document.getElementById('play').addEventListener('click', (e) => {
        const handler = performance.now() - e.timeStamp;
        requestAnimationFrame(() => { window.__lat = [handler, performance.now() - e.timeStamp]; });
      }, { once: true, capture: true });
    });
    await page.click('#play');
    await page.waitForFunction(() => window.__lat !== null);
    lat.push(await page.evaluate(() => window.__lat));
    await page.click('#play'); // play again
    await page.waitForTimeout(700);
  }
  const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  console.log(`${sc.padEnd(30)}${integrator.padEnd(12)}${engine.padEnd(14)}${r.rt.toFixed(2).padStart(11)}${r.fps.toFixed(1).padStart(11)}${(med(lat.map((l) => l[0])).toFixed(1) + ' ms').padStart(19)}${(med(lat.map((l) => l[1])).toFixed(1) + ' ms').padStart(24)}`);
  await page.close();
}
await browser.close();
srv.close();
