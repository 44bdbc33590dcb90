// The exporters, loaded only when a user (or `npm run export`) asks for one:
// a frame as SVG, PNG (1× or 2×) or PDF, and a range of moves as an animated GIF or a WebM at a
// chosen speed, one frame per move. Encoding is the libraries' job: gifenc (GIF), jsPDF with
// svg2pdf.js (PDF, text kept as text, in embedded DejaVu fonts: ./pdfFonts.ts), the browser's
// own canvas (PNG), WebCodecs with webm-muxer (WebM), qrcode-generator (the caption's QR code).
// The pages import ui/ExportPanel.tsx, which imports this module dynamically.
import { applyPalette, GIFEncoder, quantize } from 'gifenc';
import { fitColumns } from '../render/stage.shapes';
import { focusView, type FocusKeep } from '../render/focus';
import { layoutStage } from '../render/stage.layout';
import { renderStage } from '../render/stage.view';
import type { StageHide } from '../render/stage.shapes';
import { deriver } from '../ui/useSimulation';
import { frameSvg, type FrameCaption, type FrameParts } from './frame';

export { frameSvg, qrPath, type FrameCaption, type FrameParts } from './frame';

export type StillFormat = 'svg' | 'png' | 'png2x' | 'pdf';
export type RangeFormat = 'gif' | 'webm';
export type ExportFormat = StillFormat | RangeFormat;
export const FORMATS: readonly ExportFormat[] = ['svg', 'png', 'png2x', 'pdf', 'gif', 'webm'];

/** What a range is drawn from: a scenario, its schedule, and how the page draws its stage. */
export interface RangeSource {
  readonly scenario: string;
  readonly schedule: readonly string[];
  /** The caption's title (the lesson step or the scenario). */
  readonly title: string;
  readonly hide?: StageHide | undefined;
  /** Draw only the cards that say something (as an embed does), keeping these. */
  readonly focus?: FocusKeep | undefined;
}

export interface RangeRequest {
  /** The cursor before the first move drawn; the frames show the stage after moves from+1..to. */
  readonly from: number;
  readonly to: number;
  /** Moves per second. */
  readonly speed: number;
  /** The permalink printed, with its QR code, under each frame's title; none without. */
  readonly link?: string | undefined;
  /** Pixels per stage unit (1 = the stage's own size). */
  readonly scale?: number;
}

/** The width a range's stage is laid out for: a 16:9 slide's, at the stage's own scale. */
const RANGE_WIDTH_PX = 1000;

/** Why a range cannot be drawn, in words naming the bad part. */
export function checkRange(total: number, r: Pick<RangeRequest, 'from' | 'to' | 'speed'>): string | null {
  if (!Number.isInteger(r.from) || r.from < 0) return `from ${r.from} is not a move number (0 or more)`;
  if (!Number.isInteger(r.to)) return `to ${r.to} is not a move number`;
  if (r.to > total) return `the range ${r.from}→${r.to} ends past the last move (${total})`;
  if (r.to <= r.from) return `the range ${r.from}→${r.to} holds no move (to must be after from)`;
  if (!(r.speed > 0 && r.speed <= 60)) return `speed ${r.speed} is not between 0 and 60 moves a second`;
  return null;
}

/**
 * The SVG documents of the frames after moves from+1..to, laid out and drawn by the stage's own
 * code (layoutStage, renderStage) off screen, without tweens.
 */
export function rangeFrames(source: RangeSource, r: RangeRequest): string[] {
  const problem = checkRange(source.schedule.length, r);
  if (problem !== null) throw new Error(problem);
  const derive = deriver(source.scenario);
  const frames: string[] = [];
  for (let cursor = r.from + 1; cursor <= r.to; cursor++) {
    const d = derive(source.schedule, cursor);
    if (d.kind !== 'ok') throw new Error(`move ${cursor} does not play: ${d.message}`);
    const view = source.focus === undefined ? d.view : focusView(d.view, source.focus);
    const { columns } = fitColumns(RANGE_WIDTH_PX, Math.max(view.cpus.length, 2));
    const shapes = layoutStage(view, d.lastEvent, { columns, selection: null, hide: source.hide ?? {} });
    const stage = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    renderStage(stage, shapes, { duration: 0 });
    const caption: FrameCaption = {
      title: source.title,
      position: `move ${cursor} of ${source.schedule.length} · atomic step ${d.view.steps}`,
      violations: d.view.violations.map((x) => `⚠ ${x.invariant} violated (atomic step ${x.step}): ${x.message}`),
      link: r.link,
    };
    frames.push(frameSvg({ stage }, caption, { inline: false }));
  }
  return frames;
}

/** An SVG document drawn on a canvas at `scale`. */
export async function svgToCanvas(svg: string, scale = 1, canvas = document.createElement('canvas')): Promise<HTMLCanvasElement> {
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  canvas.width = Math.ceil(img.naturalWidth * scale);
  canvas.height = Math.ceil(img.naturalHeight * scale);
  // Read back at once (the GIF's pixels, the PNG): a canvas kept in main memory reads faster.
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (ctx === null) throw new Error('no 2D canvas in this browser');
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  return canvas;
}

function canvasBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((b) => (b === null ? reject(new Error('the PNG could not be made')) : resolve(b)), 'image/png');
  });
}

/** Rasterise an SVG document (at `scale`) to a PNG blob. */
export async function svgToPng(svg: string, scale = 1): Promise<Blob> {
  return canvasBlob(await svgToCanvas(svg, scale));
}

/**
 * One page, the frame's size, the frame drawn as vectors with its text as text (svg2pdf.js), in
 * DejaVu fonts that have the stage's symbols (./pdfFonts.ts).
 */
export async function svgToPdf(svg: string): Promise<Blob> {
  const [{ jsPDF }, { embedUnicodeFonts }] = await Promise.all([import('jspdf'), import('./pdfFonts'), import('svg2pdf.js')]);
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement as unknown as SVGSVGElement;
  const w = Number(doc.getAttribute('width'));
  const h = Number(doc.getAttribute('height'));
  const pdf = new jsPDF({ orientation: w > h ? 'landscape' : 'portrait', unit: 'pt', format: [w, h], compress: true });
  pdf.setProperties({ title: doc.querySelector('title')?.textContent ?? 'slub-lab', creator: 'slub-lab' });
  await embedUnicodeFonts(pdf, doc);
  await pdf.svg(doc, { x: 0, y: 0, width: w, height: h });
  return pdf.output('blob');
}

/** The frames on canvases of one size (the largest frame's), each on the page's background. */
async function rasterFrames(frames: readonly string[], scale: number): Promise<{ canvases: HTMLCanvasElement[]; w: number; h: number }> {
  const canvases: HTMLCanvasElement[] = [];
  for (const f of frames) canvases.push(await svgToCanvas(f, scale));
  const w = Math.max(...canvases.map((c) => c.width));
  const h = Math.max(...canvases.map((c) => c.height));
  const bg = getComputedStyle(document.documentElement).getPropertyValue('--bg').trim() || '#ffffff';
  const out = canvases.map((c) => {
    if (c.width === w && c.height === h) return c;
    const big = document.createElement('canvas');
    big.width = w;
    big.height = h;
    const ctx = big.getContext('2d');
    if (ctx === null) throw new Error('no 2D canvas in this browser');
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, w, h);
    ctx.drawImage(c, 0, 0);
    return big;
  });
  return { canvases: out, w, h };
}

/**
 * An animated GIF, one frame per SVG, `1000 / speed` ms each (gifenc). One palette for all the
 * frames, quantised from a sample of every frame's pixels: a diagram has few colours, and one
 * quantisation instead of one a frame halves the time.
 */
export async function framesToGif(frames: readonly string[], speed: number, scale = 1): Promise<Blob> {
  const { canvases, w, h } = await rasterFrames(frames, scale);
  const pixels = canvases.map((c) => {
    const ctx = c.getContext('2d', { willReadFrequently: true });
    if (ctx === null) throw new Error('no 2D canvas in this browser');
    return ctx.getImageData(0, 0, w, h).data;
  });
  // Every 7th pixel of every frame (7 is prime to the row length, so the sample covers columns).
  const step = 7;
  const per = Math.floor((w * h) / step);
  const sample = new Uint8ClampedArray(per * 4 * pixels.length);
  // Byte by byte: a subarray a pixel made 4 million views for 50 frames.
  pixels.forEach((data, f) => {
    let out = f * per * 4;
    for (let i = 0; i < per; i++) {
      const at = i * step * 4;
      sample[out++] = data[at] ?? 0;
      sample[out++] = data[at + 1] ?? 0;
      sample[out++] = data[at + 2] ?? 0;
      sample[out++] = data[at + 3] ?? 0;
    }
  });
  const palette = quantize(sample, 256, { format: 'rgb444' });
  const gif = GIFEncoder();
  const delay = Math.round(1000 / speed);
  pixels.forEach((data, i) => {
    gif.writeFrame(applyPalette(data, palette, 'rgb444'), w, h, i === 0 ? { palette, delay, repeat: 0 } : { delay });
  });
  gif.finish();
  return new Blob([gif.bytes()], { type: 'image/gif' });
}

/**
 * A WebM video (VP9, or VP8 where it is missing), one frame per SVG shown `1000 / speed` ms: the
 * browser's WebCodecs encoder, muxed by webm-muxer. Frames carry their own timestamps, so the
 * export is as fast as the encoder (not real time, as a MediaRecorder would be).
 */
export async function framesToWebm(frames: readonly string[], speed: number, scale = 1): Promise<Blob> {
  if (typeof VideoEncoder === 'undefined') throw new Error('this browser cannot encode video (no WebCodecs VideoEncoder)');
  const { Muxer, ArrayBufferTarget } = await import('webm-muxer');
  const { canvases, w, h } = await rasterFrames(frames, scale);
  // Even sizes: VP8 and VP9 want them.
  const width = w + (w % 2);
  const height = h + (h % 2);
  const hold = Math.round(1_000_000 / speed);
  const choices = [
    { webcodecs: 'vp09.00.10.08', matroska: 'V_VP9' },
    { webcodecs: 'vp8', matroska: 'V_VP8' },
  ];
  let chosen: (typeof choices)[number] | undefined;
  for (const c of choices) {
    const support = await VideoEncoder.isConfigSupported({ codec: c.webcodecs, width, height, bitrate: 1_500_000 });
    if (support.supported === true) {
      chosen = c;
      break;
    }
  }
  if (chosen === undefined) throw new Error('this browser encodes neither VP9 nor VP8');
  const muxer = new Muxer({ target: new ArrayBufferTarget(), video: { codec: chosen.matroska, width, height, frameRate: Math.max(1, speed) } });
  const failed: { error: Error | null } = { error: null };
  const encoder = new VideoEncoder({
    output: (chunk, meta) => muxer.addVideoChunk(chunk, meta),
    error: (e) => {
      failed.error = e;
    },
  });
  encoder.configure({ codec: chosen.webcodecs, width, height, bitrate: 1_500_000 });
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (ctx === null) throw new Error('no 2D canvas in this browser');
  // The last frame once more at the end: a WebM block has no length, the next one ends it.
  [...canvases, canvases[canvases.length - 1]].forEach((c, i) => {
    if (c === undefined) return;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(c, 0, 0);
    const frame = new VideoFrame(canvas, { timestamp: i * hold, duration: hold });
    encoder.encode(frame, { keyFrame: i % 30 === 0 });
    frame.close();
  });
  await encoder.flush();
  encoder.close();
  if (failed.error !== null) throw new Error(`the video encoder failed: ${failed.error.message}`);
  muxer.finalize();
  return new Blob([muxer.target.buffer], { type: 'video/webm' });
}

/** A still of `parts` in `format`, with its file name's extension. */
export async function exportStill(format: StillFormat, parts: FrameParts, caption: FrameCaption): Promise<{ blob: Blob; ext: string }> {
  const svg = frameSvg(parts, caption);
  switch (format) {
    case 'svg':
      return { blob: new Blob([svg], { type: 'image/svg+xml' }), ext: 'svg' };
    case 'png':
      return { blob: await svgToPng(svg, 1), ext: 'png' };
    case 'png2x':
      return { blob: await svgToPng(svg, 2), ext: '2x.png' };
    case 'pdf':
      return { blob: await svgToPdf(svg), ext: 'pdf' };
  }
}

/** A range of `source` in `format`. */
export async function exportRange(format: RangeFormat, source: RangeSource, r: RangeRequest): Promise<{ blob: Blob; ext: string }> {
  const frames = rangeFrames(source, r);
  if (format === 'gif') return { blob: await framesToGif(frames, r.speed, r.scale ?? 1), ext: 'gif' };
  return { blob: await framesToWebm(frames, r.speed, r.scale ?? 1), ext: 'webm' };
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
