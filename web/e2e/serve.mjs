// A tiny static server for the built app (dist/), on a free loopback port. Like a static host,
// it sends text and wasm gzipped to a client that accepts it (Lighthouse measures transfer), and
// lets the browser keep what Vite fingerprinted (dist/assets/, a name that changes with its
// content) while every other file (the pages, the deck's scripts) is fetched afresh each time.
// A browser context's first page still loads everything; a story's later pages reuse the
// scripts and the wasm chromium has already compiled, as a returning visitor's browser does.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

const COMPRESS = new Set(['.html', '.js', '.css', '.json', '.wasm', '.svg', '.txt']);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** @type {Map<string, { mtimeMs: number, gz: Buffer }>} */
const gzCache = new Map();

function gzipped(file, body) {
  const mtimeMs = statSync(file).mtimeMs;
  const hit = gzCache.get(file);
  if (hit !== undefined && hit.mtimeMs === mtimeMs) return hit.gz;
  const gz = gzipSync(body, { level: 9 });
  gzCache.set(file, { mtimeMs, gz });
  return gz;
}

/** Serve `dir`; resolves to `{ url, close }` once listening. */
export function serve(dir) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir + sep) && file !== dir) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    const ext = extname(file);
    let body = readFileSync(file);
    const fingerprinted = path.startsWith('/assets/');
    const headers = {
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'cache-control': fingerprinted ? 'public, max-age=31536000, immutable' : 'no-store',
      vary: 'accept-encoding',
    };
    if (COMPRESS.has(ext) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      body = gzipped(file, body);
      headers['content-encoding'] = 'gzip';
    }
    res.writeHead(200, headers);
    res.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        close: () => new Promise((done) => server.close(() => done(undefined))),
      });
    });
  });
}
