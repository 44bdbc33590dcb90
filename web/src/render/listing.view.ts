// D3 rendering of the code listing (listing.layout.ts) into an HTML <ol>: rows keyed by label,
// each context's marker beside its next line, the line the last step ran highlighted.
import { redrawn, select, setAttr, setStyle, setText } from './d3';
import { cpuColor } from './geometry';
import type { ListingRow } from './listing.layout';

/**
 * The rows a step took out of each listing (a function the contexts left), kept to be put back
 * when a context enters the function again, as most steps of a loop do: building a function's
 * rows anew was most of a step's listing work. Keyed by the row's key and text (a variant's
 * listing may word a line differently).
 */
const parked = new WeakMap<HTMLOListElement, Map<string, HTMLLIElement>>();

const parkKey = (r: ListingRow) => `${r.key}\n${r.text}`;

/** A new row: its gutter and its text never change (its key is its label). */
function newRow(r: ListingRow): HTMLLIElement {
  const row = document.createElement('li');
  row.setAttribute('data-label', r.label);
  const gutter = row.appendChild(document.createElement('span'));
  gutter.className = 'gutter';
  gutter.textContent = r.short;
  gutter.title = r.label;
  const src = row.appendChild(document.createElement('code'));
  src.className = 'src';
  src.textContent = r.text;
  row.appendChild(document.createElement('span')).className = 'marks';
  return row;
}

export function renderListing(ol: HTMLOListElement, rows: readonly ListingRow[]): void {
  let park = parked.get(ol);
  if (park === undefined) {
    park = new Map();
    parked.set(ol, park);
  }
  const shelf = park;
  const li = select(ol)
    .selectAll<HTMLLIElement, ListingRow>('li')
    .data(rows, (r) => r.key)
    .join(
      (enter) =>
        enter.append((r) => {
          const back = shelf.get(parkKey(r));
          shelf.delete(parkKey(r));
          return back ?? newRow(r);
        }),
      (update) => update,
      (exit) =>
        exit
          .each(function (r) {
            shelf.set(parkKey(r), this);
          })
          .remove(),
    );
  // A step changes the class of a few rows: compare strings, not every row's attribute.
  setAttr(redrawn(li, rowClass), 'class', rowClass);
  li.order();
  // Markers: only on the rows whose markers changed (a step moves one or two of them).
  const marks = li
    .filter(function (r) {
      const sig = r.markers.map((m) => `${m.text}@${m.cpu}`).join(' ');
      if (this.dataset.marks === sig) return false;
      this.dataset.marks = sig;
      return true;
    })
    .select('.marks')
    .selectAll<HTMLSpanElement, ListingRow['markers'][number]>('span.mark')
    .data((r) => r.markers, (m) => m.ctx)
    .join((enter) => enter.append('span').attr('class', 'mark'));
  setStyle(marks, 'border-color', (m) => cpuColor(m.cpu));
  setText(marks, (m) => m.text);
}

function rowClass(r: ListingRow): string {
  return `${r.heading ? 'fn' : 'ln'}${r.executed ? ' executed' : ''}${r.markers.length > 0 ? ' current' : ''}`;
}
