// The lesson pages' pure parts: routes, progress, the step player, highlights in words, and
// every lesson's links (each step's permalink and its "try it yourself" playground link) read
// back by the routers, with the playground's state playing in the wasm simulator.
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { movesThrough, stageTrack, tryItPlayground } from '../../lessons';
import { loadLessons } from '../../lessons/library';
import { listing, Simulation } from '../../sim/simulator';
import { loadWasmNode, outcomeOf, repoRoot } from '../../sim/testing';
import { parseHash, playHash } from '../../state/url';
import { BUILTIN_TEXTS, DEFAULT_SCENARIO_ID } from '../scenarios';
import { codeFor, describeHighlight, type Highlight } from './highlight';
import {
  createProgressStore,
  EMPTY,
  lessonStatus,
  parseProgress,
  PROGRESS_KEY,
  withAnswer,
  withoutAnswer,
  withVisit,
} from './progress';
import { indexHash, lessonHash, parseLessonPath, resolveStep } from './route';
import { stepAction, stepReducer } from './stepper';
import { MAX_WALK_MS, MIN_FRAME_MS, moveMs } from './useWalk';

const { lessons } = loadLessons(join(repoRoot, 'lessons'));

function route(hash: string) {
  const r = parseHash(hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
  if (r.kind !== 'lessons') throw new Error(`${hash} is not a lesson route: ${JSON.stringify(r)}`);
  return parseLessonPath(r.path, r.query);
}

describe('lesson routes', () => {
  it('read the index with its filter and the reader with its step', () => {
    expect(route('#/lessons')).toEqual({ kind: 'index', topic: null, text: '' });
    expect(route('#/lessons/')).toEqual({ kind: 'index', topic: null, text: '' });
    expect(route('#/lessons?topic=tid&q=remote%20free')).toEqual({ kind: 'index', topic: 'tid', text: 'remote free' });
    expect(route('#/lessons/interrupt-retry/4')).toEqual({ kind: 'step', id: 'interrupt-retry', step: 4 });
    expect(route('#/lessons/interrupt-retry')).toEqual({ kind: 'step', id: 'interrupt-retry', step: 1 });
  });

  it('name the part of a bad link', () => {
    expect(route('#/lessons/x/zero')).toMatchObject({ kind: 'error', part: 'step' });
    expect(route('#/lessons/x/0')).toMatchObject({ kind: 'error', part: 'step', message: 'steps are counted from 1' });
    expect(route('#/lessons/x/1/2')).toMatchObject({ kind: 'error', part: 'route' });
    expect(parseHash('#/lessonsx', BUILTIN_TEXTS, DEFAULT_SCENARIO_ID)).toMatchObject({ kind: 'error', part: 'route' });
    expect(resolveStep(lessons, 'nope', 1)).toMatchObject({ kind: 'error', part: 'lesson', message: expect.stringContaining('"nope"') as unknown });
    expect(resolveStep(lessons, 'interrupt-retry', 99)).toMatchObject({ kind: 'error', part: 'step', message: expect.stringContaining('steps, not 99') as unknown });
  });

  it('round-trip through the hash builders', () => {
    expect(route(lessonHash('aba-without-tid', 7))).toEqual({ kind: 'step', id: 'aba-without-tid', step: 7 });
    expect(route(indexHash('cache-lines', 'prefetch 000'))).toEqual({ kind: 'index', topic: 'cache-lines', text: 'prefetch 000' });
    expect(indexHash(null, '  ')).toBe('#/lessons');
  });
});

describe('progress', () => {
  it('records visits and answers, and says when a lesson is completed', () => {
    let p = withVisit(EMPTY, 'a', 2);
    expect(withVisit(p, 'a', 2)).toBe(p);
    expect(lessonStatus(p, 'a', 3)).toEqual({ visited: 1, total: 3, completed: false, resumeAt: 1 });
    p = withVisit(withVisit(p, 'a', 1), 'a', 3);
    expect(lessonStatus(p, 'a', 3)).toEqual({ visited: 3, total: 3, completed: true, resumeAt: 1 });
    expect(lessonStatus(withVisit(EMPTY, 'a', 1), 'a', 3).resumeAt).toBe(2);
    // A lesson that lost steps since: visits beyond its end do not count.
    expect(lessonStatus(withVisit(EMPTY, 'a', 9), 'a', 3).visited).toBe(0);
    p = withAnswer(p, 'a', 2, 1);
    expect(p.lessons.a?.answers).toEqual({ '2': 1 });
    expect(withoutAnswer(p, 'a', 2).lessons.a?.answers).toEqual({});
  });

  it('reads back what it stored and drops what it cannot read', () => {
    const p = withAnswer(withVisit(EMPTY, 'x', 4), 'x', 4, 0);
    expect(parseProgress(JSON.stringify(p))).toEqual(p);
    expect(parseProgress(null)).toEqual(EMPTY);
    expect(parseProgress('{not json')).toEqual(EMPTY);
    expect(parseProgress('{"version":2,"lessons":{}}')).toEqual(EMPTY);
    expect(parseProgress('{"version":1,"lessons":{"y":{"visited":[3,"a",-1,3,1],"answers":{"2":1,"b":0,"3":"x"}},"z":5}}')).toEqual({
      version: 1,
      lessons: { y: { visited: [1, 3], answers: { '2': 1 } } },
    });
  });

  it('persists through its store and survives a storage that refuses', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    } as unknown as Storage;
    const store = createProgressStore(storage);
    let calls = 0;
    const off = store.subscribe(() => calls++);
    store.visit('a', 1);
    store.visit('a', 1);
    store.answer('a', 1, 2);
    expect(calls).toBe(2);
    expect(createProgressStore(storage).getSnapshot()).toEqual(store.getSnapshot());
    store.reset();
    expect(data.has(PROGRESS_KEY)).toBe(false);
    off();
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    } as unknown as Storage;
    const memory = createProgressStore(refusing);
    memory.visit('b', 2);
    expect(memory.getSnapshot().lessons.b?.visited).toEqual([2]);
  });
});

describe('the step player', () => {
  const step = stepReducer({ lo: 2, hi: 4 });
  it('stays within its bounds', () => {
    expect(step({ step: 2, playing: false }, { type: 'prev' })).toEqual({ step: 2, playing: false });
    expect(step({ step: 4, playing: false }, { type: 'next' })).toEqual({ step: 4, playing: false });
    expect(step({ step: 2, playing: false }, { type: 'goto', step: 99 })).toEqual({ step: 4, playing: false });
    expect(step({ step: 3, playing: false }, { type: 'first' })).toEqual({ step: 2, playing: false });
  });
  it('plays to the last step and stops there; playing again starts over', () => {
    let s = step({ step: 2, playing: false }, { type: 'play' });
    s = step(s, { type: 'tick' });
    expect(s).toEqual({ step: 3, playing: true });
    s = step(s, { type: 'tick' });
    expect(s).toEqual({ step: 4, playing: false });
    expect(step(s, { type: 'togglePlay' })).toEqual({ step: 2, playing: true });
  });
  it('takes the commands of the shared table', () => {
    expect(stepAction('next')).toEqual({ type: 'next' });
    expect(stepAction('goto', 3)).toEqual({ type: 'goto', step: 3 });
    expect(stepAction('goto')).toBeNull();
    expect(stepAction('help')).toBeNull();
  });
});

describe('every lesson', () => {
  beforeAll(loadWasmNode);

  it('has highlights the reader can mark and describe at their step', () => {
    const code = listing();
    for (const lesson of lessons) {
      for (const step of lesson.steps) {
        // The run the step's stage shows: the lesson's own, or a what-if's.
        const track = stageTrack(lesson, step);
        const sim = new Simulation(track.scenario, { events: false });
        try {
          for (const m of track.moves.slice(0, track.after)) sim.apply(m);
          const view = sim.view();
          const outcome = outcomeOf(sim);
          for (const h of step.highlights) {
            const name = h.name;
            const words = describeHighlight(h, view, outcome, codeFor(view, code, sim.listing()));
            expect(words, `${lesson.id} step ${step.n}: ${name}`).not.toMatch(/not made yet|not in this scenario/);
            if (view.allocator === 'slab') {
              // SLAB has no kmem_cache_cpu, and its node counts partial slabs on its lists.
              expect(words, `${lesson.id} step ${step.n}: ${name}`).not.toMatch(/kmem_cache_cpu|freelist:|partial slabs?,/);
            }
            if (h.kind === 'code') expect(words, `${lesson.id} step ${step.n}: ${name}`).toMatch(/: \S/);
          }
        } finally {
          sim.free();
        }
      }
    }
  });

  it('links each step to the playground at its state, and its try-it to the state the lesson says', () => {
    for (const lesson of lessons) {
      for (const step of lesson.steps) {
        const moves = movesThrough(lesson, step.n);
        const link = parseHash(playHash(lesson.scenario, moves, moves.length, BUILTIN_TEXTS), BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
        expect(link).toMatchObject({ kind: 'play', scenario: lesson.scenario, moves, at: moves.length });
        const t = tryItPlayground(lesson, step);
        if (t === null) continue;
        const tl = parseHash(playHash(t.scenario, t.moves, t.moves.length, BUILTIN_TEXTS), BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
        expect(tl).toMatchObject({ kind: 'play', scenario: t.scenario, moves: t.moves, at: t.moves.length });
        const sim = new Simulation(t.scenario, { events: false });
        try {
          for (const m of t.moves) sim.apply(m);
        } finally {
          sim.free();
        }
      }
    }
  });
});

describe('SLAB highlights in words (the slab-queues lesson, step 6)', () => {
  beforeAll(loadWasmNode);

  it('name the array_cache, the lists, counters and shared array of a node', () => {
    const lesson = lessons.find((l) => l.id === 'slab-queues');
    if (lesson === undefined) throw new Error('lesson slab-queues is missing');
    const sim = new Simulation(lesson.scenario, { events: false });
    try {
      for (const m of movesThrough(lesson, 6)) sim.apply(m);
      const view = sim.view();
      const words = (h: Highlight) => describeHighlight(h, view, outcomeOf(sim), listing());
      expect(words({ kind: 'cpu', cpu: 0, field: null })).toBe("CPU 0's array_cache: p2, q1, p1 (top p1), 3 of 4");
      expect(words({ kind: 'cpu', cpu: 1, field: 'array' })).toBe("CPU 1's array_cache: empty, 0 of 4");
      expect(words({ kind: 'cpu', cpu: 0, field: 'irqs' })).toBe('CPU 0 · interrupts on');
      expect(words({ kind: 'node', node: 0, field: 'free_objects' })).toBe('node 0 · free_objects: 2 (free_limit 10)');
      expect(words({ kind: 'node', node: 0, field: 'shared' })).toBe('node 0 · shared array: q0, p0 (top p0), 2 of 2');
      expect(words({ kind: 'node', node: 0, field: 'partial' })).toBe('node 0 · slabs_partial: Q');
      expect(words({ kind: 'node', node: 0, field: 'slabs_full' })).toBe('node 0 · slabs_full: P');
      expect(words({ kind: 'node', node: 0, field: 'slabs_free' })).toBe('node 0 · slabs_free: none');
      expect(words({ kind: 'node', node: 0, field: 'list_lock' })).toBe('node 0 · list_lock: free');
      expect(words({ kind: 'node', node: 0, field: null })).toBe(
        'node 0: free_objects 2; partial Q, full P, free none; shared array q0, p0 (top p0), 2 of 2; list_lock free',
      );
      expect(words({ kind: 'slab', slab: 'P', field: null })).toBe('slab P: on node 0\'s full list, inuse 4/4');
      expect(words({ kind: 'object', object: 'q0', fp: false })).toBe("object q0: free in node 0's shared array");
    } finally {
      sim.free();
    }
  });
});

describe('moveMs: every step plays move by move', () => {
  it('gives a long step a time per move, under a cap on the whole walk', () => {
    expect(moveMs(0, 1)).toBe(0);
    expect(moveMs(4, 1)).toBe(320);
    // Lesson 04 step 9's 47 moves: 120 ms each, 5.6 s in all.
    expect(moveMs(47, 1)).toBe(120);
    for (const n of [31, 47, 100, 500, 5000]) {
      for (const speed of [0.25, 1, 2]) {
        expect(moveMs(n, speed)).toBeGreaterThan(0);
        expect(moveMs(n, speed) * n).toBeLessThanOrEqual(Math.max(MAX_WALK_MS, MIN_FRAME_MS * n) / speed + n);
      }
    }
    expect(moveMs(5000, 1)).toBe(MIN_FRAME_MS);
  });
});

describe("a wrong answer's verdict", () => {
  it('quotes the chosen choice inside its sentence without its full stop: never ".;"', async () => {
    const { withoutFullStop } = await import('./Predict');
    expect(withoutFullStop('what T asked for.')).toBe('what T asked for');
    expect(withoutFullStop('<code>p1</code> is freed.</em>')).toBe('<code>p1</code> is freed</em>');
    expect(withoutFullStop('about 3.5 cycles')).toBe('about 3.5 cycles');
    let choices = 0;
    for (const l of lessons) {
      for (const s of l.steps) {
        for (const c of s.predict?.choicesHtml ?? []) {
          choices++;
          expect(`${withoutFullStop(c)}; the model says`).not.toMatch(/\.(\s|<\/[a-z]+>)*; the model/i);
        }
      }
    }
    expect(choices).toBeGreaterThan(20);
  });
});
