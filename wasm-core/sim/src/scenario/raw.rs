//! The file as written: the raw structs of the first (serde) pass. Each is
//! `deny_unknown_fields` and read through `serde_path_to_error`, so a syntax, type or
//! unknown-field error names its JSON path; ranges and meaning are the second pass's
//! (`parse::resolve`, then `validate`). The variant's raw struct is generated with the keys
//! (`keys.rs`).

use super::keys::RawVariant;
use super::limits::MAX_SCHEDULE_MOVES;
use super::Prefetch;
use serde::Deserialize;

/// `allocator` as a file writes it: the 7.0 design is an era of SLUB, not an allocator name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum RawAllocator {
    Slub,
    Slab,
}

/// A JSON integer of any size or sign (and an integral float such as `2.0`, as JavaScript
/// writes numbers), so a negative or absurd value reaches the range checks and gets a message
/// that says the limit instead of "expected u32".
#[derive(Clone, Copy, Debug)]
pub(super) struct Int(pub(super) i64);

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Int;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Int, E> {
                Ok(Int(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Int, E> {
                Ok(Int(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Int, E> {
                if v.is_finite() && v.fract() == 0.0 {
                    // `as` saturates: 1e30 becomes i64::MAX, still out of every range.
                    Ok(Int(v as i64))
                } else {
                    Err(E::invalid_type(serde::de::Unexpected::Float(v), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// `prefetch`: exactly `true`, `false` or `"w"`.
pub(super) struct RawPrefetch(pub(super) Prefetch);

impl<'de> Deserialize<'de> for RawPrefetch {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = RawPrefetch;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("true, false or \"w\"")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<RawPrefetch, E> {
                Ok(RawPrefetch(if v { Prefetch::On } else { Prefetch::Off }))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawPrefetch, E> {
                if v == "w" {
                    Ok(RawPrefetch(Prefetch::Write))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A JSON object and nothing else. serde's derived structs also accept an array of the field
/// values in order, a second syntax the format does not have; this wrapper takes only `{...}`
/// (and keeps the path tracking, which lives in the map access it passes on).
pub(super) struct Obj<T>(pub(super) T);

pub(super) trait RawObject {
    /// What the error says was expected, e.g. "a cache object".
    const WHAT: &'static str;
}

impl<'de, T: RawObject + Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: RawObject + Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
            type Value = Obj<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(T::WHAT)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Obj<T>, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Obj)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

macro_rules! raw_object {
    ($($t:ty => $what:literal),+ $(,)?) => {
        $(impl RawObject for $t { const WHAT: &'static str = $what; })+
    };
}

raw_object!(
    RawScenario => "a scenario object",
    RawCache => "a cache object",
    RawVariant => "a variant object",
    RawContext => "a context object (`id`, `cpu`, `ops`)",
    RawOp => "an op object (`op` and its keys)",
    RawSetupOp => "a setup op object (`cpu`, `op` and its keys)",
);

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RawScenario {
    pub(super) schema_version: Int,
    pub(super) name: Option<String>,
    pub(super) allocator: Option<RawAllocator>,
    pub(super) cpus: Int,
    pub(super) nodes: Option<Int>,
    pub(super) cache: Option<Obj<RawCache>>,
    pub(super) variant: Option<Obj<RawVariant>>,
    pub(super) setup: Option<Vec<Obj<RawSetupOp>>>,
    pub(super) tasks: Vec<Obj<RawContext>>,
    pub(super) irqs: Option<Vec<Obj<RawContext>>>,
    pub(super) schedule: Option<RawSchedule>,
}

/// A scenario's `schedule`, refused as soon as it is longer than [`MAX_SCHEDULE_MOVES`]: the
/// moves are counted while they are read, so a file of millions of moves costs no more memory
/// than its own text before the error.
pub(super) struct RawSchedule(pub(super) Vec<String>);

impl<'de> Deserialize<'de> for RawSchedule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Moves;
        impl<'de> serde::de::Visitor<'de> for Moves {
            type Value = RawSchedule;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of moves")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RawSchedule, A::Error> {
                let mut out = Vec::new();
                while let Some(mv) = seq.next_element::<String>()? {
                    if out.len() == MAX_SCHEDULE_MOVES {
                        return Err(serde::de::Error::custom(format!(
                            "more than {MAX_SCHEDULE_MOVES} moves: a schedule has at most \
                             {MAX_SCHEDULE_MOVES} (MAX_SCHEDULE_MOVES)"
                        )));
                    }
                    out.push(mv);
                }
                Ok(RawSchedule(out))
            }
        }
        d.deserialize_seq(Moves)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RawCache {
    pub(super) name: Option<String>,
    pub(super) object_size: Option<Int>,
    pub(super) objects_per_slab: Option<Int>,
    pub(super) offset: Option<Int>,
    pub(super) min_partial: Option<Int>,
    pub(super) cpu_partial: Option<Int>,
    pub(super) page_alloc_fail: Option<bool>,
    pub(super) limit: Option<Int>,
    pub(super) batchcount: Option<Int>,
    pub(super) shared: Option<Int>,
    pub(super) sheaf_capacity: Option<Int>,
    pub(super) max_full_sheaves: Option<Int>,
    pub(super) max_empty_sheaves: Option<Int>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawContext {
    pub(super) id: String,
    pub(super) cpu: Int,
    pub(super) ops: Vec<Obj<RawOp>>,
}

/// An op of a task or an irq. Every key any op may take is a field here; which ones the named
/// op accepts is checked when resolving, so an error names the key and the op.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOp {
    pub(super) op: String,
    pub(super) var: Option<String>,
    pub(super) node: Option<Int>,
    pub(super) target: Option<Int>,
}

/// A setup op: an op plus the CPU it runs on, flat in one object.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSetupOp {
    pub(super) cpu: Int,
    pub(super) op: String,
    pub(super) var: Option<String>,
    pub(super) node: Option<Int>,
    pub(super) target: Option<Int>,
}
