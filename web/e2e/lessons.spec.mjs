// End-to-end user stories of the lesson pages (index, reader, lesson embed, slide deck), under
// the rules of fixtures.mjs (any console error fails; axe must find nothing serious or
// critical; screenshots go to test-results/e2e/).
import { smallestText } from './legibility.mjs';
import { expect, shot, test } from './fixtures.mjs';

/** @typedef {import('@playwright/test').Page} Page */
/** @typedef {import('@playwright/test').Locator} Locator */

/** Follow a link inside the app (a hash change, as a click on a link does). */
async function goHash(/** @type {Page} */ page, /** @type {string} */ hash) {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, hash);
}

/** Wait for the reader at `id`, step `n`, with its stage drawn; an error screen fails. */
async function reader(/** @type {Page} */ page, /** @type {string} */ id, /** @type {number} */ n) {
  const main = page.locator(`main.lesson-reader[data-lesson="${id}"][data-step="${n}"]`);
  const crash = page.locator('.crash, .link-error');
  await main.or(crash).first().waitFor();
  if (await crash.isVisible()) throw new Error(`${id} step ${n}: ${await crash.innerText()}`);
  await main.getByTestId('stage').locator('g.card').first().waitFor();
  return main;
}

/** The lessons the index lists: id and number of steps. */
async function listed(/** @type {Page} */ page) {
  const cards = page.locator('li.lesson-card');
  await cards.first().waitFor();
  return cards.evaluateAll((els) => els.map((el) => ({ id: el.getAttribute('data-lesson') ?? '', steps: Number(el.getAttribute('data-steps')) })));
}

test.describe('the lessons: index, reader, lesson embed and deck', () => {
  test('a learner opens every lesson at its first and its last step', async ({ page, url }) => {
    await page.goto(`${url}#/lessons`);
    const lessons = await listed(page);
    expect(lessons.length, `the index lists ${lessons.length} lessons`).toBeGreaterThanOrEqual(12);
    for (const { id, steps } of lessons) {
      for (const n of [1, steps]) {
        await goHash(page, `#/lessons/${id}/${n}`);
        const main = await reader(page, id, n);
        await expect(main.getByTestId('step-position')).toHaveText(new RegExp(`^Step ${n} of ${steps}$`), { useInnerText: true });
        await expect(main.getByTestId('step-narration')).toHaveText(/\S/, { useInnerText: true });
      }
      // The last step says what to try, opens the playground, and leads on; the frame of the
      // course is there: era badge and crux at the top, takeaways, exercises and sources.
      const main = page.locator('main.lesson-reader');
      await expect(main.getByTestId('try-it'), `${id}: no "try it yourself" on the last step`).toHaveCount(1);
      await main.getByTestId('lesson-end').waitFor();
      await expect(main.getByTestId('era-badge')).toHaveText(/^Linux \d/, { useInnerText: true });
      await expect(main.getByTestId('crux')).toHaveText(/The idea: \S.{19}/, { useInnerText: true });
      const takeaways = await main.getByTestId('takeaways').locator('li').count();
      const written = await main.locator('[data-testid="exercises"] li[data-kind="written"]').count();
      const model = await main.locator('[data-testid="exercises"] li[data-kind="model"]').count();
      const sources = await main.getByTestId('sources').locator('li').count();
      expect(takeaways, `${id}: ${takeaways} takeaways, ${written} written and ${model} model-checked exercises, ${sources} sources`).toBeGreaterThanOrEqual(2);
      expect(written, `${id}: ${takeaways} takeaways, ${written} written and ${model} model-checked exercises, ${sources} sources`).toBeGreaterThanOrEqual(1);
      expect(model, `${id}: ${takeaways} takeaways, ${written} written and ${model} model-checked exercises, ${sources} sources`).toBeGreaterThanOrEqual(1);
      expect(sources, `${id}: ${takeaways} takeaways, ${written} written and ${model} model-checked exercises, ${sources} sources`).toBeGreaterThanOrEqual(1);
    }
    // Lesson 0 and the synthesis are in the index.
    expect(lessons.map((l) => l.id)).toEqual(expect.arrayContaining(['why-slab-caches', 'queues-again']));
  });
  test('a learner meets a what-if on the stage, paces the moves, and looks words up', async ({ page, url, axe }) => {
    // The ABA lesson's tid step shows the run with the real compare-and-swap: the failed CAS,
    // no violation.
    await page.goto(`${url}#/lessons/aba-without-tid/9`);
    const main = await reader(page, 'aba-without-tid', 9);
    await expect(main.getByTestId('what-if')).toHaveText(/What if.*fastpath = tid-loop/, { useInnerText: true });
    const stats = main.locator('[data-panel="stats"]');
    await expect.poll(async () => /CMPXCHG_DOUBLE_CPU_FAIL\D*1/.test((await stats.innerText()) ?? ''), { message: 'the failed compare-and-swap counted' }).toBe(true);
    await expect(main.locator('[data-panel="violations"]')).toHaveText(/None\./, { useInnerText: true });
    await shot(page, 'lesson-what-if');
    // The speed is remembered across lessons; a multi-move step takes one move per press.
    await goHash(page, '#/lessons/interrupt-retry/2');
    const two = await reader(page, 'interrupt-retry', 2);
    await two.getByTestId('speed').getByText('0.5×').click();
    await two.getByTestId('one-move').click();
    await expect(two.getByTestId('step-moves')).toHaveText(/move 1 of \d+/, { useInnerText: true });
    // Held mid-step, the reader says what this move did (the model's narration of it) and
    // that the step's own text describes the step's end.
    await expect(two.getByTestId('move-narration')).toHaveText(/Move 1 of \d+: \S.*describes the end of this step/, { useInnerText: true });
    const first = await two.getByTestId('move-narration').innerText();
    await two.getByTestId('one-move').click();
    await expect(two.getByTestId('step-moves')).toHaveText(/move 2 of \d+/, { useInnerText: true });
    await expect(two.getByTestId('move-narration')).toHaveText(/Move 2 of \d+: \S/, { useInnerText: true });
    expect(await two.getByTestId('move-narration').innerText(), 'the move narration did not follow the move').not.toBe(first);
    await page.reload();
    const again = await reader(page, 'interrupt-retry', 2);
    const chosen = await again.getByTestId('speed').locator('.chosen').innerText();
    expect(chosen, `the speed was not remembered: ${chosen}`).toMatch(/0\.5×/);
    // After a click on a speed, → turns the step and leaves the speed.
    await again.getByTestId('speed').getByText('0.5×').click();
    await page.keyboard.press('ArrowRight');
    const three = await reader(page, 'interrupt-retry', 3);
    const still = await three.getByTestId('speed').locator('.chosen').innerText();
    expect(still, `→ after a click on a speed changed the speed to ${still}`).toMatch(/0\.5×/);
    // A glossary term links from its first use in a lesson; the glossary and the invariants
    // pages open from the index.
    await goHash(page, '#/lessons/fast-path-and-tid/1');
    const fp = await reader(page, 'fast-path-and-tid', 1);
    const term = fp.locator('[data-testid="step-narration"] a.term').first();
    await term.waitFor();
    await term.click();
    const glossary = page.getByTestId('glossary');
    await glossary.waitFor();
    await glossary.locator('div.current dt').waitFor();
    await axe(page, 'the glossary');
    await shot(page, 'glossary');
    await goHash(page, '#/lessons/invariants');
    const invariants = page.getByTestId('invariants');
    await invariants.waitFor();
    for (const id of ['INV-1', 'INV-12', 'SLAB-1', 'INV-S1']) await invariants.locator(`tr#inv-${id}`).waitFor();
    await axe(page, 'the invariants');
    await shot(page, 'invariants');
    // A model-checked exercise opens the playground with its goal.
    await goHash(page, '#/lessons/aba-without-tid/10');
    const last = await reader(page, 'aba-without-tid', 10);
    await last.getByTestId('exercise-1').click();
    await expect(page.getByTestId('goal')).toHaveText(/exercise 1/, { useInnerText: true });
  });
  test('a learner answers a prediction, is told right or wrong, and watches the step play', async ({ page, url, axe }) => {
    await page.goto(`${url}#/lessons/interrupt-retry/4`);
    const main = await reader(page, 'interrupt-retry', 4);
    const stage = main.getByTestId('stage');
    // Asked before the step's moves: the stage is at T's compare-and-swap, not past it.
    expect((await stage.locator('g.layer-strip').textContent()) ?? '', 'the stage is already past the step').not.toMatch(/FAILS/);
    await expect(main.getByTestId('step-narration')).toHaveText(/Answer the question/, { useInnerText: true });
    const look = main.getByTestId('look-at');
    await expect(look).toHaveText(/code slab_alloc, line A9: /, { useInnerText: true });
    await expect(look).toHaveText(/CPU 0 · tid: 14/, { useInnerText: true });
    await expect(main.locator('[data-testid="listing"] li[data-look]'), 'the code line A9 is not marked in the listing').toHaveCount(1);
    expect(await stage.locator('g.card[data-look]').count(), 'no card marked on the stage').toBeGreaterThanOrEqual(1);
    const predict = main.getByTestId('predict');
    await predict.getByLabel(/The hardware checks/).check();
    await predict.getByRole('button', { name: 'Check my answer' }).click();
    await expect(main.getByTestId('verdict')).toHaveText(/✗ Not this one\. You chose The hardware checks.*the model says: The interrupt's allocation and free each committed/, { useInnerText: true });
    await main.getByRole('button', { name: 'Ask me again' }).click();
    await predict.getByLabel(/each committed and bumped the tid/).check();
    await predict.getByRole('button', { name: 'Check my answer' }).click();
    await expect(main.getByTestId('verdict')).toHaveText(/✓ Right: The interrupt's allocation and free each committed/, { useInnerText: true });
    await expect(main.getByTestId('step-narration')).toHaveText(/wrote nothing/, { useInnerText: true });
    await expect.poll(async () => /FAILS/.test(await stage.locator('g.layer-strip').textContent() ?? ''), { message: 'the failed compare-and-swap on the stage' }).toBe(true);
    await page.waitForTimeout(400); // the last tween
    await shot(page, 'lesson-step');
    await axe(page, 'lesson reader');
    // The keyboard and the URL: → goes on, ← comes back, the answer is remembered.
    await page.locator('body').press('ArrowRight');
    await reader(page, 'interrupt-retry', 5);
    await expect.poll(async () => page.url().endsWith('#/lessons/interrupt-retry/5'), { message: `the URL to follow (${page.url()})` }).toBe(true);
    await page.locator('body').press('ArrowLeft');
    const again = await reader(page, 'interrupt-retry', 4);
    await expect(again.getByTestId('verdict')).toHaveText(/✓ Right/, { useInnerText: true });
    // Every step is a permalink: a new page opens the same step.
    const other = await page.context().newPage();
    await other.goto(`${url}#/lessons/interrupt-retry/5`);
    await reader(other, 'interrupt-retry', 5);
    await other.close();
  });
  test('a learner tries it in the playground from the last step of a lesson', async ({ page, url }) => {
    await page.goto(`${url}#/lessons`);
    const lessons = await listed(page);
    const first = lessons.find((l) => l.id === 'slab-and-objects');
    expect(first, 'no lesson slab-and-objects').not.toBe(undefined);
    await goHash(page, `#/lessons/slab-and-objects/${first.steps}`);
    const main = await reader(page, 'slab-and-objects', first.steps);
    await main.getByTestId('try-it').click();
    await page.getByRole('button', { name: /step forward/i }).waitFor();
    // `from: here` (the default): the playground holds the lesson's moves, at their end.
    await expect(page.getByTestId('position')).toHaveText(/^move ([1-9]\d*) of \1\b/, { useInnerText: true });
    await page.goBack();
    await reader(page, 'slab-and-objects', first.steps);
  });
  test('a learner plays the scheduler game: the goal on screen, checked by the model, won, and the way back', async ({ page, url, axe }) => {
    await page.goto(`${url}#/lessons`);
    const lessons = await listed(page);
    const two = lessons.find((l) => l.id === 'fast-path-and-tid');
    expect(two, 'no lesson fast-path-and-tid').not.toBe(undefined);
    await goHash(page, `#/lessons/fast-path-and-tid/${two.steps}`);
    const main = await reader(page, 'fast-path-and-tid', two.steps);
    await main.getByTestId('try-it').click();
    const goal = page.getByTestId('goal');
    await goal.waitFor();
    await expect(goal).toHaveText(/compare-and-swap/, { useInnerText: true });
    await expect(page.getByTestId('goal-status')).toHaveText(/Not yet: CMPXCHG_DOUBLE_CPU_FAIL 0 of 1/, { useInnerText: true });
    // T to its compare-and-swap (step by step until the listing's next line is A9), the
    // interrupt to its end in one click, then T's compare-and-swap: it fails, and that wins.
    const position = page.getByTestId('position');
    for (let i = 0; i < 12; i++) {
      const mark = page.locator('span.mark', { hasText: /● T$/ });
      const next = await page.locator('[data-testid="listing"] li.current', { has: mark }).first().getAttribute('data-label');
      if (next === 'slab_alloc:A9') break;
      const before = await position.innerText();
      await page.locator('button[data-move="T"]').click();
      await expect.poll(async () => (await position.innerText()) !== before, { message: 'T to step' }).toBe(true);
    }
    await page.locator('button[data-to-end="I"]').click();
    await expect(position).toHaveText(/^move \d+ of \d+/, { useInnerText: true });
    const before = await position.innerText();
    await page.locator('button[data-move="T"]').click();
    await expect.poll(async () => (await position.innerText()) !== before, { message: 'T to step' }).toBe(true);
    await expect(goal, 'the goal to be reached').toHaveAttribute('data-won', 'true');
    await expect(page.getByTestId('goal-status')).toHaveText(/started over/, { useInnerText: true });
    // The goal stays in the permalink; the way back leads to the lesson step.
    await expect.poll(async () => page.url().includes('goal=fast-path-and-tid/'), { message: `the URL to keep the goal (${page.url()})` }).toBe(true);
    await axe(page, 'playground with a goal reached');
    await page.getByTestId('goal-back').click();
    await reader(page, 'fast-path-and-tid', two.steps);
  });
  test('a learner filters the lessons by topic and by text', async ({ page, url }) => {
    await page.goto(`${url}#/lessons`);
    const all = await listed(page);
    const cards = page.locator('li.lesson-card');
    await page.getByTestId('topic-filter').selectOption('aba');
    const withAba = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-lesson')));
    expect(withAba.length, `topic aba shows ${withAba.length} of ${all.length}`).not.toBe(0);
    expect(withAba.length, `topic aba shows ${withAba.length} of ${all.length}`).toBeLessThan(all.length);
    for (const id of withAba) {
      const topics = await page.locator(`li[data-lesson="${id}"] button.topic`).allTextContents();
      expect(topics, `${id} is shown for aba but has topics ${topics.join(', ')}`).toContain('aba');
    }
    await expect.poll(async () => page.url().endsWith('#/lessons?topic=aba'), { message: `the URL to keep the filter (${page.url()})` }).toBe(true);
    await expect(page.getByTestId('lesson-count')).toHaveText(new RegExp(`^${withAba.length} of ${all.length} lessons shown$`), { useInnerText: true });
    // Text search narrows further; a topic button toggles the topic.
    await page.getByTestId('text-filter').fill('eras');
    await expect.poll(async () => (await cards.count()) === 1, { message: 'one lesson about eras with aba' }).toBe(true);
    await page.getByTestId('text-filter').fill('no such words anywhere');
    await page.getByTestId('no-lesson').waitFor();
    await page.getByRole('button', { name: 'Show all lessons' }).click();
    await expect.poll(async () => (await cards.count()) === all.length, { message: 'every lesson again' }).toBe(true);
    await page.locator('li[data-lesson="remote-frees"] button.topic', { hasText: 'remote-free' }).click();
    await expect.poll(async () => page.url().includes('topic=remote-free'), { message: 'the topic from its button' }).toBe(true);
    // The filtered index is a link.
    await page.goto(`${url}#/lessons?q=prefetch`);
    await expect.poll(async () => (await cards.count()) >= 1 && (await cards.count()) < all.length, { message: 'the search from the link' }).toBe(true);
    await shot(page, 'lesson-index-filtered');
  });
  test("a learner's progress is kept across a reload", async ({ page, url, axe }) => {
    await page.goto(`${url}#/lessons`);
    const lessons = await listed(page);
    const [done, started] = lessons;
    expect(done, 'fewer than two lessons').not.toBe(undefined);
    expect(started, 'fewer than two lessons').not.toBe(undefined);
    for (let n = 1; n <= done.steps; n++) {
      await goHash(page, `#/lessons/${done.id}/${n}`);
      await reader(page, done.id, n);
    }
    await expect(page.getByTestId('lesson-end')).toHaveText(/✓ Lesson completed/, { useInnerText: true });
    for (const n of [1, 2]) {
      await goHash(page, `#/lessons/${started.id}/${n}`);
      await reader(page, started.id, n);
    }
    await goHash(page, '#/lessons');
    await page.reload();
    await expect(page.locator(`li[data-lesson="${done.id}"]`)).toHaveText(/✓ Completed/, { useInnerText: true });
    await expect(page.locator(`li[data-lesson="${started.id}"]`)).toHaveText(new RegExp(`Seen 2 of ${started.steps} steps`), { useInnerText: true });
    await expect(page.getByTestId('overall-progress')).toHaveText(new RegExp(`^1 of ${lessons.length} lessons completed, 1 started$`), { useInnerText: true });
    await shot(page, 'lesson-index');
    await axe(page, 'lesson index');
    await page.locator(`li[data-lesson="${started.id}"]`).getByTestId('continue').click();
    await reader(page, started.id, 3);
    // In the reader the visited steps are marked, in words too.
    await expect(page.getByRole('link', { name: /^Step 1: .*, visited$/ }), 'step 1 is not marked as visited').toHaveCount(1);
  });
  test('a lesson link that cannot be opened says what was wrong', async ({ page, url }) => {
    for (const [hash, pattern] of [
      ['#/lessons/no-such-lesson/1', /the lesson: there is no lesson "no-such-lesson"/],
      ['#/lessons/interrupt-retry/99', /the step: .* has 9 steps, not 99/],
      ['#/lessons/interrupt-retry/two', /the step: "two" is not a step number/],
      ['#/lessons/interrupt-retry/0', /the step: steps are counted from 1/],
    ]) {
      await page.goto(`${url}${hash}`);
      await expect(page.getByTestId('link-error')).toHaveText(pattern, { useInnerText: true });
    }
    await page.goto(`${url}embed.html#/lessons/interrupt-retry/3?controls=sideways`);
    await expect(page.getByTestId('link-error')).toHaveText(/controls/, { useInnerText: true });
  });
  test('an embedded lesson step obeys its bounds and controls', async ({ page, url, axe }) => {
    await page.goto(`${url}embed.html#/lessons/interrupt-retry/3?from=2&to=5&controls=minimal`);
    const pos = page.getByTestId('position');
    await expect(pos).toHaveText(/^Step 3 of 5$/, { useInnerText: true });
    await page.getByTestId('stage').locator('g.card').first().waitFor();
    await expect(page.getByTestId('narration')).toHaveText(/interrupt/, { useInnerText: true });
    await page.getByRole('button', { name: /back/i }).click();
    await expect(pos).toHaveText(/^Step 2 of 5$/, { useInnerText: true });
    await expect(page.getByRole('button', { name: /back/i }), 'back goes below from=2').toBeDisabled();
    await page.locator('body').press('End');
    await expect(pos).toHaveText(/^Step 5 of 5$/, { useInnerText: true });
    await expect(page.getByRole('button', { name: /next/i }), 'next goes beyond to=5').toBeDisabled();
    const open = await page.getByRole('link', { name: 'Open in slub-lab' }).getAttribute('href');
    expect(open, `"Open in slub-lab" goes to ${open}`).toBe('./index.html#/lessons/interrupt-retry/5');
    await axe(page, 'lesson embed');
  });
  test('the slide deck loads and its navigation moves the embedded lessons', async ({ page, url }) => {
    await page.goto(`${url}slides/index.html`);
    // The deck is a whole lecture: at least 15 slides built from lesson steps.
    const lessonSlides = await page.locator('.reveal .slides > section[data-lesson]').count();
    expect(lessonSlides, `the deck has ${lessonSlides} slides from lessons`).toBeGreaterThanOrEqual(15);
    // Only the embeds near the current slide load (reveal.js's lazy loading, data-src).
    await page.waitForFunction(() => window.Reveal?.isReady());
    const loaded = await page.locator('section[data-lesson] iframe[src]').count();
    expect(loaded, `${loaded} embeds loaded on the title slide (reveal.js's viewDistance loads at most 3)`).toBeLessThanOrEqual(3);
    /** The index of a slide among the deck's, by its test id. */
    const indexOf = (/** @type {string} */ id) =>
      page.evaluate((t) => window.Reveal.getHorizontalSlides().findIndex((s) => s.getAttribute('data-testid') === t), id);
    const slide = page.locator('[data-testid="slide-interrupt"]');
    const caption = slide.locator('.embed-status');
    const frame = page.frameLocator('[data-testid="slide-interrupt"] iframe');
    const interrupt = await indexOf('slide-interrupt');
    await page.evaluate((h) => window.Reveal.slide(h, 0, -1), interrupt); // the slide with the embed
    // The embed reports its step with its lesson id (the caption shows the last message).
    await expect(caption, 'the embed to report step 2').toHaveAttribute('data-step', '2');
    await expect(caption).toHaveText(/^lesson interrupt-retry · step 2 of 5$/, { useInnerText: true });
    await page.keyboard.press('ArrowRight'); // its first fragment: step 3
    await expect(caption, 'step 3 after the first fragment').toHaveAttribute('data-step', '3');
    await page.keyboard.press('ArrowRight'); // step 4: the failed compare-and-swap
    await expect(caption, 'step 4 after the second fragment').toHaveAttribute('data-step', '4');
    await expect(frame.getByTestId('position')).toHaveText(/^Step 4 of 5$/, { useInnerText: true });
    await expect(frame.getByTestId('narration')).toHaveText(/wrote nothing/, { useInnerText: true });
    await page.waitForTimeout(600); // the step's move
    await shot(page, 'slides');
    await page.keyboard.press('ArrowLeft'); // the fragment hides: back to step 3
    await expect(caption, 'step 3 after going back').toHaveAttribute('data-step', '3');
    await expect(frame.getByTestId('position')).toHaveText(/^Step 3 of 5$/, { useInnerText: true });
    // Another slide drives its own embed, from its own first step.
    const abaAt = await indexOf('slide-aba');
    await page.evaluate((h) => window.Reveal.slide(h, 0, -1), abaAt);
    const aba = page.locator('[data-testid="slide-aba"] .embed-status');
    await expect(aba, 'the ABA embed at step 3').toHaveAttribute('data-step', '3');
    await page.keyboard.press('ArrowRight');
    await expect(aba, 'the ABA embed at step 4').toHaveAttribute('data-step', '4');
    await expect(page.frameLocator('[data-testid="slide-aba"] iframe').getByTestId('position')).toHaveText(/^Step 4 of 8$/, { useInnerText: true });
    // A click inside the embed, then the presenter's clicker: the key goes to the deck.
    const inside = page.frameLocator('[data-testid="slide-aba"] iframe');
    await inside.locator('main').click({ position: { x: 5, y: 5 } });
    await inside.locator('body').press('PageDown');
    await expect(aba, 'PageDown inside the embed to move the deck (step 5)').toHaveAttribute('data-step', '5');
    await inside.locator('body').press('ArrowLeft');
    await expect(aba, 'ArrowLeft inside the embed to move the deck back').toHaveAttribute('data-step', '4');
    // Space and n, which the title slide promises, move the deck from inside the embed too;
    // the embed itself does not play (keys=deck).
    await inside.locator('body').press(' ');
    await expect(aba, 'Space inside the embed to move the deck (step 5)').toHaveAttribute('data-step', '5');
    await inside.locator('body').press('n');
    await expect(aba, 'n inside the embed to move the deck (step 6)').toHaveAttribute('data-step', '6');
    await inside.locator('body').press('p');
    await expect(aba, 'p inside the embed to move the deck back (step 5)').toHaveAttribute('data-step', '5');
    // s opens reveal.js's speaker view (the notes plugin), from the deck and from the embed.
    const popup = page.waitForEvent('popup');
    await inside.locator('body').press('s');
    const notes = await popup;
    await notes.waitForLoadState();
    await expect.poll(async () => (await notes.title()).includes('Notes') || (await notes.locator('body').innerText()).length > 0, { message: 'the speaker view' }).toBe(true);
    await notes.close();
    // And from the deck itself (its plugin is loaded by then: the second opening).
    const again = page.waitForEvent('popup');
    await page.locator('.reveal .slides > section.present h2').click();
    await page.keyboard.press('s');
    await (await again).close();
    // Every lesson slide was built from one element: its embed asks for the projector density
    // and gives the deck its keys.
    const srcs = await page.locator('section[data-lesson] iframe').evaluateAll((fs) => fs.map((f) => f.getAttribute('src') ?? f.getAttribute('data-src') ?? ''));
    expect(srcs.length, "lesson slides' embeds").toBeGreaterThanOrEqual(3);
    for (const src of srcs) expect(src, "a lesson slide's embed").toMatch(/density=projector.*keys=deck|keys=deck.*density=projector/);
  });
  test.describe(() => {
    test.use({ viewport: { width: 960, height: 540 }, reducedMotion: 'reduce' });
    test("an embed in a 960×540 frame with minimal controls: the controls never cover the step's subject", async ({ page, url }) => {
      for (let step = 1; step <= 8; step++) {
        await page.goto(`${url}embed.html#/lessons/interrupt-retry/${step}?controls=minimal`);
        await page.locator(`main[data-step="${step}"]`).getByTestId('stage').locator('g.card').first().waitFor();
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))));
        const hidden = await page.evaluate(() => {
          const b = document.querySelector('.buttons')?.getBoundingClientRect();
          const bad = [];
          for (const el of document.querySelectorAll('svg [data-look]')) {
            const l = el.getBoundingClientRect();
            const under = b !== undefined && l.bottom > b.top + 1 && l.top < b.bottom && l.right > b.left && l.left < b.right;
            if (under || l.bottom > innerHeight + 1 || l.top < -1) bad.push((el.textContent ?? el.getAttribute('data-look') ?? '').trim().slice(0, 20));
          }
          return bad;
        });
        expect(hidden, `step ${step}: the subject ${hidden.join(', ')} is under the controls or out of the frame`).toHaveLength(0);
        if (step === 5) await shot(page, 'embed-960x540-minimal');
      }
    });
  });
  test.describe(() => {
    test.use({ viewport: { width: 960, height: 540 }, colorScheme: 'dark' });
    test('an embedded lesson step reads from the back of a room: 14 px text in a 960×540 frame, light in a dark OS', async ({ page, url, axe }) => {
      await page.goto(`${url}embed.html#/lessons/aba-without-tid/8?controls=minimal`);
      await page.getByTestId('stage').locator('g.card').first().waitFor();
      const small = await smallestText(page, '[data-testid="stage"]');
      expect(small.px, `stage text ${small.px.toFixed(1)} px ("${small.text}") in a 960×540 frame`).toBeGreaterThanOrEqual(14);
      const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      expect(bg, `the embed is not light by default in a dark OS: ${bg}`).toBe('rgb(255, 255, 255)');
      // The violation this step is about is on the stage itself.
      const strip = page.getByTestId('stage').locator('g.layer-strip');
      await expect.poll(async () => /INV-1 violated/.test((await strip.textContent()) ?? ''), { message: 'the violation on the stage' }).toBe(true);
      await shot(page, 'embed-960x540');
      await page.goto(`${url}embed.html#/lessons/aba-without-tid/8?theme=dark`);
      await page.getByTestId('stage').locator('g.card').first().waitFor();
      const dark = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      expect(dark, 'theme=dark is still white').not.toBe('rgb(255, 255, 255)');
      await axe(page, 'dark lesson embed');
    });
  });
});
