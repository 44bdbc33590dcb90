// Where a comparison's cycles went and how robust its verdict is: a stacked bar per side
// (waiting, transfers, atomics, other work: the model's own breakdown, `Side.shares`) and a
// small range bar per cost constant (the ratio with it at 75 % and 125 %, `sensitivity`). The
// words beside each bar carry every number; the bars only draw them.
import type { SeedResult, Side } from '../../sim/lab';
import { num, ratioText, robustnessText, SHARE_KEYS, SHARE_WORDS, sensitivityRows, sharesText } from './format';

function total(s: Side): number {
  return SHARE_KEYS.reduce((a, k) => a + s.shares[k], 0);
}

function StackedBar({ side, label, scale }: { side: Side; label: string; scale: number }) {
  return (
    <li className="share-row">
      <span className="share-label">{label}</span>
      <span className="share-bar" aria-hidden="true">
        {SHARE_KEYS.map((k) =>
          side.shares[k] > 0 ? (
            <span key={k} className={`share share-${k}`} style={{ width: `${(100 * side.shares[k]) / scale}%` }} title={`${SHARE_WORDS[k]} ${num(side.shares[k], 0)}`} />
          ) : null,
        )}
      </span>
      <span className="share-words">
        {num(total(side), 0)}: {sharesText(side.shares)}
      </span>
    </li>
  );
}

/** Where the ratio lands between `lo` and `hi` on a bar that spans them, in percent. */
function at(x: number, lo: number, hi: number): number {
  return hi > lo ? (100 * (x - lo)) / (hi - lo) : 50;
}

export function Breakdown({ result, unit }: { result: SeedResult; unit: string }) {
  const scale = Math.max(total(result.before), total(result.after), 1);
  const rows = sensitivityRows(result);
  const shown = rows.slice(0, 5);
  // The range bars share one axis: every end, the model's ratio and 1 (no change).
  const ends = rows.flatMap((r) => [r.low, r.high]).concat([result.modelRatio, 1]);
  const lo = Math.min(...ends);
  const hi = Math.max(...ends);
  return (
    <div className="breakdown" data-testid="breakdown">
      <h4>Where the cycles go ({unit})</h4>
      <ul className="shares">
        <StackedBar side={result.before} label="before" scale={scale} />
        <StackedBar side={result.after} label="after" scale={scale} />
      </ul>
      <p className="share-legend muted small" aria-hidden="true">
        {SHARE_KEYS.map((k) => (
          <span key={k}>
            <span className={`swatch share-${k}`} /> {SHARE_WORDS[k]}
          </span>
        ))}
      </p>
      <h4>How robust the verdict is</h4>
      <p className="robustness" data-testid="robustness">
        {robustnessText(result)}
      </p>
      <p className="sens-legend muted small" aria-hidden="true">
        Each bar spans the ratio with the constant at 75 % and at 125 %; the blue tick is the model’s ratio, the black line ×1 (no
        change).
      </p>
      <ul className="sensitivity">
        {shown.map((r) => (
          <li key={r.constant} className={r.flips ? 'flips' : undefined} data-testid={`sens-${r.constant}`}>
            <code className="sens-name">{r.constant}</code>
            <span className="sens-bar" aria-hidden="true">
              <span className="sens-one" style={{ left: `${at(1, lo, hi)}%` }} />
              <span className="sens-range" style={{ left: `${at(Math.min(r.low, r.high), lo, hi)}%`, width: `${Math.max(at(Math.max(r.low, r.high), lo, hi) - at(Math.min(r.low, r.high), lo, hi), 0.5)}%` }} />
              <span className="sens-model" style={{ left: `${at(result.modelRatio, lo, hi)}%` }} />
            </span>
            <span className="sens-words">
              {ratioText(r.low)} at 75 %, {ratioText(r.high)} at 125 %{r.flips && <strong> · ⚠ flips the verdict</strong>}
            </span>
          </li>
        ))}
      </ul>
      {rows.length > shown.length && (
        <p className="muted small">
          {rows.length - shown.length} more constant{rows.length - shown.length === 1 ? '' : 's'} move the ratio less (all in{' '}
          <code>slub-lab bench seeds</code>).
        </p>
      )}
    </div>
  );
}
