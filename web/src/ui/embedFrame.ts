// What an embed does for its frame: the theme its link asks for (light by
// default: a deck is white whatever the OS prefers), its density (`density=projector`: the
// page's CSS and the stage read it from the root element), and a deck's keys passed on to the
// host page, so a presenter's clicker still moves the deck after a click inside the iframe.
// With `keys=deck` every deck key goes to the deck and the embed acts on none (without it,
// Space pressed inside a slide's embed advanced nothing).
import { useEffect } from 'react';
import { DECK_KEYS, HOST_KEYS, parseEmbedOptions, type KeyMessage, type Theme } from '../state/embed';

export function useEmbedFrame(theme: Theme): void {
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'auto') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    if (window.parent === window) return;
    const options = parseEmbedOptions(window.location.hash);
    const deck = !('kind' in options) && options.keys === 'deck';
    const keys = deck ? DECK_KEYS : HOST_KEYS;
    const onKey = (e: KeyboardEvent) => {
      if ((!deck && e.defaultPrevented) || e.ctrlKey || e.metaKey || e.altKey || !keys.has(e.key)) return;
      if (deck) {
        // Before any handler of the embed's (a capturing listener on the window runs first).
        e.preventDefault();
        e.stopImmediatePropagation();
      }
      const msg: KeyMessage = { type: 'slub-lab:key', key: e.key };
      window.parent.postMessage(msg, '*');
    };
    window.addEventListener('keydown', onKey, { capture: deck });
    return () => window.removeEventListener('keydown', onKey, { capture: deck });
  }, []);
}
