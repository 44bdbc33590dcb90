// The React host of the overview (overview.layout.ts, overview.view.ts): every comparison's
// published and model change on one axis. The summary table beside it says the same in text.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { layoutOverview, type OverviewRowInput } from './overview.layout';
import { renderOverview } from './overview.view';
import { useWidth } from './useWidth';

const TWEEN_MS = 450;

export function OverviewChart({ rows, animate }: { rows: readonly OverviewRowInput[]; animate: boolean }) {
  const box = useRef<HTMLDivElement | null>(null);
  const svg = useRef<SVGSVGElement | null>(null);
  const width = useWidth(box);
  const shapes = useMemo(() => (width === null ? null : layoutOverview(rows, width)), [rows, width]);
  const lastWidth = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (svg.current === null || shapes === null) return;
    const resized = lastWidth.current !== null && lastWidth.current !== shapes.width;
    renderOverview(svg.current, shapes, { duration: animate && lastWidth.current !== null && !resized ? TWEEN_MS : 0 });
    lastWidth.current = shapes.width;
  }, [shapes, animate]);
  const run = rows.filter((r) => r.modelRatio !== null);
  const agree = run.filter((r) => r.modelRatio !== null && Math.sign(r.modelRatio - 1) === Math.sign(r.seedRatio - 1)).length;
  return (
    <figure className="overview">
      <div ref={box} className="overview-box">
        <svg
          ref={svg}
          role="img"
          data-testid="overview"
          aria-label={`Every comparison's change, published and model, on one axis: ${run.length} of ${rows.length} run, ${agree} in the seed's direction (the table above gives the numbers).`}
        />
      </div>
      <figcaption className="small muted">
        <span aria-hidden="true">◆</span> published <span aria-hidden="true">●</span> model, change after ÷ before − 1, one row per
        case.
      </figcaption>
    </figure>
  );
}
