// End-to-end user stories of the lesson pages (index, reader, lesson embed, slide deck), run by
// run.mjs with its helpers and its rules (any console error fails; axe must find nothing
// serious or critical; screenshots go to test-results/).
import { smallestText } from './legibility.mjs';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Locator} Locator */
/**
 * @typedef {object} Helpers
 * @property {(page: Page, where: string) => Promise<void>} axe
 * @property {(locator: Locator, pattern: RegExp) => Promise<void>} expectText
 * @property {(check: () => Promise<boolean>, what: string) => Promise<void>} until
 * @property {(page: Page, name: string) => Promise<unknown>} shot
 */

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

/**
 * @param {Helpers} h
 * @returns {{ name: string, run: (page: Page, url: string) => Promise<void> }[]}
 */
export function lessonTests({ axe, expectText, until, shot }) {
  return [
    {
      name: 'a learner opens every lesson at its first and its last step',
      async run(page, url) {
        await page.goto(`${url}#/lessons`);
        const lessons = await listed(page);
        if (lessons.length < 12) throw new Error(`the index lists ${lessons.length} lessons`);
        for (const { id, steps } of lessons) {
          for (const n of [1, steps]) {
            await goHash(page, `#/lessons/${id}/${n}`);
            const main = await reader(page, id, n);
            await expectText(main.getByTestId('step-position'), new RegExp(`^Step ${n} of ${steps}$`));
            await expectText(main.getByTestId('step-narration'), /\S/);
          }
          // The last step says what to try, opens the playground, and leads on; the frame of the
          // course is there: era badge and crux at the top, takeaways, exercises and sources.
          const main = page.locator('main.lesson-reader');
          if ((await main.getByTestId('try-it').count()) !== 1) throw new Error(`${id}: no "try it yourself" on the last step`);
          await main.getByTestId('lesson-end').waitFor();
          await expectText(main.getByTestId('era-badge'), /^Linux \d/);
          await expectText(main.getByTestId('crux'), /The idea: \S.{19}/);
          const takeaways = await main.getByTestId('takeaways').locator('li').count();
          const written = await main.locator('[data-testid="exercises"] li[data-kind="written"]').count();
          const model = await main.locator('[data-testid="exercises"] li[data-kind="model"]').count();
          const sources = await main.getByTestId('sources').locator('li').count();
          if (takeaways < 2 || written < 1 || model < 1 || sources < 1) {
            throw new Error(`${id}: ${takeaways} takeaways, ${written} written and ${model} model-checked exercises, ${sources} sources`);
          }
        }
        if (!lessons.some((l) => l.id === 'why-slab-caches') || !lessons.some((l) => l.id === 'queues-again')) {
          throw new Error('lesson 0 (why-slab-caches) or the synthesis (queues-again) is missing from the index');
        }
      },
    },
    {
      name: 'a learner meets a what-if on the stage, paces the moves, and looks words up',
      async run(page, url) {
        // The ABA lesson's tid step shows the run with the real compare-and-swap: the failed CAS,
        // no violation.
        await page.goto(`${url}#/lessons/aba-without-tid/9`);
        const main = await reader(page, 'aba-without-tid', 9);
        await expectText(main.getByTestId('what-if'), /What if.*fastpath = tid-loop/);
        const stats = main.locator('[data-panel="stats"]');
        await until(async () => /CMPXCHG_DOUBLE_CPU_FAIL\D*1/.test((await stats.innerText()) ?? ''), 'the failed compare-and-swap counted');
        await expectText(main.locator('[data-panel="violations"]'), /None\./);
        await shot(page, 'lesson-what-if');
        // The speed is remembered across lessons; a multi-move step takes one move per press.
        await goHash(page, '#/lessons/interrupt-retry/2');
        const two = await reader(page, 'interrupt-retry', 2);
        await two.getByTestId('speed').getByText('0.5×').click();
        await two.getByTestId('one-move').click();
        await expectText(two.getByTestId('step-moves'), /move 1 of \d+/);
        // Held mid-step, the reader says what this move did (the model's narration of it) and
        // that the step's own text describes the step's end.
        await expectText(two.getByTestId('move-narration'), /Move 1 of \d+: \S.*describes the end of this step/);
        const first = await two.getByTestId('move-narration').innerText();
        await two.getByTestId('one-move').click();
        await expectText(two.getByTestId('step-moves'), /move 2 of \d+/);
        await expectText(two.getByTestId('move-narration'), /Move 2 of \d+: \S/);
        if ((await two.getByTestId('move-narration').innerText()) === first) throw new Error('the move narration did not follow the move');
        await page.reload();
        const again = await reader(page, 'interrupt-retry', 2);
        const chosen = await again.getByTestId('speed').locator('.chosen').innerText();
        if (!/0\.5×/.test(chosen)) throw new Error(`the speed was not remembered: ${chosen}`);
        // After a click on a speed, → turns the step and leaves the speed.
        await again.getByTestId('speed').getByText('0.5×').click();
        await page.keyboard.press('ArrowRight');
        const three = await reader(page, 'interrupt-retry', 3);
        const still = await three.getByTestId('speed').locator('.chosen').innerText();
        if (!/0\.5×/.test(still)) throw new Error(`→ after a click on a speed changed the speed to ${still}`);
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
        await expectText(page.getByTestId('goal'), /exercise 1/);
      },
    },
    {
      name: 'a learner answers a prediction, is told right or wrong, and watches the step play',
      async run(page, url) {
        await page.goto(`${url}#/lessons/interrupt-retry/4`);
        const main = await reader(page, 'interrupt-retry', 4);
        const stage = main.getByTestId('stage');
        // Asked before the step's moves: the stage is at T's compare-and-swap, not past it.
        if (/FAILS/.test((await stage.locator('g.layer-strip').textContent()) ?? '')) throw new Error('the stage is already past the step');
        await expectText(main.getByTestId('step-narration'), /Answer the question/);
        const look = main.getByTestId('look-at');
        await expectText(look, /code slab_alloc, line A9: /);
        await expectText(look, /CPU 0 · tid: 14/);
        if ((await main.locator('[data-testid="listing"] li[data-look]').count()) !== 1) throw new Error('the code line A9 is not marked in the listing');
        if ((await stage.locator('g.card[data-look]').count()) < 1) throw new Error('no card marked on the stage');
        const predict = main.getByTestId('predict');
        await predict.getByLabel(/The hardware checks/).check();
        await predict.getByRole('button', { name: 'Check my answer' }).click();
        await expectText(main.getByTestId('verdict'), /✗ Not this one\. You chose The hardware checks.*the model says: The interrupt's allocation and free each committed/);
        await main.getByRole('button', { name: 'Ask me again' }).click();
        await predict.getByLabel(/each committed and bumped the tid/).check();
        await predict.getByRole('button', { name: 'Check my answer' }).click();
        await expectText(main.getByTestId('verdict'), /✓ Right: The interrupt's allocation and free each committed/);
        await expectText(main.getByTestId('step-narration'), /wrote nothing/);
        await until(async () => /FAILS/.test(await stage.locator('g.layer-strip').textContent() ?? ''), 'the failed compare-and-swap on the stage');
        await page.waitForTimeout(400); // the last tween
        await shot(page, 'lesson-step');
        await axe(page, 'lesson reader');
        // The keyboard and the URL: → goes on, ← comes back, the answer is remembered.
        await page.locator('body').press('ArrowRight');
        await reader(page, 'interrupt-retry', 5);
        await until(async () => page.url().endsWith('#/lessons/interrupt-retry/5'), `the URL to follow (${page.url()})`);
        await page.locator('body').press('ArrowLeft');
        const again = await reader(page, 'interrupt-retry', 4);
        await expectText(again.getByTestId('verdict'), /✓ Right/);
        // Every step is a permalink: a new page opens the same step.
        const other = await page.context().newPage();
        await other.goto(`${url}#/lessons/interrupt-retry/5`);
        await reader(other, 'interrupt-retry', 5);
        await other.close();
      },
    },
    {
      name: 'a learner tries it in the playground from the last step of a lesson',
      async run(page, url) {
        await page.goto(`${url}#/lessons`);
        const lessons = await listed(page);
        const first = lessons.find((l) => l.id === 'slab-and-objects');
        if (first === undefined) throw new Error('no lesson slab-and-objects');
        await goHash(page, `#/lessons/slab-and-objects/${first.steps}`);
        const main = await reader(page, 'slab-and-objects', first.steps);
        await main.getByTestId('try-it').click();
        await page.getByRole('button', { name: /step forward/i }).waitFor();
        // `from: here` (the default): the playground holds the lesson's moves, at their end.
        await expectText(page.getByTestId('position'), /^move ([1-9]\d*) of \1\b/);
        await page.goBack();
        await reader(page, 'slab-and-objects', first.steps);
      },
    },
    {
      name: 'a learner plays the scheduler game: the goal on screen, checked by the model, won, and the way back',
      async run(page, url) {
        await page.goto(`${url}#/lessons`);
        const lessons = await listed(page);
        const two = lessons.find((l) => l.id === 'fast-path-and-tid');
        if (two === undefined) throw new Error('no lesson fast-path-and-tid');
        await goHash(page, `#/lessons/fast-path-and-tid/${two.steps}`);
        const main = await reader(page, 'fast-path-and-tid', two.steps);
        await main.getByTestId('try-it').click();
        const goal = page.getByTestId('goal');
        await goal.waitFor();
        await expectText(goal, /compare-and-swap/);
        await expectText(page.getByTestId('goal-status'), /Not yet: CMPXCHG_DOUBLE_CPU_FAIL 0 of 1/);
        // T to its compare-and-swap (step by step until the listing's next line is A9), the
        // interrupt to its end in one click, then T's compare-and-swap: it fails, and that wins.
        const position = page.getByTestId('position');
        for (let i = 0; i < 12; i++) {
          const mark = page.locator('span.mark', { hasText: /● T$/ });
          const next = await page.locator('[data-testid="listing"] li.current', { has: mark }).first().getAttribute('data-label');
          if (next === 'slab_alloc:A9') break;
          const before = await position.innerText();
          await page.locator('button[data-move="T"]').click();
          await until(async () => (await position.innerText()) !== before, 'T to step');
        }
        await page.locator('button[data-to-end="I"]').click();
        await expectText(position, /^move \d+ of \d+/);
        const before = await position.innerText();
        await page.locator('button[data-move="T"]').click();
        await until(async () => (await position.innerText()) !== before, 'T to step');
        await until(async () => (await goal.getAttribute('data-won')) === 'true', 'the goal to be reached');
        await expectText(page.getByTestId('goal-status'), /started over/);
        // The goal stays in the permalink; the way back leads to the lesson step.
        await until(async () => page.url().includes('goal=fast-path-and-tid/'), `the URL to keep the goal (${page.url()})`);
        await axe(page, 'playground with a goal reached');
        await page.getByTestId('goal-back').click();
        await reader(page, 'fast-path-and-tid', two.steps);
      },
    },
    {
      name: 'a learner filters the lessons by topic and by text',
      async run(page, url) {
        await page.goto(`${url}#/lessons`);
        const all = await listed(page);
        const cards = page.locator('li.lesson-card');
        await page.getByTestId('topic-filter').selectOption('aba');
        const withAba = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-lesson')));
        if (withAba.length === 0 || withAba.length >= all.length) throw new Error(`topic aba shows ${withAba.length} of ${all.length}`);
        for (const id of withAba) {
          const topics = await page.locator(`li[data-lesson="${id}"] button.topic`).allTextContents();
          if (!topics.includes('aba')) throw new Error(`${id} is shown for aba but has topics ${topics.join(', ')}`);
        }
        await until(async () => page.url().endsWith('#/lessons?topic=aba'), `the URL to keep the filter (${page.url()})`);
        await expectText(page.getByTestId('lesson-count'), new RegExp(`^${withAba.length} of ${all.length} lessons shown$`));
        // Text search narrows further; a topic button toggles the topic.
        await page.getByTestId('text-filter').fill('eras');
        await until(async () => (await cards.count()) === 1, 'one lesson about eras with aba');
        await page.getByTestId('text-filter').fill('no such words anywhere');
        await page.getByTestId('no-lesson').waitFor();
        await page.getByRole('button', { name: 'Show all lessons' }).click();
        await until(async () => (await cards.count()) === all.length, 'every lesson again');
        await page.locator('li[data-lesson="remote-frees"] button.topic', { hasText: 'remote-free' }).click();
        await until(async () => page.url().includes('topic=remote-free'), 'the topic from its button');
        // The filtered index is a link.
        await page.goto(`${url}#/lessons?q=prefetch`);
        await until(async () => (await cards.count()) >= 1 && (await cards.count()) < all.length, 'the search from the link');
        await shot(page, 'lesson-index-filtered');
      },
    },
    {
      name: "a learner's progress is kept across a reload",
      async run(page, url) {
        await page.goto(`${url}#/lessons`);
        const lessons = await listed(page);
        const [done, started] = lessons;
        if (done === undefined || started === undefined) throw new Error('fewer than two lessons');
        for (let n = 1; n <= done.steps; n++) {
          await goHash(page, `#/lessons/${done.id}/${n}`);
          await reader(page, done.id, n);
        }
        await expectText(page.getByTestId('lesson-end'), /✓ Lesson completed/);
        for (const n of [1, 2]) {
          await goHash(page, `#/lessons/${started.id}/${n}`);
          await reader(page, started.id, n);
        }
        await goHash(page, '#/lessons');
        await page.reload();
        await expectText(page.locator(`li[data-lesson="${done.id}"]`), /✓ Completed/);
        await expectText(page.locator(`li[data-lesson="${started.id}"]`), new RegExp(`Seen 2 of ${started.steps} steps`));
        await expectText(page.getByTestId('overall-progress'), new RegExp(`^1 of ${lessons.length} lessons completed, 1 started$`));
        await shot(page, 'lesson-index');
        await axe(page, 'lesson index');
        await page.locator(`li[data-lesson="${started.id}"]`).getByTestId('continue').click();
        await reader(page, started.id, 3);
        // In the reader the visited steps are marked, in words too.
        if ((await page.getByRole('link', { name: /^Step 1: .*, visited$/ }).count()) !== 1) throw new Error('step 1 is not marked as visited');
      },
    },
    {
      name: 'a lesson link that cannot be opened says what was wrong',
      async run(page, url) {
        for (const [hash, pattern] of [
          ['#/lessons/no-such-lesson/1', /the lesson: there is no lesson "no-such-lesson"/],
          ['#/lessons/interrupt-retry/99', /the step: .* has 9 steps, not 99/],
          ['#/lessons/interrupt-retry/two', /the step: "two" is not a step number/],
          ['#/lessons/interrupt-retry/0', /the step: steps are counted from 1/],
        ]) {
          await page.goto(`${url}${hash}`);
          await expectText(page.getByTestId('link-error'), pattern);
        }
        await page.goto(`${url}embed.html#/lessons/interrupt-retry/3?controls=sideways`);
        await expectText(page.getByTestId('link-error'), /controls/);
      },
    },
    {
      name: 'an embedded lesson step obeys its bounds and controls',
      async run(page, url) {
        await page.goto(`${url}embed.html#/lessons/interrupt-retry/3?from=2&to=5&controls=minimal`);
        const pos = page.getByTestId('position');
        await expectText(pos, /^Step 3 of 5$/);
        await page.getByTestId('stage').locator('g.card').first().waitFor();
        await expectText(page.getByTestId('narration'), /interrupt/);
        await page.getByRole('button', { name: /back/i }).click();
        await expectText(pos, /^Step 2 of 5$/);
        if (!(await page.getByRole('button', { name: /back/i }).isDisabled())) throw new Error('back goes below from=2');
        await page.locator('body').press('End');
        await expectText(pos, /^Step 5 of 5$/);
        if (!(await page.getByRole('button', { name: /next/i }).isDisabled())) throw new Error('next goes beyond to=5');
        const open = await page.getByRole('link', { name: 'Open in slub-lab' }).getAttribute('href');
        if (open !== './index.html#/lessons/interrupt-retry/5') throw new Error(`"Open in slub-lab" goes to ${open}`);
        await axe(page, 'lesson embed');
      },
    },
    {
      name: 'the slide deck loads and its navigation moves the embedded lessons',
      async run(page, url) {
        await page.goto(`${url}slides/index.html`);
        // The deck is a whole lecture: at least 15 slides built from lesson steps.
        const lessonSlides = await page.locator('.reveal .slides > section[data-lesson]').count();
        if (lessonSlides < 15) throw new Error(`the deck has ${lessonSlides} slides from lessons`);
        // Only the embeds near the current slide load (reveal.js's lazy loading, data-src).
        await page.waitForFunction(() => window.Reveal?.isReady());
        const loaded = await page.locator('section[data-lesson] iframe[src]').count();
        if (loaded > 3) throw new Error(`${loaded} embeds loaded on the title slide (reveal.js's viewDistance loads at most 3)`);
        /** The index of a slide among the deck's, by its test id. */
        const indexOf = (/** @type {string} */ id) =>
          page.evaluate((t) => window.Reveal.getHorizontalSlides().findIndex((s) => s.getAttribute('data-testid') === t), id);
        const slide = page.locator('[data-testid="slide-interrupt"]');
        const caption = slide.locator('.embed-status');
        const frame = page.frameLocator('[data-testid="slide-interrupt"] iframe');
        const interrupt = await indexOf('slide-interrupt');
        await page.evaluate((h) => window.Reveal.slide(h, 0, -1), interrupt); // the slide with the embed
        // The embed reports its step with its lesson id (the caption shows the last message).
        await until(async () => (await caption.getAttribute('data-step')) === '2', 'the embed to report step 2');
        await expectText(caption, /^lesson interrupt-retry · step 2 of 5$/);
        await page.keyboard.press('ArrowRight'); // its first fragment: step 3
        await until(async () => (await caption.getAttribute('data-step')) === '3', 'step 3 after the first fragment');
        await page.keyboard.press('ArrowRight'); // step 4: the failed compare-and-swap
        await until(async () => (await caption.getAttribute('data-step')) === '4', 'step 4 after the second fragment');
        await expectText(frame.getByTestId('position'), /^Step 4 of 5$/);
        await expectText(frame.getByTestId('narration'), /wrote nothing/);
        await page.waitForTimeout(600); // the step's move
        await shot(page, 'slides');
        await page.keyboard.press('ArrowLeft'); // the fragment hides: back to step 3
        await until(async () => (await caption.getAttribute('data-step')) === '3', 'step 3 after going back');
        await expectText(frame.getByTestId('position'), /^Step 3 of 5$/);
        // Another slide drives its own embed, from its own first step.
        const abaAt = await indexOf('slide-aba');
        await page.evaluate((h) => window.Reveal.slide(h, 0, -1), abaAt);
        const aba = page.locator('[data-testid="slide-aba"] .embed-status');
        await until(async () => (await aba.getAttribute('data-step')) === '3', 'the ABA embed at step 3');
        await page.keyboard.press('ArrowRight');
        await until(async () => (await aba.getAttribute('data-step')) === '4', 'the ABA embed at step 4');
        await expectText(page.frameLocator('[data-testid="slide-aba"] iframe').getByTestId('position'), /^Step 4 of 8$/);
        // A click inside the embed, then the presenter's clicker: the key goes to the deck.
        const inside = page.frameLocator('[data-testid="slide-aba"] iframe');
        await inside.locator('main').click({ position: { x: 5, y: 5 } });
        await inside.locator('body').press('PageDown');
        await until(async () => (await aba.getAttribute('data-step')) === '5', 'PageDown inside the embed to move the deck (step 5)');
        await inside.locator('body').press('ArrowLeft');
        await until(async () => (await aba.getAttribute('data-step')) === '4', 'ArrowLeft inside the embed to move the deck back');
        // Space and n, which the title slide promises, move the deck from inside the embed too;
        // the embed itself does not play (keys=deck).
        await inside.locator('body').press(' ');
        await until(async () => (await aba.getAttribute('data-step')) === '5', 'Space inside the embed to move the deck (step 5)');
        await inside.locator('body').press('n');
        await until(async () => (await aba.getAttribute('data-step')) === '6', 'n inside the embed to move the deck (step 6)');
        await inside.locator('body').press('p');
        await until(async () => (await aba.getAttribute('data-step')) === '5', 'p inside the embed to move the deck back (step 5)');
        // s opens reveal.js's speaker view (the notes plugin), from the deck and from the embed.
        const popup = page.waitForEvent('popup');
        await inside.locator('body').press('s');
        const notes = await popup;
        await notes.waitForLoadState();
        await until(async () => (await notes.title()).includes('Notes') || (await notes.locator('body').innerText()).length > 0, 'the speaker view');
        await notes.close();
        // And from the deck itself (its plugin is loaded by then: the second opening).
        const again = page.waitForEvent('popup');
        await page.locator('.reveal .slides > section.present h2').click();
        await page.keyboard.press('s');
        await (await again).close();
        // Every lesson slide was built from one element: its embed asks for the projector density
        // and gives the deck its keys.
        const srcs = await page.locator('section[data-lesson] iframe').evaluateAll((fs) => fs.map((f) => f.getAttribute('src') ?? f.getAttribute('data-src') ?? ''));
        if (srcs.length < 3 || !srcs.every((src) => /density=projector/.test(src) && /keys=deck/.test(src))) throw new Error(`lesson slides' embeds: ${srcs.join(', ')}`);
      },
    },
    {
      name: "an embed in a 960×540 frame with minimal controls: the controls never cover the step's subject",
      viewport: { width: 960, height: 540 },
      reducedMotion: 'reduce',
      async run(page, url) {
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
          if (hidden.length > 0) throw new Error(`step ${step}: the subject ${hidden.join(', ')} is under the controls or out of the frame`);
          if (step === 5) await shot(page, 'embed-960x540-minimal');
        }
      },
    },
    {
      name: 'an embedded lesson step reads from the back of a room: 14 px text in a 960×540 frame, light in a dark OS',
      viewport: { width: 960, height: 540 },
      colorScheme: 'dark',
      async run(page, url) {
        await page.goto(`${url}embed.html#/lessons/aba-without-tid/8?controls=minimal`);
        await page.getByTestId('stage').locator('g.card').first().waitFor();
        const small = await smallestText(page, '[data-testid="stage"]');
        if (small.px < 14) throw new Error(`stage text ${small.px.toFixed(1)} px ("${small.text}") in a 960×540 frame`);
        const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        if (bg !== 'rgb(255, 255, 255)') throw new Error(`the embed is not light by default in a dark OS: ${bg}`);
        // The violation this step is about is on the stage itself.
        const strip = page.getByTestId('stage').locator('g.layer-strip');
        await until(async () => /INV-1 violated/.test((await strip.textContent()) ?? ''), 'the violation on the stage');
        await shot(page, 'embed-960x540');
        await page.goto(`${url}embed.html#/lessons/aba-without-tid/8?theme=dark`);
        await page.getByTestId('stage').locator('g.card').first().waitFor();
        const dark = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        if (dark === 'rgb(255, 255, 255)') throw new Error('theme=dark is still white');
        await axe(page, 'dark lesson embed');
      },
    },
  ];
}
