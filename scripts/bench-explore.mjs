// Explorer speed, printed, never asserted: executions/s and states/s natively (the
// CLI) and in wasm under node, for
//   (a) SC2 under `no-tid`: time to the shortest counterexample (target: < 50 ms natively);
//   (b) 2 CPUs whose tasks each alloc, free, alloc, free, plus an irq alloc+free on CPU 0,
//       preemption bound 2, explored to completion (target: < 1 s in wasm; missed since issue
//       35 made the bounded search sound: about 8 s in wasm, 5 s natively on a busy machine);
// what the reduction saves on (b) (the same search with --no-reduction), and the cost of soundness.
// Needs the wasm package and `cargo build --release -p slub-lab` (npm run bench does both).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './lib.mjs';

// The explorer's worker runs the speed build (pkg-fast), the only one with `explore`.
const pkg = join(root, 'web', 'src', 'sim', 'pkg-fast');
const { initSync, explore } = await import(pathToFileURL(join(pkg, 'slub_wasm.js')).href);
initSync({ module: readFileSync(join(pkg, 'slub_wasm_bg.wasm')) });
const cli = join(root, 'target', 'release', 'slub-lab');
if (!existsSync(cli)) execFileSync('cargo', ['build', '--release', '-p', 'slub-lab'], { stdio: 'inherit', cwd: root });

const sc2 = JSON.parse(readFileSync(join(root, 'wasm-core/sim/tests/scenarios/sc02_aba_without_tid.json'), 'utf8'));
sc2.variant = { fastpath: 'no-tid' };
const cases = [
  { name: '(a) SC2 no-tid', scenario: sc2, bounds: {} },
  {
    name: '(b) 2 CPUs + irq, preemptions ≤ 2',
    scenario: JSON.parse(readFileSync(join(root, 'wasm-core/sim/tests/explore/bench_two_cpus.json'), 'utf8')),
    bounds: { maxPreemptions: 2 },
  },
];

function rate(n, ms) {
  return ms > 0 ? Math.round((n / ms) * 1000).toLocaleString('en') : '∞';
}

function best(runs, f) {
  let out;
  for (let i = 0; i < runs; i++) {
    const r = f();
    if (!out || r.ms < out.ms) out = r;
  }
  return out;
}

for (const c of cases) {
  const file = join(root, 'target', `bench-explore-${c.name.slice(1, 2)}.json`);
  (await import('node:fs')).writeFileSync(file, JSON.stringify(c.scenario));
  const args = ['explore', file];
  if (c.bounds.maxPreemptions !== undefined) args.push('--max-preemptions', String(c.bounds.maxPreemptions));
  const native = best(3, () => {
    let out;
    try {
      out = execFileSync(cli, args, { encoding: 'utf8' });
    } catch (e) {
      out = e.stdout; // exit 1: a violation was found
    }
    const r = JSON.parse(out);
    return { ...r, ms: r.elapsedMs };
  });
  const wasm = best(3, () => {
    const t0 = performance.now();
    const r = JSON.parse(explore(JSON.stringify(c.scenario), JSON.stringify(c.bounds), () => true));
    return { ...r, ms: performance.now() - t0 };
  });
  console.log(`${c.name}`);
  for (const [where, r] of [['native', native], ['wasm  ', wasm]]) {
    const found = r.violations.length ? `found ${r.violations[0].invariant} in ${r.violations[0].schedule.length} moves` : 'no violation';
    console.log(
      `  ${where} ${r.ms.toFixed(1)} ms, ${r.executions} executions (${rate(r.executions, r.ms)}/s), ` +
        `${r.states} states (${rate(r.states, r.ms)}/s), peak memory about ${r.peakMemoryMb} MB, complete: ${r.complete}, ${found}`,
    );
  }
}

// What the reduction saves on (b).
const bFile = join(root, 'target', 'bench-explore-b.json');
const without = JSON.parse(execFileSync(cli, ['explore', bFile, '--max-preemptions', '2', '--no-reduction'], { encoding: 'utf8' }));
const withRed = JSON.parse(execFileSync(cli, ['explore', bFile, '--max-preemptions', '2'], { encoding: 'utf8' }));
console.log('the reduction on (b) (dominance: a preemption bound turns the sleep sets off):');
console.log(`  with    ${withRed.states} states, ${withRed.transitions} transitions, ${withRed.executions} executions, ${withRed.elapsedMs.toFixed(1)} ms`);
console.log(`  without ${without.states} states, ${without.transitions} transitions, ${without.executions} executions, ${without.elapsedMs.toFixed(1)} ms`);

// The cost of soundness. With a preemption bound the sleep sets are off (they and the
// bound do not compose: explore.rs), and dominance is the whole reduction. States explored and
// states/s, reduced and plain, natively, on (a), (b), SC4, SC18 and SH4 with pageAllocFail. Before
// the fix (sleep sets under the bound, unsound) the reduced search explored: (b) 75,648 states in
// 467 ms; SC4 211,573; SC18 2,066; SH4+pageAllocFail at bound 3 547, at bound 0 54 ("complete",
// missing INV-S1).
{
  const { writeFileSync } = await import('node:fs');
  const load = (f) => JSON.parse(readFileSync(join(root, 'wasm-core/sim/tests/scenarios', f), 'utf8'));
  const sh4 = load('sh04_refill_isolated_slab_remote_free.json');
  sh4.cache.pageAllocFail = true;
  const runs = [
    ['(a) SC2 no-tid', sc2, 3],
    ['(b) 2 CPUs + irq', JSON.parse(readFileSync(bFile, 'utf8')), 2],
    ['SC4', load('sc04_stale_tid_collision.json'), 3],
    ['SC18', load('sc18_slab_lockless_grow_decision.json'), 3],
    ['SH4 pageAllocFail', sh4, 3],
    ['SH4 pageAllocFail', sh4, 0],
  ];
  console.log('cost of soundness (native, best of 3): reduced vs plain');
  for (const [name, sc, b] of runs) {
    const file = join(root, 'target', 'bench-explore-sound.json');
    writeFileSync(file, JSON.stringify(sc));
    const one = (extra) =>
      best(3, () => {
        let out;
        try {
          out = execFileSync(cli, ['explore', file, '--max-preemptions', String(b), '--timeout-ms', '0', ...extra], { encoding: 'utf8' });
        } catch (e) {
          out = e.stdout; // exit 1: a violation was found
        }
        const r = JSON.parse(out);
        return { ...r, ms: r.elapsedMs };
      });
    for (const [label, r] of [['reduced', one([])], ['plain  ', one(['--no-reduction'])]]) {
      const found = r.violations.length ? `${r.violations[0].invariant} in ${r.violations[0].schedule.length}` : 'none';
      console.log(
        `  ${name} b=${b} ${label} ${r.states} states, ${r.dominated ?? 0} dominated, ${r.ms.toFixed(1)} ms (${rate(r.states, r.ms)} states/s), violation: ${found}`,
      );
    }
  }
}

// The memory estimate against the real peak RSS (`/usr/bin/time -v`), on a wide
// search (3 CPUs under Linux 7.0, an irq), a narrow one (2 tasks of 32 ops) and a long one
// ((b) with 8 preemptions). The estimate counts what the search holds (queued machines, the
// visited set with its sleep sets and its table, path nodes, footprints); the process's own
// few MB are not in it.
if (existsSync('/usr/bin/time')) {
  const { writeFileSync } = await import('node:fs');
  const ops = (p, n) => [
    ...Array.from({ length: n }, (_, i) => ({ op: 'alloc', var: `${p}${i}` })),
    ...Array.from({ length: n }, (_, i) => ({ op: 'free', var: `${p}${i}` })),
  ];
  const wide = {
    schemaVersion: 1, name: 'wide', cpus: 3, variant: { era: 'v7.0' }, cache: { sheafCapacity: 4 },
    tasks: [0, 1, 2].map((k) => ({ id: `T${k}`, cpu: k, ops: ops(`t${k}_`, 1) })),
    irqs: [{ id: 'I', cpu: 0, ops: ops('i', 1) }],
  };
  const narrow = {
    schemaVersion: 1, name: 'narrow', cpus: 2,
    tasks: [{ id: 'A', cpu: 0, ops: ops('a', 16) }, { id: 'B', cpu: 1, ops: ops('b', 16) }],
  };
  const runs = [
    ['wide', wide, ['--timeout-ms', '4000']],
    ['narrow', narrow, ['--max-preemptions', '2']],
    ['long', JSON.parse(readFileSync(bFile, 'utf8')), ['--max-preemptions', '8']],
  ];
  console.log('memory estimate vs peak RSS:');
  for (const [name, sc, flags] of runs) {
    const file = join(root, 'target', `bench-explore-mem-${name}.json`);
    writeFileSync(file, JSON.stringify(sc));
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync('/usr/bin/time', ['-v', cli, 'explore', file, ...flags], { encoding: 'utf8' });
    const [out, err] = [run.stdout, run.stderr];
    const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1] ?? NaN);
    const r = JSON.parse(out);
    const ratio = rssKb / 1024 / Math.max(1, r.peakMemoryMb);
    console.log(
      `  ${name.padEnd(6)} ${r.states} states, estimate ${r.peakMemoryMb} MB, peak RSS ${(rssKb / 1024).toFixed(0)} MB ` +
        `(RSS / estimate ${ratio.toFixed(2)}; target ≤ 1.25), ${r.elapsedMs.toFixed(0)} ms${r.incomplete ? `, ${r.incomplete}` : ''}`,
    );
  }
}
