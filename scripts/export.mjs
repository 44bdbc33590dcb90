// `npm run export`: a lesson step or a playground state as a figure, without a GUI, for a
// course's Makefile. It serves the built app (dist/), opens the step in the
// embed (`controls=full`) in headless chromium (playwright-core driving /usr/bin/chromium, the
// browser `npm test` installs) and presses the embed's own export buttons: one code path with
// the page's (web/src/ui/ExportPanel.tsx, web/src/export/).
//
//   npm run export -- --lesson 04 --step 9 --format gif [--from 8 --to 55] [--speed 2]
//   npm run export -- --link '#/play?s=sc01&m=T,T,I&at=3' --format pdf
//   npm run export -- --deck --out lecture.pdf   (the reveal.js deck, one page per slide and per
//            fragment stop, each embedded stop as its step's SVG picture)
//   options: --format svg|png|png2x|pdf|gif|webm   --out FILE (default: the page's file name)
//            --site URL (where the course's slub-lab is: the caption then carries the step's
//            permalink there and its QR code; without it, no permalink)   --no-caption   --from/--to: move numbers (default: the
//            step's own moves; the playground's: all)   --speed: moves a second (default 2)
//
// Exit codes: 0 written; 2 bad input (the message names what is wrong, nothing is written);
// 1 anything else (no dist/, no chromium).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { root } from './lib.mjs';
import { serve } from '../web/e2e/serve.mjs';

export const FORMATS = ['svg', 'png', 'png2x', 'pdf', 'gif', 'webm'];
const BUTTON = { svg: 'SVG', png: 'PNG', png2x: 'PNG 2×', pdf: 'PDF', gif: 'GIF', webm: 'WebM' };
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Bad input: exit 2 with this message. */
export class UsageError extends Error {}

/** The lessons on disk: folder `NN-slug`, id from its front matter. */
function lessonsOnDisk() {
  const dir = join(root, 'lessons');
  return readdirSync(dir)
    .filter((d) => /^\d\d-/.test(d) && existsSync(join(dir, d, 'lesson.md')))
    .map((d) => ({ dir: d, id: /^id:\s*(\S+)/m.exec(readFileSync(join(dir, d, 'lesson.md'), 'utf8'))?.[1] ?? d.slice(3) }));
}

/** `04`, `4`, `04-aba-without-tid` or `aba-without-tid` → the lesson's id. */
export function lessonId(name) {
  const all = lessonsOnDisk();
  const hit = all.find((l) => l.id === name || l.dir === name || (/^\d+$/.test(name) && Number(l.dir.slice(0, 2)) === Number(name)));
  if (hit === undefined) throw new UsageError(`unknown lesson "${name}": give its number (00-18) or id (${all.slice(0, 3).map((l) => l.id).join(', ')}, …)`);
  return hit.id;
}

const NUMBER = (name, v) => {
  if (v === undefined || !/^\d+$/.test(v)) throw new UsageError(`--${name} "${v ?? ''}" is not a whole number`);
  return Number(v);
};

/** The command line → a request; UsageError on anything wrong. */
export function parseArgs(argv) {
  const o = { caption: true, speed: 2 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--lesson') o.lesson = value();
    else if (a === '--step') o.step = NUMBER('step', value());
    else if (a === '--link') o.link = value();
    else if (a === '--deck') o.deck = true;
    else if (a === '--format') o.format = value();
    else if (a === '--out') o.out = value();
    else if (a === '--site') {
      o.site = value();
      if (!/^https?:\/\/[^\s]+$/.test(o.site)) throw new UsageError(`--site "${o.site}" is not an http(s) address`);
    }
    else if (a === '--from') o.from = NUMBER('from', value());
    else if (a === '--to') o.to = NUMBER('to', value());
    else if (a === '--speed') {
      const v = value();
      o.speed = Number(v);
      if (!(o.speed > 0 && o.speed <= 60)) throw new UsageError(`--speed "${v}" is not a number of moves a second between 0 and 60`);
    } else if (a === '--no-caption') o.caption = false;
    else if (a === '--help' || a === '-h') o.help = true;
    else throw new UsageError(`unknown option "${a}"`);
  }
  if (o.help) return o;
  if (o.deck === true) {
    if (o.format !== undefined && o.format !== 'pdf') throw new UsageError(`--deck prints the deck to PDF: --format ${o.format} is not one it makes`);
    const extra = ['lesson', 'step', 'link', 'from', 'to'].find((k) => o[k] !== undefined);
    if (extra !== undefined) throw new UsageError(`--deck prints the whole deck: --${extra} does not go with it`);
    o.format = 'pdf';
    return o;
  }
  if (o.format === undefined) throw new UsageError(`--format is missing: one of ${FORMATS.join(', ')}`);
  if (!FORMATS.includes(o.format)) throw new UsageError(`unknown format "${o.format}": one of ${FORMATS.join(', ')}`);
  if ((o.lesson === undefined) === (o.link === undefined)) throw new UsageError('give either --lesson (with --step) or --link');
  if (o.lesson !== undefined) {
    o.lesson = lessonId(o.lesson);
    if (o.step === undefined) throw new UsageError('--step is missing (a lesson step: 1 and up)');
    if (o.step < 1) throw new UsageError('--step 0: steps count from 1');
  } else {
    const hash = o.link.slice(o.link.indexOf('#'));
    if (!o.link.includes('#') || !hash.startsWith('#/play')) throw new UsageError(`--link "${o.link.slice(0, 60)}" is not a playground permalink (…#/play?s=…)`);
    o.hash = hash;
  }
  if ((o.from !== undefined || o.to !== undefined) && o.format !== 'gif' && o.format !== 'webm') {
    throw new UsageError(`--from/--to make an animation: use --format gif or webm, not ${o.format}`);
  }
  return o;
}

/** The embed page of a request (its error panel speaks for a bad step or link). */
function pageOf(o) {
  if (o.lesson !== undefined) return `embed.html#/lessons/${encodeURIComponent(o.lesson)}/${o.step}?controls=full&from=${o.step}&to=${o.step}`;
  return `embed.html${o.hash}${o.hash.includes('?') ? '&' : '?'}controls=full`;
}

/**
 * Make the figure of request `o` in `browser` against the app served at `url`: resolves to
 * `{ name, bytes }` (the file name the page gave it, its contents); UsageError for a bad step,
 * link or range (the page's own message).
 */
export async function makeFigure(browser, url, o) {
  const context = await browser.newContext(FIGURE_CONTEXT);
  try {
    return await figureIn(await context.newPage(), url, o);
  } finally {
    await context.close();
  }
}

const FIGURE_CONTEXT = { viewport: { width: 1280, height: 720 }, reducedMotion: /** @type {const} */ ('reduce'), acceptDownloads: true };

/**
 * makeFigure in `page` (of a context made with FIGURE_CONTEXT). A page that shows another
 * lesson step's embed follows the new hash without loading again (a deck's steps: 0.6 s a
 * picture instead of 2); the export menu stays open.
 */
async function figureIn(page, url, o) {
  page.setDefaultTimeout(30_000);
  const errors = [];
  const onError = (/** @type {Error} */ e) => errors.push(e.message);
  page.on('pageerror', onError);
  try {
    return await figureOnce(page, url, o, errors);
  } finally {
    page.off('pageerror', onError);
  }
}

/** figureIn's work; `errors` are the page's errors meanwhile. */
async function figureOnce(page, url, o, errors) {
  await page.goto(`${url}${pageOf(o)}`);
  const stage = page.getByTestId('stage').locator('g.card').first();
  const bad = page.locator('.link-error, .crash, main.embed > p.error');
  // The step asked for, not the one shown before the hash changed.
  if (o.lesson !== undefined) await page.locator(`main[data-lesson="${o.lesson}"][data-step="${o.step}"]`).or(bad).first().waitFor();
  await stage.or(bad).first().waitFor();
  await page.evaluate(() => new Promise((done) => globalThis.requestAnimationFrame(() => globalThis.requestAnimationFrame(done))));
  if (await bad.first().isVisible()) {
    // The link-error panel's own sentence (what and where), else the error screen's text.
    const said = page.getByTestId('link-error');
    const text = ((await said.count()) > 0 ? await said.innerText() : await bad.first().innerText()).replace(/\s+/g, ' ').trim();
    throw new UsageError(o.lesson !== undefined ? `lesson ${o.lesson} step ${o.step}: ${text}` : `--link: ${text}`);
  }
  // The site the caption's permalink and QR code point to (ExportPanel.tsx `permalink`).
  if (o.site !== undefined) {
    await page.evaluate((site) => {
      globalThis.document.documentElement.dataset.exportSite = site;
    }, o.site);
  }
  // The export menu loads its panel (and the exporters) when opened, as for a user.
  const menu = page.locator('details.export-menu');
  if ((await menu.getAttribute('open')) === null) await menu.locator('summary').click();
  const panel = page.getByRole('region', { name: 'Export' });
  await panel.waitFor();
  if (o.from !== undefined) await panel.getByLabel('from', { exact: true }).fill(String(o.from));
  if (o.to !== undefined) await panel.getByLabel('to', { exact: true }).fill(String(o.to));
  if (o.format === 'gif' || o.format === 'webm') await panel.getByRole('combobox').selectOption(String(o.speed));
  // No permalink without --site: the page's own address here is a loopback one.
  if (!o.caption || o.site === undefined) await panel.getByRole('checkbox').uncheck();
  const status = panel.getByTestId('export-status');
  const download = page.waitForEvent('download', { timeout: 120_000 }).catch(() => null);
  await panel.getByRole('button', { name: BUTTON[o.format], exact: true }).click();
  // The download, or the page's error (role=alert) first.
  const failed = panel.locator('[data-testid="export-status"][role="alert"]').waitFor({ timeout: 120_000 }).then(() => null, () => null);
  const got = await Promise.race([download, failed]);
  if (got === null) {
    const text = await status.innerText();
    if (/could not be made/.test(text)) throw new UsageError(text.replace(/^The \S+( 2×)? could not be made: /, ''));
    throw new Error(`no file came: ${text} ${errors.join('; ')}`);
  }
  const path = await got.path();
  return { name: got.suggestedFilename(), bytes: readFileSync(path) };
}

/** Run `jobs` (functions returning promises) `width` at a time; their results in order. */
async function pool(jobs, width) {
  const out = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return out;
}

/**
 * The reveal.js deck (slides/index.html) printed to PDF by chromium: reveal.js's print view
 * (`?print-pdf&pictures`: a page per slide and per fragment stop), in which deck.js puts a
 * picture where each embed was and names its stop's step; each step's picture is its SVG export
 * (figureIn, as `--format svg`), drawn as vectors. Resolves to `{ name, bytes, pages, pictures }`.
 */
export async function makeDeck(browser, url, o) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}slides/index.html?print-pdf&pictures`);
    await page.waitForFunction(() => globalThis.document.documentElement.getAttribute('data-deck-pictures') === 'named');
    const stops = await page.evaluate(() =>
      Array.from(globalThis.document.querySelectorAll('.pdf-page img.embed-picture'), (img) => ({
        lesson: img.getAttribute('data-lesson') ?? '',
        step: Number(img.getAttribute('data-step')),
      })),
    );
    const bad = [...new Set(errors)];
    if (bad.length > 0) throw new Error(`the deck failed to lay out: ${bad.join('; ')}`);
    const keys = [...new Set(stops.map((s) => `${s.lesson}/${s.step}`))];
    // Two embed pages, each going from step to step (figureIn); two: the machine's cores, not
    // the browser, are the limit.
    const workers = await Promise.all([0, 1].map(async () => (await browser.newContext(FIGURE_CONTEXT)).newPage()));
    const idle = [...workers];
    const svgs = await pool(
      keys.map((key) => async () => {
        const [lesson, step] = key.split('/');
        const worker = idle.pop();
        try {
          const figure = await figureIn(worker, url, { lesson, step: Number(step), format: 'svg', caption: o.caption, site: o.site, speed: 2 });
          return figure.bytes.toString('utf8');
        } finally {
          idle.push(worker);
        }
      }),
      workers.length,
    );
    await Promise.all(workers.map((w) => w.context().close()));
    const pictures = Object.fromEntries(keys.map((k, i) => [k, svgs[i]]));
    await page.evaluate(async (pictures) => {
      const imgs = Array.from(globalThis.document.querySelectorAll('.pdf-page img.embed-picture'));
      for (const img of imgs) img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(pictures[`${img.getAttribute('data-lesson')}/${img.getAttribute('data-step')}`] ?? '')}`;
      await Promise.all(imgs.map((img) => img.decode()));
    }, pictures);
    const pages = await page.locator('.pdf-page').count();
    const bytes = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    return { name: 'slub-lab-deck.pdf', bytes, pages, pictures: stops.length };
  } finally {
    await context.close();
  }
}

export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`node scripts/setup.mjs --browser\` (npm test does)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

const USAGE = `usage: npm run export -- (--lesson NN --step N | --link '#/play?…') --format ${FORMATS.join('|')}
         [--from MOVE --to MOVE] [--speed MOVES_PER_S] [--site URL] [--no-caption] [--out FILE]
       npm run export -- --deck [--site URL] [--out FILE]   (the slides as PDF)`;

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`slub-lab export: ${e.message}\n${USAGE}`);
      process.exit(2);
    }
    throw e;
  }
  if (o.help) {
    console.log(USAGE);
    return;
  }
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'embed.html'))) {
    console.error('slub-lab export: dist/ is missing: run `npm run build` first');
    process.exit(1);
  }
  const t0 = performance.now();
  const server = await serve(dist);
  const browser = await launch();
  try {
    const made = o.deck === true ? await makeDeck(browser, server.url, o) : await makeFigure(browser, server.url, o);
    const { name, bytes } = made;
    // `npm run export` runs in the package's folder: a relative --out is the caller's (INIT_CWD).
    const base = process.env.npm_lifecycle_event === 'export' ? (process.env.INIT_CWD ?? process.cwd()) : process.cwd();
    const out = resolve(base, o.out ?? name);
    if (existsSync(out) && statSync(out).isDirectory()) throw new UsageError(`--out ${out} is a directory`);
    writeFileSync(out, bytes);
    const what = 'pages' in made ? `: ${made.pages} pages, ${made.pictures} stops as pictures` : '';
    console.log(`slub-lab export: wrote ${out} (${Math.round(bytes.length / 1024)} KB${what}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`slub-lab export: ${e.message}`);
      process.exitCode = 2;
    } else throw e;
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e) => {
    console.error(`slub-lab export: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
