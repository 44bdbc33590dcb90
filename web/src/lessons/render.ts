// Lesson prose (the intro, each step's narration, a question, its choices and explanation, a
// try-it goal) from Markdown to HTML, at build time (library.ts; never in the page). The lesson
// format itself is parsed by the Rust side (crate slub-lessons): this is only a Markdown
// renderer.
//
// markdown-it runs with raw HTML disabled: any `<tag>` in a lesson comes out escaped, and links
// with `javascript:`, `vbscript:`, `file:` or non-image `data:` URLs are not turned into links.
// The HTML needs no further sanitising.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

/**
 * Glossary links for a lesson's prose: each term links to its entry the first time the lesson
 * uses one of its words (outside code and links); `linked` remembers the terms already linked.
 */
export interface TermLinker {
  terms: readonly { href: string; title: string; words: readonly string[] }[];
  linked: Set<string>;
}

type Token = ReturnType<typeof md.parseInline>[number];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first unlinked term in `text`: where, how long, and which term. */
function firstTerm(text: string, linker: TermLinker): { at: number; len: number; href: string; title: string } | null {
  let best: { at: number; len: number; href: string; title: string } | null = null;
  for (const t of linker.terms) {
    if (linker.linked.has(t.href)) continue;
    for (const w of t.words) {
      const m = new RegExp(`(?<![\\w-])${escapeRegExp(w)}(?![\\w-])`, 'i').exec(text);
      if (m !== null && (best === null || m.index < best.at || (m.index === best.at && w.length > best.len))) {
        best = { at: m.index, len: w.length, href: t.href, title: t.title };
      }
    }
  }
  return best;
}

/** Split the text tokens of an inline token list so that first uses of terms become links. */
function linkTerms(children: Token[], linker: TermLinker, TokenCtor: new (type: string, tag: string, nesting: -1 | 0 | 1) => Token): Token[] {
  const out: Token[] = [];
  let inLink = 0;
  for (const tok of children) {
    if (tok.type === 'link_open') inLink++;
    if (tok.type === 'link_close') inLink--;
    if (tok.type !== 'text' || inLink > 0) {
      out.push(tok);
      continue;
    }
    let rest = tok.content;
    for (let hit = firstTerm(rest, linker); hit !== null; hit = firstTerm(rest, linker)) {
      linker.linked.add(hit.href);
      const before = new TokenCtor('text', '', 0);
      before.content = rest.slice(0, hit.at);
      const open = new TokenCtor('link_open', 'a', 1);
      open.attrs = [
        ['href', hit.href],
        ['class', 'term'],
        ['title', hit.href.includes('/invariants/') ? `Invariant ${hit.title}: what it checks` : `Glossary: ${hit.title}`],
      ];
      const word = new TokenCtor('text', '', 0);
      word.content = rest.slice(hit.at, hit.at + hit.len);
      const close = new TokenCtor('link_close', 'a', -1);
      out.push(before, open, word, close);
      rest = rest.slice(hit.at + hit.len);
    }
    const last = new TokenCtor('text', '', 0);
    last.content = rest;
    out.push(last);
  }
  return out;
}

// Runs after inline parsing when the render's env carries a TermLinker.
md.core.ruler.push('glossary_terms', (state) => {
  const linker = (state.env as { terms?: TermLinker }).terms;
  if (linker === undefined) return;
  for (const block of state.tokens) {
    if (block.type === 'inline' && block.children !== null) {
      block.children = linkTerms(block.children, linker, state.Token);
    }
  }
});

export function renderMarkdown(src: string, terms?: TermLinker): string {
  return md.render(src, terms === undefined ? {} : { terms });
}

export function renderInline(src: string): string {
  return md.renderInline(src);
}
