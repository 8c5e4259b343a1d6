//! Per-kernel timing for `tcc bench`.
//!
//! A model compiled with profiling calls `tcc_profile_mark(id)` when kernel `id` starts
//! (and once more, past the last kernel, when the run ends). The time between two marks
//! belongs to the kernel of the first, so the kernel times of a run add up to the run.
//! Each kernel's total and its fastest run are kept (on a machine whose speed changes
//! from one run to the next, the fastest says what the kernel can do). State is per
//! thread: the marks come from the thread running the model.

use std::cell::RefCell;
use std::time::{Duration, Instant};

#[derive(Default)]
struct State {
    last: Option<(u32, Instant)>,
    times: Vec<KernelTime>,
}

/// One kernel's time over the runs since the last [`take`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelTime {
    pub total: Duration,
    /// The least time of one run of the kernel (zero: it did not run).
    pub fastest: Duration,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Called by profiled models at each kernel boundary.
#[unsafe(no_mangle)]
pub extern "C" fn tcc_profile_mark(id: u32) {
    let now = Instant::now();
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if let Some((prev, t0)) = s.last {
            let (i, spent) = (prev as usize, now - t0);
            if s.times.len() <= i {
                s.times.resize(i + 1, KernelTime::default());
            }
            let t = &mut s.times[i];
            t.fastest = if t.total.is_zero() { spent } else { t.fastest.min(spent) };
            t.total += spent;
        }
        s.last = Some((id, now));
    });
}

/// The time spent in each kernel on this thread since the last call, by kernel id;
/// resets the counters.
pub fn take() -> Vec<KernelTime> {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.last = None;
        std::mem::take(&mut s.times)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_each_kernels_total_and_fastest_run() {
        take();
        // Two runs of kernels 0 and 1: kernel 0 slow in the first, fast in the second.
        tcc_profile_mark(0);
        std::thread::sleep(Duration::from_millis(20));
        tcc_profile_mark(1);
        tcc_profile_mark(2);
        tcc_profile_mark(0);
        tcc_profile_mark(1);
        tcc_profile_mark(2);
        let times = take();
        assert!(times[0].total >= Duration::from_millis(20), "{times:?}");
        assert!(times[0].fastest < Duration::from_millis(20) && times[0].fastest <= times[0].total, "{times:?}");
        assert!(times[1].fastest <= times[1].total / 2 + Duration::from_nanos(1), "{times:?}");
        assert!(take().is_empty());
    }
}
