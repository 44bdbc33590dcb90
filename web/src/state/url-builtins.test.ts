// A built-in scenario id is looked up as an own key of the table: names every object inherits
// (`__proto__`, `constructor`, `toString`) are not scenarios, they are links to decode, and
// fail as such with their own message.
import { describe, expect, it } from 'vitest';
import { parseHash } from './url';

const BUILTINS: Readonly<Record<string, string>> = { sample: '{"schemaVersion":1}' };

describe('parseHash with a built-in id', () => {
  it('finds a built-in scenario by its id', () => {
    expect(parseHash('#/play?s=sample', BUILTINS, 'sample')).toMatchObject({ kind: 'play', scenarioId: 'sample' });
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('treats s=%s as an undecodable link, not a built-in', (id) => {
    const route = parseHash(`#/play?s=${id}`, BUILTINS, 'sample');
    expect(route).toMatchObject({ kind: 'error', part: 's' });
    if (route.kind === 'error') expect(typeof route.message).toBe('string');
  });
});
