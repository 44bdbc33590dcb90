import { useEffect, useState } from 'react';
import sampleScenario from '../../../lessons/00-sample/scenario.json?raw';
import { loadWasm } from '../sim';
import { CrashScreen } from './CrashScreen';
import { Player } from './Player';

type Loading = { kind: 'loading' } | { kind: 'ready' } | { kind: 'failed'; message: string };

/** Loads the wasm module, then the player with the built-in sample scenario. */
export function App() {
  const [loading, setLoading] = useState<Loading>({ kind: 'loading' });
  useEffect(() => {
    loadWasm().then(
      () => setLoading({ kind: 'ready' }),
      (e: unknown) => setLoading({ kind: 'failed', message: String(e) }),
    );
  }, []);

  switch (loading.kind) {
    case 'loading':
      return (
        <p className="loading" role="status">
          Loading the simulator…
        </p>
      );
    case 'failed':
      return <CrashScreen title="The simulator could not be loaded" message={loading.message} />;
    case 'ready':
      return <Player initialScenario={sampleScenario} />;
  }
}
