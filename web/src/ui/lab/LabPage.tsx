// `#/lab` (design.md §1 "Lab", issue 6): the seeds' own benchmarks rerun on the model under the one
// cost table, each comparison beside the seed's published numbers. The cases come from the
// model (labCases: nothing per case here); they run one at a time in a Web Worker
// (sim/lab-runner.ts) and each card fills in as its result comes back.
import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import vocabulary from '../../../../lessons/vocabulary.json';
import { labCases, labPending, type CaseInfo } from '../../sim/lab';
import { labRunner, type CaseRun } from '../../sim/lab-runner';
import { useMediaQuery } from '../views';
import { CaseCard } from './CaseCard';
import { OverviewChart } from './OverviewChart';
import { effectVerdict, num, pct, progressText, signVerdict, toleranceVerdict } from './format';
import './lab.css';

const SEED_TITLES: Readonly<Record<string, string>> = vocabulary.seeds;

function LabHeader() {
  return (
    <header className="topbar lab-bar">
      <p className="brand">
        <a href="#/play">slub-lab</a>
      </p>
      <nav aria-label="Sections" className="nav">
        <a href="#/play">Playground</a>
        <a href="#/lessons">Lessons</a>
        <a href="#/explore">Explorer</a>
        <a href="#/lab" aria-current="page">
          Lab
        </a>
      </nav>
    </header>
  );
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

function SummaryRow({ info, run, tolerance }: { info: CaseInfo; run: CaseRun | undefined; tolerance: number }) {
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

export function LabPage() {
  const { cases, tolerance, costTable } = useMemo(() => labCases(), []);
  const pending = useMemo(() => labPending(), []);
  const progress = useSyncExternalStore(labRunner.subscribe, labRunner.snapshot);
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');

  useEffect(() => {
    labRunner.request(cases.map((c) => c.id));
  }, [cases]);
  useEffect(() => {
    document.title = 'Lab · slub-lab';
    return () => {
      document.title = 'slub-lab';
    };
  }, []);

  const overview = useMemo(
    () =>
      cases.map((c) => {
        const run = progress.runs.get(c.id);
        return { id: c.id, seedRatio: c.seedRatio, modelRatio: run?.state === 'done' ? run.result.modelRatio : null };
      }),
    [cases, progress.runs],
  );
  const failed = cases.filter((c) => progress.runs.get(c.id)?.state === 'failed').length;
  const done = cases.filter((c) => progress.runs.get(c.id)?.state === 'done').length;
  const band = `±${num(tolerance * 100, 0)} %`;

  return (
    <main className="page lab" aria-labelledby="lab-title">
      <LabHeader />
      <h1 id="lab-title">The seeds’ benchmarks, rerun on the model</h1>
      <div className="lab-top">
        <section className="lab-intro" aria-label="How the lab works">
          <p className="lead">
            A <strong>seed</strong> is one of the five kernel texts this project grew from: a patch series or a paper that
            published a measurement of SLUB (cycles per allocation, a benchmark&apos;s time) before and after a change. Each
            comparison runs one workload on the model twice, <em>before</em> and <em>after</em> a patch (a variant of the
            model), and sets the model’s <strong>after ÷ before</strong> beside the ratio the seed published. One cost table
            charges every run, the same for every experiment: no constant is tuned to make one match.
          </p>
          <p>
            The model’s cycles are not the seeds’. Those come from an IA64 and several Xeons, and include the call, mispredicted
            branches and the benchmark loop; the model charges every load its full latency, one after another, where a real
            core overlaps some of them. Around the allocator the lab adds what the seeds’ machines and benchmarks did: the page
            allocator’s zone lock and per-CPU page lists, kmalloc’s size lookup and the free’s read of the object’s page, a store
            buffer, slab_test’s wait between its allocations and its frees, and a warm-up where the seed ran far longer than the
            model can. Each card lists the ones its comparison used. So the lab compares <em>ratios</em>, with verdicts kept
            apart: the <strong>sign</strong> (does the change go the seed&apos;s way?), the <strong>size</strong> (is the
            model&apos;s change between half and twice the seed&apos;s?) and the <strong>band</strong> (is the model&apos;s
            ratio within {band} of the seed&apos;s?).
          </p>
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
          <p className="legend small">
            <strong>Reading a chart:</strong> each bar is a change from before to after (after ÷ before − 1). The top bar is the
            seed’s published change, the one below is the model’s. Left of the zero line the change costs less after; right of
            it, it costs more. On the model’s row, the shaded band is the seed’s ratio {band} and the dashed mark is the seed’s
            change. In the summary, <strong>size</strong> is the model’s change divided by the seed’s: between ½ and 2 it counts
            as the seed’s effect; <strong>asserted</strong> says which verdicts the lab’s tests hold the model to. The verdicts
            are also written out in words beside each chart.
          </p>
        </section>

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
      </div>

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
    </main>
  );
}
