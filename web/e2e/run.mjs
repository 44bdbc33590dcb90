// End-to-end tests in real chromium (playwright-core driving /usr/bin/chromium, installed by
// `node scripts/setup.mjs --browser`). Serves the built app (dist/, from `vite build web`) on a
// free loopback port. Any console error or page error fails the test; screenshots go to
// test-results/.
//
//   node web/e2e/run.mjs
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const results = join(root, 'test-results');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const STEP_TIMEOUT_MS = 10_000;
const RUN_TIMEOUT_MS = 180_000;

/** @typedef {import('playwright-core').Page} Page */

/** Wait for the player; a crash screen or load failure fails with its text. */
async function openPlayer(/** @type {Page} */ page, /** @type {string} */ url) {
  await page.goto(url);
  const forward = page.getByRole('button', { name: /step forward/i });
  const crash = page.locator('.crash');
  await forward.or(crash).first().waitFor();
  if (await crash.isVisible()) throw new Error(`crash screen: ${await crash.innerText()}`);
  return forward;
}

/** The user-visible state of CPU 0 that the fast path changes: its tid and its freelist. */
async function cpu0(/** @type {Page} */ page) {
  const tid = await page.getByTestId('cpu-0-tid').innerText();
  const freelist = await page.getByTestId('cpu-0-freelist').innerText();
  return `tid ${tid} | freelist ${freelist}`;
}

/** @type {{ name: string, run: (page: Page, url: string) => Promise<void> }[]} */
const TESTS = [
  {
    name: 'a learner steps forward through the sample scenario and back again',
    async run(page, url) {
      const forward = await openPlayer(page, url);
      const back = page.getByRole('button', { name: /step back/i });
      const position = page.getByTestId('position');
      const before = await cpu0(page);
      const narrationBefore = await page.getByTestId('narration').innerText();
      if (!(await back.isDisabled())) throw new Error('step back is enabled at the start');
      if ((await page.getByTestId('narration').getAttribute('aria-live')) !== 'polite') {
        throw new Error('the narration is not an aria-live region');
      }

      // Step until CPU 0's tid or freelist changes (the fast path commits), at most 60 moves.
      let moves = 0;
      let after = before;
      while (after === before && moves < 60 && (await forward.isEnabled())) {
        await forward.click();
        moves++;
        await expectText(position, new RegExp(`^move ${moves} of ${moves}\\b`));
        after = await cpu0(page);
      }
      if (after === before) throw new Error(`CPU 0 unchanged after ${moves} moves: ${before}`);
      const narration = await page.getByTestId('narration').innerText();
      if (narration === narrationBefore) throw new Error('the narration did not change');
      await page.screenshot({ path: join(results, 'e2e-stepped-forward.png') });

      for (let i = 0; i < moves; i++) await back.click();
      await expectText(position, new RegExp(`^move 0 of ${moves}\\b`));
      const returned = await cpu0(page);
      if (returned !== before) throw new Error(`back did not return: ${returned} vs ${before}`);

      // The keyboard does the same: → replays the kept move, ← takes it back.
      await page.locator('body').press('ArrowRight');
      await expectText(position, new RegExp(`^move 1 of ${moves}\\b`));
      await page.locator('body').press('ArrowLeft');
      await expectText(position, new RegExp(`^move 0 of ${moves}\\b`));
    },
  },
  {
    name: 'a learner pastes a bad scenario and is told what is wrong',
    async run(page, url) {
      await openPlayer(page, url);
      await page.getByText('Load a scenario').click();
      const text = page.getByLabel('Scenario JSON');
      const sample = JSON.parse(await text.inputValue());
      await text.fill(JSON.stringify({ ...sample, cpus: 'two' }));
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      await expectText(page.locator('.loader [role=alert]'), /cpus/);

      await text.fill(JSON.stringify({ ...sample, name: 'pasted by the e2e test' }));
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      await expectText(page.getByRole('heading', { level: 1 }), /pasted by the e2e test/);
      await page.screenshot({ path: join(results, 'e2e-loaded-scenario.png') });
    },
  },
];

/** Poll a locator's text until it matches (bounded by the step timeout). */
async function expectText(
  /** @type {import('playwright-core').Locator} */ locator,
  /** @type {RegExp} */ pattern,
) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    last = await locator.innerText().catch(() => '');
    if (pattern.test(last)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected ${pattern} but found ${JSON.stringify(last)}`);
}

async function main() {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error('dist/ is missing: run `npx vite build web` first');
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run \`node scripts/setup.mjs --browser\``);
  }
  mkdirSync(results, { recursive: true });
  const server = await serve(dist);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 30_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  let failures = 0;
  try {
    for (const test of TESTS) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
      const page = await context.newPage();
      page.setDefaultTimeout(STEP_TIMEOUT_MS);
      /** @type {string[]} */
      const problems = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      const t0 = Date.now();
      try {
        await test.run(page, server.url);
        if (problems.length > 0) throw new Error(problems.join('\n'));
        console.log(`  ✓ ${test.name} (${Date.now() - t0} ms)`);
      } catch (e) {
        failures++;
        console.error(`  ✗ ${test.name}\n    ${String(e instanceof Error ? e.message : e)}`);
        for (const p of problems) console.error(`    ${p}`);
        const shot = join(results, `e2e-failed-${failures}.png`);
        await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
        console.error(`    screenshot: ${shot}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(`e2e: ${TESTS.length - failures} passed, ${failures} failed`);
  return failures === 0;
}

const watchdog = setTimeout(() => {
  console.error(`e2e: gave up after ${RUN_TIMEOUT_MS / 1000} s`);
  process.exit(1);
}, RUN_TIMEOUT_MS);
watchdog.unref();

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (e) => {
    console.error(`e2e: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
