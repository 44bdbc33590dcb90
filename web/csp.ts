// The Content-Security-Policy of the built pages (index.html, embed.html), as a <meta> tag the
// build writes into each (`vite build` only: the dev server injects an inline React-refresh
// preamble that a strict policy would refuse).
//
// - script-src 'self' 'wasm-unsafe-eval': our modules and workers come from the site; the
//   simulator is WebAssembly, which needs 'wasm-unsafe-eval' to compile (and only that: no
//   'unsafe-eval', so no string ever becomes code). The one inline script (index.html's
//   route preload, route-preload.ts) is allowed by the SHA-256 of its exact text.
// - style-src 'self' + one hash: our stylesheets are files; the one inline style is the <style>
//   each D3 view puts in its SVG (render/style.ts, so an exported frame carries its own CSS),
//   allowed by the SHA-256 of its exact text. React and D3 set style properties through the
//   CSSOM, which style-src does not govern.
// - img-src data: blob:: the PNG export draws the frame's SVG from a data: URL; downloads use
//   blob: URLs. connect-src 'self': the wasm, and the PDF exporter's fonts when a PDF is made
//   (src/export/pdfFonts.ts), are all that is fetched.
// - frame-ancestors cannot be set from a <meta> tag; the embed is meant to be framed anyway.
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { SVG_CSS } from './src/render/style.js';

/** A CSP source that allows the inline script or style with exactly this text. */
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy; `inlineScripts` are the page's inline scripts, allowed by their hashes. */
export function contentSecurityPolicy(inlineScripts: readonly string[] = []): string {
  return [
    "default-src 'self'",
    ["script-src 'self' 'wasm-unsafe-eval'", ...inlineScripts.map(sha256)].join(' '),
    `style-src 'self' ${sha256(SVG_CSS)}`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The text of each `<script>` without a `src` (route-preload.ts writes one into index.html). */
export function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '').filter((t) => t.trim() !== '');
}

/** Writes the policy into every built HTML page, first thing in its <head>. */
export function cspPlugin(): Plugin {
  return {
    name: 'slub-lab:csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      // After the other plugins' tags: every inline script of the page is in `html` by then.
      handler: (html) => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy(inlineScriptsOf(html)) },
          injectTo: 'head-prepend',
        },
      ],
    },
  };
}
