// The page's few icons, drawn as SVG paths rather than taken from an emoji font: a system
// without one (many lecture-hall PCs, some phones) showed 🔒 as an empty box. Each is
// decorative (aria-hidden): the words beside it carry the meaning.

const PATHS = {
  // A triangle with an exclamation mark: something is broken.
  warning: 'M8 1.5 L15 14.5 H1 Z M8 6 V10 M8 11.8 V12.6',
  // A lightning bolt: an interrupt.
  bolt: 'M9.5 1 L3.5 9 H7.5 L6.5 15 L12.5 7 H8.5 Z',
  // A closed padlock: a lock is held.
  lock: 'M4 7 V5 A4 4 0 0 1 12 5 V7 M2.5 7 H13.5 V15 H2.5 Z',
  // A filled circle: a task.
  task: 'M8 3 A5 5 0 1 1 7.99 3 Z',
} as const;

export type IconName = keyof typeof PATHS;

/** Filled shapes (the rest are outlines with a stroke). */
const FILLED: ReadonlySet<IconName> = new Set(['bolt', 'task']);

export function Icon({ name, className }: { name: IconName; className?: string }) {
  const filled = FILLED.has(name);
  return (
    <svg
      className={`icon icon-${name}${className === undefined ? '' : ` ${className}`}`}
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d={PATHS[name]}
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth={filled ? 0.6 : 1.6}
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}
