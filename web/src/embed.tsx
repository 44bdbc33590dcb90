// Entry of embed.html: the stage alone, for an iframe in a slide deck (design.md §6).
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { loadWasm } from './sim';
import { parseEmbedOptions } from './state/embed';
import { CrashScreen } from './ui/CrashScreen';
import { EmbedPage } from './ui/Embed';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { DensityContext } from './ui/views';
import './ui/app.css';

function EmbedApp() {
  const [ready, setReady] = useState<boolean | string>(false);
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    loadWasm().then(
      () => setReady(true),
      (e: unknown) => setReady(String(e)),
    );
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  // The density the link asks for: the stage reads it from the context, the CSS from the root.
  const options = parseEmbedOptions(hash);
  const density = 'kind' in options ? 'normal' : options.density;
  useEffect(() => {
    document.documentElement.dataset.density = density;
  }, [density]);
  if (typeof ready === 'string') return <CrashScreen title="The simulator could not be loaded" message={ready} />;
  if (!ready) return <p role="status">Loading…</p>;
  return (
    <DensityContext.Provider value={density}>
      <ErrorBoundary key={hash} replay={() => window.location.href}>
        <EmbedPage hash={hash} />
      </ErrorBoundary>
    </DensityContext.Provider>
  );
}

const root = document.getElementById('root');
if (root === null) throw new Error('embed.html has no #root');
createRoot(root).render(
  <StrictMode>
    <EmbedApp />
  </StrictMode>,
);
