// Same scenario + same schedule => the same events, bit for bit, natively and in wasm (DESIGN
// §3). For every golden scenario: play it in wasm (its schedule, then the default policy to the
// end), then give the CLI exactly the moves the wasm played and compare the events.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from './simulator';
import { eventsOf, fileSchedule, loadWasmNode, outcomeOf, repoRoot, rng, scenarioFiles } from './testing';
import type { Outcome, SimEvent } from './types';

const cli = join(repoRoot, 'target', 'release', 'slub-lab');

interface CliRun extends Partial<Outcome> {
  events: SimEvent[];
}

function runCli(file: string, moves: readonly string[]): CliRun {
  const args = ['run', file, '--events'];
  if (moves.length > 0) args.push('--schedule', moves.join(','));
  let stdout: string;
  try {
    stdout = execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  } catch (e) {
    // Exit status 1 means "ran, found a violation": still a valid run to compare.
    const err = e as { status?: number; stdout?: string };
    if (err.status !== 1 || err.stdout === undefined) throw e;
    stdout = err.stdout;
  }
  return JSON.parse(stdout) as CliRun;
}

beforeAll(loadWasmNode);

describe('wasm and native produce identical events', () => {
  it.each(scenarioFiles().map((f) => [basename(f), f]))('%s', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const sim = new Simulation(text, { events: true });
    for (const move of fileSchedule(text)) sim.apply(move);
    sim.runToEnd();
    const moves = sim.history();
    const wasmEvents = eventsOf(sim);
    const outcome = outcomeOf(sim);
    sim.free();

    const native = runCli(file, moves);
    expect(wasmEvents.length).toBeGreaterThan(0);
    expect(wasmEvents).toEqual(native.events);
    expect(outcome.finished).toEqual(native.finished);
    expect(outcome.violations).toEqual(native.violations);
    expect(outcome.stats).toEqual(native.stats);
    expect(outcome.vars).toEqual(native.vars);
  });
});

/** JSON text with every object's keys sorted (the CLI prints them sorted, the page in field order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

// Random schedules: any enabled move at each point, migrations, preemptions and
// interrupts included, on every golden scenario (SLAB's among them), compared as JSON text (keys
// sorted): events, cycles per CPU, statistics, violations, variables.
describe('wasm and native agree on random schedules, as JSON text', () => {
  const SCHEDULES = 4;
  const MAX_MOVES = 60;
  const played = { migrations: 0, schedules: 0 };
  it.each(scenarioFiles().map((f) => [basename(f), f]))('%s', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const next = rng(basename(file).length * 7919 + text.length);
    for (let k = 0; k < SCHEDULES; k++) {
      const sim = new Simulation(text, { events: true });
      for (let i = 0; i < MAX_MOVES; i++) {
        const moves = sim.view().enabledMoves;
        if (moves.length === 0) break;
        const move = moves[Math.floor(next() * moves.length)] ?? '';
        if (move.startsWith('migrate:')) played.migrations++;
        sim.apply(move);
      }
      sim.runToEnd();
      const moves = sim.history();
      const wasm = { events: eventsOf(sim), outcome: outcomeOf(sim) };
      sim.free();
      const native = runCli(file, moves);
      expect(canonical(wasm.events), `${basename(file)} schedule ${k}`).toBe(canonical(native.events));
      for (const key of ['cycles', 'stats', 'violations', 'vars', 'finished'] as const) {
        expect(canonical(wasm.outcome[key]), `${basename(file)} schedule ${k}: ${key}`).toBe(canonical(native[key]));
      }
    }
    played.schedules += SCHEDULES;
  });
  it('played migrations among them', () => {
    expect(played.schedules).toBe(SCHEDULES * scenarioFiles().length);
    expect(played.migrations).toBeGreaterThan(0);
  });
});

