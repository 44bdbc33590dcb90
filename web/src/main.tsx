import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { parseHash } from './state/url';
import { App, drawsWordsFirst, loadHome, loadLessonsPage, loadPlayPage, loadSimulator } from './ui/App';
import { loadLessonReader } from './ui/lessons/loadReader';
import { BUILTIN_TEXTS, DEFAULT_SCENARIO_ID } from './ui/scenarios';
import './ui/app.css';

// The playground needs the simulator for its first frame: fetch it now, with the page's own
// chunk. The lessons and the front page draw their words first (their chunk fetched now); a
// lesson asks for the simulator once they are painted, the front page never (App.tsx).
const route = parseHash(window.location.hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
if (!drawsWordsFirst(route)) {
  void loadSimulator().catch(() => undefined); // App reports a failure when it asks again
  if (route.kind === 'play') void loadPlayPage();
} else if (route.kind === 'lessons') {
  void loadLessonsPage();
  // A lesson's step (not the index, the glossary or the invariants): its reader too.
  if (!/^\/lessons\/?(?:$|glossary|invariants)/.test(route.path)) void loadLessonReader();
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
