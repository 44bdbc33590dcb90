// The embed's own options (design.md §6): `controls=none|minimal|full`, `from`/`to` (the moves the
// embed may show), `autoplay`; and the bounded player: every action is the playground's,
// then the cursor is kept within [from, to] and play stops at `to`. Pure.
import type { LinkError } from './url';
import { perform, type Action, type PlayerState } from './player';

export type Controls = 'none' | 'minimal' | 'full';
/** `light` by default in an embed: a deck is white whatever the OS prefers; `auto` follows it. */
export type Theme = 'light' | 'dark' | 'auto';

/**
 * The cache-line band of the stage's CPU cards: `auto` shows it in lessons about cache lines
 * (topic `cache-lines`) and in playground embeds, `on` and `off` decide (a slide has room for
 * one idea: the lines are one of their own).
 */
export type LinesOption = 'auto' | 'on' | 'off';

/**
 * `density=projector`: for a slide on a projector, fewer panels and bigger
 * type (the stage's text and the narration at least 18 px on a 1280×720 screen), the step's
 * subject kept in view. The deck (public/slides/deck.js) asks for it.
 */
export type Density = 'normal' | 'projector';

/**
 * `keys=deck`: the embed is a slide's, driven by its deck. It acts on no key itself and posts
 * every deck key (DECK_KEYS) to the host, Space included, so the deck moves whatever has the
 * focus. Without it the embed steps on its own keys and passes the deck's arrows on too.
 */
export type KeysOption = 'own' | 'deck';

export interface EmbedOptions {
  readonly controls: Controls;
  readonly density: Density;
  readonly keys: KeysOption;
  readonly theme: Theme;
  readonly lines: LinesOption;
  readonly from: number;
  readonly to: number | null;
  readonly autoplay: boolean;
}

export function parseEmbedOptions(hash: string): EmbedOptions | LinkError {
  const query = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '';
  const p = new URLSearchParams(query);
  const controls = p.get('controls') ?? 'minimal';
  if (controls !== 'none' && controls !== 'minimal' && controls !== 'full') {
    return { kind: 'error', part: 'controls', message: `"${controls}" is not none, minimal or full` };
  }
  const theme = p.get('theme') ?? 'light';
  if (theme !== 'light' && theme !== 'dark' && theme !== 'auto') {
    return { kind: 'error', part: 'theme', message: `"${theme}" is not light, dark or auto` };
  }
  const linesText = p.get('lines');
  if (linesText !== null && linesText !== '0' && linesText !== '1') {
    return { kind: 'error', part: 'lines', message: `"${linesText}" is not 0 (hide the cache lines) or 1 (show them)` };
  }
  const lines: LinesOption = linesText === null ? 'auto' : linesText === '1' ? 'on' : 'off';
  const density = p.get('density') ?? 'normal';
  if (density !== 'normal' && density !== 'projector') {
    return { kind: 'error', part: 'density', message: `"${density.slice(0, 24)}" is not normal or projector` };
  }
  const keys = p.get('keys') ?? 'own';
  if (keys !== 'own' && keys !== 'deck') {
    return { kind: 'error', part: 'keys', message: `"${keys.slice(0, 24)}" is not own or deck` };
  }
  const num = (name: string): number | null | LinkError => {
    const v = p.get(name);
    if (v === null || v === '') return null;
    if (!/^\d+$/.test(v)) return { kind: 'error', part: name, message: `"${v}" is not a whole number of moves` };
    return Number(v);
  };
  const from = num('from');
  if (from !== null && typeof from === 'object') return from;
  const to = num('to');
  if (to !== null && typeof to === 'object') return to;
  if (from !== null && to !== null && to < from) {
    return { kind: 'error', part: 'to', message: `${to} is before from=${from}` };
  }
  const autoplay = p.get('autoplay');
  return { controls, density, keys, theme, lines, from: from ?? 0, to, autoplay: autoplay === '1' || autoplay === 'true' };
}

/** `perform`, then the cursor kept in [from, to] (and play stopped at `to`). */
export function performBounded(options: EmbedOptions): (state: PlayerState, action: Action) => PlayerState {
  return (state, action) => {
    const next = perform(state, action);
    const hi = options.to ?? Number.POSITIVE_INFINITY;
    const cursor = Math.max(options.from, Math.min(hi, next.cursor));
    const playing = next.playing && cursor < hi;
    if (cursor === next.cursor && playing === next.playing) return next;
    return { ...next, cursor, playing };
  };
}

/** The message the embed posts on every change (design.md §6). */
export interface StepMessage {
  readonly type: 'slub-lab:step';
  /** The lesson id (a playground embed: the built-in scenario id, null for an encoded one). */
  readonly lesson: string | null;
  readonly step: number;
  readonly total: number;
}

/**
 * Keys a presenter presses to move a deck (arrows, a clicker's PageUp/PageDown, reveal.js's
 * blank-screen keys): pressed inside the embed, they are also posted to the host as
 * `{type: "slub-lab:key", key}` so that the deck still moves (docs/instructors-guide.md).
 */
export const HOST_KEYS: ReadonlySet<string> = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', 'b', 'B', '.', 'Escape']);

/**
 * The keys a reveal.js deck answers to (its help lists them): with `keys=deck` an embed posts
 * them all to the deck and acts on none. Space and n go forward, p back, s opens the speaker
 * view, o or Escape the overview, b or . blanks the screen.
 */
export const DECK_KEYS: ReadonlySet<string> = new Set([...HOST_KEYS, ' ', 'n', 'N', 'p', 'P', 's', 'S', 'o', 'O']);

/** The message an embed posts to its host for a deck key. */
export interface KeyMessage {
  readonly type: 'slub-lab:key';
  readonly key: string;
}
