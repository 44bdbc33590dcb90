// The side-by-side view (issue 15 item 3): one scenario under Linux 6.8 and under Linux 7.0,
// one stage each, stepped together an operation at a time, with the counters that tell the
// designs apart beside each other. Each side runs the default policy (DESIGN §5); an operation
// is one context's alloc, free or flush from its first step to its last.
import { useEffect, useMemo, useRef, useState } from 'react';
import { SimError, Simulation, type SimEvent, type View } from '../../sim';
import { COUNTER_ROWS, countersUpTo, DESIGNS, designScenario, moveContext, type Counters, type Design } from '../../state/compare';
import { compareHash } from '../../state/url';
import { BUILTIN_SCENARIOS, BUILTIN_TEXTS } from '../scenarios';
import { SiteHeader } from '../SiteHeader';
import { StageView, useMediaQuery } from '../views';
import './compare.css';

/** One design's whole run: its moves, where each operation ends, every event. */
interface Side {
  readonly era: Design;
  readonly title: string;
  readonly sim: Simulation;
  readonly history: string[];
  /** `ends[k]` = moves played after k operations (`ends[0]` = 0). */
  readonly ends: number[];
  /** What each operation was: `T: alloc x`. */
  readonly ops: string[];
  readonly events: SimEvent[];
}

/** Operations every context has finished in `view` (the one in progress not counted). */
function opsDone(view: View): number {
  return view.contexts.reduce((n, c) => n + (c.state === 'finished' ? c.ops : c.op === null ? c.opIndex : c.opIndex - 1), 0);
}

/** Run a design to its end and cut its moves where an operation ends. */
function runSide(era: Design, title: string, text: string): Side {
  const sim = new Simulation(text, { events: true });
  sim.runToEnd();
  const history = sim.history();
  const ends = [0];
  const ops: string[] = [];
  sim.seek(0);
  let before = sim.view();
  let done = opsDone(before);
  for (let at = 1; at <= history.length; at++) {
    sim.seek(at);
    const after = sim.view();
    const now = opsDone(after);
    if (now > done) {
      // The context of this move finished an operation: name it as it was in progress.
      const ctx = moveContext(history[at - 1] ?? '');
      const op = before.contexts.find((c) => c.id === ctx)?.op ?? '';
      for (let i = done; i < now; i++) {
        ends.push(at);
        ops.push(op === '' ? ctx : `${ctx}: ${op}`);
      }
      done = now;
    }
    before = after;
  }
  if (ends.at(-1) !== history.length) {
    ends.push(history.length);
    ops.push('to the end');
  }
  const frame = sim.frame(history, history.length, 0);
  return { era, title, sim, history, ends, ops, events: frame.events };
}

interface Loaded {
  readonly sides: Side[];
}

function load(scenario: string): Loaded | { error: string } {
  const sides: Side[] = [];
  for (const d of DESIGNS) {
    const text = designScenario(scenario, d.era);
    if (text === null) return { error: 'this scenario runs SLAB (or is not JSON): the comparison needs a SLUB scenario.' };
    try {
      sides.push(runSide(d.era, d.title, text));
    } catch (e) {
      for (const s of sides) s.sim.free();
      if (e instanceof SimError) return { error: `under ${d.era} the model refuses the scenario: ${e.message}` };
      throw e;
    }
  }
  return { sides };
}

export function ComparePage({ scenario, at }: { scenario: string; at: number }) {
  const loaded = useMemo(() => load(scenario), [scenario]);
  useEffect(() => () => {
    if ('sides' in loaded) for (const s of loaded.sides) s.sim.free();
  }, [loaded]);
  if ('error' in loaded) {
    return (
      <main className="page compare">
        <SiteHeader current="error" />
        <p role="alert" className="link-error">
          The comparison cannot run: {loaded.error}
        </p>
      </main>
    );
  }
  return <Compare scenario={scenario} sides={loaded.sides} initial={at} />;
}

function Compare({ scenario, sides, initial }: { scenario: string; sides: Side[]; initial: number }) {
  const total = Math.max(...sides.map((s) => s.ops.length));
  const [k, setK] = useState(Math.min(initial, total));
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const live = useRef<HTMLParagraphElement | null>(null);
  useEffect(() => {
    window.history.replaceState(null, '', compareHash(scenario, k, BUILTIN_TEXTS));
  }, [scenario, k]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
      if (e.key === 'ArrowRight') setK((x) => Math.min(total, x + 1));
      else if (e.key === 'ArrowLeft') setK((x) => Math.max(0, x - 1));
      else if (e.key === 'Home') setK(0);
      else if (e.key === 'End') setK(total);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [total]);
  const frames = sides.map((s) => {
    const moves = s.ends[Math.min(k, s.ends.length - 1)] ?? 0;
    const frame = s.sim.frame(s.history, moves, s.events.length);
    const event: SimEvent | undefined = s.events.filter((e) => e.mv !== null && e.mv < moves).at(-1);
    return { side: s, moves, view: frame.view, event, counters: countersUpTo(s.events, moves) };
  });
  const lastOp = (s: Side) => (k === 0 ? 'nothing yet' : (s.ops[k - 1] ?? 'nothing more (this side has finished)'));
  const words = frames.map((f) => `${f.side.era}: ${lastOp(f.side)}, ${f.counters.cycles} cycles so far`).join('; ');
  const id = Object.keys(BUILTIN_TEXTS).find((x) => BUILTIN_TEXTS[x] === scenario);
  return (
    <main className="page compare">
      <SiteHeader current="compare" />
      <h1>Linux 6.8 and Linux 7.0, side by side</h1>
      <p className="muted compare-intro">
        The same operations, run by the model under the classic per-CPU slab with its tid (6.8) and under the per-CPU sheaves that replaced it (7.0).
        Each side runs its contexts in the default order; a step is one whole operation on both. Cycles are the cost table's (spec §7), not
        measurements.
      </p>
      <div className="compare-controls" role="group" aria-label="Step both sides">
        <label>
          Scenario{' '}
          <select
            value={id ?? ''}
            onChange={(e) => {
              window.location.hash = compareHash(BUILTIN_TEXTS[e.target.value] ?? scenario, 0, BUILTIN_TEXTS);
            }}
          >
            {id === undefined && <option value="">(from a link)</option>}
            {BUILTIN_SCENARIOS.filter((b) => designScenario(b.text, 'v6.8') !== null).map((b) => (
              <option key={b.id} value={b.id}>
                {b.id} · {b.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setK(0)} disabled={k === 0}>
          ⇤ Start
        </button>
        <button type="button" onClick={() => setK((x) => Math.max(0, x - 1))} disabled={k === 0}>
          ← Operation
        </button>
        <button type="button" onClick={() => setK((x) => Math.min(total, x + 1))} disabled={k >= total} aria-keyshortcuts="ArrowRight">
          Operation →
        </button>
        <button type="button" onClick={() => setK(total)} disabled={k >= total}>
          End ⇥
        </button>
        <span className="compare-position">
          operation {k} of {total}
        </span>
      </div>
      <p className="sr-only" aria-live="polite" ref={live}>
        {words}
      </p>
      <CounterTable frames={frames.map((f) => ({ era: f.side.era, counters: f.counters, last: lastOp(f.side) }))} />
      <div className="compare-sides">
        {frames.map((f) => (
          <section key={f.side.era} className="compare-side" aria-label={f.side.title}>
            <h2>{f.side.title}</h2>
            <p className="muted">
              last operation: <strong>{lastOp(f.side)}</strong> · {f.moves} atomic steps
            </p>
            <SideStage view={f.view} event={f.event} step={f.moves} animate={!reducedMotion} />
          </section>
        ))}
      </div>
    </main>
  );
}

function SideStage({ view, event, step, animate }: { view: View; event: SimEvent | undefined; step: number; animate: boolean }) {
  return <StageView view={view} event={event} selection={null} step={step} animate={animate} legend={false} />;
}

function CounterTable({ frames }: { frames: { era: Design; counters: Counters; last: string }[] }) {
  const [a, b] = frames;
  if (a === undefined || b === undefined) return null;
  return (
    <table className="compare-counters" data-testid="compare-counters">
      <caption>What the operations so far cost on each side</caption>
      <thead>
        <tr>
          <th scope="col">counter</th>
          <th scope="col">{a.era}</th>
          <th scope="col">{b.era}</th>
          <th scope="col">7.0 − 6.8</th>
        </tr>
      </thead>
      <tbody>
        {COUNTER_ROWS.map((r) => {
          const d = b.counters[r.key] - a.counters[r.key];
          return (
            <tr key={r.key}>
              <th scope="row">{r.label}</th>
              <td>{a.counters[r.key]}</td>
              <td>{b.counters[r.key]}</td>
              <td className={d === 0 ? 'muted' : d < 0 ? 'less' : 'more'}>{d === 0 ? '=' : d > 0 ? `+${d}` : `${d}`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
