// Hash routes (design.md §6): every player state is a permalink.
//
//   #/  (or no hash)   the front page.
//   #/play?s=<scenario>&m=<moves>&at=<n>
//     s   a built-in scenario id (`sc01`, `sample`) or `v1.` + base64url(UTF-8 JSON): the
//         encoding is versioned so a later one can be told apart;
//     m   the kept moves, comma-separated (`T,T,I,migrate:T:1`); absent = the scenario's own;
//     at  the cursor, 0..moves (absent = 0).
//     goal  `<lesson id>/<step>` or `<lesson id>/e<k>`: the lesson step whose "try it yourself",
//         or the exercise k, opened the playground;
//         its goal is shown, checked after every move, with the way back (absent = none).
//   #/explore?s=&m=&at=   the same playground with the explorer open (same parameters).
//   #/lessons, #/lessons/<id>/<step>   the lesson index and reader (ui/lessons/route.ts
//         parses the rest of the path).
//   #/lab   the Lab: the seeds' comparisons run on the model.
//   #/compare?s=<scenario>&at=<k>   the scenario under Linux 6.8 and 7.0 side by side, after
//         k of its operations (absent = 0).
//
// Pure: parsing never throws; what cannot be decoded comes back as a `LinkError` naming the
// parameter and why. Whether the moves play is the simulator's to say (the page checks it).

import { MAX_SCHEDULE_MOVES } from '../sim/generated/limits';

export type Route =
  | {
      readonly kind: 'play';
      /** `explore`: the playground with the explorer panel open. */
      readonly page: PlayPage;
      readonly scenario: string;
      readonly scenarioId: string | null;
      readonly moves: readonly string[] | null;
      readonly at: number;
      /** `<lesson id>/<step>` of the try-it that opened it (the lesson library resolves it). */
      readonly goal: string | null;
    }
  /** `#/` (or no hash): the front page. */
  | { readonly kind: 'home' }
  /** `#/lab`: the seed comparisons. */
  | { readonly kind: 'lab'; readonly path: string }
  /** `#/compare`: one scenario under 6.8 and 7.0, `at` operations in. */
  | { readonly kind: 'compare'; readonly scenario: string; readonly scenarioId: string | null; readonly at: number }
  /** `#/lessons…`: the path and query are the lesson pages' to read. */
  | { readonly kind: 'lessons'; readonly path: string; readonly query: string }
  | LinkError;

export type PlayPage = 'play' | 'explore';

export interface LinkError {
  readonly kind: 'error';
  /** Which part of the link: `route`, `s`, `m`, `at`. */
  readonly part: string;
  readonly message: string;
}

export const ENCODING = 'v1.';

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
  try {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The last scenario encoded (the page asks for the same one on every step). */
let lastEncoded: { readonly text: string; readonly encoded: string } | null = null;

/** The scenario as `v1.<base64url>` of its compact JSON (of the text itself if not JSON). */
export function encodeScenario(text: string): string {
  if (lastEncoded?.text === text) return lastEncoded.encoded;
  const encoded = encode(text);
  lastEncoded = { text, encoded };
  return encoded;
}

function encode(text: string): string {
  let compact = text;
  try {
    compact = JSON.stringify(JSON.parse(text));
  } catch {
    // kept as it is: the page will say why it does not play
  }
  return ENCODING + toBase64Url(new TextEncoder().encode(compact));
}

export function decodeScenario(s: string): { ok: true; text: string } | { ok: false; message: string } {
  if (!s.startsWith(ENCODING)) {
    const v = /^(v\d+)\./.exec(s);
    return {
      ok: false,
      message:
        v !== null
          ? `encoding ${v[1] ?? ''} is not one this page knows (it reads ${ENCODING.slice(0, -1)})`
          : `"${s.slice(0, 24)}${s.length > 24 ? '…' : ''}" is neither a built-in scenario nor ${ENCODING}<base64url>`,
    };
  }
  const bytes = fromBase64Url(s.slice(ENCODING.length));
  if (bytes === null) return { ok: false, message: 'the scenario is not valid base64url (was the link cut or changed?)' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    JSON.parse(text);
    return { ok: true, text };
  } catch {
    return { ok: false, message: 'the scenario decodes to something that is not JSON (was the link cut?)' };
  }
}

/** The ways HTML writes `&` (wasm-core/lessons/src/grade.rs HTML_AMPERSANDS). */
const HTML_AMPERSAND = /&(?:amp|#38|#x26);/gi;

/** The moves in a comma-separated list, counted without splitting it. */
function countMoves(m: string): number {
  let n = 1;
  for (let i = m.indexOf(','); i !== -1; i = m.indexOf(',', i + 1)) n++;
  return n;
}

/** A try-it's address: a lesson id (kebab-case) and a step number. */
const GOAL = /^[a-z0-9]+(?:-[a-z0-9]+)*\/(?:[1-9]\d{0,2}|e[1-9]\d?)$/;

export function parseHash(
  hash: string,
  builtins: Readonly<Record<string, string>>,
  defaultId: string,
  /** `#/compare` without `s`: a scenario worth comparing (the playground's default otherwise). */
  compareDefaultId: string = defaultId,
): Route {
  // A link copied out of HTML (`&amp;m=…&amp;at=…`) is read with its `&` restored, as
  // `slub-lab grade` reads it: its moves are not lost to a parameter named `amp;m`.
  const h = hash.replace(/^#/, '').replace(HTML_AMPERSAND, '&');
  const [path = '', query = ''] = h.split('?', 2);
  const params = new URLSearchParams(query);
  // The root is the front page; a root link with playground parameters (older permalinks) plays.
  if ((path === '' || path === '/') && query === '') return { kind: 'home' };
  if (path === '' || path === '/' || path === '/play' || path === '/explore') {
    const page: PlayPage = path === '/explore' ? 'explore' : 'play';
    const s = params.get('s') ?? defaultId;
    // An own key only: `s=__proto__` or `s=constructor` is not a built-in scenario.
    let scenario = Object.hasOwn(builtins, s) ? builtins[s] : undefined;
    let scenarioId: string | null = s;
    if (scenario === undefined) {
      const decoded = decodeScenario(s);
      if (!decoded.ok) return { kind: 'error', part: 's', message: decoded.message };
      scenario = decoded.text;
      scenarioId = null;
    }
    const m = params.get('m');
    // The command line's ceiling (`run --schedule`), one constant for both: a longer link is
    // refused before it is split, let alone replayed.
    const count = m === null || m === '' ? 0 : countMoves(m);
    if (count > MAX_SCHEDULE_MOVES) {
      return {
        kind: 'error',
        part: 'm',
        message: `${count.toLocaleString('en')} moves: a link holds at most ${MAX_SCHEDULE_MOVES.toLocaleString('en')} (MAX_SCHEDULE_MOVES, as slub-lab run --schedule)`,
      };
    }
    const moves = m === null ? null : m === '' ? [] : m.split(',');
    if (moves !== null && moves.some((mv) => mv.trim() === '')) {
      return { kind: 'error', part: 'm', message: 'a move is empty (two commas in a row?)' };
    }
    const atText = params.get('at');
    let at = 0;
    if (atText !== null) {
      if (!/^\d+$/.test(atText)) return { kind: 'error', part: 'at', message: `"${atText}" is not a whole number of moves` };
      at = Number(atText);
      const n = moves?.length ?? null;
      if (n !== null && at > n) return { kind: 'error', part: 'at', message: `${at} is beyond the ${n} moves in m` };
    }
    const goal = params.get('goal');
    if (goal !== null && !GOAL.test(goal)) {
      return { kind: 'error', part: 'goal', message: `"${goal.slice(0, 40)}" is not <lesson id>/<step> or <lesson id>/e<exercise> (like aba-without-tid/2)` };
    }
    return { kind: 'play', page, scenario, scenarioId, moves, at, goal };
  }
  if (path === '/lab') return { kind: 'lab', path };
  if (path === '/compare') {
    const s = params.get('s') ?? compareDefaultId;
    let scenario = Object.hasOwn(builtins, s) ? builtins[s] : undefined;
    let scenarioId: string | null = s;
    if (scenario === undefined) {
      const decoded = decodeScenario(s);
      if (!decoded.ok) return { kind: 'error', part: 's', message: decoded.message };
      scenario = decoded.text;
      scenarioId = null;
    }
    const atText = params.get('at') ?? '0';
    if (!/^\d{1,6}$/.test(atText)) return { kind: 'error', part: 'at', message: `"${atText.slice(0, 24)}" is not a whole number of operations` };
    return { kind: 'compare', scenario, scenarioId, at: Number(atText) };
  }
  if (path === '/lessons' || path.startsWith('/lessons/')) return { kind: 'lessons', path, query };
  return { kind: 'error', part: 'route', message: `there is no page "${path}" (try #/play)` };
}

/**
 * A schedule's `m`, kept per schedule: a step changes only the cursor, and a long link's
 * hundred thousand moves took tens of milliseconds to encode on every step.
 */
const encodedMoves = new WeakMap<readonly string[], string>();

function encodeMoves(schedule: readonly string[]): string {
  let m = encodedMoves.get(schedule);
  if (m === undefined) {
    m = schedule.map(encodeURIComponent).join(',');
    encodedMoves.set(schedule, m);
  }
  return m;
}

/** The permalink of a player state: built-in scenarios by id, others encoded. */
export function playHash(
  scenario: string,
  schedule: readonly string[],
  cursor: number,
  builtins: Readonly<Record<string, string>>,
  page: PlayPage = 'play',
  goal: string | null = null,
): string {
  const id = Object.keys(builtins).find((k) => builtins[k] === scenario);
  const s = id ?? encodeScenario(scenario);
  const params = [`s=${s}`, `m=${encodeMoves(schedule)}`, `at=${cursor}`];
  if (goal !== null) params.push(`goal=${goal}`);
  return `#/${page}?${params.join('&')}`;
}

/** The permalink of the side-by-side view: a built-in scenario by id, another encoded. */
export function compareHash(scenario: string, at: number, builtins: Readonly<Record<string, string>>): string {
  const id = Object.keys(builtins).find((k) => builtins[k] === scenario);
  const s = id ?? encodeScenario(scenario);
  return `#/compare?s=${encodeURIComponent(s)}${at > 0 ? `&at=${at}` : ''}`;
}
