// End-to-end stories of a student on a phone: a 390x844 touch screen, where every
// tap lands on a control that is on screen, at least 44 px, covered by nothing, and the page
// never has to be scrolled back up to reach the next one. Run under the rules of fixtures.mjs
// (any console error fails; axe must find nothing serious or critical).

import { legibilityProblems, MIN_TEXT_PX } from './legibility.mjs';
import { expect, shot, test } from './fixtures.mjs';

/** @typedef {import('@playwright/test').Page} Page */
/** @typedef {import('@playwright/test').Locator} Locator */

export const PHONE_TOUCH = { width: 390, height: 844 };

/** The smallest tap target (WCAG 2.5.5, Apple's and Material's guidelines: 44–48 px). */
const TAP_PX = 44;

/** The controls a thumb taps (text links inside prose are exempt, as WCAG 2.5.5 allows). */
const CONTROLS = 'button, select, label.choice, a.button-link, nav a, .crumbs > a';

/**
 * Every control on screen: its size, whether a tap at its centre reaches it (elementFromPoint),
 * whether it lies past the screen's left or right edge. Controls scrolled under a docked bar
 * are left out (the bar is over the page there by design); controls inside the bar are in.
 * `elsewhere`: the least size outside the bar (44 px in a lesson; in the playground, whose
 * header and scenario selects are set once, WCAG 2.5.8's 24 px).
 */
async function controlProblems(/** @type {Page} */ page, /** @type {string} */ dock, elsewhere = TAP_PX) {
  return page.evaluate(
    ({ sel, dockSel, px: barPx, elsewhere: otherPx }) => {
      const bar = document.querySelector(dockSel);
      const barTop = bar === null ? window.innerHeight : bar.getBoundingClientRect().top;
      const out = [];
      for (const el of document.querySelectorAll(sel)) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
        if (el.closest('dialog:not([open]), details:not([open]) > :not(summary)') !== null) continue;
        const name = `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
        if (r.left < -1 || r.right > window.innerWidth + 1) out.push(`${name} lies past the screen's edge (${Math.round(r.left)}–${Math.round(r.right)} px)`);
        const inBar = bar !== null && bar.contains(el);
        const onScreen = r.top >= 0 && r.bottom <= (inBar ? window.innerHeight : barTop);
        if (!onScreen) continue;
        const px = inBar ? barPx : otherPx;
        if (r.height < px - 0.5 || r.width < px - 0.5) out.push(`${name} is ${Math.round(r.width)}×${Math.round(r.height)} px, under ${px}`);
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (hit === null || !(el === hit || el.contains(hit) || (el instanceof HTMLLabelElement && el.control === hit))) {
          out.push(`${name} is covered at its centre by ${hit === null ? 'nothing' : `${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')}`}`);
        }
      }
      return out;
    },
    { sel: CONTROLS, dockSel: dock, px: TAP_PX, elsewhere },
  );
}

/** Wait until the page stops scrolling (a smooth scroll after an answer). */
async function scrollSettled(/** @type {Page} */ page) {
  let last = -1;
  for (let i = 0; i < 60; i++) {
    const y = await page.evaluate(() => window.scrollY);
    if (y === last) return y;
    last = y;
    await page.waitForTimeout(100);
  }
  return last;
}

/**
 * Tap a control as a thumb does, without the browser scrolling to it: it must already be on
 * screen above the bar (or in it), or below it, where the student scrolls down to it; one that
 * is above the screen fails the story (a scroll back up). Returns how far the page scrolled down.
 */
async function tap(/** @type {Page} */ page, /** @type {Locator} */ target, /** @type {string} */ dock, /** @type {string} */ what) {
  await target.waitFor();
  const where = () =>
    target.evaluate((el, dockSel) => {
      const r = el.getBoundingClientRect();
      const bar = document.querySelector(dockSel);
      const inBar = bar !== null && bar.contains(el);
      const bottom = inBar || bar === null ? window.innerHeight : bar.getBoundingClientRect().top;
      return { top: r.top, bottom: r.bottom, x: r.left + r.width / 2, y: r.top + r.height / 2, h: r.height, w: r.width, limit: bottom };
    }, dock);
  let r = await where();
  expect(r.top, `${what}: above the screen (top ${Math.round(r.top)} px): the student would scroll back up`).toBeGreaterThanOrEqual(0);
  let down = 0;
  if (r.bottom > r.limit) {
    // Below the bar: the student scrolls down to it (never up).
    down = Math.ceil(r.bottom - r.limit + 8);
    await page.evaluate((dy) => window.scrollBy(0, dy), down);
    r = await where();
  }
  expect(r.h, `${what}: ${Math.round(r.w)}×${Math.round(r.h)} px, under ${TAP_PX}`).toBeGreaterThanOrEqual(TAP_PX - 0.5);
  expect(r.w, `${what}: ${Math.round(r.w)}×${Math.round(r.h)} px, under ${TAP_PX}`).toBeGreaterThanOrEqual(TAP_PX - 0.5);
  const covered = await target.evaluate((el, p) => {
    const hit = document.elementFromPoint(p.x, p.y);
    return hit !== null && (el === hit || el.contains(hit) || (el instanceof HTMLLabelElement && el.control === hit)) ? null : (hit?.outerHTML.slice(0, 80) ?? 'nothing');
  }, r);
  expect(covered, `${what}: covered at its centre by ${covered}`).toBe(null);
  await page.touchscreen.tap(r.x, r.y);
  return down;
}

/** A sideways swipe with one finger (the DevTools protocol's touch events), right to left. */
async function swipeLeft(/** @type {Page} */ page) {
  const cdp = await page.context().newCDPSession(page);
  const y = 300;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 320, y }] });
  for (const x of [280, 220, 160, 100]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y + 4 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test.describe('on a phone', () => {
  test.describe(() => {
    test.use({ viewport: PHONE_TOUCH, hasTouch: true, isMobile: true });
    test('on a phone a student walks a lesson from its first step to its end frame by thumb, never scrolling back up', async ({ page, url, axe }) => {
      const id = 'interrupt-retry';
      const dock = '.lesson-reader .step-nav';
      await page.goto(`${url}#/lessons/${id}/1`);
      const total = Number(/of (\d+)/.exec(await page.getByTestId('step-position').innerText())?.[1]);
      expect(total, 'the step count').toBeGreaterThan(2);
      let swiped = false;
      let oneMove = false;
      for (let n = 1; n <= total; n++) {
        const main = page.locator(`main.lesson-reader[data-step="${n}"]`);
        await main.getByTestId('stage').locator('g.card').first().waitFor();
        await scrollSettled(page);
        const bad = await controlProblems(page, dock);
        expect(bad, `step ${n}:\n${bad.join('\n')}`).toHaveLength(0);
        const form = main.locator('form.predict');
        if ((await form.count()) > 0) {
          await tap(page, form.locator('label.choice').first(), dock, `step ${n}: the first choice`);
          await tap(page, form.getByRole('button', { name: 'Check my answer' }), dock, `step ${n}: Check my answer`);
          const verdict = main.getByTestId('verdict');
          await verdict.waitFor();
          await scrollSettled(page);
          // The verdict and the stage's subject are both on screen, above the bar.
          const seen = await page.evaluate((dockSel) => {
            const barTop = document.querySelector(dockSel)?.getBoundingClientRect().top ?? window.innerHeight;
            const v = document.querySelector('[data-testid="verdict"]')?.getBoundingClientRect();
            const stage = document.querySelector('[data-testid="stage"]');
            const s = (stage?.querySelector('[data-look]') ?? stage?.querySelector('g.card'))?.getBoundingClientRect();
            return { v: v && { top: v.top, bottom: v.bottom }, s: s && { top: s.top, bottom: s.bottom }, barTop };
          }, dock);
          expect(seen.v, `step ${n}: the verdict is off screen after answering: ${JSON.stringify(seen)}`).not.toBe(undefined);
          expect(seen.v.top, `step ${n}: the verdict is off screen after answering: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(0);
          expect(seen.v.bottom, `step ${n}: the verdict is off screen after answering: ${JSON.stringify(seen)}`).toBeLessThanOrEqual(seen.barTop);
          expect(seen.s, `step ${n}: the stage's subject is off screen after answering: ${JSON.stringify(seen)}`).not.toBe(undefined);
          expect(seen.s.top, `step ${n}: the stage's subject is off screen after answering: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(0);
          expect(seen.s.top + 40, `step ${n}: the stage's subject is off screen after answering: ${JSON.stringify(seen)}`).toBeLessThanOrEqual(seen.barTop);
          if (n === 4) await shot(page, 'phone-lesson-answered');
          if (await verdict.innerText().then((t) => /\.\s*;/.test(t))) throw new Error(`step ${n}: the verdict prints ".;"`);
        }
        const one = page.getByTestId('dock-one-move');
        if (!oneMove && (await one.count()) > 0) {
          // The walk holds where it is; each tap plays one more move.
          await tap(page, one, dock, `step ${n}: One move`);
          const moves = main.getByTestId('step-moves');
          await expect(moves).toHaveText(/move \d+ of \d+/, { useInnerText: true });
          const [k, of] = (/move (\d+) of (\d+)/.exec(await moves.innerText()) ?? []).slice(1).map(Number);
          await tap(page, one, dock, `step ${n}: One move again`);
          // One move more; or, if that was the last (on a loaded machine the walk may have played
          // all but one before it held), the walk ends and the line loses its count.
          await expect(moves).toHaveText(k + 1 < of ? new RegExp(`move ${k + 1} of ${of}`) : /^This step plays [^·]*$/, { useInnerText: true });
          oneMove = true;
        }
        if (n === total) break;
        if (!swiped && n === 2) {
          // A swipe turns the step as the bar's arrow does.
          await swipeLeft(page);
          swiped = true;
        } else {
          await tap(page, page.locator(dock).getByRole('button', { name: /^Next step/ }), dock, `step ${n}: Next`);
        }
      }
      expect(oneMove, 'a step offered one move at a time').toBe(true);
      // The end frame: below, reached by scrolling down (never up).
      const frame = page.getByTestId('lesson-frame');
      await frame.waitFor();
      await tap(page, page.getByTestId('lesson-end').getByRole('link', { name: 'All lessons' }), dock, 'the end frame: All lessons').catch(async (e) => {
        throw new Error(`the end of the lesson: ${e instanceof Error ? e.message : String(e)}`);
      });
      await page.locator('li.lesson-card').first().waitFor();
      // "? Shortcuts" in a lesson lists the lesson's keys.
      await page.goto(`${url}#/lessons/${id}/1`);
      await page.getByRole('button', { name: '? Shortcuts' }).click();
      await expect(page.locator('dialog.help')).toHaveText(/Next step/, { useInnerText: true });
      expect(await page.locator('dialog.help').innerText(), "the lesson's shortcuts list the playground's keys").not.toMatch(/explorer|interleaving/i);
      await page.getByRole('button', { name: 'Close' }).click();
      await axe(page, 'phone lesson');
    });
  });
  test.describe(() => {
    test.use({ viewport: PHONE_TOUCH, hasTouch: true, isMobile: true });
    test("on a phone a student plays SC1 to its failed compare-and-swap by thumb: moves on screen, uncovered, the stage's subject in view", async ({ page, url, axe }) => {
      const dock = '.play .controls';
      await page.goto(`${url}#/play?s=sc01`);
      await page.getByTestId('stage').locator('g.card').first().waitFor();
      const start = await page.evaluate(() => window.scrollY);
      // T reads its tid and freelist (seven moves), the interrupt frees p3 on the same CPU
      // (to its end), T's compare-and-swap fails.
      const taps = [...Array(7).fill(['[data-move="T"]', 'step T', 0]), ['[data-to-end="I"]', 'I to its end', 15], ['[data-move="T"]', 'step T', 16]];
      for (const [i, [sel, what, from]] of taps.entries()) {
        const bad = await controlProblems(page, dock, 24);
        expect(bad, `before tap ${i + 1}:\n${bad.join('\n')}`).toHaveLength(0);
        await tap(page, page.locator(`${dock} ${sel}`), dock, `tap ${i + 1}: ${what}`);
        const at = Math.max(i, from) + 1;
        await expect.poll(async () => (await page.getByTestId('position').innerText()).startsWith(`move ${at} `), { message: `move ${at}` }).toBe(true);
        // The stage's subject (its strip: the atomic step just run, by whom, and its outcome) is
        // in view above the bar.
        const s = await page.evaluate((dockSel) => {
          const r = document.querySelector('[data-testid="stage"] g.layer-strip')?.getBoundingClientRect();
          const top = document.querySelector(dockSel)?.getBoundingClientRect().top ?? window.innerHeight;
          return { top: r?.top ?? -1, bottom: r?.bottom ?? 1e9, bar: top, y: window.scrollY };
        }, dock);
        expect(s.top, `tap ${i + 1}: the stage's subject is off screen: ${JSON.stringify(s)}`).toBeGreaterThanOrEqual(0);
        expect(s.bottom, `tap ${i + 1}: the stage's subject is off screen: ${JSON.stringify(s)}`).toBeLessThanOrEqual(s.bar);
        expect(s.y, `tap ${i + 1}: the page scrolled back up`).toBeGreaterThanOrEqual(start);
      }
      await expect.poll(async () => (await page.getByTestId('timeline').locator('g.tick.failed').count()) === 1, { message: 'the failed compare-and-swap on the timeline' }).toBe(true);
      await expect(page.getByTestId('narration')).toHaveText(/fail/i, { useInnerText: true });
      await shot(page, 'phone-play-failed-cas');
      const bad = await controlProblems(page, dock, 24);
      expect(bad, `at the failed compare-and-swap:\n${bad.join('\n')}`).toHaveLength(0);
      await axe(page, 'phone playground');
    });
  });
  test.describe(() => {
    test.use({ viewport: PHONE_TOUCH, hasTouch: true, isMobile: true });
    test('on a phone a student reads the Lab: its summary, overview and every card legible, opened tables too', async ({ page, url }) => {
      await page.goto(`${url}#/lab`);
      const cards = page.locator('article.lab-case');
      await cards.first().waitFor();
      const total = await cards.count();
      const ended = page.locator('article.lab-case[data-state="done"], article.lab-case[data-state="failed"]');
      await expect(ended, 'the comparisons did not all finish in a minute').toHaveCount(total, { timeout: 60_000 });
      const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))));
      await page.waitForTimeout(500); // the last bars' tween
      /** @type {string[]} */
      const problems = [];
      // The words, the summary and its overview; then each card as a reader reaches it (a card
      // off screen is not laid out: content-visibility), with its closed parts opened.
      for (const part of ['.lab-top', '.lab-progress', '.lab-pending']) {
        if ((await page.locator(part).count()) === 0) continue;
        await page.locator(part).evaluate((el) => el.querySelectorAll('details').forEach((d) => (d.open = true)));
        await frames();
        for (const p of await legibilityProblems(page, part, { minPx: MIN_TEXT_PX })) problems.push(`${part}: ${p}`);
      }
      const ids = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-testid') ?? ''));
      for (const id of ids) {
        const card = page.getByTestId(id);
        await card.evaluate((el) => el.querySelectorAll('details').forEach((d) => (d.open = true)));
        // Scrolled to its top until it stays there: the cards above it take their real height
        // as they come on screen, and move it.
        for (let i = 0; i < 10; i++) {
          await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
          await frames();
          if (Math.abs(await card.evaluate((el) => el.getBoundingClientRect().top)) < 2) break;
        }
        for (const p of await legibilityProblems(page, `[data-testid="${id}"]`, { minPx: MIN_TEXT_PX })) problems.push(`${id}: ${p}`);
      }
      await shot(page, 'phone-lab-card');
      expect(problems, `${problems.length} legibility problems on the Lab at 390×844:\n${problems.slice(0, 40).join('\n')}`).toHaveLength(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'the Lab scrolls sideways on a phone').toBeLessThanOrEqual(1);
    });
  });
});
