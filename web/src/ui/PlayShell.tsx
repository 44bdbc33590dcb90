// What the playground and the explorer show while the simulator loads: the bar with the
// scenario's name (the same bar the player draws, PlayHeader.tsx), what the explorer does, and
// a line saying what is being waited for. On a slow phone link the wasm is most of the page's
// bytes; the page's words come first instead of a blank screen.
import type { Route } from '../state/url';
import { EXPLORER_WHAT, PlayHeader } from './PlayHeader';

/** The scenario's `name`, read from its JSON without the simulator ('' if it has none). */
export function scenarioName(text: string): string {
  try {
    const name: unknown = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' ? name : '';
  } catch {
    return '';
  }
}

export function PlayShell({ route }: { route: Extract<Route, { kind: 'play' }> }) {
  // The links keep the hash's query: the player's own links say the same once it is drawn.
  const query = window.location.hash.replace(/^[^?]*/, '');
  const explore = route.page === 'explore';
  return (
    <main className="page play">
      <PlayHeader name={scenarioName(route.scenario)} links={{ play: `#/play${query}`, explore: `#/explore${query}`, compare: '#/compare' }} exploreOpen={explore} />
      {explore && (
        <section className="explorer panel" aria-label="Explorer">
          <h2>Explorer</h2>
          <p className="muted small what">{EXPLORER_WHAT}</p>
        </section>
      )}
      <p className="loading" role="status">
        Loading the simulator…
      </p>
    </main>
  );
}
