// Core steps per second in wasm (node), plus the .wasm size and its gzip size (design.md §8).
//
//   node scripts/bench-wasm.mjs [--pairs N] [--rounds R]
//
// Workload: 2 CPUs, each doing N alloc/free pairs (default 2000), with events off. A scenario
// caps a context at 64 operations, so the pairs are spread over 4 tasks per CPU of 32 pairs each
// and the scenario is replayed until N pairs per CPU have run; only `runToEnd()` is timed
// (parsing and setup are reported apart). Best of R rounds (default 3). Then the core loop of
// `cargo bench` (core_steps_*) in both builds of slub-wasm: pkg (opt-level "s", the first page)
// and pkg-fast (opt-level 3, the explorer's worker; the Lab's module is built the same way),
// as a fraction of native when NATIVE_STEPS=<steps/s of core_steps_no_events_no_checks> is
// given. Needs the wasm packages (scripts/build-wasm.mjs).
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
const rounds = flag('--rounds', 3);
const CPUS = 2;
const TASKS_PER_CPU = 4;
const PAIRS_PER_TASK = 32;

const pkg = join(root, 'web', 'src', 'sim', 'pkg');
const wasmPath = join(pkg, 'slub_wasm_bg.wasm');
if (!existsSync(wasmPath)) {
  console.error('[bench-wasm] no wasm package: run `node scripts/build-wasm.mjs` first');
  process.exit(1);
}
const wasmBytes = readFileSync(wasmPath);
const { initSync, Simulator } = await import(pathToFileURL(join(pkg, 'slub_wasm.js')).href);
initSync({ module: wasmBytes });

const tasks = [];
for (let cpu = 0; cpu < CPUS; cpu++) {
  for (let t = 0; t < TASKS_PER_CPU; t++) {
    const id = `T${cpu}${t}`;
    const ops = [];
    for (let i = 0; i < PAIRS_PER_TASK; i++) {
      const v = `${id.toLowerCase()}_${i}`;
      ops.push({ op: 'alloc', var: v }, { op: 'free', var: v });
    }
    tasks.push({ id, cpu, ops });
  }
}
const scenario = JSON.stringify({ schemaVersion: 1, name: 'bench', cpus: CPUS, tasks });
const replays = Math.ceil(pairs / (TASKS_PER_CPU * PAIRS_PER_TASK));

let best = { runMs: Infinity, newMs: 0, steps: 0 };
for (let r = 0; r < rounds; r++) {
  let runMs = 0;
  let newMs = 0;
  let steps = 0;
  for (let k = 0; k < replays; k++) {
    const t0 = performance.now();
    const sim = new Simulator(scenario, false);
    const stepsBefore = JSON.parse(sim.view()).steps;
    const t1 = performance.now();
    sim.runToEnd();
    const t2 = performance.now();
    const view = JSON.parse(sim.view());
    sim.free();
    if (!view.finished) throw new Error(`the benchmark scenario did not finish: ${sim.outcome()}`);
    newMs += t1 - t0;
    runMs += t2 - t1;
    steps += view.steps - stepsBefore;
  }
  if (runMs < best.runMs) best = { runMs, newMs, steps };
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const perSec = Math.round(best.steps / (best.runMs / 1000)).toLocaleString('en-US');
log(
  'bench-wasm',
  `${CPUS} CPUs x ${replays * TASKS_PER_CPU * PAIRS_PER_TASK} alloc/free pairs: ` +
    `${best.steps} steps in ${best.runMs.toFixed(1)} ms (best of ${rounds})`,
);
log('bench-wasm', `wasm steps/s: ${perSec}`);
log('bench-wasm', `scenario parse + setup: ${(best.newMs / replays).toFixed(2)} ms per run`);
// The core loop on the same workload as `cargo bench` (core_steps_*): compare the two.
const workload = readFileSync(join(root, 'wasm-core', 'sim', 'benches', 'workload.json'), 'utf8');
const native = Number(process.env.NATIVE_STEPS ?? NaN);
async function coreSteps(name, dir) {
  const bytes = readFileSync(join(dir, 'slub_wasm_bg.wasm'));
  // A module instance of its own: the glue keeps one instance per import URL.
  const glue = await import(`${pathToFileURL(join(dir, 'slub_wasm.js')).href}?${name}`);
  glue.initSync({ module: bytes });
  for (const checks of [false, true]) {
    let bestRate = 0;
    for (let r = 0; r < 5; r++) {
      let steps = 0;
      const t0 = performance.now();
      while (performance.now() - t0 < 400) steps += glue.benchSteps(workload, checks, 20);
      bestRate = Math.max(bestRate, steps / ((performance.now() - t0) / 1000));
    }
    const fraction = !checks && native > 0 ? `, ${((100 * bestRate) / native).toFixed(0)} % of native` : '';
    log(
      'bench-wasm',
      `${name}: core steps/s ${checks ? 'with every invariant checked' : 'without events or checks'}: ` +
        `${Math.round(bestRate).toLocaleString('en-US')}${fraction} (compare cargo bench model/core_steps_${checks ? 'with_every_invariant' : 'no_events_no_checks'})`,
    );
  }
  log('bench-wasm', `${name}: wasm size ${kib(bytes.length)}, gzip ${kib(gzipSync(bytes, { level: 9 }).length)}`);
}
await coreSteps('size build (pkg, the first page)', pkg);
const fast = join(root, 'web', 'src', 'sim', 'pkg-fast');
if (existsSync(join(fast, 'slub_wasm_bg.wasm'))) await coreSteps('speed build (pkg-fast, explorer and Lab)', fast);
// WASM_PKG=dir[,dir...]: other builds of slub-wasm (another opt-level, wasm-opt's output) side by
// side with these, for a before/after of a build setting.
for (const dir of (process.env.WASM_PKG ?? '').split(',').filter(Boolean)) await coreSteps(dir, dir);
