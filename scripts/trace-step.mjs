// Where a step's frame spends the page's main thread, phase by phase, for one build or several
// compared under the same load (a diagnostic beside bench-web's latency, not a replacement).
//
//   node scripts/trace-step.mjs [--rounds N] [--presses N] DIST...   (each DIST: a `vite build` output)
//
// bench-web's latency is wall time: on a busy machine its p50 moves by 2 ms between two runs of
// the same build, more than most changes of a step's work. This times the same thing by the
// thread's own clock (a trace's thread durations, which another process's load stretches far
// less), from the key press to the commit of its frame, split into the key's task (React, the
// simulator, D3) and the frame's phases (style, layout, pre-paint, paint, layerize, commit). The
// builds are alternated round by round, so a change and its base meet the same load. Tracing
// itself slows the page: compare builds with each other, not with bench-web's numbers.
import { chromium } from 'playwright-core';
import { serve } from '../web/e2e/serve.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** The frame's phases as the trace names them; the key's task is the keydown's EventDispatch. */
const PHASES = ['EventDispatch', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit'];

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [, value] = args.splice(i, 2);
  return Number(value);
};
const rounds = option('--rounds', 2);
const presses = option('--presses', 30);
const dists = args;
if (dists.length === 0) throw new Error('usage: node scripts/trace-step.mjs [--rounds N] [--presses N] DIST...');

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** Trace `presses` steps of sc15 (one at a time, the tweens ended) and time each one's frame. */
async function traceSteps(browser, url) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await ctx.newPage();
  await page.goto(`${url}#/play?s=sc15`);
  await page.getByTestId('stage').locator('g.card').first().waitFor({ state: 'attached' });
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('ArrowRight'); // warm-up: the first steps compile the code
    await page.waitForTimeout(400);
  }
  const cdp = await ctx.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  for (let i = 0; i < presses; i++) {
    // Mostly forward, some back: the listing swaps functions both ways.
    await page.keyboard.press(i % 25 < 20 ? 'ArrowRight' : 'ArrowLeft');
    await page.waitForTimeout(450 + Math.random() * 100);
  }
  await cdp.send('Tracing.end');
  await complete;
  await ctx.close();

  const thread = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const main = events.filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const tasks = main.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
  const steps = [];
  for (const key of main.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown')) {
    const commit = main.find((e) => e.name === 'Commit' && e.ts > key.ts);
    if (commit === undefined) continue;
    const end = commit.ts + commit.dur;
    const cpu = (e) => (e.tdur ?? e.dur) / 1000;
    const step = { total: tasks.filter((t) => t.ts + t.dur >= key.ts && t.ts <= end).reduce((a, t) => a + cpu(t), 0) };
    // Each phase's outermost events in the window (a Paint holds Paints).
    const inside = main.filter((e) => PHASES.includes(e.name) && e.ts >= key.ts && e.ts + e.dur <= end + 1);
    for (const e of inside) {
      if (inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && (o.ts < e.ts || o.dur > e.dur))) continue;
      step[e.name] = (step[e.name] ?? 0) + cpu(e);
    }
    steps.push(step);
  }
  return steps;
}

const servers = await Promise.all(dists.map((d) => serve(d)));
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
const results = dists.map(() => []);
try {
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < dists.length; k++) results[k].push(...(await traceSteps(browser, servers[k].url)));
  }
} finally {
  await browser.close();
  for (const s of servers) s.close();
}
console.log(`main-thread time of a step's frame, sc15 at 1280x720, thread clock, traced (ms; ${rounds} rounds of ${presses} presses per build):`);
for (let k = 0; k < dists.length; k++) {
  const steps = results[k];
  const total = steps.map((s) => s.total);
  console.log(`  ${dists[k]}: ${steps.length} steps, total p50 ${quantile(total, 0.5).toFixed(2)}, p95 ${quantile(total, 0.95).toFixed(2)}, mean ${mean(total).toFixed(2)}`);
  console.log(`    mean by phase: ${PHASES.map((p) => `${p} ${mean(steps.map((s) => s[p] ?? 0)).toFixed(2)}`).join(', ')}`);
}
