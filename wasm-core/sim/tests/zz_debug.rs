mod common;
use common::*;

#[test]
fn narrate() {
    let f = std::env::var("SC").unwrap();
    let mut c = Case::load(&f);
    for kv in std::env::var("PATCH")
        .unwrap_or_default()
        .split(';')
        .filter(|s| !s.is_empty())
    {
        let (k, v) = kv.split_once('=').unwrap();
        c = c.with_variant(
            k,
            serde_json::from_str(v).unwrap_or(serde_json::Value::String(v.into())),
        );
    }
    let mv: Vec<String> = std::env::var("MV")
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let from: u64 = std::env::var("FROM")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    for l in c.narrate(&mv).lines() {
        let step: u64 = l
            .split_whitespace()
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or(u64::MAX);
        if step >= from {
            println!("{l}");
        }
    }
}

#[test]
fn sweep17() {
    let c = Case::load("sc17_torn_remote_read_3_1.json");
    let mut plans = Vec::new();
    for a in 0..6 {
        for b in 0..14 {
            for cc in 0..10 {
                plans.push(vec![
                    Seg::Steps("F", a),
                    Seg::Steps("U", b),
                    Seg::Move("migrate:F:1"),
                    Seg::Steps("F", cc),
                    Seg::ToEnd("U"),
                    Seg::Steps("V", 1),
                    Seg::Move("migrate:F:0"),
                    Seg::ToEnd("F"),
                ]);
            }
        }
    }
    let s = Sweep::new(&c, plans);
    for v in s.violating(10) {
        println!("{v}");
    }
    let c = Case::load("sc13_bypass_oom_leaves_freelist_without_slab.json");
    let s = Sweep::new(&c, prefix_plans("F", 40, &[Seg::ToEnd("G")]));
    for v in s.violating(10) {
        println!("{v}");
    }
}

/// Random walks over enabled moves for every scenario and correct era; report violations.
#[test]
fn random_walks() {
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let only = std::env::var("SC").ok();
    let mut seed: u64 = 0x9e3779b97f4a7c15;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let eras: Vec<String> = std::env::var("ERAS")
        .unwrap_or("v3.10,v4.0,v6.8".into())
        .split(',')
        .map(String::from)
        .collect();
    let extra: Vec<(String, String)> = std::env::var("VARS")
        .unwrap_or_default()
        .split(';')
        .filter(|s| !s.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect();
    let locks: Vec<bool> = if std::env::var("NOLOCK").is_ok() {
        vec![false]
    } else {
        vec![false, true]
    };
    let mut seen = std::collections::BTreeMap::new();
    for file in scenario_files() {
        if only.as_deref().is_some_and(|o| !file.contains(o)) {
            continue;
        }
        for era in &eras {
            for &lock in &locks {
                let mut case = Case::load(&file).with_variant("era", serde_json::json!(era));
                for (k, v) in &extra {
                    case = case.with_variant(
                        k,
                        serde_json::from_str(v).unwrap_or(serde_json::Value::String(v.clone())),
                    );
                }
                // keep the negative controls' correct counterparts
                if file.starts_with("sc04") {
                    case = case.without_variant("tidStep");
                }
                if file.starts_with("sc13") {
                    case = case.with_cache("pageAllocFail", serde_json::json!(false));
                }
                if file.starts_with("sc17") {
                    case = case.without_variant("fastpath");
                }
                if lock {
                    case = case.with_variant("cmpxchgDouble", serde_json::json!("slab-lock"));
                }
                for _ in 0..n {
                    let mut r = case.run();
                    for _ in 0..3000 {
                        let en = r.sim.enabled_moves();
                        if en.is_empty() {
                            break;
                        }
                        // prefer steps; migrations rarely
                        let steps: Vec<&String> =
                            en.iter().filter(|m| !m.starts_with("migrate")).collect();
                        let pick = if !steps.is_empty() && rnd() % 10 != 0 {
                            steps[(rnd() as usize) % steps.len()].clone()
                        } else {
                            en[(rnd() as usize) % en.len()].clone()
                        };
                        r.sim.apply(&pick).unwrap();
                        if !r.outcome().violations.is_empty() {
                            break;
                        }
                    }
                    r.finish();
                    let o = r.outcome();
                    if !o.violations.is_empty() || o.deadlock {
                        let key = format!(
                            "{} | {}",
                            case.name(),
                            o.violations
                                .iter()
                                .map(|v| v.invariant.clone())
                                .collect::<Vec<_>>()
                                .join(",")
                        );
                        let e = seen.entry(key).or_insert((0, String::new(), String::new()));
                        e.0 += 1;
                        if e.1.is_empty() || r.moves().len() < e.1.matches(',').count() {
                            e.1 = r.replay();
                            e.2 = format!("{:?}", r.violations());
                        }
                    }
                }
            }
        }
    }
    for (k, (n, rep, v)) in &seen {
        println!("{n:5} {k}\n      {v}\n      {rep}");
    }
}

#[test]
fn deltas() {
    for f in scenario_files() {
        let c = Case::load(&f);
        let mut r = c.run();
        let b = r.stats();
        r.finish();
        println!("{f}: {:?}", stat_delta(&b, &r.stats()));
    }
}
