// The Lab's model side (`#/lab`): what needs the lab's wasm module, loaded after the page's
// words are drawn (LabPage.tsx). Each part is a component of its own, placed by the page where
// it belongs (the cost table in the introduction, the summary beside it, the progress and the
// cards below); they share the cases, read once, and the runs' store.
import { memo, startTransition, useEffect, useMemo, useState, type ReactNode } from 'react';
import vocabulary from '../../../../lessons/vocabulary.json';
import { labCases, labPending, type CaseInfo } from '../../sim/lab';
import { labRunner, type CaseRun, type LabProgress } from '../../sim/lab-runner';
import { useMediaQuery } from '../useMediaQuery';
import { CaseCard } from './CaseCard';
import { OverviewChart } from './OverviewChart';
import { effectVerdict, num, pct, progressText, signVerdict, toleranceVerdict } from './format';

const SEED_TITLES: Readonly<Record<string, string>> = vocabulary.seeds;

// The lab module is instantiated by the time this chunk runs (lab.ts awaits it at its top).
const { cases, tolerance, costTable } = labCases();
const band = `±${num(tolerance * 100, 0)} %`;

/**
 * The runs' progress, followed in transitions: each start and each result redraws its card and
 * the summary, and React renders that in slices that leave the main thread free, where
 * useSyncExternalStore would render it in one block (34 of them as the seventeen cases run).
 */
function useProgress(): LabProgress {
  const [progress, setProgress] = useState(labRunner.snapshot);
  useEffect(() => {
    const update = () => startTransition(() => setProgress(labRunner.snapshot()));
    update(); // what changed between the first render and this subscription
    return labRunner.subscribe(update);
  }, []);
  return progress;
}

/** Text with `backquoted` parts (as the model's doc table writes them) shown as code. */
function withCode(text: string): ReactNode[] {
  return text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}

function focusCase(id: string): void {
  const h = document.getElementById(`lab-case-${id}`);
  if (h === null) return;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  h.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  h.focus({ preventScroll: true });
}

/** One row of the summary; redrawn only when its own run changes (memo, below). */
function SummaryRowBody({ info, run, tolerance }: { info: CaseInfo; run: CaseRun | undefined; tolerance: number }) {
  const r = run?.state === 'done' ? run.result : null;
  const sign = r === null ? null : signVerdict(r);
  const tol = r === null ? null : toleranceVerdict(r, tolerance);
  const size = r === null ? null : effectVerdict(r);
  return (
    <tr data-testid={`summary-${info.id}`}>
      <th scope="row">
        <button type="button" className="link-like" onClick={() => focusCase(info.id)} title={info.what}>
          {info.id}
        </button>
      </th>
      <td className="num">{pct(info.seedRatio - 1)}</td>
      <td className="num">{r !== null ? pct(r.modelRatio - 1) : run?.state === 'failed' ? '✗ failed' : run?.state === 'running' ? 'running…' : '…'}</td>
      <td className={sign === null ? undefined : sign.ok ? 'ok' : 'bad'}>
        {sign !== null && (
          <>
            <span aria-hidden="true">{sign.symbol}</span> {sign.ok ? 'same' : 'opposite'}
          </>
        )}
      </td>
      <td className={size === null ? undefined : size.ok ? 'ok' : 'bad'} title={size?.text}>
        {size !== null && (
          <>
            <span aria-hidden="true">{size.symbol}</span> {size.short}
          </>
        )}
      </td>
      <td className={tol === null ? undefined : tol.ok ? 'ok' : 'bad'}>
        {tol !== null && (
          <>
            <span aria-hidden="true">{tol.symbol}</span> {tol.ok ? 'within' : 'outside'}
          </>
        )}
      </td>
      <td className="asserted">{info.asserted ? (info.effectAsserted ? 'sign, size' : 'sign') : 'no'}</td>
    </tr>
  );
}


const SummaryRow = memo(SummaryRowBody);

/** The cost table every run is charged by, from the model's source. */
export function CostTable() {
  return (
    <details className="cost-table">
      <summary>The cost table (cycles), from the model’s source</summary>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="The cost table">
        <table>
          <thead>
            <tr>
              <th scope="col">constant</th>
              <th scope="col">cycles</th>
              <th scope="col">source</th>
            </tr>
          </thead>
          <tbody>
            {costTable.map((r) => (
              <tr key={r.constant}>
                <th scope="row">
                  <code>{r.constant}</code>
                </th>
                <td className="num">{r.cycles}</td>
                <td className="source">{withCode(r.source)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="small muted">
        A step pays its instruction’s cost (a cmpxchg, an irq or preempt toggle, a lock) plus the cost of every cache line
        it touches, by where that line is: in this CPU’s L1, in no cache, in another core clean or modified, or on another
        socket. The lines move between the CPUs’ caches by MESI, so a remote free or a contended lock shows up as
        transfers. The table is written once, in <code>wasm-core/sim/src/model/cost.rs</code>, and this page reads it from
        there.
      </p>
    </details>
  );
}

/** Every comparison in one table, with the overview chart; it asks the runner for all of them. */
export function Summary() {
  const progress = useProgress();
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  useEffect(() => {
    labRunner.request(cases.map((c) => c.id));
  }, []);
  const overview = useMemo(
    () =>
      cases.map((c) => {
        const run = progress.runs.get(c.id);
        return { id: c.id, seedRatio: c.seedRatio, modelRatio: run?.state === 'done' ? run.result.modelRatio : null };
      }),
    [progress.runs],
  );
  return (
    <section aria-labelledby="lab-summary-title" className="lab-summary">
      <h2 id="lab-summary-title">Summary</h2>
      <p className="small muted" id="lab-summary-what">
        Change after ÷ before − 1, published by the seed and run on the model.
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Summary of every comparison">
        <table aria-describedby="lab-summary-what">
          <thead>
            <tr>
              <th scope="col">case</th>
              <th scope="col">seed</th>
              <th scope="col">model</th>
              <th scope="col">direction</th>
              <th scope="col">size</th>
              <th scope="col">{band}</th>
              <th scope="col" className="asserted">asserted</th>
            </tr>
          </thead>
          <tbody>
            {cases.map((c) => (
              <SummaryRow key={c.id} info={c} run={progress.runs.get(c.id)} tolerance={tolerance} />
            ))}
          </tbody>
        </table>
      </div>
      <OverviewChart rows={overview} animate={!reducedMotion} />
    </section>
  );
}

/** The progress line, the cards and the seeds not modelled yet. */
export function Cases() {
  const progress = useProgress();
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const pending = useMemo(() => labPending(), []);
  const failed = cases.filter((c) => progress.runs.get(c.id)?.state === 'failed').length;
  const done = cases.filter((c) => progress.runs.get(c.id)?.state === 'done').length;
  return (
    <>
      <section className={`lab-progress${progress.running.length > 0 ? ' running' : ''}`} aria-label="Progress">
        <p aria-live="polite" data-testid="lab-progress">
          {progressText(progress, failed)}
        </p>
        <progress max={cases.length} value={done + failed} aria-label="Comparisons run" />
        {failed > 0 && progress.running.length === 0 && (
          <button type="button" onClick={() => labRunner.retryFailed()}>
            Run the failed ones again
          </button>
        )}
      </section>

      <section aria-labelledby="lab-cases-title">
        <h2 id="lab-cases-title">The comparisons</h2>
        <div className="lab-cases">
          {cases.map((c) => (
            <CaseCard
              key={c.id}
              info={c}
              run={progress.runs.get(c.id)}
              tolerance={tolerance}
              seedTitle={SEED_TITLES[c.file]}
              animate={!reducedMotion}
            />
          ))}
        </div>
      </section>

      {pending.length > 0 && (
        <section aria-labelledby="lab-pending-title" className="lab-pending" data-testid="lab-pending">
          <h2 id="lab-pending-title">Not in the model yet</h2>
          <ul>
            {pending.map((p) => (
              <li key={p.id}>
                <strong>{p.id}</strong> <code>{p.file}</code>
                {SEED_TITLES[p.file] !== undefined && <span className="muted"> — {SEED_TITLES[p.file]}</span>}
                <br />
                {p.what}. <span className="needs">It needs {p.needs}.</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
