//! The course's measures of its predictions, and the rules on them (docs/writing-lessons.md §6):
//! a prediction must be answered by understanding, not by its form. Over the whole course
//!
//! - no position holds the right answer in more than [`MAX_POSITION_SHARE`] of the predictions
//!   (a learner who always picks the middle choice must not pass), and
//! - the right answer is the *unique longest* choice (more characters, as written, than every
//!   other choice) in at most [`MAX_LONGEST_SHARE`] of them (nor one who picks the longest).
//!
//! - every lesson from [`WHY_FROM`] on (by its folder number) has a prediction that asks *why*
//!   (the question has the word "why"; its choices are reasons, and the stage then shows the
//!   consequence), so the course asks for causes, not only outcomes.
//!
//! The rules judge a course, not a lesson: they apply to a folder of at least
//! [`MIN_PREDICTIONS`] predictions (fewer is too small a sample; the crate's fixtures are).
//! `slub-lab lesson check --stats` prints the measures.

use crate::Checked;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// No position may hold the right answer in more than this share of the course's predictions.
pub const MAX_POSITION_SHARE: f64 = 0.40;
/// The right answer may be the unique longest choice in at most this share of them.
pub const MAX_LONGEST_SHARE: f64 = 1.0 / 3.0;
/// The balance rules judge a folder with at least this many predictions.
pub const MIN_PREDICTIONS: usize = 10;
/// From this lesson number (the folder's `NN`) on, a lesson must ask at least one why.
pub const WHY_FROM: u32 = 2;

/// One prediction, as the measures see it.
#[derive(Debug, Clone)]
pub struct Prediction {
    /// `lessons/NN-slug/lesson.md: step k "title"`.
    pub at: String,
    /// `NN-slug`.
    pub lesson: String,
    pub choices: usize,
    /// The right choice, from 0.
    pub answer: usize,
    /// The right choice has more characters than every other.
    pub unique_longest: bool,
    /// The question asks why.
    pub why: bool,
}

/// The course's predictions, measured.
#[derive(Debug, Default)]
pub struct Measures {
    pub predictions: Vec<Prediction>,
}

fn asks_why(question: &str) -> bool {
    question
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("why"))
}

impl Measures {
    pub fn of(lessons: &[Checked]) -> Measures {
        let mut predictions = Vec::new();
        for c in lessons {
            let l = &c.lesson;
            for (k, s) in l.steps.iter().enumerate() {
                let Some(p) = &s.block.predict else { continue };
                let answer = p.answer.choice.unwrap_or(0);
                let len = |t: &String| t.chars().count();
                let right = p.choices.get(answer).map(len).unwrap_or(0);
                let unique_longest = p
                    .choices
                    .iter()
                    .enumerate()
                    .all(|(i, t)| i == answer || len(t) < right);
                predictions.push(Prediction {
                    at: format!("{}: step {} {:?}", l.file, k + 1, s.title),
                    lesson: l.dir_name.clone(),
                    choices: p.choices.len(),
                    answer,
                    unique_longest,
                    why: asks_why(&p.question),
                });
            }
        }
        Measures { predictions }
    }

    /// How many predictions have their right answer at each position (from 0).
    pub fn by_position(&self) -> BTreeMap<usize, usize> {
        let mut m = BTreeMap::new();
        for p in &self.predictions {
            *m.entry(p.answer).or_insert(0) += 1;
        }
        m
    }

    pub fn unique_longest(&self) -> usize {
        self.predictions.iter().filter(|p| p.unique_longest).count()
    }

    /// The lessons (`NN-slug`) that have predictions but none asking why.
    pub fn lessons_without_why(&self) -> Vec<String> {
        let mut by: BTreeMap<&str, bool> = BTreeMap::new();
        for p in &self.predictions {
            *by.entry(&p.lesson).or_insert(false) |= p.why;
        }
        by.into_iter()
            .filter(|(_, why)| !why)
            .map(|(l, _)| l.to_string())
            .collect()
    }

    /// The balance rules' complaints, one line each (none for a folder too small to judge).
    pub fn errors(&self, dir: &str) -> Vec<String> {
        let n = self.predictions.len();
        let mut errs = Vec::new();
        if n < MIN_PREDICTIONS {
            return errs;
        }
        let pct = |k: usize| 100.0 * k as f64 / n as f64;
        for (pos, k) in self.by_position() {
            if k as f64 > MAX_POSITION_SHARE * n as f64 {
                let which: Vec<&str> = self
                    .predictions
                    .iter()
                    .filter(|p| p.answer == pos)
                    .map(|p| p.at.as_str())
                    .collect();
                errs.push(format!(
                    "{dir}: the course's predictions: the right answer is choice {pos} (from 0) in \
                     {k} of {n} ({:.0} %), more than {:.0} %: a learner who always picks it would \
                     pass; reorder some choices ({})",
                    pct(k),
                    100.0 * MAX_POSITION_SHARE,
                    which.join("; ")
                ));
            }
        }
        let longest = self.unique_longest();
        if longest as f64 > MAX_LONGEST_SHARE * n as f64 {
            let which: Vec<&str> = self
                .predictions
                .iter()
                .filter(|p| p.unique_longest)
                .map(|p| p.at.as_str())
                .collect();
            errs.push(format!(
                "{dir}: the course's predictions: the right answer is the unique longest choice \
                 in {longest} of {n} ({:.0} %), more than a third: a learner who picks the \
                 longest would pass; give some a longer wrong choice or a shorter right one ({})",
                pct(longest),
                which.join("; ")
            ));
        }
        for lesson in self.lessons_without_why() {
            let number = lesson
                .split('-')
                .next()
                .and_then(|nn| nn.parse::<u32>().ok());
            if number.is_some_and(|nn| nn >= WHY_FROM) {
                errs.push(format!(
                    "{dir}/{lesson}/lesson.md: no prediction asks why: from lesson \
                     {WHY_FROM:02} on, at least one must (its choices are reasons, and the stage \
                     shows the consequence)"
                ));
            }
        }
        errs
    }

    /// What `lesson check --stats` prints.
    pub fn render(&self) -> String {
        let n = self.predictions.len();
        let pct = |k: usize| {
            if n == 0 {
                0.0
            } else {
                100.0 * k as f64 / n as f64
            }
        };
        let mut s = String::new();
        let _ = writeln!(s, "predictions: {n}");
        for (pos, k) in self.by_position() {
            let _ = writeln!(
                s,
                "  right answer at choice {pos} (from 0): {k} ({:.0} %; at most {:.0} %)",
                pct(k),
                100.0 * MAX_POSITION_SHARE
            );
        }
        let longest = self.unique_longest();
        let _ = writeln!(
            s,
            "  right answer the unique longest choice: {longest} ({:.0} %; at most 33 %)",
            pct(longest)
        );
        let why = self.predictions.iter().filter(|p| p.why).count();
        let _ = writeln!(s, "  asking why: {why} ({:.0} %)", pct(why));
        let without = self.lessons_without_why();
        let _ = writeln!(
            s,
            "  lessons with predictions but none asking why: {}",
            if without.is_empty() {
                "none".to_string()
            } else {
                without.join(", ")
            }
        );
        for p in &self.predictions {
            let _ = writeln!(
                s,
                "  {}: answer {} of {}{}{}",
                p.at,
                p.answer,
                p.choices,
                if p.unique_longest {
                    ", unique longest"
                } else {
                    ""
                },
                if p.why { ", asks why" } else { "" }
            );
        }
        s
    }
}
