//! What the machine offers: physical cores the process may use, and pinning a
//! thread to a core (Linux; elsewhere pinning is skipped).

/// Logical CPUs this process may run on, one per physical core (SMT siblings are
/// skipped), in increasing order.
pub fn usable_physical_cores() -> Vec<usize> {
    usable_cores_by_cpu().0
}

/// The usable physical cores (as [`usable_physical_cores`]), and for every logical CPU
/// this process may run on, the position of its core in that list.
pub fn usable_cores_by_cpu() -> (Vec<usize>, Vec<(usize, usize)>) {
    let allowed = allowed_cpus();
    let mut core_keys: Vec<String> = Vec::new();
    let (mut cores, mut by_cpu) = (Vec::new(), Vec::new());
    for cpu in allowed {
        let core_key =
            std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"))
                .map(|s| s.trim().to_string())
                .unwrap_or_else(|_| cpu.to_string());
        let index = match core_keys.iter().position(|k| *k == core_key) {
            Some(i) => i,
            None => {
                core_keys.push(core_key);
                cores.push(cpu);
                cores.len() - 1
            }
        };
        by_cpu.push((cpu, index));
    }
    if cores.is_empty() {
        let n = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        cores = (0..n).collect();
        by_cpu = (0..n).map(|c| (c, c)).collect();
    }
    (cores, by_cpu)
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
