// The page's inline import map (CodeMirror's bare specifiers -> www/vendor/cm, for the scenario
// editor) runs only if its sha256 is in the Content-Security-Policy's script-src: this fails
// when the map changes without the hash. It also checks the map against what scripts/build.sh
// copies: every bare import in the vendored modules is mapped, every mapped file exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';

const www = new URL('../../www/', import.meta.url);
const html = readFileSync(new URL('index.html', www), 'utf8');

test('the inline import map has its sha256 in script-src, and is the only inline script', () => {
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attrs]) => !/\bsrc=/.test(attrs));
  assert.equal(scripts.length, 1, 'one inline script: the import map');
  assert.match(scripts[0][1], /type="importmap"/);
  const hash = createHash('sha256').update(scripts[0][2], 'utf8').digest('base64');
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)[1];
  const scriptSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
  assert.ok(scriptSrc.includes(`'sha256-${hash}'`), `script-src lacks 'sha256-${hash}': ${scriptSrc}`);
  assert.ok(!scriptSrc.includes("'unsafe-inline'"));
  // the map comes before the first module script (a later one is ignored by browsers)
  assert.ok(html.indexOf('type="importmap"') < html.indexOf('type="module"'));
});

test('the import map covers every bare import of the vendored CodeMirror modules', { skip: !existsSync(new URL('vendor/cm/', www)) && 'www/vendor/cm not built (scripts/build.sh)' }, () => {
  const map = JSON.parse(/<script type="importmap">([\s\S]*?)<\/script>/.exec(html)[1]).imports;
  for (const [name, path] of Object.entries(map)) assert.ok(existsSync(new URL(path, www)), `${name} -> ${path} missing`);
  const files = readdirSync(new URL('vendor/cm/', www));
  assert.equal(files.length, Object.keys(map).length, `vendor/cm has ${files}`);
  const editor = readFileSync(new URL('app/editor.js', www), 'utf8');
  for (const f of files.map((f) => readFileSync(new URL(`vendor/cm/${f}`, www), 'utf8')).concat(editor)) {
    for (const [, spec] of f.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
      if (!spec.startsWith('.')) assert.ok(map[spec], `bare import '${spec}' is not in the import map`);
    }
  }
});
