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

export function renderMarkdown(src: string): string {
  return md.render(src);
}

export function renderInline(src: string): string {
  return md.renderInline(src);
}
