//! Workspace planning: offsets for intermediate tensors from their lifetimes.
//!
//! Each tensor is live from the op that defines it to its last use (both inclusive,
//! so an op's operands and results never share memory). Tensors are placed largest
//! first at the lowest 64-byte aligned offset that does not overlap any already
//! placed tensor whose lifetime overlaps; the workspace is as large as the highest end.

/// One tensor to place: its size and the positions (op indices) of its first and
/// last use.
#[derive(Clone, Debug)]
pub struct Interval {
    pub bytes: usize,
    pub start: usize,
    pub end: usize,
}

pub const ALIGN: usize = 64;

/// Returns each interval's offset and the total workspace size.
pub fn assign_offsets(intervals: &[Interval]) -> (Vec<usize>, usize) {
    let mut order: Vec<usize> = (0..intervals.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(intervals[i].bytes), intervals[i].start, i));
    let mut offsets = vec![0; intervals.len()];
    let mut placed: Vec<usize> = Vec::new();
    let mut total = 0;
    for i in order {
        let me = &intervals[i];
        let size = me.bytes.div_ceil(ALIGN) * ALIGN;
        let mut busy: Vec<(usize, usize)> = placed
            .iter()
            .filter(|&&j| intervals[j].start <= me.end && me.start <= intervals[j].end)
            .map(|&j| (offsets[j], offsets[j] + intervals[j].bytes.div_ceil(ALIGN) * ALIGN))
            .collect();
        busy.sort_unstable();
        let mut offset = 0;
        for (lo, hi) in busy {
            if offset + size <= lo {
                break;
            }
            offset = offset.max(hi);
        }
        offsets[i] = offset;
        total = total.max(offset + size);
        placed.push(i);
    }
    (offsets, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps(a: &Interval, oa: usize, b: &Interval, ob: usize) -> bool {
        let time = a.start <= b.end && b.start <= a.end;
        let space = oa < ob + b.bytes && ob < oa + a.bytes;
        time && space
    }

    #[test]
    fn dead_buffers_are_reused_and_live_ones_never_overlap() {
        // A chain: each tensor dies when the next is made, so two slots suffice.
        let chain: Vec<Interval> = (0..6).map(|i| Interval { bytes: 1000, start: i, end: i + 1 }).collect();
        let (off, total) = assign_offsets(&chain);
        assert_eq!(total, 2 * 1024);
        for i in 0..chain.len() {
            for j in 0..i {
                assert!(!overlaps(&chain[i], off[i], &chain[j], off[j]), "{i} and {j}");
            }
        }
        // Pseudo-random lifetimes and sizes.
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let ivs: Vec<Interval> = (0..200)
            .map(|_| {
                let start = next() % 100;
                Interval { bytes: 1 + next() % 5000, start, end: start + next() % 20 }
            })
            .collect();
        let (off, total) = assign_offsets(&ivs);
        for i in 0..ivs.len() {
            assert_eq!(off[i] % ALIGN, 0);
            assert!(off[i] + ivs[i].bytes <= total);
            for j in 0..i {
                assert!(!overlaps(&ivs[i], off[i], &ivs[j], off[j]), "{i} and {j}");
            }
        }
        let peak: usize = (0..120)
            .map(|t| ivs.iter().filter(|v| v.start <= t && t <= v.end).map(|v| v.bytes).sum::<usize>())
            .max()
            .unwrap();
        assert!(total >= peak && total < 2 * peak + 64 * 200, "total {total}, peak {peak}");
    }
}
