// The code listing: the functions the contexts are in (and the one the last step ran), each
// line with the contexts whose next line it is (◀ T) and the line the last step executed.
// Pure; the D3 renderer is listing.view.ts.
import type { ContextView, ListingFunction, SimEvent } from '../sim/types';
import { contextMarker } from './geometry';

export interface ListingRow {
  readonly key: string;
  readonly label: string;
  /** The short label shown in the gutter (`A9` of `slab_alloc:A9`). */
  readonly short: string;
  readonly text: string;
  /** `● T` markers of the contexts about to run this line, with their CPUs. */
  readonly markers: readonly { readonly ctx: string; readonly cpu: number; readonly text: string }[];
  /** The last step executed this line. */
  readonly executed: boolean;
  /** A function heading rather than a line of code. */
  readonly heading: boolean;
}

/** Gutter labels are short (`A9`); a long one (`AllocEntry`) is left to the row's title. */
function shortLabel(s: string): string {
  return s.length <= 4 ? s : '';
}

/** The function name of a label `func:line`. */
export function functionOf(label: string): string {
  const i = label.lastIndexOf(':');
  return i < 0 ? label : label.slice(0, i);
}

/** An era tag at a line's end: `// E2, 3.10–3.19`, `// 5.19+ (2022 fix)` (a lesson may hold them back). */
const ERA_TAG = /\s*\/\/ (?:E\d\b|\d+\.\d+).*$/;

export function layoutListing(
  listing: readonly ListingFunction[],
  contexts: readonly ContextView[],
  event: SimEvent | undefined,
  hideEras = false,
): ListingRow[] {
  const live = contexts.filter((c) => c.label !== null && c.state !== 'finished');
  const wanted = new Set<string>();
  for (const c of live) {
    if (c.label !== null) wanted.add(functionOf(c.label));
  }
  if (event !== undefined) wanted.add(functionOf(event.label));
  const rows: ListingRow[] = [];
  for (const f of listing) {
    if (!wanted.has(f.name)) continue;
    rows.push({ key: `fn:${f.name}`, label: f.name, short: '', text: f.name, markers: [], executed: false, heading: true });
    for (const line of f.lines) {
      const markers = live
        .filter((c) => c.label === line.label)
        .map((c) => ({ ctx: c.id, cpu: c.cpu, text: `◀ ${contextMarker(c.kind)} ${c.id}` }));
      const i = line.label.lastIndexOf(':');
      rows.push({
        key: `ln:${line.label}`,
        label: line.label,
        short: shortLabel(i < 0 ? line.label : line.label.slice(i + 1)),
        // The columns that align comments in the source mean nothing once a line wraps.
        text: (hideEras ? line.text.replace(ERA_TAG, '') : line.text).replace(/(\S) {2,}(\/\/|\/\*)/, '$1  $2'),
        markers,
        executed: event?.label === line.label,
        heading: false,
      });
    }
  }
  return rows;
}
