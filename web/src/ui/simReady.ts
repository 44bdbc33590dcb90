// Whether the simulator's wasm module is instantiated. The lesson pages and the front page are
// drawn before it is, and ask for it only once their words are on screen: on a slow phone link
// the prose comes first instead of sharing the bandwidth with 200 KB of wasm. What needs the
// simulator reads `ready` and waits (App.tsx provides both).
import { createContext, useContext, useEffect } from 'react';
import { afterNextPaint } from './afterNextPaint';

export interface SimStatus {
  readonly ready: boolean;
  /** Start loading the simulator, if no one has (idempotent). */
  readonly want: () => void;
}

export const SimReady = createContext<SimStatus>({ ready: true, want: () => undefined });

/** Whether the simulator is ready; asks for it once this page's first frame is painted. */
export function useSimReady(): boolean {
  const { ready, want } = useContext(SimReady);
  useEffect(() => afterNextPaint(want), [want]);
  return ready;
}
