import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { parseHash } from './state/url';
import { App, loadComparePage, loadHome, loadLabPage, loadLessonsPage, loadPlayPage, loadSimulator, waitsForSimulator } from './ui/App';
import { loadLessonReader } from './ui/lessons/loadReader';
import { BUILTIN_TEXTS, DEFAULT_SCENARIO_ID } from './ui/scenarios';
import './ui/app.css';

// The playground needs the simulator for its first frame: fetch it now, with the page's own
// chunk. Every other page fetches its chunk now and draws without it: a lesson asks for the
// simulator once its words are painted, the Lab and the comparison run their model in workers
// with wasm of their own, and the front page and the lesson index never need it (App.tsx).
const route = parseHash(window.location.hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
if (waitsForSimulator(route)) {
  void loadSimulator().catch(() => undefined); // App reports a failure when it asks again
  void loadPlayPage();
} else if (route.kind === 'lessons') {
  void loadLessonsPage();
  // A lesson's step (not the index, the glossary or the invariants): its reader and its lesson too.
  const id = /^\/lessons\/([^/?]+)/.exec(route.path)?.[1];
  if (id !== undefined && id !== 'glossary' && id !== 'invariants') {
    void loadLessonReader();
    // A wrong id is the page's to report (LessonsPage), not this early start's.
    void import('./lessons/heads').then((m) => m.loadLesson(decodeURIComponent(id))).catch(() => undefined);
  }
} else if (route.kind === 'lab') {
  void loadLabPage();
} else if (route.kind === 'compare') {
  void loadComparePage();
} else {
  void loadHome();
}

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
