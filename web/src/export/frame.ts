// One exported frame: the stage (and, in the playground, the cache lines and the timeline) under
// a caption, as one self-contained SVG document. Self-contained means no CSS at all in the file:
// every drawn element gets the style the browser computed for it as presentation attributes
// (fill, stroke, font, …), so the file looks the same in a browser, Inkscape, PowerPoint, Keynote
// or svg2pdf.js, none of which reads our theme variables. Text stays <text>.
import qrcode from 'qrcode-generator';

const SVG_NS = 'http://www.w3.org/2000/svg';

interface Box {
  readonly w: number;
  readonly h: number;
}

/** The part of `svg` that is drawn: its viewBox, down to its `data-height` (the stage's SVG is taller). */
function viewBox(svg: SVGSVGElement): Box {
  const vb = svg.viewBox.baseVal;
  const drawn = Number(svg.getAttribute('data-height') ?? NaN);
  if (vb.width > 0 && vb.height > 0) return { w: vb.width, h: drawn > 0 ? Math.min(drawn, vb.height) : vb.height };
  const r = svg.getBoundingClientRect();
  return { w: r.width, h: r.height };
}

function place(svg: SVGSVGElement, x: number, y: number, w: number, h: number): SVGSVGElement {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  // Its class stays while the styles are read (the page's `.stage …` rules), then goes.
  clone.removeAttribute('style');
  clone.setAttribute('x', String(x));
  clone.setAttribute('y', String(y));
  clone.setAttribute('width', String(w));
  clone.setAttribute('height', String(h));
  clone.setAttribute('viewBox', `0 0 ${w} ${h}`);
  return clone;
}

/** What an exported frame says above the stage: whose frame it is, where, and what broke. */
export interface FrameCaption {
  /** The lesson step's or scenario's name. */
  readonly title: string;
  /** `move 7 of 12 · atomic step 189`. */
  readonly position: string;
  /** One line per violated invariant (`⚠ INV-1 violated (atomic step 101): …`). */
  readonly violations: readonly string[];
  /** The permalink of the step, printed with its QR code (the optional caption). */
  readonly link?: string | undefined;
}

/** The SVG parts of a frame: the stage, and optionally the cache lines and the timeline. */
export interface FrameParts {
  readonly stage: SVGSVGElement;
  readonly lines?: SVGSVGElement | null;
  readonly timeline?: SVGSVGElement | null;
}

const CAPTION_LINE = 20;
/** A 14 px sans-serif character's width, a little generous (bold): for wrapping the caption. */
const CHAR_W = 8;

/** `text` in lines of at most `room` characters, at spaces. */
function wrap(text: string, room: number): string[] {
  const max = Math.max(20, room);
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > max) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') out.push(line);
  return out;
}
const QR_MODULE = 3;

/** The QR code of `text` as one <path> of dark modules, `size` px square with its quiet zone. */
export function qrPath(text: string): { d: string; size: number } {
  // Type 0: the smallest version that holds the text; M: 15 % of it may be lost to a bad print.
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  let d = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${(c + 4) * QR_MODULE} ${(r + 4) * QR_MODULE}h${QR_MODULE}v${QR_MODULE}h-${QR_MODULE}z`;
  }
  return { d, size: (n + 8) * QR_MODULE };
}

function svgEl<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The properties copied from the computed style: what SVG_CSS (render/style.ts) sets. */
const INLINED = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'text-decoration',
  'visibility',
] as const;

/** Values that are SVG's own defaults: not written. */
const DEFAULTS: Readonly<Record<string, string>> = {
  'fill-opacity': '1',
  'stroke-opacity': '1',
  opacity: '1',
  stroke: 'none',
  'stroke-dasharray': 'none',
  'font-style': 'normal',
  'text-anchor': 'start',
  'dominant-baseline': 'auto',
  visibility: 'visible',
};

/** Properties only text draws with (inherited, so set where the text is). */
const TEXT_ONLY = new Set(['font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'text-decoration']);

/**
 * Copy each element's computed style onto it as presentation attributes, resolve `rx` (a CSS
 * property in SVG_CSS), then drop the <style> sheets: `root` must be in the document.
 */
function inlineStyles(root: SVGSVGElement): void {
  // Read every style first, then write: stripping a parent's class first would change what its
  // children's selectors (the page's `.stage …` rules) match.
  const writes: [SVGElement, [string, string][]][] = [];
  for (const el of Array.from(root.querySelectorAll<SVGElement>('*'))) {
    const tag = el.tagName.toLowerCase();
    if (tag === 'style' || tag === 'title' || tag === 'defs') continue;
    const cs = getComputedStyle(el);
    const attrs: [string, string][] = [];
    const isText = tag === 'text' || tag === 'tspan';
    for (const p of INLINED) {
      if (!isText && TEXT_ONLY.has(p)) continue;
      const v = cs.getPropertyValue(p);
      if (v === '' || DEFAULTS[p] === v) continue;
      if (p === 'text-decoration') {
        // Only worth a byte where it is drawn.
        if (v.includes('line-through')) attrs.push([p, 'line-through']);
        else if (v.includes('underline')) attrs.push([p, 'underline']);
      } else attrs.push([p, v]);
    }
    if (tag === 'rect') {
      const rx = cs.getPropertyValue('rx');
      if (rx !== '' && rx !== 'auto' && rx !== '0px') attrs.push(['rx', rx.replace('px', '')]);
    }
    writes.push([el, attrs]);
  }
  for (const [el, attrs] of writes) {
    for (const [k, v] of attrs) el.setAttribute(k, v);
    el.removeAttribute('class');
    el.removeAttribute('style');
    // Interaction and test hooks mean nothing in a file.
    for (const a of Array.from(el.attributes)) if (a.name.startsWith('data-') || a.name.startsWith('aria-') || a.name === 'tabindex' || a.name === 'role') el.removeAttribute(a.name);
  }
  for (const s of Array.from(root.querySelectorAll('style'))) s.remove();
}

/** A hidden box in the page for frames being composed (computed styles need the document). */
function stagingArea(): HTMLElement {
  let box = document.getElementById('slub-export-staging');
  if (box === null) {
    box = document.createElement('div');
    box.id = 'slub-export-staging';
    box.setAttribute('aria-hidden', 'true');
    // CSSOM, not a style attribute: the pages' policy refuses inline style attributes.
    box.style.position = 'absolute';
    box.style.left = '-100000px';
    box.style.top = '0';
    box.style.width = '4000px';
    document.body.appendChild(box);
  }
  return box;
}

/** The page's theme variables the views' CSS reads (app.css), as `--name: value;` declarations. */
const THEME_VARS = ['--fg', '--muted', '--bg', '--panel', '--border', '--accent', '--error', '--ok', '--frost', '--frost-edge', '--highlight', ...Array.from({ length: 8 }, (_, i) => `--cpu${i}`)];

function themeDeclarations(): string {
  const css = getComputedStyle(document.documentElement);
  return THEME_VARS.map((v) => `${v}: ${css.getPropertyValue(v).trim() || 'initial'};`).join(' ');
}

/**
 * One SVG document of the frame under its caption (see the head of this file). `inline: false`
 * (the frames of an animation, only ever rasterised here) keeps the views' own <style> with the
 * theme's values instead: no computed-style pass, several times faster per frame.
 */
export function frameSvg(parts: FrameParts, caption: FrameCaption, { inline = true }: { inline?: boolean } = {}): string {
  const { stage } = parts;
  const lines = parts.lines ?? null;
  const timeline = parts.timeline ?? null;
  const s = viewBox(stage);
  const l = lines === null ? null : viewBox(lines);
  const gap = 16;
  const qr = caption.link === undefined ? null : qrPath(caption.link);
  const width = Math.ceil(Math.max(s.w + (l === null ? 0 : gap + l.w), qr === null ? 0 : qr.size + 360));
  const css = getComputedStyle(document.documentElement);
  const color = (v: string, fallback: string) => css.getPropertyValue(v).trim() || fallback;
  // The caption: the title, the position, each violation in the error colour, the link; each
  // wrapped to the room left of the QR code.
  const room = Math.floor((width - 24 - (qr === null ? 0 : qr.size + 8)) / CHAR_W);
  const captionLines: [string, string, string][] = [
    ...wrap(caption.title, room).map((t): [string, string, string] => [t, 'bold', color('--fg', '#1a1a1a')]),
    ...wrap(caption.position, room).map((t): [string, string, string] => [t, 'normal', color('--muted', '#555555')]),
    ...caption.violations.flatMap((v) => wrap(v, room).map((t): [string, string, string] => [t, 'bold', color('--error', '#b00020')])),
    // The link on one line (a link cut in two cannot be copied), smaller if it must be.
    ...(caption.link === undefined ? [] : [[caption.link, 'normal', color('--fg', '#1a1a1a')] as [string, string, string]]),
  ];
  const linkSize = caption.link === undefined ? 14 : Math.max(8, Math.min(14, Math.floor((room * CHAR_W) / (caption.link.length * 0.62))));
  const head = Math.max(12 + CAPTION_LINE * captionLines.length, qr === null ? 0 : qr.size + 8);
  const top = Math.max(s.h, l?.h ?? 0);
  const t = timeline === null ? null : viewBox(timeline);
  const tlH = t === null ? 0 : (t.h * width) / t.w;
  const height = Math.ceil(head + top + (t === null ? 0 : gap + tlH));

  const out = svgEl('svg', { xmlns: SVG_NS, width, height, viewBox: `0 0 ${width} ${height}` });
  const titleEl = svgEl('title', {});
  titleEl.textContent = `${caption.title}, ${caption.position}`;
  out.appendChild(titleEl);
  out.appendChild(svgEl('rect', { width: '100%', height: '100%', fill: color('--bg', '#ffffff') }));
  const placed = [place(stage, 0, head, s.w, s.h)];
  if (lines !== null && l !== null) placed.push(place(lines, s.w + gap, head, l.w, l.h));
  if (timeline !== null && t !== null) {
    const tl = place(timeline, 0, head + top + gap, width, tlH);
    tl.setAttribute('viewBox', `0 0 ${t.w} ${t.h}`);
    placed.push(tl);
  }
  for (const p of placed) out.appendChild(p);
  if (inline) {
    const box = stagingArea();
    box.appendChild(out);
    try {
      // The theme variables the views' CSS reads resolve here, from the page.
      inlineStyles(out);
    } finally {
      out.remove();
    }
  } else {
    const theme = svgEl('style', {});
    theme.textContent = `svg { ${themeDeclarations()} }`;
    out.insertBefore(theme, out.firstChild);
  }
  // The caption is written after: the views' CSS (`text { … }`) would otherwise restyle it.
  captionLines.forEach(([text, weight, fill], i) => {
    const isLink = caption.link !== undefined && i === captionLines.length - 1;
    const el = svgEl('text', { x: 12, y: 12 + CAPTION_LINE * i + 14, 'font-family': 'system-ui, sans-serif', 'font-size': isLink ? linkSize : 14, 'font-weight': weight, fill });
    el.textContent = text;
    out.appendChild(el);
  });
  if (qr !== null) {
    const g = svgEl('g', { transform: `translate(${width - qr.size - 4} 4)` });
    g.appendChild(svgEl('rect', { width: qr.size, height: qr.size, fill: '#ffffff' }));
    g.appendChild(svgEl('path', { d: qr.d, fill: '#000000' }));
    out.appendChild(g);
  }
  return new XMLSerializer().serializeToString(out);
}
