// The course's reference pages: the glossary (`#/lessons/glossary[/<term>]`), each term with
// its definition and the lesson that introduces it, and the invariants (`#/lessons/invariants`),
// every invariant the model checks in words with where the course breaks it. Both are rendered
// at build time (web/src/lessons/course.ts); a term or an invariant in the URL is scrolled into view.
import { useEffect, type ReactNode } from 'react';
import type { CoursePages, LessonHead } from '../../lessons';
import { SiteHeader } from '../SiteHeader';
import { lessonHash } from './route';

/**
 * The frame both pages share: the tab's title, the site header, the way back to the lessons, and
 * the entry the URL names (`anchor`, an element id) scrolled into view.
 */
function CoursePage({ name, testid, anchor, children }: { name: string; testid: string; anchor: string | null; children: ReactNode }) {
  useEffect(() => {
    document.title = `${name} · slub-lab`;
  }, [name]);
  useEffect(() => {
    if (anchor === null) return;
    document.getElementById(anchor)?.scrollIntoView({ block: 'start' });
  }, [anchor]);
  return (
    <main className="page course-page" data-testid={testid}>
      <SiteHeader current="index" />
      <p className="crumbs">
        <a href="#/lessons">All lessons</a> › {name}
      </p>
      {children}
    </main>
  );
}

export function GlossaryPage({ course, lessons, at }: { course: CoursePages; lessons: readonly LessonHead[]; at: string | null }) {
  return (
    <CoursePage name="Glossary" testid="glossary" anchor={at === null ? null : `term-${at}`}>
      <h1>Glossary</h1>
      <p className="muted">
        The words of the course. A lesson links each of them the first time it uses it; the{' '}
        <a href="#/lessons/invariants">invariants</a> page lists what the model checks.
      </p>
      <dl className="glossary">
        {course.glossary.map((g) => {
          const lesson = lessons.find((l) => l.id === g.lesson);
          return (
            <div key={g.slug} id={`term-${g.slug}`} className={at === g.slug ? 'current' : undefined}>
              <dt>{g.term}</dt>
              <dd>
                <span dangerouslySetInnerHTML={{ __html: g.definitionHtml }} />
                {lesson !== undefined && (
                  <>
                    {' '}
                    <span className="small muted">
                      Introduced in <a href={lessonHash(lesson.id, 1)}>{lesson.front.title}</a>.
                    </span>
                  </>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </CoursePage>
  );
}

const FAMILIES = [
  { family: 'slub', title: 'SLUB, Linux 2.6.39 to 6.x', note: 'Checked after every atomic step of the classic design.' },
  { family: 'v7', title: 'Linux 7.0: sheaves and barns', note: 'INV-1 (no object handed out twice) is checked here too.' },
  { family: 'slab', title: 'SLAB', note: 'The allocator before SLUB, removed in 6.8.' },
] as const;

export function InvariantsPage({ course, at }: { course: CoursePages; at: string | null }) {
  return (
    <CoursePage name="Invariants" testid="invariants" anchor={at === null ? null : `inv-${at}`}>
      <h1>What the model checks</h1>
      <p className="muted">
        After every atomic step the model checks these properties of its state; the <em>violations</em> panel names the
        first step that breaks one. Each entry says where the course breaks it, or why nothing in the course can.
      </p>
      {FAMILIES.map(({ family, title, note }) => (
        <section key={family} aria-labelledby={`fam-${family}`}>
          <h2 id={`fam-${family}`}>{title}</h2>
          <p className="small muted">{note}</p>
          <table className="invariants">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">What must hold</th>
                <th scope="col">Broken</th>
              </tr>
            </thead>
            <tbody>
              {course.invariants
                .filter((v) => v.family === family)
                .map((v) => (
                  <tr key={v.id} id={`inv-${v.id}`} className={at === v.id ? 'current' : undefined}>
                    <th scope="row">{v.id}</th>
                    <td dangerouslySetInnerHTML={{ __html: v.statementHtml }} />
                    <td dangerouslySetInnerHTML={{ __html: v.brokenHtml }} />
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      ))}
    </CoursePage>
  );
}
