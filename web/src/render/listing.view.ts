// D3 rendering of the code listing (listing.layout.ts) into an HTML <ol>: rows keyed by label,
// each context's marker beside its next line, the line the last step ran highlighted.
import { redrawn, select, setAttr, setStyle, setText } from './d3';
import { cpuColor } from './geometry';
import type { ListingRow } from './listing.layout';

export function renderListing(ol: HTMLOListElement, rows: readonly ListingRow[]): void {
  const li = select(ol)
    .selectAll<HTMLLIElement, ListingRow>('li')
    .data(rows, (r) => r.key)
    .join((enter) => {
      // A row's key is its label: its gutter and its text never change (written once here).
      const row = enter.append('li').attr('data-label', (r) => r.label);
      row.append('span').attr('class', 'gutter').text((r) => r.short).attr('title', (r) => r.label);
      row.append('code').attr('class', 'src').text((r) => r.text);
      row.append('span').attr('class', 'marks');
      return row;
    });
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
