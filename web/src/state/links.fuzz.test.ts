// Permalinks and embed messages, mutated (issue 12 item 9): seeded, 10,000 of each in `npm test`
// (LINK_FUZZ_CASES for more). Whatever a link holds, parsing it and opening its player state
// never throws: it is a page or a LinkError naming its part; a message is a command or ignored.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadWasmNode, rng } from '../sim/testing';
import { playState } from '../ui/route';
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
];
const PIECES = ['&', '=', ',', '?', '/', '%', '%2', '%ZZ', '#', 'm=', 'at=', 's=', 'goal=', '..', '-1', '99999999999', '1e3', 'é', '\u0000', '__proto__', 'v1.', 'v2.', 'migrate:T:9', ' '];

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
