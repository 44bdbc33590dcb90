//! The highlight names of docs/writing-lessons.md §4 (`cpu0.tid`, `slab P.freelist`,
//! `code slab_alloc:A9`, ...), parsed once here into the structure the page marks and
//! describes (it receives them as JSON: `{"kind": "cpu", "cpu": 0, "field": "tid"}`), and
//! checked against the model's view at their step.

use serde::Serialize;
use slub_sim::view::View;
use std::collections::BTreeSet;
use ts_rs::TS;

use crate::parse::is_ident;

/// The panels a highlight can name by itself.
const PANELS: [&str; 5] = ["lines", "stats", "timeline", "violations", "code"];
/// The fields of a CPU: SLUB's `kmem_cache_cpu`, the CPU's state, SLAB's `array_cache`.
const CPU_FIELDS: [&str; 8] = [
    "freelist", "tid", "page", "partial", "irqs", "preempt", "array", "sheaves",
];
const SLAB_FIELDS: [&str; 4] = ["freelist", "counters", "inuse", "frozen"];
/// A node's fields; `shared`, `retired` (the shared arrays a `tune` swapped out), `free_objects`,
/// `slabs_full`, `slabs_free` are SLAB's, `barn` Linux 7.0's.
const NODE_FIELDS: [&str; 8] = [
    "partial",
    "list_lock",
    "shared",
    "retired",
    "free_objects",
    "slabs_full",
    "slabs_free",
    "barn",
];

/// One highlight, as the page gets it (docs/writing-lessons.md §4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Highlight {
    Panel {
        /// One of `PANELS` (a test keeps the two in step).
        #[ts(type = r#""lines" | "stats" | "timeline" | "violations" | "code""#)]
        panel: String,
    },
    Cpu {
        cpu: usize,
        field: Option<String>,
    },
    Slab {
        slab: String,
        field: Option<String>,
    },
    Object {
        object: String,
        fp: bool,
    },
    Node {
        node: usize,
        field: Option<String>,
    },
    Line {
        line: String,
    },
    Code {
        label: String,
    },
    Ctx {
        ctx: String,
    },
    Var {
        name: String,
    },
    Stat {
        stat: String,
    },
}

/// `name.field` -> (name, Some(field)) when the field is one of `fields`; `name` -> (name,
/// None); anything else: None.
fn with_field<'a>(rest: &'a str, fields: &[&str]) -> Option<(&'a str, Option<String>)> {
    match rest.split_once('.') {
        Some((name, f)) if fields.contains(&f) => Some((name, Some(f.to_string()))),
        Some(_) => None,
        None => Some((rest, None)),
    }
}

fn number(s: &str) -> Option<usize> {
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl Highlight {
    /// Parse a highlight name; None if it is not one.
    pub fn parse(h: &str) -> Option<Highlight> {
        if PANELS.contains(&h) {
            return Some(Highlight::Panel {
                panel: h.to_string(),
            });
        }
        if let Some(rest) = h.strip_prefix("cpu") {
            let (n, field) = with_field(rest, &CPU_FIELDS)?;
            return Some(Highlight::Cpu {
                cpu: number(n)?,
                field,
            });
        }
        let (kind, rest) = h.split_once(' ')?;
        let starts = |s: &str, upper: bool| {
            s.starts_with(|c: char| {
                if upper {
                    c.is_ascii_uppercase()
                } else {
                    c.is_ascii_lowercase()
                }
            }) && is_ident(s)
        };
        Some(match kind {
            "slab" => {
                let (name, field) = with_field(rest, &SLAB_FIELDS)?;
                if !starts(name, true) {
                    return None;
                }
                Highlight::Slab {
                    slab: name.to_string(),
                    field,
                }
            }
            "object" => {
                let (name, field) = with_field(rest, &["fp"])?;
                if !starts(name, false) {
                    return None;
                }
                Highlight::Object {
                    object: name.to_string(),
                    fp: field.is_some(),
                }
            }
            "node" => {
                let (n, field) = with_field(rest, &NODE_FIELDS)?;
                Highlight::Node {
                    node: number(n)?,
                    field,
                }
            }
            "line" if !rest.trim().is_empty() && !rest.starts_with(char::is_whitespace) => {
                Highlight::Line {
                    line: rest.to_string(),
                }
            }
            "code" => match rest.split_once(':') {
                Some((f, l)) if is_ident(f) && is_ident(l) => Highlight::Code {
                    label: rest.to_string(),
                },
                _ => return None,
            },
            "ctx" if is_ident(rest) => Highlight::Ctx {
                ctx: rest.to_string(),
            },
            "var" if is_ident(rest) => Highlight::Var {
                name: rest.to_string(),
            },
            "stat"
                if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_uppercase() || c == '_') =>
            {
                Highlight::Stat {
                    stat: rest.to_string(),
                }
            }
            _ => return None,
        })
    }

    /// Does what it names exist in `view` (`labels`: the listing's code labels, `stats`: the
    /// model's counter names)?
    fn exists(&self, view: &View, labels: &BTreeSet<String>, stats: &BTreeSet<String>) -> bool {
        match self {
            Highlight::Panel { .. } => true,
            Highlight::Cpu { cpu, .. } => *cpu < view.cpus.len(),
            Highlight::Slab { slab, .. } => view.slabs.iter().any(|s| &s.name == slab),
            Highlight::Object { object, .. } => view
                .slabs
                .iter()
                .flat_map(|s| s.objects.iter())
                .any(|o| &o.name == object),
            // A retired array exists only after a `tune` swapped it out.
            Highlight::Node { node, field } if field.as_deref() == Some("retired") => view
                .nodes
                .get(*node)
                .and_then(|n| n.slab.as_ref())
                .is_some_and(|sn| !sn.retired.is_empty()),
            Highlight::Node { node, .. } => *node < view.nodes.len(),
            Highlight::Line { line } => view.lines.iter().any(|l| &l.name == line),
            Highlight::Code { label } => labels.contains(label),
            Highlight::Ctx { ctx } => view.contexts.iter().any(|c| &c.id == ctx),
            Highlight::Var { name } => view.vars.iter().any(|v| &v.name == name),
            Highlight::Stat { stat } => stats.contains(stat),
        }
    }
}

/// A highlight with its name as written (the page lists it; messages quote it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(rename = "NamedHighlight")]
pub struct Named {
    pub name: String,
    #[serde(flatten)]
    pub highlight: Highlight,
}

/// Parse a step's highlights; `Err` names the first bad one (`highlights[0]: ...`).
pub fn parse_all(hs: &[String]) -> Result<Vec<Named>, String> {
    hs.iter()
        .enumerate()
        .map(|(j, h)| match Highlight::parse(h) {
            Some(highlight) => Ok(Named {
                name: h.clone(),
                highlight,
            }),
            None => Err(format!(
                "highlights[{j}]: {h:?} is not a highlight name (docs/writing-lessons.md)"
            )),
        })
        .collect()
}

/// Check that every highlight names something that exists after this step, and no field of
/// the other allocator's structures. One message per problem.
pub fn check(
    hs: &[Named],
    view: &View,
    labels: &BTreeSet<String>,
    stats: &BTreeSet<String>,
) -> Vec<String> {
    let mut errs = Vec::new();
    let slab = view.cpus.first().is_some_and(|c| c.array_cache.is_some());
    let sheaves = view.allocator == slub_sim::scenario::Allocator::Sheaves;
    for (i, Named { name, highlight }) in hs.iter().enumerate() {
        if !highlight.exists(view, labels, stats) {
            errs.push(format!(
                "highlights[{i}]: {name:?} names nothing that exists at this step"
            ));
            continue;
        }
        let (slab_only, slub_only) = match highlight {
            Highlight::Node { field, .. } => (
                matches!(
                    field.as_deref(),
                    Some("shared" | "retired" | "free_objects" | "slabs_full" | "slabs_free")
                ),
                false,
            ),
            Highlight::Cpu { field, .. } => (
                field.as_deref() == Some("array"),
                matches!(
                    field.as_deref(),
                    Some("freelist" | "tid" | "page" | "partial")
                ),
            ),
            _ => (false, false),
        };
        let sheaves_only = match highlight {
            Highlight::Node { field, .. } => field.as_deref() == Some("barn"),
            Highlight::Cpu { field, .. } => field.as_deref() == Some("sheaves"),
            _ => false,
        };
        if sheaves_only != sheaves && (sheaves_only || slub_only) {
            errs.push(format!(
                "highlights[{i}]: {name:?} is {}; this scenario runs {}",
                if sheaves_only {
                    "Linux 7.0's (\"era\": \"v7.0\")"
                } else {
                    "a field of the classic SLUB's kmem_cache_cpu"
                },
                if sheaves {
                    "Linux 7.0's sheaves"
                } else if slab {
                    "SLAB"
                } else {
                    "the classic SLUB"
                }
            ));
        } else if slab_only && !slab {
            errs.push(format!(
                "highlights[{i}]: {name:?} is SLAB's; this scenario runs SLUB"
            ));
        } else if slub_only && slab {
            let Highlight::Cpu { cpu, .. } = highlight else {
                unreachable!("only a CPU field is SLUB's alone")
            };
            errs.push(format!(
                "highlights[{i}]: {name:?} is a field of SLUB's kmem_cache_cpu; this scenario runs SLAB (`cpu{cpu}.array`)"
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_parses() {
        let cases = [
            (
                "stats",
                Highlight::Panel {
                    panel: "stats".into(),
                },
            ),
            (
                "cpu1",
                Highlight::Cpu {
                    cpu: 1,
                    field: None,
                },
            ),
            (
                "cpu0.tid",
                Highlight::Cpu {
                    cpu: 0,
                    field: Some("tid".into()),
                },
            ),
            (
                "slab P.freelist",
                Highlight::Slab {
                    slab: "P".into(),
                    field: Some("freelist".into()),
                },
            ),
            (
                "object p1.fp",
                Highlight::Object {
                    object: "p1".into(),
                    fp: true,
                },
            ),
            (
                "node 0.free_objects",
                Highlight::Node {
                    node: 0,
                    field: Some("free_objects".into()),
                },
            ),
            (
                "line cpu0 slab",
                Highlight::Line {
                    line: "cpu0 slab".into(),
                },
            ),
            (
                "code slab_alloc:A9",
                Highlight::Code {
                    label: "slab_alloc:A9".into(),
                },
            ),
            ("ctx T", Highlight::Ctx { ctx: "T".into() }),
            ("var x", Highlight::Var { name: "x".into() }),
            (
                "stat ALLOC_FASTPATH",
                Highlight::Stat {
                    stat: "ALLOC_FASTPATH".into(),
                },
            ),
        ];
        for (name, want) in cases {
            assert_eq!(Highlight::parse(name), Some(want), "{name}");
        }
        // The forms the page's tests used to parse itself.
        for name in [
            "slab P.counters",
            "node 0.list_lock",
            "line page P",
            "stat FREE_SLOWPATH",
            "violations",
            "object p3.fp",
            "cpu1",
        ] {
            assert!(Highlight::parse(name).is_some(), "{name}");
        }
        assert_eq!(
            Highlight::parse("line page P"),
            Some(Highlight::Line {
                line: "page P".into()
            })
        );
        for bad in [
            "cpu0.frelist",
            "cpu",
            "cpux",
            "slab p",
            "object P",
            "object p1.inuse",
            "node x",
            "line ",
            "code slab_alloc",
            "ctx 1T",
            "stat alloc",
            "timelines",
            "nonsense here",
        ] {
            assert_eq!(Highlight::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_page_gets_kind_and_fields() {
        let h = parse_all(&["cpu0.tid".into(), "object p1".into()]).unwrap();
        assert_eq!(
            serde_json::to_string(&h).unwrap(),
            r#"[{"name":"cpu0.tid","kind":"cpu","cpu":0,"field":"tid"},{"name":"object p1","kind":"object","object":"p1","fp":false}]"#
        );
        assert_eq!(
            parse_all(&["stats".into(), "cpu0.frelist".into()]).unwrap_err(),
            "highlights[1]: \"cpu0.frelist\" is not a highlight name (docs/writing-lessons.md)"
        );
    }

    #[test]
    fn the_typescript_names_every_panel() {
        use ts_rs::{Config, TS};
        let ts = Highlight::inline(&Config::default());
        let union: Vec<String> = PANELS.iter().map(|p| format!("\"{p}\"")).collect();
        assert!(ts.contains(&union.join(" | ")), "{ts}");
    }
}
