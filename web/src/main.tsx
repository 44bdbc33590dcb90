import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { parseHash } from './state/url';
import { App, loadComparePage, loadHome, loadLabPage, loadLessonsPage } from './ui/App';
import { loadLessonReader } from './ui/lessons/loadReader';
import { BUILTIN_TEXTS, DEFAULT_SCENARIO_ID } from './ui/scenarios';
import './ui/app.css';

// Each page's chunk, asked for now (in a build, index.html's route preload has started their
// fetch already, a lesson's own chunk included: route-preload.ts). The playground draws its bar
// first and asks for the simulator and its chunk once that is painted (App.tsx); a lesson asks
// for the simulator once its words are painted; the Lab and the comparison run their model in
// workers with wasm of their own; the front page and the lesson index never need it.
const route = parseHash(window.location.hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
switch (route.kind) {
  case 'lessons':
    void loadLessonsPage();
    // A lesson's step (not the index, the glossary or the invariants): its reader too.
    if (!/^\/lessons\/?(?:$|glossary|invariants)/.test(route.path)) void loadLessonReader();
    break;
  case 'lab':
    void loadLabPage();
    break;
  case 'compare':
    void loadComparePage();
    break;
  case 'home':
    void loadHome();
    break;
  case 'play':
  case 'error':
    break;
}

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
