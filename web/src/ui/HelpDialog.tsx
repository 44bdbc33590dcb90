// The `?` dialog, listing the shortcuts from the one command table, and the keyboard hook that
// runs the same table.
import { memo, useEffect, useRef } from 'react';
import { COMMANDS, commandForKey, type CommandName } from '../state/commands';

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

export const HelpDialog = memo(function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (d === null) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="help" aria-labelledby="help-title" onClose={onClose}>
      <h2 id="help-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {COMMANDS.filter((c) => c.keys.length > 0).map((c) => (
            <tr key={c.name}>
              <th scope="row">
                <kbd>{c.keyText}</kbd>
              </th>
              <td>{c.help}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">Every button is also reachable with Tab; the timeline is a slider.</p>
      <button type="button" onClick={onClose} autoFocus>
        Close
      </button>
    </dialog>
  );
});
