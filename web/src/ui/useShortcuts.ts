// The keyboard hook: the shortcut keys run the one command table (state/commands.ts), the same
// table the `?` dialog lists and the embed's messages name.
import { useEffect } from 'react';
import { commandForKey, type CommandName } from '../state/commands';

function isTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** Run `run(command)` for the shortcut keys (not while typing; Space is left to buttons). */
export function useShortcuts(run: (name: CommandName) => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || isTextField(e.target)) return;
      if (e.key === ' ' && e.target instanceof HTMLElement && ['BUTTON', 'A', 'SUMMARY'].includes(e.target.tagName)) return;
      if (e.target instanceof Element && e.target.closest('dialog') !== null && e.key !== '?') return;
      const name = commandForKey(e.key);
      if (name === undefined) return;
      e.preventDefault();
      run(name);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [run]);
}
