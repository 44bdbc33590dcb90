// Builds the deck's lesson slides and drives their slub-lab embeds through the postMessage API
// (design.md §6):
//   deck → embed   {type: "slub-lab:command", command: "goto", step}
//   embed → deck   {type: "slub-lab:step", lesson, step, total} on every change
//   embed → deck   {type: "slub-lab:key", key} a deck key pressed inside the iframe (arrows,
//                  Space, n, p, PageUp/PageDown of a clicker, s, o, b, ., Escape): the deck acts
//                  on it as reveal.js would have (the embeds are made with `keys=deck`, so they
//                  act on none of these keys themselves)
//
// A slide from a lesson is one element (docs/instructors-guide.md, "Embedding"; `data-optional`
// marks a slide the run sheet leaves out of a 50-minute lecture):
//   <section data-lesson="interrupt-retry" data-steps="2-5" data-title="An interrupt in the middle">
// deck.js adds its title, its embed (the lesson's steps 2 to 5, projector density) and, when the
// section holds text, puts the text beside the embed. Fragments with `data-step` move the embed
// to that step as they appear; `<aside class="notes">` is the speaker's (press s).
//
// Printed with pictures (`?print-pdf&pictures`, reveal.js's print view: one page per slide and
// per fragment stop), each embed is a picture instead: an <img class="embed-picture"> that says
// its lesson and, once the pages are laid out, the step of its stop (`data-step`);
// `npm run export -- --deck` fills in each step's SVG export and prints the deck to PDF.
//
// The step a slide wants is that of its last fragment shown (`data-step`), else the first of
// its steps. An embed that is still loading, or that reports another step (someone clicked
// inside it), is sent the wanted step when it next reports; so the deck never loses a command.
/* global Reveal, RevealNotes, console, document, window -- a browser script (the ESLint config gives public/ no globals) */
(function () {
  'use strict';

  /** `2-5` → [2, 5]; `4` → [4, 4]; anything else → null. */
  function parseSteps(text) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(text || '');
    if (!m) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    return to >= from && from >= 1 ? [from, to] : null;
  }

  /** The embed's link: the lesson's steps, no controls, projector density, keys for the deck. */
  function embedSrc(lesson, from, to) {
    return `../embed.html#/lessons/${encodeURIComponent(lesson)}/${from}?from=${from}&to=${to}&controls=none&density=projector&keys=deck`;
  }

  const printing = /[?&]print-pdf(?:[=&]|$)/.test(window.location.search) && /[?&]pictures(?:[=&]|$)/.test(window.location.search);

  /** Printed: the picture that stands for the embed (its src is the step's SVG, set by the CLI). */
  function embedPicture(lesson, from, to, title) {
    const img = document.createElement('img');
    img.className = 'embed-picture';
    img.alt = `slub-lab lesson ${lesson}, steps ${from} to ${to}${title ? `: ${title}` : ''}`;
    img.setAttribute('data-lesson', lesson);
    img.setAttribute('data-start', String(from));
    return img;
  }

  /** Turn each `<section data-lesson data-steps>` into a slide with its embed. */
  function buildLessonSlides() {
    for (const slide of document.querySelectorAll('.reveal .slides section[data-lesson]')) {
      if (slide.querySelector('iframe')) continue;
      const lesson = slide.getAttribute('data-lesson');
      const steps = parseSteps(slide.getAttribute('data-steps') || slide.getAttribute('data-step'));
      const title = slide.getAttribute('data-title');
      if (!lesson || !steps) {
        slide.insertAdjacentHTML('afterbegin', '<p class="deck-error">This slide needs data-lesson="id" and data-steps="from-to".</p>');
        continue;
      }
      const [from, to] = steps;
      let h2 = slide.querySelector('h2');
      if (!h2 && title) {
        h2 = document.createElement('h2');
        h2.textContent = title;
      }
      // An optional slide (the run sheet's, docs/instructors-guide.md 7.1) says so in its title.
      if (h2 && slide.hasAttribute('data-optional') && !h2.querySelector('.optional')) {
        const tag = document.createElement('span');
        tag.className = 'optional';
        tag.textContent = 'optional';
        h2.append(' ', tag);
      }
      const notes = slide.querySelector('aside.notes');
      const text = document.createElement('div');
      text.className = 'text';
      for (const child of [...slide.childNodes]) {
        if (child === h2 || child === notes) continue;
        text.appendChild(child);
      }
      const hasText = text.textContent.trim() !== '';
      const figure = document.createElement('figure');
      figure.className = 'embed';
      // The iframe is made when the slide comes near (mountEmbeds, below).
      figure.setAttribute('data-title', `slub-lab lesson ${lesson}, steps ${from} to ${to}${title ? `: ${title}` : ''}`);
      figure.setAttribute('data-src', embedSrc(lesson, from, to));
      figure.setAttribute('data-start', String(from));
      const caption = document.createElement('figcaption');
      caption.className = 'embed-status';
      caption.textContent = 'loading…';
      if (printing) {
        // Printed with pictures: no iframe is ever made for this figure.
        figure.removeAttribute('data-src');
        figure.append(embedPicture(lesson, from, to, title));
      } else figure.append(caption);
      const body = document.createElement('div');
      body.className = hasText ? 'cols' : 'solo';
      if (hasText) body.appendChild(text);
      body.appendChild(figure);
      slide.replaceChildren(...[h2, body, notes].filter(Boolean));
    }
  }

  buildLessonSlides();

  /** iframe → { want: number|null, last: object|null } */
  const embeds = new Map();

  /**
   * Make the iframes of `slide` and of the slides beside it. An iframe in a document is a
   * browsing context from the moment it is inserted, even without a src: the nineteen made at
   * once took 170 ms before the deck's first paint (four times that on a phone's CPU). Each is
   * loaded by reveal.js's data-src lazy loading, when its slide is shown (on a phone's
   * scrolling deck, when it comes within `viewDistance`), and unloaded after: a deck of twenty
   * embeds does not start twenty copies of the app at once. A reloaded embed reports its first
   * step and is sent the wanted one. The shown slide's own iframe, if made after reveal.js
   * looked at it (a jump to a far slide), is loaded here.
   */
  function mountEmbeds(slide) {
    if (!slide) return;
    // Its neighbours in the deck's order (a phone's scrolling deck wraps each slide in a page
    // of its own: the slides are not siblings there).
    const all = [...document.querySelectorAll('.reveal .slides section')].filter((s) => !s.querySelector('section'));
    const at = all.indexOf(slide);
    const near = [slide, all[at - 1], all[at + 1]];
    for (const s of near) {
      for (const figure of s ? s.querySelectorAll('figure.embed[data-src]') : []) {
        const frame = document.createElement('iframe');
        frame.title = figure.getAttribute('data-title');
        frame.setAttribute('data-src', figure.getAttribute('data-src'));
        frame.setAttribute('data-start', figure.getAttribute('data-start'));
        figure.removeAttribute('data-src');
        figure.prepend(frame);
        embeds.set(frame, { want: wanted(s, frame), last: null });
      }
    }
    // As reveal.js's startEmbeddedContent does for a shown slide (its stopEmbeddedContent
    // unloads it when the slide is left). The speaker view's previews: loadPreview.
    if (receiver || !slide.classList.contains('present')) return;
    for (const frame of slide.querySelectorAll('iframe[data-start][data-src]:not([src])')) {
      frame.setAttribute('src', frame.getAttribute('data-src'));
    }
  }

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

  /**
   * reveal.js's notes plugin, fetched the first time the speaker view is asked for: 67 KB of
   * script (19 KB gzip) whose evaluation the deck's first paint does not need to wait for.
   */
  let notesPlugin = null;
  function loadNotes() {
    notesPlugin ??= new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = './reveal/plugin/notes.js';
      script.onload = () => {
        if (!Reveal.hasPlugin('notes')) Reveal.registerPlugin(RevealNotes);
        resolve();
      };
      script.onerror = () => reject(new Error('the speaker notes could not be loaded'));
      document.head.appendChild(script);
    });
    return notesPlugin;
  }

  /** The speaker view of reveal.js's notes plugin (s, in the deck or inside an embed). */
  function speakerView() {
    loadNotes().then(
      () => Reveal.getPlugin('notes').open(),
      (e) => console.warn(e.message),
    );
  }

  /** A deck key pressed inside an embed: what reveal.js would have done with it. */
  const KEYS = {
    ArrowRight: () => Reveal.next(),
    ArrowDown: () => Reveal.next(),
    PageDown: () => Reveal.next(),
    ' ': () => Reveal.next(),
    n: () => Reveal.next(),
    N: () => Reveal.next(),
    ArrowLeft: () => Reveal.prev(),
    ArrowUp: () => Reveal.prev(),
    PageUp: () => Reveal.prev(),
    p: () => Reveal.prev(),
    P: () => Reveal.prev(),
    Home: () => Reveal.slide(0),
    End: () => Reveal.slide(Number.MAX_VALUE),
    b: () => Reveal.togglePause(),
    B: () => Reveal.togglePause(),
    '.': () => Reveal.togglePause(),
    s: speakerView,
    S: speakerView,
    o: () => Reveal.toggleOverview(),
    O: () => Reveal.toggleOverview(),
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
    // s opens the speaker view; its plugin loads then (loadNotes).
    keyboard: { 83: speakerView },
  }).then(() => {
    mountEmbeds(Reveal.getCurrentSlide());
    sync(Reveal.getCurrentSlide());
  });

  /**
   * Printed: each page's picture takes the step of its stop (the page's last fragment shown), as
   * the embed would have been sent; the root's `data-deck-pictures` then says they are named.
   */
  Reveal.on('pdf-ready', () => {
    for (const img of document.querySelectorAll('.pdf-page img.embed-picture')) {
      const slide = img.closest('section');
      if (slide) img.setAttribute('data-step', String(wanted(slide, img)));
    }
    document.documentElement.setAttribute('data-deck-pictures', 'named');
  });

  /**
   * The speaker view's previews are this deck in iframes (`?receiver`), where reveal.js starts
   * no embedded iframe (its startEmbeddedContent skips them in speaker notes) and lazy loading
   * loads only iframes marked `data-preload`: every preview stayed on "loading…". There, the
   * shown slide's embed is loaded here, as reveal.js would have; reveal.js unloads it again when
   * the slide goes out of its view distance (data-lazy-loaded).
   */
  const receiver = /[?&]receiver(?:[=&]|$)/.test(window.location.search);
  function loadPreview(slide) {
    if (!receiver || !slide) return;
    for (const frame of slide.querySelectorAll('iframe[data-start][data-src]')) {
      frame.setAttribute('src', frame.getAttribute('data-src'));
      frame.setAttribute('data-lazy-loaded', '');
      frame.removeAttribute('data-src');
    }
  }
  /**
   * The upcoming preview (a receiver without `postMessageEvents`) is told the deck's state once,
   * when the speaker view connects: the notes plugin posts it after the *current* preview says
   * it is ready, so an upcoming preview still loading lost it and stayed on the slide's first
   * step until the speaker moved (seen on a loaded 2-core machine). It asks the deck itself,
   * which is its window's opener on the same origin, and steps one ahead as the plugin would.
   */
  function catchUpUpcoming() {
    if (!receiver || /[?&]postMessageEvents=true/.test(window.location.search)) return;
    let state;
    try {
      state = window.parent !== window ? window.parent.opener?.Reveal?.getState() : null;
    } catch {
      return; // another origin: the plugin's messages are all there is
    }
    if (!state) return;
    // As the speaker view does: no overview and no lightbox in the upcoming preview.
    for (const key of ['overview', 'previewVideo', 'previewImage', 'previewIframe']) delete state[key];
    Reveal.setState(state);
    Reveal.next();
  }
  Reveal.on('ready', (event) => {
    mountEmbeds(event.currentSlide);
    loadPreview(event.currentSlide);
    catchUpUpcoming();
  });
  Reveal.on('slidechanged', (event) => {
    mountEmbeds(event.currentSlide);
    loadPreview(event.currentSlide);
    sync(event.currentSlide);
  });
  Reveal.on('fragmentshown', (event) => sync(event.fragment.closest('section')));
  Reveal.on('fragmenthidden', (event) => sync(event.fragment.closest('section')));
})();
