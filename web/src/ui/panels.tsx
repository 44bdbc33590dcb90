// Plain panels beside the stage: variables, invariant violations, statistics (text and tables).
// Each is memoised on the value of its props: every step brings new arrays from the simulator,
// most of them equal to the last step's, and a panel that re-renders has every element of its
// table or list compared again by React's commit, for nothing.
import { memo, type ReactNode } from 'react';
import type { Outcome, VarView, Violation } from '../sim';
import { Icon } from './Icon';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export const VarsPanel = memo(function VarsPanel({ vars }: { vars: readonly VarView[] }) {
  return (
    <Panel title="Variables">
      {vars.length === 0 ? (
        <p className="muted">None bound.</p>
      ) : (
        <ul>
          {vars.map((v) => (
            <li key={v.name}>
              <code>{v.name}</code> ={' '}
              {v.object ?? (v.bound ? <span>NULL (allocation failed)</span> : <span title="not allocated yet">—</span>)}
              {!v.held && v.object !== null && <span className="muted"> (not held)</span>}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}, sameValue);

export const ViolationsPanel = memo(function ViolationsPanel({ violations }: { violations: readonly Violation[] }) {
  return (
    <Panel title="Invariant violations">
      {violations.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul className="violations">
          {violations.map((v) => (
            <li key={`${v.step}-${v.invariant}`}>
              <strong>{v.invariant}</strong> at step {v.step}: {v.message}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}, sameValue);

export const StatsPanel = memo(function StatsPanel({ outcome }: { outcome: Outcome }) {
  const stats = Object.entries(outcome.stats.total).filter(([, n]) => n > 0);
  return (
    <Panel title="Statistics">
      {stats.length === 0 ? (
        <p className="muted">No counter bumped yet.</p>
      ) : (
        <table>
          <tbody>
            {stats.map(([name, n]) => (
              <tr key={name}>
                <th scope="row">
                  <code>{name}</code>
                </th>
                <td>{n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>cycles per CPU: {outcome.cycles.perCpu.join(', ')}</p>
    </Panel>
  );
}, sameValue);

/**
 * The broken invariants, under the narration where the eye is (the panel below the stage has
 * them too): a counterexample loaded from the explorer ends on its violation.
 */
export const ViolationBanner = memo(function ViolationBanner({ violations }: { violations: readonly Violation[] }) {
  return (
    <div className="violation-banner" aria-live="polite" data-testid="violation">
      {violations.map((v) => (
        <p key={`${v.step}-${v.invariant}`}>
          <Icon name="warning" /> <strong>{v.invariant}</strong> broken at step {v.step}: {v.message}
        </p>
      ))}
    </div>
  );
}, sameValue);

/** Props equal in value (the simulator's plain JSON: compared as text). */
function sameValue<P extends object>(a: P, b: P): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
