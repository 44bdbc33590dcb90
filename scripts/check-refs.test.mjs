// scripts/check-refs.mjs on small trees written here (each a git repository in a temp dir):
// a clean tree passes, and each kind of stale reference fails it with its file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkRefs = join(dirname(fileURLToPath(import.meta.url)), 'check-refs.mjs');

/** A tree of `lessons` lesson folders, a README and `files` ({path: text}); check-refs' result. */
function check(files, { lessons = 19 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'check-refs-'));
  try {
    spawnSync('git', ['init', '-q', dir]);
    const tree = {
      'README.md': `# A project\n\n${lessons} narrated step-through lessons.\n`,
      'wasm-core/sim/tests/scenarios/sc13_bypass_oom.json': '{}\n',
      ...files,
    };
    for (let i = 0; i < lessons; i++) tree[`lessons/${String(i).padStart(2, '0')}-l/lesson.md`] = '# A lesson\n';
    for (const [path, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const r = spawnSync('node', [checkRefs, '--root', dir], { encoding: 'utf8' });
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a tree whose references all hold passes', () => {
  const r = check({
    'src/a.rs': '// kmem_cache_free reads the page (see wasm-core/sim/tests/scenarios/sc13_bypass_oom.json, a.rs)\n',
  });
  assert.equal(r.status, 0, r.out);
});

test('an "issue 12" comment fails, with its file and line', () => {
  const r = check({ 'src/a.rs': '// fine\n// The default policy is bounded (issue 12 item 2).\n' });
  assert.equal(r.status, 1);
  assert.match(r.out, /src\/a\.rs:2: cites an issue of a tracker that is not in the repository/);
});

test('"issue #7" and "Issue 26" fail too', () => {
  assert.match(check({ 'web/x.ts': '// see issue #7\n' }).out, /web\/x\.ts:1: cites an issue/);
  assert.match(check({ 'docs/x.md': 'Issue 26 asked for it.\n' }).out, /docs\/x\.md:1: cites an issue/);
});

test('a README that says fifteen lessons while there are nineteen fails', () => {
  const r = check({ 'README.md': '# A project\n\n- **Lessons**: fifteen narrated step-through lessons.\n' });
  assert.equal(r.status, 1);
  assert.match(r.out, /README\.md:3: says fifteen lessons; the tree has 19/);
  assert.equal(check({ 'README.md': 'nineteen narrated step-through lessons\n' }).status, 0);
});

test('a README stage count that scripts/stages.mjs contradicts fails', () => {
  const stages = "export const STAGES = [['a', 'x', [], true], ['b', 'y', [], false]];\n";
  const r = check({ 'scripts/stages.mjs': stages, 'README.md': '`npm test` runs 3 stages.\n19 lessons\n' });
  assert.match(r.out, /README\.md:1: says 3 stages; the tree has 2/);
  assert.equal(check({ 'scripts/stages.mjs': stages, 'README.md': 'It runs two stages.\n' }).status, 0);
});

test('a STYLE rule, a missing file and a golden scenario that never existed fail', () => {
  const r = check({
    'src/a.rs': [
      '// the history is the artifact (STYLE 5)',
      '// see wasm-core/lab/src/nope.rs',
      '// as slab.rs does',
      '// golden scenario `sc13b_bypass_preempted_free`',
    ].join('\n'),
  });
  assert.equal(r.status, 1);
  assert.match(r.out, /src\/a\.rs:1: cites a STYLE rule/);
  assert.match(r.out, /src\/a\.rs:2: no file wasm-core\/lab\/src\/nope\.rs/);
  assert.match(r.out, /src\/a\.rs:3: no file named slab\.rs/);
  assert.match(r.out, /src\/a\.rs:4: no golden scenario sc13b_/);
});

test('the model is checked like every other folder', () => {
  const r = check({ 'wasm-core/sim/src/model/x.rs': '// issue 12, STYLE 5, slab.rs, sc13b\n' });
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /model\/x\.rs:1: cites an issue of a tracker/);
});
