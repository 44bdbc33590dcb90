// Node-only helpers for tests: load the wasm from web/src/sim/pkg without fetch, and find the
// repository's files. Not imported by the page.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkVersion, inspect, loadWasmSync, Simulation } from './simulator';
import type { Outcome, SimEvent, View } from './types';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const wasmPath = fileURLToPath(new URL('./pkg/slub_wasm_bg.wasm', import.meta.url));
/** The speed build (the explorer's worker): the only one with the `explore` export. */
export const fastWasmPath = fileURLToPath(new URL('./pkg-fast/slub_wasm_bg.wasm', import.meta.url));

export function loadWasmNode(): void {
  loadWasmSync(readFileSync(wasmPath));
}

export const samplePath = fileURLToPath(
  new URL('../../../lessons/00-sample/scenario.json', import.meta.url),
);
const scenariosDir = fileURLToPath(
  new URL('../../../wasm-core/sim/tests/scenarios/', import.meta.url),
);

/** The model's golden scenarios, or the sample scenario while there are none. */
export function scenarioFiles(): string[] {
  const files = existsSync(scenariosDir)
    ? readdirSync(scenariosDir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(scenariosDir, f))
    : [];
  return files.length > 0 ? files : [samplePath];
}

/** The scripted moves of a scenario file, if it has any. */
export function fileSchedule(text: string): string[] {
  const parsed = JSON.parse(text) as { schedule?: unknown };
  return Array.isArray(parsed.schedule) ? parsed.schedule.map(String) : [];
}

/** A seeded PRNG (mulberry32) for tests: the same cases on every run. Numbers in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every built-in scenario played to its end, seen at its start, half way and its end. */
export function scenarioFrames(): { file: string; at: number; view: View; event: SimEvent | undefined }[] {
  const frames: { file: string; at: number; view: View; event: SimEvent | undefined }[] = [];
  for (const file of scenarioFiles()) {
    const sim = new Simulation(readFileSync(file, 'utf8'));
    sim.runToEnd();
    for (const at of [0, Math.floor(sim.history().length / 2), sim.history().length]) {
      sim.seek(at);
      frames.push({ file, at, view: sim.view(), event: lastEventOf(sim) });
    }
    sim.free();
  }
  return frames;
}

// What tests ask of a simulation beyond what the page does (`Simulation` keeps the page's).

/** The moves that may come next. */
export function enabledMovesOf(sim: Simulation): string[] {
  return inspect(sim, (raw) => raw.enabledMoves());
}

/** Every event recorded up to the cursor. */
export function eventsOf(sim: Simulation): SimEvent[] {
  return JSON.parse(inspect(sim, (raw) => raw.events())) as SimEvent[];
}

/** The last event recorded up to the cursor, if any. */
export function lastEventOf(sim: Simulation): SimEvent | undefined {
  return eventsOf(sim).at(-1);
}

/** What `slub-lab run` prints, minus events, at the cursor. */
export function outcomeOf(sim: Simulation): Outcome {
  return checkVersion('outcome', JSON.parse(inspect(sim, (raw) => raw.outcome())) as Outcome);
}
