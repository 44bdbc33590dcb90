// The whole check, in order, stopping at the first failure (run by `npm test` after setup).
//
//   node scripts/test.mjs [--lint-only] [--skip STAGE]...
//
// --skip (repeatable) leaves out a stage by its name as printed (e.g. `--skip rustfmt`), for a
// developer iterating on a later stage; `npm test` never skips.
// Ends with the time in all and the slowest stage, then a line `N passed, M failed` (N, M
// counted in stages).
import { log, root, run } from './lib.mjs';
import { STAGES } from './stages.mjs';


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
/** The stage that took longest, for the summary: where a faster `npm test` has to start. */
let slowest = { name: '', secs: 0 };
for (const [name, cmd, cmdArgs] of stages) {
  log('test', `── ${name}: ${[cmd.startsWith(root) ? cmd.slice(root.length + 1) : cmd, ...cmdArgs].join(' ')}`);
  const t0 = Date.now();
  const ok = run(cmd, cmdArgs);
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (Number(secs) > slowest.secs) slowest = { name, secs: Number(secs) };
  if (!ok) {
    failed++;
    log('test', `✗ ${name} failed (${secs} s); stopping here`);
    break;
  }
  passed++;
  log('test', `✓ ${name} (${secs} s)`);
  // `cargo test --workspace --release` has just built target/release/slub-lab with the features
  // the whole workspace turns on: vitest's global setup then uses it as it is, where its own
  // `cargo build -p slub-lab` (fewer features) would compile serde, slub-sim and the CLI again
  // (22 s of a fresh `npm test`).
  if (name === 'cargo test') process.env.SLUB_LAB_CLI_BUILT = '1';
}
log('test', `${((Date.now() - started) / 1000).toFixed(1)} s in all; the slowest stage: ${slowest.name} (${slowest.secs.toFixed(1)} s)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
