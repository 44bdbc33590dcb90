// One seed comparison on the lab page: what it measures and the seed it cites, the workload
// and the variant change, the published and the model's numbers with the chart, the verdicts
// in words and symbols, the note where the model cannot match, why the cycles moved (per
// operation) and links that open either side in the stepper.
import { memo, useMemo, useState, type ReactNode } from 'react';
import { SimError } from '../../sim';
import { labStepperScenario, type CaseInfo } from '../../sim/lab';
import type { CaseRun } from '../../sim/lab-runner';
import { playHash } from '../../state/url';
import { BUILTIN_TEXTS } from '../scenarios';
import { Breakdown } from './Breakdown';
import { RatioChart } from './RatioChart';
import type { ChartInput } from './chart.layout';
import {
  explainOps,
  lessonsHash,
  metricUnit,
  mismatch,
  num,
  opRows,
  pairsText,
  paramsText,
  publishedText,
  ratioText,
  seedNumber,
  sentence,
  effectVerdict,
  signVerdict,
  statRows,
  toleranceVerdict,
  variantChanges,
} from './format';

/** The playground link of one side, or why there is none. */
function stepperLink(id: string, after: boolean): { href: string } | { error: string } {
  try {
    return { href: playHash(labStepperScenario(id, after), [], 0, BUILTIN_TEXTS) };
  } catch (e) {
    if (e instanceof SimError) return { error: e.message };
    throw e;
  }
}

/**
 * Following a stepper link keeps the lab's scroll position in its history entry (Back returns
 * there) and shows the playground from its top, not at the lab's depth.
 */
function toTopOnArrival(): void {
  window.addEventListener('hashchange', () => requestAnimationFrame(() => window.scrollTo(0, 0)), { once: true });
}

function VerdictLine({ v, testId }: { v: { ok: boolean; symbol: string; text: string }; testId: string }) {
  return (
    <li className={v.ok ? 'ok' : 'bad'} data-testid={testId}>
      <span className="symbol" aria-hidden="true">
        {v.symbol}
      </span>{' '}
      {v.text}
    </li>
  );
}

/**
 * A `<details>` whose contents are made the first time it opens: the cards' closed tables were
 * 1,300 of the page's 4,500 elements, all made as the results came in, and most readers never
 * open them. Kept once made, so closing and opening again keeps the reader's scroll inside.
 */
function LazyDetails({ summary, children }: { summary: string; children: ReactNode }) {
  const [opened, setOpened] = useState(false);
  return (
    <details onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary>{summary}</summary>
      {opened && children}
    </details>
  );
}

function CaseCardBody({
  info,
  run,
  tolerance,
  seedTitle,
  animate,
}: {
  info: CaseInfo;
  run: CaseRun | undefined;
  tolerance: number;
  seedTitle: string | undefined;
  animate: boolean;
}) {
  const result = run?.state === 'done' ? run.result : null;
  const chart: ChartInput = useMemo(
    () => ({
      seedRatio: info.seedRatio,
      modelRatio: result?.modelRatio ?? null,
      tolerance,
      state: run?.state ?? 'waiting',
    }),
    [info.seedRatio, result, tolerance, run?.state],
  );
  const links = useMemo(() => [stepperLink(info.id, false), stepperLink(info.id, true)] as const, [info.id]);
  const changes = variantChanges(info.before, info.change);
  const titleId = `lab-case-${info.id}`;

  return (
    <article className="lab-case" aria-labelledby={titleId} data-testid={`case-${info.id}`} data-state={run?.state ?? 'waiting'}>
      <h3 id={titleId} tabIndex={-1}>
        <span className="case-id">{info.id}</span> {info.what}
      </h3>
      {info.file.endsWith('.txt') ? (
        <p className="seed-cite">
          Seed <code>{info.file}</code>
          {seedTitle !== undefined && <span className="muted"> — {seedTitle}</span>}
          {' · '}
          <a href={lessonsHash(info.file)}>lessons citing seed {seedNumber(info.file)}</a>
        </p>
      ) : (
        <p className="seed-cite">
          Published figure: <code>{info.file}</code> · <a href="#/lessons/why-the-tid-went/8">the lesson on what was measured</a> ·{' '}
          <a href="#/compare">6.8 and 7.0 side by side</a>
        </p>
      )}

      <div className="case-body">
        <dl className="case-facts">
          <dt>Workload</dt>
          <dd>
            <code>{info.workload}</code>: {info.about}
            <br />
            <span className="muted small">{paramsText(result?.params ?? info.params)}</span>
          </dd>
          <dt>Before</dt>
          <dd>
            <code>{pairsText(info.before)}</code>
          </dd>
          <dt>After</dt>
          <dd>
            {changes.map((c, i) => (
              <span key={c.key}>
                {i > 0 && ', '}
                <code>{c.key}</code>: {c.from === null ? <span className="muted">default</span> : <code>{c.from}</code>} →{' '}
                <code>{c.to}</code>
              </span>
            ))}
          </dd>
          <dt>Published</dt>
          <dd data-testid="published">
            {publishedText(info)} <span className="ratio">{ratioText(info.seedRatio)}</span>
          </dd>
          <dt>Model</dt>
          <dd data-testid="model">
            {result !== null ? (
              <>
                {num(result.before.model)} → {num(result.after.model)} {metricUnit(info.metric)}{' '}
                <span className="ratio">{ratioText(result.modelRatio)}</span>
              </>
            ) : run?.state === 'failed' ? (
              <span className="error">✗ the run failed: {run.message}</span>
            ) : (
              <span className="muted">{run?.state === 'running' ? 'running…' : 'waiting to run'}</span>
            )}
          </dd>
          {result !== null && (
            <>
              <dt>Mechanisms</dt>
              <dd data-testid="mechanisms">
                {result.mechanisms.length === 0 ? (
                  <span className="muted">the model’s own steps only</span>
                ) : (
                  <ul className="mechanisms">
                    {result.mechanisms.map((m) => (
                      <li key={m.key} data-mechanism={m.key}>
                        <strong>{m.name}</strong>: {m.detail}
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </>
          )}
        </dl>

        <div className="case-chart">
          <RatioChart input={chart} animate={animate} testId={`chart-${info.id}`} />
          {result !== null && (
            <ul className="verdicts" data-testid="verdicts">
              <VerdictLine v={signVerdict(result)} testId="sign" />
              <VerdictLine v={effectVerdict(result)} testId="size" />
              <VerdictLine v={toleranceVerdict(result, tolerance)} testId="tolerance" />
              <li className="plain">
                <span className="symbol" aria-hidden="true">
                  {result.asserted ? '■' : '□'}
                </span>{' '}
                {result.asserted
                  ? result.effectAsserted
                    ? 'The lab’s tests assert this sign and this size.'
                    : 'The lab’s tests assert this sign, not this size.'
                  : 'The lab’s tests do not assert this sign.'}
              </li>
            </ul>
          )}
        </div>
      </div>

      {result !== null && mismatch(result) ? (
        <div className="lab-note mismatch" data-testid="mismatch">
          <p>
            <strong>
              <span aria-hidden="true">⚠ </span>Where the model cannot match.
            </strong>{' '}
            {result.note !== undefined ? sentence(result.note) : 'The lab has no explanation for this one yet.'}
          </p>
        </div>
      ) : info.note !== undefined ? (
        <p className="lab-note">
          <strong>Note.</strong> {sentence(info.note)}
        </p>
      ) : null}

      {result !== null && (
        <div className="why">
          <Breakdown result={result} unit={metricUnit(info.metric)} />
          <h4>Why the cycles moved</h4>
          <ul>
            {explainOps(result.before, result.after, info.metric).map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
          <LazyDetails summary="Per operation and stat counters, before and after">
            <div className="table-scroll" tabIndex={0} role="region" aria-label={`Per operation, seed case ${info.id}`}>
              <table className="per-op">
                <caption className="sr-only">Per operation, before → after</caption>
                <thead>
                  <tr>
                    <th scope="col">operation</th>
                    <th scope="col">cycles</th>
                    <th scope="col">list_lock</th>
                    <th scope="col">line transfers</th>
                    <th scope="col">of them objects</th>
                    <th scope="col">slab descr.</th>
                    <th scope="col">prefetched</th>
                  </tr>
                </thead>
                <tbody>
                  {opRows(result.before, result.after, info.metric).map((r) => (
                    <tr key={r.op}>
                      <th scope="row">
                        {r.op}
                        {r.counted ? '' : ' (not in the metric)'}
                      </th>
                      <td>
                        {num(r.before.cycles)} → {num(r.after.cycles)}
                      </td>
                      <td>
                        {num(r.before.listLocks)} → {num(r.after.listLocks)}
                      </td>
                      <td>
                        {num(r.before.transfers)} → {num(r.after.transfers)}
                      </td>
                      <td>
                        {num(r.before.objectTransfers)} → {num(r.after.objectTransfers)}
                      </td>
                      <td>
                        {num(r.before.slabPageTransfers)} → {num(r.after.slabPageTransfers)}
                      </td>
                      <td>
                        {num(r.before.prefetched)} → {num(r.after.prefetched)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="table-scroll" tabIndex={0} role="region" aria-label={`Stat counters, seed case ${info.id}`}>
              <table className="stats">
                <caption className="sr-only">Stat counters of the whole run, before and after</caption>
                <thead>
                  <tr>
                    <th scope="col">stat counter (whole run)</th>
                    <th scope="col">before</th>
                    <th scope="col">after</th>
                  </tr>
                </thead>
                <tbody>
                  {statRows(result.before, result.after).map((s) => (
                    <tr key={s.name} className={s.before !== s.after ? 'changed' : undefined}>
                      <th scope="row">
                        <code>{s.name}</code>
                      </th>
                      <td>{num(s.before, 0)}</td>
                      <td>
                        {num(s.after, 0)}
                        {s.before !== s.after && <span className="sr-only"> (changed)</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </LazyDetails>
        </div>
      )}

      <p className="stepper-links">
        {links.map((l, i) => {
          const side = i === 0 ? 'before' : 'after';
          return 'href' in l ? (
            <a key={side} className="button-link" href={l.href} data-testid={`open-${side}`} onClick={toTopOnArrival}>
              Open {side} in the stepper
            </a>
          ) : (
            <span key={side} className="error">
              The {side} side cannot open in the stepper: {l.error}
            </span>
          );
        })}
        <span className="muted small">a small instance: the same cache and variant, a dozen operations, you schedule</span>
      </p>
    </article>
  );
}

/** One comparison's card, redrawn only when its own run changes: a result arriving redraws its
 * card, not all seventeen with their charts (the Lab's main-thread time on a phone). */
export const CaseCard = memo(CaseCardBody);
