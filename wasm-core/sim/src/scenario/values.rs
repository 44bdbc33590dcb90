//! The values a variant key takes, and how a key's value is read from the file.
//!
//! A key's value type is a kebab-case enum (declared in the key's row of `keys.rs`, by
//! [`kebab_enum!`]), `bool`, [`Prefetch`] or [`TidStep`]. [`KeyValue`] says, once per type,
//! what the file writes for it, how that becomes the value, and which values the page offers.

use super::raw::{Int, RawPrefetch};
use super::{Allocator, ScenarioError};
use serde::Serialize;
use serde_json::Value;

/// What a value type of a variant key is, to the parser and to the page.
pub(super) trait KeyValue: Sized {
    /// What the file writes (serde's first pass).
    type Raw;
    /// The value, or the refusal at `path` (`variant.tidStep`).
    fn resolve(raw: Self::Raw, path: &str) -> Result<Self, ScenarioError>;
    /// Every value the page's variant panel offers, as the JSON spells it; `None` for a key
    /// set in the scenario text only.
    fn toggles() -> Option<Vec<Value>>;
}

/// A closed set of values spelled in kebab case, with `ALL` (in the order written) and
/// `as_str`; as a key's value type it is read as itself and offers every value.
macro_rules! kebab_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, ts_rs::TS,
        )]
        pub enum $name { $(#[serde(rename = $text)] $variant),+ }
        impl $name {
            /// Every value, in the order written here.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];
            pub fn as_str(self) -> &'static str { match self { $(Self::$variant => $text),+ } }
        }
        impl $crate::scenario::values::KeyValue for $name {
            type Raw = Self;
            fn resolve(raw: Self, _: &str) -> Result<Self, $crate::scenario::ScenarioError> {
                Ok(raw)
            }
            fn toggles() -> Option<Vec<serde_json::Value>> {
                Some(Self::ALL.iter().map(|v| serde_json::Value::from(v.as_str())).collect())
            }
        }
    };
}
pub(super) use kebab_enum;

kebab_enum!(Era {
    V3_1 = "v3.1",
    V3_10 = "v3.10",
    V4_0 = "v4.0",
    V6_8 = "v6.8",
    V7_0 = "v7.0"
});

impl Era {
    /// The allocator a file of this era runs (unless it says `"allocator": "slab"`): every
    /// era is SLUB's, and 7.0's SLUB is the sheaves design (model.md Appendix C).
    pub fn allocator(self) -> Allocator {
        match self {
            Era::V7_0 => Allocator::Sheaves,
            Era::V3_1 | Era::V3_10 | Era::V4_0 | Era::V6_8 => Allocator::Slub,
        }
    }
}

/// `prefetch`: `true` (prefetch, 3.4+), `false` (none), `"w"` (prefetchw, 5.16+).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
#[ts(type = "boolean | \"w\"")]
pub enum Prefetch {
    On,
    Off,
    Write,
}

impl Prefetch {
    /// Every value, in the order the page offers them.
    pub const ALL: &'static [Self] = &[Prefetch::On, Prefetch::Off, Prefetch::Write];

    /// The JSON spelling: `true`, `false` or `"w"`.
    pub fn as_json(self) -> Value {
        match self {
            Prefetch::On => Value::Bool(true),
            Prefetch::Off => Value::Bool(false),
            Prefetch::Write => Value::String("w".to_string()),
        }
    }
}

/// Written as the scenario writes it: `true`, `false` or `"w"`.
impl Serialize for Prefetch {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Prefetch::On => s.serialize_bool(true),
            Prefetch::Off => s.serialize_bool(false),
            Prefetch::Write => s.serialize_str("w"),
        }
    }
}

impl KeyValue for Prefetch {
    type Raw = RawPrefetch;
    fn resolve(raw: RawPrefetch, _: &str) -> Result<Self, ScenarioError> {
        Ok(raw.0)
    }
    fn toggles() -> Option<Vec<Value>> {
        Some(Prefetch::ALL.iter().map(|p| p.as_json()).collect())
    }
}

impl KeyValue for bool {
    type Raw = bool;
    fn resolve(raw: bool, _: &str) -> Result<Self, ScenarioError> {
        Ok(raw)
    }
    fn toggles() -> Option<Vec<Value>> {
        Some(vec![Value::from(true), Value::from(false)])
    }
}

/// `tidStep`: `None` derives TID_STEP (model.md §3.1), `Some(n)` forces it (negative control
/// SC4). A number, so the page does not offer it; `validate` checks it is a power of two.
pub type TidStep = Option<u64>;

impl KeyValue for TidStep {
    type Raw = Int;
    fn resolve(raw: Int, path: &str) -> Result<Self, ScenarioError> {
        u64::try_from(raw.0)
            .map(Some)
            .map_err(|_| ScenarioError::new(path, super::limits::tid_step_message(raw.0)))
    }
    fn toggles() -> Option<Vec<Value>> {
        None
    }
}
