// The learner's progress (progress.ts) as React state, following every change and other tabs.
import { useSyncExternalStore } from 'react';
import { progressStore, type Progress } from './progress';

export function useProgress(): Progress {
  return useSyncExternalStore(progressStore.subscribe, progressStore.getSnapshot, progressStore.getSnapshot);
}
