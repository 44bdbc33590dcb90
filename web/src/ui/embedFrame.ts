// What an embed does for its frame (issue 13 item 8): the theme its link asks for (light by
// default: a deck is white whatever the OS prefers), and a deck's keys passed on to the host
// page, so a presenter's clicker still moves the deck after a click inside the iframe.
import { useEffect } from 'react';
import { HOST_KEYS, type KeyMessage, type Theme } from '../state/embed';

export function useEmbedFrame(theme: Theme): void {
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'auto') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    if (window.parent === window) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || !HOST_KEYS.has(e.key)) return;
      const msg: KeyMessage = { type: 'slub-lab:key', key: e.key };
      window.parent.postMessage(msg, '*');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
