// Export the current frame (stage, cache lines and timeline) as one self-contained SVG, or as a
// PNG drawn from it. The SVGs carry their own <style>; the theme variables they read are
// resolved here from the page, so the file looks the same anywhere.

const SVG_NS = 'http://www.w3.org/2000/svg';
const THEME_VARS = ['--fg', '--muted', '--bg', '--panel', '--border', '--accent', '--error', '--frost', '--frost-edge', ...Array.from({ length: 8 }, (_, i) => `--cpu${i}`)];

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
  clone.removeAttribute('style');
  clone.removeAttribute('class');
  clone.removeAttribute('tabindex');
  clone.setAttribute('x', String(x));
  clone.setAttribute('y', String(y));
  clone.setAttribute('width', String(w));
  clone.setAttribute('height', String(h));
  const box = viewBox(svg);
  if (svg.viewBox.baseVal.height !== box.h) clone.setAttribute('viewBox', `0 0 ${box.w} ${box.h}`);
  return clone;
}

/** What an exported frame says above the stage: whose frame it is, where, and what broke. */
export interface FrameCaption {
  /** The scenario's name. */
  readonly title: string;
  /** `move 7 of 12 · atomic step 189`. */
  readonly position: string;
  /** One line per violated invariant (`⚠ INV-1 violated (atomic step 101): …`). */
  readonly violations: readonly string[];
}

const CAPTION_LINE = 20;

/** One SVG document of the frame under its caption; `timeline` and `lines` are optional. */
export function frameSvg(stage: SVGSVGElement, lines: SVGSVGElement | null, timeline: SVGSVGElement | null, caption: FrameCaption): string {
  const s = viewBox(stage);
  const l = lines === null ? null : viewBox(lines);
  const gap = 16;
  const width = Math.ceil(s.w + (l === null ? 0 : gap + l.w));
  const top = Math.max(s.h, l?.h ?? 0);
  const t = timeline === null ? null : viewBox(timeline);
  const tlH = t === null ? 0 : (t.h * width) / t.w;
  const head = 12 + CAPTION_LINE * (2 + caption.violations.length);
  const height = Math.ceil(head + top + (t === null ? 0 : gap + tlH));

  const out = document.createElementNS(SVG_NS, 'svg');
  out.setAttribute('xmlns', SVG_NS);
  out.setAttribute('width', String(width));
  out.setAttribute('height', String(height));
  out.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const titleEl = document.createElementNS(SVG_NS, 'title');
  titleEl.textContent = `${caption.title}, ${caption.position}`;
  out.appendChild(titleEl);
  const css = getComputedStyle(document.documentElement);
  const style = document.createElementNS(SVG_NS, 'style');
  style.textContent = `svg { ${THEME_VARS.map((v) => `${v}: ${css.getPropertyValue(v).trim() || 'initial'};`).join(' ')} }`;
  out.appendChild(style);
  const bg = document.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', css.getPropertyValue('--bg').trim() || '#ffffff');
  out.appendChild(bg);
  // The caption: the scenario, the position, and each violation in the error colour.
  const texts: [string, string, string][] = [
    [caption.title, 'bold', 'var(--fg)'],
    [caption.position, 'normal', 'var(--muted)'],
    ...caption.violations.map((v): [string, string, string] => [v, 'bold', 'var(--error)']),
  ];
  texts.forEach(([text, weight, fill], i) => {
    const el = document.createElementNS(SVG_NS, 'text');
    el.setAttribute('x', '12');
    el.setAttribute('y', String(12 + CAPTION_LINE * i + 14));
    el.setAttribute('font-family', 'system-ui, sans-serif');
    el.setAttribute('font-size', '14');
    el.setAttribute('font-weight', weight);
    el.setAttribute('fill', fill);
    el.setAttribute('class', i >= 2 ? 'caption violation' : 'caption');
    el.textContent = text;
    out.appendChild(el);
  });
  out.appendChild(place(stage, 0, head, s.w, s.h));
  if (lines !== null && l !== null) out.appendChild(place(lines, s.w + gap, head, l.w, l.h));
  if (timeline !== null && t !== null) out.appendChild(place(timeline, 0, head + top + gap, width, tlH));
  return new XMLSerializer().serializeToString(out);
}

/** Rasterise an SVG document (at `scale`) to a PNG blob. */
export async function svgToPng(svg: string, scale = 2): Promise<Blob> {
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(img.naturalWidth * scale);
  canvas.height = Math.ceil(img.naturalHeight * scale);
  const ctx = canvas.getContext('2d');
  if (ctx === null) throw new Error('no 2D canvas in this browser');
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob((b) => {
      if (b === null) reject(new Error('the PNG could not be made'));
      else resolve(b);
    }, 'image/png');
  });
}

export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
