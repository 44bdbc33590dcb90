// A long playground link, in the built page: the page replays its moves in slices and never
// holds the main thread long, ends where the command line ends, and refuses one move more
// than the command line's limit with its place.
import { expect, test } from './fixtures.mjs';
import { cliOutcome, LIMIT, longLink, mainThreadTasks } from './longlink.mjs';

test.describe('long links', () => {
  test('a learner opens a link of 100,000 moves: it replays in slices, the page never freezes, and it ends where the command line does', async ({ page, url }) => {
    const { scenario, moves, s } = longLink(LIMIT);
    // When the replay's progress line first showed, and its words.
    // With __cancel set, Cancel is clicked as soon as it is drawn (from the page: a click
    // from here could come after the replay had ended).
    await page.addInitScript(() => {
      const w = /** @type {any} */ (window);
      new MutationObserver((_, obs) => {
        const status = document.querySelector('[data-testid="replay-progress"] [role="status"]');
        if (status === null) return;
        w.__replay ??= status.textContent;
        if (w.__cancel === true) /** @type {HTMLButtonElement | null} */ (document.querySelector('[data-testid="replay-cancel"]'))?.click();
        obs.disconnect();
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const t0 = Date.now();
    const tasks = await mainThreadTasks(page, async () => {
      await page.goto(`${url}#/play?s=${s}&m=${moves.join(',')}&at=${moves.length}`, { timeout: 120_000 });
      await page.getByTestId('stage').locator('g.card').first().waitFor({ timeout: 120_000 });
      await page.waitForTimeout(1_000); // the tasks after the first frame (the URL, the panels)
    });
    // A correctness property of the slicing, not a speed budget (those live in
    // scripts/bench-web.mjs): no task of the page's (all but the navigation's commit) holds
    // the main thread for more than 200 ms (before the slices, one held it 11 s). Judged on the
    // task's CPU time: on a machine shared by several test runs, a task's wall time also
    // counts the time the system gave to others (a 2 ms task was seen to take 137 ms).
    const pages = tasks.filter((t) => t.page);
    const cpu = Math.max(...pages.map((t) => t.cpu));
    const wall = Math.max(...pages.map((t) => t.wall));
    const commit = Math.max(0, ...tasks.filter((t) => !t.page).map((t) => t.cpu));
    console.log(
      `    100,000 moves: first frame after ${Date.now() - t0} ms; the longest task of the page's ${Math.round(cpu)} ms of CPU (${Math.round(wall)} ms the longest in wall time, of ${pages.length}); the navigation's commit ${Math.round(commit)} ms`,
    );
    expect(cpu, `a task held the main thread for ${Math.round(cpu)} ms of CPU while the link loaded`).toBeLessThanOrEqual(200);
    // The learner saw how far the replay was (a screen reader hears this line once).
    const replay = await page.evaluate(() => /** @type {any} */ (window).__replay);
    expect(replay, `the progress line said ${JSON.stringify(replay)}`).toBe('Replaying the link’s 100,000 moves…');
    // The page ends where `slub-lab run` of the same schedule ends: its counters and cycles.
    const cli = cliOutcome(scenario, moves);
    await expect(page.getByTestId('position')).toHaveText(/^move 100000 of 100000 /, { useInnerText: true });
    await expect(page.getByTestId('status')).toHaveText(/^finished$/, { useInnerText: true });
    const stats = page.locator('.panel').filter({ hasText: 'Statistics' });
    await expect(stats).toHaveText(new RegExp(`cycles per CPU: ${cli.cycles.perCpu.join(', ')}`), { useInnerText: true });
    for (const [name, n] of Object.entries(cli.stats.total).filter(([, n]) => n > 0)) {
      await expect(stats.getByRole('row', { name: new RegExp(`^${name}\\b`) })).toHaveText(new RegExp(`\\b${n}$`), { useInnerText: true });
    }
    // One migration fewer ends elsewhere (T allocates on the other CPU): the check above
    // can fail.
    const last = moves.length - 22; // the last migration, before U and T run to their ends
    const fewer = cliOutcome(scenario, [...moves.slice(0, last), ...moves.slice(last + 1)]);
    expect(fewer.cycles.perCpu.join(), 'the cycles do not tell a lost migration').not.toBe(cli.cycles.perCpu.join());
    // Cancel keeps the moves replayed so far: the player opens on them.
    await page.addInitScript(() => {
      /** @type {any} */ (window).__cancel = true;
    });
    await page.goto('about:blank');
    await page.goto(`${url}#/play?s=${s}&m=${moves.join(',')}&at=${moves.length}`, { timeout: 120_000 });
    await expect(page.getByTestId('position')).toHaveText(/^move (\d+) of \1 /, { useInnerText: true });
    const kept = Number(/^move (\d+)/.exec(await page.getByTestId('position').innerText())?.[1]);
    expect(kept, 'the moves Cancel kept').toBeLessThan(moves.length);
  });
  test('a link of 100,001 moves is refused with its place; one of 99,999 that stops early says which move, in the page and the embed', async ({ page, url }) => {
    const { moves, s } = longLink(LIMIT);
    await page.goto(`${url}#/play?s=${s}&m=${[...moves, 'T'].join(',')}&at=0`);
    await expect(page.getByTestId('link-error')).toHaveText(/the moves \(m\): 100,001 moves: a link holds at most 100,000 \(MAX_SCHEDULE_MOVES/, { useInnerText: true });
    // A move that does not play deep in a long link: refused as in a short one, with its index.
    const bad = [...moves.slice(0, 99_998), 'nobody'];
    await page.goto('about:blank');
    await page.goto(`${url}#/play?s=${s}&m=${bad.join(',')}&at=0`, { timeout: 120_000 });
    await expect(page.getByTestId('link-error')).toHaveText(/the moves \(m\): move 99998 \("nobody"\) is not enabled/, { useInnerText: true });
    // The embed replays it in slices too, and refuses it the same way.
    await page.goto('about:blank');
    await page.goto(`${url}embed.html#/play?s=${s}&m=${bad.join(',')}&at=0`, { timeout: 120_000 });
    await expect(page.getByTestId('link-error')).toHaveText(/the moves \(m\): move 99998 \("nobody"\) is not enabled/, { useInnerText: true });
  });
});
