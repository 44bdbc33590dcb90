// Marks a step's highlights on what the views rendered: the stage's cards, fields and object
// chips, the listing's lines and context markers, the cache-line rows and whole panels. The
// render code (web/src/render) knows nothing of lessons, so this works on its output: it sets
// `data-look` on the elements (lessons.css outlines them) and adds a ▶ text mark beside a
// field, so a highlight never rests on colour alone. Run after every render of the views (they
// rewrite their own attributes, never `data-look`); it first clears what it marked last time.
import type { View } from '../../sim';
import type { Highlight } from './highlight';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MARK = 'look-mark';

/** The label text of a CPU card's field (stage.layout.ts writes these). */
const CPU_LABEL: Record<string, string> = {
  tid: 'tid',
  freelist: 'freelist',
  page: 'slab',
  partial: 'partial',
  array: 'array_cache',
  sheaves: 'sheaves',
};

/** How a node card's field is labelled (SLAB's node card names its lists and counters). */
const NODE_LABEL: Record<string, (s: string, slab: boolean) => boolean> = {
  partial: (s, slab) => s === (slab ? 'slabs_partial' : 'partial'),
  free_objects: (s) => s.startsWith('free_objects '),
};

function look(el: Element | null | undefined, how = 'on'): void {
  el?.setAttribute('data-look', how);
}

/** A ▶ beside an SVG text of a card (in the card's left margin). */
function markText(text: SVGTextElement, x = 0.5): void {
  look(text);
  const card = text.parentNode;
  if (card === null) return;
  // One ▶ a row: a label and its value may both be highlighted.
  const y = text.getAttribute('y') ?? '0';
  for (const other of card.querySelectorAll(`:scope > text.${MARK}`)) if (other.getAttribute('y') === y) return;
  const m = document.createElementNS(SVG_NS, 'text');
  m.setAttribute('class', MARK);
  m.setAttribute('x', String(x));
  m.setAttribute('y', text.getAttribute('y') ?? '0');
  m.setAttribute('aria-hidden', 'true');
  m.textContent = '▶';
  card.appendChild(m);
}

/**
 * An outlined card: the dashed outline (lessons.css) is the mark, a shape as well as a colour.
 * (A "▶ look" above the card did not fit the gap between cards at a readable size.)
 */
function markCard(card: SVGGElement | null, how: 'on' | 'part' = 'on'): void {
  if (card === null) return;
  look(card, how);
}

function cardTexts(card: SVGGElement | null): SVGTextElement[] {
  return card === null ? [] : [...card.querySelectorAll<SVGTextElement>(':scope > text.t')];
}

function findText(card: SVGGElement | null, test: (s: string) => boolean): SVGTextElement | undefined {
  return cardTexts(card).find((t) => test(t.textContent));
}

function css(s: string): string {
  return typeof CSS !== 'undefined' ? CSS.escape(s) : s.replace(/["\\]/g, '\\$&');
}

export function clearHighlights(root: ParentNode): void {
  for (const el of root.querySelectorAll(`.${MARK}`)) el.remove();
  for (const el of root.querySelectorAll('[data-look]')) el.removeAttribute('data-look');
}

/** Mark `highlights` inside `root` (the reader's page), clearing the previous marks. */
export function applyHighlights(root: ParentNode, highlights: readonly Highlight[], view: View): void {
  clearHighlights(root);
  const stage = root.querySelector<SVGSVGElement>('svg[data-testid="stage"]');
  const card = (key: string) => stage?.querySelector<SVGGElement>(`g.card[data-key="${css(key)}"]`) ?? null;
  const chips = (object: string) => [...(stage?.querySelectorAll<SVGGElement>(`g.chip[data-object="${css(object)}"]`) ?? [])];
  const panel = (name: string) => root.querySelector(`[data-panel="${name}"]`);

  for (const h of highlights) {
    switch (h.kind) {
      case 'panel':
        look(panel(h.panel));
        break;
      case 'cpu': {
        const c = card(`cpu:${h.cpu}`);
        if (h.field === null) {
          markCard(c);
          break;
        }
        markCard(c, 'part');
        const label = CPU_LABEL[h.field];
        const t =
          label === undefined
            ? findText(c, (s) => s.startsWith('irqs '))
            : findText(c, (s) => s === label);
        if (t !== undefined) markText(t);
        break;
      }
      case 'slab': {
        const c = card(`slab:${h.slab}`);
        for (const r of stage?.querySelectorAll(`g.ref[data-slab="${css(h.slab)}"]`) ?? []) look(r);
        if (h.field === null) {
          markCard(c);
          break;
        }
        markCard(c, 'part');
        if (h.field === 'freelist') {
          const s = view.slabs.find((x) => x.name === h.slab);
          for (const o of s?.freelist ?? []) for (const chip of chips(o)) look(chip);
        } else {
          const t = findText(c, (s) => s.startsWith('inuse '));
          if (t !== undefined) markText(t);
        }
        break;
      }
      case 'object':
        for (const chip of chips(h.object)) look(chip);
        break;
      case 'node': {
        if (h.field === 'barn') {
          // Linux 7.0: the barn has a card of its own, under its node's.
          markCard(card(`barn:${h.node}`));
          break;
        }
        const c = card(`node:${h.node}`);
        if (h.field === null) {
          markCard(c);
          break;
        }
        markCard(c, 'part');
        const slab = (view.nodes.find((x) => x.node === h.node)?.slab ?? null) !== null;
        const field = h.field;
        const test = NODE_LABEL[field] ?? ((s: string) => s === field);
        const t = findText(c, (s) => test(s, slab));
        if (t !== undefined) markText(t);
        break;
      }
      case 'line':
        for (const t of root.querySelectorAll<SVGTextElement>('svg[data-testid="lines"] g.row text.name')) {
          const s = t.textContent;
          if (s === h.line || (s.endsWith('…') && h.line.startsWith(s.slice(0, -1)))) look(t);
        }
        break;
      case 'code':
        look(root.querySelector(`[data-testid="listing"] li[data-label="${css(h.label)}"]`));
        break;
      case 'ctx': {
        for (const m of root.querySelectorAll('[data-testid="listing"] span.mark')) {
          if (m.textContent.endsWith(` ${h.ctx}`)) look(m);
        }
        const who = new RegExp(`^\\S+ ${h.ctx.replace(/\W/g, '')} `);
        for (const c of stage?.querySelectorAll<SVGGElement>('g.card.cpu') ?? []) {
          const t = findText(c, (s) => who.test(s));
          if (t !== undefined) markText(t);
        }
        break;
      }
      case 'var': {
        for (const chip of stage?.querySelectorAll<SVGGElement>('g.chip') ?? []) {
          if (chip.querySelector('text.sub')?.textContent === h.name) look(chip);
        }
        for (const li of root.querySelectorAll('[data-panel="vars"] li')) {
          if (li.querySelector('code')?.textContent === h.name) look(li);
        }
        break;
      }
      case 'stat':
        for (const tr of root.querySelectorAll('[data-panel="stats"] tr')) {
          if (tr.querySelector('code')?.textContent === h.stat) look(tr);
        }
        break;
    }
  }
}
