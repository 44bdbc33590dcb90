//! How the table of variant keys (`keys.rs`) becomes code: [`variant_keys!`], and what reads
//! its `KEYS`: the per-allocator refusals and the page's toggles.

use super::keys::RawVariant;
use super::limits::quoted_list;
use super::{Allocator, ScenarioError};
use serde_json::Value;

/// One variant key, as the parser and the page see it (one entry of `KEYS`, generated).
pub(super) struct Key {
    /// The JSON name (`freeRetryLock`).
    pub(super) name: &'static str,
    /// The allocators that read it; the first is its home (the words of its refusal).
    pub(super) read_by: &'static [Allocator],
    /// Every value the page offers, or `None` (set in the scenario text only).
    pub(super) toggles: fn() -> Option<Vec<Value>>,
    /// Whether the file names it.
    pub(super) is_set: fn(&RawVariant) -> bool,
}

/// The items of the table of variant keys (see `keys.rs` for the row syntax). Everything a key
/// needs besides the model code that reads it is generated here from its one row.
macro_rules! variant_keys {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident $json:literal : $ty:ident {
            $(values: { $(#[$enum_meta:meta])* $($value:ident = $text:literal),+ $(,)? },)?
            default: $default:expr,
            eras: { $($era:ident: $era_value:expr),* $(,)? },
            read_by: [$($reader:ident),+ $(,)?]
            $(, broken: { $($broken:expr => $says:literal),+ $(,)? })? $(,)?
        }
    )*) => {
        // A key's own value type, when its row declares one.
        $($(
            $crate::scenario::values::kebab_enum!(
                $(#[$enum_meta])* $ty { $($value = $text),+ }
            );
        )?)*

        /// The resolved variant: era bundle first, explicit keys over it, defaults = v3.10 (model.md §2.16).
        #[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, ts_rs::TS)]
        pub struct Variant {
            $(
                $(#[doc = $doc])*
                #[serde(rename = $json)]
                pub $field: $ty,
            )*
        }

        /// The defaults are exactly the v3.10 kernel (model.md §2.16).
        impl Default for Variant {
            fn default() -> Self {
                Variant { $($field: $default),* }
            }
        }

        impl Variant {
            /// The historically consistent bundle of an era (model.md §2.16); keys it does not
            /// name keep the v3.10 defaults.
            pub fn for_era(era: $crate::scenario::Era) -> Variant {
                let mut v = Variant::default();
                $($(
                    if era == $crate::scenario::Era::$era {
                        v.$field = $era_value;
                    }
                )*)*
                v
            }

            /// The keys of this variant that `allocator` reads, by JSON name, in the order of
            /// their names (as scenario files have always been written).
            pub fn keys_for(
                &self,
                allocator: $crate::scenario::Allocator,
            ) -> Result<std::collections::BTreeMap<&'static str, serde_json::Value>, serde_json::Error> {
                let mut out = std::collections::BTreeMap::new();
                $(
                    if [$($crate::scenario::Allocator::$reader),+].contains(&allocator) {
                        out.insert($json, serde_json::to_value(self.$field)?);
                    }
                )*
                Ok(out)
            }
        }

        /// The negative controls (values that break the allocator on purpose), in the order of
        /// the rows: each key's JSON name, the value as a file writes it, and what it lets
        /// through. The page's `NEGATIVE_CONTROLS` is generated from it
        /// (wasm-core/wasm/tests/contract.rs).
        pub fn negative_controls() -> Vec<(&'static str, serde_json::Value, &'static str)> {
            let mut out = Vec::new();
            $($($(
                let value: $ty = $broken;
                if let Ok(v) = serde_json::to_value(value) {
                    out.push(($json, v, $says));
                }
            )+)?)*
            out
        }

        /// `variant` as the file writes it: `era` and every key, each optional.
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(super) struct RawVariant {
            pub(super) era: Option<$crate::scenario::Era>,
            $(
                #[serde(rename = $json)]
                pub(super) $field: Option<<$ty as $crate::scenario::values::KeyValue>::Raw>,
            )*
        }

        /// The variant of a file: its era's bundle, then each key it names over it.
        pub(super) fn resolve_variant(
            raw: RawVariant,
        ) -> Result<Variant, $crate::scenario::ScenarioError> {
            let mut out = raw.era.map(Variant::for_era).unwrap_or_default();
            $(
                if let Some(x) = raw.$field {
                    out.$field = <$ty as $crate::scenario::values::KeyValue>::resolve(
                        x,
                        concat!("variant.", $json),
                    )?;
                }
            )*
            Ok(out)
        }

        /// Every key a file's `variant` may name: `era` (read by the allocators an era selects:
        /// SLUB, and 7.0's sheaves), then the rows.
        pub(super) const KEYS: &[$crate::scenario::variant::Key] = &[
            $crate::scenario::variant::Key {
                name: "era",
                read_by: &[$crate::scenario::Allocator::Slub, $crate::scenario::Allocator::Sheaves],
                toggles: <$crate::scenario::Era as $crate::scenario::values::KeyValue>::toggles,
                is_set: |v: &RawVariant| v.era.is_some(),
            },
            $(
                $crate::scenario::variant::Key {
                    name: $json,
                    read_by: &[$($crate::scenario::Allocator::$reader),+],
                    toggles: <$ty as $crate::scenario::values::KeyValue>::toggles,
                    is_set: |v: &RawVariant| v.$field.is_some(),
                },
            )*
        ];
    };
}
pub(super) use variant_keys;

/// A key named for an allocator that does not read it is an error, not a silently ignored key:
/// SLUB's keys mean nothing to SLAB, `slabGrow` nothing to SLUB, and Linux 7.0's sheaves read
/// only their own keys and `preempt` (the tid and CPU-slab keys are refused there). The keys
/// are checked by home (7.0's first, then SLUB's, then SLAB's), each home in table order.
pub(super) fn check_allocator_keys(
    allocator: Allocator,
    v: &RawVariant,
) -> Result<(), ScenarioError> {
    let keys = super::keys::KEYS;
    for home in [Allocator::Sheaves, Allocator::Slub, Allocator::Slab] {
        let refused = keys.iter().find(|k| {
            k.read_by.first() == Some(&home) && !k.read_by.contains(&allocator) && (k.is_set)(v)
        });
        if let Some(k) = refused {
            return Err(ScenarioError::new(
                format!("variant.{}", k.name),
                refusal(k.name, home, allocator),
            ));
        }
    }
    Ok(())
}

/// Why `key`, whose home is `home`, does not apply to `allocator`.
fn refusal(key: &str, home: Allocator, allocator: Allocator) -> String {
    match (home, allocator) {
        (Allocator::Sheaves, _) => {
            format!("`{key}` is a key of Linux 7.0's sheaves: it needs \"era\": \"v7.0\"")
        }
        (Allocator::Slab, _) => {
            format!("`{key}` is a SLAB variant key: it needs \"allocator\": \"slab\"")
        }
        (Allocator::Slub, Allocator::Sheaves) => format!(
            "`{key}` is a key of the classic SLUB (kmem_cache_cpu, the tid, CPU slabs), which Linux 7.0 removed; with \"era\": \"v7.0\" only {} apply",
            read_by(allocator)
        ),
        (Allocator::Slub, _) => format!(
            "`{key}` is a SLUB variant key; with \"allocator\": \"slab\" only {} apply",
            read_by(allocator)
        ),
    }
}

/// The keys `allocator` reads besides `era`, in table order: "`preempt` and `slabGrow`".
fn read_by(allocator: Allocator) -> String {
    let names: Vec<&str> = super::keys::KEYS
        .iter()
        .filter(|k| k.name != "era" && k.read_by.contains(&allocator))
        .map(|k| k.name)
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and `{last}`", quoted_list(rest)),
        _ => quoted_list(&names),
    }
}

/// The variant toggles the page offers for `allocator`, each key with every value as a scenario
/// spells it (model.md §2.16; model.md Appendix A for SLAB), `era` first where the allocator
/// reads one. The page's variant panel is generated from this (`web/src/sim/generated/variantKeys.ts`,
/// by the contract test), so it cannot drift from the parser. `tidStep`, a number, is set in
/// the scenario text only.
pub fn variant_toggles(allocator: Allocator) -> Vec<(&'static str, Vec<Value>)> {
    super::keys::KEYS
        .iter()
        .filter(|k| k.read_by.contains(&allocator))
        .filter_map(|k| Some((k.name, (k.toggles)()?)))
        .collect()
}
