// The side-by-side view: one scenario under Linux 6.8 and under Linux 7.0,
// one stage each, stepped together an operation at a time, with the counters that tell the
// designs apart beside each other. Each side runs the scenario's own schedule where it has one
// (as far as its moves play on that design), then the default policy (design.md §5); an operation
// is one context's alloc, free or flush from its first step to its last. The computation runs
// in Web Workers, one per design (engine.ts): this thread only draws.
import { useEffect, useReducer, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { SimEvent, View } from '../../sim';
import type { Counters, Design } from '../../state/compare';
import { COUNTER_ROWS, DESIGNS, designScenario, whyNoFailedCas } from '../../state/compare';
import { compareHash } from '../../state/url';
import { CrashScreen } from '../CrashScreen';
import { BUILTIN_SCENARIOS, BUILTIN_TEXTS, compareSchedules } from '../scenarios';
import { SiteHeader } from '../SiteHeader';
import { useMediaQuery } from '../useMediaQuery';
import { StageView } from '../views';
import type { Loaded, Progress, SideFrame } from './engine';
import type { CompareReply, CompareRequest } from './protocol';
import './compare.css';

type Status = { kind: 'loading' } | Loaded | { kind: 'error'; message: string } | { kind: 'crash'; message: string };

/** What one design's worker has sent so far. */
interface Half {
  status: Status;
  progress: Progress | null;
  frame: { k: number; frames: readonly SideFrame[] } | null;
}

const EMPTY: Half = { status: { kind: 'loading' }, progress: null, frame: null };

interface Halves {
  readonly halves: readonly Half[];
  /** The last frame both workers sent for the same k (one may already be at a newer k). */
  readonly frame: { k: number; frames: readonly SideFrame[] } | null;
}

/** A message of worker `i` into the merged state. */
function received(state: Halves, { i, m }: { i: number; m: CompareReply }): Halves {
  const halves = state.halves.map((h, j) => {
    if (j !== i) return h;
    if (m.kind === 'frame') return { ...h, frame: { k: m.k, frames: m.frames } };
    if (m.kind === 'progress') return { ...h, progress: m };
    return { ...h, status: m };
  });
  const k0 = halves[0]?.frame?.k;
  const agree = k0 !== undefined && halves.every((h) => h.frame?.k === k0);
  return { halves, frame: agree ? { k: k0, frames: halves.flatMap((h) => h.frame?.frames ?? []) } : state.frame };
}

/**
 * The workers, one per design, run in parallel (a machine's second core halves the wait for a
 * big scenario's first frame), merged: loaded once both are, ready as far as both are, a frame
 * once both have sent the same k. Each change of `k` asks both for that frame (a worker keeps
 * only the latest request). (The page is remounted for another scenario: App keys it by hash.)
 */
function useCompare(scenario: string, k: number): { status: Status; progress: Progress | null; frame: { k: number; frames: readonly SideFrame[] } | null } {
  const [state, dispatch] = useReducer(received, null, () => ({ halves: DESIGNS.map(() => EMPTY), frame: null }));
  const workers = useRef<Worker[]>([]);
  useEffect(() => {
    const ws = DESIGNS.map((d, i) => {
      const w = new Worker(new URL('./compare.worker.ts', import.meta.url), { type: 'module' });
      w.onmessage = (ev: MessageEvent<CompareReply>) => dispatch({ i, m: ev.data });
      w.onerror = (e) => dispatch({ i, m: { kind: 'crash', message: e.message || 'the comparison worker failed' } });
      const load: CompareRequest = { type: 'slub-lab:compare-load', scenario, schedules: compareSchedules(scenario), eras: [d.era] };
      w.postMessage(load);
      return w;
    });
    workers.current = ws;
    return () => {
      for (const w of ws) w.terminate();
      workers.current = [];
    };
  }, [scenario]);
  const status = merged(state.halves);
  const loaded = status.kind === 'loaded';
  useEffect(() => {
    if (!loaded) return;
    const ask: CompareRequest = { type: 'slub-lab:compare-frame', k };
    for (const w of workers.current) w.postMessage(ask);
  }, [k, loaded]);
  const ps = state.halves.map((h) => h.progress).filter((p): p is Progress => p !== null);
  let progress: Progress | null = null;
  if (ps.length === state.halves.length) {
    const ended = ps.flatMap((p) => p.ended);
    const failed = (era: Design) => ended.find((e) => e.era === era)?.casFailed;
    const [a, b] = [failed('v6.8'), failed('v7.0')];
    const why = a === undefined || b === undefined ? null : whyNoFailedCas(a, b);
    const total = Math.max(...ps.map((p) => p.total));
    progress = {
      kind: 'progress',
      ready: Math.min(...ps.map((p) => (p.finished ? Number.POSITIVE_INFINITY : p.ready)), total),
      total,
      finished: ps.every((p) => p.finished),
      notes: why === null ? [] : [why],
      ended,
    };
  }
  return { status, progress, frame: state.frame };
}

/** Both workers' status as one: an error or crash of either, loaded once both are. */
function merged(halves: readonly Half[]): Status {
  const bad = halves.find((h) => h.status.kind === 'error' || h.status.kind === 'crash');
  if (bad !== undefined) return bad.status;
  const loaded = halves.map((h) => h.status).filter((s): s is Loaded => s.kind === 'loaded');
  if (loaded.length < halves.length) return { kind: 'loading' };
  return { kind: 'loaded', sides: loaded.flatMap((l) => l.sides), total: Math.max(...loaded.map((l) => l.total)) };
}

export function ComparePage({ scenario, at }: { scenario: string; at: number }) {
  const [wantedK, setK] = useState(at);
  const { status, progress, frame } = useCompare(scenario, wantedK);
  if (status.kind === 'crash') return <CrashScreen title="The simulator crashed" message={status.message} link={window.location.href} />;
  if (status.kind === 'error') {
    return (
      <main className="page compare">
        <SiteHeader current="error" />
        <p role="alert" className="link-error" data-testid="link-error">
          The comparison cannot run: {status.message}
        </p>
      </main>
    );
  }
  return <Compare scenario={scenario} status={status} progress={progress} frame={frame} k={wantedK} setK={setK} />;
}

interface CompareProps {
  scenario: string;
  status: { kind: 'loading' } | Loaded;
  progress: Progress | null;
  frame: { k: number; frames: readonly SideFrame[] } | null;
  k: number;
  setK: Dispatch<SetStateAction<number>>;
}

function Compare({ scenario, status, progress, frame, k: wantedK, setK }: CompareProps) {
  const loaded = status.kind === 'loaded' ? status : null;
  const total = progress?.total ?? loaded?.total ?? 0;
  const k = loaded === null ? 0 : Math.min(wantedK, total);
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const live = useRef<HTMLParagraphElement | null>(null);
  useEffect(() => {
    if (loaded !== null) window.history.replaceState(null, '', compareHash(scenario, k, BUILTIN_TEXTS));
  }, [scenario, k, loaded]);
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
  }, [total, setK]);
  const frames = frame?.frames ?? [];
  const shown = frame?.k ?? 0;
  const title = (era: Design) => loaded?.sides.find((s) => s.era === era)?.title ?? era;
  const words = frames.map((f) => `${f.era}: ${f.lastOp}, ${f.counters.cycles} cycles so far`).join('; ');
  const id = Object.keys(BUILTIN_TEXTS).find((x) => BUILTIN_TEXTS[x] === scenario);
  return (
    <main className="page compare">
      <SiteHeader current="compare" />
      <h1>Linux 6.8 and Linux 7.0, side by side</h1>
      <p className="muted compare-intro">
        The same operations, run by the model under the classic per-CPU slab with its tid (6.8) and under the per-CPU sheaves that replaced it (7.0). A step
        is one whole operation on both. Cycles are the model&apos;s cost table, not measurements.
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
        <span className="compare-position" data-testid="compare-position">
          {loaded === null ? 'loading both designs…' : `operation ${k} of ${total}`}
        </span>
        {progress !== null && !progress.finished && (
          <span className="muted" role="status">
            running: {progress.ready} of {total} operations ready
          </span>
        )}
      </div>
      <p className="sr-only" aria-live="polite" ref={live}>
        {words}
      </p>
      {frames.length === 0 ? (
        <p className="loading" role="status">
          Running both designs to their end…
        </p>
      ) : (
        <>
          {/* What the run says comes with its result, where the loading line was: nothing above moves. */}
          <p className="muted compare-schedule">
            <ScheduleWords loaded={loaded} />
          </p>
          {progress?.notes.map((n) => (
            <p key={n} className="compare-note" data-testid="compare-note">
              {n}
            </p>
          ))}
          <CounterTable frames={frames.map((f) => ({ era: f.era, counters: f.counters, last: f.lastOp }))} />
          <div className="compare-sides" data-k={shown}>
            {frames.map((f) => (
              <section key={f.era} className="compare-side" aria-label={title(f.era)}>
                <h2>{title(f.era)}</h2>
                <p className="muted">
                  last operation: <strong>{f.lastOp}</strong> · {f.moves} atomic steps
                </p>
                <SideStage view={f.view} event={f.event} step={f.moves} animate={!reducedMotion} />
              </section>
            ))}
          </div>
        </>
      )}
    </main>
  );
}

/** What each side ran: the scenario's own schedule (as far as it played there), then the default order. */
function ScheduleWords({ loaded }: { loaded: Loaded | null }) {
  const first = loaded?.sides[0];
  if (loaded === null || first === undefined) return null;
  if (first.schedule.length === 0) return <>Each side runs its contexts in the default order.</>;
  return (
    <>
      Each side runs the scenario&apos;s own schedule ({loaded.sides.map((s) => `${s.schedule.length} moves under ${s.era}`).join(', ')}), then the default
      order.
      {loaded.sides
        .filter((s) => s.schedule.played < s.schedule.length)
        .map((s) => (
          <span key={s.era} data-testid="schedule-cut">
            {' '}
            Under {s.era} only its first {s.schedule.played} moves play
            {s.schedule.stopped === null ? '' : ` (${s.schedule.stopped.replace(/\.$/, '')})`}.
          </span>
        ))}
    </>
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
