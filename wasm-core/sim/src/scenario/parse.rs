//! The second pass of parsing: the raw file (`raw.rs`) becomes a [`Scenario`] with every
//! default and the era bundle applied. Integers are range-checked as they are read, so a
//! negative or absurd value is refused with the limit's words, not serde's "expected u32".

use super::cache::resolve_cache;
use super::keys::resolve_variant;
use super::limits::*;
use super::raw::{Int, Obj, RawAllocator, RawContext, RawScenario, RawSchedule};
use super::variant::check_allocator_keys;
use super::{validate, Allocator, ContextSpec, Op, Scenario, ScenarioError, SetupOp, Variant};

/// Parse a scenario file (design.md §4): syntax, types and unknown fields, then defaults and the
/// variant bundle, then [`validate`]. Every error names the JSON path and why.
pub fn parse(json: &str) -> Result<Scenario, ScenarioError> {
    let raw = parse_raw(json)?;
    let scenario = resolve(raw)?;
    validate(&scenario)?;
    Ok(scenario)
}

fn parse_raw(json: &str) -> Result<RawScenario, ScenarioError> {
    let mut de = serde_json::Deserializer::from_str(json);
    let Obj(raw): Obj<RawScenario> = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = path_string(e.path());
        json_error(path, e.inner())
    })?;
    de.end().map_err(|e| json_error(String::new(), &e))?;
    Ok(raw)
}

/// `tasks[1].ops[0].var` (the root is the empty path).
fn path_string(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            // A key that could not be read (a syntax error inside an object): the line and
            // column say where, a `?` would say nothing.
            Segment::Unknown => {}
        }
    }
    out
}

fn json_error(path: String, e: &serde_json::Error) -> ScenarioError {
    use serde_json::error::Category;
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let bare = full.strip_suffix(&suffix).unwrap_or(&full);
    let message = match e.classify() {
        Category::Syntax | Category::Eof => {
            format!(
                "invalid JSON: {bare} at line {} column {}",
                e.line(),
                e.column()
            )
        }
        Category::Data | Category::Io if e.line() > 0 => {
            format!("{bare} (line {}, column {})", e.line(), e.column())
        }
        Category::Data | Category::Io => bare.to_string(),
    };
    ScenarioError { path, message }
}

/// A raw integer as u32; values no u32 holds (negative, absurd) fail here with `expected`, the
/// same limit text `validate` would give.
pub(super) fn to_u32(
    path: &str,
    v: Int,
    expected: impl FnOnce() -> String,
) -> Result<u32, ScenarioError> {
    u32::try_from(v.0).map_err(|_| ScenarioError::new(path, out_of_range(v.0, &expected())))
}

pub(super) fn resolve(raw: RawScenario) -> Result<Scenario, ScenarioError> {
    let schema_version = to_u32("schemaVersion", raw.schema_version, || "expected 1".into())?;
    let cpus = to_u32("cpus", raw.cpus, cpus_expected)?;
    let nodes = match raw.nodes {
        Some(n) => to_u32("nodes", n, || nodes_expected(cpus))?,
        None => 1,
    };
    let era = raw.variant.as_ref().and_then(|Obj(v)| v.era);
    // `"allocator": "slab"` runs SLAB; otherwise the era decides (7.0 runs the sheaves).
    let allocator = match (raw.allocator, era) {
        (Some(RawAllocator::Slab), _) => Allocator::Slab,
        (_, Some(era)) => era.allocator(),
        _ => Allocator::Slub,
    };
    let cache = resolve_cache(allocator, raw.cache)?;
    if let Some(Obj(v)) = &raw.variant {
        check_allocator_keys(allocator, v)?;
    }
    let variant = match raw.variant {
        Some(Obj(v)) => resolve_variant(v)?,
        None => Variant::default(),
    };
    let mut setup = Vec::new();
    for (i, Obj(s)) in raw.setup.unwrap_or_default().into_iter().enumerate() {
        let path = format!("setup[{i}]");
        let cpu = to_u32(&format!("{path}.cpu"), s.cpu, || cpu_expected(cpus))?;
        let op = resolve_op(&path, s.op, s.var, s.node, s.target, cpus, nodes)?;
        setup.push(SetupOp { cpu, op });
    }
    let tasks = resolve_contexts("tasks", raw.tasks, cpus, nodes)?;
    let irqs = resolve_contexts("irqs", raw.irqs.unwrap_or_default(), cpus, nodes)?;
    let name = match raw.name {
        Some(n) if !n.is_empty() => n,
        _ => "untitled".to_string(),
    };
    Ok(Scenario {
        schema_version,
        name,
        allocator,
        cpus,
        nodes,
        cache,
        variant,
        setup,
        tasks,
        irqs,
        schedule: raw.schedule.map(|RawSchedule(m)| m),
    })
}

fn resolve_contexts(
    list: &str,
    raw: Vec<Obj<RawContext>>,
    cpus: u32,
    nodes: u32,
) -> Result<Vec<ContextSpec>, ScenarioError> {
    let mut out = Vec::with_capacity(raw.len());
    for (i, Obj(c)) in raw.into_iter().enumerate() {
        let path = format!("{list}[{i}]");
        let cpu = to_u32(&format!("{path}.cpu"), c.cpu, || cpu_expected(cpus))?;
        let mut ops = Vec::with_capacity(c.ops.len());
        for (j, Obj(o)) in c.ops.into_iter().enumerate() {
            let op_path = format!("{path}.ops[{j}]");
            ops.push(resolve_op(
                &op_path, o.op, o.var, o.node, o.target, cpus, nodes,
            )?);
        }
        out.push(ContextSpec { id: c.id, cpu, ops });
    }
    Ok(out)
}

fn resolve_op(
    path: &str,
    op: String,
    var: Option<String>,
    node: Option<Int>,
    target: Option<Int>,
    cpus: u32,
    nodes: u32,
) -> Result<Op, ScenarioError> {
    // Which keys the op takes besides `op` (and `cpu` in setup).
    let allowed: &[&str] = match op.as_str() {
        "alloc" => &["var", "node"],
        "free" | "touch" => &["var"],
        "flush" => &["target"],
        "tune" => &[],
        _ => {
            return Err(ScenarioError::new(
                format!("{path}.op"),
                format!(
                    "unknown op `{op}`: expected one of {}",
                    quoted_list(&OP_NAMES)
                ),
            ))
        }
    };
    let present = [
        ("var", var.is_some()),
        ("node", node.is_some()),
        ("target", target.is_some()),
    ];
    for (key, is_present) in present {
        if is_present && !allowed.contains(&key) {
            return Err(ScenarioError::new(
                format!("{path}.{key}"),
                if allowed.is_empty() {
                    format!("op `{op}` takes no `{key}` (it takes no keys besides `op`)")
                } else {
                    format!(
                        "op `{op}` takes no `{key}` (its keys: {})",
                        quoted_list(allowed)
                    )
                },
            ));
        }
    }
    let need_var = |var: Option<String>| {
        var.ok_or_else(|| {
            ScenarioError::new(
                path,
                format!("missing field `var` (op `{op}` needs a variable)"),
            )
        })
    };
    Ok(match op.as_str() {
        "alloc" => {
            let node = match node {
                Some(n) => Some(to_u32(&format!("{path}.node"), n, || node_expected(nodes))?),
                None => None,
            };
            Op::Alloc {
                var: need_var(var)?,
                node,
            }
        }
        "free" => Op::Free {
            var: need_var(var)?,
        },
        "touch" => Op::Touch {
            var: need_var(var)?,
        },
        "tune" => Op::Tune,
        _ => {
            let target = match target {
                Some(t) => Some(to_u32(&format!("{path}.target"), t, || cpu_expected(cpus))?),
                None => None,
            };
            Op::Flush { target }
        }
    })
}
