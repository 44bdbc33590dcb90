// A page's chunk, loaded on demand and drawn as soon as it is here. Not React.lazy: a Suspense
// boundary that has shown its fallback holds the content back for up to 300 ms after it
// arrives (React 19's reveal throttling), and the lessons' words are what a reader waits for.
import { useEffect, useState } from 'react';
import { afterNextPaint } from './afterNextPaint';

type Chunk<M> = { kind: 'loading' } | { kind: 'ready'; module: M } | { kind: 'failed'; message: string };

const loaded = new Map<() => Promise<unknown>, unknown>();

/**
 * `afterPaint`: ask for the chunk only once the page's next frame is painted (what the page draws
 * without it comes first, and does not share the link with it).
 */
export function useChunk<M>(load: () => Promise<M>, { afterPaint = false }: { afterPaint?: boolean } = {}): Chunk<M> {
  const [chunk, setChunk] = useState<Chunk<M>>(() =>
    loaded.has(load) ? { kind: 'ready', module: loaded.get(load) as M } : { kind: 'loading' },
  );
  useEffect(() => {
    if (chunk.kind !== 'loading') return;
    let live = true;
    const start = () =>
      load().then(
        (module) => {
          loaded.set(load, module);
          if (live) setChunk({ kind: 'ready', module });
        },
        (e: unknown) => {
          if (live) setChunk({ kind: 'failed', message: String(e) });
        },
      );
    let cancel: (() => void) | undefined;
    if (afterPaint) cancel = afterNextPaint(() => void start());
    else void start();
    return () => {
      live = false;
      cancel?.();
    };
  }, [load, chunk.kind, afterPaint]);
  return chunk;
}
