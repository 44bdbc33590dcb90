// A commit message a reader of `git log --oneline` can use: a subject of at most 72 characters
// saying what changed, then (if there is more) a blank line and a body saying why, with numbers.
//
//   node scripts/commit-msg.mjs MESSAGE_FILE
//
// Run by the commit-msg hook in scripts/hooks/ (turn it on once per clone with
// `git config core.hooksPath scripts/hooks`); exit 1 with the reason on a message that breaks
// the rule. Lines git strips (`#` comments, the scissors line and what follows) are ignored.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MAX_SUBJECT = 72;

/** What is wrong with a commit message, or `null` if nothing is. */
export function checkMessage(text) {
  const scissors = text.indexOf('# ------------------------ >8 ------------------------');
  const lines = (scissors >= 0 ? text.slice(0, scissors) : text)
    .split('\n')
    .filter((line) => !line.startsWith('#'));
  while (lines.length > 0 && lines[0].trim() === '') lines.shift();
  if (lines.length === 0) return null; // an empty message: git refuses it itself
  const subject = lines[0];
  if (subject.length > MAX_SUBJECT) {
    return `the subject is ${subject.length} characters; at most ${MAX_SUBJECT}: say what changed, and why in the body`;
  }
  if (lines.length > 1 && lines[1].trim() !== '') {
    return 'the subject is one line: leave a blank line between it and the body';
  }
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node scripts/commit-msg.mjs MESSAGE_FILE');
    process.exit(2);
  }
  const problem = checkMessage(readFileSync(file, 'utf8'));
  if (problem) {
    console.error(`[commit-msg] ${problem}`);
    process.exit(1);
  }
}
