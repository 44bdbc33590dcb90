// End-to-end user stories of the app itself (front page, comparison, playground, explorer, lab,
// embed, CSP), in chromium under the rules of fixtures.mjs (any console error fails; axe must
// find nothing serious or critical; screenshots go to test-results/e2e/).
import { readFileSync } from 'node:fs';
import { legibilitySurvey, SIZES } from './legibility.mjs';
import { expect, outputPath, PHONE, shot, SLIDE, test } from './fixtures.mjs';

/** SC1 to T's failed cmpxchg: T reads, the irq frees p3 on the same CPU, T's CAS fails. */
const SC1_FAIL = 'T,T,T,T,T,T,T,I,I,I,I,I,I,I,I,I,T';

/**
 * A scenario at the limits the simulator allows (wasm-core/sim/src/scenario/limits.rs MAX_*): 8 CPUs,
 * 64 objects of 4096 B per slab, 256 setup operations, 8 tasks and 8 interrupts of 64
 * operations each (alloc and free in turn).
 */
function limitsScenario() {
  const setup = [];
  for (let i = 0; i < 128; i++) setup.push({ cpu: i % 8, op: 'alloc', var: `s${i}` });
  for (let i = 0; i < 128; i++) setup.push({ cpu: (i + 3) % 8, op: 'free', var: `s${i}` });
  const ops = (p) => Array.from({ length: 64 }, (_, i) => ({ op: i % 2 === 0 ? 'alloc' : 'free', var: `${p}${i >> 1}` }));
  const tasks = Array.from({ length: 8 }, (_, c) => ({ id: `T${c}`, cpu: c, ops: ops(`t${c}_`) }));
  const irqs = Array.from({ length: 8 }, (_, c) => ({ id: `I${c}`, cpu: c, ops: ops(`i${c}_`) }));
  return { schemaVersion: 1, name: 'limits', cpus: 8, cache: { objectSize: 4096, objectsPerSlab: 64 }, setup, tasks, irqs };
}

/** @typedef {import('@playwright/test').Page} Page */
/** @typedef {import('@playwright/test').Locator} Locator */

/** Wait for the player; a crash screen or load failure fails with its text. */
async function openPlayer(/** @type {Page} */ page, /** @type {string} */ url) {
  await page.goto(url);
  const forward = page.getByRole('button', { name: /step forward/i });
  const crash = page.locator('.crash, .link-error');
  await forward.or(crash).first().waitFor();
  if (await crash.isVisible()) throw new Error(`error screen: ${await crash.innerText()}`);
  await page.getByTestId('stage').locator('g.card').first().waitFor();
  return forward;
}

/** What the stage says (its accessible description: every CPU, slab and node). */
async function stageText(/** @type {Page} */ page) {
  return (await page.getByTestId('stage').getAttribute('aria-label')) ?? '';
}

/** The policy a built page ships in its <meta http-equiv="Content-Security-Policy">. */
async function pagePolicy(/** @type {Page} */ page) {
  return (await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
}

/** The lab: every case's card, filled in as the worker's results come back. */
const LAB_ALL_MS = 60_000;

async function labCards(/** @type {Page} */ page, /** @type {string} */ state) {
  return page.locator(`article.lab-case[data-state="${state}"]`).count();
}

// SLAB (model.md Appendix A) in the playground: per-CPU array_cache stacks, the node's three lists.
/** The text of a stage card (`cpu:0`, `node:0`, `slab:P`). */
async function cardText(/** @type {Page} */ page, /** @type {string} */ key) {
  return (await page.getByTestId('stage').locator(`g.card[data-key="${key}"] text`).allTextContents()).join(' | ');
}

test.describe('the app: front page, comparison, playground, explorer, lab and embed', () => {
  test('a learner compares Linux 6.8 and 7.0 side by side, an operation at a time, by button, key and link', async ({ page, url, axe }) => {
    await page.goto(`${url}#/compare?s=sh05`);
    const counters = page.getByTestId('compare-counters');
    await counters.waitFor();
    const position = page.locator('.compare-position');
    await expect(position).toHaveText(/^operation 0 of 3$/, { useInnerText: true });
    const stages = page.getByTestId('stage');
    await expect(stages, 'the comparison does not show two stages').toHaveCount(2);
    // The 7.0 stage draws sheaves and a barn; the 6.8 one a tid.
    const [old, now] = [await stages.nth(0).getAttribute('aria-label'), await stages.nth(1).getAttribute('aria-label')];
    expect(old ?? '', `the stages do not show the two designs: ${old} | ${now}`).toMatch(/tid/);
    expect(now ?? '', `the stages do not show the two designs: ${old} | ${now}`).toMatch(/sheaves/);
    expect(now ?? '', `the stages do not show the two designs: ${old} | ${now}`).toMatch(/Barn/);
    await page.getByRole('button', { name: 'Operation →' }).click();
    await expect(position).toHaveText(/^operation 1 of 3$/, { useInnerText: true });
    await page.locator('body').press('ArrowRight');
    await expect(position).toHaveText(/^operation 2 of 3$/, { useInnerText: true });
    // The interrupt's allocation: a per-CPU cmpxchg under 6.8, none under 7.0.
    const row = counters.getByRole('row', { name: /per-CPU cmpxchg/ });
    await expect(row).toHaveText(/per-CPU cmpxchg\s+\d+\s+0\s/, { useInnerText: true });
    await expect(page.locator('[aria-live="polite"]')).toHaveText(/v6\.8: I: alloc y/, { useInnerText: true });
    expect(page.url(), `the address does not keep the position: ${page.url()}`).toMatch(/at=2/);
    await shot(page, 'compare');
    await page.goto(`${url}#/compare?s=sh05&at=x`);
    await expect(page.locator('.link-error, main')).toHaveText(/not a whole number of operations/, { useInnerText: true });
    await page.goto(`${url}#/compare?s=sc18`);
    await expect(page.locator('main')).toHaveText(/SLAB/, { useInnerText: true });
    await page.goto(`${url}#/compare?s=sample&at=1`);
    await counters.waitFor();
    await axe(page, 'compare');
  });
  test("#/compare runs a scenario's own schedule: SC1 (the default) fails its cmpxchg under 6.8 and says why 7.0 has none", async ({ page, url }) => {
    await page.goto(`${url}#/compare`);
    const counters = page.getByTestId('compare-counters');
    await counters.waitFor();
    await expect(page.locator('.compare-controls select'), '#/compare does not open SC1 by default').toHaveValue('sc01');
    await expect(page.locator('.compare-schedule')).toHaveText(/own schedule \(12 moves under v6\.8, 15 moves under v7\.0\)/, { useInnerText: true });
    await page.locator('body').press('End');
    const row = counters.getByRole('row', { name: /cmpxchg that failed/ });
    await expect(row).toHaveText(/cmpxchg that failed\s+[1-9]\d*\s+0\s/, { useInnerText: true });
    await expect(page.getByTestId('compare-note')).toHaveText(/local lock/, { useInnerText: true });
    await shot(page, 'compare-sc01');
  });
  test('#/compare opens a scenario at the limits in 2 s without blocking the page; a deep-JSON link gets a located error on every route', async ({ page, url }) => {
    const link = `v1.${Buffer.from(JSON.stringify(limitsScenario())).toString('base64url')}`;
    const t0 = Date.now();
    await page.goto(`${url}#/compare?s=${link}`);
    await page.getByTestId('compare-counters').waitFor({ timeout: 20_000 });
    await page.getByTestId('stage').nth(1).locator('g.card').first().waitFor({ timeout: 20_000 });
    const opened = Date.now() - t0;
    // A number to read (speed goals live in benchmarks; the target is 2 s), and a bound far
    // above it: before the worker, this page blocked for about 40 s.
    console.log(`    the scenario at the limits (${link.length} B link) opened in ${opened} ms (target ≤ 2 s)`);
    expect(opened, `the scenario at the limits took ${opened} ms to open`).toBeLessThanOrEqual(10_000);
    // The main thread stays free while the worker computes a frame: the longest task.
    const longest = await page.evaluate(async () => {
      let max = 0;
      const obs = new PerformanceObserver((l) => {
        for (const e of l.getEntries()) max = Math.max(max, e.duration);
      });
      obs.observe({ type: 'longtask' });
      const key = (k) => window.dispatchEvent(new KeyboardEvent('keydown', { key: k }));
      key('End');
      await new Promise((r) => setTimeout(r, 1500));
      obs.disconnect();
      return max;
    });
    console.log(`    the longest main-thread task after End: ${Math.round(longest)} ms`);
    expect(longest, `the main thread was blocked ${Math.round(longest)} ms after End`).toBeLessThanOrEqual(2_000);
    await expect(page.getByTestId('compare-position')).toHaveText(/^operation (\d+) of \1$/, { useInnerText: true });
    // Nested 10,000 deep: the simulator's parser refuses it with its place, on every route.
    const deep = `v1.${Buffer.from(`{"schemaVersion":1,"setup":${'['.repeat(10_000)}${']'.repeat(10_000)}}`).toString('base64url')}`;
    for (const route of ['#/compare', '#/play', '#/explore']) {
      await page.goto(`${url}${route}?s=${deep}`);
      await expect(page.getByTestId('link-error')).toHaveText(/line 1,? column \d+/, { useInnerText: true });
      await expect(page.locator('.crash'), `${route} crashed on the deep link`).toHaveCount(0);
    }
    await page.goto(`${url}embed.html#/play?s=${deep}`);
    await expect(page.getByTestId('link-error')).toHaveText(/line 1,? column \d+/, { useInnerText: true });
  });
  test.describe(() => {
    test.use({ viewport: PHONE });
    test('a newcomer lands on the front page, reads what this is and starts lesson 1', async ({ page, url, axe }) => {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/slab allocator/, { useInnerText: true });
      const start = page.getByTestId('start-lesson-1');
      await expect(start).toHaveText(/^Start with lesson 00/, { useInnerText: true });
      expect(await page.locator('.home-lessons li').count(), 'the front page does not list the lessons').toBeGreaterThanOrEqual(12);
      await shot(page, 'front-page-phone');
      await axe(page, 'front page');
      await start.click();
      await page.locator('main.lesson-reader[data-step="1"]').getByTestId('stage').locator('g.card').first().waitFor();
      // An error page carries the site's navigation back.
      await page.goto(`${url}#/nowhere`);
      await page.getByTestId('link-error').waitFor();
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Lessons' }).click();
      await page.locator('li.lesson-card').first().waitFor();
    });
  });
  test.describe(() => {
    test.use({ reducedMotion: 'reduce' });
    // One story per size, so that two workers share the survey's three passes.
    for (const size of SIZES) {
      test(`every lesson step, built-in scenario and the comparison read at ${size.name} size (${size.width}×${size.height}): no text cut, none overlapping, none under 12 px`, async ({ page, url }) => {
        const { problems, pages } = await legibilitySurvey(page, url, [size]);
        console.log(`    ${size.name}: ${pages} pages read, ${problems.length} problems`);
        expect(problems, `${problems.length} legibility problems:\n${problems.slice(0, 40).join('\n')}`).toHaveLength(0);
      });
    }
  });
  test('a learner opens a built-in scenario, steps forward and back, by button and by key', async ({ page, url, axe }) => {
    const forward = await openPlayer(page, `${url}#/play`);
    await page.getByLabel('Built-in scenario').selectOption('sc01');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/SC1/, { useInnerText: true });
    const back = page.getByRole('button', { name: /step back/i });
    const position = page.getByTestId('position');
    const before = await stageText(page);
    await expect(back, 'step back is enabled at the start').toBeDisabled();
    await expect(page.getByTestId('narration'), 'the narration is not an aria-live region').toHaveAttribute('aria-live', 'polite');
    // Step until CPU 0's freelist or tid changes (the fast path commits), at most 40 moves.
    let moves = 0;
    let after = before;
    while (after === before && moves < 40 && (await forward.isEnabled())) {
      await forward.click();
      moves++;
      // SC1 loads with its 17-move story: stepping forward plays it.
      await expect(position).toHaveText(new RegExp(`^move ${moves} of 17\\b`), { useInnerText: true });
      after = await stageText(page);
    }
    expect(after, `the stage did not change in ${moves} moves`).not.toBe(before);
    await page.waitForTimeout(400); // the tween
    await shot(page, 'stepped-forward');
    for (let i = 0; i < moves; i++) await back.click();
    await expect(position).toHaveText(/^move 0 of 17\b/, { useInnerText: true });
    expect(await stageText(page), 'stepping back did not return to the start').toBe(before);
    await page.locator('body').press('ArrowRight');
    await expect(position).toHaveText(/^move 1 of 17\b/, { useInnerText: true });
    await page.locator('body').press('ArrowLeft');
    await expect(position).toHaveText(/^move 0 of 17\b/, { useInnerText: true });
    // Moves as buttons: fire the interrupt instead of stepping the task.
    await page.getByRole('button', { name: /fire irq I/ }).click();
    await expect(position).toHaveText(/^move 1 of 1\b/, { useInnerText: true });
    await expect(page.getByTestId('narration')).toHaveText(/\S/, { useInnerText: true });
    await axe(page, 'playground');
  });
  test('a learner fires an interrupt and runs it to its end in one click, then runs a task to the end of its operation', async ({ page, url, axe }) => {
    await openPlayer(page, `${url}#/play?s=sc01&m=&at=0`);
    const position = page.getByTestId('position');
    await page.locator('button[data-to-end="I"]').click();
    await expect(position).toHaveText(/^move ([2-9]|\d\d+) of \1\b/, { useInnerText: true });
    await expect(page.locator('button[data-to-end="I"]'), 'I can still be run after running to its end').toHaveCount(0);
    const after = await position.innerText();
    await page.locator('button[data-to-end="T"]').click();
    await expect.poll(async () => (await position.innerText()) !== after, { message: 'T to run to the end of its operation' }).toBe(true);
    await expect(page.getByTestId('narration')).toHaveText(/\S/, { useInnerText: true });
    await axe(page, 'playground after run to end');
  });
  test('a learner sees a failed cmpxchg half by half, with the retry on the timeline', async ({ page, url }) => {
    await openPlayer(page, `${url}#/play?s=sc01&m=${SC1_FAIL}&at=17`);
    await expect(page.getByTestId('narration')).toHaveText(/fails/, { useInnerText: true });
    const halves = page.getByTestId('stage').locator('g.half');
    await expect.poll(async () => (await halves.count()) === 2, { message: 'two CAS halves' }).toBe(true);
    const text = await halves.allInnerTexts().catch(() => []);
    const t = (await page.getByTestId('stage').locator('g.half text').allTextContents()).join(' | ');
    expect(t, `halves: ${t} ${text.join()}`).toMatch(/freelist: p1 \/ p3/);
    expect(t, `halves: ${t} ${text.join()}`).toMatch(/tid: 12 \/ 14/);
    await expect(page.getByTestId('timeline').locator('g.tick.failed'), 'the failed cmpxchg is not marked on the timeline').toHaveCount(1);
    await shot(page, 'failed-cas');
  });
  test('a learner plays, pauses, changes speed and scrubs the timeline', async ({ page, url }) => {
    await openPlayer(page, `${url}#/play?s=sc05`);
    const position = page.getByTestId('position');
    await page.getByLabel('Speed').selectOption({ label: '30 moves/s' });
    await page.getByRole('button', { name: /play/i }).click();
    await expect(position).toHaveText(/^move ([5-9]|\d\d+) of/, { useInnerText: true });
    await page.getByRole('button', { name: /pause/i }).click();
    const paused = await position.innerText();
    await page.waitForTimeout(300);
    expect(await position.innerText(), 'still moving after pause').toBe(paused);
    const total = Number(/of (\d+)/.exec(paused)?.[1]);
    // Scrub: press on the timeline's first quarter, then drag to its end.
    const tl = page.getByTestId('timeline');
    await tl.scrollIntoViewIfNeeded();
    const box = await tl.boundingBox();
    expect(box, 'no timeline').not.toBe(null);
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
    await page.mouse.down();
    await expect.poll(async () => {
      const n = Number(/^move (\d+)/.exec(await position.innerText())?.[1]);
      return n > 0 && n < total;
    }, { message: 'the scrubbed position' }).toBe(true);
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(position).toHaveText(new RegExp(`^move ${total} of ${total}`), { useInnerText: true });
    // The timeline is a slider for the keyboard too.
    await tl.focus();
    await page.keyboard.press('Home');
    await expect(position).toHaveText(new RegExp(`^move 0 of ${total}`), { useInnerText: true });
    await expect(tl, 'aria-valuenow did not follow').toHaveAttribute('aria-valuenow', '0');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await shot(page, 'shortcuts');
    await page.keyboard.press('Escape');
  });
  test('a learner explores SC2 without the tid, finds the ABA (INV-12) and steps through the counterexample', async ({ page, url, axe }) => {
    await openPlayer(page, `${url}#/play?s=sc02`);
    await page.getByLabel('fastpath', { exact: true }).selectOption({ label: 'no-tid' });
    await page.getByRole('button', { name: /explore interleavings/i }).click();
    const explorer = page.getByTestId('explorer');
    await expect(explorer.getByLabel('max preemptions'), 'max preemptions is not 3 by default').toHaveValue('3');
    await expect(explorer.getByLabel('max migrations'), 'max migrations is not 2 by default').toHaveValue('2');
    // The search runs in the production build's worker, which loads its own wasm.
    await explorer.getByRole('button', { name: 'Explore', exact: true }).click();
    const result = page.getByTestId('explore-result');
    await expect(result).toHaveText(/INV-12 breaks after \d+ moves/, { useInnerText: true });
    await expect(page.getByTestId('explore-live')).toHaveText(/^Found: INV-12/, { useInnerText: true });
    await expect(page.getByTestId('explore-live'), 'the explorer readout is not a polite live region').toHaveAttribute('aria-live', 'polite');
    const moves = Number(/after (\d+) moves/.exec(await result.innerText())?.[1]);
    await shot(page, 'explorer-found');
    await axe(page, 'explorer');
    await result.getByRole('button', { name: /load the counterexample/i }).click();
    // The stepper holds exactly the counterexample, at its end: the violation is on screen.
    await expect(page.getByTestId('position')).toHaveText(new RegExp(`^move ${moves} of ${moves}\\b`), { useInnerText: true });
    await expect(page.getByTestId('violation')).toHaveText(/INV-12 broken at step \d+/, { useInnerText: true });
    await expect(page.getByTestId('violation'), 'the violation is not on screen').toBeVisible();
    // SC2 is loaded broken (fastpath no-tid) as a built-in: the link names it and carries the moves.
    await expect.poll(async () => new RegExp(`#/explore\\?s=sc02&m=[^&]+&at=${moves}$`).test(page.url()), { message: 'the link to carry the explorer' }).toBe(true);
    // The timeline: a labelled lane per context, the violation named where it broke.
    const timeline = page.getByTestId('timeline');
    expect(await timeline.locator('g.lane text').first().textContent(), 'the timeline has no lane labelled T').toBe('T · CPU 0');
    expect(await timeline.locator('g.violation text').textContent(), 'the timeline does not name the broken invariants').toBe('⚠ INV-12, INV-1');
    await shot(page, 'explorer-loaded');
    // ▶ Play at the end of the counterexample plays it again and stops at its end.
    await page.getByLabel('Speed').selectOption({ label: '8 moves/s' });
    await page.getByRole('button', { name: '▶ Play' }).click();
    const at = async () => Number(/^move (\d+)/.exec(await page.getByTestId('position').innerText())?.[1]);
    await expect.poll(async () => (await at()) < moves, { message: 'play to start the counterexample again' }).toBe(true);
    await expect(page.getByRole('button', { name: /▶ Play|⏸ Pause/ })).toHaveText(/▶ Play/, { useInnerText: true });
    await expect(page.getByTestId('position')).toHaveText(new RegExp(`^move ${moves} of ${moves}\\b`), { useInnerText: true });
    // Step back from the violation: it is gone; the keyboard loads the counterexample again.
    await page.getByRole('button', { name: /step back/i }).click();
    await expect(page.getByTestId('position')).toHaveText(new RegExp(`^move ${moves - 1} of ${moves}\\b`), { useInnerText: true });
    await page.getByRole('button', { name: 'Start', exact: false }).first().click();
    await expect(page.getByTestId('position')).toHaveText(new RegExp(`^move 0 of ${moves}\\b`), { useInnerText: true });
    await page.locator('body').press('c');
    await expect(page.getByTestId('position')).toHaveText(new RegExp(`^move ${moves} of ${moves}\\b`), { useInnerText: true });
    // With the tid (the default fast path) the same search completes with no violation.
    await page.getByLabel('fastpath', { exact: true }).selectOption({ label: 'tid-loop' });
    await page.locator('body').press('e');
    await expect(result).toHaveText(/No violation within these bounds[\s\S]*complete: every interleaving/, { useInnerText: true });
  });
  test('a negative control loads broken and says so, beside the scenario at the top; the kernel’s own code runs the same moves', async ({ page, url, axe }) => {
    await openPlayer(page, `${url}#/play?s=sc02`);
    const bar = page.getByTestId('scenario-bar');
    await expect(page.getByTestId('negative-control')).toHaveText(/Negative control[\s\S]*fastpath: no-tid/, { useInnerText: true });
    await expect(page.getByLabel('fastpath', { exact: true }), 'SC2 does not load with fastpath no-tid').toHaveValue('"no-tid"');
    // The era and the variant are chosen at the top, above the controls and the stage.
    const [barBox, stageBox, controlsBox] = [await bar.boundingBox(), await page.getByTestId('stage').boundingBox(), await page.getByRole('region', { name: 'Player controls' }).boundingBox()];
    expect(barBox, 'no scenario bar, stage or controls').not.toBe(null);
    expect(stageBox, 'no scenario bar, stage or controls').not.toBe(null);
    expect(controlsBox, 'no scenario bar, stage or controls').not.toBe(null);
    expect(barBox.y, 'the scenario bar above the controls').toBeLessThan(controlsBox.y);
    expect(barBox.y, 'the scenario bar above the stage').toBeLessThan(stageBox.y);
    expect(barBox.y, 'the scenario bar at the top').toBeLessThan(200);
    await expect(page.getByLabel('era', { exact: true }), 'no era beside the scenario').toHaveCount(1);
    await shot(page, 'negative-control');
    await axe(page, 'scenario bar');
    // Three moves, then the kernel's own code: the moves are kept, the note goes.
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: /step forward/i }).click();
    await page.getByRole('button', { name: /kernel.s own code/ }).click();
    await expect(page.getByTestId('position')).toHaveText(/^move 3 of 3\b/, { useInnerText: true });
    await expect(page.getByTestId('negative-control'), 'the note stays after mending').toHaveCount(0);
    // SC1 loads with its story: ▶ Play stops at the failed compare-and-swap (move 17).
    await page.getByLabel('Built-in scenario').selectOption('sc01');
    await page.getByLabel('Speed').selectOption({ label: '30 moves/s' });
    await page.getByRole('button', { name: '▶ Play' }).click();
    await expect(page.getByTestId('position')).toHaveText(/^move 17 of 17\b/, { useInnerText: true });
    await expect(page.getByRole('button', { name: /▶ Play|⏸ Pause/ })).toHaveText(/▶ Play/, { useInnerText: true });
    await expect(page.getByTestId('position')).toHaveText(/^move 17 of 17\b/, { useInnerText: true });
    await expect.poll(async () => (await page.getByTestId('timeline').locator('g.tick.failed text.fail').textContent()) === '✕', { message: 'the failed compare-and-swap marked ✕ on the timeline' }).toBe(true);
  });
  test.describe(() => {
    test.use({ viewport: PHONE });
    test("on a phone the playground's controls sit at the bottom and leave the stage in view while you tap; icons are drawn, not emoji", async ({ page, url, axe }) => {
      await openPlayer(page, `${url}#/play?s=sc01`);
      const where = () =>
        page.evaluate(() => {
          const s = document.querySelector('[data-testid="stage"]')?.getBoundingClientRect();
          const c = document.querySelector('.controls')?.getBoundingClientRect();
          return { stage: Math.round(s?.top ?? 1e9), controls: Math.round(c?.top ?? 0), screen: window.innerHeight, scrolled: window.scrollY };
        });
      const before = await where();
      console.log(`    stage top ${before.stage} px, controls from ${before.controls} px of ${before.screen}`);
      expect(before.controls - before.stage, `less than 250 px of the stage on screen: ${JSON.stringify(before)}`).toBeGreaterThanOrEqual(250);
      for (let i = 0; i < 5; i++) await page.getByRole('button', { name: /step forward/i }).click();
      await expect(page.getByTestId('position')).toHaveText(/^move 5 of 17\b/, { useInnerText: true });
      const after = await where();
      expect(after.stage, `tapping moved the stage: ${JSON.stringify(after)}`).toBe(before.stage);
      expect(after.scrolled, `tapping moved the stage: ${JSON.stringify(after)}`).toBe(0);
      await shot(page, 'phone-playground');
      const emoji = await page.evaluate(() => {
        const text = document.body.innerText + [...document.querySelectorAll('svg text')].map((t) => t.textContent ?? '').join(' ');
        return [...text.matchAll(/\p{Extended_Pictographic}/gu)].map((m) => m[0]).filter((c) => (c.codePointAt(0) ?? 0) > 0xffff);
      });
      expect(emoji, `emoji drawn from a font: ${[...new Set(emoji)].join(' ')}`).toHaveLength(0);
      await axe(page, 'phone playground');
    });
  });
  test('a learner cancels a long search and sees why it is incomplete; the time limit stops one too', async ({ page, url }) => {
    // Four CPUs each doing seven operations: far too many interleavings to finish.
    const setup = [];
    for (let c = 0; c < 4; c++) for (let i = 0; i < 3; i++) setup.push({ cpu: c, op: 'alloc', var: `v${c}_${i}` });
    const tasks = [0, 1, 2, 3].map((c) => ({
      id: 'ABCD'[c],
      cpu: c,
      ops: [
        { op: 'free', var: `v${(c + 1) % 4}_0` },
        { op: 'alloc', var: `n${c}` },
        { op: 'free', var: `v${c}_1` },
        { op: 'free', var: `n${c}` },
      ],
    }));
    const big = { schemaVersion: 1, name: 'e2e: a search too big to finish', cpus: 4, cache: { objectsPerSlab: 4 }, setup, tasks };
    await openPlayer(page, `${url}#/explore?s=v1.${Buffer.from(JSON.stringify(big)).toString('base64url')}`);
    const explorer = page.getByTestId('explorer');
    await explorer.getByLabel('time limit (s)').fill('60');
    await explorer.getByRole('button', { name: 'Explore', exact: true }).click();
    await expect(page.getByTestId('explore-progress')).toHaveText(/[1-9][\d,]* states/, { useInnerText: true });
    await expect(explorer.getByLabel('max preemptions'), 'the bounds can be edited while searching').toBeDisabled();
    await shot(page, 'explorer-running');
    await explorer.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('explore-result')).toHaveText(/incomplete: you cancelled the search/, { useInnerText: true });
    // A bad bound is named and Explore waits for a good one.
    await explorer.getByLabel('max migrations').fill('1.5');
    await expect(explorer.locator('.error')).toHaveText(/max migrations: "1\.5" is not a whole number/, { useInnerText: true });
    await expect(explorer.getByRole('button', { name: 'Explore', exact: true }), 'Explore is enabled with a bad bound').toBeDisabled();
    await explorer.getByLabel('max migrations').fill('2');
    await explorer.getByLabel('time limit (s)').fill('0.3');
    await explorer.getByRole('button', { name: 'Explore', exact: true }).click();
    await expect(page.getByTestId('explore-result')).toHaveText(/incomplete: the time limit \(0\.3 s\) ran out/, { useInnerText: true });
  });
  test('a permalink opens the same state in a new page', async ({ page, url }) => {
    await openPlayer(page, `${url}#/play?s=sc03`);
    for (let i = 0; i < 7; i++) await page.getByRole('button', { name: /step forward/i }).click();
    await page.getByRole('button', { name: /step back/i }).click();
    await expect(page.getByTestId('position')).toHaveText(/^move 6 of 7/, { useInnerText: true });
    // A variant toggle rebuilds the scenario: the link then carries it encoded.
    await page.getByText('More variant keys').click();
    await page.getByLabel('cpuPartial', { exact: true }).selectOption('false');
    await expect(page.getByTestId('position')).toHaveText(/^move 6 of 7/, { useInnerText: true });
    await expect.poll(async () => /#\/play\?s=v1\.[\w-]+&m=[^&]+&at=6$/.test(page.url()), { message: `the link to follow (${page.url()})` }).toBe(true);
    const link = page.url();
    const stage = await stageText(page);
    const narration = await page.getByTestId('narration').innerText();
    const other = await page.context().newPage();
    await openPlayer(other, link);
    await expect(other.getByTestId('position')).toHaveText(/^move 6 of 7/, { useInnerText: true });
    expect(await stageText(other), 'the stage differs after the round trip').toBe(stage);
    expect(await other.getByTestId('narration').innerText(), 'the narration differs').toBe(narration);
    await other.close();
  });
  test('a link that cannot be decoded shows what was wrong', async ({ page, url, axe }) => {
    for (const [hash, pattern] of [
      ['#/play?s=v1.@@@', /scenario \(s\).*base64url/],
      ['#/play?s=v7.abc', /scenario \(s\).*v7/],
      ['#/play?s=sample&m=T,Nope', /moves \(m\).*Nope/],
      ['#/play?s=sample&m=T&at=5', /position \(at\)/],
      ['#/nowhere', /page/],
    ]) {
      await page.goto(`${url}${hash}`);
      await expect(page.getByTestId('link-error')).toHaveText(pattern, { useInnerText: true });
    }
    await shot(page, 'bad-link');
    await axe(page, 'link error');
    await page.getByRole('link', { name: /the playground with the sample scenario/i }).click();
    await page.getByTestId('stage').waitFor();
  });
  test('a learner pastes a bad scenario and is told the JSON path', async ({ page, url }) => {
    await openPlayer(page, `${url}#/play`);
    await page.getByText('Edit the scenario JSON').click();
    const text = page.getByLabel('Scenario JSON');
    const sample = JSON.parse(await text.inputValue());
    await text.fill(JSON.stringify({ ...sample, tasks: [{ id: 'T', cpu: 0, ops: [{ op: 'free', var: 'nope' }] }] }));
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect(page.getByTestId('scenario-error')).toHaveText(/At tasks\[0\]\.ops\[0\]\.var:/, { useInnerText: true });
    await text.fill(JSON.stringify({ ...sample, name: 'pasted by the e2e test' }));
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/pasted by the e2e test/, { useInnerText: true });
  });
  test('a learner exports the frame as SVG and PNG', async ({ page, url }) => {
    await openPlayer(page, `${url}#/play?s=sc01&m=${SC1_FAIL}&at=17`);
    // The exporters load when the export menu opens (web/src/ui/ExportMenu.tsx).
    await page.getByText('Export: picture, animation, PDF').click();
    const [svgDl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'SVG', exact: true }).click()]);
    const svgPath = outputPath('e2e-export.svg');
    await svgDl.saveAs(svgPath);
    const svg = readFileSync(svgPath, 'utf8');
    expect(svg, 'not an SVG document').toMatch(/^<svg/);
    expect(svg, 'not an SVG document').toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg, 'the SVG lacks the frame content').toContain('p3');
    expect(svg, 'the SVG lacks the frame content').toContain('FAILS');
    expect(svg, 'the SVG does not say which frame it is').toContain('move 17 of 17 · atomic step');
    // It parses as XML, standalone (in a blank page: the app's policy would rightly refuse
    // the file's own <style> and style attributes in a document parsed inside the app).
    const blank = await page.context().newPage();
    const parsed = await blank.evaluate((s) => {
      const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
      return doc.querySelector('parsererror') === null ? doc.documentElement.getAttribute('width') : null;
    }, svg);
    await blank.close();
    expect(parsed, 'the SVG does not parse').not.toBe(null);
    const [pngDl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'PNG', exact: true }).click()]);
    const pngPath = outputPath('e2e-export.png');
    await pngDl.saveAs(pngPath);
    const png = readFileSync(pngPath);
    expect(png.subarray(0, 8).toString('hex'), 'not a PNG').toBe('89504e470d0a1a0a');
    const w = png.readUInt32BE(16);
    const h = png.readUInt32BE(20);
    expect(w, `PNG too small: ${w}×${h}`).toBeGreaterThanOrEqual(800);
    expect(h, `PNG too small: ${w}×${h}`).toBeGreaterThanOrEqual(400);
  });
  test('the app and the embed ship a strict Content-Security-Policy and run under it', async ({ page, url }) => {
    for (const path of ['#/play?s=sc01', 'embed.html#/lessons/fast-path-and-tid/3']) {
      await page.goto(`${url}${path}`);
      const policy = await pagePolicy(page);
      for (const want of ["script-src 'self' 'wasm-unsafe-eval'", "connect-src 'self'", "object-src 'none'"]) {
        expect(policy, `${path}: the policy lacks ${want}: ${policy}`).toContain(want);
      }
      expect(policy, `${path}: the policy allows unsafe code: ${policy}`).not.toMatch(/'unsafe-eval'|'unsafe-inline'/);
      // The simulator (WebAssembly) runs under it: the stage draws.
      await page.getByTestId('stage').locator('g.card').first().waitFor();
    }
    // index.html's one inline script, allowed by its hash, preloads a lesson's chunks from the
    // first moment: the reader's and the lesson's own (web/route-preload.ts).
    await page.goto(`${url}#/lessons/slab-and-objects/2`);
    await page.getByTestId('lesson-title').waitFor();
    expect(await pagePolicy(page), 'the inline route preload has no hash in script-src').toMatch(/script-src [^;]*'sha256-/);
    const preloaded = await page.locator('link[rel="modulepreload"]').evaluateAll((ls) => ls.map((l) => l.getAttribute('href') ?? ''));
    for (const want of [/LessonReader-/, /slab-and-objects-/]) {
      if (!preloaded.some((h) => want.test(h))) throw new Error(`no modulepreload for ${want}: ${preloaded.join(', ')}`);
    }
  });
  test('commands in a burst apply one after another: five messages to an embed, five keys to the playground', async ({ page, url }) => {
    await page.goto(`${url}embed.html#/play?s=sc01&m=&at=0`);
    const position = page.getByTestId('position');
    await expect(position).toHaveText(/^move 0 of 0$/, { useInnerText: true });
    // Five `next` in one tick (before any render): each must play a move enabled after the last.
    await page.evaluate(() => {
      for (let i = 0; i < 5; i++) window.postMessage({ type: 'slub-lab:command', command: 'next' }, '*');
    });
    await expect(position).toHaveText(/^move 5 of 5$/, { useInnerText: true });
    await page.evaluate(() => {
      for (let i = 0; i < 5; i++) window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    });
    await expect(position).toHaveText(/^move 10 of 10$/, { useInnerText: true });
    // The playground: a burst of keys, and the permalink it writes opens (every move enabled).
    await page.goto(`${url}#/play?s=sc01&m=&at=0`);
    await page.getByTestId('stage').waitFor();
    await page.evaluate(() => {
      for (let i = 0; i < 6; i++) window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    });
    await expect(page.getByTestId('position')).toHaveText(/^move 6 of 6\b/, { useInnerText: true });
    await expect.poll(async () => page.url().includes('at=6'), { message: `the permalink to follow (${page.url()})` }).toBe(true);
    const link = page.url();
    const other = await page.context().newPage();
    await other.goto(link);
    await expect(other.getByTestId('position')).toHaveText(/^move 6 of 6\b/, { useInnerText: true });
    await other.close();
  });
  test('a slide deck drives the embed through postMessage', async ({ page, url, axe }) => {
    await page.goto(`${url}embed-example.html`);
    const last = page.locator('#last');
    await expect(last).toHaveText(/"step":0,"total":19/, { useInnerText: true });
    const frame = page.frameLocator('#slide');
    await frame.getByTestId('stage').locator('g.card').first().waitFor();
    await page.getByRole('button', { name: 'next ▶' }).click();
    await page.getByRole('button', { name: 'next ▶' }).click();
    await expect(last).toHaveText(/"type":"slub-lab:step","lesson":"sc01","step":2,"total":19/, { useInnerText: true });
    await page.getByRole('button', { name: '◀ prev' }).click();
    await expect(last).toHaveText(/"step":1,/, { useInnerText: true });
    await page.getByLabel('goto').fill('17');
    await page.getByRole('button', { name: 'go' }).click();
    await expect(last).toHaveText(/"step":17,/, { useInnerText: true });
    await expect(frame.getByTestId('narration')).toHaveText(/fails/, { useInnerText: true });
    // Messages of another shape are ignored; `to` bounds the embed.
    await page.evaluate(() => {
      const w = /** @type {HTMLIFrameElement} */ (document.getElementById('slide')).contentWindow;
      w?.postMessage({ type: 'slub-lab:command', command: 'goto', step: 'x' }, '*');
      w?.postMessage({ type: 'other', command: 'next' }, '*');
      w?.postMessage('next', '*');
      w?.postMessage({ type: 'slub-lab:command', command: 'goto', step: 99 }, '*');
    });
    await expect(last).toHaveText(/"step":19,/, { useInnerText: true });
    await page.getByRole('button', { name: 'play' }).click();
    await page.getByRole('button', { name: 'pause' }).click();
    await shot(page, 'embed-example');
    // The embed on its own, with minimal controls.
    await page.goto(`${url}embed.html#/play?s=sc01&m=${SC1_FAIL}&at=3&from=2&to=10&controls=minimal`);
    const pos = page.getByTestId('position');
    await expect(pos).toHaveText(/^move 3 of 10/, { useInnerText: true });
    await page.getByRole('button', { name: /back/i }).click();
    await expect(pos).toHaveText(/^move 2 of 10/, { useInnerText: true });
    await expect(page.getByRole('button', { name: /back/i }), 'back goes below from=2').toBeDisabled();
    await axe(page, 'embed');
  });
  test('the stage fits a slide, a phone and the dark theme', async ({ page, url, axe }) => {
    await openPlayer(page, `${url}#/play?s=sc11&m=B,B,B,B,B,B&at=6`);
    await shot(page, 'slide-1280x720');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'the page scrolls sideways at 1280').toBeLessThanOrEqual(1);
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(300);
    await shot(page, 'phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'the page scrolls sideways on a phone').toBeLessThanOrEqual(1);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize(SLIDE);
    await page.goto(`${url}#/play?s=sc08&m=B,B,B,B,B,B,B,B,C,C,C,C,C,C,C,C&at=16`);
    await page.getByTestId('stage').locator('g.card').first().waitFor();
    await shot(page, 'dark');
    await axe(page, 'dark playground');
  });
  test.describe(() => {
    test.use({ reducedMotion: 'reduce' });
    test('with reduced motion the stage changes without tweens', async ({ page, url }) => {
      await openPlayer(page, `${url}#/play?s=sc01`);
      await page.getByRole('button', { name: /step forward/i }).click();
      // No transition is scheduled: the chips are at their places at once.
      const moving = await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="stage"] g')].some((g) => '__transition' in g && g.__transition !== undefined && Object.keys(g.__transition).length > 0),
      );
      expect(moving, 'a tween runs under prefers-reduced-motion').toBe(false);
    });
  });
  test('a learner opens the lab, watches the seed comparisons run, reads a chart beside the published numbers and opens a run in the stepper', async ({ page, url, axe }) => {
    const t0 = Date.now();
    await page.goto(`${url}#/lab`);
    await page.getByRole('heading', { level: 1, name: /benchmarks/i }).waitFor();
    // The words come first; the cards with the lab's model (its own wasm).
    await page.locator('article.lab-case').first().waitFor();
    const total = await page.locator('article.lab-case').count();
    expect(total, `only ${total} seed cases on the page`).toBeGreaterThanOrEqual(2);
    const progress = page.getByTestId('lab-progress');
    await expect(progress, 'the progress is not a polite live region').toHaveAttribute('aria-live', 'polite');
    // Results come one at a time: wait for two, while the others still run.
    await expect.poll(async () => (await labCards(page, 'done')) >= 2, { message: 'two comparisons to finish' }).toBe(true);
    const firstTwoMs = Date.now() - t0;
    if ((await labCards(page, 'done')) === total) console.log('    (every case finished before two were seen)');
    else await expect(progress).toHaveText(new RegExp(`^(Running \\d+ of ${total}: seed case \\S+|Running \\d+–\\d+ of ${total}: seed cases \\S+ and \\S+)…$`), { useInnerText: true });
    const card = page.locator('article.lab-case[data-state="done"]').first();
    await card.scrollIntoViewIfNeeded(); // a card off screen has no innerText (content-visibility)
    const id = (await card.locator('h3 .case-id').innerText()).trim();
    // The chart: the published and the model's bars, the ratio as numbers, the verdicts in words.
    const chart = page.getByTestId(`chart-${id}`);
    const label = (await chart.getAttribute('aria-label')) ?? '';
    expect(label, `chart label: ${label}`).toMatch(/^Published: after ÷ before is \d\.\d{3} .* Model: \d\.\d{3} /);
    const widths = await chart.locator('g.row rect.bar').evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('width'))));
    expect(widths, 'two bars').toHaveLength(2);
    for (const w of widths) expect(w, `bars: ${JSON.stringify(widths)}`).toBeGreaterThan(0);
    expect((await chart.locator('g.row .value').allTextContents()).filter((t) => /%$/.test(t)).length, 'the bars are not labelled in %').toBe(2);
    await expect(card.getByTestId('published')).toHaveText(/→ .* ×\d\.\d{3}$/, { useInnerText: true });
    await expect(card.getByTestId('model')).toHaveText(/^[\d.,]+ → [\d.,]+ .*cycles.* ×\d\.\d{3}$/, { useInnerText: true });
    await expect(card.getByTestId('sign')).toHaveText(/^[✓✗] (Same direction as the seed|Not the seed’s direction)/, { useInnerText: true });
    await expect(card.getByTestId('tolerance')).toHaveText(/^[✓✗] (Within|Outside) ±25 %/, { useInnerText: true });
    await expect(page.getByTestId(`summary-${id}`)).toHaveText(/[+−]\d+\.\d %.*[+−]\d+\.\d %/, { useInnerText: true });
    // Every case, then the time they took.
    await expect
      .poll(async () => (await labCards(page, 'done')) + (await labCards(page, 'failed')), { message: 'the comparisons did not all finish in a minute', timeout: LAB_ALL_MS })
      .toBe(total);
    if ((await labCards(page, 'failed')) > 0) throw new Error(`failed: ${await page.locator('article.lab-case[data-state="failed"]').first().innerText()}`);
    await expect(progress).toHaveText(new RegExp(`^All ${total} comparisons ran in [\\d.]+ s\\.$`), { useInnerText: true });
    console.log(`    ${await progress.innerText()} (first two in ${(firstTwoMs / 1000).toFixed(1)} s after opening)`);
    // A case the model cannot match says so and why.
    const mismatches = page.getByTestId('mismatch');
    // (Scrolled to, as a reader would: a card far off screen is not rendered yet, content-visibility.)
    if ((await mismatches.count()) > 0) {
      await mismatches.first().scrollIntoViewIfNeeded();
      await expect(mismatches.first()).toHaveText(/Where the model cannot match\. \S/, { useInnerText: true });
    }
    await page.waitForTimeout(500); // the last bar's tween
    await shot(page, 'lab-desktop');
    await page.screenshot({ path: outputPath('e2e-lab-desktop-full.png'), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'the lab scrolls sideways at 1280').toBeLessThanOrEqual(1);
    await axe(page, 'lab');
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(300);
    await page.screenshot({ path: outputPath('e2e-lab-phone-full.png'), fullPage: true });
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'lab-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'the lab scrolls sideways on a phone').toBeLessThanOrEqual(1);
    await page.setViewportSize(SLIDE);
    // The summary's case button takes the keyboard to its card.
    await page.getByTestId(`summary-${id}`).getByRole('button').press('Enter');
    await expect.poll(async () => page.evaluate((h) => document.activeElement?.id === h, `lab-case-${id}`), { message: 'the card heading to get the focus' }).toBe(true);
    // Open the "after" side in the stepper: the playground loads that scenario and steps.
    await card.getByTestId('open-after').click();
    await page.getByTestId('stage').locator('g.card').first().waitFor();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(`seed ${id} \\(after\\)`), { useInnerText: true });
    await expect(page.getByTestId('position')).toHaveText(/^move 0 of 0\b/, { useInnerText: true });
    await expect.poll(async () => page.evaluate(() => window.scrollY === 0), { message: 'the playground to show from its top' }).toBe(true);
    await page.getByRole('button', { name: /step forward/i }).click();
    await expect(page.getByTestId('position')).toHaveText(/^move 1 of 1\b/, { useInnerText: true });
    await shot(page, 'lab-stepper');
    // Back to the lab: the results were kept for the session.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: /benchmarks/i }).waitFor();
    await page.locator('article.lab-case').first().waitFor();
    expect(await labCards(page, 'done'), 'the lab ran its cases again instead of keeping them').toBe(total);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(100);
    await shot(page, 'lab-dark');
    await axe(page, 'lab, dark');
  });
  test.describe(() => {
    test.use({ reducedMotion: 'reduce' });
    test('with reduced motion the lab draws its bars without tweens', async ({ page, url }) => {
      await page.goto(`${url}#/lab`);
      await expect.poll(async () => (await labCards(page, 'done')) >= 1, { message: 'a comparison to finish' }).toBe(true);
      const moving = await page.evaluate(() =>
        [...document.querySelectorAll('.ratio-chart *')].some((el) => '__transition' in el && el.__transition !== undefined && Object.keys(el.__transition).length > 0),
      );
      expect(moving, 'a tween runs under prefers-reduced-motion').toBe(false);
    });
  });
  test("a learner steps SC18's first SLAB allocation by keyboard: the lockless check, the array_cache refilled by a grown slab, the node's lists", async ({ page, url, axe }) => {
    await openPlayer(page, `${url}#/play?s=sc18`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/SC18 SLAB/, { useInnerText: true });
    await expect(page.getByTestId('cache-chip')).toHaveText(/^SLAB · .*array limit 4, batch 2 · grow lockless/, { useInnerText: true });
    const position = page.getByTestId('position');
    const narration = page.getByTestId('narration');
    const body = page.locator('body');
    // Under SLAB: an array_cache per CPU, and none of SLUB's kmem_cache_cpu fields.
    const cpu0 = await cardText(page, 'cpu:0');
    expect(cpu0, `CPU 0 shows no empty array_cache: ${cpu0}`).toMatch(/array_cache \| avail 0\/4 · touched 0/);
    expect(`| ${cpu0} |`, `SLUB fields on a SLAB CPU card: ${cpu0}`).not.toMatch(/\| (tid|freelist|partial) \|/);
    // The variant panel offers only what SLAB reads.
    await expect(page.getByLabel('slabGrow', { exact: true }), 'no slabGrow toggle').toHaveCount(1);
    await expect(page.getByLabel('fastpath', { exact: true }), 'a SLUB toggle under SLAB').toHaveCount(0);
    // A: irqs off, the array is empty (a miss), then the v4.7 decision without list_lock.
    for (let i = 1; i <= 3; i++) {
    await body.press('ArrowRight');
    await expect(position).toHaveText(new RegExp(`^move ${i} of ${i}\\b`), { useInnerText: true });
    }
    await expect(narration).toHaveText(/^cache_alloc_refill:RF2 Lockless check \(v4\.7\): .*free_objects = 0.*without list_lock/, { useInnerText: true });
    await expect(page.getByTestId('listing')).toHaveText(/cache_alloc_refill/, { useInnerText: true });
    // Grow, take two objects from the private slab onto the array, then take list_lock to link
    // the slab: mid-refill, the array holds them and the slab is on no list yet.
    for (let i = 4; i <= 9; i++) {
    await body.press('ArrowRight');
    await expect(position).toHaveText(new RegExp(`^move ${i} of ${i}\\b`), { useInnerText: true });
    }
    await expect(narration).toHaveText(/cache_grow_end.*list_lock/, { useInnerText: true });
    await expect.poll(async () => /avail 2\/4/.test(await cardText(page, 'cpu:0')), { message: "the refilled array's avail" }).toBe(true);
    const stage = page.getByTestId('stage');
    // Each object in the array is drawn twice: in its slab's grid and in the stack.
    for (const o of ['p0', 'p1']) {
    const n = await stage.locator(`g.chip[data-object="${o}"]`).count();
    expect(n, `${o} is drawn ${n} times, not in its slab and in CPU 0's array`).toBe(2);
    }
    const cpu = await cardText(page, 'cpu:0');
    expect(cpu, `the stack lacks its top, batch or slots: ${cpu}`).toMatch(/◀ top/);
    expect(cpu, `the stack lacks its top, batch or slots: ${cpu}`).toMatch(/batchcount 2/);
    expect(cpu, `the stack lacks its top, batch or slots: ${cpu}`).toMatch(/\[3\]/);
    const node = await cardText(page, 'node:0');
    for (const want of ['slabs_partial', 'slabs_full', 'slabs_free', 'free_objects 0 / free_limit', 'shared', 'list_lock', 'held by ● A (CPU 0)']) {
    expect(node, `the node card lacks ${JSON.stringify(want)}: ${node}`).toContain(want);
    }
    expect(await cardText(page, 'slab:P'), 'slab P is not shown private').toMatch(/private \(being set up\)/);
    await expect(page.getByTestId('stage'), 'the description').toHaveAttribute('aria-label', /CPU 0: array_cache avail 2 of limit 4/);
    await page.waitForTimeout(400); // the tween
    await shot(page, 'slab-mid-refill');
    await axe(page, 'SLAB playground');
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(300);
    // The whole stage, one column: both CPUs' stacks, the slab, the node's lists and shared array.
    await page.getByTestId('stage').screenshot({ path: outputPath('e2e-slab-mid-refill-phone.png') });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'the SLAB page scrolls sideways on a phone').toBeLessThanOrEqual(1);
    await page.setViewportSize(SLIDE);
    // Link the slab, pop the top, irqs back on: the first allocation returns p1 to a.
    for (let i = 10; i <= 13; i++) {
    await body.press('ArrowRight');
    await expect(position).toHaveText(new RegExp(`^move ${i} of ${i}\\b`), { useInnerText: true });
    }
    await expect(narration).toHaveText(/returns p1/, { useInnerText: true });
    await expect(page.getByRole('region', { name: 'Variables' })).toHaveText(/a = p1/, { useInnerText: true });
    await expect.poll(async () => /slabs_partial \| P\b/.test(await cardText(page, 'node:0')) || (await stage.locator('g.ref[data-slab="P"]').count()) === 1, { message: 'P on a node list' }).toBe(true);
    await expect.poll(async () => /avail 1\/4/.test(await cardText(page, 'cpu:0')), { message: 'one object left in the array' }).toBe(true);
  });
});
