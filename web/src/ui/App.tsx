import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { parseHash, type Route } from '../state/url';
import { CrashScreen } from './CrashScreen';
import { ErrorBoundary } from './ErrorBoundary';
import { LinkErrorPanel } from './LinkErrorPanel';
import { PlayShell } from './PlayShell';
import { BUILTIN_TEXTS, DEFAULT_COMPARE_ID, DEFAULT_SCENARIO_ID } from './scenarios';
import { afterNextPaint } from './afterNextPaint';
import { SimReady } from './simReady';
import { useChunk } from './useChunk';

// The simulator: its bridge (sim/) and its wasm, fetched only by a page that draws a stage or
// runs the model (the front door and the lesson index never do; a lesson once its words are
// painted, simReady.ts).
// (The bridge's module itself, not sim/index.ts: the index re-exports the explorer's client,
// which the bundler places with the playground's chunk, so a lesson would fetch that too.)
export const loadSimulator = () => import('../sim/simulator').then((m) => m.loadWasm());
// The playground and the explorer: the player, the stage and the views.
export const loadPlayPage = () => import('./PlayPage');
// The lesson pages, with the lesson library and its parsers, load when first opened.
export const loadLessonsPage = () => import('./lessons/LessonsPage');
// The front page lists the lessons (their titles come with the lesson library).
export const loadHome = () => import('./Home');
// The lab page, with its worker, charts and styles, likewise.
export const loadLabPage = () => import('./lab/LabPage');
// The side-by-side view of 6.8 and 7.0.
export const loadComparePage = () => import('./compare/ComparePage');

/**
 * Whether the page needs this thread's simulator before it can draw: the playground and the
 * explorer, whose every control shows the model's state (fetched once their bar, PlayShell, is
 * painted). The other pages draw at once: a lesson asks for the simulator
 * once its words are painted (simReady.ts), the front page and the lesson index never draw a
 * stage, and the Lab and the comparison run their model in Web Workers with their own wasm.
 */
function waitsForSimulator(route: Route): boolean {
  return route.kind === 'play';
}

type Loading = { kind: 'loading' } | { kind: 'ready' } | { kind: 'failed'; message: string };

/** Loads the wasm module, then the page the hash names (design.md §6 routes). */
export function App() {
  const [loading, setLoading] = useState<Loading>({ kind: 'loading' });
  const [hash, setHash] = useState(() => window.location.hash);
  const route = parseHash(hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID, DEFAULT_COMPARE_ID);
  const waits = waitsForSimulator(route);
  const started = useRef(false);
  const want = useCallback(() => {
    if (started.current) return;
    started.current = true;
    loadSimulator().then(
      () => setLoading({ kind: 'ready' }),
      (e: unknown) => setLoading({ kind: 'failed', message: String(e) }),
    );
  }, []);
  useEffect(() => {
    // Only navigation fires hashchange (the player itself uses replaceState).
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  useEffect(() => {
    // The playground needs the simulator and its chunk, asked for once its bar is painted
    // (PlayShell), whether opened first or reached from another page; a lesson asks for the
    // simulator once its words are painted (simReady.ts).
    if (!waits) return undefined;
    return afterNextPaint(() => {
      want();
      void loadPlayPage();
    });
  }, [waits, want]);
  const status = useMemo(() => ({ ready: loading.kind === 'ready', want }), [loading.kind, want]);

  switch (loading.kind) {
    case 'loading':
      // The playground draws its bar and waits for the wasm; the other pages draw at once.
      if (route.kind === 'play') return <PlayShell route={route} />;
      break;
    case 'failed':
      return <CrashScreen title="The simulator could not be loaded" message={loading.message} />;
    case 'ready':
      break;
  }
  return (
    <SimReady.Provider value={status}>
      <ErrorBoundary key={hash} replay={() => window.location.href}>
        <Page route={route} hash={hash} />
      </ErrorBoundary>
    </SimReady.Provider>
  );
}

function Page({ route, hash }: { route: Route; hash: string }) {
  switch (route.kind) {
    case 'error':
      return <LinkErrorPanel error={route} hash={hash} />;
    case 'home':
      return (
        <Chunked load={loadHome} what="the front page">
          {(m) => <m.Home />}
        </Chunked>
      );
    case 'lab':
      return (
        <Chunked load={loadLabPage} what="the lab">
          {(m) => <m.LabPage />}
        </Chunked>
      );
    case 'compare':
      return (
        <Chunked load={loadComparePage} what="the comparison">
          {(m) => <m.ComparePage key={hash} scenario={route.scenario} at={route.at} />}
        </Chunked>
      );
    case 'lessons':
      return (
        <Chunked load={loadLessonsPage} what="the lessons">
          {(m) => <m.LessonsPage path={route.path} query={route.query} hash={hash} />}
        </Chunked>
      );
    case 'play':
      return (
        <Chunked load={loadPlayPage} what="the playground">
          {(m) => <m.PlayPage route={route} hash={hash} />}
        </Chunked>
      );
  }
}

/** A page drawn from its chunk once it is here (useChunk.ts: no Suspense reveal delay). */
function Chunked<M>({ load, what, children }: { load: () => Promise<M>; what: string; children: (module: M) => ReactNode }) {
  const chunk = useChunk(load);
  if (chunk.kind === 'failed') return <CrashScreen title={`${what[0]?.toUpperCase() ?? ''}${what.slice(1)} could not be loaded`} message={chunk.message} />;
  if (chunk.kind === 'loading') {
    return (
      <p className="loading" role="status">
        Loading {what}…
      </p>
    );
  }
  return <>{children(chunk.module)}</>;
}
