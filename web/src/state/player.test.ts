import { describe, expect, it } from 'vitest';
import { canStepBack, canStepForward, initialState, perform, replayJson } from './player';

const s0 = initialState('{"schemaVersion":1,"cpus":1,"tasks":[]}');

describe('player actions', () => {
  it('step forward applies the first enabled move', () => {
    const s1 = perform(s0, { type: 'stepForward', enabledMoves: ['T', 'I'] });
    expect(s1.schedule).toEqual(['T']);
    expect(s1.cursor).toBe(1);
  });

  it('step forward with nothing enabled changes nothing', () => {
    expect(perform(s0, { type: 'stepForward', enabledMoves: [] })).toBe(s0);
    expect(canStepForward(s0, [])).toBe(false);
  });

  it('step back keeps the later moves and step forward replays them', () => {
    let s = perform(s0, { type: 'applyMove', move: 'T' });
    s = perform(s, { type: 'applyMove', move: 'I' });
    s = perform(s, { type: 'stepBack' });
    expect(s).toMatchObject({ schedule: ['T', 'I'], cursor: 1 });
    s = perform(s, { type: 'stepForward', enabledMoves: ['T'] });
    expect(s).toMatchObject({ schedule: ['T', 'I'], cursor: 2 });
  });

  it('a different move after stepping back branches', () => {
    let s = perform(s0, { type: 'applyMove', move: 'T' });
    s = perform(s, { type: 'applyMove', move: 'T' });
    s = perform(s, { type: 'stepBack' });
    s = perform(s, { type: 'applyMove', move: 'I' });
    expect(s).toMatchObject({ schedule: ['T', 'I'], cursor: 2 });
  });

  it('step back at the start changes nothing', () => {
    expect(perform(s0, { type: 'stepBack' })).toBe(s0);
    expect(canStepBack(s0)).toBe(false);
  });

  it('loading a scenario starts over', () => {
    const s = perform(perform(s0, { type: 'applyMove', move: 'T' }), {
      type: 'loadScenario',
      scenario: '{}',
    });
    expect(s).toMatchObject({ scenario: '{}', schedule: [], cursor: 0 });
  });

  it('a scenario with a schedule keeps its moves ahead of the cursor', () => {
    const scripted = JSON.stringify({ schemaVersion: 1, schedule: ['T', 'I'] });
    const s = perform(s0, { type: 'loadScenario', scenario: scripted });
    expect(s).toMatchObject({ scenario: scripted, schedule: ['T', 'I'], cursor: 0 });
    expect(perform(s, { type: 'stepForward', enabledMoves: ['I'] }).cursor).toBe(1);
    expect(initialState('not json').schedule).toEqual([]);
  });

  it('the replay carries the scenario and the moves played', () => {
    let s = perform(s0, { type: 'applyMove', move: 'T' });
    s = perform(s, { type: 'applyMove', move: 'I' });
    s = perform(s, { type: 'stepBack' });
    expect(JSON.parse(replayJson(s))).toEqual({
      schemaVersion: 1,
      cpus: 1,
      tasks: [],
      schedule: ['T'],
    });
    expect(JSON.parse(replayJson({ ...s, scenario: 'not json' }))).toEqual({ schedule: ['T'] });
  });
});

describe('▶ Play and a loaded schedule', () => {
  const loaded = perform(s0, { type: 'loadScenario', scenario: s0.scenario, schedule: ['T', 'I', 'T'], cursor: 3 });

  it('stops at the end of a loaded counterexample instead of running past it', () => {
    let s = perform({ ...loaded, cursor: 1 }, { type: 'play' });
    s = perform(s, { type: 'tick', enabledMoves: ['T'] });
    s = perform(s, { type: 'tick', enabledMoves: ['T'] });
    expect(s).toMatchObject({ cursor: 3, playing: true });
    s = perform(s, { type: 'tick', enabledMoves: ['T'] });
    expect(s).toMatchObject({ cursor: 3, playing: false, schedule: ['T', 'I', 'T'] });
  });

  it('replays the loaded schedule from its start when played at its end', () => {
    expect(perform(loaded, { type: 'togglePlay' })).toMatchObject({ cursor: 0, playing: true });
  });

  it('a branch inside the loaded schedule leaves it: play then runs on', () => {
    const s = perform({ ...loaded, cursor: 1 }, { type: 'applyMove', move: 'T' });
    expect(s.stopAt).toBeNull();
  });

  it('step forward goes on past the end; play then runs by the default policy', () => {
    let s = perform(loaded, { type: 'stepForward', enabledMoves: ['I'] });
    s = perform(s, { type: 'play' });
    s = perform(s, { type: 'tick', enabledMoves: ['T'] });
    expect(s).toMatchObject({ cursor: 5, playing: true });
  });
});
