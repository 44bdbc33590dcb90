//! The checked lessons as the JSON the page is built from (`slub-lab lesson export`; their
//! TypeScript is generated into `web/src/lessons/generated/` by slub-wasm's tests/contract.rs): the structure parsed, the moves resolved into
//! plain moves beside the moves as written, the highlights parsed, the predictions and the
//! claims as written. Prose (the intro, each step's narration, a question, its choices and
//! explanation, a try-it goal) stays Markdown: the page's build renders it, safely.

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::format::{Front, TryIt};
use crate::highlight::Named;
use crate::Checked;

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportedLesson<'a> {
    /// `lessons/NN-slug/lesson.md`.
    pub file: &'a str,
    /// `NN-slug`.
    pub dir: &'a str,
    /// The `NN` of the folder.
    pub number: u32,
    pub id: &'a str,
    pub front: &'a Front,
    /// Markdown.
    pub intro: &'a str,
    /// The scenario file as written (the page merges the front matter's `variant` in).
    pub scenario: &'a str,
    pub steps: Vec<ExportedStep<'a>>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportedStep<'a> {
    /// 1-based, as in the page's URL `#/lessons/<id>/<n>`.
    pub n: usize,
    pub title: &'a str,
    /// Line of the heading in lesson.md.
    pub line: usize,
    /// The plain moves this step plays (`T*3` expanded, `T to end` resolved).
    pub moves: &'a [String],
    /// The moves as written.
    pub moves_source: &'a [String],
    pub highlights: &'a [Named],
    pub predict: Option<ExportedPredict<'a>>,
    pub try_it: Option<&'a TryIt>,
    /// The step's `expect` as written (null: none).
    #[ts(type = "unknown")]
    pub expect: &'a Value,
    /// A what-if on the stage: the run this step shows instead of the lesson's own.
    pub run: Option<ExportedRun<'a>>,
    /// Markdown.
    pub narration: &'a str,
}

/// The run a what-if step shows: its changes, every plain move from the start of the changed
/// scenario, and the index where this step's own moves begin.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "LessonRun")]
pub struct ExportedRun<'a> {
    #[ts(type = "Record<string, string | boolean | number>")]
    pub variant: &'a serde_json::Map<String, Value>,
    #[ts(type = "Record<string, string | boolean | number>")]
    pub cache: &'a serde_json::Map<String, Value>,
    /// `"slab"`: the run is SLAB's (the scenario's `allocator`), not the lesson's allocator.
    pub allocator: Option<&'a str>,
    /// Every plain move from the start of the changed scenario.
    pub moves: &'a [String],
    /// Where this step's own moves begin in `moves`.
    pub from: usize,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportedPredict<'a> {
    /// Markdown (inline), as the choices and the explanation.
    pub question: &'a str,
    pub choices: &'a [String],
    /// Index (from 0) of the right choice.
    pub answer: usize,
    pub explain: Option<&'a str>,
    /// The claims that make the answer right, as written (`choice` included).
    #[ts(type = "unknown")]
    pub claims: &'a Value,
}

const NULL: Value = Value::Null;

/// The page's view of checked lessons.
pub fn export(lessons: &[Checked]) -> Vec<ExportedLesson<'_>> {
    lessons
        .iter()
        .map(|c| {
            let l = &c.lesson;
            ExportedLesson {
                file: &l.file,
                dir: &l.dir_name,
                number: l
                    .dir_name
                    .get(..2)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0),
                id: &l.front.id,
                front: &l.front,
                intro: &l.intro,
                scenario: &c.scenario,
                steps: l
                    .steps
                    .iter()
                    .zip(&c.moves)
                    .enumerate()
                    .map(|(k, (s, moves))| ExportedStep {
                        n: k + 1,
                        title: &s.title,
                        line: s.line,
                        moves,
                        moves_source: &s.block.moves,
                        highlights: &s.highlights,
                        predict: s.block.predict.as_ref().map(|p| ExportedPredict {
                            question: &p.question,
                            choices: &p.choices,
                            answer: p.answer.choice.unwrap_or(0),
                            explain: p.explain.as_deref(),
                            claims: s.raw.pointer("/predict/answer").unwrap_or(&NULL),
                        }),
                        try_it: s.block.try_it.as_ref(),
                        expect: s.raw.get("expect").unwrap_or(&NULL),
                        run: s
                            .block
                            .run
                            .as_ref()
                            .zip(c.runs.get(k).and_then(|r| r.as_ref()))
                            .map(|(run, track)| ExportedRun {
                                variant: &run.variant,
                                cache: &run.cache,
                                allocator: run.allocator.as_deref(),
                                moves: &track.moves,
                                from: track.from,
                            }),
                        narration: &s.narration,
                    })
                    .collect(),
            }
        })
        .collect()
}
