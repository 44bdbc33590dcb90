// The e2e stories (web/e2e/*.spec.mjs) under @playwright/test, in Debian's chromium
// (`node scripts/setup.mjs --browser`; env CHROMIUM names another). No browser is downloaded.
//
//   npx playwright test -c web/e2e/playwright.config.mjs                     every story
//   npx playwright test -c web/e2e/playwright.config.mjs --grep "permalink"  the matching stories
//   npx playwright show-report test-results/e2e-report                       the HTML report
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.mjs',
  // Each story's screenshots, exports and (on failure) trace and screenshot.
  outputDir: join(root, 'test-results', 'e2e'),
  // A story takes 1 to 60 s (the lab's every case, the legibility survey and the 100,000-move
  // link are the long ones); the bound is for a hang, not a speed goal.
  timeout: 240_000,
  // One action or assertion: as the hand-written runner's step timeout was.
  expect: { timeout: 10_000 },
  // A flaky story must fail, not be retried into a pass.
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // Two workers, story by story: on a 2-core machine the suite took 394-516 s against 645-688 s
  // on one (docs/design.md §9).
  workers: 2,
  fullyParallel: true,
  reporter: [['list'], ['html', { open: 'never', outputFolder: join(root, 'test-results', 'e2e-report') }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 720 },
    colorScheme: 'light',
    acceptDownloads: true,
    actionTimeout: 10_000,
    navigationTimeout: 10_000,
    // A failed story keeps its trace: every action, the DOM snapshots before and after it, the
    // console and the network. Recorded for every story and dropped when it passes, so the
    // screencast (a JPEG per frame painted) is left out: it took more CPU than the deck survey's
    // own work (that story 54.5 -> 30.8 CPU-s) and the snapshots show each step's page anyway;
    // `screenshot` below still takes the failed page's picture.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
