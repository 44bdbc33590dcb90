// D3 rendering of the code listing (listing.layout.ts) into an HTML <ol>: rows keyed by label,
// each context's marker beside its next line, the line the last step ran highlighted.
import { select } from './d3';
import { cpuColor } from './geometry';
import type { ListingRow } from './listing.layout';

export function renderListing(ol: HTMLOListElement, rows: readonly ListingRow[]): void {
  const li = select(ol)
    .selectAll<HTMLLIElement, ListingRow>('li')
    .data(rows, (r) => r.key)
    .join((enter) => {
      const row = enter.append('li');
      row.append('span').attr('class', 'gutter');
      row.append('code').attr('class', 'src');
      row.append('span').attr('class', 'marks');
      return row;
    })
    .attr('class', (r) => `${r.heading ? 'fn' : 'ln'}${r.executed ? ' executed' : ''}${r.markers.length > 0 ? ' current' : ''}`)
    .attr('data-label', (r) => r.label);
  li.order();
  li.select('.gutter').text((r) => r.short).attr('title', (r) => r.label);
  li.select('.src').text((r) => r.text);
  li.select('.marks')
    .selectAll<HTMLSpanElement, ListingRow['markers'][number]>('span.mark')
    .data((r) => r.markers, (m) => m.ctx)
    .join('span')
    .attr('class', 'mark')
    .style('border-color', (m) => cpuColor(m.cpu))
    .text((m) => m.text);
}
