import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadWasm } from './sim';
import { App, loadHome, loadLessonsPage } from './ui/App';
import './ui/app.css';

// The playground needs the simulator for its first frame: fetch it now, with the page's own
// chunks. The lessons and the front page draw their words first (their chunk fetched now) and
// ask for the simulator after (App.tsx).
const hash = window.location.hash;
if (hash.startsWith('#/lessons')) void loadLessonsPage();
else if (hash === '' || hash === '#' || hash === '#/') void loadHome();
else void loadWasm();

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
