// The D3 the views use. `d3` declares itself free of side effects, so importing `select` from it
// lets the bundler drop d3-transition, whose import is what adds `.transition()` and
// `.interrupt()` to selections: import both modules directly, the transition one for its effect.
//
// And the writes the views make on every step, made only where the value changed: setting an
// attribute or a text to the value it already has still invalidates style, layout and paint
// (a text node is even replaced), and a step changes a handful of the stage's elements.
import 'd3-transition';
import type { BaseType, Selection } from 'd3-selection';

export { select, type Selection } from 'd3-selection';

// The parent types of the selections do not matter to these writes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Sel<E extends BaseType, D> = Selection<E, D, any, any>;

type Value<D> = (d: D, i: number) => string | number | null;

/** `selection.attr(name, value)`, writing only the attributes whose value changes. */
export function setAttr<E extends Element, D>(sel: Sel<E, D>, name: string, value: Value<D>): Sel<E, D> {
  return sel.each(function (d, i) {
    const v = value(d, i);
    if (v === null) {
      if (this.hasAttribute(name)) this.removeAttribute(name);
      return;
    }
    const s = String(v);
    if (this.getAttribute(name) !== s) this.setAttribute(name, s);
  });
}

/**
 * `selection.text(value)`, writing only the texts that change, into the element's text node
 * when it has just one: setting `textContent` replaces the node, and the browser then styles
 * and lays out a new one where changing its data only lays the text out again.
 */
export function setText<E extends Element, D>(sel: Sel<E, D>, value: (d: D, i: number) => string): Sel<E, D> {
  return sel.each(function (d, i) {
    const s = value(d, i);
    const only = this.firstChild;
    if (s !== '' && only instanceof Text && only.nextSibling === null) {
      if (only.data !== s) only.data = s;
    } else if (this.textContent !== s) {
      this.textContent = s;
    }
  });
}

/** `selection.style(name, value)`, writing only the properties that change (null removes). */
export function setStyle<E extends HTMLElement | SVGElement, D>(sel: Sel<E, D>, name: string, value: (d: D, i: number) => string | null): Sel<E, D> {
  return sel.each(function (d, i) {
    const s = value(d, i);
    const now = this.style.getPropertyValue(name);
    if (s === null) {
      if (now !== '') this.style.removeProperty(name);
    } else if (now !== s) {
      this.style.setProperty(name, s);
    }
  });
}

/**
 * The elements of `sel` that must change (`differs`), to be tweened by the caller. The others
 * have any running tween stopped: one an earlier step started toward another value (perhaps not
 * yet past its first frame) must not carry them away from where they now belong.
 */
export function tweenOnly<E extends Element, D>(sel: Sel<E, D>, differs: (el: E, d: D) => boolean): Sel<E, D> {
  // Every element's running transition stops here, where it is: one still tweening towards an
  // older step's place would otherwise finish there, over the new step.
  sel.interrupt();
  return sel.filter(function (d) {
    return differs(this, d);
  });
}

/** What each part of a view was last drawn from (`sameAsDrawn`), and when its tweens end. */
const partDrawn = new WeakMap<Element, { readonly signature: string | null; readonly settled: number }>();

/**
 * Whether the part of a view drawn into `el` can be left as it is: it was last drawn from the
 * same shapes (`signature`) and every tween that draw started has ended, so it shows them
 * already. Otherwise it is recorded as drawn now, with tweens of `d` ms, and must be drawn. A
 * step leaves most parts as they were (the cache lines, most steps): their joins and the
 * comparisons of each element would all find nothing to write. A `signature` of null (a part
 * that moves something along, even as the last step did) is always drawn.
 */
export function sameAsDrawn(el: Element, signature: string | null, d: number): boolean {
  const now = performance.now();
  const last = partDrawn.get(el);
  if (signature !== null && last !== undefined && last.signature === signature && now >= last.settled) return true;
  // The longest tween a view starts is 1.5 × d (a card frosting over); a margin for the timer.
  partDrawn.set(el, { signature, settled: d > 0 ? now + 1.5 * d + 50 : now });
  return false;
}

/** The signature each element was last drawn with (`redrawn`). */
const drawnWith = new WeakMap<Element, string>();

/**
 * The elements of `sel` to draw: those whose `signature` (of everything drawn from the datum)
 * differs from the one they were last drawn with. A step changes a handful of a big stage's
 * thousands of elements; comparing a string is cheaper than reading each attribute back. An
 * element left alone keeps any tween it runs: it runs to where the element still belongs.
 */
export function redrawn<E extends Element, D, P extends BaseType, PD>(sel: Selection<E, D, P, PD>, signature: (d: D, el: E) => string): Selection<E, D, P, PD> {
  return sel.filter(function (d) {
    const s = signature(d, this);
    if (drawnWith.get(this) === s) return false;
    drawnWith.set(this, s);
    return true;
  });
}

/**
 * Forget what the elements of `sel` were drawn with: they leave (a fading exit), and one that
 * comes back before it is removed must be drawn again, its exit interrupted.
 */
export function forget<E extends Element, D, P extends BaseType, PD>(sel: Selection<E, D, P, PD>): Selection<E, D, P, PD> {
  return sel.each(function () {
    drawnWith.delete(this);
  });
}

export const translate = (x: number, y: number) => `translate(${x},${y})`;

const TRANSLATE = /^translate\(\s*(-?[\d.e+-]+)[\s,]+(-?[\d.e+-]+)\s*\)$/;

/**
 * At (x, y) and at opacity `o`: what a card, a slab token, a chip or a line token tweens to.
 * Compared as numbers: a tween leaves its own spelling (`translate(12, 40)`) and its own rounding.
 */
function placed(el: Element, p: { x: number; y: number }, o: number): boolean {
  if (el.getAttribute('opacity') !== String(o)) return false;
  const m = TRANSLATE.exec(el.getAttribute('transform') ?? '');
  return m !== null && Math.abs(Number(m[1]) - p.x) < 0.01 && Math.abs(Number(m[2]) - p.y) < 0.01;
}

/**
 * Move the elements that are not where they belong, to opacity `opacity` (1 by default):
 * tweened over `d` ms, or at once.
 */
export function place<E extends SVGGElement, D extends { x: number; y: number }>(
  sel: Sel<E, D>,
  d: number,
  opacity: (p: D) => number = () => 1,
): void {
  const moving = tweenOnly(sel, (el, p) => !placed(el, p, opacity(p)));
  if (d > 0) {
    moving
      .transition()
      .duration(d)
      .attr('transform', (p) => translate(p.x, p.y))
      .attr('opacity', opacity)
      .on('end', function (p) {
        this.setAttribute('transform', translate(p.x, p.y)); // our spelling again
      });
  } else {
    moving.attr('transform', (p) => translate(p.x, p.y)).attr('opacity', opacity);
  }
}
