// D3 rendering of the cache-line tokens (tokens.layout.ts) into the stage's SVG: a moved line's
// token travels from the copy it was taken from (or from what it holds, out of memory) to the
// CPU that took it, its tie fading in behind it; an invalidated copy fades to a ghost; tokens
// the next step drops fade out. With `duration` 0 everything is set at once.
import { place, sameAsDrawn, setAttr, setText, translate, tweenOnly, type Selection } from './d3';
import { cpuColor } from './geometry';
import { TOKEN_H, type TieShape, type TokenShape } from './tokens.layout';
import type { StageShapes } from './stage.shapes';

type Layer = Selection<SVGGElement, unknown, null, undefined>;

export function renderTokens(ties: Layer, tokensLayer: Layer, shapes: StageShapes, d: number): void {
  // A step that moves no line leaves the tokens and ties as they are (one that moves a line
  // moves its token again, even along the same way as the step before).
  const layerEl = tokensLayer.node();
  const still = shapes.ties.length === 0 && shapes.tokens.every((t) => t.from === null);
  if (layerEl !== null && sameAsDrawn(layerEl, still ? JSON.stringify([shapes.tokens, shapes.tokenLabels]) : null, d)) return;
  const tie = ties
    .selectAll<SVGPathElement, TieShape>('path.tie')
    .data(shapes.ties, (t) => t.key)
    .join(
      (enter) => enter.append('path').attr('class', 'tie').attr('opacity', d > 0 ? 0 : 1),
      (update) => update,
      (exit) => (d > 0 ? exit.transition().duration(d / 2).attr('opacity', 0).remove() : exit.remove()),
    );
  setAttr(tie, 'd', (t) => t.d);
  if (d > 0) tweenOnly(tie, (el) => el.getAttribute('opacity') !== '1').transition().delay(d * 0.5).duration(d * 0.5).attr('opacity', 1);
  else tie.interrupt().attr('opacity', 1);

  const tokens = tokensLayer
    .selectAll<SVGGElement, TokenShape>('g.token')
    .data(shapes.tokens, (t) => t.key)
    .join(
      (enter) => {
        const g = enter
          .append('g')
          .attr('transform', (t) => (d > 0 && t.from !== null ? translate(t.from.x, t.from.y) : translate(t.x, t.y)))
          .attr('opacity', (t) => (d > 0 && t.from === null ? 0 : 1));
        g.append('rect').attr('height', TOKEN_H).attr('rx', 5);
        g.append('rect').attr('class', 'hue').attr('width', 4).attr('height', TOKEN_H).attr('rx', 2);
        g.append('text').attr('x', 8).attr('y', TOKEN_H / 2).attr('dominant-baseline', 'central');
        g.append('title');
        return g;
      },
      (update) => update,
      (exit) => (d > 0 ? exit.transition().duration(d).attr('opacity', 0).remove() : exit.remove()),
    );
  setAttr(tokens, 'class', (t) => `token ${t.state}${t.arrived ? ' arrived' : ''}${t.gone ? ' gone' : ''}`);
  setAttr(tokens, 'data-line', (t) => t.line);
  setAttr(tokens, 'data-cpu', (t) => t.cpu);
  setAttr(tokens.select<SVGRectElement>('rect:not(.hue)'), 'width', (t) => t.w);
  setAttr(tokens.select<SVGRectElement>('rect.hue'), 'fill', (t) => cpuColor(t.cpu));
  setText(tokens.select<SVGTextElement>('text'), (t) => t.text);
  setText(tokens.select<SVGTitleElement>('title'), (t) => t.title);
  // A ghost (a copy the step invalidated) stays half faded.
  place(tokens, d, (t) => (t.gone ? 0.5 : 1));

  const labels = tokensLayer
    .selectAll<SVGTextElement, StageShapes['tokenLabels'][number]>('text.band-label')
    .data(shapes.tokenLabels, (l) => l.key)
    .join((enter) => enter.append('text').attr('class', 't band-label label'));
  setAttr(labels, 'x', (l) => l.x);
  setAttr(labels, 'y', (l) => l.y);
  setText(labels, (l) => l.text);
}

