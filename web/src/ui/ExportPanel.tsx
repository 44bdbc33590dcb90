// The export controls of a lesson step, the playground and an embed: the frame
// on screen as SVG, PNG (1× and 2×) or PDF, and a range of moves as a GIF or a WebM. The
// exporters themselves (../export) load only when a button is pressed: the page's own weight
// does not change. `npm run export` (scripts/export.mjs) presses these very buttons.
import { useId, useRef, useState } from 'react';
import type { ExportFormat, FrameCaption, FrameParts, RangeSource } from '../export';

export interface ExportSpec {
  /** Put the cache lines and the timeline on screen beside the stage (the playground does). */
  readonly withLinesAndTimeline?: boolean;
  /** What the frame's caption says (without the link: the checkbox adds it). */
  readonly caption: () => Omit<FrameCaption, 'link'>;
  /** What a range is drawn from. */
  readonly source: RangeSource;
  /** The file name, without extension (`slub-lab-aba-without-tid-step-9`). */
  readonly name: string;
  /** The hash of the permalink of what is shown (`#/lessons/<id>/<n>`, `#/play?…`). */
  readonly link: string;
  /** The range offered first (a lesson step's own moves; the playground's played ones). */
  readonly from: number;
  readonly to: number;
}

const SPEED_CHOICES = [0.5, 1, 2, 4, 8] as const;

function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The address of the site a permalink points to: the app's own (index.html beside embed.html),
 * or the one `npm run export --site URL` sets on the root element (`data-export-site`): a figure
 * built from a local copy must not print a loopback address.
 */
function permalink(hash: string): string {
  const site = document.documentElement.dataset.exportSite;
  if (site !== undefined && site !== '') return `${site.replace(/\/?$/, '/')}${hash}`;
  return `${window.location.origin}${window.location.pathname.replace(/(index|embed)\.html$/, '')}${hash}`;
}

/** The stage of the page (the <main>) that holds `panel`, and its lines and timeline if asked. */
function framePartsNear(panel: HTMLElement | null, all: boolean): FrameParts | null {
  const page = panel?.closest('main') ?? null;
  const find = (id: string) => page?.querySelector<SVGSVGElement>(`svg[data-testid="${id}"]`) ?? null;
  const stage = find('stage');
  if (stage === null) return null;
  return all ? { stage, lines: find('lines'), timeline: find('timeline') } : { stage };
}

/** The controls; `key` it on the default range so that a new step offers its own moves. */
export function ExportPanel({ spec }: { spec: ExportSpec }) {
  const id = useId();
  const [from, setFrom] = useState(String(spec.from));
  const [to, setTo] = useState(String(spec.to));
  const [speed, setSpeed] = useState(2);
  const [caption, setCaption] = useState(true);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const busy = useRef(false);
  const own = useRef<HTMLElement | null>(null);
  const total = spec.source.schedule.length;

  const run = async (format: ExportFormat) => {
    if (busy.current) return;
    busy.current = true;
    const label = format === 'png2x' ? 'PNG 2×' : format.toUpperCase();
    setStatus({ text: `Making the ${label}…`, error: false });
    try {
      const ex = await import('../export');
      const link = caption ? permalink(spec.link) : undefined;
      let made: { blob: Blob; ext: string };
      let file: string;
      if (format === 'gif' || format === 'webm') {
        const r = { from: Number(from === '' ? NaN : from), to: Number(to === '' ? NaN : to), speed, link };
        const problem = ex.checkRange(total, r);
        if (problem !== null) throw new Error(problem);
        made = await ex.exportRange(format, spec.source, r);
        file = `${spec.name}-moves-${r.from}-${r.to}.${made.ext}`;
      } else {
        const parts = framePartsNear(own.current, spec.withLinesAndTimeline === true);
        if (parts === null) throw new Error('the stage is not drawn yet');
        made = await ex.exportStill(format, parts, { ...spec.caption(), link });
        file = `${spec.name}.${made.ext}`;
      }
      ex.download(made.blob, file);
      setStatus({ text: `Saved ${file} (${size(made.blob.size)}).`, error: false });
    } catch (e) {
      setStatus({ text: `The ${label} could not be made: ${e instanceof Error ? e.message : String(e)}`, error: true });
    } finally {
      busy.current = false;
    }
  };

  return (
    <section className="export-panel" aria-label="Export" ref={own}>
      <div className="buttons export">
        <span className="muted">Export this frame:</span>
        <button type="button" onClick={() => void run('svg')}>
          SVG
        </button>
        <button type="button" onClick={() => void run('png')}>
          PNG
        </button>
        <button type="button" onClick={() => void run('png2x')}>
          PNG 2×
        </button>
        <button type="button" onClick={() => void run('pdf')}>
          PDF
        </button>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard.writeText(permalink(spec.link)).catch(() => undefined);
          }}
        >
          Copy link
        </button>
      </div>
      <div className="buttons export">
        <span className="muted">Animate moves</span>
        <label htmlFor={`${id}-from`}>from</label>
        <input id={`${id}-from`} className="move-number" type="number" min={0} max={total} value={from} onChange={(e) => setFrom(e.target.value)} />
        <label htmlFor={`${id}-to`}>to</label>
        <input id={`${id}-to`} className="move-number" type="number" min={0} max={total} value={to} onChange={(e) => setTo(e.target.value)} />
        <label>
          at{' '}
          <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
            {SPEED_CHOICES.map((s) => (
              <option key={s} value={s}>
                {s} move{s === 1 ? '' : 's'}/s
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void run('gif')}>
          GIF
        </button>
        <button type="button" onClick={() => void run('webm')}>
          WebM
        </button>
      </div>
      <div className="buttons export">
        <label>
          <input type="checkbox" checked={caption} onChange={(e) => setCaption(e.target.checked)} /> Caption with the link and its QR code
        </label>
        <span className={status?.error === true ? 'error' : 'muted'} role={status?.error === true ? 'alert' : 'status'} data-testid="export-status">
          {status?.text ?? ''}
        </span>
      </div>
    </section>
  );
}
