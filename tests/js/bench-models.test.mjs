// The benchmark models of benches/models/ (a walker-like and a humanoid-like MuJoCo model
// written for Tumble, `tumble bench` rows of benches/README.md section 8): the Tumble systems
// committed beside them are their conversions as scripts/mjcf2tumble.mjs makes them now, so a
// change of the converter cannot leave the benchmark timing a system the models no longer give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = join(root, 'scripts', 'mjcf2tumble.mjs');

for (const [name, bodies, joints, controls] of [['strider', 7, 7, 6], ['figure', 14, 13, 21]]) {
  test(`benches/models/${name}.json is the conversion of ${name}.xml`, () => {
    const xml = join(root, 'benches', 'models', `${name}.xml`);
    const made = JSON.parse(execFileSync(process.execPath, [script, xml], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
    const kept = JSON.parse(readFileSync(join(root, 'benches', 'models', `${name}.json`), 'utf8'));
    assert.deepEqual(kept, made, `run: node scripts/mjcf2tumble.mjs benches/models/${name}.xml > benches/models/${name}.json`);
    assert.equal(made.bodies.length, bodies);
    assert.equal(made.joints.length, joints);
    assert.equal(made.forces.filter((f) => f.control).length, controls);
  });
}
