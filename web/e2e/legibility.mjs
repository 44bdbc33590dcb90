// The legibility check: on a page as drawn, no two pieces of text overlap and
// no text is cut. Run inside the page by `legibilityProblems`; each problem names the text.
//
// What counts:
// - A piece of text is a non-blank text node (HTML) or an SVG <text>, drawn (visible, not
//   transparent, not clipped away by a scroll container's viewport: text scrolled out of view
//   is not cut, it is scrolled; nor under a bar fixed to the screen, which it scrolls under).
// - Overlap: two pieces' boxes (a wrapped HTML text has one box per line) intersecting by more
//   than OVERLAP_PX both ways, unless one contains the other's element (a <tspan> in its <text>).
// - Cut: an HTML element with hidden overflow whose text is wider or taller than its box, text
//   with `text-overflow: ellipsis` that overflows, SVG text outside its <svg> or outside the card
//   or strip it is drawn in.

import { expect } from '@playwright/test';

/** Intersections smaller than this, both ways, are antialiasing, not overlap. */
const OVERLAP_PX = 2;

/** The least text size a page may draw (side panels were 8.4–10 px). */
export const MIN_TEXT_PX = 12;

/**
 * @param {import('playwright-core').Page | import('playwright-core').Frame} page
 * @param {string} root a CSS selector
 * @param {{ minPx?: number }} [opts] minPx: text drawn smaller (px on the page, an SVG's scale
 *   applied) is a problem too
 */
export async function legibilityProblems(page, root = 'body', opts = {}) {
  return page.evaluate(
    ({ root, OVERLAP_PX, minPx }) => {
      const problems = [];
      const rootEl = document.querySelector(root);
      if (rootEl === null) return [`no element ${root}`];
      const name = (s) => JSON.stringify(s.replace(/\s+/g, ' ').trim().slice(0, 60));
      // The page does not change while this runs: each element's computed style, whether it is
      // drawn and the box its clipping ancestors leave are worked out once (a text's ancestors
      // are shared with its neighbours': walking them for each text was most of this check).
      /** @type {Map<Element, CSSStyleDeclaration>} */
      const styles = new Map();
      const style = (e) => {
        let cs = styles.get(e);
        if (cs === undefined) styles.set(e, (cs = getComputedStyle(e)));
        return cs;
      };
      /** Whether `e` itself hides what it holds (its ancestors aside). */
      const hidesItself = (e) => {
        // The content of a closed <details> is not drawn (its rects are not all empty).
        const up = e.parentElement;
        if (up instanceof HTMLDetailsElement && !up.open && e.tagName !== 'SUMMARY') return true;
        const cs = style(e);
        if (cs.display === 'none' || cs.visibility === 'hidden' || Number(cs.opacity) < 0.05) return true;
        // Visually hidden for a screen reader (a 1×1 box that clips: the sr-only pattern, as a
        // phone's step buttons keep their words).
        if (cs.position === 'absolute' && (cs.overflow === 'hidden' || cs.clipPath !== 'none')) {
          const r = e.getBoundingClientRect();
          if (r.width <= 1 && r.height <= 1) return true;
        }
        return e.getAttribute('aria-hidden') === 'true' && e.classList.contains('sr-only');
      };
      /** @type {Map<Element, boolean>} */
      const shownMemo = new Map();
      /** Drawn: neither it nor an ancestor hides it. */
      const shown = (el) => {
        if (el === null || !(el instanceof Element)) return true;
        let v = shownMemo.get(el);
        if (v === undefined) shownMemo.set(el, (v = !hidesItself(el) && shown(el.parentElement)));
        return v;
      };
      const ALL = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
      /** @type {Map<Element, {left:number,top:number,right:number,bottom:number}>} */
      const clipMemo = new Map();
      /** The box every scrolling or clipping ancestor of `el` leaves (paint containment clips both ways). */
      const clipAbove = (el) => {
        const e = el.parentElement;
        if (e === null) return ALL;
        let c = clipMemo.get(el);
        if (c !== undefined) return c;
        c = { ...clipAbove(e) };
        const cs = style(e);
        const paint = /paint|strict|content/.test(cs.contain);
        if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible' || paint) {
          const b = e.getBoundingClientRect();
          if (cs.overflowX !== 'visible' || paint) (c.left = Math.max(c.left, b.left)), (c.right = Math.min(c.right, b.right));
          if (cs.overflowY !== 'visible' || paint) (c.top = Math.max(c.top, b.top)), (c.bottom = Math.min(c.bottom, b.bottom));
        }
        clipMemo.set(el, c);
        return c;
      };
      // The visible part of a box after every scrolling or clipping ancestor (null: none).
      const visiblePart = (el, r) => {
        const c = clipAbove(el);
        const left = Math.max(r.left, c.left);
        const right = Math.min(r.right, c.right);
        const top = Math.max(r.top, c.top);
        const bottom = Math.min(r.bottom, c.bottom);
        return right - left > 1 && bottom - top > 1 ? { left, top, right, bottom } : null;
      };
      // A bar fixed to the screen (the playground's controls on a phone) covers what scrolls
      // under it: text under it is hidden the way scrolled-away text is, not overlapped.
      const fixed = [...rootEl.querySelectorAll('*')].filter((e) => style(e).position === 'fixed').map((e) => ({ e, r: e.getBoundingClientRect() }));
      const covered = (el, r) => fixed.some((f) => !f.e.contains(el) && r.left < f.r.right && r.right > f.r.left && r.top < f.r.bottom && r.bottom > f.r.top);
      /** @type {{ el: Element, text: string, rects: {left:number,top:number,right:number,bottom:number}[] }[]} */
      const pieces = [];
      const walker = document.createTreeWalker(rootEl, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
        const text = n.textContent ?? '';
        const el = n.parentElement;
        if (el === null || text.trim() === '') continue;
        if (el.closest('svg') !== null) continue; // SVG text below, by element
        if (el.closest('.sr-only, script, style, noscript, option') !== null) continue;
        if (!shown(el)) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        const rects = [...range.getClientRects()]
          .filter((r) => r.width > 1 && r.height > 1)
          .map((r) => visiblePart(el, r))
          .filter((r) => r !== null && !covered(el, r));
        if (rects.length > 0) pieces.push({ el, text, rects });
      }
      for (const t of rootEl.querySelectorAll('svg text')) {
        if (!shown(t) || (t.textContent ?? '').trim() === '') continue;
        if (t.parentElement?.closest('text') != null) continue; // a tspan's text is its text's
        const r = visiblePart(t, t.getBoundingClientRect());
        if (r !== null && !covered(t, r)) pieces.push({ el: t, text: t.textContent ?? '', rects: [r] });
      }
      // Too small to read: the font size as drawn (an SVG's own scale applied).
      if (minPx !== undefined) {
        const small = new Set();
        for (const p of pieces) {
          const svg = p.el instanceof SVGElement ? p.el.ownerSVGElement : null;
          const vb = svg?.viewBox.baseVal;
          const k = svg && vb && vb.width > 0 ? svg.getBoundingClientRect().width / vb.width : 1;
          const px = parseFloat(style(p.el).fontSize) * k;
          if (px < minPx - 0.05 && !small.has(p.el)) {
            small.add(p.el);
            problems.push(`small: ${name(p.text)} (${px.toFixed(1)} px, under ${minPx})`);
          }
        }
      }
      // Overlap, pairwise (boxes sorted by top, so the inner loop stops early).
      const boxes = pieces.flatMap((p, i) => p.rects.map((r) => ({ ...r, i })));
      boxes.sort((a, b) => a.top - b.top);
      const seen = new Set();
      for (let a = 0; a < boxes.length; a++) {
        const A = boxes[a];
        for (let b = a + 1; b < boxes.length; b++) {
          const B = boxes[b];
          if (B.top >= A.bottom - OVERLAP_PX) break;
          if (A.i === B.i) continue;
          const w = Math.min(A.right, B.right) - Math.max(A.left, B.left);
          const h = Math.min(A.bottom, B.bottom) - Math.max(A.top, B.top);
          if (w <= OVERLAP_PX || h <= OVERLAP_PX) continue;
          const pa = pieces[A.i];
          const pb = pieces[B.i];
          if (pa.el.contains(pb.el) || pb.el.contains(pa.el)) continue;
          const key = `${Math.min(A.i, B.i)}/${Math.max(A.i, B.i)}`;
          if (seen.has(key)) continue;
          seen.add(key);
          problems.push(`overlap: ${name(pa.text)} and ${name(pb.text)}`);
        }
      }
      /** An element's box, cut by every ancestor that contains its painting. */
      const paintedPart = (el) => {
        let { left, top, right, bottom } = el.getBoundingClientRect();
        for (let e = el.parentElement; e !== null; e = e.parentElement) {
          if (!/paint|strict|content/.test(style(e).contain)) continue;
          const b = e.getBoundingClientRect();
          (left = Math.max(left, b.left)), (right = Math.min(right, b.right)), (top = Math.max(top, b.top)), (bottom = Math.min(bottom, b.bottom));
        }
        return { left, top, right, bottom };
      };
      // Cut HTML text: an element that hides what overflows, and overflows.
      for (const el of rootEl.querySelectorAll('*')) {
        if (el.closest('svg') !== null || !(el instanceof HTMLElement)) continue;
        const cs = style(el);
        const hides = (o) => o === 'hidden' || o === 'clip';
        const ellipsis = cs.textOverflow === 'ellipsis';
        if (!hides(cs.overflowX) && !hides(cs.overflowY) && !ellipsis) continue;
        if (!shown(el) || (el.textContent ?? '').trim() === '') continue;
        if (el.classList.contains('sr-only')) continue;
        const wide = el.scrollWidth > el.clientWidth + 1 && (hides(cs.overflowX) || ellipsis);
        const tall = el.scrollHeight > el.clientHeight + 1 && hides(cs.overflowY);
        if (wide || tall) problems.push(`cut: ${name(el.textContent ?? '')} (${wide ? 'too wide' : 'too tall'} for its ${el.clientWidth}×${el.clientHeight} box)`);
      }
      // Cut SVG text: outside its drawing, or outside the card (or strip) it belongs to.
      for (const t of rootEl.querySelectorAll('svg text')) {
        if (!shown(t) || (t.textContent ?? '').trim() === '') continue;
        // The stage never abbreviates: a text ending in … was cut to fit.
        if ((t.textContent ?? '').trimEnd().endsWith('…')) problems.push(`cut: ${name(t.textContent ?? '')} (ends in …)`);
        const r = t.getBoundingClientRect();
        const svg = t.ownerSVGElement;
        const boxes = [svg, t.closest('g.card, g.strip')?.querySelector(':scope > rect.bg')].filter((e) => e != null);
        for (const box of boxes) {
          // The drawing as far as it is drawn: the stage's SVG is cut to its box (paint
          // containment) below the stage. (A scroller's viewport is no cut: text scrolled away is not.)
          const b = box === svg ? paintedPart(svg) : box.getBoundingClientRect();
          if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
            problems.push(`cut: ${name(t.textContent ?? '')} (outside its ${box === svg ? 'drawing' : 'card'})`);
            break;
          }
        }
      }
      return problems;
    },
    { root, OVERLAP_PX, minPx: opts.minPx },
  );
}

/** The smallest font size (px, as rendered: an SVG's scale applied) of the text in `root`. */
export async function smallestText(page, root = 'body') {
  return page.evaluate((root) => {
    let least = Infinity;
    let which = '';
    for (const t of document.querySelectorAll(`${root} text, ${root} svg text`)) {
      if ((t.textContent ?? '').trim() === '') continue;
      const svg = t.ownerSVGElement;
      const vb = svg?.viewBox.baseVal;
      const scale = vb && vb.width > 0 ? svg.getBoundingClientRect().width / vb.width : 1;
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < least) (least = px), (which = t.textContent ?? '');
    }
    return { px: least, text: which.trim().slice(0, 40) };
  }, root);
}

/** The three sizes every page is read at (DEVELOPERS.md: laptop, slide, phone). */
export const SIZES = [
  { name: 'laptop', width: 1440, height: 900 },
  { name: 'slide', width: 1280, height: 720 },
  { name: 'phone', width: 390, height: 844 },
];

/** Two animation frames: what a resize or a new step laid out is drawn. */
async function settled(/** @type {import('playwright-core').Page} */ page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))));
}

/**
 * Every lesson step, the glossary and the invariants pages, the front door, the lessons list,
 * the comparison page, and every built-in scenario (at its last move; its side panels, the
 * cache lines and the statistics, with it), at the three sizes: the list of problems (text cut,
 * overlapping, or under MIN_TEXT_PX), each prefixed with the size and the page. Navigates by
 * hash, as a link does.
 */
export async function legibilitySurvey(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ url, sizes = SIZES) {
  await page.goto(`${url}#/lessons`);
  await page.locator('li.lesson-card').first().waitFor();
  const lessons = await page
    .locator('li.lesson-card')
    .evaluateAll((els) => els.map((el) => ({ id: el.getAttribute('data-lesson') ?? '', steps: Number(el.getAttribute('data-steps')) })));
  await page.goto(`${url}#/play`);
  const select = page.getByLabel('Built-in scenario');
  await select.waitFor();
  const scenarios = await select.locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('value') ?? '').filter((v) => v !== ''));
  /** @type {string[]} */
  const problems = [];
  let pages = 0;
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    // No text under 12 px at a laptop's and a phone's size. A 1280×720 page is a
    // projector's: the deck survey holds embeds to their own, larger, size.
    const least = size.name === 'slide' ? {} : { minPx: MIN_TEXT_PX };
    for (const { id, steps } of lessons) {
      for (let n = 1; n <= steps; n++) {
        await page.evaluate((h) => (window.location.hash = h), `#/lessons/${id}/${n}`);
        const main = page.locator(`main.lesson-reader[data-lesson="${id}"][data-step="${n}"]`);
        await main.getByTestId('stage').locator('g.card').first().waitFor();
        await settled(page);
        for (const p of await legibilityProblems(page, 'main', least)) problems.push(`${size.name} lesson ${id} step ${n}: ${p}`);
        pages++;
      }
    }
    // The course's reference pages.
    for (const [hash, testId] of [
      ['#/lessons/glossary', 'glossary'],
      ['#/lessons/invariants', 'invariants'],
    ]) {
      await page.evaluate((h) => (window.location.hash = h), hash);
      await page.getByTestId(testId).waitFor();
      await settled(page);
      for (const p of await legibilityProblems(page, 'main', least)) problems.push(`${size.name} ${hash}: ${p}`);
      pages++;
    }
    // The front door, the lessons list, and the comparison of 6.8 and 7.0 (two stages and their
    // counters) at its end.
    for (const [hash, ready] of [
      ['#/', 'main.home'],
      ['#/lessons', 'li.lesson-card'],
      ['#/compare?s=sc01', '[data-testid="compare-counters"]'],
      ['#/compare?s=sh05', '[data-testid="compare-counters"]'],
    ]) {
      await page.evaluate((h) => (window.location.hash = h), hash);
      await page.locator(ready).first().waitFor();
      if (hash.startsWith('#/compare')) {
        await page.getByTestId('stage').nth(1).locator('g.card').first().waitFor();
        await page.locator('body').press('End');
      }
      await settled(page);
      for (const p of await legibilityProblems(page, 'main', least)) problems.push(`${size.name} ${hash}: ${p}`);
      pages++;
    }
    for (const s of scenarios) {
      await page.evaluate((h) => (window.location.hash = h), `#/play?s=${s}`);
      await page.getByTestId('stage').locator('g.card').first().waitFor();
      await page.locator('body').press('End');
      await settled(page);
      for (const p of await legibilityProblems(page, 'main', least)) problems.push(`${size.name} scenario ${s}: ${p}`);
      pages++;
    }
  }
  return { problems, pages };
}

/**
 * The deck's embedded lesson steps as a projector shows them: at a screen
 * size, every slide with an embed at each step its fragments ask for. For each, the smallest
 * stage text and narration text in on-screen px (inside the iframe, times reveal.js's scale of
 * the slide), whether the frame's page scrolls, and the text it cuts: drawn past the frame's
 * edge, or cut or overlapping by `legibilityProblems` inside the frame.
 * @param {import('playwright-core').Page} page
 * @param {string} url
 * @param {{ name: string, width: number, height: number }} size
 */
export async function deckSurvey(page, url, size) {
  await page.setViewportSize({ width: size.width, height: size.height });
  await page.goto(`${url}slides/index.html`);
  await page.waitForFunction(() => typeof window.Reveal !== 'undefined' && window.Reveal.isReady());
  /** @type {{ h: number, f: number, step: number }[]} */
  const stops = await page.evaluate(() => {
    const out = [];
    const slides = window.Reveal.getHorizontalSlides();
    slides.forEach((s, h) => {
      const frame = s.querySelector('[data-start]'); // the embed's figure: its iframe is made near its slide
      if (frame === null) return;
      out.push({ h, f: -1, step: Number(frame.getAttribute('data-start')) });
      s.querySelectorAll('.fragment').forEach((fr, f) => {
        const step = fr.getAttribute('data-step');
        if (step !== null) out.push({ h, f, step: Number(step) });
      });
    });
    return out;
  });
  const rows = [];
  for (const stop of stops) {
    await page.evaluate(({ h, f }) => window.Reveal.slide(h, 0, f), stop);
    const slide = page.locator('.reveal .slides > section.present');
    const iframe = slide.locator('iframe[data-start]');
    const lesson = await slide.getAttribute('data-lesson');
    // A web-first wait (polled inside the page): a poll from here was a traced action each
    // 50 ms, and the trace's DOM snapshots and screenshots of them cost more than the survey.
    await expect(slide.locator('.embed-status'), `the embed at step ${stop.step}`).toHaveAttribute('data-step', String(stop.step));
    const handle = await iframe.elementHandle();
    const frame = await handle?.contentFrame();
    if (frame == null) throw new Error('no frame');
    await frame.locator(`main[data-step="${stop.step}"]`).waitFor();
    await frame.getByTestId('stage').locator('g.card').first().waitFor({ state: 'attached' });
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))));
    const scale = await page.evaluate(() => window.Reveal.getScale());
    const m = await frame.evaluate(() => {
      const svgPx = (t) => {
        const svg = t.ownerSVGElement;
        const vb = svg?.viewBox.baseVal;
        const k = vb && vb.width > 0 ? svg.getBoundingClientRect().width / vb.width : 1;
        return parseFloat(getComputedStyle(t).fontSize) * k;
      };
      let stage = Infinity;
      for (const t of document.querySelectorAll('[data-testid="stage"] text')) {
        if ((t.textContent ?? '').trim() === '' || t.getBoundingClientRect().width < 1) continue;
        stage = Math.min(stage, svgPx(t));
      }
      let narration = Infinity;
      const nar = document.querySelector('[data-testid="narration"]');
      if (nar !== null) {
        const w = document.createTreeWalker(nar, NodeFilter.SHOW_TEXT);
        for (let n = w.nextNode(); n !== null; n = w.nextNode()) {
          if ((n.textContent ?? '').trim() === '' || n.parentElement === null) continue;
          narration = Math.min(narration, parseFloat(getComputedStyle(n.parentElement).fontSize));
        }
      }
      const doc = document.scrollingElement ?? document.documentElement;
      const scrolls = doc.scrollHeight > window.innerHeight + 1 || doc.scrollWidth > window.innerWidth + 1;
      const past = [];
      const texts = [...document.querySelectorAll('main svg text')].map((t) => ({ t: t.textContent ?? '', r: t.getBoundingClientRect() }));
      if (nar !== null) texts.push({ t: nar.textContent ?? '', r: nar.getBoundingClientRect() });
      for (const { t, r } of texts) {
        if (t.trim() === '' || r.width < 1) continue;
        if (r.bottom > window.innerHeight + 1 || r.right > window.innerWidth + 1 || r.top < -1 || r.left < -1) past.push(t.trim().slice(0, 30));
      }
      // The step's subject: its first highlighted piece drawn (a crop leaves none out: none
      // drawn is out of view too), and how many of the things its highlights name are not.
      const inView = (r) => r.width > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1 && r.left >= -1 && r.right <= window.innerWidth + 1;
      const looks = [...document.querySelectorAll('svg [data-look]')];
      const subjectInView = looks.length === 0 || inView(looks[0].getBoundingClientRect());
      const named = new Map();
      for (const el of looks) {
        const key = el.getAttribute('data-object') ?? el.getAttribute('data-slab') ?? (el.matches('g.card') ? (el.getAttribute('data-key') ?? '').replace(/^slab:/, '') : `${el.closest('g.card')?.getAttribute('data-key') ?? ''}/${(el.textContent ?? '').trim()}`);
        named.set(key, named.get(key) === true || inView(el.getBoundingClientRect()));
      }
      const subjectOut = [...named].filter(([, shown]) => !shown).map(([k]) => k);
      return { stage, narration, scrolls, past, subjectInView, subjectOut, content: doc.scrollHeight, frame: window.innerHeight };
    });
    const problems = await legibilityProblems(frame, 'main');
    rows.push({
      where: `${size.name} slide ${stop.h} (${lesson ?? 'static'}) step ${stop.step}`,
      stage: m.stage * scale,
      narration: m.narration * scale,
      scrolls: m.scrolls,
      past: m.past,
      subjectInView: m.subjectInView,
      subjectOut: m.subjectOut,
      content: m.content,
      frame: m.frame,
      problems,
    });
  }
  return rows;
}
