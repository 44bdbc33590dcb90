// scripts/model-graph.mjs measures the model's import graph; docs/architecture.md ("Inside the
// model: its import graph") states what it prints. This test holds the page to the code, and
// shows on small made-up models that the measure finds a loop and its fewest arrows back up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, summary } from './model-graph.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

test("docs/architecture.md states the model's graph as the script measures it", () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'architecture.md'), 'utf8');
  const stated = /<!-- model-graph -->\n(.*)\n<!-- \/model-graph -->/.exec(doc);
  assert.ok(stated, 'docs/architecture.md lacks its <!-- model-graph --> line');
  assert.equal(stated[1], summary(measure()), 'docs/architecture.md: the model-graph line is stale; paste what `node scripts/model-graph.mjs` prints first');
});

/**
 * The graph of a made-up model/ from { path: 'source' } (the names are the real model's, the
 * code is not), measured in a temporary folder that is removed afterwards.
 */
function measureModel(files) {
  const dir = mkdtempSync(join(tmpdir(), 'model-graph-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return measure(dir);
  } finally {
    rmSync(dir, { recursive: true });
  }
}

test('a model whose files import only downwards has no loop and no arrow back up', () => {
  const g = measureModel({
    'mod.rs': 'mod memory;\nmod prims;\nmod cost;\npub use memory::Machine;\n',
    'memory.rs': 'use super::prims::Core;\npub struct Machine { core: Core }\n',
    'prims.rs': 'use super::cost::Id;\npub struct Core { id: Id }\n',
    'cost.rs': 'pub enum Id { X }\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n',
  });
  assert.deepEqual(g.arrows, [['memory.rs', 'prims.rs'], ['mod.rs', 'memory.rs'], ['prims.rs', 'cost.rs']]);
  assert.deepEqual(g.loops, []);
  assert.deepEqual(g.backUp, []);
});

test('a loop through a folder and a re-export is found, with the fewest arrows back up', () => {
  // slub/ names Machine through mod.rs's import, which resolves to memory.rs, and a function of
  // prims.rs; both import slub/'s state. Two pairs import each other (memory.rs ⇄ slub/,
  // prims.rs ⇄ slub/): one arrow of each must point up, and no order does with fewer.
  const g = measureModel({
    'mod.rs': 'mod memory;\nmod prims;\nmod slub;\nuse memory::Machine;\n',
    'memory.rs': 'use super::slub::State;\npub struct Machine { s: State }\n',
    'prims.rs': 'use crate::model::{memory::Machine, slub::State};\npub fn g() {}\n',
    'slub/mod.rs': 'mod steps;\npub struct State;\n',
    'slub/steps.rs': 'use super::super::Machine;\nfn f(m: &Machine) { let _ = crate::model::prims::g; }\n',
  });
  assert.deepEqual(g.loops, [['memory.rs', 'prims.rs', 'slub/']]);
  assert.deepEqual(g.arrows, [['memory.rs', 'slub/'], ['mod.rs', 'memory.rs'], ['prims.rs', 'memory.rs'], ['prims.rs', 'slub/'], ['slub/', 'memory.rs'], ['slub/', 'prims.rs']]);
  assert.equal(g.backUp.length, 2, `back up: ${JSON.stringify(g.backUp)}`);
  assert.match(summary(g), /1 loop\(s\) of 3 nodes, 2 arrow\(s\) back up/);
});

test("a test module's imports are left out: it cannot close a loop of the shipped code", () => {
  // slub/'s unit tests (a file and an inline module) name the machine above it; without them
  // slub/ only reaches down, so there is no loop.
  const g = measureModel({
    'mod.rs': 'mod machine;\nmod slub;\n',
    'machine.rs': 'use super::slub::State;\npub struct Machine { s: State }\n',
    'slub/mod.rs': 'mod steps;\n#[cfg(test)]\nmod negative;\npub struct State;\n',
    'slub/steps.rs': 'pub fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::model::machine::Machine;\n}\n',
    'slub/negative.rs': 'use super::super::machine::Machine;\n',
  });
  assert.deepEqual(g.arrows, [['machine.rs', 'slub/']]);
  assert.deepEqual(g.loops, []);
});
