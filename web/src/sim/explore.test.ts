// The explorer in wasm: it finds the ABA of SC2 without the tid, the counterexample
// replays in wasm to the same violation, and it is the one the native CLI finds.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// The explorer's export is in the speed build only (pkg-fast, which its worker loads).
import { explore, initSync as initFast } from './pkg-fast/slub_wasm.js';
import { pageMemoryMb, runExploreRequest, type ExploreMessage, type ExploreReport, type ExploreRequest } from './explore';
import { Simulation } from './simulator';
import { fastWasmPath, loadWasmNode, outcomeOf, repoRoot } from './testing';
import { SCHEMA_VERSION } from './types';

beforeAll(() => {
  loadWasmNode();
  initFast({ module: readFileSync(fastWasmPath) });
});

function sc2(fastpath?: string): string {
  const file = join(repoRoot, 'wasm-core/sim/tests/scenarios/sc02_aba_without_tid.json');
  const sc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (fastpath) sc.variant = { fastpath };
  return JSON.stringify(sc);
}

function run(scenario: string, timeoutMs?: number): { report: ExploreReport; progress: number } {
  const messages: ExploreMessage[] = [];
  const req: ExploreRequest = { type: 'slub-lab:explore', version: SCHEMA_VERSION, scenario, bounds: {} };
  if (timeoutMs !== undefined) req.timeoutMs = timeoutMs;
  runExploreRequest(explore, req, (m) => messages.push(m));
  let report: ExploreReport | undefined;
  for (const m of messages) if (m.type === 'done') report = m.report;
  if (!report) throw new Error(`no report: ${JSON.stringify(messages.at(-1))}`);
  return { report, progress: messages.filter((m) => m.type === 'progress').length };
}

describe('the explorer in wasm', () => {
  it('finds the ABA without the tid, and the counterexample replays to the same violation', () => {
    const scenario = sc2('no-tid');
    const { report } = run(scenario);
    expect(report.violations).toHaveLength(1);
    const found = report.violations[0];
    if (!found) throw new Error('no violation');
    expect(found.invariant).toBe('INV-12');

    const sim = new Simulation(scenario, { events: false });
    for (const m of found.schedule) sim.apply(m);
    const replayed = outcomeOf(sim).violations[0];
    sim.free();
    if (!replayed) throw new Error('the replay shows no violation');
    expect(replayed.invariant).toBe(found.invariant);
    expect(replayed.message).toBe(found.message);

    // Natively, the same shortest counterexample.
    const file = join(repoRoot, 'target', 'explore-test-sc02-no-tid.json');
    writeFileSync(file, scenario);
    let out: string;
    try {
      out = execFileSync(join(repoRoot, 'target', 'release', 'slub-lab'), ['explore', file], { encoding: 'utf8' });
    } catch (e) {
      out = (e as { stdout: string }).stdout;
    }
    const native = JSON.parse(out) as ExploreReport;
    expect(native.violations[0]?.schedule).toEqual(found.schedule);
  });

  it('explores the correct variant to completion with no violation', () => {
    const { report } = run(sc2());
    expect(report.violations).toEqual([]);
    expect(report.complete).toBe(true);
  });

  it('reports progress and stops at its deadline', () => {
    const sc4 = readFileSync(join(repoRoot, 'wasm-core/sim/tests/scenarios/sc04_stale_tid_collision.json'), 'utf8');
    const noStep = JSON.parse(sc4) as { variant?: Record<string, unknown> };
    delete noStep.variant?.tidStep;
    const { report, progress } = run(JSON.stringify(noStep), 0);
    expect(progress).toBeGreaterThan(0);
    expect(report.cancelled).toBe(true);
    expect(report.complete).toBe(false);
  });

  it('names a bad bound', () => {
    const messages: ExploreMessage[] = [];
    runExploreRequest(
      explore,
      { type: 'slub-lab:explore', version: SCHEMA_VERSION, scenario: sc2(), bounds: { maxPreemptions: -1 } },
      (m) => messages.push(m),
    );
    expect(messages.at(-1)).toMatchObject({ type: 'error' });
    expect((messages.at(-1) as { message: string }).message).toMatch(/bounds/);
  });

  // The budget is one the page can keep, and the result says when it was cut.
  it('clamps its memory budget to what the page can get and names the clamp', () => {
    const messages: ExploreMessage[] = [];
    const bounds = { maxMemoryMb: 1024, availableMemoryMb: 600 };
    runExploreRequest(explore, { type: 'slub-lab:explore', version: SCHEMA_VERSION, scenario: sc2(), bounds }, (m) =>
      messages.push(m),
    );
    const done = messages.at(-1) as { type: 'done'; report: ExploreReport };
    expect(done.type).toBe('done');
    expect(done.report.memoryBudgetMb).toBeLessThanOrEqual(200);
    expect(done.report.memoryClamp).toMatch(/from 1024 MB to \d+ MB.*device's memory \(600 MB\)/);
    // Asked for less than the page can give: no clamp.
    const { report } = run(sc2());
    expect(report.memoryBudgetMb).toBe(1024);
    expect(report.memoryClamp).toBeUndefined();
  });

  it('reads what the page can get from navigator.deviceMemory', () => {
    expect(pageMemoryMb({ deviceMemory: 8 })).toBe(8192);
    expect(pageMemoryMb({ deviceMemory: 0.5 })).toBe(512);
    expect(pageMemoryMb({})).toBeUndefined();
    expect(pageMemoryMb({ deviceMemory: 'lots' })).toBeUndefined();
    expect(pageMemoryMb(undefined)).toBeUndefined();
  });
});
