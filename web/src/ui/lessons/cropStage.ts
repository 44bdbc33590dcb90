// A step's own crop of the stage, for a slide's embed on a projector: when
// the narration and the stage at their projector size are taller than the frame, the stage is
// shown through a window as tall as the room under the narration, placed on the step's subject
// (what its highlights mark, `[data-look]`). When no single window holds all of the subject (a
// CPU row between the strip and the node a step is about), the window is made of the stage's
// rows that hold it: the rows left out are not drawn and the ones below close up. What the
// window does not hold whole is not drawn (a card half in view would be text cut); the frame
// never scrolls. The stage's description (its aria-label) still tells everything. DOM work,
// after each draw.

/** The stage's drawn pieces: the strip, and every card, chip, arrow, tie, token and lock. */
const PIECES = ':scope > g.layer-strip, :scope > g.layer-body > g > *';
/** Room kept under the window (the frame's bottom edge). */
const PAD = 6;
/** Space between two rows brought together (the stage's own gap between card rows). */
const GAP = 12;
/** Room kept around a row brought into the window (a card's title and outline reach past its box). */
const EDGE = 4;
/** At most 2^12 sets of rows are weighed (a stage on a slide has fewer than ten rows). */
const MAX_ROWS = 12;

/** What a highlighted element shows: a card, an object, a slab, or a field of a card. */
export function subjectKey(el: Element): string {
  const named = el.getAttribute('data-object') ?? el.getAttribute('data-slab');
  if (named !== null) return named;
  if (el.matches('g.card')) return (el.getAttribute('data-key') ?? '').replace(/^slab:/, '');
  const card = el.closest('g.card');
  return `${card?.getAttribute('data-key') ?? ''}/${el.textContent.trim()}`;
}

/**
 * Which of the subject's keys (subjectKey) the step's first highlight names, as its author
 * wrote it: its card and the card's fields, or its object. Null when it names none of them
 * (a variable, a line of code): the first highlight drawn leads then.
 */
export function leadOf(h: { kind: string; cpu?: number; node?: number; slab?: string; object?: string; field?: string | null } | undefined): ((key: string) => boolean) | null {
  const card = (k: string, whole: string) => (key: string) => key === whole || key.startsWith(`${k}/`);
  if (h === undefined) return null;
  if (h.kind === 'cpu' && h.cpu !== undefined) return card(`cpu:${h.cpu}`, `cpu:${h.cpu}`);
  if (h.kind === 'node' && h.node !== undefined) return h.field === 'barn' ? card(`barn:${h.node}`, `barn:${h.node}`) : card(`node:${h.node}`, `node:${h.node}`);
  if (h.kind === 'slab' && h.slab !== undefined) return card(`slab:${h.slab}`, h.slab);
  if (h.kind === 'object' && h.object !== undefined) return (key) => key === h.object;
  return null;
}

/** Undo the last crop: every piece drawn, the stage at its own height. */
function uncrop(clip: HTMLElement, svg: SVGSVGElement): void {
  clip.style.height = '';
  svg.style.marginTop = '';
  for (const el of svg.querySelectorAll<SVGElement>('[data-cropped]')) {
    el.style.display = '';
    el.style.translate = '';
    el.removeAttribute('data-cropped');
  }
}

/** A band of the stage (in its px, from its top): a row of cards, or the strip. */
interface Row {
  top: number;
  bottom: number;
}

/** A drawn piece's box: its top and bottom in the stage's px, its left and right in the page's. */
interface Box extends Row {
  left: number;
  right: number;
}

/** The stage's rows: the strip and the cards, those that share some height merged into one. */
export function rowsOf(rects: readonly { top: number; bottom: number }[]): Row[] {
  const rows: Row[] = [];
  for (const r of [...rects].sort((a, b) => a.top - b.top)) {
    const last = rows[rows.length - 1];
    if (last !== undefined && r.top < last.bottom - EDGE - 1) last.bottom = Math.max(last.bottom, r.bottom + EDGE);
    else rows.push({ top: Math.max(0, r.top - EDGE), bottom: r.bottom + EDGE });
  }
  return rows;
}

/**
 * The runs of rows to draw, each a stretch of rows next to each other on the stage, that hold
 * the most of the subject in `room` px with GAP between runs (`score` weighs a set of runs).
 */
export function bestRows(rows: readonly Row[], room: number, score: (runs: readonly Row[]) => number): { runs: Row[]; score: number } | null {
  if (rows.length > MAX_ROWS) return null;
  let best: { runs: Row[]; score: number } | null = null;
  for (let mask = 1; mask < 1 << rows.length; mask++) {
    const runs: Row[] = [];
    rows.forEach((r, i) => {
      if ((mask & (1 << i)) === 0) return;
      const last = runs[runs.length - 1];
      if (last !== undefined && (mask & (1 << (i - 1))) !== 0) last.bottom = r.bottom;
      else runs.push({ ...r });
    });
    const height = runs.reduce((h, r) => h + r.bottom - r.top, 0) + GAP * (runs.length - 1);
    if (height > room) continue;
    const n = score(runs);
    if (best === null || n > best.score) best = { runs, score: n };
  }
  return best;
}

/**
 * Fit the stage in `root` (an embed's main) into the frame: crop it to the subject when it is
 * taller than the room under what comes before it. Returns the window (in the stage's px,
 * from the top of its first row) and whether it holds all of the subject, or null when the
 * whole stage fits.
 */
export function cropToSubject(root: HTMLElement, lead: ((key: string) => boolean) | null = null): { top: number; height: number; whole: boolean } | null {
  const clip = root.querySelector<HTMLElement>('.embed-stage .stage-clip');
  const svg = clip?.querySelector<SVGSVGElement>('svg[data-testid="stage"]');
  if (clip == null || svg == null) return null;
  uncrop(clip, svg);
  const box = clip.getBoundingClientRect();
  const room = Math.floor(window.innerHeight - box.top - PAD);
  if (box.height <= room + 1 || room <= 0) return null;
  // The subject: what the highlights mark, grouped by what it is (an object's chip may be drawn
  // twice, a slab as a card and as a reference on a list: one of them in view shows it).
  const groups = new Map<string, Box[]>();
  // A highlight counts as shown when the whole card it is on is (a card is drawn whole or not).
  for (const el of svg.querySelectorAll('[data-look]')) {
    const r = (el.closest('g.card') ?? el).getBoundingClientRect();
    if (r.height === 0) continue;
    const key = subjectKey(el);
    groups.set(key, [...(groups.get(key) ?? []), { top: r.top - box.top, bottom: r.bottom - box.top, left: r.left, right: r.right }]);
  }
  const pieces = [...svg.querySelectorAll<SVGGraphicsElement>(PIECES)].map((el) => {
    const r = el.getBoundingClientRect();
    return { el, drawn: r.width > 0 || r.height > 0, top: r.top - box.top, bottom: r.bottom - box.top, left: r.left, right: r.right };
  });
  const cards = pieces.filter((p) => p.el.matches('g.card'));
  // A window shows a set of runs of rows; the first highlight (the step's own subject, its
  // author put it first), then most of the rest, then most whole cards (a window with no card
  // says nothing), then fewest breaks.
  const within = (r: Row, runs: readonly Row[]) => runs.some((w) => r.top >= w.top - 1 && r.bottom <= w.bottom + 1);
  const led = lead === null ? [] : [...groups].filter(([k]) => lead(k)).flatMap(([, rs]) => rs);
  const first = led.length > 0 ? led : ([...groups.values()][0] ?? []);
  const score = (runs: readonly Row[]) =>
    (first.some((r) => within(r, runs)) ? 1e6 : 0) +
    [...groups.values()].filter((rs) => rs.some((r) => within(r, runs))).length * 1000 +
    cards.filter((r) => within(r, runs)).length -
    (runs.length - 1) * 0.5;
  // One window, starting at the stage's top or at a card's (the highest of the best: what the
  // step runs on is drawn at the top).
  const starts = [0, ...cards.map((p) => Math.round(p.top) - 2)].filter((t) => t >= 0 && t <= box.height - room + 1).sort((x, y) => x - y);
  let runs: Row[] = [{ top: 0, bottom: room }];
  let best = -Infinity;
  for (const t of starts) {
    const n = score([{ top: t, bottom: t + room }]);
    if (n > best) {
      best = n;
      runs = [{ top: t, bottom: t + room }];
    }
  }
  // Part of the subject out of it: the rows that hold it, brought together.
  if (![...groups.values()].every((rs) => rs.some((r) => within(r, runs)))) {
    const strip = pieces.filter((p) => p.drawn && p.el.matches('g.layer-strip'));
    const rows = bestRows(rowsOf([...strip, ...cards.filter((p) => p.drawn)]), room, score);
    if (rows !== null && rows.score > best) runs = rows.runs;
  }
  // Each run moves up to follow the one before it.
  const shifts: number[] = [];
  let at = runs[0]?.top ?? 0;
  for (const r of runs) {
    shifts.push(r.top - at);
    at += r.bottom - r.top + GAP;
  }
  const vb = svg.viewBox.baseVal;
  const unit = vb.width > 0 ? svg.getBoundingClientRect().width / vb.width : 1;
  const top = runs[0]?.top ?? 0;
  clip.style.height = `${room}px`;
  svg.style.marginTop = `${-top}px`;
  const mark = (el: SVGElement) => el.setAttribute('data-cropped', '');
  const hide = (el: SVGElement) => {
    el.style.display = 'none';
    mark(el);
  };
  const runOf = (p: Row) => runs.findIndex((w) => p.top >= w.top - 1 && p.bottom <= w.bottom + 1);
  const out = pieces.filter((p) => p.drawn && runOf(p) < 0);
  for (const { el } of out) hide(el);
  // What is drawn on a card left out (a slab's object chips, its arrows) goes with it.
  const gone = out.filter((p) => p.el.matches('g.card'));
  const inside = (r: Box, c: Box) =>
    r.left >= c.left - 1 && r.right <= c.right + 1 && r.top >= c.top - 1 && r.bottom <= c.bottom + 1;
  for (const p of pieces) if (!p.el.matches('g.card') && gone.some((c) => inside(p, c))) hide(p.el);
  for (const p of pieces) {
    const k = runOf(p);
    const shift = shifts[k] ?? 0;
    if (!p.drawn || k < 0 || shift === 0) continue;
    p.el.style.translate = `0 ${-shift / unit}px`;
    mark(p.el);
  }
  // Side by side: a card holding part of the subject left out takes the place of a card in the
  // window that holds none of it and is at least as wide, and as tall or with the room under it
  // free down to the window's foot (a slab in an idle CPU's place; a node drawn a card wide).
  const holds = (c: Box) => [...groups.values()].some((rs) => rs.some((r) => inside(r, c)));
  const guests: Box[] = [];
  /** Each card given up to guests, and how much of its place (from its top) they fill. */
  const hosts = new Map<Box, number>();
  // (Less the 6 px a guest may be taller than its room, below.)
  const foot = top + room - EDGE - 6;
  const shifted = (c: Box) => c.top - (shifts[runOf(c)] ?? 0);
  /** How tall its guests may be in `host`'s place: down to the next card under it in the window, or the foot. */
  const reach = (host: Box) => {
    const under = cards
      .filter((d) => d !== host && d.drawn && runOf(d) >= 0 && d.left < host.right - 1 && d.right > host.left + 1 && shifted(d) >= shifted(host) + host.bottom - host.top - 1)
      .map((d) => shifted(d) - GAP);
    return Math.max(host.bottom - host.top, Math.min(foot, ...under) - shifted(host));
  };
  for (const rs of groups.values()) {
    if (rs.some((r) => within(r, runs) || guests.some((g) => inside(r, g)))) continue;
    const guest = cards.find((c) => c.drawn && runOf(c) < 0 && rs.some((r) => inside(r, c)));
    if (guest === undefined) continue;
    // A place already given up fills down its column (a node, then its barn, in an idle CPU's place).
    const host = cards.find(
      (c) =>
        c.drawn &&
        runOf(c) >= 0 &&
        (hosts.has(c) || !holds(c)) &&
        c.right - c.left >= guest.right - guest.left - 6 &&
        reach(c) - (hosts.get(c) ?? 0) >= guest.bottom - guest.top - 6,
    );
    if (host === undefined) continue;
    const used = hosts.get(host) ?? 0;
    hosts.set(host, used + guest.bottom - guest.top + GAP);
    guests.push(guest);
    if (used === 0) for (const p of pieces) if (p === host || inside(p, host)) hide(p.el);
    const dx = (host.left - guest.left) / unit;
    const dy = (shifted(host) + used - guest.top) / unit;
    for (const p of pieces) {
      if (!p.drawn || (p !== guest && !inside(p, guest))) continue;
      p.el.style.display = '';
      p.el.style.translate = `${dx}px ${dy}px`;
      mark(p.el);
    }
  }
  const whole = [...groups.values()].every((rs) => rs.some((r) => within(r, runs) || guests.some((g) => inside(r, g))));
  return { top, height: room, whole };
}
