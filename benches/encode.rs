//! Criterion benchmarks over the corpus (benches/data): kyaml's regular,
//! compact and no-alloc paths against serde_json validating only and
//! serde_json round-tripping through `Value` into pretty JSON. Throughput
//! is MB/s of input. `cargo bench`; for one ratio table from interleaved
//! rounds, `cargo run --release --example bench`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kyaml::Options;
use serde_json::value::RawValue;

const FILES: [&str; 4] = ["twitter", "citm_catalog", "canada", "k8s_swagger"];

fn corpus(c: &mut Criterion) {
    for name in FILES {
        let path = format!("{}/benches/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Bytes(input.len() as u64));
        group
            .sample_size(20)
            .measurement_time(std::time::Duration::from_secs(3));
        group.bench_function("kyaml_regular", |b| {
            b.iter(|| Options::new().to_string(black_box(&input)).unwrap())
        });
        group.bench_function("kyaml_compact", |b| {
            b.iter(|| {
                Options::new()
                    .compact(true)
                    .to_string(black_box(&input))
                    .unwrap()
            })
        });
        let mut out = String::with_capacity(2 * input.len());
        group.bench_function("kyaml_regular_fmt_noalloc", |b| {
            b.iter(|| {
                out.clear();
                Options::new().to_fmt(&mut out, black_box(&input)).unwrap();
            })
        });
        group.bench_function("serde_validate", |b| {
            b.iter(|| serde_json::from_slice::<&RawValue>(black_box(&input)).unwrap())
        });
        group.bench_function("serde_value_pretty", |b| {
            b.iter(|| {
                let value: serde_json::Value = serde_json::from_slice(black_box(&input)).unwrap();
                let mut out = Vec::with_capacity(2 * input.len());
                serde_json::to_writer_pretty(&mut out, &value).unwrap();
                out
            })
        });
        group.finish();
    }
}

criterion_group!(benches, corpus);
criterion_main!(benches);
