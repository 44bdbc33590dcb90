// What the playground shows while a long link's moves are replayed in slices
// (useSlicedSimulation): how far it is, and a way out. A screen reader hears the status line
// once (its text does not change while the count does); the count is in the progress bar and
// a line beside it that are not live.
import { useState } from 'react';
import { PlayHeader } from './PlayHeader';
import { scenarioName } from './PlayShell';

const count = (n: number) => n.toLocaleString('en');

/** The line, the bar, the count and Cancel: the playground's and the embed's. */
export function ReplayStatus({ done, total, onCancel }: { done: number; total: number; onCancel: () => void }) {
  return (
    <div className="loading">
      <p role="status">Replaying the link’s {count(total)} moves…</p>
      <progress max={total} value={done} aria-label="Moves replayed" />
      <p className="muted" data-testid="replay-count">
        {count(done)} of {count(total)} moves
      </p>
      <button type="button" onClick={onCancel} data-testid="replay-cancel">
        Cancel: keep the moves replayed so far
      </button>
    </div>
  );
}

export function ReplayProgress({ scenario, done, total, onCancel }: { scenario: string; done: number; total: number; onCancel: () => void }) {
  // The links keep the hash's query, as while the simulator loads (PlayShell); read once, not
  // on every slice's redraw (a long link's is a megabyte).
  const [query] = useState(() => window.location.hash.replace(/^[^?]*/, ''));
  return (
    <main className="page play replay-progress" aria-busy="true" data-testid="replay-progress">
      <PlayHeader name={scenarioName(scenario)} links={{ play: `#/play${query}`, explore: `#/explore${query}`, compare: '#/compare' }} exploreOpen={false} />
      <ReplayStatus done={done} total={total} onCancel={onCancel} />
    </main>
  );
}
