// The page a link that cannot be opened gets: which part of it is wrong and why, and the way on.
// Shared by the app's routes, the embed and the lesson pages (which is why it is not in App.tsx:
// the lesson pages are a chunk App loads).
import type { LinkError } from '../state/url';
import { SiteHeader } from './SiteHeader';

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
  density: 'the density option (density)',
  keys: 'the keys option (keys)',
};

export function LinkErrorPanel({ error, hash }: { error: LinkError; hash: string }) {
  return (
    <main className="page link-error" aria-labelledby="link-error-title">
      <SiteHeader current="error" />
      <h1 id="link-error-title">This link cannot be opened</h1>
      <p role="alert" data-testid="link-error">
        The problem is in {(Object.hasOwn(PARTS, error.part) ? PARTS[error.part] : undefined) ?? error.part}: {error.message}
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
