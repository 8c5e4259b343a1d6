//! What this machine is, as the compiler needs it (Linux; elsewhere the defaults): the
//! data caches per level, the physical cores this process may use, the CPU's model
//! name and whether it has FMA. Every probe of the host the compiler makes is here.
//! (The runtime, which must run without the compiler, finds the cores it pins its
//! workers to on its own.)

use std::collections::BTreeSet;

/// The data caches a core sees, in bytes; `None` where the machine does not say.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Caches {
    pub l1: Option<u32>,
    pub l2: Option<u32>,
    /// Shared by several cores, usually.
    pub l3: Option<u64>,
}

/// This machine's caches (Linux sysfs, as seen from CPU 0).
pub fn caches() -> Caches {
    let mut c = Caches { l1: None, l2: None, l3: None };
    for index in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{index}");
        let read = |f: &str| std::fs::read_to_string(format!("{dir}/{f}")).map(|s| s.trim().to_string());
        let (Ok(level), Ok(kind), Ok(size)) = (read("level"), read("type"), read("size")) else { continue };
        let Some(bytes) = parse_size(&size) else { continue };
        match (level.as_str(), kind.as_str()) {
            ("1", "Data") => c.l1 = u32::try_from(bytes).ok(),
            ("2", "Unified" | "Data") => c.l2 = u32::try_from(bytes).ok(),
            ("3", _) => c.l3 = Some(bytes),
            _ => {}
        }
    }
    c
}

/// `32K`, `1024K`, `2M` or a byte count.
pub(crate) fn parse_size(s: &str) -> Option<u64> {
    let (num, mult) = match s.as_bytes().last()? {
        b'K' => (&s[..s.len() - 1], 1 << 10),
        b'M' => (&s[..s.len() - 1], 1 << 20),
        _ => (s, 1),
    };
    num.parse::<u64>().ok()?.checked_mul(mult)
}

/// Physical cores this process may run on (SMT siblings counted once), at least 1.
pub fn cores() -> u32 {
    let allowed = allowed_cpus();
    let cores: BTreeSet<String> = allowed
        .iter()
        .map(|cpu| {
            std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"))
                .map(|s| s.trim().to_string())
                .unwrap_or_else(|_| cpu.to_string())
        })
        .collect();
    match cores.len() {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
        n => n as u32,
    }
}

/// The CPUs in this process's affinity mask (`Cpus_allowed_list` of /proc/self/status).
fn allowed_cpus() -> Vec<usize> {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else { return Vec::new() };
    let Some(list) = status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")) else { return Vec::new() };
    parse_cpu_list(list.trim())
}

/// `0-3,8,10-11` as the CPUs it names.
fn parse_cpu_list(list: &str) -> Vec<usize> {
    let mut cpus = Vec::new();
    for part in list.split(',').filter(|p| !p.is_empty()) {
        let (lo, hi) = part.split_once('-').unwrap_or((part, part));
        if let (Ok(lo), Ok(hi)) = (lo.trim().parse::<usize>(), hi.trim().parse::<usize>()) {
            cpus.extend(lo..=hi.min(lo + 4096));
        }
    }
    cpus
}

/// The CPU's model name with its family and model numbers (virtual machines often
/// report only "AMD EPYC", which covers CPUs of different peaks), or "unknown".
pub fn cpu_model() -> String {
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else { return "unknown".into() };
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| v.trim().to_string())
    };
    match (field("model name"), field("cpu family"), field("model")) {
        (Some(name), Some(family), Some(model)) => format!("{name} (family {family}, model {model})"),
        (Some(name), _, _) => name,
        _ => "unknown".into(),
    }
}

/// Whether this machine executes fused multiply-add.
pub fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("fma");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// Whether this CPU has AMX tiles with bf16 dot products (AMX-TILE and AMX-BF16), and
/// `TCC_AMX` is not `0` (the runtime's microkernels then run bf16 dot tiles on them,
/// if Linux grants the process tile state).
pub fn has_amx_bf16() -> bool {
    if std::env::var("TCC_AMX").is_ok_and(|v| v == "0") {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: CPUID leaf 7 is defined on every x86-64 CPU (zeros where absent).
        #[allow(unused_unsafe)]
        let features = unsafe { std::arch::x86_64::__cpuid_count(7, 0) };
        (features.edx >> 22) & 1 == 1 && (features.edx >> 24) & 1 == 1
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_cpu_lists() {
        assert_eq!(parse_size("32K"), Some(32768));
        assert_eq!(parse_size("2M"), Some(2 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("K"), None);
        assert_eq!(parse_cpu_list("0-3,8,10-11"), vec![0, 1, 2, 3, 8, 10, 11]);
        assert_eq!(parse_cpu_list(""), Vec::<usize>::new());
        assert_eq!(parse_cpu_list("x"), Vec::<usize>::new());
    }

    #[test]
    fn the_host_answers() {
        let c = caches();
        assert!(c.l1.is_none_or(|l1| l1 >= 1024));
        assert!(cores() >= 1);
        assert!(!cpu_model().is_empty());
    }
}
