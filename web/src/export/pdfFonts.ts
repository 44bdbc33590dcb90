// Unicode fonts for the PDFs: jsPDF's standard 14 fonts encode Latin-1 only, so the stage's
// ❄ ● ⚡ ⚠ ≠ came out as garbage. Subsets of DejaVu Sans and DejaVu Sans Mono (fonts/README.md
// says how they were made; fonts/LICENSE) are fetched here, when a PDF is made, and never by the
// pages; jsPDF embeds only the glyphs a PDF uses.
import type { jsPDF } from 'jspdf';
import mono from './fonts/DejaVuSansMono.ttf?url';
import monoBold from './fonts/DejaVuSansMono-Bold.ttf?url';
import sans from './fonts/DejaVuSans.ttf?url';
import sansBold from './fonts/DejaVuSans-Bold.ttf?url';

const SANS = 'DejaVu Sans';
const MONO = 'DejaVu Sans Mono';

interface Face {
  readonly family: string;
  readonly style: 'normal' | 'bold';
  readonly url: string;
}

const FACES: readonly Face[] = [
  { family: SANS, style: 'normal', url: sans },
  { family: SANS, style: 'bold', url: sansBold },
  { family: MONO, style: 'normal', url: mono },
  { family: MONO, style: 'bold', url: monoBold },
];

/** Each face's bytes as the binary string jsPDF's file system wants, fetched once. */
const loaded = new Map<string, Promise<string>>();
function bytesOf(face: Face): Promise<string> {
  let p = loaded.get(face.url);
  if (p === undefined) {
    p = fetch(face.url).then(async (r) => {
      if (!r.ok) throw new Error(`the PDF font ${face.family} (${face.style}) could not be loaded: HTTP ${r.status}`);
      const bytes = new Uint8Array(await r.arrayBuffer());
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return s;
    });
    p.catch(() => loaded.delete(face.url));
    loaded.set(face.url, p);
  }
  return p;
}

/**
 * Point every text of `svg` at the DejaVu faces (monospace text at DejaVu Sans Mono, the rest at
 * DejaVu Sans; weights to normal or bold, the two faces there are), add those faces to `pdf`.
 * svg2pdf.js then writes the text with them (Identity-H, with a ToUnicode map: the PDF's text
 * is searchable and copyable).
 */
export async function embedUnicodeFonts(pdf: jsPDF, svg: Element): Promise<void> {
  const used = new Set<Face>();
  const face = (family: string, style: Face['style']) => FACES.find((f) => f.family === family && f.style === style) as Face;
  // The root's font applies to text that sets none of its own.
  const styled = [svg, ...Array.from(svg.querySelectorAll('[font-family], [font-weight], text, tspan'))];
  for (const el of styled) {
    const family = el.closest('[font-family]')?.getAttribute('font-family') ?? '';
    const weight = el.closest('[font-weight]')?.getAttribute('font-weight') ?? 'normal';
    const style: Face['style'] = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600 ? 'bold' : 'normal';
    const f = face(/mono|courier|consolas|menlo/i.test(family) ? MONO : SANS, style);
    if (el.hasAttribute('font-family') || el === svg) el.setAttribute('font-family', f.family);
    if (el.hasAttribute('font-weight')) el.setAttribute('font-weight', style);
    if (el.localName === 'text' || el.localName === 'tspan') used.add(f);
  }
  const files = await Promise.all([...used].map(async (f) => ({ f, bytes: await bytesOf(f) })));
  for (const { f, bytes } of files) {
    const file = `${f.family.replace(/ /g, '')}-${f.style}.ttf`;
    pdf.addFileToVFS(file, bytes);
    pdf.addFont(file, f.family, f.style);
  }
}
