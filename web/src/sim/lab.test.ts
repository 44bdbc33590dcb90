// The lab's side of the bridge: the cases list, a comparison run in wasm is the
// native CLI's to the digit (`slub-lab bench seeds`), every stepper scenario plays, and the runner runs cases one at a time, keeps their results
// and survives a crashed run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { labRunSeed } from './pkg-lab/slub_lab_wasm.js';
import {
  labCases,
  loadLabSync,
  labPending,
  labStepperScenario,
  runLabRequest,
  type LabRunMessage,
  type LabRunRequest,
  type SeedResult,
} from './lab';
import { LabRunner, type WorkerLike } from './lab-runner';
import { Simulation } from './simulator';
import { loadWasmNode, outcomeOf, repoRoot } from './testing';

beforeAll(() => {
  loadWasmNode(); // the stepper scenarios are played by the simulator
  loadLabSync(readFileSync(join(repoRoot, 'web/src/sim/pkg-lab/slub_lab_wasm_bg.wasm')));
});

function run(id: string): LabRunMessage {
  const messages: LabRunMessage[] = [];
  runLabRequest(labRunSeed, () => undefined, { type: 'slub-lab:lab-run', version: 1, id }, (m) => messages.push(m));
  expect(messages).toHaveLength(1);
  const m = messages[0];
  if (m === undefined) throw new Error('no message');
  return m;
}

describe('the lab through the bridge', () => {
  it('lists every case and the pending seeds (their types are generated from Rust)', () => {
    const cases = labCases();
    expect(cases.cases.length).toBeGreaterThan(0);
    expect(cases.tolerance).toBe(0.25);
    expect(cases.costTable.map((r) => r.constant)).toContain('L1_HIT');
    for (const c of cases.cases) {
      expect(c.seedRatio).toBeCloseTo(c.published.after / c.published.before, 4);
      expect(c.change.length).toBeGreaterThan(0);
    }
    expect(new Set(cases.cases.map((c) => c.id)).size).toBe(cases.cases.length);
    expect(Array.isArray(labPending())).toBe(true);
  });

  it('runs a comparison in wasm to the same numbers as the native CLI', () => {
    const id = '000';
    const m = run(id);
    if (m.type !== 'result') throw new Error(m.message);
    const r = m.result;
    const cli = join(repoRoot, 'target', 'release', 'slub-lab');
    const native = JSON.parse(execFileSync(cli, ['bench', 'seeds', '--seed', id], { encoding: 'utf8' })) as { comparisons: SeedResult[] };
    expect(r).toEqual(native.comparisons[0]);
  });

  it('says which ids there are for an unknown one, and is not a crash', () => {
    const m = run('nope');
    expect(m).toMatchObject({ type: 'error', id: 'nope', crash: false });
    if (m.type === 'error') expect(m.message).toMatch(/no seed comparison `nope`; they are .*003/);
  });

  it('gives every side of every case a scenario the stepper plays to the end', () => {
    for (const c of labCases().cases) {
      for (const after of [false, true]) {
        const json = labStepperScenario(c.id, after);
        const sc = JSON.parse(json) as { name: string };
        expect(sc.name).toContain(`seed ${c.id} (${after ? 'after' : 'before'})`);
        const sim = new Simulation(json, { events: false });
        sim.runToEnd();
        const out = outcomeOf(sim);
        expect(out.finished, `${c.id} ${after ? 'after' : 'before'}`).toBe(true);
        expect(out.violations).toEqual([]);
        sim.free();
      }
    }
  });
});

/** A worker in the same thread: the real wasm behind runLabRequest, answering on a microtask. */
class FakeWorker implements WorkerLike {
  static started = 0;
  onmessage: ((ev: MessageEvent<LabRunMessage>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  terminated = false;
  constructor(private readonly crashOn: string | null = null) {
    FakeWorker.started++;
  }
  postMessage(req: LabRunRequest): void {
    queueMicrotask(() => {
      if (this.terminated) return;
      if (req.id === this.crashOn) {
        this.onmessage?.({ data: { type: 'error', id: req.id, message: 'panicked at lab.rs', crash: true } } as MessageEvent<LabRunMessage>);
        return;
      }
      runLabRequest(labRunSeed, () => undefined, req, (m) => this.onmessage?.({ data: m } as MessageEvent<LabRunMessage>));
    });
  }
  terminate(): void {
    this.terminated = true;
  }
}

function idle(runner: LabRunner): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (runner.snapshot().running.length === 0) {
        stop();
        resolve();
      }
    };
    const stop = runner.subscribe(check);
  });
}

describe('the lab runner', () => {
  it('runs the cases one at a time in order, keeps the results and does not run them again', async () => {
    FakeWorker.started = 0;
    const runner = new LabRunner(() => new FakeWorker());
    const seen: string[] = [];
    runner.subscribe(() => {
      const s = runner.snapshot();
      const now = s.running[0];
      if (now !== undefined && seen.at(-1) !== now) seen.push(now);
      expect([...s.runs.values()].filter((r) => r.state === 'running').length).toBeLessThanOrEqual(1);
    });
    const done = idle(runner);
    runner.request(['000', 'nope']);
    expect(runner.snapshot()).toMatchObject({ running: ['000'], batch: 2, ended: 0 });
    await done;
    expect(seen).toEqual(['000', 'nope']);
    const s = runner.snapshot();
    expect(s).toMatchObject({ running: [], batch: 2, ended: 2 });
    expect(s.batchMs).not.toBeNull();
    expect(s.runs.get('000')?.state).toBe('done');
    expect(s.runs.get('nope')).toMatchObject({ state: 'failed', crash: false });
    const before = runner.snapshot();
    runner.request(['000', 'nope']);
    expect(runner.snapshot()).toBe(before);
    expect(FakeWorker.started).toBe(1);
  });

  it('gives a crashed case a new worker for the next one, and runs it again on demand', async () => {
    FakeWorker.started = 0;
    let crashOn: string | null = '000';
    const runner = new LabRunner(() => new FakeWorker(crashOn));
    let done = idle(runner);
    runner.request(['000', 'nope']);
    await done;
    expect(runner.snapshot().runs.get('000')).toMatchObject({ state: 'failed', crash: true });
    expect(runner.snapshot().runs.get('nope')).toMatchObject({ state: 'failed', crash: false });
    expect(FakeWorker.started).toBe(2);
    crashOn = null;
    done = idle(runner);
    runner.retryFailed();
    await done;
    expect(runner.snapshot().runs.get('000')?.state).toBe('done');
  });

  it('with two workers runs two seeds at once and keeps each seed on one worker', async () => {
    FakeWorker.started = 0;
    const workers: FakeWorker[] = [];
    const ranOn = new Map<string, number>();
    const runner = new LabRunner(
      () => {
        const w = new FakeWorker();
        const post = w.postMessage.bind(w);
        const index = workers.length;
        w.postMessage = (req) => {
          ranOn.set(req.id, index);
          post(req);
        };
        workers.push(w);
        return w;
      },
      undefined,
      2,
    );
    let most = 0;
    runner.subscribe(() => {
      most = Math.max(most, runner.snapshot().running.length);
    });
    const done = idle(runner);
    runner.request(['003b', '003c', '004', '004b', '000']);
    expect(runner.snapshot().running).toEqual(['003b', '004']);
    await done;
    expect(most).toBe(2);
    expect(FakeWorker.started).toBe(2);
    expect(ranOn.get('003b')).toBe(ranOn.get('003c'));
    expect(ranOn.get('004')).toBe(ranOn.get('004b'));
    expect(ranOn.get('003b')).not.toBe(ranOn.get('004'));
    const s = runner.snapshot();
    expect(s).toMatchObject({ running: [], batch: 5, ended: 5 });
    expect([...s.runs.values()].every((r) => r.state === 'done')).toBe(true);
  });
});
