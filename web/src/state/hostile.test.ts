// Hostile links. Every route survives prototype keys (`__proto__`, `constructor`) in
// every query parameter and path segment; a link's moves are bounded as the command line's are
// (one constant, generated from Rust); an HTML-escaped link keeps its moves; the goal banner's
// rule is the grader's.
import { beforeAll, describe, expect, it } from 'vitest';
import { DESCRIPTIONS } from '../lessons/vocabulary';
import { notTheGoal } from '../lessons/same-exercise';
import { MAX_SCHEDULE_MOVES } from '../sim/generated/limits';
import { loadWasmNode } from '../sim/testing';
import { parseLessonPath } from '../ui/lessons/route';
import { BUILTIN_TEXTS, DEFAULT_SCENARIO_ID } from '../ui/scenarios';
import { parseEmbedOptions } from './embed';
import { parseHash } from './url';

const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__'];
const ROUTES: readonly { path: string; params: readonly string[] }[] = [
  { path: '/', params: ['s', 'm', 'at', 'goal'] },
  { path: '/play', params: ['s', 'm', 'at', 'goal'] },
  { path: '/explore', params: ['s', 'm', 'at', 'goal'] },
  { path: '/compare', params: ['s', 'at'] },
  { path: '/lab', params: ['x'] },
  { path: '/lessons', params: ['topic', 'q'] },
  { path: '/lessons/aba-without-tid/2', params: ['from', 'to', 'controls', 'theme', 'lines', 'density', 'keys', 'autoplay'] },
  { path: '/lessons/glossary', params: ['x'] },
  { path: '/lessons/invariants', params: ['x'] },
];

/** Every value a route hands on is a string, a number, null or an array of strings: never an object from a prototype. */
function plain(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return true;
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string');
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.values(v).every(plain);
  return false;
}

describe('prototype keys in every route', () => {
  const hashes: string[] = [];
  for (const { path, params } of ROUTES) {
    for (const key of KEYS) {
      for (const p of params) hashes.push(`#${path}?${p}=${key}`, `#${path}?${key}=${key}&${p}=${encodeURIComponent(key)}`);
      const segments = path.split('/').filter((x) => x !== '');
      for (let i = 0; i <= segments.length; i++) {
        const s = [...segments];
        s[i] = key;
        hashes.push(`#/${s.join('/')}`, `#/${s.join('/')}?${key}=1`);
      }
    }
  }

  it(`${String(hashes.length)} links parse to a page or an error naming its part`, () => {
    for (const hash of hashes) {
      const route = parseHash(hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
      expect(plain(route), hash).toBe(true);
      if (route.kind === 'error') expect(route.message, hash).toMatch(/\S/);
      if (route.kind === 'lessons') {
        const lr = parseLessonPath(route.path, route.query);
        expect(plain(lr), hash).toBe(true);
        if (lr.kind === 'index' && lr.topic !== null) {
          // The index renders the topic's description: a prototype key has none (React error #31 before).
          expect(DESCRIPTIONS.topics[lr.topic], hash).toBeUndefined();
        }
      }
      const options = parseEmbedOptions(hash);
      expect(plain(options), hash).toBe(true);
    }
  });

  it('the vocabularies hold only their own entries', () => {
    for (const key of KEYS) {
      expect(DESCRIPTIONS.topics[key]).toBeUndefined();
      expect(DESCRIPTIONS.seeds[key]).toBeUndefined();
      expect(DESCRIPTIONS.patches[key]).toBeUndefined();
    }
    expect(DESCRIPTIONS.topics['fast-path']).toMatch(/\S/);
  });
});

describe('a link of many moves', () => {
  it('is bounded by the command line’s MAX_SCHEDULE_MOVES, refused with its part', () => {
    expect(MAX_SCHEDULE_MOVES).toBe(100_000);
    const at = Array.from({ length: MAX_SCHEDULE_MOVES }, () => 'T').join(',');
    expect(parseHash(`#/play?s=sc01&m=${at}&at=0`, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID)).toMatchObject({ kind: 'play' });
    const over = `${at},T`;
    const route = parseHash(`#/play?s=sc01&m=${over}&at=0`, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
    expect(route).toMatchObject({ kind: 'error', part: 'm' });
    if (route.kind === 'error') expect(route.message).toBe('100,001 moves: a link holds at most 100,000 (MAX_SCHEDULE_MOVES, as slub-lab run --schedule)');
  });
});

describe('an HTML-escaped link', () => {
  it.each(['&amp;', '&#38;', '&#x26;', '&AMP;'])('keeps its moves with %s', (amp) => {
    const route = parseHash(`#/play?s=sc01${amp}m=T,T,I${amp}at=2${amp}goal=aba-without-tid/2`, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
    expect(route).toMatchObject({ kind: 'play', moves: ['T', 'T', 'I'], at: 2, goal: 'aba-without-tid/2' });
  });
});

describe('the goal banner’s rule (slub-lab grade’s)', () => {
  beforeAll(loadWasmNode);
  const opening = { scenario: '{"schemaVersion":1,"name":"x","cpus":2,"variant":{"fastpath":"no-tid"}}', moves: ['T', 'T'] };
  it('holds for the opening, renamed, keys reordered, moves added', () => {
    expect(notTheGoal(opening, opening.scenario, ['T', 'T'])).toBeNull();
    expect(notTheGoal(opening, '{"variant":{"fastpath":"no-tid"},"cpus":2,"schemaVersion":1,"name":"y","schedule":["I"]}', ['T', 'T', 'I'])).toBeNull();
  });
  it('fails for another variant, a variant key added, or moves that do not start at the opening', () => {
    expect(notTheGoal(opening, '{"schemaVersion":1,"name":"x","cpus":2,"variant":{"fastpath":"tid-loop"}}', ['T', 'T'])).toMatch(/variant/);
    expect(notTheGoal(opening, '{"schemaVersion":1,"name":"x","cpus":2,"variant":{"fastpath":"no-tid","prefetch":false}}', ['T', 'T'])).toMatch(/variant/);
    expect(notTheGoal(opening, opening.scenario, ['T'])).toMatch(/moves/);
    expect(notTheGoal(opening, opening.scenario, ['I', 'T'])).toMatch(/moves/);
  });
  it('is the grader’s own: 2 and 2.0 are different scenarios to it, so to the banner too', () => {
    expect(notTheGoal(opening, '{"schemaVersion":1,"name":"x","cpus":2.0,"variant":{"fastpath":"no-tid"}}', ['T', 'T'])).toMatch(/variant/);
    expect(notTheGoal(opening, 'not JSON', ['T', 'T'])).toMatch(/variant/);
  });
});
