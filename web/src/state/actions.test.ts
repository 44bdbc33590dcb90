import { describe, expect, it } from 'vitest';
import { COMMANDS, commandAction, commandForKey, parseEmbedMessage } from './commands';
import { initialState, perform, SPEEDS } from './player';
import { decodeScenario, encodeScenario, parseHash, playHash } from './url';
import { variantOf, withVariant } from './variant';

const s0 = initialState('{"schemaVersion":1,"cpus":1,"tasks":[],"schedule":["T","T","I"]}');

describe('player actions beyond stepping', () => {
  it('goto clamps to the kept schedule; first and last go to its ends', () => {
    expect(perform(s0, { type: 'goto', cursor: 2 }).cursor).toBe(2);
    expect(perform(s0, { type: 'goto', cursor: 99 }).cursor).toBe(3);
    expect(perform(s0, { type: 'goto', cursor: -4 })).toBe(s0);
    expect(perform(s0, { type: 'last' }).cursor).toBe(3);
    expect(perform(perform(s0, { type: 'last' }), { type: 'first' }).cursor).toBe(0);
  });

  it('play ticks forward and pauses when nothing can move', () => {
    let s = perform(s0, { type: 'play' });
    expect(s.playing).toBe(true);
    for (let i = 0; i < 3; i++) s = perform(s, { type: 'tick', enabledMoves: [] });
    expect(s).toMatchObject({ cursor: 3, playing: true });
    s = perform(s, { type: 'tick', enabledMoves: [] });
    expect(s).toMatchObject({ cursor: 3, playing: false });
    expect(perform(s, { type: 'tick', enabledMoves: ['T'] })).toBe(s); // paused: no tick
  });

  it('stepping back pauses; speed stays within SPEEDS', () => {
    // (At the end of the loaded schedule, play would start it again from the beginning.)
    const playing = perform(perform(s0, { type: 'goto', cursor: 2 }), { type: 'play' });
    expect(perform(playing, { type: 'stepBack' }).playing).toBe(false);
    let s = s0;
    for (let i = 0; i < 20; i++) s = perform(s, { type: 'faster' });
    expect(s.speed).toBe(SPEEDS.length - 1);
    for (let i = 0; i < 20; i++) s = perform(s, { type: 'slower' });
    expect(s.speed).toBe(0);
  });

  it('select toggles; loading keeps the speed and takes the given moves', () => {
    const sel = perform(s0, { type: 'select', name: 'p1' });
    expect(sel.selection).toBe('p1');
    expect(perform(sel, { type: 'select', name: 'p1' }).selection).toBeNull();
    const fast = perform(s0, { type: 'setSpeed', speed: 4 });
    const loaded = perform(fast, { type: 'loadScenario', scenario: '{}', schedule: ['A', 'B'], cursor: 5 });
    expect(loaded).toMatchObject({ scenario: '{}', schedule: ['A', 'B'], cursor: 2, speed: 4 });
  });
});

describe('commands: one table for keys, help and the embed API', () => {
  it('maps keys to commands and commands to actions', () => {
    expect(commandForKey('ArrowRight')).toBe('next');
    expect(commandForKey('?')).toBe('help');
    expect(commandAction('next', { enabledMoves: ['T'] })).toEqual({ type: 'stepForward', enabledMoves: ['T'] });
    expect(commandAction('goto', { enabledMoves: [], step: 4 })).toEqual({ type: 'goto', cursor: 4 });
    expect(commandAction('help', { enabledMoves: [] })).toBeNull();
    expect(commandForKey('e')).toBe('explore');
    expect(commandForKey('c')).toBe('counterexample');
    expect(commandAction('explore', { enabledMoves: [] })).toBeNull();
    const keys = COMMANDS.flatMap((c) => c.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('accepts exactly the design.md §6 message shapes', () => {
    expect(parseEmbedMessage({ type: 'slub-lab:command', command: 'next' })).toEqual({ command: 'next' });
    expect(parseEmbedMessage({ type: 'slub-lab:command', command: 'goto', step: 3 })).toEqual({ command: 'goto', step: 3 });
    expect(parseEmbedMessage({ type: 'slub-lab:command', command: 'goto' })).toBeNull();
    expect(parseEmbedMessage({ type: 'slub-lab:command', command: 'goto', step: -1 })).toBeNull();
    expect(parseEmbedMessage({ type: 'slub-lab:command', command: 'explode' })).toBeNull();
    expect(parseEmbedMessage({ type: 'other', command: 'next' })).toBeNull();
    expect(parseEmbedMessage('next')).toBeNull();
    expect(parseEmbedMessage(null)).toBeNull();
  });
});

describe('permalinks', () => {
  const builtins = { sample: '{"schemaVersion":1,"cpus":1,"tasks":[]}' };

  it('round-trips a state through the hash, built-in by id, others encoded (v1.)', () => {
    const h = playHash(builtins.sample, ['T', 'migrate:T:1'], 1, builtins);
    expect(h).toBe('#/play?s=sample&m=T,migrate%3AT%3A1&at=1');
    expect(parseHash(h, builtins, 'sample')).toEqual({
      kind: 'play',
      page: 'play',
      scenario: builtins.sample,
      scenarioId: 'sample',
      moves: ['T', 'migrate:T:1'],
      at: 1,
      goal: null,
    });
    // A try-it's goal rides along; a malformed one names the parameter.
    const g = playHash(builtins.sample, [], 0, builtins, 'play', 'aba-without-tid/2');
    expect(g).toBe('#/play?s=sample&m=&at=0&goal=aba-without-tid/2');
    expect(parseHash(g, builtins, 'sample')).toMatchObject({ kind: 'play', goal: 'aba-without-tid/2' });
    expect(parseHash('#/play?s=sample&goal=../x', builtins, 'sample')).toMatchObject({ kind: 'error', part: 'goal' });
    expect(parseHash('#/play?s=sample&goal=aba/0', builtins, 'sample')).toMatchObject({ kind: 'error', part: 'goal' });
    const custom = '{"schemaVersion":1,"name":"é ✓","cpus":2,"tasks":[]}';
    const h2 = playHash(custom, [], 0, builtins);
    expect(h2).toMatch(/^#\/play\?s=v1\.[A-Za-z0-9_-]+&m=&at=0$/);
    const r = parseHash(h2, builtins, 'sample');
    expect(r).toMatchObject({ kind: 'play', scenarioId: null, moves: [], at: 0 });
    expect(r.kind === 'play' && JSON.parse(r.scenario)).toEqual(JSON.parse(custom));
  });

  it('names the part of a link that cannot be decoded', () => {
    expect(parseHash('#/play?s=v1.%%%', builtins, 'sample')).toMatchObject({ kind: 'error', part: 's' });
    expect(parseHash('#/play?s=v9.abc', builtins, 'sample')).toMatchObject({ kind: 'error', part: 's', message: /v9/ });
    expect(parseHash('#/play?s=nosuch', builtins, 'sample')).toMatchObject({ kind: 'error', part: 's' });
    expect(parseHash(`#/play?s=${encodeScenario('x').slice(0, -1)}`, builtins, 'sample')).toMatchObject({ kind: 'error', part: 's' });
    expect(parseHash('#/play?m=T,,I', builtins, 'sample')).toMatchObject({ kind: 'error', part: 'm' });
    expect(parseHash('#/play?m=T&at=2', builtins, 'sample')).toMatchObject({ kind: 'error', part: 'at' });
    expect(parseHash('#/play?at=x', builtins, 'sample')).toMatchObject({ kind: 'error', part: 'at' });
    expect(parseHash('#/nowhere', builtins, 'sample')).toMatchObject({ kind: 'error', part: 'route' });
    expect(parseHash('#/lab', builtins, 'sample')).toMatchObject({ kind: 'lab' });
    expect(parseHash('#/explore?s=sample&m=T&at=1', builtins, 'sample')).toMatchObject({ kind: 'play', page: 'explore', moves: ['T'], at: 1 });
    expect(playHash(builtins.sample, ['T'], 1, builtins, 'explore')).toBe('#/explore?s=sample&m=T&at=1');
    expect(parseHash('', builtins, 'sample')).toEqual({ kind: 'home' });
    expect(parseHash('#/', builtins, 'sample')).toEqual({ kind: 'home' });
    expect(parseHash('#/?s=sample', builtins, 'sample')).toMatchObject({ kind: 'play', scenarioId: 'sample', moves: null, at: 0 });
    expect(decodeScenario(encodeScenario('{"a":1}'))).toEqual({ ok: true, text: '{"a":1}' });
  });
});

describe('variant toggles', () => {
  it('set and clear keys of the variant object', () => {
    const base = '{"schemaVersion":1,"cpus":1,"tasks":[]}';
    const era = withVariant(base, 'era', 'v3.1') ?? '';
    expect(variantOf(era)).toEqual({ era: 'v3.1' });
    const both = withVariant(era, 'cpuPartial', false) ?? '';
    expect(variantOf(both)).toEqual({ era: 'v3.1', cpuPartial: false });
    const cleared = withVariant(withVariant(both, 'era', undefined) ?? '', 'cpuPartial', undefined) ?? '';
    expect(JSON.parse(cleared)).toEqual(JSON.parse(base));
    expect(withVariant('not json', 'era', 'v3.1')).toBeNull();
  });
});
