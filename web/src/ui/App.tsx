import { lazy, Suspense, useEffect, useState } from 'react';
import { loadWasm } from '../sim';
import { parseHash, type LinkError, type Route } from '../state/url';
import { CrashScreen } from './CrashScreen';
import { ErrorBoundary } from './ErrorBoundary';
import { Player } from './Player';
import { SiteHeader } from './SiteHeader';
import { playState } from './route';
import { BUILTIN_TEXTS, DEFAULT_SCENARIO_ID } from './scenarios';

// The lesson pages, with the lesson library and its parsers, load when first opened.
const LessonsPage = lazy(() => import('./lessons/LessonsPage').then((m) => ({ default: m.LessonsPage })));
// The front page lists the lessons (their titles come with the lesson library).
const Home = lazy(() => import('./Home').then((m) => ({ default: m.Home })));
// The lab page, with its worker, charts and styles, likewise.
const LabPage = lazy(() => import('./lab/LabPage').then((m) => ({ default: m.LabPage })));

type Loading = { kind: 'loading' } | { kind: 'ready' } | { kind: 'failed'; message: string };

/** Loads the wasm module, then the page the hash names (DESIGN §6 routes). */
export function App() {
  const [loading, setLoading] = useState<Loading>({ kind: 'loading' });
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    loadWasm().then(
      () => setLoading({ kind: 'ready' }),
      (e: unknown) => setLoading({ kind: 'failed', message: String(e) }),
    );
    // Only navigation fires hashchange (the player itself uses replaceState).
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);

  switch (loading.kind) {
    case 'loading':
      return (
        <p className="loading" role="status">
          Loading the simulator…
        </p>
      );
    case 'failed':
      return <CrashScreen title="The simulator could not be loaded" message={loading.message} />;
    case 'ready':
      return (
        <ErrorBoundary key={hash} replay={() => window.location.href}>
          <Page route={parseHash(hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID)} hash={hash} />
        </ErrorBoundary>
      );
  }
}

function Page({ route, hash }: { route: Route; hash: string }) {
  switch (route.kind) {
    case 'error':
      return <LinkErrorPanel error={route} hash={hash} />;
    case 'home':
      return (
        <Suspense fallback={<p className="loading" role="status">Loading…</p>}>
          <Home />
        </Suspense>
      );
    case 'lab':
      return (
        <Suspense fallback={<p className="loading" role="status">Loading the lab…</p>}>
          <LabPage />
        </Suspense>
      );
    case 'lessons':
      return (
        <Suspense fallback={<p className="loading" role="status">Loading the lessons…</p>}>
          <LessonsPage path={route.path} query={route.query} hash={hash} />
        </Suspense>
      );
    case 'play': {
      const state = playState(route);
      if ('kind' in state) return <LinkErrorPanel error={state} hash={hash} />;
      return <Player key={hash} initial={state} page={route.page} goal={route.goal} />;
    }
  }
}

const PARTS: Record<string, string> = {
  route: 'the page',
  s: 'the scenario (s)',
  m: 'the moves (m)',
  at: 'the position (at)',
  lesson: 'the lesson',
  step: 'the step',
  goal: 'the goal (goal)',
  controls: 'the controls option (controls)',
  theme: 'the theme option (theme)',
  lines: 'the cache lines option (lines)',
};

export function LinkErrorPanel({ error, hash }: { error: LinkError; hash: string }) {
  return (
    <main className="page link-error" aria-labelledby="link-error-title">
      <SiteHeader current="error" />
      <h1 id="link-error-title">This link cannot be opened</h1>
      <p role="alert" data-testid="link-error">
        The problem is in {PARTS[error.part] ?? error.part}: {error.message}
      </p>
      <p className="muted">
        Link: <code className="break">{hash.length > 160 ? `${hash.slice(0, 160)}…` : hash}</code>
      </p>
      <p>
        <a href="#/lessons">The lessons</a> · <a href="#/play">the playground with the sample scenario</a> ·{' '}
        <a href="#/">the front page</a>
      </p>
    </main>
  );
}
