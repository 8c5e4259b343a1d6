//! Per-kernel timing for `tcc bench`.
//!
//! A model compiled with profiling calls `tcc_profile_mark(id)` when kernel `id` starts
//! (and once more, past the last kernel, when the run ends). The time between two marks
//! belongs to the kernel of the first, so the kernel times of a run add up to the run.
//! State is per thread: the marks come from the thread running the model.

use std::cell::RefCell;
use std::time::{Duration, Instant};

#[derive(Default)]
struct State {
    last: Option<(u32, Instant)>,
    totals: Vec<Duration>,
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
            let i = prev as usize;
            if s.totals.len() <= i {
                s.totals.resize(i + 1, Duration::ZERO);
            }
            s.totals[i] += now - t0;
        }
        s.last = Some((id, now));
    });
}

/// The time spent in each kernel on this thread since the last call, by kernel id;
/// resets the counters.
pub fn take() -> Vec<Duration> {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.last = None;
        std::mem::take(&mut s.totals)
    })
}
