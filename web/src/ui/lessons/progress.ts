// The learner's progress, kept in localStorage: for each lesson, the steps visited and the
// prediction answers given. A lesson is completed when every one of its steps has been visited.
//
// The pure functions take and return plain values; `progressStore` wraps them for React
// (useSyncExternalStore) and follows changes made in other tabs (the `storage` event). A
// storage that is missing, full or forbidden (private windows) only loses persistence.

export const PROGRESS_KEY = 'slub-lab:progress';
const VERSION = 1;

export interface LessonProgress {
  /** Step numbers (from 1) visited, ascending. */
  readonly visited: readonly number[];
  /** Step number → the choice (from 0) given to its prediction question. */
  readonly answers: Readonly<Record<string, number>>;
}

export interface Progress {
  readonly version: typeof VERSION;
  readonly lessons: Readonly<Record<string, LessonProgress>>;
}

export const EMPTY: Progress = { version: VERSION, lessons: {} };
const NO_LESSON: LessonProgress = { visited: [], answers: {} };

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** Whatever is stored, as a valid Progress (anything unreadable is dropped, never thrown). */
export function parseProgress(text: string | null): Progress {
  if (text === null) return EMPTY;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return EMPTY;
  }
  if (data === null || typeof data !== 'object') return EMPTY;
  const { version, lessons } = data as { version?: unknown; lessons?: unknown };
  if (version !== VERSION || lessons === null || typeof lessons !== 'object') return EMPTY;
  const out: Record<string, LessonProgress> = {};
  for (const [id, value] of Object.entries(lessons as Record<string, unknown>)) {
    if (value === null || typeof value !== 'object') continue;
    const { visited, answers } = value as { visited?: unknown; answers?: unknown };
    const steps = Array.isArray(visited) ? visited.filter((n): n is number => isCount(n) && n > 0) : [];
    const given: Record<string, number> = {};
    if (answers !== null && typeof answers === 'object') {
      for (const [k, v] of Object.entries(answers as Record<string, unknown>)) {
        if (/^\d+$/.test(k) && isCount(v)) given[k] = v;
      }
    }
    out[id] = { visited: [...new Set(steps)].sort((a, b) => a - b), answers: given };
  }
  return { version: VERSION, lessons: out };
}

export function lessonProgress(p: Progress, id: string): LessonProgress {
  return p.lessons[id] ?? NO_LESSON;
}

export function withVisit(p: Progress, id: string, step: number): Progress {
  const l = lessonProgress(p, id);
  if (l.visited.includes(step)) return p;
  const visited = [...l.visited, step].sort((a, b) => a - b);
  return { ...p, lessons: { ...p.lessons, [id]: { ...l, visited } } };
}

export function withAnswer(p: Progress, id: string, step: number, choice: number): Progress {
  const l = lessonProgress(p, id);
  if (l.answers[String(step)] === choice) return p;
  return { ...p, lessons: { ...p.lessons, [id]: { ...l, answers: { ...l.answers, [String(step)]: choice } } } };
}

export function withoutAnswer(p: Progress, id: string, step: number): Progress {
  const l = lessonProgress(p, id);
  if (!(String(step) in l.answers)) return p;
  const answers = Object.fromEntries(Object.entries(l.answers).filter(([k]) => k !== String(step)));
  return { ...p, lessons: { ...p.lessons, [id]: { ...l, answers } } };
}

export interface LessonStatus {
  /** Steps visited (of those the lesson has now). */
  readonly visited: number;
  readonly total: number;
  readonly completed: boolean;
  /** Where "continue" goes: the first step not visited yet (1 when none or all are). */
  readonly resumeAt: number;
}

export function lessonStatus(p: Progress, id: string, total: number): LessonStatus {
  const seen = lessonProgress(p, id).visited.filter((n) => n <= total);
  const completed = total > 0 && seen.length === total;
  let resumeAt = 1;
  if (!completed && seen.length > 0) {
    for (let n = 1; n <= total; n++) {
      if (!seen.includes(n)) {
        resumeAt = n;
        break;
      }
    }
  }
  return { visited: seen.length, total, completed, resumeAt };
}

export interface ProgressStore {
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => Progress;
  readonly visit: (id: string, step: number) => void;
  readonly answer: (id: string, step: number, choice: number) => void;
  readonly forgetAnswer: (id: string, step: number) => void;
  readonly reset: () => void;
}

/** A store over `storage` (null: in memory only). */
export function createProgressStore(storage: Storage | null): ProgressStore {
  const read = () => {
    try {
      return parseProgress(storage?.getItem(PROGRESS_KEY) ?? null);
    } catch {
      return EMPTY;
    }
  };
  let current = read();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of listeners) l();
  };
  const set = (next: Progress) => {
    if (next === current) return;
    current = next;
    try {
      if (next.lessons === EMPTY.lessons) storage?.removeItem(PROGRESS_KEY);
      else storage?.setItem(PROGRESS_KEY, JSON.stringify(next));
    } catch {
      // full or forbidden: the progress lives until the page closes
    }
    notify();
  };
  const onStorage = (e: StorageEvent) => {
    if (e.key !== PROGRESS_KEY && e.key !== null) return;
    current = read();
    notify();
  };
  return {
    subscribe: (listener) => {
      listeners.add(listener);
      if (listeners.size === 1 && typeof window !== 'undefined') window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
      };
    },
    getSnapshot: () => current,
    visit: (id, step) => set(withVisit(current, id, step)),
    answer: (id, step, choice) => set(withAnswer(current, id, step, choice)),
    forgetAnswer: (id, step) => set(withoutAnswer(current, id, step)),
    reset: () => set(EMPTY),
  };
}

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The page's store (localStorage). */
export const progressStore: ProgressStore = createProgressStore(browserStorage());
