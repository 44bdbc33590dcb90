// The whole check, in order, stopping at the first failure (run by `npm test` after setup).
//
//   node scripts/test.mjs [--lint-only] [--skip STAGE]...
//
// --skip (repeatable) leaves out a stage by its name as printed (e.g. `--skip rustfmt`), for a
// developer iterating on a later stage; `npm test` never skips.
// Ends with a line `N passed, M failed` (N, M counted in stages).
import { join } from 'node:path';
import { log, root, run } from './lib.mjs';

const bin = (name) => join(root, 'node_modules', '.bin', name);

/** [name, command, args, lint?] */
const STAGES = [
  // Every "§", scenario id and document a comment or doc cites is in the repository.
  ['references', 'node', [join(root, 'scripts', 'check-refs.mjs')], true],
  ['rustfmt', 'cargo', ['fmt', '--all', '--check'], true],
  ['clippy (native)', 'cargo', ['clippy', '--workspace', '--all-targets', '--', '-D', 'warnings'], true],
  [
    'clippy (wasm32)',
    'cargo',
    ['clippy', '-p', 'slub-sim', '-p', 'slub-lab-core', '-p', 'slub-wasm', '-p', 'slub-lab-wasm', '--target', 'wasm32-unknown-unknown', '--', '-D', 'warnings'],
    true,
  ],
  ['cargo test', 'cargo', ['test', '--workspace', '--release'], false],
  // The lessons as authors write them, every claim replayed (cargo test built the binary).
  ['lessons', join(root, 'target', 'release', 'slub-lab'), ['lesson', 'check', 'lessons'], false],
  ['wasm build', 'node', [join(root, 'scripts', 'build-wasm.mjs')], false],
  ['tsc', bin('tsc'), ['--noEmit', '-p', 'web'], true],
  ['eslint', bin('eslint'), ['--max-warnings=0', '.'], true],
  ['vitest', bin('vitest'), ['run', '--config', 'web/vitest.config.ts'], false],
  ['vite build', bin('vite'), ['build', 'web', '--logLevel', 'warn'], false],
  ['e2e (chromium)', 'node', [join(root, 'web', 'e2e', 'run.mjs')], false],
];

const args = process.argv.slice(2);
const lintOnly = args.includes('--lint-only');
const skip = args.flatMap((a, i) => (args[i - 1] === '--skip' ? [a] : []));
for (const name of skip) {
  if (!STAGES.some(([n]) => n === name)) {
    console.error(`[test] no stage named ${JSON.stringify(name)}: ${STAGES.map(([n]) => n).join(', ')}`);
    process.exit(2);
  }
}
const stages = STAGES.filter(([name, , , lint]) => (lint || !lintOnly) && !skip.includes(name));

let passed = 0;
let failed = 0;
const started = Date.now();
for (const [name, cmd, cmdArgs] of stages) {
  log('test', `── ${name}: ${[cmd.startsWith(root) ? cmd.slice(root.length + 1) : cmd, ...cmdArgs].join(' ')}`);
  const t0 = Date.now();
  const ok = run(cmd, cmdArgs);
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (!ok) {
    failed++;
    log('test', `✗ ${name} failed (${secs} s); stopping here`);
    break;
  }
  passed++;
  log('test', `✓ ${name} (${secs} s)`);
}
log('test', `${((Date.now() - started) / 1000).toFixed(1)} s in all`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
