// A step's own crop of the stage, for a slide's embed on a projector: when
// the narration and the stage at their projector size are taller than the frame, the stage is
// shown through a window as tall as the room under the narration, placed on the step's subject
// (what its highlights mark, `[data-look]`). What the window does not hold whole is not drawn
// (a card half in view would be text cut); the frame never scrolls. The stage's description
// (its aria-label) still tells everything. DOM work, after each draw.

/** The stage's drawn pieces: the strip, and every card, chip, arrow, tie, token and lock. */
const PIECES = ':scope > g.layer-strip, :scope > g.layer-body > g > *';
/** Room kept under the window (the frame's bottom edge). */
const PAD = 6;

/** What a highlighted element shows: a card, an object, a slab, or a field of a card. */
export function subjectKey(el: Element): string {
  const named = el.getAttribute('data-object') ?? el.getAttribute('data-slab');
  if (named !== null) return named;
  if (el.matches('g.card')) return (el.getAttribute('data-key') ?? '').replace(/^slab:/, '');
  const card = el.closest('g.card');
  return `${card?.getAttribute('data-key') ?? ''}/${el.textContent.trim()}`;
}

/** Undo the last crop: every piece drawn, the stage at its own height. */
function uncrop(clip: HTMLElement, svg: SVGSVGElement): void {
  clip.style.height = '';
  svg.style.marginTop = '';
  for (const el of svg.querySelectorAll<SVGElement>('[data-cropped]')) {
    el.style.display = '';
    el.removeAttribute('data-cropped');
  }
}

/**
 * Fit the stage in `root` (an embed's main) into the frame: crop it to the subject when it is
 * taller than the room under what comes before it. Returns the window (in the stage's px,
 * from its top) or null when the whole stage fits.
 */
export function cropToSubject(root: HTMLElement): { top: number; height: number } | null {
  const clip = root.querySelector<HTMLElement>('.embed-stage .stage-clip');
  const svg = clip?.querySelector<SVGSVGElement>('svg[data-testid="stage"]');
  if (clip == null || svg == null) return null;
  uncrop(clip, svg);
  const box = clip.getBoundingClientRect();
  const room = Math.floor(window.innerHeight - box.top - PAD);
  if (box.height <= room + 1 || room <= 0) return null;
  // The subject: what the highlights mark, grouped by what it is (an object's chip may be drawn
  // twice, a slab as a card and as a reference on a list: one of them in view shows it).
  const groups = new Map<string, DOMRect[]>();
  for (const el of svg.querySelectorAll('[data-look]')) {
    const r = el.getBoundingClientRect();
    if (r.height === 0) continue;
    const key = subjectKey(el);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const pieces = [...svg.querySelectorAll<SVGGraphicsElement>(PIECES)].map((el) => ({ el, r: el.getBoundingClientRect() }));
  // The window: the one, starting at the stage's top or at a card's, that shows most of the
  // subject (the highest such: what the step runs on is drawn at the top).
  const starts = [0, ...pieces.filter((p) => p.el.matches('g.card')).map((p) => Math.round(p.r.top - box.top) - 2)]
    .filter((t) => t >= 0 && t <= box.height - room + 1)
    .sort((x, y) => x - y);
  const within = (r: DOMRect, t: number) => r.top - box.top >= t - 1 && r.bottom - box.top <= t + room + 1;
  const cards = pieces.filter((p) => p.el.matches('g.card')).map((p) => p.r);
  // The first highlight (the step's own subject, its author put it first), then most of the
  // rest, then most whole cards (a window with no card says nothing).
  const first = [...groups.values()][0] ?? [];
  const score = (t: number) =>
    (first.some((r) => within(r, t)) ? 1e6 : 0) + [...groups.values()].filter((rs) => rs.some((r) => within(r, t))).length * 1000 + cards.filter((r) => within(r, t)).length;
  let top = 0;
  let best = -1;
  for (const t of starts) {
    const n = score(t);
    if (n > best) {
      best = n;
      top = t;
    }
  }
  const bottom = top + room;
  clip.style.height = `${room}px`;
  svg.style.marginTop = `${-top}px`;
  const hide = (el: SVGElement) => {
    el.style.display = 'none';
    el.setAttribute('data-cropped', '');
  };
  const out = pieces.filter(({ r }) => (r.width > 0 || r.height > 0) && (r.top - box.top < top - 1 || r.bottom - box.top > bottom + 1));
  for (const { el } of out) hide(el);
  // What is drawn on a card left out (a slab's object chips, its arrows) goes with it.
  const gone = out.filter((p) => p.el.matches('g.card')).map((p) => p.r);
  const inside = (r: DOMRect, c: DOMRect) => r.left >= c.left - 1 && r.right <= c.right + 1 && r.top >= c.top - 1 && r.bottom <= c.bottom + 1;
  for (const { el, r } of pieces) if (!el.matches('g.card') && gone.some((c) => inside(r, c))) hide(el);
  return { top, height: room };
}
