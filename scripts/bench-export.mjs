// Export benchmarks (printed, not asserted): the SVG and the PNG of a
// lesson step (≤ 1 s each), a 50-move GIF in the browser and from the command line (≤ 10 s
// each), on the built app (dist/) in headless chromium (/usr/bin/chromium).
//
//   node scripts/bench-export.mjs        (needs dist/ from `vite build web`)
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { root } from './lib.mjs';
import { launch } from './export.mjs';
import { serve } from '../web/e2e/serve.mjs';

const RUNS = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** Open the export panel of `hash` in the embed; returns the page. */
async function panelOf(browser, url, hash) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce', acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${url}embed.html${hash}`);
  await page.getByTestId('stage').locator('g.card').first().waitFor({ timeout: 30_000 });
  await page.locator('details.export-menu summary').click();
  const panel = page.getByRole('region', { name: 'Export' });
  await panel.waitFor();
  return { context, page, panel };
}

/** Time from the button press to the download event, `RUNS` times (the first warms the exporters). */
async function timeButton(page, panel, name) {
  const times = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), panel.getByRole('button', { name, exact: true }).click()]);
    await dl.path();
    if (i > 0) times.push(performance.now() - t0);
  }
  return times;
}

async function main() {
  console.log('[bench-export] headless chromium, the built app');
  const server = await serve(join(root, 'dist'));
  const browser = await launch();
  try {
    // A lesson step: SLUB fast path, step 3. A page for each format: headless chromium drops a
    // page's downloads after about ten in a row (the export said "Saved", no file came).
    for (const [button, what] of [['SVG', 'SVG'], ['PNG', 'PNG 1×'], ['PNG 2×', 'PNG 2×'], ['PDF', 'PDF']]) {
      const still = await panelOf(browser, server.url, '#/lessons/fast-path-and-tid/3?controls=full&from=3&to=3');
      const t = await timeButton(still.page, still.panel, button);
      console.log(`  ${what.padEnd(7)} of a lesson step (fast-path-and-tid/3): median ${s(median(t))}, max ${s(Math.max(...t))} (target ≤ 1 s for SVG and PNG; ${RUNS} runs, warm)`);
      await still.context.close();
    }
    // 50 moves: the last 50 of "Linux 7.0: sheaves and the barn" (lesson 16), from its step 9.
    const gif = await panelOf(browser, server.url, '#/lessons/sheaves-and-the-barn/9?controls=full&from=9&to=9');
    const total = Number(await gif.panel.getByLabel('to', { exact: true }).getAttribute('max'));
    const from = Math.max(0, total - 50);
    await gif.panel.getByLabel('from', { exact: true }).fill(String(from));
    await gif.panel.getByLabel('to', { exact: true }).fill(String(total));
    const t = await timeButton(gif.page, gif.panel, 'GIF');
    console.log(`  a ${total - from}-move GIF in the browser (sheaves-and-the-barn, moves ${from}-${total}): median ${s(median(t))}, max ${s(Math.max(...t))} (target ≤ 10 s; ${RUNS} runs)`);
    await gif.context.close();
    // The command line: a fresh server and browser each time, as a Makefile runs it.
    const cli = [];
    const cwd = mkdtempSync(join(tmpdir(), 'slub-bench-export-'));
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [join(root, 'scripts', 'export.mjs'), '--lesson', 'sheaves-and-the-barn', '--step', '9', '--format', 'gif', '--from', String(from), '--to', String(total), '--out', 'b.gif'], { cwd, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`npm run export failed: ${r.stderr}`);
      cli.push(performance.now() - t0);
    }
    rmSync(cwd, { recursive: true, force: true });
    console.log(`  the same GIF from the command line (npm run export, browser start included): median ${s(median(cli))}, max ${s(Math.max(...cli))} (target ≤ 10 s; ${RUNS} runs)`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(`bench-export: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
