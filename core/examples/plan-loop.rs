//! Plan + render of the guide's inputs in a loop, for instruction counts:
//! `valgrind --tool=callgrind target/release/examples/plan-loop [N]` (docs/benchmarks.md).
//! Criterion (`cargo bench -p nginx-gen-core --bench plan`) gives the wall time.

#![allow(
    clippy::disallowed_methods,
    reason = "a measuring harness, not core: it reads its iteration count"
)]

use std::hint::black_box;

use nginx_gen_core::{Inputs, Plan, render};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(200, |n| n.parse().expect("N: a number of iterations"));
    let inputs =
        Inputs::from_json(r#"{"vcpu": 4, "ram": "8G", "workload": "static"}"#).expect("valid");
    for _ in 0..n {
        let plan = Plan::new(black_box(&inputs));
        black_box(render::files(&plan));
    }
}
