//! Variants from `key=value` text (`slub-lab bench --variant`), judged by the scenario
//! validator as a scenario's `allocator` and `variant` would be.

use slub_sim::scenario::{Allocator, Variant, MAX_CPUS};

/// A variant from `key=value` pairs, with exactly the keys and values of a scenario's
/// `variant` object (model.md §2.16, `era`, `tidStep`), checked for a machine of `cpus` CPUs;
/// later pairs override earlier ones. The error names the pair and lists what is valid.
pub fn parse_variant(pairs: &[(String, String)], cpus: u32) -> Result<Variant, String> {
    parse_flavour(pairs, cpus).map(|(_, v)| v)
}

/// The allocator and variant from `key=value` pairs: `allocator=slub|slab` is the scenario's
/// `allocator` field, every other pair a `variant` key. The scenario validator judges the whole
/// (a SLUB-only key under `allocator=slab` is an error there, named by its pair here).
pub fn parse_flavour(
    pairs: &[(String, String)],
    cpus: u32,
) -> Result<(Allocator, Variant), String> {
    let mut map = serde_json::Map::new();
    let mut allocator = serde_json::Value::String("slub".into());
    for (k, v) in pairs {
        if k == "allocator" {
            allocator = serde_json::Value::String(v.clone());
            continue;
        }
        let value = match v.as_str() {
            "true" => serde_json::Value::Bool(true),
            "false" => serde_json::Value::Bool(false),
            s => match s.parse::<i64>() {
                Ok(n) => serde_json::Value::from(n),
                Err(_) => serde_json::Value::String(s.to_string()),
            },
        };
        map.insert(k.clone(), value);
    }
    let json = serde_json::json!({
        "schemaVersion": 1,
        "allocator": allocator,
        "cpus": cpus.clamp(1, MAX_CPUS),
        "variant": map,
        "tasks": [ { "id": "T", "cpu": 0, "ops": [] } ],
    });
    slub_sim::scenario::parse(&json.to_string())
        .map(|sc| (sc.allocator, sc.variant))
        .map_err(|e| {
            let key = e.path.strip_prefix("variant.").unwrap_or(&e.path);
            let pair = pairs
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(k, v)| format!("{k}={v}"))
                .unwrap_or_else(|| key.to_string());
            // serde_json's position ("line 1, column 91") is of the JSON made here: drop it.
            let msg = match e.message.find(" (line ") {
                Some(i) => &e.message[..i],
                None => &e.message,
            };
            format!("--variant {pair}: {msg}")
        })
}
