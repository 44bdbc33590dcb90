// The explorer panel: bounds, Explore / Cancel, a progress bar with a readout in a
// polite live region, and the result — no violation within the bounds (complete, or
// incomplete and why), or the invariant broken with a button that loads the shortest
// counterexample into the stepper. The keyboard reaches the same actions through the command
// table (`e`, `c`).
import { useEffect, useId, useState, type ReactNode } from 'react';
import { MAX_BOUND, MAX_TIME_S, progressText, readBounds, summarize, timeUsed, type BoundsForm } from '../state/explore';
import type { Explorer, ExplorerStatus } from './useExplorer';
import { EXPLORER_WHAT } from './PlayHeader';

interface Props {
  explorer: Explorer;
  /** The scenario on the stage (what Explore searches). */
  scenario: string;
  /** Replace the stepper's schedule with the counterexample, cursor at its end. */
  onLoad: (scenario: string, schedule: readonly string[]) => void;
  onClose: () => void;
}

/** The live region's text changes at most this often while searching (screen readers queue). */
const ANNOUNCE_MS = 2000;

export function ExplorerPanel({ explorer, scenario, onLoad, onClose }: Props) {
  const id = useId();
  const { form, setForm, status } = explorer;
  const check = readBounds(form);
  const running = status.kind === 'running';
  const announce = useThrottled(running ? progressText(status.progress) : '', ANNOUNCE_MS);

  const field = (key: keyof BoundsForm, label: string, props: { max: number; step: string }) => {
    const bad = !check.ok && check.field === key;
    return (
      <label className="bound">
        {label}
        <input
          type="number"
          inputMode="decimal"
          min={0}
          max={props.max}
          step={props.step}
          value={form[key]}
          disabled={running}
          aria-invalid={bad}
          aria-describedby={bad ? `${id}-form-error` : undefined}
          onChange={(e) => setForm({ ...form, [key]: e.target.value })}
        />
      </label>
    );
  };

  let result: ReactNode = null;
  if (status.kind === 'done') {
    const s = summarize(status.report, status.limits, status.cancelledByUser);
    const stale = status.scenario !== scenario;
    result =
      s.kind === 'found' ? (
        <div className="explore-result found" data-testid="explore-result">
          <p>
            <strong>⚠ {s.headline}:</strong> {s.violation.message}
          </p>
          <p className="muted small">
            {s.detail}
            {stale && ' · for the scenario as it was when explored: loading it goes back to that scenario'}
          </p>
          <button type="button" className="primary" aria-keyshortcuts="c" onClick={() => onLoad(status.scenario, s.violation.schedule)}>
            Load the counterexample into the stepper ({s.violation.schedule.length} moves)
          </button>
        </div>
      ) : (
        <div className={`explore-result none${s.complete ? ' complete' : ''}`} data-testid="explore-result">
          <p>
            <strong>{s.complete ? '✓' : '…'} {s.headline}</strong>
          </p>
          <p className="small">{s.detail}</p>
        </div>
      );
  } else if (status.kind === 'failed') {
    result = (
      <p className="error" data-testid="explore-result">
        The search could not run: {status.message}
      </p>
    );
  }

  return (
    <section className="explorer panel" id="explorer" aria-labelledby={`${id}-h`} data-testid="explorer">
      <form
        className="explorer-form"
        aria-describedby={`${id}-what`}
        onSubmit={(e) => {
          e.preventDefault();
          if (!running) explorer.start(scenario);
        }}
      >
        <h2 id={`${id}-h`}>Explorer</h2>
        {field('maxPreemptions', 'max preemptions', { max: MAX_BOUND, step: '1' })}
        {field('maxMigrations', 'max migrations', { max: MAX_BOUND, step: '1' })}
        {field('timeLimit', 'time limit (s)', { max: MAX_TIME_S, step: 'any' })}
        {/* Distinct keys: the Cancel button must not turn into a submit button under the click. */}
        {running ? (
          <button key="cancel" type="button" onClick={explorer.cancel} aria-keyshortcuts="e">
            Cancel
          </button>
        ) : (
          <button key="explore" type="submit" className="primary" disabled={!check.ok} aria-keyshortcuts="e">
            Explore
          </button>
        )}
        <button type="button" className="close" onClick={onClose} aria-label="Close the explorer">
          ✕
        </button>
      </form>
      <p className="muted small what" id={`${id}-what`}>
        {EXPLORER_WHAT}
      </p>
      {!check.ok && (
        <p className="error small" id={`${id}-form-error`}>
          {check.message}
        </p>
      )}
      {running && (
        <div className="explore-progress">
          <progress max={1} value={timeUsed(status.progress, status.limits)} aria-label="Share of the time limit used" />
          <span className="readout" data-testid="explore-progress">
            {progressText(status.progress)}
          </span>
        </div>
      )}
      <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="explore-live">
        {running ? `Exploring: ${announce}` : status.kind === 'done' ? liveSummary(status) : status.kind === 'failed' ? `The search failed: ${status.message}` : ''}
      </p>
      {result}
    </section>
  );
}

function liveSummary(status: Extract<ExplorerStatus, { kind: 'done' }>): string {
  const s = summarize(status.report, status.limits, status.cancelledByUser);
  return s.kind === 'found' ? `Found: ${s.headline}. ${s.violation.message}` : `${s.headline}; ${s.detail}`;
}

/** `value`, changing at most every `ms` (the latest value shows when the wait is over). */
function useThrottled(value: string, ms: number): string {
  const [shown, setShown] = useState(value);
  const [at, setAt] = useState(0);
  useEffect(() => {
    if (value === shown) return;
    const wait = Math.max(0, at + ms - performance.now());
    const t = window.setTimeout(() => {
      setShown(value);
      setAt(performance.now());
    }, wait);
    return () => window.clearTimeout(t);
  }, [value, shown, at, ms]);
  return shown;
}

/** The counterexample a finished search found (with the scenario it replays on), if any. */
export function counterexample(status: ExplorerStatus): { scenario: string; schedule: readonly string[] } | null {
  if (status.kind !== 'done') return null;
  const v = status.report.violations[0];
  return v === undefined ? null : { scenario: status.scenario, schedule: v.schedule };
}
