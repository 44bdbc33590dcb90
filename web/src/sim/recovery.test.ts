// After a Rust panic the page recovers: the crash carries the real panic, the
// module is re-instantiated, a simulation made afterwards works, a later bad input gets its own
// error (not the old panic), and a handle of the crashed instance refuses to be used.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { panicForTest, SimCrash, SimError, Simulation } from './index';
import { loadWasmNode, samplePath } from './testing';

beforeAll(loadWasmNode);

describe('recovery from a panic', () => {
  it('re-instantiates the module and keeps later errors apart', () => {
    const sample = readFileSync(samplePath, 'utf8');
    const before = new Simulation(sample);
    before.apply(before.view().enabledMoves[0] ?? 'T');
    expect(() => panicForTest()).toThrow(SimCrash);
    try {
      panicForTest();
    } catch (e) {
      expect((e as Error).message).toMatch(/a panic asked for by a test/);
    }
    // A new simulation runs on the fresh instance, as one made before any crash would.
    const after = new Simulation(sample);
    after.runToEnd();
    const fresh = new Simulation(sample);
    fresh.runToEnd();
    expect(after.view()).toEqual(fresh.view());
    after.free();
    fresh.free();
    // A bad scenario after the crash is a bad scenario, not the old panic.
    expect(() => new Simulation('{"schemaVersion": 1}')).toThrow(SimError);
    // The handle of the crashed instance refuses every call, with a crash.
    expect(() => before.view()).toThrow();
  });
});
