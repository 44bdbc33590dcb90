// Hostile links, in the built page: prototype keys in every route, a goal banner that
// agrees with `slub-lab grade`, and a link of more moves than the command line's limit.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, shot, test } from './fixtures.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `v1.` + base64url of a scenario's compact JSON (web/src/state/url.ts encodeScenario). */
function encode(/** @type {unknown} */ scenario) {
  return `v1.${Buffer.from(JSON.stringify(scenario)).toString('base64url')}`;
}

/** The ABA exercise's scenario as the lesson opens it: the lesson's, under `no-tid`. */
function abaOpening() {
  const sc = JSON.parse(readFileSync(join(root, 'lessons', '04-aba-without-tid', 'scenario.json'), 'utf8'));
  return { ...sc, variant: { ...(sc.variant ?? {}), fastpath: 'no-tid' } };
}

/** The ABA exercise's right answer (wasm-core/cli/tests/grade.rs). */
const ABA_RIGHT = [...Array(4).fill('T'), ...Array(24).fill('I'), ...Array(12).fill('T')];

const KEYS = ['__proto__', 'constructor'];

/** Every route with the query parameters it reads (design.md §6). */
function hostileLinks() {
  /** @type {string[]} */
  const links = [];
  const routes = [
    { page: '', path: '/play', params: ['s', 'm', 'at', 'goal'] },
    { page: '', path: '/explore', params: ['s', 'm', 'at', 'goal'] },
    { page: '', path: '/compare', params: ['s', 'at'] },
    { page: '', path: '/lab', params: [] },
    { page: '', path: '/lessons', params: ['topic', 'q'] },
    { page: '', path: '/lessons/aba-without-tid/2', params: [] },
    { page: '', path: '/lessons/glossary/tid', params: [] },
    { page: '', path: '/lessons/invariants/INV-1', params: [] },
    { page: 'embed.html', path: '/play', params: ['s', 'm', 'at', 'controls', 'theme', 'lines', 'from', 'to', 'autoplay'] },
    { page: 'embed.html', path: '/lessons/aba-without-tid/2', params: ['from', 'to', 'controls'] },
  ];
  for (const { page, path, params } of routes) {
    for (const key of KEYS) {
      for (const p of params) links.push(`${page}#${path}?${p}=${key}`);
      links.push(`${page}#${path}?${key}=${key}`);
      const segments = path.split('/').filter((s) => s !== '');
      for (let i = 0; i < segments.length; i++) {
        const s = [...segments];
        s[i] = key;
        links.push(`${page}#/${s.join('/')}`);
      }
    }
  }
  return links;
}

test.describe('hostile links', () => {
  test('a hostile visitor puts __proto__ and constructor in every route’s parameters and path', async ({ page, context, url }) => {
    const links = hostileLinks();
    /** Open `link` in `tab` as a fresh document and check what it shows. */
    const visit = async (/** @type {import('@playwright/test').Page} */ tab, /** @type {string} */ link, /** @type {number} */ n) => {
      // A fresh document each time (a hash change alone would keep the last page's state): the
      // query, which no page reads, differs from the tab's last address.
      const hash = link.indexOf('#');
      await tab.goto(`${url}${link.slice(0, hash)}?visit=${n}${link.slice(hash)}`);
      // The page settles on its content, a link error or (the bug) the crash screen.
      const settled = tab.locator('main, .crash, .link-error, [data-testid="embed"]');
      await settled.first().waitFor();
      await tab.waitForTimeout(150);
      if ((await tab.locator('.crash').count()) > 0) {
        throw new Error(`${link}: the crash screen: ${await tab.locator('.crash').innerText()}`);
      }
      const text = await tab.locator('body').innerText();
      expect(text, `${link}: a prototype rendered as text`).not.toMatch(/\[object Object\]|function Object\(\)/);
    };
    // Three tabs of the story's context (its console and page errors fail the story as one
    // tab's would), each taking the next link: a page load mostly waits, so three overlap.
    const tabs = [page, await context.newPage(), await context.newPage()];
    let next = 0;
    await Promise.all(
      tabs.map(async (tab) => {
        while (next < links.length) {
          const n = next++;
          await visit(tab, links[n], n);
        }
      }),
    );
    console.log(`    ${links.length} links over every route, none crashed`);
  });
  test('a student who changes the exercise’s variant gets no “goal reached”, as the grader gives no marks', async ({ page, url }) => {
    const m = ABA_RIGHT.join(',');
    const goal = page.getByTestId('goal');
    // The exercise as it opens, the right interleaving played: the goal is reached.
    await page.goto(`${url}#/play?s=${encode(abaOpening())}&m=${m}&at=${ABA_RIGHT.length}&goal=aba-without-tid/e1`);
    await expect(goal).toHaveText(/Goal reached/, { useInnerText: true });
    await page.getByTestId('goal-hand-in').waitFor();
    // The same moves without CPU partial lists: INV-12 without INV-1 still (the model's
    // win), but `slub-lab grade` scores it 0: the page says it is no longer the exercise.
    const changed = abaOpening();
    changed.variant.cpuPartial = false;
    await page.goto('about:blank');
    await page.goto(`${url}#/play?s=${encode(changed)}&m=${m}&at=${ABA_RIGHT.length}&goal=aba-without-tid/e1`);
    await expect(goal).toHaveText(/No longer the goal[\s\S]*no longer the exercise: the scenario or its variant/, { useInnerText: true });
    await expect(page.getByTestId('goal-hand-in'), 'the hand-in instructions are shown').toHaveCount(0);
    await shot(page, 'goal-no-longer');
    // Changing the variant back in the scenario bar makes it the exercise again.
    const key = page.getByLabel('cpuPartial', { exact: true });
    if ((await key.count()) === 1 && (await key.isVisible())) {
      await key.selectOption('');
      await expect(goal, 'the goal back once the variant is the exercise’s').toHaveText(/Goal reached|Your goal/, { useInnerText: true });
    }
  });
  test('a link past the command line’s move limit is refused, naming its moves', async ({ page, url }) => {
    const m = Array(100_001).fill('T').join(',');
    await page.goto(`${url}#/play?s=sc01&m=${m}&at=0`);
    await expect(page.getByTestId('link-error')).toHaveText(/the moves \(m\): 100,001 moves: a link holds at most 100,000 \(MAX_SCHEDULE_MOVES/, { useInnerText: true });
  });
});
