//! Whether two scenarios are one exercise's: the rule `slub-lab grade` scores by and the page's
//! goal banner shows, written once here so that the two cannot disagree.

use serde_json::Value;

/// Two scenarios (as JSON) are the same exercise's when they agree but for their `name` and
/// `schedule`: the variant, the cache, the CPUs and the tasks must be the opening's. Values are
/// compared as JSON data (an object's keys in any order; `4` and `4.0` are different numbers,
/// as the parser reads them).
pub fn same_exercise(a: &Value, b: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("name");
            o.remove("schedule");
        }
        v
    };
    strip(a) == strip(b)
}

#[cfg(test)]
mod tests {
    use super::same_exercise;
    use serde_json::json;

    #[test]
    fn name_schedule_and_key_order_do_not_count_the_variant_does() {
        let opening =
            json!({"schemaVersion": 1, "name": "x", "cpus": 2, "variant": {"fastpath": "no-tid"}});
        let renamed = json!({"variant": {"fastpath": "no-tid"}, "cpus": 2, "schemaVersion": 1, "name": "y", "schedule": ["I"]});
        assert!(same_exercise(&opening, &renamed));
        let other = json!({"schemaVersion": 1, "name": "x", "cpus": 2, "variant": {"fastpath": "tid-loop"}});
        assert!(!same_exercise(&opening, &other));
        let more = json!({"schemaVersion": 1, "name": "x", "cpus": 2.0, "variant": {"fastpath": "no-tid"}});
        assert!(
            !same_exercise(&opening, &more),
            "2 and 2.0 are different numbers"
        );
    }
}
