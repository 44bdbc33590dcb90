// The projector crop's pure parts: the stage's rows, the set of rows a window holds, and the
// highlight that leads it (the DOM work is checked by the deck's survey, web/e2e/deck.spec.mjs).
import { describe, expect, it } from 'vitest';
import { bestRows, leadOf, rowsOf } from './cropStage';

describe('cropStage: rows of the stage, and the ones a window keeps', () => {
  // The strip, a CPU row of two cards, a slab row, a node: as a slide's stage draws them.
  const strip = { top: 4, bottom: 60 };
  const cpus = [
    { top: 80, bottom: 420 },
    { top: 80, bottom: 400 },
  ];
  const slab = { top: 440, bottom: 610 };
  const node = { top: 630, bottom: 720 };
  const rows = rowsOf([node, slab, ...cpus, strip]);

  it('merges cards that share height into one row, each with a few px kept around it', () => {
    expect(rows).toEqual([
      { top: 0, bottom: 64 },
      { top: 76, bottom: 424 },
      { top: 436, bottom: 614 },
      { top: 626, bottom: 724 },
    ]);
  });

  it('keeps the rows that hold most of the subject, closing the gap over a row left out', () => {
    // The subject: the CPU row and the node (not the slab between them); 460 px of room.
    const wanted = [rows[1], rows[3]].filter((r) => r !== undefined);
    const score = (runs: readonly { top: number; bottom: number }[]) => wanted.filter((w) => runs.some((r) => w.top >= r.top && w.bottom <= r.bottom)).length * 10 - runs.length;
    const best = bestRows(rows, 460, score);
    expect(best?.runs).toEqual([
      { top: 76, bottom: 424 },
      { top: 626, bottom: 724 },
    ]);
    // No set fits a room smaller than the CPU row alone.
    expect(bestRows(rows, 300, score)?.runs.some((r) => r.top === 76)).toBe(false);
  });

  it("leads with the author's first highlight: its card and the card's fields", () => {
    const cpu = leadOf({ kind: 'cpu', cpu: 1, field: 'array' });
    expect(['cpu:1', 'cpu:1/array_cache avail 4/4', 'cpu:0', 'cpu:10'].map((k) => cpu?.(k))).toEqual([true, true, false, false]);
    const slabP = leadOf({ kind: 'slab', slab: 'P', field: null });
    expect(['P', 'slab:P/inuse 4/4', 'Q'].map((k) => slabP?.(k))).toEqual([true, true, false]);
    expect(leadOf({ kind: 'node', node: 0, field: 'barn' })?.('barn:0')).toBe(true);
    expect(leadOf({ kind: 'var' })).toBeNull();
    expect(leadOf(undefined)).toBeNull();
  });
});
