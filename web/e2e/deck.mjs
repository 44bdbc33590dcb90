// End-to-end stories of the deck on a projector and of steps that play (issue 33 items 1, 2
// and 5), run by run.mjs with its helpers and its rules (any console error fails; screenshots go
// to test-results/).

/** @typedef {import('playwright-core').Page} Page */
/**
 * @typedef {object} Helpers
 * @property {(page: Page, where: string) => Promise<void>} axe
 * @property {(locator: import('playwright-core').Locator, pattern: RegExp) => Promise<void>} expectText
 * @property {(check: () => Promise<boolean>, what: string) => Promise<void>} until
 * @property {(page: Page, name: string) => Promise<unknown>} shot
 */

/**
 * Record, inside the page, every atomic step the stage's strip names from now on (a
 * MutationObserver sees each one the stage draws, however briefly); `read` returns them.
 */
async function recordMoves(/** @type {Page} */ page) {
  await page.evaluate(() => {
    const seen = [];
    window.__moves = seen;
    const note = () => {
      const t = document.querySelector('[data-testid="stage"] g.layer-strip')?.textContent ?? '';
      const m = /atomic step (\d+)/.exec(t);
      if (m && seen[seen.length - 1] !== Number(m[1])) seen.push(Number(m[1]));
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return { read: () => page.evaluate(() => /** @type {number[]} */ (window.__moves)) };
}

/** @param {Helpers} h */
export function deckTests({ until, shot }) {
  return [
    {
      name: "the speaker view's previews show their slide's embed at its step, current and upcoming",
      async run(/** @type {Page} */ page, /** @type {string} */ url) {
        await page.goto(`${url}slides/index.html`);
        await page.waitForFunction(() => window.Reveal?.isReady());
        const at = await page.evaluate(() => window.Reveal.getHorizontalSlides().findIndex((s) => s.getAttribute('data-testid') === 'slide-interrupt'));
        await page.evaluate((h) => window.Reveal.slide(h, 0, -1), at);
        const popup = page.waitForEvent('popup');
        await page.keyboard.press('s');
        const notes = await popup;
        /** The step each preview's shown embed reports (its caption), by the preview's URL. */
        const steps = () =>
          Promise.all(
            notes
              .frames()
              .filter((f) => /[?&]receiver/.test(f.url()))
              .map((f) => f.evaluate(() => document.querySelector('.reveal .slides > section.present .embed-status')?.getAttribute('data-step') ?? null).catch(() => null)),
          );
        // The current slide at its first step (2), the upcoming one at its first fragment's (3).
        await until(async () => (await steps()).sort().join(',') === '2,3', 'both previews to show their step');
        const drawn = await Promise.all(
          notes
            .frames()
            .filter((f) => /embed\.html/.test(f.url()))
            .map((f) => f.locator('[data-testid="stage"] g.card').count()),
        );
        if (drawn.length < 2 || drawn.some((n) => n === 0)) throw new Error(`the previews' stages: ${drawn.join(', ')} cards`);
        await notes.setViewportSize({ width: 1400, height: 900 });
        await shot(notes, 'deck-speaker-view');
        await notes.close();
      },
    },
    {
      name: "the last slide's first fragment moves its embed (lesson 18 step 1, then 2, then 4)",
      async run(/** @type {Page} */ page, /** @type {string} */ url) {
        await page.goto(`${url}slides/index.html`);
        await page.waitForFunction(() => window.Reveal?.isReady());
        const at = await page.evaluate(() => window.Reveal.getHorizontalSlides().findIndex((s) => s.getAttribute('data-testid') === 'slide-arc'));
        const caption = page.locator('[data-testid="slide-arc"] .embed-status');
        /** Every fragment of every lesson slide asks for another step than the one before it. */
        const still = await page.evaluate(() =>
          [...document.querySelectorAll('section[data-lesson]')].flatMap((s) => {
            let step = s.querySelector('iframe[data-start]')?.getAttribute('data-start');
            return [...s.querySelectorAll('.fragment[data-step]')].flatMap((f) => {
              const same = f.getAttribute('data-step') === step;
              step = f.getAttribute('data-step');
              return same ? [`${s.getAttribute('data-testid')} step ${step}`] : [];
            });
          }),
        );
        if (still.length > 0) throw new Error(`fragments that do not move their embed: ${still.join(', ')}`);
        await page.evaluate((h) => window.Reveal.slide(h, 0, -1), at);
        for (const want of ['1', '2', '4']) {
          if (want !== '1') await page.keyboard.press('ArrowRight');
          await until(async () => (await caption.getAttribute('data-step')) === want, `the embed at step ${want}`);
        }
      },
    },
    {
      name: "a long what-if step plays move by move: lesson 04 step 9's 47 moves are each drawn, in order",
      async run(/** @type {Page} */ page, /** @type {string} */ url) {
        await page.goto(`${url}embed.html#/lessons/aba-without-tid/8?controls=minimal`);
        const stage = page.locator('main[data-step="8"]').getByTestId('stage');
        await stage.locator('g.card').first().waitFor();
        const moves = await recordMoves(page);
        await page.getByRole('button', { name: /next/i }).click();
        await page.locator('main[data-step="9"]').waitFor();
        // The walk ends on the run's last move (T's retry succeeds): wait for it to stop.
        let last = -1;
        await until(async () => {
          const seen = await moves.read();
          const done = seen.length > 0 && seen[seen.length - 1] === last;
          last = seen[seen.length - 1] ?? -1;
          if (!done) await page.waitForTimeout(400);
          return done;
        }, 'the walk to end');
        const seen = await moves.read();
        // Every move shown, one after another (a jump shows one or two).
        if (seen.length < 40) throw new Error(`the 47-move step showed ${seen.length} moves: ${seen.join(' ')}`);
        for (let i = 1; i < seen.length; i++) {
          if (seen[i] !== seen[i - 1] + 1) throw new Error(`the walk skipped from move ${seen[i - 1]} to ${seen[i]}: ${seen.join(' ')}`);
        }
      },
    },
    {
      name: 'reduced motion: the same step is drawn at its end at once',
      reducedMotion: 'reduce',
      async run(/** @type {Page} */ page, /** @type {string} */ url) {
        await page.goto(`${url}embed.html#/lessons/aba-without-tid/8?controls=minimal`);
        await page.locator('main[data-step="8"]').getByTestId('stage').locator('g.card').first().waitFor();
        const moves = await recordMoves(page);
        await page.getByRole('button', { name: /next/i }).click();
        await page.locator('main[data-step="9"]').waitFor();
        await page.waitForTimeout(1500);
        const seen = await moves.read();
        if (seen.length > 2) throw new Error(`under reduced motion the step walked ${seen.length} moves`);
      },
    },
  ];
}
