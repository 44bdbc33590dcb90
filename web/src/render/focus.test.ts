// The focused stage of an embed (focus.ts), on a real view of the model: Linux 7.0 on two nodes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Highlight } from '../lessons';
import { Simulation, type View } from '../sim';
import { loadWasmNode } from '../sim/testing';
import { focusView, keepOf } from './focus';

beforeAll(loadWasmNode);

/** Lesson 17's scenario (two CPUs, two nodes, sheaves of 4) after setup. */
function sheavesOnTwoNodes(): View {
  const text = readFileSync(join(__dirname, '../../../lessons/17-why-the-tid-went/scenario.json'), 'utf8');
  const sim = new Simulation(text);
  const view = sim.view();
  sim.free();
  return view;
}

describe('focusView', () => {
  it('leaves out a node whose partial list, list_lock and barn are all empty', () => {
    const view = sheavesOnTwoNodes();
    expect(view.nodes.map((n) => n.barn !== undefined)).toEqual([true, true]);
    expect(focusView(view).nodes).toEqual([]);
  });

  it("keeps the cards a step's highlights name, however empty", () => {
    const view = sheavesOnTwoNodes();
    const named: Highlight[] = [
      { kind: 'node', node: 0, field: 'barn' },
      { kind: 'cpu', cpu: 1, field: null },
      { kind: 'stat', stat: 'BARN_PUT' },
    ];
    const keep = keepOf(named);
    expect(keep).toEqual({ cpus: [1], nodes: [0], lines: false });
    const drawn = focusView(view, keep);
    expect(drawn.nodes.map((n) => n.node)).toEqual([0]);
    expect(drawn.cpus.map((c) => c.cpu)).toContain(1);
  });

  it('keeps a barn that holds a sheaf', () => {
    const view = sheavesOnTwoNodes();
    const sheaf = view.cpus[0]?.sheaves?.main;
    if (sheaf === undefined) throw new Error('no main sheaf');
    const withFull: View = { ...view, nodes: view.nodes.map((n) => (n.node === 1 && n.barn ? { ...n, barn: { ...n.barn, full: [sheaf] } } : n)) };
    expect(focusView(withFull).nodes.map((n) => n.node)).toEqual([1]);
  });
});
