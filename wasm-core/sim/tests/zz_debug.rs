mod common;
use common::*;

#[test]
fn narrate() {
    let f = std::env::var("SC").unwrap();
    let mut c = Case::load(&f);
    for kv in std::env::var("PATCH").unwrap_or_default().split(';').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap();
        c = c.with_variant(k, serde_json::from_str(v).unwrap_or(serde_json::Value::String(v.into())));
    }
    let mv: Vec<String> = std::env::var("MV").unwrap_or_default().split(',').filter(|s| !s.is_empty()).map(String::from).collect();
    let from: u64 = std::env::var("FROM").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    for l in c.narrate(&mv).lines() {
        let step: u64 = l.split_whitespace().next().and_then(|s| s.parse().ok()).unwrap_or(u64::MAX);
        if step >= from { println!("{l}"); }
    }
}
