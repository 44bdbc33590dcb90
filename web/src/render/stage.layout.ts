// The stage's layout: a pure function of the view (and the step's event) to arrays of shapes
// with stable keys, which the D3 renderer joins (stage.view.ts). No DOM, no React, no store:
// unit-tested in layout.test.ts. The shapes and the keys are stage.shapes.ts's; each
// allocator's cards are laid out by its own file (stage.slub.ts, stage.slab.ts,
// stage.sheaves.ts); this file places them, with the slab cards and node partial lists every
// allocator has, the step strip and the cache-line tokens.
import type { ContextView, CpuView, NodeView, SimEvent, SlabView, View } from '../sim/types';
import { arcPath, CHAR_W, r1, type Point } from './geometry';
import { layoutSheafCpu, layoutBarn, SHEAF_COL, SHEAF_LINE_Y, sheafCpuHeight } from './stage.sheaves';
import {
  CARD_CHARS,
  CARD_W,
  CHIP_H,
  CHIP_STEP,
  CHIP_W,
  clip,
  cpuOfOwner,
  GAP,
  keyer,
  LABEL_X,
  listLockTexts,
  NODE_RIGHT_W,
  objectState,
  ownerText,
  REF_STEP,
  ROW,
  slabRef,
  STRIP_LINE,
  text,
  VALUE_X,
  wrap,
  type ArrowShape,
  type CardShape,
  type ChipShape,
  type GridPos,
  type HalfShape,
  type Keyer,
  type LockShape,
  type RefShape,
  type StageHide,
  type StageOptions,
  type StageShapes,
  type StripShape,
  type TextShape,
} from './stage.shapes';
import { freeIndexText, layoutSlabCpu, layoutSlabNode, slabCpuHeight, slabObjectState } from './stage.slab';
import { layoutSlubCpu, slubCpuHeight, type SlubStage } from './stage.slub';
import { layoutTokens, TOKEN_BAND_H, TOKEN_ROWS } from './tokens.layout';

export function layoutStage(
  view: View,
  event: SimEvent | undefined,
  options: StageOptions,
): StageShapes {
  // Never more columns than CPUs, but two for one CPU: its slabs go beside it.
  const columns = Math.max(1, Math.min(options.columns, Math.max(view.cpus.length, 2)));
  const width = columns * CARD_W + (columns + 1) * GAP;
  const sel = options.selection;
  const showTid = options.hide?.tid !== true;
  const bandH = options.hide?.lines === true ? 0 : TOKEN_BAND_H;
  const uniqueKeys = keyer();
  const cards: CardShape[] = [];
  const chips: ChipShape[] = [];
  const refs: RefShape[] = [];
  const arrows: ArrowShape[] = [];
  const locks: LockShape[] = [];
  const slabByName = new Map(view.slabs.map((s) => [s.name, s]));
  // (The first slab holding a name wins, as a search in slab order would find it.)
  const objectByName = new Map(view.slabs.flatMap((s) => s.objects.map((o) => [o.name, o] as const)).reverse());
  // The variables holding each object: two means it was handed out twice, drawn as such.
  const holders = new Map<string, string[]>();
  for (const v of view.vars) if (v.held && v.object !== null) holders.set(v.object, [...(holders.get(v.object) ?? []), v.name]);
  // Room for a whole slab's objects on each CPU freelist, from the start (the cache's
  // objectsPerSlab), so the cards do not grow when the first slab arrives.
  const capacity = Math.max(1, view.cache.objectsPerSlab, ...view.slabs.map((s) => s.capacity));
  const colX = (i: number) => GAP + (i % columns) * (CARD_W + GAP);

  const strip = layoutStrip(view, event, width, options.hide);
  const bodyY = strip.h + GAP;
  let y = 0;

  // Slabs first (their grid positions are where freelist chips come from), placed after the
  // CPU cards, whose height we need: lay the CPUs out in two passes.
  const ctxByCpu = (cpu: number) => view.contexts.filter((c) => c.cpu === cpu);
  // Where each object's chip sits in its slab's grid (filled with the slab cards, below).
  const gridPos = new Map<string, GridPos>();
  const slubStage: SlubStage = { view, capacity, showTid, bandH, contexts: ctxByCpu, objectByName, slabByName, gridPos, sel, uniqueKeys };
  const slab = view.allocator === 'slab';
  const sheaves = view.allocator === 'sheaves';
  const cpuHeight = (c: CpuView) => {
    if (slab) return slabCpuHeight(c, ctxByCpu(c.cpu).length, view) + bandH;
    if (sheaves) return sheafCpuHeight(view, c) + bandH;
    return slubCpuHeight(slubStage, c);
  };
  const cpuRows: CpuView[][] = [];
  view.cpus.forEach((c, i) => {
    const row = Math.floor(i / columns);
    (cpuRows[row] ??= []).push(c);
  });
  const cpuTop: number[] = [];
  const cpuRowH: number[] = [];
  for (const row of cpuRows) {
    cpuTop.push(y);
    const h = Math.max(...row.map(cpuHeight));
    cpuRowH.push(h);
    y += h + GAP;
  }

  // Slab cards and their grids.
  const gridPerRow = Math.floor((CARD_W - 2 * LABEL_X + 14) / CHIP_STEP);
  const slabH = (s: SlabView) => 62 + Math.max(1, Math.ceil(s.objects.length / gridPerRow)) * 50;
  // Slabs fill the columns like a masonry wall: each goes to the column whose bottom is highest,
  // so with one CPU on two columns the slab sits beside it, in view, not below the fold.
  const colBottom = Array.from({ length: columns }, (_, i) => {
    const lastRow = cpuRows.length - 1;
    const inLastRow = (cpuRows[lastRow]?.length ?? 0) > i;
    if (lastRow < 0) return y;
    return inLastRow ? y : (cpuTop[lastRow] ?? y);
  });
  view.slabs.forEach((s) => {
    let col = 0;
    colBottom.forEach((b, i) => {
      if (b < (colBottom[col] ?? 0)) col = i;
    });
    const x = GAP + col * (CARD_W + GAP);
    const top = colBottom[col] ?? y;
    const slabRowH = slabH(s);
    colBottom[col] = top + slabRowH + GAP;
    const owner = ownerText(s.owner);
    const texts: TextShape[] = [
      text(LABEL_X, 16, `slab ${s.name}`, 'title'),
      text(CARD_W - LABEL_X, 16, owner, 'muted', 'end'),
      slab
        ? text(LABEL_X, 34, clip(`active ${s.inuse}/${s.capacity} · ${freeIndexText(s)}`, CARD_CHARS), 'value')
        : text(
            LABEL_X,
            34,
            `inuse ${s.inuse}/${s.capacity}${s.frozen ? ' · ❄ frozen' : ' · not frozen'}${s.slabLocked ? ' · slab_lock held' : ''}`,
            'value',
          ),
    ];
    // SLAB: the order the index array hands the free objects out in, over their chips.
    const order = slab ? new Map(s.freelist.map((name, k) => [name, k + 1] as const)) : undefined;
    cards.push({
      key: `slab:${s.name}`,
      kind: 'slab',
      x,
      y: top,
      w: CARD_W,
      h: slabRowH,
      cpu: cpuOfOwner(s.owner),
      faded: s.owner.kind === 'discarded',
      frozen: !slab && s.frozen,
      selected: sel === s.name,
      texts,
      marks: [],
    });
    s.objects.forEach((o, j) => {
      const cx = x + LABEL_X + CHIP_W / 2 + (j % gridPerRow) * CHIP_STEP;
      const cy = top + 70 + Math.floor(j / gridPerRow) * 50;
      gridPos.set(o.name, { x: cx, y: cy });
      const nth = order?.get(o.name);
      if (nth !== undefined && s.owner.kind !== 'discarded') texts.push(text(cx - x, cy - top - CHIP_H / 2 - 4, `${nth}`, 'muted', 'middle'));
      const twice = holders.get(o.name) ?? [];
      const st =
        twice.length > 1
          ? { state: 'double' as const, cpu: null, label: twice.map((v) => `⚠${v}`).join('\n') }
          : slab
            ? slabObjectState(o.owner)
            : objectState(o.owner);
      chips.push({
        key: `obj:${o.name}`,
        object: o.name,
        x: cx,
        y: cy,
        state: st.state,
        cpu: st.cpu,
        label: st.label,
        from: null,
        selected: sel === o.name,
      });
    });
  });
  // Free-pointer arrows, once every grid position is known (a pointer may cross slabs).
  for (const s of view.slabs) {
    for (const o of s.objects) {
      const from = gridPos.get(o.name);
      const to = gridPos.get(o.fp);
      if (from === undefined || to === undefined) continue;
      const free = o.owner.kind === 'slab' || o.owner.kind === 'cpu';
      arrows.push({ key: `fp:${o.name}`, d: arcPath(from, to, CHIP_H), kind: free ? 'fp' : 'stale' });
    }
  }
  const slabsBottom = Math.max(y, ...colBottom);

  // CPU cards.
  view.cpus.forEach((c, i) => {
    const row = Math.floor(i / columns);
    const x = colX(i);
    const top = cpuTop[row] ?? 0;
    const h = cpuRowH[row] ?? 0;
    if (slab) {
      layoutSlabCpu(c, view, { x, y: top, h }, { cards, chips, arrows }, gridPos, sel, uniqueKeys);
      return;
    }
    if (sheaves) {
      layoutSheafCpu(c, view, { x, y: top, h }, { cards, chips }, gridPos, sel, uniqueKeys);
      return;
    }
    layoutSlubCpu(slubStage, c, { x, top, h }, { cards, chips, refs, arrows });
  });

  // Nodes: the partial list and list_lock, full width under the slabs (or a card's width).
  y = slabsBottom;
  const nodeW = options.narrowNodes === true ? CARD_W : width - 2 * GAP;
  for (const n of view.nodes) {
    const out = { cards, chips, refs, arrows, locks };
    const h =
      n.slab === null
        ? layoutNode(n, y, nodeW, out, slabByName, view.contexts, sel, uniqueKeys)
        : layoutSlabNode(n, n.slab, y, nodeW, out, slabByName, view, gridPos, sel, uniqueKeys);
    y += h + GAP;
    if (n.barn !== undefined) y += layoutBarn(n.node, n.barn, y, nodeW, { cards, locks }, view.contexts) + GAP;
  }

  // The cache lines, last: a moved line's token is tied to what it holds, wherever that is.
  const cardAt = new Map(cards.map((c) => [c.key, c]));
  const bands = bandH === 0 ? [] : view.cpus.map((c) => {
    const card = cardAt.get(`cpu:${c.cpu}`);
    const x = (card?.x ?? 0) + LABEL_X;
    return { cpu: c.cpu, x, y: (card?.y ?? 0) + (card?.h ?? 0) - bandH, w: CARD_W - 2 * LABEL_X, rows: TOKEN_ROWS };
  });
  const holder = (key: string, dx: number, dy: number): Point | null => {
    const card = cardAt.get(key);
    return card === undefined ? null : { x: card.x + dx, y: card.y + dy };
  };
  const { tokens, ties, labels } = layoutTokens(view.lines, event, bands, (l) => {
    const h = l.holds;
    switch (h.kind) {
      case 'cache':
        return null;
      case 'cpu':
        return holder(`cpu:${h.cpu}`, CARD_W / 2, 10);
      case 'node':
        return holder(`node:${h.node}`, 40, 12);
      case 'slab':
        return holder(`slab:${h.slab}`, 30, 12);
      case 'objects': {
        const p = gridPos.get(h.objects[0] ?? '');
        return p === undefined ? null : { x: p.x, y: p.y - CHIP_H / 2 };
      }
      case 'barn':
        return holder(`barn:${h.node}`, 40, 12);
      case 'sheaf': {
        // A CPU's main or spare: over its stack; a barn's: its barn; in flight: nowhere.
        const cpu = view.cpus.find((c) => c.sheaves?.main.name === h.sheaf || c.sheaves?.spare?.name === h.sheaf);
        if (cpu !== undefined) return holder(`cpu:${cpu.cpu}`, cpu.sheaves?.main.name === h.sheaf ? SHEAF_COL / 2 : (3 * SHEAF_COL) / 2, SHEAF_LINE_Y);
        const node = view.nodes.find((n) => n.barn?.full.some((f) => f.name === h.sheaf) === true || n.barn?.empty.some((e) => e.name === h.sheaf) === true);
        return node === undefined ? null : holder(`barn:${node.node}`, 40, 12);
      }
    }
  });

  // A CPU card's line ends `· 1558 cycles`: held back until the lesson explains costs.
  const shownCards =
    options.hide?.cycles === true
      ? cards.map((card) => ({ ...card, texts: card.texts.map((t) => ({ ...t, text: t.text.replace(/ · \d+ cycles$/, '') })) }))
      : cards;
  return { width, height: bodyY + y, strip, bodyY, cards: shownCards, chips, refs, arrows, locks, tokens, ties, tokenLabels: labels };
}

function layoutNode(
  n: NodeView,
  y: number,
  w: number,
  out: { cards: CardShape[]; refs: RefShape[]; arrows: ArrowShape[]; locks: LockShape[] },
  slabs: ReadonlyMap<string, SlabView>,
  contexts: readonly ContextView[],
  sel: string | null,
  uniqueKeys: Keyer,
): number {
  const { cards, refs, arrows, locks } = out;
  // The list_lock block sits at the right of a wide card, under the partial list in a narrow one.
  const wide = w >= VALUE_X + 4 * REF_STEP + NODE_RIGHT_W;
  const perRow = Math.max(1, Math.floor((w - VALUE_X - (wide ? NODE_RIGHT_W : LABEL_X)) / REF_STEP));
  const rows = Math.max(1, Math.ceil(n.partial.length / perRow));
  const listH = 22 + rows * ROW + 6;
  const lockX = wide ? w - 220 : LABEL_X;
  const lockY = wide ? 0 : listH;
  const h = wide ? Math.max(listH, 60) : listH + 58;
  const holder = contexts.find((c) => c.id === n.listLock);
  const texts: TextShape[] = [
    text(LABEL_X, 16, `node ${n.node}`, 'title'),
    text(LABEL_X + 64, 16, `nr_partial ${n.nrPartial}`, 'muted'),
    text(LABEL_X, 38, 'partial', 'label'),
    ...listLockTexts(lockX + 22, lockY, holder, n.waiters),
  ];
  if (n.partial.length === 0) texts.push(text(VALUE_X, 38, 'empty', 'muted'));
  const keys = uniqueKeys('ref', n.partial);
  n.partial.forEach((name, j) => {
    const rx = GAP + VALUE_X + (j % perRow) * REF_STEP;
    const ry = y + 24 + Math.floor(j / perRow) * ROW;
    refs.push(slabRef(slabs, keys[j] ?? `ref:${name}`, name, rx, ry, sel));
    if (j % perRow !== 0) {
      arrows.push({ key: `link:${keys[j] ?? name}`, d: `M${r1(rx - 11)},${r1(ry + 10)} L${r1(rx - 2)},${r1(ry + 10)}`, kind: 'link' });
    }
  });
  locks.push({ key: `lock:${n.node}`, x: GAP + lockX + 8, y: y + lockY + 26, held: holder !== undefined, holderCpu: holder?.cpu ?? null });
  cards.push({ key: `node:${n.node}`, kind: 'node', x: GAP, y, w, h, cpu: null, faded: false, selected: false, texts, marks: [] });
  return h;
}

/** The strip: the last step in one line; a failed cmpxchg's halves, expected against actual. */
export function layoutStrip(view: View, event: SimEvent | undefined, width: number, hide: StageHide = {}): StripShape {
  const chars = Math.floor((width - 2 * GAP - 16) / CHAR_W);
  const texts: TextShape[] = [];
  let y = 20;
  const lines = (t: string, cls: string) => {
    for (const l of wrap(t, chars, '  ')) {
      texts.push(text(GAP + 8, y, l, cls));
      y += STRIP_LINE;
    }
  };
  // A violated invariant is the step's headline, on the stage (and so in the embed and exports).
  const violation = view.violations.at(-1);
  const violated = () => {
    if (violation !== undefined) lines(`⚠ ${violation.invariant} violated (atomic step ${violation.step}): ${violation.message}`, 'value warn strong');
  };
  if (event === undefined) {
    lines(`${view.scenarioName}: nothing has happened yet`, 'muted');
    violated();
    return { texts, cpu: null, failed: violation !== undefined, halves: [], h: y - 2 };
  }
  const who = event.ctx === '(setup)' ? 'setup' : event.ctx;
  // No break inside a verdict (a no-break space): "✕" alone at a line's end says nothing.
  const verdict = event.ok === null ? '' : event.ok ? ' · ✓\u00a0succeeds' : ' · ✕\u00a0FAILS';
  const primitive = hide.primitives === true ? '' : ` · ${event.kind} ${event.target}`;
  const cost = hide.cycles === true ? '' : ` · ${event.cycles} cycles`;
  lines(
    `atomic step ${event.step} · ${who} on CPU ${event.cpu} · ${event.label}${primitive}${verdict}${cost}`,
    event.ok === false ? 'value warn strong' : 'value',
  );
  const halves: HalfShape[] = [];
  const shownHalves = event.halves.filter((h) => !(hide.tid === true && h.field === 'tid'));
  if (shownHalves.length > 0) {
    texts.push(text(GAP + 8, y + 4, 'expected / actual', 'label'));
    // Beside the label when they fit, else one under another, each as wide as its words.
    const labelW = 19 * CHAR_W;
    const words = shownHalves.map((h) => halfText(h.field, h.expected, h.actual).length * CHAR_W + 16);
    const side = labelW + words.reduce((a, b) => a + b + 8, 0) <= width - 2 * GAP - 16;
    let x = GAP + 8 + (side ? labelW : 0);
    let hy = side ? y - 10 : y + 12;
    shownHalves.forEach((h, i) => {
      const w = words[i] ?? 0;
      halves.push({ key: `half:${h.field}`, x, y: hy, w, h: 24, field: h.field, expected: h.expected, actual: h.actual, match: h.expected === h.actual });
      if (side) x += w + 8;
      else hy += 28;
    });
    y = hy + (side ? 24 : 0) + 14;
  } else {
    const rw = hide.primitives === true
      ? ''
      : [event.read === null ? '' : `read ${event.read}`, event.wrote === null ? '' : `wrote ${event.wrote}`]
          .filter((s) => s !== '')
          .join(' · ');
    const coh = hide.lines === true ? '' : event.coherence.map((t) => `line ${t.line} CPU ${t.cpu} ${t.from}→${t.to}`).join(', ');
    const second = [rw, coh].filter((s) => s !== '').join(' · ');
    if (second !== '') lines(second, 'muted');
  }
  violated();
  return { texts, cpu: event.cpu, failed: event.ok === false || violation !== undefined, halves, h: Math.max(y - 2, 40) };
}

/** A compare-and-swap half's words: `freelist: p1 / p3 ✕ differs`. */
export function halfText(field: string, expected: string, actual: string): string {
  return `${field}: ${expected} / ${actual} ${expected === actual ? '✓' : '✕ differs'}`;
}
