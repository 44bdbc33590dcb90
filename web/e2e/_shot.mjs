import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
const srv = await serve('/work/main/dist');
const base = srv.url.replace(/\/$/, "");
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run','--disable-quic'] });
const [,, hash, out, w, h, steps] = process.argv;
const page = await browser.newPage({ viewport: { width: +(w ?? 1440), height: +(h ?? 900) } });
const errors = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.on('pageerror', (e) => errors.push(String(e)));
await page.goto(`${base}/${hash}`);
await page.waitForTimeout(2500);
for (let i = 0; i < +(steps ?? 0); i++) { await page.keyboard.press('ArrowRight'); await page.waitForTimeout(80); }
await page.waitForTimeout(800);
await page.screenshot({ path: out, fullPage: true });
console.log('errors', errors);
await browser.close();
srv.close?.();
process.exit(0);
