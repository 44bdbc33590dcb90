// "Export…": a disclosure whose panel (ExportPanel, and through it the exporters) loads only
// when it is opened, so the pages that offer it weigh what they did before
// (measured by `npm run bench`, bench-web.mjs "what each page fetches").
import { lazy, Suspense, useState, type Key } from 'react';
import type { ExportSpec } from './ExportPanel';

const ExportPanel = lazy(() => import('./ExportPanel').then((m) => ({ default: m.ExportPanel })));

/** `panelKey` resets the panel's range when it changes (a new step offers its own moves). */
export function ExportMenu({ spec, panelKey }: { spec: ExportSpec; panelKey: Key }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="export-menu" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Export: picture, animation, PDF</summary>
      {open && (
        <Suspense fallback={<p role="status">Loading the exporters…</p>}>
          <ExportPanel key={panelKey} spec={spec} />
        </Suspense>
      )}
    </details>
  );
}
