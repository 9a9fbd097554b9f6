//! One ratio table: kyaml against serde_json on every corpus file.
//!
//! `cargo run --release --example bench [-- --rounds N] [--check]` times the
//! contenders round-robin (the order rotating each round, so a noisy moment
//! hits them all), takes each one's median, and prints MB/s of input and the
//! ratios the performance targets are stated in. Absolute numbers vary by
//! machine; the ratios, from one run, are the claim. `--check` exits 1 when
//! a target is missed. A second table times YAML input: each corpus file's
//! block-style rendering (`benches/data/*.yaml`) through the YAML path
//! against the JSON file through the JSON path (the same data).

#[path = "shared/timing.rs"]
mod timing;

use std::hint::black_box;

use kyaml::Options;
use serde_json::value::RawValue;
use timing::median_seconds;

const FILES: [&str; 4] = ["twitter", "citm_catalog", "canada", "k8s_swagger"];

/// A contender: its column name and a run over the input. The `String` is
/// a scratch buffer, allocated once, for the no-alloc path.
type Contender = (&'static str, fn(&[u8], &mut String));

const CONTENDERS: [Contender; 6] = [
    ("kyaml to_string", |input, _| {
        drop(black_box(Options::new().to_string(input).unwrap()))
    }),
    ("kyaml compact", |input, _| {
        drop(black_box(
            Options::new().compact(true).to_string(input).unwrap(),
        ))
    }),
    ("kyaml to_fmt no-alloc", |input, out| {
        out.clear();
        Options::new().to_fmt(out, input).unwrap();
        black_box(out);
    }),
    ("serde validate", |input, _| {
        black_box(serde_json::from_slice::<&RawValue>(input).unwrap());
    }),
    ("serde Value+pretty", |input, _| {
        let value: serde_json::Value = serde_json::from_slice(input).unwrap();
        drop(black_box(serde_json::to_vec_pretty(&value).unwrap()));
    }),
    // Not a contender: a floor under any function that returns its output
    // as new memory. Filling a fresh buffer as large as the input costs the
    // page faults of that memory, which validation never pays.
    ("fresh buffer fill (floor)", |input, _| {
        drop(black_box(vec![b' '; input.len()]));
    }),
];

/// The logger's case: one short record, many times. Per-call costs (setting
/// up tables, allocating) dominate here, not throughput.
const RECORD: &str = r#"{"level":"info","msg":"request done","user":"ana","status":200,"ms":12.5}"#;

/// Nanoseconds per call on [`RECORD`], medians of interleaved rounds of
/// 10,000 calls each: `Dump` (what a logger formats), `to_string` in the
/// compact value form, and serde_json validating it and writing its
/// `Value` back out compactly.
fn log_record(rounds: usize) {
    type Call = (&'static str, fn(&str, &mut String));
    const CALLS: [Call; 4] = [
        ("kyaml Dump {}", |r, out| {
            use std::fmt::Write;
            out.clear();
            write!(out, "{}", kyaml::Dump(r)).unwrap();
        }),
        ("kyaml to_string compact value", |r, _| {
            let opts = Options::new().compact(true).form(kyaml::Form::Value);
            drop(black_box(opts.to_string(r).unwrap()));
        }),
        ("serde validate", |r, _| {
            black_box(serde_json::from_str::<&RawValue>(r).unwrap());
        }),
        ("serde Value+to_string", |r, _| {
            let value: serde_json::Value = serde_json::from_str(r).unwrap();
            drop(black_box(serde_json::to_string(&value).unwrap()));
        }),
    ];
    const CALLS_PER_ROUND: u32 = 10_000;
    let mut out = String::with_capacity(256);
    let times = median_seconds(CALLS.len(), rounds, |i| {
        for _ in 0..CALLS_PER_ROUND {
            (CALLS[i].1)(black_box(RECORD), &mut out);
        }
    });
    println!("\nlog record ({} bytes), ns per call:\n", RECORD.len());
    print!("|");
    CALLS.iter().for_each(|(name, _)| print!(" {name} |"));
    println!("\n|{}", "---|".repeat(CALLS.len()));
    print!("|");
    times
        .into_iter()
        .for_each(|t| print!(" {:.0} |", t * 1e9 / f64::from(CALLS_PER_ROUND)));
    println!();
}

/// YAML → KYAML on the block-style rendering of each corpus file, against
/// JSON → KYAML on the file itself: MB/s of each input, and how the YAML
/// path's time compares with the JSON path's for the same data.
fn yaml_input(rounds: usize) {
    println!("\nYAML input (benches/data/*.yaml, block style), `to_string`:\n");
    println!("| file | YAML MB | YAML → KYAML MB/s | JSON → KYAML MB/s | JSON time / YAML time |");
    println!("|---|---|---|---|---|");
    let yaml = Options::new().input(kyaml::Input::Yaml);
    for name in FILES {
        let read = |ext: &str| {
            let path = format!("{}/benches/data/{name}.{ext}", env!("CARGO_MANIFEST_DIR"));
            std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
        };
        let (json_input, yaml_input) = (read("json"), read("yaml"));
        // The same data (the .yaml files list keys sorted, so the outputs
        // differ in order only): tests/yaml.rs holds the data equal.
        let times = median_seconds(2, rounds, |i| match i {
            0 => drop(black_box(yaml.to_string(&yaml_input).unwrap())),
            _ => drop(black_box(Options::new().to_string(&json_input).unwrap())),
        });
        let (yaml_mb, json_mb) = (yaml_input.len() as f64 / 1e6, json_input.len() as f64 / 1e6);
        println!(
            "| {name} | {yaml_mb:.2} | {:.0} | {:.0} | {:.2} |",
            yaml_mb / times[0],
            json_mb / times[1],
            times[1] / times[0]
        );
    }
}

fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split(':').nth(1));
    model.map_or("unknown CPU".into(), |m| m.trim().to_owned())
}

/// The first line of a command's output, or `unknown`: the machine line is
/// context, not worth failing the run over.
fn command_line(program: &str, args: &[&str]) -> String {
    std::process::Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.lines().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into())
}

fn main() {
    let (rounds, arguments) = timing::rounds_and_arguments(15);
    let check = match arguments.as_slice() {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => panic!("usage: bench [--rounds N] [--check]"),
    };
    println!(
        "{} rounds, medians; {}, {} cores; {}; {}",
        rounds,
        cpu_model(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        command_line("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        command_line("rustc", &["--version"]),
    );
    print!("\n| file | MB |");
    CONTENDERS
        .iter()
        .for_each(|(name, _)| print!(" {name} MB/s |"));
    println!(" kyaml/validate | kyaml/Value+pretty | compact/regular |");
    println!("|---|---|{}---|---|---|", "---|".repeat(CONTENDERS.len()));
    let mut missed = Vec::new();
    for name in FILES {
        let path = format!("{}/benches/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut scratch = String::with_capacity(2 * input.len());
        let times = median_seconds(CONTENDERS.len(), rounds, |i| {
            (CONTENDERS[i].1)(&input, &mut scratch)
        });
        let mb = input.len() as f64 / 1e6;
        let speed: Vec<f64> = times.into_iter().map(|t| mb / t).collect();
        let (regular, compact, validate, pretty) = (speed[0], speed[1], speed[3], speed[4]);
        print!("| {name} | {mb:.2} |");
        speed.iter().for_each(|s| print!(" {s:.0} |"));
        println!(
            " {:.2} | {:.2} | {:.2} |",
            regular / validate,
            regular / pretty,
            compact / regular
        );
        if regular < validate {
            missed.push(format!(
                "{name}: kyaml/validate {:.2} < 1.0",
                regular / validate
            ));
        }
        if regular < 5.0 * pretty {
            missed.push(format!(
                "{name}: kyaml/Value+pretty {:.2} < 5",
                regular / pretty
            ));
        }
        if compact < 0.95 * regular {
            missed.push(format!(
                "{name}: compact/regular {:.2} < 0.95",
                compact / regular
            ));
        }
    }
    yaml_input(rounds);
    log_record(rounds);
    if !missed.is_empty() {
        eprintln!("\ntargets missed:\n  {}", missed.join("\n  "));
        if check {
            std::process::exit(1);
        }
    }
}
