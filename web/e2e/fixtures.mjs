// The rules every e2e story runs under (@playwright/test fixtures), in one place:
// - the built app (dist/, from `vite build web`) served on a free loopback port, once per worker
//   (serve.mjs, the headers of a static host; each page's Content-Security-Policy is its own
//   <meta>, web/csp.ts);
// - any console error, page error or refused CSP directive fails the story;
// - `axe(page, where)`: axe-core through @axe-core/playwright, failing on anything serious or
//   critical (the minor findings are printed);
// - `shot(page, name)`: a screenshot to LOOK at, in the story's output folder and its report.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect } from '@playwright/test';
import { serve } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');

/** @typedef {import('@playwright/test').Page} Page */
/** @typedef {import('@playwright/test').Locator} Locator */

/** The slide and phone viewports of the visual brief. */
export const SLIDE = { width: 1280, height: 720 };
export const PHONE = { width: 390, height: 844 };

/** A screenshot for a reader to look at: the story's output folder, attached to its report. */
export async function shot(/** @type {Page} */ page, /** @type {string} */ name) {
  const path = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

/** A file the story writes for a reader (an export, a PDF): the story's output folder. */
export const outputPath = (/** @type {string} */ name) => test.info().outputPath(name);

/**
 * @type {import('@playwright/test').TestType<
 *   import('@playwright/test').PlaywrightTestArgs & import('@playwright/test').PlaywrightTestOptions & {
 *     axe: (page: Page, where: string) => Promise<void>,
 *   },
 *   import('@playwright/test').PlaywrightWorkerArgs & import('@playwright/test').PlaywrightWorkerOptions & { url: string }
 * >}
 */
export const test = base.extend({
  // The app's address, e.g. http://127.0.0.1:40123/ (one server per worker).
  url: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
    async ({}, use) => {
      if (!existsSync(join(dist, 'index.html')) || !existsSync(join(dist, 'embed.html'))) {
        throw new Error('dist/ is missing: run `npx vite build web` first');
      }
      const server = await serve(dist);
      await use(server.url);
      await server.close();
    },
    { scope: 'worker' },
  ],
  // Every page of the story is watched: a console error or page error fails it, and so does
  // anything the page's Content-Security-Policy refuses, whatever chromium prints about it.
  context: async ({ context }, use) => {
    /** @type {string[]} */
    const problems = [];
    context.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    context.on('weberror', (e) => problems.push(`page error: ${e.error().message}`));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`CSP refused ${e.blockedURI || 'inline code'} (${e.violatedDirective})`);
      });
    });
    await use(context);
    expect(problems, 'console errors and page errors').toEqual([]);
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  axe: async ({}, use) => {
    await use(async (page, where) => {
      // AxeBuilder evaluates axe-core through the DevTools protocol: the pages' CSP refuses an
      // inline <script>, as it should.
      const { violations } = await new AxeBuilder({ page }).analyze();
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      const minor = violations.filter((v) => !bad.includes(v));
      if (minor.length > 0) console.log(`    axe (${where}), minor: ${minor.map((v) => `${v.id} (${v.impact})`).join(', ')}`);
      expect(
        bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`),
        `axe (${where}): serious or critical findings`,
      ).toEqual([]);
    });
  },
});

export { expect };
