import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadWasm } from './sim';
import { parseHash } from './state/url';
import { App, drawsWordsFirst, loadHome, loadLessonsPage } from './ui/App';
import { BUILTIN_TEXTS, DEFAULT_SCENARIO_ID } from './ui/scenarios';
import './ui/app.css';

// The playground needs the simulator for its first frame: fetch it now, with the page's own
// chunks. The lessons and the front page draw their words first (their chunk fetched now) and
// ask for the simulator after (App.tsx).
const route = parseHash(window.location.hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
if (!drawsWordsFirst(route)) void loadWasm();
else if (route.kind === 'lessons') void loadLessonsPage();
else void loadHome();

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
