// The embed's options: each names its parameter when it cannot be read.
import { describe, expect, it } from 'vitest';
import { parseEmbedOptions } from './embed';

describe('parseEmbedOptions', () => {
  it('reads the defaults: minimal controls, the light theme, cache lines decided by the lesson', () => {
    expect(parseEmbedOptions('#/lessons/x/1')).toEqual({ controls: 'minimal', density: 'normal', keys: 'own', theme: 'light', lines: 'auto', from: 0, to: null, autoplay: false });
  });
  it('reads the projector density and the deck keys, and names a bad value', () => {
    expect(parseEmbedOptions('#/lessons/x/1?density=projector&keys=deck')).toMatchObject({ density: 'projector', keys: 'deck' });
    expect(parseEmbedOptions('#/lessons/x/1?density=huge')).toMatchObject({ kind: 'error', part: 'density' });
    expect(parseEmbedOptions('#/lessons/x/1?keys=all')).toMatchObject({ kind: 'error', part: 'keys' });
  });
  it('shows or hides the cache lines on request', () => {
    expect(parseEmbedOptions('#/lessons/x/1?lines=1')).toMatchObject({ lines: 'on' });
    expect(parseEmbedOptions('#/lessons/x/1?lines=0')).toMatchObject({ lines: 'off' });
    expect(parseEmbedOptions('#/lessons/x/1?lines=yes')).toMatchObject({ kind: 'error', part: 'lines' });
  });
  it('names the parameter it cannot read', () => {
    expect(parseEmbedOptions('#/play?controls=some')).toMatchObject({ kind: 'error', part: 'controls' });
    expect(parseEmbedOptions('#/play?theme=blue')).toMatchObject({ kind: 'error', part: 'theme' });
    expect(parseEmbedOptions('#/play?from=3&to=2')).toMatchObject({ kind: 'error', part: 'to' });
  });
});
