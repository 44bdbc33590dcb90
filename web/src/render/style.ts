// The CSS of the D3 views, put inside each SVG (so an exported frame is self-contained). It
// reads the page's theme variables (app.css); `exportSvg` adds their resolved values.

export const FONT_MONO = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'DejaVu Sans Mono', monospace";
export const FONT_UI = "system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif";

export const SVG_CSS = `
text { font: 12px ${FONT_MONO}; fill: var(--fg); }
text.title { font: 700 13px ${FONT_UI}; }
text.label, text.muted { fill: var(--muted); }
text.strong { font-weight: 700; }
text.warn { fill: var(--error); }
.card > rect.bg { fill: var(--panel); stroke: var(--border); rx: 8px; }
.card.selected > rect.bg { stroke: var(--accent); stroke-width: 2.5px; }
.card > rect.frost { fill: var(--frost, #dcefff); stroke: var(--frost-edge, #5aa0d8); stroke-width: 2px; rx: 8px; pointer-events: none; }
.card.faded { opacity: 0.45; }
.card.faded > rect.bg { stroke-dasharray: 5 3; }
.chip rect { fill: var(--bg); stroke: var(--fg); stroke-width: 1.2px; }
.chip text.name { text-anchor: middle; dominant-baseline: central; }
.chip text.sub { text-anchor: middle; font-size: 12px; fill: var(--muted); }
.chip.held rect { fill: var(--fg); }
.chip.held text.name { fill: var(--bg); }
.chip.held text.sub { fill: var(--fg); font-weight: 700; }
.chip.inflight rect { stroke-dasharray: 3 2; stroke-width: 1.6px; }
.chip.lost rect { stroke: var(--error); stroke-width: 2px; }
.chip.lost text.sub { fill: var(--error); }
.chip.double rect { fill: var(--fg); stroke: var(--error); stroke-width: 3px; stroke-dasharray: 5 2; }
.chip.double text.name { fill: var(--bg); }
.chip.double text.sub { fill: var(--error); font-weight: 700; }
.chip.selected rect { stroke: var(--accent); stroke-width: 3px; }
.chip.stale rect { stroke-dasharray: 2 2; stroke: var(--muted); }
.chip.stale text.name { fill: var(--muted); text-decoration: line-through; }
.card path.tube { fill: var(--bg); stroke: var(--muted); stroke-width: 1.2px; }
.card path.divider { fill: none; stroke: var(--border); stroke-width: 1px; }
.card path.bracket { fill: none; stroke: var(--muted); stroke-width: 1.5px; }
.chip.changed rect, .ref.changed rect { stroke: var(--accent); stroke-width: 2.5px; }
.arrow { fill: none; }
.arrow.fp { stroke: var(--fg); stroke-width: 1.2px; }
.arrow.stale { stroke: var(--muted); stroke-dasharray: 2 3; opacity: 0.7; }
.arrow.link { stroke: var(--muted); stroke-width: 1.2px; }
.arrow.snap { stroke: var(--error); stroke-width: 1.5px; stroke-dasharray: 4 3; }
.ref rect { fill: var(--bg); stroke: var(--fg); stroke-width: 1.2px; rx: 4px; }
.ref.frozen rect { stroke-width: 2px; }
.ref.selected rect { stroke: var(--accent); stroke-width: 3px; }
.ref text { text-anchor: middle; dominant-baseline: central; font-weight: 700; }
.lock path.body { stroke: var(--fg); stroke-width: 1.2px; fill: var(--bg); }
.lock.held path.body { fill: var(--fg); }
.lock path.shackle { fill: none; stroke: var(--fg); stroke-width: 2px; }
.strip > rect.bg { fill: var(--panel); stroke: var(--border); rx: 8px; }
.strip.failed > rect.bg { stroke: var(--error); stroke-width: 2px; }
.half rect { fill: var(--bg); stroke: var(--border); rx: 4px; }
.half.mismatch rect { stroke: var(--error); stroke-width: 2.5px; }
.cell rect { fill: none; stroke: none; rx: 3px; }
.cell.M rect, .cell.E rect { fill: var(--fg); }
.cell.M text, .cell.E text { fill: var(--bg); font-weight: 700; }
.cell.S rect { stroke: var(--fg); stroke-width: 1.2px; }
.cell.I text { fill: var(--muted); }
.cell text { text-anchor: middle; dominant-baseline: central; }
.cell.changed rect { stroke: var(--accent); stroke-width: 2.5px; }
.row.touched text.name { font-weight: 700; }
.xfer circle { stroke: var(--fg); stroke-width: 1.5px; }
.xfer text { font-size: 12px; text-anchor: start; }
.token rect { fill: var(--bg); stroke: var(--fg); stroke-width: 1.2px; }
.token rect.hue { stroke: none; }
.token.M rect:not(.hue), .token.E rect:not(.hue) { fill: var(--fg); }
.token.M text, .token.E text { fill: var(--bg); font-weight: 700; }
.token.arrived rect:not(.hue) { stroke: var(--accent); stroke-width: 2.5px; }
.token.gone rect { stroke: var(--muted); stroke-dasharray: 3 2; fill: none; }
.token.gone text { fill: var(--muted); text-decoration: line-through; }
.tie { fill: none; stroke: var(--accent); stroke-width: 1.5px; stroke-dasharray: 2 3; }
.tick.future rect { fill: var(--bg) !important; stroke: var(--muted); }
.tick.failed rect { stroke: var(--error); stroke-width: 2px; }
.tick .fail { text-anchor: middle; font-weight: 700; fill: var(--error); }
.lane rect.band { fill: var(--panel); }
.lane text { fill: var(--fg); }
.violation line { stroke: var(--error); stroke-width: 2px; stroke-dasharray: 4 2; }
.violation text { fill: var(--error); font-weight: 700; }
.bracket { fill: none; stroke: var(--error); stroke-width: 1.5px; }
.cursor { stroke: var(--fg); stroke-width: 2px; }
.setup rect { fill: var(--border); }
`;

/** Put the SVG's own <style> in (once). */
export function ensureStyle(svg: SVGSVGElement): void {
  if (svg.querySelector(':scope > style') !== null) return;
  const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
  style.textContent = SVG_CSS;
  svg.insertBefore(style, svg.firstChild);
}
