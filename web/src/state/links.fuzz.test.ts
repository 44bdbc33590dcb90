// Permalinks and embed messages, mutated: seeded, 10,000 of each in `npm test`
// (LINK_FUZZ_CASES for more). Whatever a link holds, parsing it and opening its player state
// never throws: it is a page or a LinkError naming its part; a message is a command or ignored.
// Scenarios mutated as JSON values, re-encoded into links of #/play and #/compare, are opened
// and drawn (the stage's layout) or refused with a message.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadWasmNode, rng } from '../sim/testing';
import { layoutStage } from '../render/stage.layout';
import { CompareEngine } from '../ui/compare/engine';
import { playState } from '../ui/route';
import { deriver } from '../ui/useSimulation';
import { BUILTIN_TEXTS, DEFAULT_SCENARIO_ID } from '../ui/scenarios';
import { parseEmbedMessage } from './commands';
import { parseEmbedOptions } from './embed';
import { encodeScenario, parseHash } from './url';

beforeAll(loadWasmNode);

const CASES = Number(process.env.LINK_FUZZ_CASES ?? 10_000);

const SEEDS = [
  '#/play?s=sc01&m=T,T,T,I,I&at=4',
  '#/explore?s=sc02&m=&at=0',
  `#/play?s=${encodeScenario(BUILTIN_TEXTS.sc03 ?? '{}')}&m=T,U,migrate%3AT%3A1&at=2`,
  '#/play?s=sample&m=&at=0&goal=aba-without-tid/2',
  '#/lessons/aba-without-tid/3?from=2&to=5&controls=none&lines=1&theme=dark&autoplay=1',
  '#/lab',
  '#/',
  // The index's filter, the side-by-side view, a course page, and a link copied out
  // of HTML with its `&` escaped.
  '#/lessons?topic=fast-path&q=tid',
  '#/compare?s=sc01&at=2',
  '#/lessons/glossary/tid',
  '#/play?s=sc01&amp;m=T,T,I&amp;at=2&#38;goal=aba-without-tid/2',
  '#/play?s=sc02&m=T,T&at=1&goal=aba-without-tid/e1',
];
const PIECES = ['&', '=', ',', '?', '/', '%', '%2', '%ZZ', '#', 'm=', 'at=', 's=', 'goal=', '..', '-1', '99999999999', '1e3', 'é', '\u0000', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', '&amp;', '&#38;', 'topic=', 'q=', 'v1.', 'v2.', 'migrate:T:9', ' '];

function mutate(s: string, r: () => number): string {
  let out = s;
  const n = 1 + Math.floor(r() * 4);
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * (out.length + 1));
    const op = Math.floor(r() * 5);
    if (op === 0) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(r() * 6));
    else if (op === 1) out = out.slice(0, at) + (PIECES[Math.floor(r() * PIECES.length)] ?? '') + out.slice(at);
    else if (op === 2) out = out.slice(0, at) + String.fromCharCode(32 + Math.floor(r() * 95)) + out.slice(at + 1);
    else if (op === 3) out = out.slice(0, at);
    else out = out + out.slice(at);
  }
  return out;
}

describe('mutated permalinks', () => {
  it(`${CASES} never throw: a page, or an error naming its part`, () => {
    const r = rng(20261126);
    const kinds = new Map<string, number>();
    for (let i = 0; i < CASES; i++) {
      const hash = mutate(SEEDS[i % SEEDS.length] ?? '', r);
      const route = parseHash(hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
      kinds.set(route.kind, (kinds.get(route.kind) ?? 0) + 1);
      if (route.kind === 'error') {
        expect(route.part, hash).toMatch(/\S/);
        expect(route.message, hash).toMatch(/\S/);
      }
      if (route.kind === 'play') {
        const state = playState(route);
        if ('kind' in state) expect(state.message, hash).toMatch(/\S/);
        else expect(state.cursor, hash).toBeLessThanOrEqual(state.schedule.length);
      }
      const options = parseEmbedOptions(hash);
      if ('kind' in options) expect(options.part, hash).toMatch(/\S/);
    }
    // The mutations reach both sides: pages that open and links refused.
    expect(kinds.get('play') ?? 0).toBeGreaterThan(CASES / 10);
    expect(kinds.get('error') ?? 0).toBeGreaterThan(CASES / 10);
  });
});

describe('mutated embed messages', () => {
  const values = (r: () => number): unknown => {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
    const commands = ['next', 'prev', 'goto', 'play', 'pause', 'NEXT', '', 'constructor', '__proto__', 42, null];
    const steps = [0, 3, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '3', null, undefined, {}];
    switch (Math.floor(r() * 5)) {
      case 0:
        return { type: 'slub-lab:command', command: pick(commands), step: pick(steps) };
      case 1:
        return { type: pick(['slub-lab:command', 'slub-lab:step', 'other', 7]), command: pick(commands) };
      case 2:
        return pick([null, undefined, 0, 'next', [], [1, 2], true]);
      case 3:
        return Object.assign(Object.create(null) as object, { type: 'slub-lab:command', command: pick(commands), step: pick(steps) });
      default:
        return JSON.parse(JSON.stringify({ type: 'slub-lab:command', command: pick(commands), step: pick(steps), extra: 'x'.repeat(Math.floor(r() * 100)) })) as unknown;
    }
  };
  it(`${CASES} never throw: a command with a whole step, or ignored`, () => {
    const r = rng(7);
    let commands = 0;
    for (let i = 0; i < CASES; i++) {
      const m = values(r);
      const cmd = parseEmbedMessage(m);
      if (cmd === null) continue;
      commands++;
      expect(['next', 'prev', 'goto', 'play', 'pause']).toContain(cmd.command);
      if (cmd.command === 'goto') expect(Number.isInteger(cmd.step) && (cmd.step ?? -1) >= 0).toBe(true);
    }
    expect(commands).toBeGreaterThan(CASES / 10);
  });
});

/** A JSON value changed at one random place: a key dropped, a value replaced, an array cut. */
function mutateValue(v: unknown, r: () => number, depth = 0): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const odd = (): unknown =>
    pick<() => unknown>([
      () => -1,
      () => 0,
      () => 2 ** 40,
      () => 1.5,
      () => 'x',
      () => '',
      () => null,
      () => true,
      () => [],
      () => ({}),
      () => JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`) as unknown,
      () => 'T'.repeat(200),
    ])();
  if (Array.isArray(v)) {
    const xs = v as unknown[];
    if (xs.length === 0 || r() < 0.15) return r() < 0.5 ? [...xs, odd()] : xs.slice(0, Math.floor(r() * (xs.length + 1)));
    const i = Math.floor(r() * xs.length);
    return xs.map((x, j) => (j === i ? mutateValue(x, r, depth + 1) : x));
  }
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 0 || r() < 0.15) {
      if (r() < 0.5 && keys.length > 0) {
        const gone = pick(keys);
        return Object.fromEntries(Object.entries(v).filter(([k]) => k !== gone));
      }
      return { ...(v as Record<string, unknown>), [pick(['extra', 'schedule', 'variant', 'cpus', 'nodes', 'era'])]: odd() };
    }
    const k = pick(keys);
    return { ...(v as Record<string, unknown>), [k]: mutateValue((v as Record<string, unknown>)[k], r, depth + 1) };
  }
  return depth > 0 && r() < 0.7 ? odd() : v;
}

describe('mutated scenarios, re-encoded into links and rendered', () => {
  // Each case runs the simulator (setup, a frame, a layout), and on #/compare both designs.
  const SCENARIO_CASES = Math.max(50, Math.floor(CASES / 20));
  it(`${SCENARIO_CASES} links of mutated scenarios: a drawn frame, or an error naming its part`, () => {
    const r = rng(20261127);
    const ids = Object.keys(BUILTIN_TEXTS);
    let drawn = 0;
    let refused = 0;
    for (let i = 0; i < SCENARIO_CASES; i++) {
      const id = ids[i % ids.length] ?? 'sample';
      const scenario = JSON.stringify(mutateValue(JSON.parse(BUILTIN_TEXTS[id] ?? '{}'), r));
      const s = encodeScenario(scenario);
      for (const hash of [`#/play?s=${s}`, `#/compare?s=${s}&at=2`]) {
        const route = parseHash(hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
        if (route.kind === 'error') {
          expect(route.message, hash).toMatch(/\S/);
          refused++;
          continue;
        }
        if (route.kind === 'play') {
          const state = playState(route);
          if ('kind' in state) {
            expect(state.message, scenario).toMatch(/\S/);
            refused++;
            continue;
          }
          const derived = deriver(state.scenario)(state.schedule, state.cursor);
          if (derived.kind !== 'ok') {
            expect(derived.kind, `${scenario}: ${derived.message}`).toBe('error');
            refused++;
            continue;
          }
          const shapes = layoutStage(derived.view, derived.lastEvent, { columns: 2, selection: null });
          expect(shapes.cards.length, scenario).toBeGreaterThan(0);
          drawn++;
        }
        if (route.kind === 'compare') {
          const engine = CompareEngine.load(route.scenario);
          if (!(engine instanceof CompareEngine)) {
            expect(engine.message, scenario).toMatch(/\S/);
            refused++;
            continue;
          }
          engine.advance(5);
          const frames = engine.frame(0);
          expect(frames?.length, scenario).toBe(2);
          for (const f of frames ?? []) layoutStage(f.view, f.event, { columns: 2, selection: null });
          engine.free();
          drawn++;
        }
      }
    }
    expect(drawn).toBeGreaterThan(SCENARIO_CASES / 10);
    expect(refused).toBeGreaterThan(SCENARIO_CASES / 10);
  });
});
