// Drives the slub-lab embeds of this deck through the postMessage API (DESIGN §6):
//   deck → embed   {type: "slub-lab:command", command: "goto", step}
//   embed → deck   {type: "slub-lab:step", lesson, step, total} on every change
//   embed → deck   {type: "slub-lab:key", key} a deck key (arrows, PageUp/PageDown of a
//                  clicker, b, ., Escape) pressed inside the iframe: the deck acts on it
// The step a slide wants is that of its last fragment shown (`data-step`), else the iframe's
// `data-start`. An embed that is still loading, or that reports another step (someone clicked
// inside it), is sent the wanted step when it next reports; so the deck never loses a command.
/* global Reveal, document, window -- a browser script (the ESLint config gives public/ no globals) */
(function () {
  'use strict';

  /** iframe → { want: number|null, last: object|null } */
  const embeds = new Map();
  for (const f of document.querySelectorAll('.reveal iframe[data-start]')) embeds.set(f, { want: null, last: null });

  function send(frame, step) {
    if (frame.contentWindow) frame.contentWindow.postMessage({ type: 'slub-lab:command', command: 'goto', step }, '*');
  }

  /** The step the slide's fragments ask for. */
  function wanted(slide, frame) {
    const shown = slide.querySelectorAll('.fragment.visible[data-step]');
    const last = shown[shown.length - 1];
    return Number(last ? last.getAttribute('data-step') : frame.getAttribute('data-start'));
  }

  function sync(slide) {
    if (!slide) return;
    for (const frame of slide.querySelectorAll('iframe[data-start]')) {
      const e = embeds.get(frame);
      if (!e) continue;
      e.want = wanted(slide, frame);
      if (e.last && e.last.step !== e.want) send(frame, e.want);
    }
  }

  /** A deck key pressed inside an embed: what reveal.js would have done with it. */
  const KEYS = {
    ArrowRight: () => Reveal.next(),
    ArrowDown: () => Reveal.next(),
    PageDown: () => Reveal.next(),
    ArrowLeft: () => Reveal.prev(),
    ArrowUp: () => Reveal.prev(),
    PageUp: () => Reveal.prev(),
    Home: () => Reveal.slide(0),
    End: () => Reveal.slide(Number.MAX_VALUE),
    b: () => Reveal.togglePause(),
    B: () => Reveal.togglePause(),
    '.': () => Reveal.togglePause(),
    Escape: () => Reveal.toggleOverview(),
  };

  function fromEmbed(source) {
    for (const [frame] of embeds) if (frame.contentWindow === source) return true;
    return false;
  }

  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!data || typeof data !== 'object') return;
    if (data.type === 'slub-lab:key' && fromEmbed(event.source) && Object.hasOwn(KEYS, data.key)) {
      KEYS[data.key]();
      return;
    }
    if (data.type !== 'slub-lab:step') return;
    for (const [frame, e] of embeds) {
      if (frame.contentWindow !== event.source) continue;
      e.last = data;
      const caption = frame.parentElement && frame.parentElement.querySelector('.embed-status');
      if (caption) {
        caption.textContent = `lesson ${data.lesson} · step ${data.step} of ${data.total}`;
        caption.setAttribute('data-step', String(data.step));
      }
      if (e.want !== null && data.step !== e.want) send(frame, e.want);
    }
  });

  Reveal.initialize({
    hash: true,
    width: 1280,
    height: 720,
    margin: 0.03,
    center: false,
    transition: 'fade',
  }).then(() => {
    for (const [frame] of embeds) {
      const slide = frame.closest('section');
      const e = embeds.get(frame);
      if (slide && e) e.want = wanted(slide, frame);
    }
    sync(Reveal.getCurrentSlide());
  });
  Reveal.on('slidechanged', (event) => sync(event.currentSlide));
  Reveal.on('fragmentshown', (event) => sync(event.fragment.closest('section')));
  Reveal.on('fragmenthidden', (event) => sync(event.fragment.closest('section')));
})();
