//! What the machine offers: physical cores the process may use, and pinning a
//! thread to a core (Linux; elsewhere pinning is skipped).

/// Logical CPUs this process may run on, one per physical core (SMT siblings are
/// skipped), in increasing order.
pub fn usable_physical_cores() -> Vec<usize> {
    let allowed = allowed_cpus();
    let mut seen_cores = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for cpu in allowed {
        let core_key =
            std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"))
                .map(|s| s.trim().to_string())
                .unwrap_or_else(|_| cpu.to_string());
        if seen_cores.insert(core_key) {
            out.push(cpu);
        }
    }
    if out.is_empty() {
        let n = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        out = (0..n).collect();
    }
    out
}

#[cfg(target_os = "linux")]
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: cpu_set_t is plain data; sched_getaffinity writes at most its size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &set)).collect()
    }
}

#[cfg(not(target_os = "linux"))]
fn allowed_cpus() -> Vec<usize> {
    Vec::new()
}

/// The logical CPU the calling thread runs on now, if the OS says.
#[cfg(target_os = "linux")]
pub fn current_cpu() -> Option<usize> {
    // SAFETY: sched_getcpu has no preconditions.
    let cpu = unsafe { libc::sched_getcpu() };
    usize::try_from(cpu).ok()
}

#[cfg(not(target_os = "linux"))]
pub fn current_cpu() -> Option<usize> {
    None
}

/// Pins the calling thread to `cpu`; returns whether it worked.
#[cfg(target_os = "linux")]
pub fn pin_current_thread(cpu: usize) -> bool {
    // SAFETY: as above; pid 0 is the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

#[cfg(not(target_os = "linux"))]
pub fn pin_current_thread(_cpu: usize) -> bool {
    false
}
