// Plain panels of the view: text and tables, no layout logic (the D3 views come later).
import type { ReactNode } from 'react';
import type {
  ContextView,
  CpuView,
  NodeView,
  Outcome,
  SlabView,
  VarView,
  Violation,
} from '../sim';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A chain of names ending in NULL, e.g. `a → b → NULL`. */
function chain(names: readonly string[]): string {
  return [...names, 'NULL'].join(' → ');
}

function list(names: readonly string[]): string {
  return names.length === 0 ? 'empty' : names.join(', ');
}

export function CpusPanel({ cpus }: { cpus: readonly CpuView[] }) {
  return (
    <Panel title="Per-CPU kmem_cache_cpu">
      {cpus.map((c) => (
        <div key={c.cpu} className="cpu" data-testid={`cpu-${c.cpu}`}>
          <h3>
            CPU {c.cpu} <span className="muted">node {c.node}</span>
          </h3>
          <dl>
            <dt>freelist</dt>
            <dd data-testid={`cpu-${c.cpu}-freelist`}>{chain(c.freelist)}</dd>
            <dt>tid</dt>
            <dd data-testid={`cpu-${c.cpu}-tid`}>
              {c.tid} <span className="muted">(event {c.tidEvent}, cpu {c.tidCpu})</span>
            </dd>
            <dt>page</dt>
            <dd>{c.page ?? 'NULL'}</dd>
            <dt>partial</dt>
            <dd>{list(c.partial)}</dd>
            <dt>running</dt>
            <dd>{c.running ?? 'idle'}</dd>
            <dt>irqs</dt>
            <dd>
              {c.irqsEnabled ? 'on' : 'off'}, preempt count {c.preemptCount}
            </dd>
            <dt>cycles</dt>
            <dd>{c.cycles}</dd>
          </dl>
        </div>
      ))}
    </Panel>
  );
}

export function ContextsPanel({ contexts }: { contexts: readonly ContextView[] }) {
  return (
    <Panel title="Contexts">
      <table>
        <thead>
          <tr>
            <th scope="col">id</th>
            <th scope="col">kind</th>
            <th scope="col">cpu</th>
            <th scope="col">state</th>
            <th scope="col">operation</th>
            <th scope="col">next line</th>
          </tr>
        </thead>
        <tbody>
          {contexts.map((c) => (
            <tr key={c.id}>
              <th scope="row">{c.id}</th>
              <td>{c.kind}</td>
              <td>{c.cpu}</td>
              <td>{c.state}</td>
              <td>
                {c.op ?? '—'}{' '}
                <span className="muted">
                  ({Math.min(c.opIndex + 1, c.ops)}/{c.ops})
                </span>
              </td>
              <td>
                {c.label === null ? '—' : <code>{c.label}</code>}
                {c.stack.length > 0 && <div className="muted">{c.stack.join(' › ')}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

export function SlabsPanel({ slabs }: { slabs: readonly SlabView[] }) {
  return (
    <Panel title="Slabs">
      {slabs.length === 0 && <p className="muted">No slab yet.</p>}
      {slabs.map((s) => (
        <div key={s.name} className="slab" data-testid={`slab-${s.name}`}>
          <h3>
            page {s.name}{' '}
            <span className="muted">
              {s.owner} · inuse {s.inuse}/{s.capacity} · {s.frozen ? 'frozen' : 'not frozen'}
              {s.slabLocked ? ' · slab_lock held' : ''}
            </span>
          </h3>
          <p>freelist: {chain(s.freelist)}</p>
          <table>
            <thead>
              <tr>
                <th scope="col">object</th>
                <th scope="col">free pointer</th>
                <th scope="col">owner</th>
              </tr>
            </thead>
            <tbody>
              {s.objects.map((o) => (
                <tr key={o.name}>
                  <th scope="row">{o.name}</th>
                  <td>{o.fp}</td>
                  <td>{o.owner}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </Panel>
  );
}

export function NodesPanel({ nodes }: { nodes: readonly NodeView[] }) {
  return (
    <Panel title="Node partial lists">
      {nodes.map((n) => (
        <dl key={n.node}>
          <dt>node {n.node} partial</dt>
          <dd>
            {list(n.partial)} <span className="muted">(nr_partial {n.nrPartial})</span>
          </dd>
          <dt>list_lock</dt>
          <dd>
            {n.listLock === null ? 'free' : `held by ${n.listLock}`}
            {n.waiters.length > 0 && `, waiting: ${n.waiters.join(', ')}`}
          </dd>
        </dl>
      ))}
    </Panel>
  );
}

export function VarsPanel({ vars }: { vars: readonly VarView[] }) {
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
}

export function ViolationsPanel({ violations }: { violations: readonly Violation[] }) {
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
}

export function StatsPanel({ outcome }: { outcome: Outcome }) {
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
}
