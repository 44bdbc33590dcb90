// The commit-msg rule (scripts/commit-msg.mjs) and its hook, on messages written here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkMessage, MAX_SUBJECT } from './commit-msg.mjs';

const here = dirname(fileURLToPath(import.meta.url));

test('a subject of 72 characters with a body after a blank line passes', () => {
  assert.equal(checkMessage(`${'a'.repeat(MAX_SUBJECT)}\n\nWhy, with numbers.\n`), null);
});

test('a subject of 73 characters fails and says its length', () => {
  assert.match(checkMessage(`${'a'.repeat(MAX_SUBJECT + 1)}\n`), /73 characters; at most 72/);
});

test('a body right under the subject fails', () => {
  assert.match(checkMessage('Short subject\nbody at once\n'), /blank line/);
});

test("git's comments and the scissors' part do not count", () => {
  const long = '#'.repeat(100);
  assert.equal(checkMessage(`${long}\nShort subject\n\nBody\n${long}\n`), null);
  const scissors = '# ------------------------ >8 ------------------------';
  assert.equal(checkMessage(`Short subject\n${scissors}\n${'x'.repeat(200)}\n`), null);
});

test('the hook script exits 1 on a long subject and 0 on a good one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'commit-msg-'));
  try {
    const file = join(dir, 'COMMIT_EDITMSG');
    writeFileSync(file, `${'b'.repeat(90)}\n`);
    const bad = spawnSync('node', [join(here, 'commit-msg.mjs'), file], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /90 characters/);
    writeFileSync(file, 'Lab in rooms: split lib.rs\n\nWhy.\n');
    assert.equal(spawnSync('node', [join(here, 'commit-msg.mjs'), file]).status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
