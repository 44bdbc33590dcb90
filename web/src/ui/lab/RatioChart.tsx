// The React host of one comparison chart: measures its width (the layout is made for the real
// width, so the texts keep their size on a phone), lays the chart out with the pure layout and
// draws it with D3 in a layout effect. The bar grows when the model's result comes back, unless
// the reader asked for reduced motion.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { describeChart, layoutRatioChart, type ChartInput } from './chart.layout';
import { renderRatioChart } from './chart.view';
import { useWidth } from './useWidth';

const TWEEN_MS = 450;

export function RatioChart({ input, animate, testId }: { input: ChartInput; animate: boolean; testId?: string }) {
  const box = useRef<HTMLDivElement | null>(null);
  const svg = useRef<SVGSVGElement | null>(null);
  const width = useWidth(box);
  const shapes = useMemo(() => (width === null ? null : layoutRatioChart(input, width)), [input, width]);
  const drawn = useRef<{ width: number } | null>(null);
  useLayoutEffect(() => {
    if (svg.current === null || shapes === null) return;
    // The first drawing (results kept from earlier show at once) and a resize are not tweened;
    // a result that comes back while the chart is on the page is.
    const tween = animate && drawn.current !== null && drawn.current.width === shapes.width;
    renderRatioChart(svg.current, shapes, { duration: tween ? TWEEN_MS : 0 });
    drawn.current = { width: shapes.width };
  }, [shapes, animate]);
  return (
    <div className="ratio-chart" ref={box}>
      <svg ref={svg} role="img" aria-label={describeChart(input, input.tolerance)} data-testid={testId} />
    </div>
  );
}
