// Core steps per second in wasm (node), plus the .wasm size and its gzip size (DESIGN §8).
//
//   node scripts/bench-wasm.mjs [--pairs N] [--runs R]
//
// Workload: 2 CPUs, one task on each doing N alloc/free pairs (default 2000), run to the end by
// the default policy with events off. Needs the wasm package (scripts/build-wasm.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { log, root } from './lib.mjs';

function flag(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const pairs = flag('--pairs', 2000);
const runs = flag('--runs', 5);

const pkg = join(root, 'web', 'src', 'sim', 'pkg');
const wasmPath = join(pkg, 'slub_wasm_bg.wasm');
if (!existsSync(wasmPath)) {
  console.error('[bench-wasm] no wasm package: run `node scripts/build-wasm.mjs` first');
  process.exit(1);
}
const wasmBytes = readFileSync(wasmPath);
const { initSync, Simulator } = await import(pathToFileURL(join(pkg, 'slub_wasm.js')).href);
initSync({ module: wasmBytes });

function task(id, cpu, prefix) {
  const ops = [];
  for (let i = 0; i < pairs; i++) {
    ops.push({ op: 'alloc', var: `${prefix}${i}` }, { op: 'free', var: `${prefix}${i}` });
  }
  return { id, cpu, ops };
}
const scenario = JSON.stringify({
  schemaVersion: 1,
  name: `bench: 2 CPUs x ${pairs} alloc/free pairs`,
  cpus: 2,
  tasks: [task('A', 0, 'a'), task('B', 1, 'b')],
});

let best = Infinity;
let steps = 0;
for (let r = 0; r < runs; r++) {
  const sim = new Simulator(scenario, false);
  const t0 = performance.now();
  sim.runToEnd();
  const ms = performance.now() - t0;
  const view = JSON.parse(sim.view());
  sim.free();
  if (!view.finished) throw new Error('the benchmark scenario did not finish');
  steps = view.steps;
  best = Math.min(best, ms);
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
log('bench-wasm', `${scenario.length} bytes of scenario, ${4 * pairs} operations, ${steps} steps`);
log('bench-wasm', `best of ${runs}: ${best.toFixed(1)} ms = ${Math.round(steps / (best / 1000)).toLocaleString('en-US')} steps/s`);
log('bench-wasm', `wasm size: ${kib(wasmBytes.length)}, gzip: ${kib(gzipSync(wasmBytes, { level: 9 }).length)}`);
