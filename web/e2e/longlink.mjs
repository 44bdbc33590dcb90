// A long playground link (longlink.spec.mjs plays it in the built page; scripts/bench-web.mjs
// times it): the page replays its moves in slices and never
// holds the main thread long, ends where the command line ends, and refuses one move more
// than the command line's limit with its place.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'target', 'release', 'slub-lab');
/** web/src/sim/generated/limits.ts MAX_SCHEDULE_MOVES (generated from the Rust constant). */
export const LIMIT = Number(/MAX_SCHEDULE_MOVES = (\d+)/.exec(readFileSync(join(root, 'web', 'src', 'sim', 'generated', 'limits.ts'), 'utf8'))?.[1]);

/**
 * SC3's scenario and `total` moves that play: T reads its tid, U preempts it, the switched-out
 * T migrates between the CPUs (a move that can repeat for ever: the model has no context
 * that steps for ever on its own), then U and T run to their ends. Where T allocates, and so
 * the cycles, depends on the number of migrations: a move lost or added shows.
 */
export function longLink(total) {
  const scenario = JSON.parse(readFileSync(join(root, 'wasm-core', 'sim', 'tests', 'scenarios', 'sc03_migration_between_tid_and_cas.json'), 'utf8'));
  const tail = [...Array(8).fill('U'), ...Array(13).fill('T')];
  const moves = ['T', 'T', 'T', 'T', 'U'];
  while (moves.length < total - tail.length) moves.push(moves.length % 2 === 1 ? 'migrate:T:1' : 'migrate:T:0');
  moves.push(...tail);
  return { scenario, moves, s: `v1.${Buffer.from(JSON.stringify(scenario)).toString('base64url')}` };
}

/** `slub-lab run` of the scenario with `moves` as its schedule: the outcome JSON. */
export function cliOutcome(scenario, moves) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`cargo build --release -p slub-lab\``);
  const dir = mkdtempSync(join(tmpdir(), 'slub-longlink-'));
  try {
    const file = join(dir, 'long.json');
    writeFileSync(file, JSON.stringify({ ...scenario, schedule: moves }));
    const r = spawnSync(CLI, ['run', file, '--max-moves', '0'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`slub-lab run exited ${r.status}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The tasks of the pages' main threads (CrRendererMain) while `run` runs, from a trace: each
 * task's wall time and thread (CPU) time in ms, and whether it is the page's (not the
 * browser's committing the navigation).
 * @param {import('playwright-core').Page} page @param {() => Promise<void>} run
 */
export async function mainThreadTasks(page, run) {
  const browser = page.context().browser();
  if (browser === null) throw new Error('no browser to trace');
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute'] });
  await run();
  /** @type {{ name: string, ph: string, pid: number, tid: number, ts: number, dur?: number, tdur?: number, args?: { name?: string } }[]} */
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = events.filter((e) => e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`));
  // The browser's committing a navigation (CommitLoad): a megabyte's address takes it about
  // 200 ms of CPU before any of the page's code has run.
  const commits = onMain.filter((e) => e.name === 'CommitLoad');
  return onMain
    .filter((e) => e.name === 'RunTask')
    .map((e) => {
      const end = e.ts + (e.dur ?? 0);
      const commit = commits.some((c) => c.pid === e.pid && c.tid === e.tid && c.ts >= e.ts && c.ts <= end);
      return { wall: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? 0) / 1000, page: !commit };
    });
}
