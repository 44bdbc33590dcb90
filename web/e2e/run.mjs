// End-to-end tests in real chromium (playwright-core driving /usr/bin/chromium, installed by
// `node scripts/setup.mjs --browser`), named as user stories. Serves the built app (dist/, from
// `vite build web`) on a free loopback port. Any console error or page error fails the test;
// axe-core (injected into the page) must find nothing serious or critical; screenshots go to
// test-results/.
//
//   node web/e2e/run.mjs [--only SUBSTRING]
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { hostileTests } from './hostile.mjs';
import { longLinkTests } from './longlink.mjs';
import { legibilitySurvey } from './legibility.mjs';
import { lessonTests } from './lessons.mjs';
import { deckTests } from './deck.mjs';
import { exportTests } from './export.mjs';
import { phoneTests } from './phone.mjs';
import { serve } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const results = join(root, 'test-results');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const AXE = join(root, 'node_modules', 'axe-core', 'axe.min.js');
const STEP_TIMEOUT_MS = 10_000;
const RUN_TIMEOUT_MS = 600_000;
const SLIDE = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };

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

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Locator} Locator */

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

/** Run axe-core in the page; fail on any serious or critical finding. */
async function axe(/** @type {Page} */ page, /** @type {string} */ where) {
  // Evaluated through the DevTools protocol: the pages' Content-Security-Policy refuses an
  // inline <script>, as it should.
  await page.evaluate(readFileSync(AXE, 'utf8'));
  /** @type {{ id: string, impact: string, help: string, nodes: { target: string[] }[] }[]} */
  const violations = await page.evaluate(async () => {
    // @ts-expect-error injected above
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = violations.filter((v) => !bad.includes(v));
  if (minor.length > 0) console.log(`    axe (${where}), minor: ${minor.map((v) => `${v.id} (${v.impact})`).join(', ')}`);
  if (bad.length > 0) {
    throw new Error(
      `axe (${where}): ${bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`).join('\n')}`,
    );
  }
}

/** Poll a locator's text until it matches (bounded by the step timeout). */
async function expectText(/** @type {Locator} */ locator, /** @type {RegExp} */ pattern) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    last = await locator.innerText().catch(() => '');
    if (pattern.test(last)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected ${pattern} but found ${JSON.stringify(last)}`);
}

async function until(/** @type {() => Promise<boolean>} */ check, /** @type {string} */ what) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const shot = (/** @type {Page} */ page, /** @type {string} */ name) =>
  page.screenshot({ path: join(results, `e2e-${name}.png`) });

/** The policy a built page ships in its <meta http-equiv="Content-Security-Policy">. */
async function pagePolicy(/** @type {Page} */ page) {
  return (await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
}

/** @type {{ name: string, viewport?: { width: number, height: number }, touch?: boolean, colorScheme?: 'light' | 'dark', reducedMotion?: 'reduce', run: (page: Page, url: string) => Promise<void> }[]} */
const TESTS = [
  {
    name: 'a learner compares Linux 6.8 and 7.0 side by side, an operation at a time, by button, key and link',
    async run(page, url) {
      await page.goto(`${url}#/compare?s=sh05`);
      const counters = page.getByTestId('compare-counters');
      await counters.waitFor();
      const position = page.locator('.compare-position');
      await expectText(position, /^operation 0 of 3$/);
      const stages = page.getByTestId('stage');
      if ((await stages.count()) !== 2) throw new Error('the comparison does not show two stages');
      // The 7.0 stage draws sheaves and a barn; the 6.8 one a tid.
      const [old, now] = [await stages.nth(0).getAttribute('aria-label'), await stages.nth(1).getAttribute('aria-label')];
      if (!/tid/.test(old ?? '') || !/sheaves/.test(now ?? '') || !/Barn/.test(now ?? '')) throw new Error(`the stages do not show the two designs: ${old} | ${now}`);
      await page.getByRole('button', { name: 'Operation →' }).click();
      await expectText(position, /^operation 1 of 3$/);
      await page.locator('body').press('ArrowRight');
      await expectText(position, /^operation 2 of 3$/);
      // The interrupt's allocation: a per-CPU cmpxchg under 6.8, none under 7.0.
      const row = counters.getByRole('row', { name: /per-CPU cmpxchg/ });
      await expectText(row, /per-CPU cmpxchg\s+\d+\s+0\s/);
      await expectText(page.locator('[aria-live="polite"]'), /v6\.8: I: alloc y/);
      if (!/at=2/.test(page.url())) throw new Error(`the address does not keep the position: ${page.url()}`);
      await shot(page, 'compare');
      await page.goto(`${url}#/compare?s=sh05&at=x`);
      await expectText(page.locator('.link-error, main'), /not a whole number of operations/);
      await page.goto(`${url}#/compare?s=sc18`);
      await expectText(page.locator('main'), /SLAB/);
      await page.goto(`${url}#/compare?s=sample&at=1`);
      await counters.waitFor();
      await axe(page, 'compare');
    },
  },
  {
    name: "#/compare runs a scenario's own schedule: SC1 (the default) fails its cmpxchg under 6.8 and says why 7.0 has none",
    async run(page, url) {
      await page.goto(`${url}#/compare`);
      const counters = page.getByTestId('compare-counters');
      await counters.waitFor();
      if ((await page.locator('.compare-controls select').inputValue()) !== 'sc01') throw new Error('#/compare does not open SC1 by default');
      await expectText(page.locator('.compare-schedule'), /own schedule \(12 moves under v6\.8, 15 moves under v7\.0\)/);
      await page.locator('body').press('End');
      const row = counters.getByRole('row', { name: /cmpxchg that failed/ });
      await expectText(row, /cmpxchg that failed\s+[1-9]\d*\s+0\s/);
      await expectText(page.getByTestId('compare-note'), /local lock/);
      await shot(page, 'compare-sc01');
    },
  },
  {
    name: '#/compare opens a scenario at the limits in 2 s without blocking the page; a deep-JSON link gets a located error on every route',
    async run(page, url) {
      const link = `v1.${Buffer.from(JSON.stringify(limitsScenario())).toString('base64url')}`;
      const t0 = Date.now();
      await page.goto(`${url}#/compare?s=${link}`);
      await page.getByTestId('compare-counters').waitFor({ timeout: 20_000 });
      await page.getByTestId('stage').nth(1).locator('g.card').first().waitFor({ timeout: 20_000 });
      const opened = Date.now() - t0;
      // A number to read (speed goals live in benchmarks; the target is 2 s), and a bound far
      // above it: before the worker, this page blocked for about 40 s.
      console.log(`    the scenario at the limits (${link.length} B link) opened in ${opened} ms (target ≤ 2 s)`);
      if (opened > 10_000) throw new Error(`the scenario at the limits took ${opened} ms to open`);
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
      if (longest > 2_000) throw new Error(`the main thread was blocked ${Math.round(longest)} ms after End`);
      await expectText(page.getByTestId('compare-position'), /^operation (\d+) of \1$/);
      // Nested 10,000 deep: the simulator's parser refuses it with its place, on every route.
      const deep = `v1.${Buffer.from(`{"schemaVersion":1,"setup":${'['.repeat(10_000)}${']'.repeat(10_000)}}`).toString('base64url')}`;
      for (const route of ['#/compare', '#/play', '#/explore']) {
        await page.goto(`${url}${route}?s=${deep}`);
        await expectText(page.getByTestId('link-error'), /line 1,? column \d+/);
        if ((await page.locator('.crash').count()) > 0) throw new Error(`${route} crashed on the deep link`);
      }
      await page.goto(`${url}embed.html#/play?s=${deep}`);
      await expectText(page.getByTestId('link-error'), /line 1,? column \d+/);
    },
  },
  {
    name: 'a newcomer lands on the front page, reads what this is and starts lesson 1',
    viewport: PHONE,
    async run(page, url) {
      await page.goto(url);
      await expectText(page.getByRole('heading', { level: 1 }), /slab allocator/);
      const start = page.getByTestId('start-lesson-1');
      await expectText(start, /^Start with lesson 00/);
      if ((await page.locator('.home-lessons li').count()) < 12) throw new Error('the front page does not list the lessons');
      await shot(page, 'front-page-phone');
      await axe(page, 'front page');
      await start.click();
      await page.locator('main.lesson-reader[data-step="1"]').getByTestId('stage').locator('g.card').first().waitFor();
      // An error page carries the site's navigation back.
      await page.goto(`${url}#/nowhere`);
      await page.getByTestId('link-error').waitFor();
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Lessons' }).click();
      await page.locator('li.lesson-card').first().waitFor();
    },
  },
  {
    name: 'every lesson step, built-in scenario and the comparison read at a laptop, a slide and a phone: no text cut, none overlapping, none under 12 px',
    reducedMotion: 'reduce',
    async run(page, url) {
      const { problems, pages } = await legibilitySurvey(page, url);
      console.log(`    ${pages} pages read, ${problems.length} problems`);
      if (problems.length > 0) throw new Error(`${problems.length} legibility problems:\n${problems.slice(0, 40).join('\n')}`);
    },
  },
  {
    name: 'a learner opens a built-in scenario, steps forward and back, by button and by key',
    async run(page, url) {
      const forward = await openPlayer(page, `${url}#/play`);
      await page.getByLabel('Built-in scenario').selectOption('sc01');
      await expectText(page.getByRole('heading', { level: 1 }), /SC1/);
      const back = page.getByRole('button', { name: /step back/i });
      const position = page.getByTestId('position');
      const before = await stageText(page);
      if (!(await back.isDisabled())) throw new Error('step back is enabled at the start');
      if ((await page.getByTestId('narration').getAttribute('aria-live')) !== 'polite') {
        throw new Error('the narration is not an aria-live region');
      }
      // Step until CPU 0's freelist or tid changes (the fast path commits), at most 40 moves.
      let moves = 0;
      let after = before;
      while (after === before && moves < 40 && (await forward.isEnabled())) {
        await forward.click();
        moves++;
        // SC1 loads with its 17-move story: stepping forward plays it.
        await expectText(position, new RegExp(`^move ${moves} of 17\\b`));
        after = await stageText(page);
      }
      if (after === before) throw new Error(`the stage did not change in ${moves} moves`);
      await page.waitForTimeout(400); // the tween
      await shot(page, 'stepped-forward');
      for (let i = 0; i < moves; i++) await back.click();
      await expectText(position, /^move 0 of 17\b/);
      if ((await stageText(page)) !== before) throw new Error('stepping back did not return to the start');
      await page.locator('body').press('ArrowRight');
      await expectText(position, /^move 1 of 17\b/);
      await page.locator('body').press('ArrowLeft');
      await expectText(position, /^move 0 of 17\b/);
      // Moves as buttons: fire the interrupt instead of stepping the task.
      await page.getByRole('button', { name: /fire irq I/ }).click();
      await expectText(position, /^move 1 of 1\b/);
      await expectText(page.getByTestId('narration'), /\S/);
      await axe(page, 'playground');
    },
  },
  {
    name: 'a learner fires an interrupt and runs it to its end in one click, then runs a task to the end of its operation',
    async run(page, url) {
      await openPlayer(page, `${url}#/play?s=sc01&m=&at=0`);
      const position = page.getByTestId('position');
      await page.locator('button[data-to-end="I"]').click();
      await expectText(position, /^move ([2-9]|\d\d+) of \1\b/);
      if ((await page.locator('button[data-to-end="I"]').count()) !== 0) throw new Error('I can still be run after running to its end');
      const after = await position.innerText();
      await page.locator('button[data-to-end="T"]').click();
      await until(async () => (await position.innerText()) !== after, 'T to run to the end of its operation');
      await expectText(page.getByTestId('narration'), /\S/);
      await axe(page, 'playground after run to end');
    },
  },
  {
    name: 'a learner sees a failed cmpxchg half by half, with the retry on the timeline',
    async run(page, url) {
      await openPlayer(page, `${url}#/play?s=sc01&m=${SC1_FAIL}&at=17`);
      await expectText(page.getByTestId('narration'), /fails/);
      const halves = page.getByTestId('stage').locator('g.half');
      await until(async () => (await halves.count()) === 2, 'two CAS halves');
      const text = await halves.allInnerTexts().catch(() => []);
      const t = (await page.getByTestId('stage').locator('g.half text').allTextContents()).join(' | ');
      if (!/freelist: p1 \/ p3/.test(t) || !/tid: 12 \/ 14/.test(t)) throw new Error(`halves: ${t} ${text.join()}`);
      if ((await page.getByTestId('timeline').locator('g.tick.failed').count()) !== 1) {
        throw new Error('the failed cmpxchg is not marked on the timeline');
      }
      await shot(page, 'failed-cas');
    },
  },
  {
    name: 'a learner plays, pauses, changes speed and scrubs the timeline',
    async run(page, url) {
      await openPlayer(page, `${url}#/play?s=sc05`);
      const position = page.getByTestId('position');
      await page.getByLabel('Speed').selectOption({ label: '30 moves/s' });
      await page.getByRole('button', { name: /play/i }).click();
      await expectText(position, /^move ([5-9]|\d\d+) of/);
      await page.getByRole('button', { name: /pause/i }).click();
      const paused = await position.innerText();
      await page.waitForTimeout(300);
      if ((await position.innerText()) !== paused) throw new Error('still moving after pause');
      const total = Number(/of (\d+)/.exec(paused)?.[1]);
      // Scrub: press on the timeline's first quarter, then drag to its end.
      const tl = page.getByTestId('timeline');
      await tl.scrollIntoViewIfNeeded();
      const box = await tl.boundingBox();
      if (box === null) throw new Error('no timeline');
      await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
      await page.mouse.down();
      await until(async () => {
        const n = Number(/^move (\d+)/.exec(await position.innerText())?.[1]);
        return n > 0 && n < total;
      }, 'the scrubbed position');
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await expectText(position, new RegExp(`^move ${total} of ${total}`));
      // The timeline is a slider for the keyboard too.
      await tl.focus();
      await page.keyboard.press('Home');
      await expectText(position, new RegExp(`^move 0 of ${total}`));
      if ((await tl.getAttribute('aria-valuenow')) !== '0') throw new Error('aria-valuenow did not follow');
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      await shot(page, 'shortcuts');
      await page.keyboard.press('Escape');
    },
  },
  {
    name: 'a learner explores SC2 without the tid, finds the ABA (INV-12) and steps through the counterexample',
    async run(page, url) {
      await openPlayer(page, `${url}#/play?s=sc02`);
      await page.getByLabel('fastpath', { exact: true }).selectOption({ label: 'no-tid' });
      await page.getByRole('button', { name: /explore interleavings/i }).click();
      const explorer = page.getByTestId('explorer');
      if ((await explorer.getByLabel('max preemptions').inputValue()) !== '3') throw new Error('max preemptions is not 3 by default');
      if ((await explorer.getByLabel('max migrations').inputValue()) !== '2') throw new Error('max migrations is not 2 by default');
      // The search runs in the production build's worker, which loads its own wasm.
      await explorer.getByRole('button', { name: 'Explore', exact: true }).click();
      const result = page.getByTestId('explore-result');
      await expectText(result, /INV-12 breaks after \d+ moves/);
      await expectText(page.getByTestId('explore-live'), /^Found: INV-12/);
      if ((await page.getByTestId('explore-live').getAttribute('aria-live')) !== 'polite') throw new Error('the explorer readout is not a polite live region');
      const moves = Number(/after (\d+) moves/.exec(await result.innerText())?.[1]);
      await shot(page, 'explorer-found');
      await axe(page, 'explorer');
      await result.getByRole('button', { name: /load the counterexample/i }).click();
      // The stepper holds exactly the counterexample, at its end: the violation is on screen.
      await expectText(page.getByTestId('position'), new RegExp(`^move ${moves} of ${moves}\\b`));
      await expectText(page.getByTestId('violation'), /INV-12 broken at step \d+/);
      if (!(await page.getByTestId('violation').isVisible())) throw new Error('the violation is not on screen');
      // SC2 is loaded broken (fastpath no-tid) as a built-in: the link names it and carries the moves.
      await until(async () => new RegExp(`#/explore\\?s=sc02&m=[^&]+&at=${moves}$`).test(page.url()), 'the link to carry the explorer');
      // The timeline: a labelled lane per context, the violation named where it broke.
      const timeline = page.getByTestId('timeline');
      if ((await timeline.locator('g.lane text').first().textContent()) !== 'T · CPU 0') throw new Error('the timeline has no lane labelled T');
      if ((await timeline.locator('g.violation text').textContent()) !== '⚠ INV-12, INV-1') throw new Error('the timeline does not name the broken invariants');
      await shot(page, 'explorer-loaded');
      // ▶ Play at the end of the counterexample plays it again and stops at its end.
      await page.getByLabel('Speed').selectOption({ label: '8 moves/s' });
      await page.getByRole('button', { name: '▶ Play' }).click();
      const at = async () => Number(/^move (\d+)/.exec(await page.getByTestId('position').innerText())?.[1]);
      await until(async () => (await at()) < moves, 'play to start the counterexample again');
      await expectText(page.getByRole('button', { name: /▶ Play|⏸ Pause/ }), /▶ Play/);
      await expectText(page.getByTestId('position'), new RegExp(`^move ${moves} of ${moves}\\b`));
      // Step back from the violation: it is gone; the keyboard loads the counterexample again.
      await page.getByRole('button', { name: /step back/i }).click();
      await expectText(page.getByTestId('position'), new RegExp(`^move ${moves - 1} of ${moves}\\b`));
      await page.getByRole('button', { name: 'Start', exact: false }).first().click();
      await expectText(page.getByTestId('position'), new RegExp(`^move 0 of ${moves}\\b`));
      await page.locator('body').press('c');
      await expectText(page.getByTestId('position'), new RegExp(`^move ${moves} of ${moves}\\b`));
      // With the tid (the default fast path) the same search completes with no violation.
      await page.getByLabel('fastpath', { exact: true }).selectOption({ label: 'tid-loop' });
      await page.locator('body').press('e');
      await expectText(result, /No violation within these bounds[\s\S]*complete: every interleaving/);
    },
  },
  {
    name: 'a negative control loads broken and says so, beside the scenario at the top; the kernel’s own code runs the same moves',
    async run(page, url) {
      await openPlayer(page, `${url}#/play?s=sc02`);
      const bar = page.getByTestId('scenario-bar');
      await expectText(page.getByTestId('negative-control'), /Negative control[\s\S]*fastpath: no-tid/);
      if ((await page.getByLabel('fastpath', { exact: true }).inputValue()) !== '"no-tid"') throw new Error('SC2 does not load with fastpath no-tid');
      // The era and the variant are chosen at the top, above the controls and the stage.
      const [barBox, stageBox, controlsBox] = [await bar.boundingBox(), await page.getByTestId('stage').boundingBox(), await page.getByRole('region', { name: 'Player controls' }).boundingBox()];
      if (barBox === null || stageBox === null || controlsBox === null) throw new Error('no scenario bar, stage or controls');
      if (!(barBox.y < controlsBox.y && barBox.y < stageBox.y && barBox.y < 200)) throw new Error(`the scenario bar is not at the top (y ${barBox.y})`);
      if ((await page.getByLabel('era', { exact: true }).count()) !== 1) throw new Error('no era beside the scenario');
      await shot(page, 'negative-control');
      await axe(page, 'scenario bar');
      // Three moves, then the kernel's own code: the moves are kept, the note goes.
      for (let i = 0; i < 3; i++) await page.getByRole('button', { name: /step forward/i }).click();
      await page.getByRole('button', { name: /kernel.s own code/ }).click();
      await expectText(page.getByTestId('position'), /^move 3 of 3\b/);
      if ((await page.getByTestId('negative-control').count()) !== 0) throw new Error('the note stays after mending');
      // SC1 loads with its story: ▶ Play stops at the failed compare-and-swap (move 17).
      await page.getByLabel('Built-in scenario').selectOption('sc01');
      await page.getByLabel('Speed').selectOption({ label: '30 moves/s' });
      await page.getByRole('button', { name: '▶ Play' }).click();
      await expectText(page.getByTestId('position'), /^move 17 of 17\b/);
      await expectText(page.getByRole('button', { name: /▶ Play|⏸ Pause/ }), /▶ Play/);
      await expectText(page.getByTestId('position'), /^move 17 of 17\b/);
      await until(async () => (await page.getByTestId('timeline').locator('g.tick.failed text.fail').textContent()) === '✕', 'the failed compare-and-swap marked ✕ on the timeline');
    },
  },
  {
    name: "on a phone the playground's controls sit at the bottom and leave the stage in view while you tap; icons are drawn, not emoji",
    viewport: PHONE,
    async run(page, url) {
      await openPlayer(page, `${url}#/play?s=sc01`);
      const where = () =>
        page.evaluate(() => {
          const s = document.querySelector('[data-testid="stage"]')?.getBoundingClientRect();
          const c = document.querySelector('.controls')?.getBoundingClientRect();
          return { stage: Math.round(s?.top ?? 1e9), controls: Math.round(c?.top ?? 0), screen: window.innerHeight, scrolled: window.scrollY };
        });
      const before = await where();
      console.log(`    stage top ${before.stage} px, controls from ${before.controls} px of ${before.screen}`);
      if (before.controls - before.stage < 250) throw new Error(`less than 250 px of the stage on screen: ${JSON.stringify(before)}`);
      for (let i = 0; i < 5; i++) await page.getByRole('button', { name: /step forward/i }).click();
      await expectText(page.getByTestId('position'), /^move 5 of 17\b/);
      const after = await where();
      if (after.stage !== before.stage || after.scrolled !== 0) throw new Error(`tapping moved the stage: ${JSON.stringify(after)}`);
      await shot(page, 'phone-playground');
      const emoji = await page.evaluate(() => {
        const text = document.body.innerText + [...document.querySelectorAll('svg text')].map((t) => t.textContent ?? '').join(' ');
        return [...text.matchAll(/\p{Extended_Pictographic}/gu)].map((m) => m[0]).filter((c) => (c.codePointAt(0) ?? 0) > 0xffff);
      });
      if (emoji.length > 0) throw new Error(`emoji drawn from a font: ${[...new Set(emoji)].join(' ')}`);
      await axe(page, 'phone playground');
    },
  },
  {
    name: 'a learner cancels a long search and sees why it is incomplete; the time limit stops one too',
    async run(page, url) {
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
      await expectText(page.getByTestId('explore-progress'), /[1-9][\d,]* states/);
      if (!(await explorer.getByLabel('max preemptions').isDisabled())) throw new Error('the bounds can be edited while searching');
      await shot(page, 'explorer-running');
      await explorer.getByRole('button', { name: 'Cancel' }).click();
      await expectText(page.getByTestId('explore-result'), /incomplete: you cancelled the search/);
      // A bad bound is named and Explore waits for a good one.
      await explorer.getByLabel('max migrations').fill('1.5');
      await expectText(explorer.locator('.error'), /max migrations: "1\.5" is not a whole number/);
      if (!(await explorer.getByRole('button', { name: 'Explore', exact: true }).isDisabled())) throw new Error('Explore is enabled with a bad bound');
      await explorer.getByLabel('max migrations').fill('2');
      await explorer.getByLabel('time limit (s)').fill('0.3');
      await explorer.getByRole('button', { name: 'Explore', exact: true }).click();
      await expectText(page.getByTestId('explore-result'), /incomplete: the time limit \(0\.3 s\) ran out/);
    },
  },
  {
    name: 'a permalink opens the same state in a new page',
    async run(page, url) {
      await openPlayer(page, `${url}#/play?s=sc03`);
      for (let i = 0; i < 7; i++) await page.getByRole('button', { name: /step forward/i }).click();
      await page.getByRole('button', { name: /step back/i }).click();
      await expectText(page.getByTestId('position'), /^move 6 of 7/);
      // A variant toggle rebuilds the scenario: the link then carries it encoded.
      await page.getByText('More variant keys').click();
      await page.getByLabel('cpuPartial', { exact: true }).selectOption('false');
      await expectText(page.getByTestId('position'), /^move 6 of 7/);
      await until(async () => /#\/play\?s=v1\.[\w-]+&m=[^&]+&at=6$/.test(page.url()), `the link to follow (${page.url()})`);
      const link = page.url();
      const stage = await stageText(page);
      const narration = await page.getByTestId('narration').innerText();
      const other = await page.context().newPage();
      await openPlayer(other, link);
      await expectText(other.getByTestId('position'), /^move 6 of 7/);
      if ((await stageText(other)) !== stage) throw new Error('the stage differs after the round trip');
      if ((await other.getByTestId('narration').innerText()) !== narration) throw new Error('the narration differs');
      await other.close();
    },
  },
  {
    name: 'a link that cannot be decoded shows what was wrong',
    async run(page, url) {
      for (const [hash, pattern] of [
        ['#/play?s=v1.@@@', /scenario \(s\).*base64url/],
        ['#/play?s=v7.abc', /scenario \(s\).*v7/],
        ['#/play?s=sample&m=T,Nope', /moves \(m\).*Nope/],
        ['#/play?s=sample&m=T&at=5', /position \(at\)/],
        ['#/nowhere', /page/],
      ]) {
        await page.goto(`${url}${hash}`);
        await expectText(page.getByTestId('link-error'), pattern);
      }
      await shot(page, 'bad-link');
      await axe(page, 'link error');
      await page.getByRole('link', { name: /the playground with the sample scenario/i }).click();
      await page.getByTestId('stage').waitFor();
    },
  },
  {
    name: 'a learner pastes a bad scenario and is told the JSON path',
    async run(page, url) {
      await openPlayer(page, `${url}#/play`);
      await page.getByText('Edit the scenario JSON').click();
      const text = page.getByLabel('Scenario JSON');
      const sample = JSON.parse(await text.inputValue());
      await text.fill(JSON.stringify({ ...sample, tasks: [{ id: 'T', cpu: 0, ops: [{ op: 'free', var: 'nope' }] }] }));
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      await expectText(page.getByTestId('scenario-error'), /At tasks\[0\]\.ops\[0\]\.var:/);
      await text.fill(JSON.stringify({ ...sample, name: 'pasted by the e2e test' }));
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      await expectText(page.getByRole('heading', { level: 1 }), /pasted by the e2e test/);
    },
  },
  {
    name: 'a learner exports the frame as SVG and PNG',
    async run(page, url) {
      await openPlayer(page, `${url}#/play?s=sc01&m=${SC1_FAIL}&at=17`);
      // The exporters load when the export menu opens (web/src/ui/ExportMenu.tsx).
      await page.getByText('Export: picture, animation, PDF').click();
      const [svgDl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'SVG', exact: true }).click()]);
      const svgPath = join(results, 'e2e-export.svg');
      await svgDl.saveAs(svgPath);
      const svg = readFileSync(svgPath, 'utf8');
      if (!svg.startsWith('<svg') || !svg.includes('xmlns="http://www.w3.org/2000/svg"')) throw new Error('not an SVG document');
      if (!svg.includes('p3') || !svg.includes('FAILS')) throw new Error('the SVG lacks the frame content');
      if (!svg.includes('move 17 of 17 · atomic step')) throw new Error('the SVG does not say which frame it is');
      // It parses as XML, standalone (in a blank page: the app's policy would rightly refuse
      // the file's own <style> and style attributes in a document parsed inside the app).
      const blank = await page.context().newPage();
      const parsed = await blank.evaluate((s) => {
        const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
        return doc.querySelector('parsererror') === null ? doc.documentElement.getAttribute('width') : null;
      }, svg);
      await blank.close();
      if (parsed === null) throw new Error('the SVG does not parse');
      const [pngDl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'PNG', exact: true }).click()]);
      const pngPath = join(results, 'e2e-export.png');
      await pngDl.saveAs(pngPath);
      const png = readFileSync(pngPath);
      if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
      const w = png.readUInt32BE(16);
      const h = png.readUInt32BE(20);
      if (w < 800 || h < 400) throw new Error(`PNG too small: ${w}×${h}`);
    },
  },
  {
    name: 'the app and the embed ship a strict Content-Security-Policy and run under it',
    async run(page, url) {
      for (const path of ['#/play?s=sc01', 'embed.html#/lessons/fast-path-and-tid/3']) {
        await page.goto(`${url}${path}`);
        const policy = await pagePolicy(page);
        for (const want of ["script-src 'self' 'wasm-unsafe-eval'", "connect-src 'self'", "object-src 'none'"]) {
          if (!policy.includes(want)) throw new Error(`${path}: the policy lacks ${want}: ${policy}`);
        }
        if (/'unsafe-eval'|'unsafe-inline'/.test(policy)) throw new Error(`${path}: the policy allows unsafe code: ${policy}`);
        // The simulator (WebAssembly) runs under it: the stage draws.
        await page.getByTestId('stage').locator('g.card').first().waitFor();
      }
      // index.html's one inline script, allowed by its hash, preloads a lesson's chunks from the
      // first moment: the reader's and the lesson's own (web/route-preload.ts).
      await page.goto(`${url}#/lessons/slab-and-objects/2`);
      await page.getByTestId('lesson-title').waitFor();
      if (!/script-src [^;]*'sha256-/.test(await pagePolicy(page))) throw new Error('the inline route preload has no hash in script-src');
      const preloaded = await page.locator('link[rel="modulepreload"]').evaluateAll((ls) => ls.map((l) => l.getAttribute('href') ?? ''));
      for (const want of [/LessonReader-/, /slab-and-objects-/]) {
        if (!preloaded.some((h) => want.test(h))) throw new Error(`no modulepreload for ${want}: ${preloaded.join(', ')}`);
      }
    },
  },
  {
    name: 'commands in a burst apply one after another: five messages to an embed, five keys to the playground',
    async run(page, url) {
      await page.goto(`${url}embed.html#/play?s=sc01&m=&at=0`);
      const position = page.getByTestId('position');
      await expectText(position, /^move 0 of 0$/);
      // Five `next` in one tick (before any render): each must play a move enabled after the last.
      await page.evaluate(() => {
        for (let i = 0; i < 5; i++) window.postMessage({ type: 'slub-lab:command', command: 'next' }, '*');
      });
      await expectText(position, /^move 5 of 5$/);
      await page.evaluate(() => {
        for (let i = 0; i < 5; i++) window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      });
      await expectText(position, /^move 10 of 10$/);
      // The playground: a burst of keys, and the permalink it writes opens (every move enabled).
      await page.goto(`${url}#/play?s=sc01&m=&at=0`);
      await page.getByTestId('stage').waitFor();
      await page.evaluate(() => {
        for (let i = 0; i < 6; i++) window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      });
      await expectText(page.getByTestId('position'), /^move 6 of 6\b/);
      await until(async () => page.url().includes('at=6'), `the permalink to follow (${page.url()})`);
      const link = page.url();
      const other = await page.context().newPage();
      await other.goto(link);
      await expectText(other.getByTestId('position'), /^move 6 of 6\b/);
      await other.close();
    },
  },
  {
    name: 'a slide deck drives the embed through postMessage',
    async run(page, url) {
      await page.goto(`${url}embed-example.html`);
      const last = page.locator('#last');
      await expectText(last, /"step":0,"total":19/);
      const frame = page.frameLocator('#slide');
      await frame.getByTestId('stage').locator('g.card').first().waitFor();
      await page.getByRole('button', { name: 'next ▶' }).click();
      await page.getByRole('button', { name: 'next ▶' }).click();
      await expectText(last, /"type":"slub-lab:step","lesson":"sc01","step":2,"total":19/);
      await page.getByRole('button', { name: '◀ prev' }).click();
      await expectText(last, /"step":1,/);
      await page.getByLabel('goto').fill('17');
      await page.getByRole('button', { name: 'go' }).click();
      await expectText(last, /"step":17,/);
      await expectText(frame.getByTestId('narration'), /fails/);
      // Messages of another shape are ignored; `to` bounds the embed.
      await page.evaluate(() => {
        const w = /** @type {HTMLIFrameElement} */ (document.getElementById('slide')).contentWindow;
        w?.postMessage({ type: 'slub-lab:command', command: 'goto', step: 'x' }, '*');
        w?.postMessage({ type: 'other', command: 'next' }, '*');
        w?.postMessage('next', '*');
        w?.postMessage({ type: 'slub-lab:command', command: 'goto', step: 99 }, '*');
      });
      await expectText(last, /"step":19,/);
      await page.getByRole('button', { name: 'play' }).click();
      await page.getByRole('button', { name: 'pause' }).click();
      await shot(page, 'embed-example');
      // The embed on its own, with minimal controls.
      await page.goto(`${url}embed.html#/play?s=sc01&m=${SC1_FAIL}&at=3&from=2&to=10&controls=minimal`);
      const pos = page.getByTestId('position');
      await expectText(pos, /^move 3 of 10/);
      await page.getByRole('button', { name: /back/i }).click();
      await expectText(pos, /^move 2 of 10/);
      if (!(await page.getByRole('button', { name: /back/i }).isDisabled())) throw new Error('back goes below from=2');
      await axe(page, 'embed');
    },
  },
  {
    name: 'the stage fits a slide, a phone and the dark theme',
    async run(page, url) {
      await openPlayer(page, `${url}#/play?s=sc11&m=B,B,B,B,B,B&at=6`);
      await shot(page, 'slide-1280x720');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
      if (overflow) throw new Error('the page scrolls sideways at 1280');
      await page.setViewportSize(PHONE);
      await page.waitForTimeout(300);
      await shot(page, 'phone');
      if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) {
        throw new Error('the page scrolls sideways on a phone');
      }
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.setViewportSize(SLIDE);
      await page.goto(`${url}#/play?s=sc08&m=B,B,B,B,B,B,B,B,C,C,C,C,C,C,C,C&at=16`);
      await page.getByTestId('stage').locator('g.card').first().waitFor();
      await shot(page, 'dark');
      await axe(page, 'dark playground');
    },
  },
  {
    name: 'with reduced motion the stage changes without tweens',
    reducedMotion: 'reduce',
    async run(page, url) {
      await openPlayer(page, `${url}#/play?s=sc01`);
      await page.getByRole('button', { name: /step forward/i }).click();
      // No transition is scheduled: the chips are at their places at once.
      const moving = await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="stage"] g')].some((g) => '__transition' in g && g.__transition !== undefined && Object.keys(g.__transition).length > 0),
      );
      if (moving) throw new Error('a tween runs under prefers-reduced-motion');
    },
  },
];

/** The lab: every case's card, filled in as the worker's results come back. */
const LAB_ALL_MS = 60_000;

async function labCards(/** @type {Page} */ page, /** @type {string} */ state) {
  return page.locator(`article.lab-case[data-state="${state}"]`).count();
}

TESTS.push(
  {
    name: 'a learner opens the lab, watches the seed comparisons run, reads a chart beside the published numbers and opens a run in the stepper',
    async run(page, url) {
      const t0 = Date.now();
      await page.goto(`${url}#/lab`);
      await page.getByRole('heading', { level: 1, name: /benchmarks/i }).waitFor();
      // The words come first; the cards with the lab's model (its own wasm).
      await page.locator('article.lab-case').first().waitFor();
      const total = await page.locator('article.lab-case').count();
      if (total < 2) throw new Error(`only ${total} seed cases on the page`);
      const progress = page.getByTestId('lab-progress');
      if ((await progress.getAttribute('aria-live')) !== 'polite') throw new Error('the progress is not a polite live region');
      // Results come one at a time: wait for two, while the others still run.
      await until(async () => (await labCards(page, 'done')) >= 2, 'two comparisons to finish');
      const firstTwoMs = Date.now() - t0;
      if ((await labCards(page, 'done')) === total) console.log('    (every case finished before two were seen)');
      else await expectText(progress, new RegExp(`^(Running \\d+ of ${total}: seed case \\S+|Running \\d+–\\d+ of ${total}: seed cases \\S+ and \\S+)…$`));
      const card = page.locator('article.lab-case[data-state="done"]').first();
      await card.scrollIntoViewIfNeeded(); // a card off screen has no innerText (content-visibility)
      const id = (await card.locator('h3 .case-id').innerText()).trim();
      // The chart: the published and the model's bars, the ratio as numbers, the verdicts in words.
      const chart = page.getByTestId(`chart-${id}`);
      const label = (await chart.getAttribute('aria-label')) ?? '';
      if (!/^Published: after ÷ before is \d\.\d{3} .* Model: \d\.\d{3} /.test(label)) throw new Error(`chart label: ${label}`);
      const widths = await chart.locator('g.row rect.bar').evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('width'))));
      if (widths.length !== 2 || widths.some((w) => !(w > 0))) throw new Error(`bars: ${JSON.stringify(widths)}`);
      if ((await chart.locator('g.row .value').allTextContents()).filter((t) => /%$/.test(t)).length !== 2) throw new Error('the bars are not labelled in %');
      await expectText(card.getByTestId('published'), /→ .* ×\d\.\d{3}$/);
      await expectText(card.getByTestId('model'), /^[\d.,]+ → [\d.,]+ .*cycles.* ×\d\.\d{3}$/);
      await expectText(card.getByTestId('sign'), /^[✓✗] (Same direction as the seed|Not the seed’s direction)/);
      await expectText(card.getByTestId('tolerance'), /^[✓✗] (Within|Outside) ±25 %/);
      await expectText(page.getByTestId(`summary-${id}`), /[+−]\d+\.\d %.*[+−]\d+\.\d %/);
      // Every case, then the time they took.
      const deadline = Date.now() + LAB_ALL_MS;
      while ((await labCards(page, 'done')) + (await labCards(page, 'failed')) < total) {
        if (Date.now() > deadline) throw new Error('the comparisons did not all finish in a minute');
        await page.waitForTimeout(100);
      }
      if ((await labCards(page, 'failed')) > 0) throw new Error(`failed: ${await page.locator('article.lab-case[data-state="failed"]').first().innerText()}`);
      await expectText(progress, new RegExp(`^All ${total} comparisons ran in [\\d.]+ s\\.$`));
      console.log(`    ${await progress.innerText()} (first two in ${(firstTwoMs / 1000).toFixed(1)} s after opening)`);
      // A case the model cannot match says so and why.
      const mismatches = page.getByTestId('mismatch');
      // (Scrolled to, as a reader would: a card far off screen is not rendered yet, content-visibility.)
      if ((await mismatches.count()) > 0) {
        await mismatches.first().scrollIntoViewIfNeeded();
        await expectText(mismatches.first(), /Where the model cannot match\. \S/);
      }
      await page.waitForTimeout(500); // the last bar's tween
      await shot(page, 'lab-desktop');
      await page.screenshot({ path: join(results, 'e2e-lab-desktop-full.png'), fullPage: true });
      if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) throw new Error('the lab scrolls sideways at 1280');
      await axe(page, 'lab');
      await page.setViewportSize(PHONE);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(results, 'e2e-lab-phone-full.png'), fullPage: true });
      await card.scrollIntoViewIfNeeded();
      await shot(page, 'lab-phone');
      if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) throw new Error('the lab scrolls sideways on a phone');
      await page.setViewportSize(SLIDE);
      // The summary's case button takes the keyboard to its card.
      await page.getByTestId(`summary-${id}`).getByRole('button').press('Enter');
      await until(async () => page.evaluate((h) => document.activeElement?.id === h, `lab-case-${id}`), 'the card heading to get the focus');
      // Open the "after" side in the stepper: the playground loads that scenario and steps.
      await card.getByTestId('open-after').click();
      await page.getByTestId('stage').locator('g.card').first().waitFor();
      await expectText(page.getByRole('heading', { level: 1 }), new RegExp(`seed ${id} \\(after\\)`));
      await expectText(page.getByTestId('position'), /^move 0 of 0\b/);
      await until(async () => page.evaluate(() => window.scrollY === 0), 'the playground to show from its top');
      await page.getByRole('button', { name: /step forward/i }).click();
      await expectText(page.getByTestId('position'), /^move 1 of 1\b/);
      await shot(page, 'lab-stepper');
      // Back to the lab: the results were kept for the session.
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: /benchmarks/i }).waitFor();
      await page.locator('article.lab-case').first().waitFor();
      if ((await labCards(page, 'done')) !== total) throw new Error('the lab ran its cases again instead of keeping them');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForTimeout(100);
      await shot(page, 'lab-dark');
      await axe(page, 'lab, dark');
    },
  },
  {
    name: 'with reduced motion the lab draws its bars without tweens',
    reducedMotion: 'reduce',
    async run(page, url) {
      await page.goto(`${url}#/lab`);
      await until(async () => (await labCards(page, 'done')) >= 1, 'a comparison to finish');
      const moving = await page.evaluate(() =>
        [...document.querySelectorAll('.ratio-chart *')].some((el) => '__transition' in el && el.__transition !== undefined && Object.keys(el.__transition).length > 0),
      );
      if (moving) throw new Error('a tween runs under prefers-reduced-motion');
    },
  },
);

// SLAB (model.md Appendix A) in the playground: per-CPU array_cache stacks, the node's three lists.
/** The text of a stage card (`cpu:0`, `node:0`, `slab:P`). */
async function cardText(/** @type {Page} */ page, /** @type {string} */ key) {
  return (await page.getByTestId('stage').locator(`g.card[data-key="${key}"] text`).allTextContents()).join(' | ');
}

TESTS.push({
  name: "a learner steps SC18's first SLAB allocation by keyboard: the lockless check, the array_cache refilled by a grown slab, the node's lists",
  async run(page, url) {
    await openPlayer(page, `${url}#/play?s=sc18`);
    await expectText(page.getByRole('heading', { level: 1 }), /SC18 SLAB/);
    await expectText(page.getByTestId('cache-chip'), /^SLAB · .*array limit 4, batch 2 · grow lockless/);
    const position = page.getByTestId('position');
    const narration = page.getByTestId('narration');
    const body = page.locator('body');
    // Under SLAB: an array_cache per CPU, and none of SLUB's kmem_cache_cpu fields.
    const cpu0 = await cardText(page, 'cpu:0');
    if (!/array_cache \| avail 0\/4 · touched 0/.test(cpu0)) throw new Error(`CPU 0 shows no empty array_cache: ${cpu0}`);
    if (/\| (tid|freelist|partial) \|/.test(`| ${cpu0} |`)) throw new Error(`SLUB fields on a SLAB CPU card: ${cpu0}`);
    // The variant panel offers only what SLAB reads.
    if ((await page.getByLabel('slabGrow', { exact: true }).count()) !== 1) throw new Error('no slabGrow toggle');
    if ((await page.getByLabel('fastpath', { exact: true }).count()) !== 0) throw new Error('a SLUB toggle under SLAB');
    // A: irqs off, the array is empty (a miss), then the v4.7 decision without list_lock.
    for (let i = 1; i <= 3; i++) {
      await body.press('ArrowRight');
      await expectText(position, new RegExp(`^move ${i} of ${i}\\b`));
    }
    await expectText(narration, /^cache_alloc_refill:RF2 Lockless check \(v4\.7\): .*free_objects = 0.*without list_lock/);
    await expectText(page.getByTestId('listing'), /cache_alloc_refill/);
    // Grow, take two objects from the private slab onto the array, then take list_lock to link
    // the slab: mid-refill, the array holds them and the slab is on no list yet.
    for (let i = 4; i <= 9; i++) {
      await body.press('ArrowRight');
      await expectText(position, new RegExp(`^move ${i} of ${i}\\b`));
    }
    await expectText(narration, /cache_grow_end.*list_lock/);
    await until(async () => /avail 2\/4/.test(await cardText(page, 'cpu:0')), "the refilled array's avail");
    const stage = page.getByTestId('stage');
    // Each object in the array is drawn twice: in its slab's grid and in the stack.
    for (const o of ['p0', 'p1']) {
      const n = await stage.locator(`g.chip[data-object="${o}"]`).count();
      if (n !== 2) throw new Error(`${o} is drawn ${n} times, not in its slab and in CPU 0's array`);
    }
    const cpu = await cardText(page, 'cpu:0');
    if (!/◀ top/.test(cpu) || !/batchcount 2/.test(cpu) || !/\[3\]/.test(cpu)) throw new Error(`the stack lacks its top, batch or slots: ${cpu}`);
    const node = await cardText(page, 'node:0');
    for (const want of ['slabs_partial', 'slabs_full', 'slabs_free', 'free_objects 0 / free_limit', 'shared', 'list_lock', 'held by ● A (CPU 0)']) {
      if (!node.includes(want)) throw new Error(`the node card lacks ${JSON.stringify(want)}: ${node}`);
    }
    if (!/private \(being set up\)/.test(await cardText(page, 'slab:P'))) throw new Error('slab P is not shown private');
    if (!/CPU 0: array_cache avail 2 of limit 4/.test(await stageText(page))) throw new Error(`the description: ${await stageText(page)}`);
    await page.waitForTimeout(400); // the tween
    await shot(page, 'slab-mid-refill');
    await axe(page, 'SLAB playground');
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(300);
    // The whole stage, one column: both CPUs' stacks, the slab, the node's lists and shared array.
    await page.getByTestId('stage').screenshot({ path: join(results, 'e2e-slab-mid-refill-phone.png') });
    if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) {
      throw new Error('the SLAB page scrolls sideways on a phone');
    }
    await page.setViewportSize(SLIDE);
    // Link the slab, pop the top, irqs back on: the first allocation returns p1 to a.
    for (let i = 10; i <= 13; i++) {
      await body.press('ArrowRight');
      await expectText(position, new RegExp(`^move ${i} of ${i}\\b`));
    }
    await expectText(narration, /returns p1/);
    await expectText(page.getByRole('region', { name: 'Variables' }), /a = p1/);
    await until(async () => /slabs_partial \| P\b/.test(await cardText(page, 'node:0')) || (await stage.locator('g.ref[data-slab="P"]').count()) === 1, 'P on a node list');
    await until(async () => /avail 1\/4/.test(await cardText(page, 'cpu:0')), 'one object left in the array');
  },
});

// The lesson pages, the lesson embed and the slide deck (lessons.mjs).
TESTS.push(...lessonTests({ axe, expectText, until, shot }));
// The deck on a projector and steps that play (deck.mjs).
TESTS.push(...deckTests({ axe, expectText, until, shot }));

// Hostile links: hostile.mjs.
TESTS.push(...hostileTests({ expectText, until, shot }));
TESTS.push(...longLinkTests({ expectText }));

// The exports: pictures, animations, handouts and `npm run export` (export.mjs).
TESTS.push(...exportTests({ expectText, until }));

TESTS.push(...phoneTests({ axe, expectText, until, shot }));

async function main() {
  if (!existsSync(join(dist, 'index.html')) || !existsSync(join(dist, 'embed.html'))) {
    throw new Error('dist/ is missing or old: run `npx vite build web` first');
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run \`node scripts/setup.mjs --browser\``);
  }
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
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
  const tests = TESTS.filter((t) => only === undefined || t.name.includes(only));
  try {
    for (const test of tests) {
      const context = await browser.newContext({
        viewport: test.viewport ?? SLIDE,
        colorScheme: test.colorScheme ?? 'light',
        reducedMotion: test.reducedMotion ?? 'no-preference',
        // A phone's touch screen (phone.mjs): taps, and the mobile viewport's rules.
        hasTouch: test.touch ?? false,
        isMobile: test.touch ?? false,
        acceptDownloads: true,
      });
      const page = await context.newPage();
      page.setDefaultTimeout(STEP_TIMEOUT_MS);
      /** @type {string[]} */
      const problems = [];
      context.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      });
      context.on('weberror', (e) => problems.push(`page error: ${e.error().message}`));
      // Every page runs under its Content-Security-Policy (web/csp.ts): anything it refuses fails
      // the test, whatever chromium prints about it.
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          console.error(`CSP refused ${e.blockedURI || 'inline code'} (${e.violatedDirective})`);
        });
      });
      const t0 = Date.now();
      try {
        await test.run(page, server.url);
        if (problems.length > 0) throw new Error(problems.join('\n'));
        console.log(`  ✓ ${test.name} (${Date.now() - t0} ms)`);
      } catch (e) {
        failures++;
        console.error(`  ✗ ${test.name}\n    ${String(e instanceof Error ? e.message : e)}`);
        for (const p of problems) console.error(`    ${p}`);
        const file = join(results, `e2e-failed-${failures}.png`);
        await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
        console.error(`    screenshot: ${file}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(`e2e: ${tests.length - failures} passed, ${failures} failed`);
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
