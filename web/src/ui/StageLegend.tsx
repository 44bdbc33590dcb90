// What the stage's shapes mean, under the stage: only the encodings the
// current frame draws, so each is explained where it first appears and a lesson that has not
// reached cache lines or lost objects is not handed their key. Every entry is a shape and a
// word beside it, never a colour alone.
import type { StageShapes } from '../render/stage.shapes';

interface Entry {
  readonly key: string;
  readonly swatch: string;
  readonly mark?: string;
  readonly words: string;
}

const CHIPS: readonly Entry[] = [
  { key: 'free', swatch: 'sw-free', words: 'free object (outlined in the hue of the CPU whose freelist, array or sheaf holds it)' },
  { key: 'held', swatch: 'sw-held', words: 'allocated: the variable holding it is under it' },
  { key: 'inflight', swatch: 'sw-inflight', words: 'in flight: taken by a context mid-operation' },
  { key: 'lost', swatch: 'sw-lost', words: 'lost: reachable from nothing' },
  { key: 'double', swatch: 'sw-double', mark: '⚠', words: 'handed out twice (an invariant is broken)' },
  { key: 'stale', swatch: 'sw-stale', words: 'a stale copy a flush left behind' },
];

/** The entries the frame needs, in a stable order. */
export function legendEntries(shapes: StageShapes): Entry[] {
  const states = new Set(shapes.chips.map((c) => c.state));
  const out = CHIPS.filter((e) => states.has(e.key as never));
  if (shapes.cards.some((c) => c.frozen === true) || shapes.refs.some((r) => r.frozen)) {
    out.push({ key: 'frozen', swatch: 'sw-frost', mark: '❄', words: 'frozen slab (frosted card, ❄ on its token): a CPU owns it; only that CPU allocates from it' });
  }
  if (shapes.cards.some((c) => c.key.startsWith('barn:'))) {
    out.push({ key: 'sheaf', swatch: 'sw-free', mark: '▯', words: "a sheaf: a stack of object pointers, the top last; a CPU pops and pushes its main one under its lock" });
  }
  if (shapes.arrows.some((a) => a.kind === 'snap')) out.push({ key: 'snap', swatch: 'sw-snap', words: "a fast path's snapshot of a free pointer that has changed since" });
  const tokens = new Set(shapes.tokens.map((t) => (t.gone ? 'gone' : t.state)));
  if (tokens.has('M') || tokens.has('E')) out.push({ key: 'me', swatch: 'sw-tok-m', mark: 'M', words: 'cache line this CPU holds alone: Modified (written) or Exclusive' });
  if (tokens.has('S')) out.push({ key: 's', swatch: 'sw-tok-s', mark: 'S', words: 'Shared: other CPUs may hold copies' });
  if (tokens.has('gone')) out.push({ key: 'gone', swatch: 'sw-tok-i', mark: 'I', words: 'a copy this step invalidated (another CPU took the line)' });
  if (shapes.ties.length > 0) out.push({ key: 'tie', swatch: 'sw-tie', words: 'a line this step moved, tied to what it holds, with its cycles' });
  return out;
}

export function StageLegend({ shapes }: { shapes: StageShapes }) {
  const entries = legendEntries(shapes);
  if (entries.length === 0) return null;
  return (
    <ul className="stage-legend" aria-label="What the shapes on the stage mean" data-testid="stage-legend">
      {entries.map((e) => (
        <li key={e.key}>
          <span className={`sw ${e.swatch}`} aria-hidden="true">
            {e.mark ?? ''}
          </span>
          {e.words}
        </li>
      ))}
    </ul>
  );
}
