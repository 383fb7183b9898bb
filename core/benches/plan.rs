//! Plan + render time for the guide's machine and for a large input (target ≤ 20 µs).
//! Figures are recorded in docs/benchmarks.md; run with `cargo bench -p nginx-gen-core`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use nginx_gen_core::{Inputs, Plan, render};

fn guide() -> Inputs {
    Inputs::from_json(r#"{"vcpu": 4, "ram": "8G", "workload": "static"}"#).expect("valid")
}

fn large() -> Inputs {
    Inputs::from_json(
        r#"{"vcpu": 64, "ram": "256G", "workload": "mixed", "tls": true, "http3": true,
            "brotli": true, "behind_lb": true, "clients": 500000,
            "server_names": ["example.com", "www.example.com", "static.example.com"],
            "upstreams": ["10.0.0.2:8080", "10.0.0.3:8080", "10.0.0.4:8080", "10.0.0.5:8080"],
            "openssl_version": "3.5.1"}"#,
    )
    .expect("valid")
}

fn bench(c: &mut Criterion) {
    for (name, inputs) in [
        ("guide 4 vCPU 8G static", guide()),
        ("large 64 vCPU mixed TLS", large()),
    ] {
        c.bench_function(&format!("plan only: {name}"), |b| {
            b.iter(|| Plan::new(black_box(&inputs)));
        });
        c.bench_function(&format!("plan+render all files: {name}"), |b| {
            b.iter(|| {
                let plan = Plan::new(black_box(&inputs));
                black_box(render::files(&plan))
            });
        });
    }
    let text = r#"{"vcpu": 4, "ram": "8G"}"#;
    c.bench_function("validate JSON input", |b| {
        b.iter(|| Inputs::from_json(black_box(text)));
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
