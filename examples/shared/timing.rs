//! What the timing examples share (`bench`, `bench_value`; each includes
//! this file with `#[path]`): the command line's `--rounds N`, and timing
//! contenders round-robin to their medians.

use std::hint::black_box;
use std::time::Instant;

/// `--rounds N` from the command line (`default` without it), and the
/// other arguments, in order, for the caller to read.
pub fn rounds_and_arguments(default: usize) -> (usize, Vec<String>) {
    let mut rounds = default;
    let mut rest = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--rounds N")
            }
            _ => rest.push(arg),
        }
    }
    (rounds, rest)
}

/// Makes the allocator finish the work a contender left it. glibc defers
/// merging freed small blocks until the next large request: dropping
/// serde_json's `Value` frees hundreds of thousands of nodes, and without
/// this the contender that runs next paid for merging them (seen as
/// `malloc_consolidate` in its profile, up to 2.5x its own time). A 64 KiB
/// request is large enough to trigger the merge and small enough to be
/// served from the heap, so each contender's timing includes its own
/// clean-up and no one else's.
pub fn settle_allocator() {
    drop(black_box(Vec::<u8>::with_capacity(64 << 10)));
}

/// Times `run(i)` for each of `count` contenders over `rounds` rounds, the
/// order rotating each round so a noisy moment hits them all, each timing
/// ending with [`settle_allocator`]: the median seconds of each.
pub fn median_seconds(count: usize, rounds: usize, mut run: impl FnMut(usize)) -> Vec<f64> {
    let mut times = vec![Vec::new(); count];
    for round in 0..rounds {
        for k in 0..count {
            let i = (round + k) % count;
            let start = Instant::now();
            run(i);
            settle_allocator();
            times[i].push(start.elapsed().as_secs_f64());
        }
    }
    times.into_iter().map(median).collect()
}

pub fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
