// Explorer speed (issue 3), printed, never asserted: executions/s and states/s natively (the
// CLI) and in wasm under node, for
//   (a) SC2 under `no-tid`: time to the shortest counterexample (target: < 50 ms natively);
//   (b) 2 CPUs whose tasks each alloc, free, alloc, free, plus an irq alloc+free on CPU 0,
//       preemption bound 2, explored to completion (target: < 1 s in wasm);
// and what the sleep-set reduction saves on (b) (the same search with --no-reduction).
// Needs the wasm package and `cargo build --release -p slub-lab` (npm run bench does both).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './lib.mjs';

const pkg = join(root, 'web', 'src', 'sim', 'pkg');
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
console.log('sleep sets on (b):');
console.log(`  with    ${withRed.states} states, ${withRed.transitions} transitions, ${withRed.executions} executions, ${withRed.elapsedMs.toFixed(1)} ms`);
console.log(`  without ${without.states} states, ${without.transitions} transitions, ${without.executions} executions, ${without.elapsedMs.toFixed(1)} ms`);
