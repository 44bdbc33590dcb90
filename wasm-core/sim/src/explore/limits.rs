//! What memory the process can really get, so that a search's budget is one
//! it can keep: `explore --max-memory-mb 3000` under a 2 GiB address-space limit used to abort
//! ("memory allocation failed", exit 134) instead of stopping at its budget.
//!
//! Natively three limits are read, and the tightest wins: the address-space limit
//! (`getrlimit(RLIMIT_AS)`, as the kernel prints it in `/proc/self/limits`) less the address
//! space already mapped (`VmSize`), the cgroup v2 limit (`memory.max` less `memory.current` of
//! the process's cgroup, `/proc/self/cgroup`), and the memory the kernel could hand out now
//! (`MemAvailable`, `/proc/meminfo`). In the browser the page says what it can get (the
//! worker passes it; see `slub-wasm`'s `explore`).
//!
//! The search may use a third of what is left ([`budget_for`]): its count of what it holds is
//! within 0.9–1.25× of the peak RSS (`scripts/bench-explore.mjs`), and while its visited table
//! grows, the old and the new table are both alive for a moment (twice the table on top of
//! the rest).

/// A limit on the memory the search can get, and where it comes from (said in the report).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryLimit {
    /// What is left under the limit (MB).
    pub left_mb: u64,
    /// The limit in words (`the address-space limit (RLIMIT_AS) of 2048 MB, 7 MB of it mapped`).
    pub source: String,
}

/// The budget a search may use when `left_mb` is what the process can still get.
pub fn budget_for(left_mb: u64) -> u64 {
    (left_mb / 3).max(1)
}

const MB: u64 = 1 << 20;

/// `Max address space` of `/proc/self/limits` (the soft limit, bytes); `None` when unlimited.
pub fn parse_limits_as(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

/// A `kB` field of `/proc/self/status` or `/proc/meminfo` (`VmSize:`, `MemAvailable:`), in bytes.
pub fn parse_kb_field(text: &str, field: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line[field.len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    kb.checked_mul(1024)
}

/// The cgroup v2 path of `/proc/self/cgroup` (`0::/user.slice/...`).
pub fn parse_cgroup_v2_path(cgroup: &str) -> Option<&str> {
    cgroup.lines().find_map(|l| l.strip_prefix("0::"))
}

/// The tightest of the limits, each given as (left in bytes, what it is in words).
pub fn tightest(limits: impl IntoIterator<Item = (u64, String)>) -> Option<MemoryLimit> {
    limits
        .into_iter()
        .min_by_key(|(left, _)| *left)
        .map(|(left, source)| MemoryLimit {
            left_mb: left / MB,
            source,
        })
}

/// What this process can get now (natively; `None` where nothing limits it or nothing can be
/// read).
#[cfg(not(target_arch = "wasm32"))]
pub fn process_limit() -> Option<MemoryLimit> {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let mut found: Vec<(u64, String)> = Vec::new();
    if let Some(limit) = read("/proc/self/limits")
        .as_deref()
        .and_then(parse_limits_as)
    {
        let mapped = read("/proc/self/status")
            .as_deref()
            .and_then(|s| parse_kb_field(s, "VmSize:"))
            .unwrap_or(0);
        found.push((
            limit.saturating_sub(mapped),
            format!(
                "the address-space limit (RLIMIT_AS) of {} MB, {} MB of it already mapped",
                limit / MB,
                mapped / MB
            ),
        ));
    }
    if let Some(path) = read("/proc/self/cgroup")
        .as_deref()
        .and_then(parse_cgroup_v2_path)
        .map(|p| format!("/sys/fs/cgroup{}", p.trim_end_matches('/')))
    {
        let num = |f: &str| read(&format!("{path}/{f}")).and_then(|t| t.trim().parse::<u64>().ok());
        if let Some(max) = num("memory.max") {
            let current = num("memory.current").unwrap_or(0);
            found.push((
                max.saturating_sub(current),
                format!(
                    "the cgroup's memory.max of {} MB, {} MB of it in use",
                    max / MB,
                    current / MB
                ),
            ));
        }
    }
    if let Some(avail) = read("/proc/meminfo")
        .as_deref()
        .and_then(|m| parse_kb_field(m, "MemAvailable:"))
    {
        found.push((
            avail,
            format!(
                "the machine's available memory (MemAvailable) of {} MB",
                avail / MB
            ),
        ));
    }
    tightest(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_the_kernel_prints() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max stack size            8388608              unlimited            bytes     \n\
                      Max address space         2147483648           2147483648           bytes     \n";
        assert_eq!(parse_limits_as(limits), Some(2147483648));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes     \n";
        assert_eq!(parse_limits_as(unlimited), None);
        assert_eq!(
            parse_kb_field("VmPeak:\t  10000 kB\nVmSize:\t    8192 kB\n", "VmSize:"),
            Some(8192 * 1024)
        );
        assert_eq!(
            parse_kb_field(
                "MemTotal: 100 kB\nMemAvailable:    2048 kB\n",
                "MemAvailable:"
            ),
            Some(2 * MB)
        );
        assert_eq!(
            parse_cgroup_v2_path("0::/user.slice/a.scope\n"),
            Some("/user.slice/a.scope")
        );
        assert_eq!(parse_cgroup_v2_path("12:memory:/x\n"), None);
    }

    #[test]
    fn the_tightest_limit_wins_and_the_budget_is_a_third() {
        let l = tightest([(3000 * MB, "a".to_string()), (2000 * MB, "b".to_string())]).unwrap();
        assert_eq!(
            l,
            MemoryLimit {
                left_mb: 2000,
                source: "b".into()
            }
        );
        assert_eq!(budget_for(2000), 666);
        assert_eq!(budget_for(0), 1);
        assert_eq!(tightest(Vec::new()), None);
    }
}
