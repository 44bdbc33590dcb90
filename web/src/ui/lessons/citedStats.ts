// The counters a slide's embed shows (density=projector): the ones a step's highlights name
// (`stat CMPXCHG_DOUBLE_CPU_FAIL`) and the ones its narration cites by name, and only those. A
// projector has no room for the statistics panel, yet "the compare-and-swap fails (the counter
// reads 1)" needs the counter in the frame. Pure: the embed draws the values at each move.
import type { NamedHighlight } from '../../lessons';

/** A counter's name as the kernel's `enum stat_item` spells it (ALLOC_FASTPATH, BARN_PUT_FAIL). */
const COUNTER = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

/**
 * The counters to show, in order: the highlights' first, then those the narration names that
 * the simulator counts (`known`: the outcome's counter names), each once.
 */
export function citedStats(highlights: readonly NamedHighlight[], narrationHtml: string, known: readonly string[]): string[] {
  const out: string[] = [];
  const add = (name: string) => {
    if (!out.includes(name)) out.push(name);
  };
  for (const h of highlights) if (h.kind === 'stat') add(h.stat);
  const words = new Set(known);
  for (const m of narrationHtml.replace(/<[^>]*>/g, ' ').matchAll(COUNTER)) if (words.has(m[0])) add(m[0]);
  return out;
}
