// End-to-end stories of the exports: every export button gives its file
// (Playwright's download event), the files are what they say (an SVG that parses and holds the
// step's text, a PNG of the stated size, a PDF page with the step's text, a GIF of one frame per
// move), `npm run export` gives the same and refuses bad input with exit code 2. Run under
// the rules of fixtures.mjs (any console error fails; files go to test-results/e2e/).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { expect, outputPath, test } from './fixtures.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** @typedef {import('@playwright/test').Page} Page */
/** @typedef {import('@playwright/test').Locator} Locator */

/** One step of each allocator family, with a text its stage or caption must hold. */
export const THREE_STEPS = [
  { family: 'SLUB', id: 'fast-path-and-tid', step: 3, title: 'Read the head and its successor', stage: /freelist/ },
  { family: 'SLAB', id: 'slab-queues', step: 5, title: 'T frees three objects', stage: /avail/ },
  { family: '7.0 sheaves', id: 'sheaves-and-the-barn', step: 3, title: 'Main is empty: the barn trades a full sheaf for it', stage: /barn|sheaf/i },
];

/** The export panel in `scope` (the page by default), its menu opened (the exporters load then). */
export async function exportPanel(/** @type {Page} */ page, /** @type {Locator | undefined} */ scope) {
  const within = scope ?? page.locator('main').first();
  const menu = within.locator('details.export-menu');
  if ((await menu.getAttribute('open')) === null) await menu.locator('summary').click();
  const panel = within.getByRole('region', { name: 'Export' });
  await panel.waitFor();
  return panel;
}

/** Press the export panel's button `name` and take the file it downloads. */
export async function take(/** @type {Page} */ page, /** @type {string} */ name, /** @type {Locator | undefined} */ scope) {
  const panel = await exportPanel(page, scope);
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), panel.getByRole('button', { name, exact: true }).click()]);
  const path = await dl.path();
  return { name: dl.suggestedFilename(), bytes: readFileSync(path) };
}

/** Width and height of a PNG (its IHDR). */
export function pngSize(/** @type {Buffer} */ png) {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  return { w: png.readUInt32BE(16), h: png.readUInt32BE(20) };
}

/** The pages of a PDF and the text of its content streams (inflated). */
export function pdfFacts(/** @type {Buffer} */ pdf) {
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('not a PDF');
  const text = pdf.toString('latin1');
  const pages = (text.match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
  const images = (text.match(/\/Subtype\s*\/Image/g) ?? []).length;
  let content = '';
  for (const m of text.matchAll(/(?<!end)stream\r?\n/g)) {
    const start = (m.index ?? 0) + m[0].length;
    const end = text.indexOf('endstream', start);
    try {
      content += inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      content += text.slice(start, end);
    }
  }
  return { pages, images, content };
}

/** A PDF's objects by number: the dictionary's text, and the stream (inflated where it is Flate). */
function pdfObjects(/** @type {Buffer} */ pdf) {
  const text = pdf.toString('latin1');
  /** @type {Map<number, { dict: string, stream: string | null }>} */
  const objects = new Map();
  const head = /(\d+) 0 obj\b/g;
  let m;
  while ((m = head.exec(text)) !== null) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endobj', start);
    if (end < 0) break;
    const body = text.slice(start, end);
    const s = /\bstream\r?\n/.exec(body);
    let stream = null;
    if (s !== null) {
      const from = start + s.index + s[0].length;
      const raw = pdf.subarray(from, text.lastIndexOf('endstream', end));
      try {
        stream = inflateSync(raw).toString('latin1');
      } catch {
        stream = raw.toString('latin1');
      }
    }
    objects.set(Number(m[1]), { dict: s === null ? body : body.slice(0, s.index), stream });
    // Past this object: its stream's bytes may look like an object's head.
    head.lastIndex = end;
  }
  return objects;
}

/** UTF-16BE hex (`<2744>`, `<D83DDD12>`) → the string. */
const utf16 = (/** @type {string} */ hex) => Buffer.from(hex, 'hex').swap16().toString('utf16le');

/** A font's ToUnicode map (code as lower-case hex → text) and its code width in hex digits; null: none. */
function toUnicode(/** @type {string | null | undefined} */ cmap) {
  if (cmap === undefined || cmap === null) return null;
  /** @type {Map<string, string>} */
  const map = new Map();
  let width = 4;
  for (const [, block] of cmap.matchAll(/beginbfchar([^]*?)endbfchar/g)) {
    for (const [, code, uni] of String(block).matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      width = String(code).length;
      map.set(String(code).toLowerCase(), utf16(String(uni)));
    }
  }
  for (const [, block] of cmap.matchAll(/beginbfrange([^]*?)endbfrange/g)) {
    for (const [, lo, hi, uni] of String(block).matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      width = String(lo).length;
      const first = parseInt(String(uni), 16);
      for (let g = parseInt(String(lo), 16); g <= parseInt(String(hi), 16); g++) {
        map.set(g.toString(16).padStart(width, '0'), String.fromCodePoint(first + g - parseInt(String(lo), 16)));
      }
    }
  }
  return { map, width };
}

/**
 * The text a PDF reader extracts: each text-showing operator's strings (Tj, TJ), in the pages'
 * content streams and in the forms they draw (a picture: chromium puts an <img>'s SVG in one),
 * decoded through its font's ToUnicode map (embedded fonts write glyph ids, Identity-H) or as
 * Latin-1 (the standard 14 fonts); one line each. A code a font cannot map is U+FFFD.
 */
export function pdfText(/** @type {Buffer} */ pdf) {
  const objects = pdfObjects(pdf);
  const ref = (/** @type {string} */ dict, /** @type {string} */ key) => Number(new RegExp(`/${key}\\s+(\\d+) 0 R`).exec(dict)?.[1] ?? NaN);
  /** A dictionary entry's text: `<< … >>` inline (one level of nesting) or the object it names. */
  const entry = (/** @type {string} */ dict, /** @type {string} */ key) => {
    const inline = new RegExp(`/${key}\\s*<<((?:[^<>]|<<[^<>]*>>|<[0-9a-fA-F]*>)*)>>`).exec(dict);
    if (inline !== null) return String(inline[1]);
    return objects.get(ref(dict, key))?.dict ?? '';
  };
  /** @type {Array<{ content: string, resources: string }>} */
  const streams = [];
  for (const o of objects.values()) {
    if (/\/Type\s*\/Page(?![s\w])/.test(o.dict)) {
      const resources = entry(o.dict, 'Resources');
      const contents = /\/Contents\s*\[([^\]]*)\]/.exec(o.dict)?.[1] ?? `${ref(o.dict, 'Contents')} 0 R`;
      for (const [, n] of contents.matchAll(/(\d+) 0 R/g)) streams.push({ content: objects.get(Number(n))?.stream ?? '', resources });
    } else if (/\/Subtype\s*\/Form/.test(o.dict) && o.stream !== null) streams.push({ content: o.stream, resources: entry(o.dict, 'Resources') });
  }
  const lines = [];
  for (const { content, resources } of streams) {
    /** @type {Map<string, ReturnType<typeof toUnicode>>} */
    const fonts = new Map();
    for (const [, name, num] of entry(resources, 'Font').matchAll(/\/(\S+?)\s+(\d+) 0 R/g)) {
      fonts.set(String(name), toUnicode(objects.get(ref(objects.get(Number(num))?.dict ?? '', 'ToUnicode'))?.stream));
    }
    /** @type {ReturnType<typeof toUnicode> | undefined} */
    let font;
    const decode = (/** @type {string} */ str) => {
      if (str.startsWith('<')) {
        const hex = str.slice(1, -1).replace(/\s+/g, '').toLowerCase();
        if (font === null || font === undefined) return Buffer.from(hex, 'hex').toString('latin1');
        const { map, width } = font;
        return Array.from(hex.match(new RegExp(`.{${width}}`, 'g')) ?? [], (c) => map.get(c) ?? '\uFFFD').join('');
      }
      return str.slice(1, -1).replace(/\\([()\\])/g, '$1');
    };
    const STRING = /<[0-9a-fA-F\s]*>|\((?:\\.|[^\\)])*\)/g;
    for (const op of content.matchAll(/\/(\S+)\s+[\d.]+\s+Tf|(<[0-9a-fA-F\s]*>|\((?:\\.|[^\\)])*\))\s*Tj|\[((?:<[0-9a-fA-F\s]*>|\((?:\\.|[^\\)])*\)|[^\]])*)\]\s*TJ/g)) {
      if (op[1] !== undefined) font = fonts.get(op[1]);
      else if (op[2] !== undefined) lines.push(decode(op[2]));
      else if (op[3] !== undefined) lines.push(Array.from(op[3].matchAll(STRING), (m) => decode(m[0])).join(''));
    }
  }
  return lines.join('\n');
}

/** Frames of a GIF, counted by the browser's own decoder (WebCodecs ImageDecoder); frame `save` as PNG. */
export async function gifFrames(/** @type {Page} */ page, /** @type {Buffer} */ gif, /** @type {number} */ save = 0) {
  // In the app's page: WebCodecs wants a secure context (the loopback origin is one).
  return page.evaluate(
      async ({ b64, save }) => {
        const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        // @ts-expect-error ImageDecoder is chromium's
        const dec = new ImageDecoder({ data, type: 'image/gif' });
        await dec.tracks.ready;
        await dec.completed;
        const count = dec.tracks.selectedTrack.frameCount;
        const { image } = await dec.decode({ frameIndex: Math.min(save, count - 1) });
        const canvas = new OffscreenCanvas(image.displayWidth, image.displayHeight);
        canvas.getContext('2d')?.drawImage(image, 0, 0);
        const blob = await canvas.convertToBlob({ type: 'image/png' });
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let s = '';
        for (const x of bytes) s += String.fromCharCode(x);
        return { count, duration: image.duration, png: btoa(s) };
      },
      { b64: gif.toString('base64'), save },
    );
}

/** Parse an SVG document outside the app (its policy would refuse the file's attributes): width, height, text. */
async function parseSvg(/** @type {Page} */ page, /** @type {string} */ svg) {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate((s) => {
      const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
      if (doc.querySelector('parsererror') !== null) return null;
      const el = doc.documentElement;
      return {
        w: Number(el.getAttribute('width')),
        h: Number(el.getAttribute('height')),
        text: Array.from(el.querySelectorAll('text'), (t) => t.textContent).join(' '),
        styles: el.querySelectorAll('style').length,
        classes: el.querySelectorAll('[class]').length,
      };
    }, svg);
  } finally {
    await blank.close();
  }
}

/** `npm run export` (scripts/export.mjs) in a fresh folder: exit code, output, the files it left. */
export function cli(/** @type {string[]} */ args, timeout = 120_000) {
  const cwd = mkdtempSync(join(tmpdir(), 'slub-export-'));
  try {
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'export.mjs'), ...args], { cwd, encoding: 'utf8', timeout });
    const files = readdirSync(cwd).map((f) => ({ name: f, bytes: readFileSync(join(cwd, f)) }));
    return { code: r.status, out: `${r.stdout}${r.stderr}`, files };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

test.describe('the exports', () => {
  test.describe(() => {
    test.use({ reducedMotion: 'reduce' });
    test('a lecturer exports a SLUB, a SLAB and a 7.0 step as SVG, PNG 1× and 2× and PDF, and a range as a GIF of one frame per move', async ({ page, url }) => {
      for (const s of THREE_STEPS) {
        await page.goto(`${url}embed.html#/lessons/${s.id}/${s.step}?controls=full&from=${s.step}&to=${s.step}`);
        await page.getByTestId('stage').locator('g.card').first().waitFor();
        const svg = await take(page, 'SVG');
        expect(svg.name, `${s.family}: the SVG is named ${svg.name}`).toBe(`slub-lab-${s.id}-step-${s.step}.svg`);
        writeFileSync(outputPath(`export-${s.id}.svg`), svg.bytes);
        const parsed = await parseSvg(page, svg.bytes.toString('utf8'));
        expect(parsed, `${s.family}: the SVG does not parse`).not.toBe(null);
        expect(parsed.text, `${s.family}: the SVG lacks the step's title "${s.title}": ${parsed.text.slice(0, 200)}`).toContain(s.title);
        if (!s.stage.test(parsed.text)) throw new Error(`${s.family}: the SVG lacks the stage's text ${s.stage}`);
        expect(parsed.text, `${s.family}: the caption lacks the permalink`).toContain(`#/lessons/${s.id}/${s.step}`);
        // Self-contained: no stylesheet, no class left to style, no theme variable to resolve.
        if (parsed.styles !== 0 || parsed.classes !== 0 || svg.bytes.includes('var(--')) throw new Error(`${s.family}: the SVG still depends on CSS`);
        for (const [button, scale] of /** @type {const} */ ([['PNG', 1], ['PNG 2×', 2]])) {
          const png = await take(page, button);
          const { w, h } = pngSize(png.bytes);
          expect(w, `${s.family}: the ${button} is ${w}×${h}, not ${parsed.w * scale}×${parsed.h * scale}`).toBe(Math.ceil(parsed.w * scale));
          expect(h, `${s.family}: the ${button} is ${w}×${h}, not ${parsed.w * scale}×${parsed.h * scale}`).toBe(Math.ceil(parsed.h * scale));
          writeFileSync(outputPath(`export-${s.id}${scale === 2 ? '.2x' : ''}.png`), png.bytes);
        }
        const pdfBytes = (await take(page, 'PDF')).bytes;
        const pdf = pdfFacts(pdfBytes);
        expect(pdf.pages, `${s.family}: the PDF has ${pdf.pages} pages`).toBe(1);
        // Text kept as text, every glyph in a font that has it: a reader extracts the step's title.
        // (One line a text: the caption wraps a long title.)
        const words = pdfText(pdfBytes).replace(/\s+/g, ' ');
        if (!words.includes(s.title) || !s.stage.test(words)) throw new Error(`${s.family}: the PDF's text lacks "${s.title}" or ${s.stage}: ${words.slice(0, 200)}`);
        if (words.includes('\uFFFD')) throw new Error(`${s.family}: the PDF has a glyph without its character`);
      }
      // SLAB step 5 plays T*12: a GIF of its moves has 12 frames, 500 ms each at 2 moves a second.
      await page.goto(`${url}embed.html#/lessons/slab-queues/5?controls=full&from=5&to=5`);
      await page.getByTestId('stage').locator('g.card').first().waitFor();
      const panel = await exportPanel(page);
      const from = Number(await panel.getByLabel('from', { exact: true }).inputValue());
      const to = Number(await panel.getByLabel('to', { exact: true }).inputValue());
      expect(to - from, `the range offered is ${from}→${to}, not the step's 12 moves`).toBe(12);
      const gif = await take(page, 'GIF');
      expect(gif.name, `the GIF is named ${gif.name}`).toBe(`slub-lab-slab-queues-step-5-moves-${from}-${to}.gif`);
      writeFileSync(outputPath('export-range.gif'), gif.bytes);
      const frames = await gifFrames(page, gif.bytes, 2);
      writeFileSync(outputPath('export-range-frame-3.png'), Buffer.from(frames.png, 'base64'));
      expect(frames.count, `the GIF has ${frames.count} frames for ${to - from} moves`).toBe(to - from);
      expect(Math.abs(frames.duration / 1000 - 500), `a frame lasts ${frames.duration / 1000} ms, not 500`).toBeLessThanOrEqual(10);
      // A range past the end: the panel says so, and nothing is downloaded.
      await panel.getByLabel('to', { exact: true }).fill('9999');
      await panel.getByRole('button', { name: 'GIF', exact: true }).click();
      await expect(panel.getByRole('alert')).toHaveText(/ends past the last move/, { useInnerText: true });
    });
  });
  test('a learner downloads every export of a lesson step and of a playground state: SVG, PNG, PNG 2×, PDF, GIF and WebM', async ({ page, url }) => {
    // The reader, at a step without a question (its moves play at once).
    await page.goto(`${url}#/lessons/sheaves-and-the-barn/5`);
    const main = page.locator('main.lesson-reader[data-step="5"]');
    await main.getByTestId('stage').locator('g.card').first().waitFor();
    const want = { SVG: /\.svg$/, PNG: /step-5\.png$/, 'PNG 2×': /\.2x\.png$/, PDF: /\.pdf$/, GIF: /-moves-\d+-\d+\.gif$/, WebM: /-moves-\d+-\d+\.webm$/ };
    const panel = await exportPanel(page, main);
    // A short range keeps the WebM (recorded in real time) quick: 2 moves at 8 a second.
    const from = Number(await panel.getByLabel('from', { exact: true }).inputValue());
    await panel.getByLabel('to', { exact: true }).fill(String(from + 2));
    await panel.getByRole('combobox').selectOption('8');
    for (const [button, name] of Object.entries(want)) {
      const file = await take(page, button, main);
      if (!name.test(file.name) || !file.name.startsWith('slub-lab-sheaves-and-the-barn-step-5')) throw new Error(`${button} gave ${file.name}`);
      expect(file.bytes.length, `${button} gave ${file.bytes.length} bytes`).toBeGreaterThanOrEqual(200);
      if (button === 'WebM' && file.bytes.subarray(0, 4).toString('hex') !== '1a45dfa3') throw new Error('the WebM is not a Matroska/WebM file');
      if (button === 'GIF' && (await gifFrames(page, file.bytes)).count !== 2) throw new Error('the reader\'s GIF of 2 moves does not have 2 frames');
    }
    await expect(panel.getByTestId('export-status')).toHaveText(/^Saved slub-lab-sheaves-and-the-barn-step-5-moves-\d+-\d+\.webm \(\d+ KB\)\.$/, { useInnerText: true });
    // The playground: SC1 to T's failed cmpxchg; the frame with its cache lines and timeline.
    // Its name (the caption's title) says ≠: with the stage's ❄ ● ⚡, none of them Latin-1.
    const sc1 = JSON.parse(readFileSync(join(root, 'wasm-core', 'sim', 'tests', 'scenarios', 'sc01_alloc_fastpath_irq_free_retry.json'), 'utf8'));
    sc1.name = 'SC1: the irq frees p3, so tid ≠ c->tid';
    const s = `v1.${Buffer.from(JSON.stringify(sc1)).toString('base64url')}`;
    await page.goto(`${url}#/play?s=${s}&m=T,T,T,T,T,T,T,I,I,I,I,I,I,I,I,I,T&at=17`);
    await page.getByTestId('stage').locator('g.card').first().waitFor();
    const png = await take(page, 'PNG 2×');
    expect(png.name, `the playground's PNG is named ${png.name}`).toBe('slub-lab-move-17.2x.png');
    const { w } = pngSize(png.bytes);
    expect(w, `the playground's 2× PNG is only ${w} px wide`).toBeGreaterThanOrEqual(1600);
    const pdfBytes = (await take(page, 'PDF')).bytes;
    writeFileSync(outputPath('export-play.pdf'), pdfBytes);
    const words = pdfText(pdfBytes);
    expect(pdfFacts(pdfBytes).pages, 'the playground\'s PDF lacks its page or its caption').toBe(1);
    expect(words, 'the playground\'s PDF lacks its page or its caption').toContain('move 17 of 17 · atomic step');
    // The symbols come out as themselves (jsPDF's standard fonts garbled all four).
    for (const want of ['slub-lab · SC1: the irq frees p3, so tid ≠ c->tid', '❄ frozen', '● T running', '⚡ I finished', '✕ differs']) {
      expect(words, `the playground's PDF text lacks "${want}": ${words.slice(0, 300)}`).toContain(want);
    }
    await (await exportPanel(page)).getByLabel('from', { exact: true }).fill('12');
    const gif = await take(page, 'GIF');
    expect(gif.name, `the playground's GIF ${gif.name} is not 5 frames`).toBe('slub-lab-move-17-moves-12-17.gif');
    expect((await gifFrames(page, gif.bytes)).count, `the playground's GIF ${gif.name} is not 5 frames`).toBe(5);
    // The playground embed with full controls has the panel too.
    await page.goto(`${url}embed.html#/play?s=sc01&m=T,T,T&at=3&controls=full`);
    await page.getByTestId('stage').locator('g.card').first().waitFor();
    const svg = await take(page, 'SVG');
    expect(svg.bytes.toString('utf8'), 'the embed\'s SVG does not say its move').toContain('move 3 of 3');
  });
  test('`npm run export` writes a step as a GIF of one frame per move, and refuses bad input with exit code 2 and nothing written', async ({ page, url }) => {
    await page.goto(`${url}embed.html#/play?s=sc01`);
    const good = cli(['--lesson', '16', '--step', '3', '--format', 'gif', '--speed', '4', '--site', 'https://course.example.org/slub-lab/']);
    expect(good.code, `npm run export failed (${good.code}): ${good.out}`).toBe(0);
    expect(good.files.length, `npm run export failed (${good.code}): ${good.out}`).toBe(1);
    const [file] = good.files;
    const m = /moves-(\d+)-(\d+)\.gif$/.exec(file?.name ?? '');
    expect(file, `it wrote ${file?.name}`).not.toBe(undefined);
    expect(m, `it wrote ${file?.name}`).not.toBe(null);
    const frames = await gifFrames(page, file.bytes);
    writeFileSync(outputPath('export-cli-frame-1.png'), Buffer.from(frames.png, 'base64'));
    expect(frames.count, `the GIF has ${frames.count} frames of ${frames.duration / 1000} ms`).toBe(Number(m[2]) - Number(m[1]));
    expect(Math.abs(frames.duration / 1000 - 250), `the GIF has ${frames.count} frames of ${frames.duration / 1000} ms`).toBeLessThanOrEqual(10);
    // A still with the course's address: the caption's permalink is there, not on loopback.
    const still = cli(['--lesson', 'slab-and-objects', '--step', '2', '--format', 'svg', '--site', 'https://course.example.org/slub-lab', '--out', 'fig.svg']);
    const svgText = still.files.find((f) => f.name === 'fig.svg')?.bytes.toString('utf8') ?? '';
    expect(still.code, `the CLI's SVG lacks the permalink on --site: ${still.out}`).toBe(0);
    expect(svgText, `the CLI's SVG lacks the permalink on --site: ${still.out}`).toContain('https://course.example.org/slub-lab/#/lessons/slab-and-objects/2');
    const bad = [
      [['--lesson', '99', '--step', '1', '--format', 'png'], /unknown lesson "99"/],
      [['--lesson', '04', '--step', '99', '--format', 'png'], /has 10 steps, not 99/],
      [['--link', '#/play?s=v1.eyJzY2hlbWFWZXJzaW9uIjox', '--format', 'svg'], /--link: .*was the link cut\?/],
      [['--lesson', '04', '--step', '9', '--format', 'gif', '--from', '0', '--to', '500'], /the range 0→500 ends past the last move \(47\)/],
      [['--lesson', '04', '--step', '9', '--format', 'bmp'], /unknown format "bmp"/],
      [['--lesson', '04', '--step', '9', '--format', 'svg', '--from', '3'], /--from\/--to make an animation/],
      [['--deck', '--format', 'gif'], /--deck prints the deck to PDF: --format gif/],
      [['--deck', '--lesson', '04'], /--deck prints the whole deck: --lesson does not go with it/],
    ];
    for (const [args, message] of bad) {
      const r = cli(/** @type {string[]} */ (args));
      if (r.code !== 2 || !message.test(r.out) || r.files.length > 0) {
        throw new Error(`npm run export ${args.join(' ')}: exit ${r.code}, ${r.files.length} files, said ${r.out.trim()}`);
      }
    }
  });
  test('a lecturer prints the deck to PDF (`npm run export -- --deck`): a page per slide and per fragment stop, each embedded stop the picture of its step', async ({ page, url }) => {
    // What the deck holds, read from reveal.js on screen: its slides, their fragment stops,
    // and the step each lesson slide's embed shows at each stop (deck.js's rule: the last
    // fragment shown with a data-step, else the first of data-steps).
    await page.goto(`${url}slides/index.html`);
    await page.waitForFunction(() => /** @type {any} */ (globalThis).Reveal?.isReady?.() === true);
    const plan = await page.evaluate(() => {
      const reveal = /** @type {any} */ (globalThis).Reveal;
      /** @type {number[]} */
      const steps = [];
      let pages = 0;
      for (const slide of /** @type {Element[]} */ (reveal.getSlides())) {
        /** @type {Map<number, Element[]>} */
        const groups = new Map();
        for (const f of slide.querySelectorAll('.fragment')) {
          const i = Number(f.getAttribute('data-fragment-index'));
          groups.set(i, [...(groups.get(i) ?? []), f]);
        }
        const order = [...groups.keys()].sort((a, b) => a - b);
        pages += 1 + order.length;
        if (!slide.hasAttribute('data-lesson')) continue;
        let step = Number(/^\s*(\d+)/.exec(slide.getAttribute('data-steps') ?? '')?.[1]);
        steps.push(step);
        for (const i of order) {
          for (const f of groups.get(i) ?? []) if (f.hasAttribute('data-step')) step = Number(f.getAttribute('data-step'));
          steps.push(step);
        }
      }
      return { pages, steps };
    });
    const r = cli(['--deck', '--out', 'deck.pdf'], 300_000);
    const file = r.files.find((f) => f.name === 'deck.pdf');
    expect(r.code, `npm run export -- --deck failed (${r.code}): ${r.out}`).toBe(0);
    expect(file, `npm run export -- --deck failed (${r.code}): ${r.out}`).not.toBe(undefined);
    writeFileSync(outputPath('deck.pdf'), file.bytes);
    const { pages } = pdfFacts(file.bytes);
    expect(pages, `the deck's PDF has ${pages} pages, the deck ${plan.pages} slides and fragment stops`).toBe(plan.pages);
    // Each picture is an SVG export of its step, text kept: its caption says which step.
    // (chromium writes a glyph at a time: the text is read without its line breaks.)
    const text = pdfText(file.bytes).replace(/\n/g, '');
    const shown = Array.from(text.matchAll(/step (\d+) of \d+ · move \d+ of \d+/g), (m) => Number(m[1]));
    expect(shown.join(','), `the pictures show steps ${shown.join(',')}, the deck's stops want ${plan.steps.join(',')}`).toBe(plan.steps.join(','));
    if (!/freelist/.test(text) || text.includes('loading…')) throw new Error('the pictures lack their stages, or an embed was printed instead');
    console.log(`    the deck: ${pages} pages (one per slide and per fragment stop), ${shown.length} embedded stops as pictures, ${Math.round(file.bytes.length / 1024)} KB; ${r.out.trim()}`);
  });
  test("a lecturer prints a lesson's handout to PDF: every step's title, narration and stage, predictions without answers, then takeaways, exercises and sources", async ({ page, url }) => {
    await page.goto(`${url}#/lessons/fast-path-and-tid/handout`);
    const handout = page.getByTestId('handout');
    await handout.waitFor();
    const steps = handout.locator('section.handout-step');
    const n = await steps.count();
    expect(n, `the handout has ${n} steps, not the lesson's 9`).toBe(9);
    // Every step's stage drawn (a picture each).
    await page.waitForFunction((k) => document.querySelectorAll('[data-testid="handout"] svg[data-testid="stage"] g.card').length >= k, n);
    const pictures = await handout.locator('svg[data-testid="stage"]').count();
    expect(pictures, `the handout has ${pictures} stage pictures for ${n} steps`).toBe(n);
    const predictions = await handout.getByTestId('handout-predict').count();
    expect(predictions, `the handout shows ${predictions} predictions, not the lesson's 2`).toBe(2);
    // Step 4 asks what the compare-and-swap writes: its picture is the state before its moves
    // (step 3's end), not the answer.
    const label = (/** @type {number} */ k) => steps.nth(k - 1).getByTestId('stage').getAttribute('aria-label');
    expect(await label(4), "step 4's picture is not the state its prediction asks about").toBe(await label(3));
    const text = await handout.innerText();
    for (const want of ['Step 3: Read the head and its successor', 'Takeaways', 'Exercises']) {
      expect(text, `the handout lacks "${want}"`).toContain(want);
    }
    // No answer: the predictions' explanations and "correct" marks are not on the page.
    expect(text, 'the handout shows an answer').not.toMatch(/correct answer|✓ Right/i);
    await page.emulateMedia({ media: 'print' });
    const bytes = await page.pdf({ format: 'A4', printBackground: true });
    const pdf = pdfFacts(bytes);
    writeFileSync(outputPath('handout-fast-path-and-tid.pdf'), bytes);
    // The pictures on paper: each stage's node card ("nr_partial 0") is in the PDF's text once.
    const printed = (pdfText(bytes).replace(/\n/g, '').match(/nr_partial \d+/g) ?? []).length;
    console.log(`    handout of fast-path-and-tid: ${pdf.pages} A4 pages, ${pictures} stage pictures (${printed} in the PDF), ${predictions} predictions`);
    expect(pdf.pages, `the printed handout has ${pdf.pages} pages`).toBeGreaterThanOrEqual(3);
    expect(printed, `the printed handout has ${printed} stage pictures for ${n} steps`).toBe(n);
  });
});
