//! Runs one contender over one file a given number of times, for profilers
//! that count the whole process (callgrind, perf stat): the difference
//! between two counts is the cost of the extra conversions alone.
//!
//! `cargo run --release --example repeat -- FILE CONTENDER TIMES [--fastest]`,
//! where CONTENDER is `to_string` (regular layout), `compact`, `to_fmt` (into
//! a `String` reserved up front), `to_writer` (into a `Vec` reserved up
//! front), `yaml` (YAML input), `dump` (`{}` of [`kyaml::Dump`] over the
//! file's text: the logger's case, for a file holding one short record) or
//! `validate` (serde_json's `&RawValue`, the baseline of the performance
//! goals). `tools/instructions.sh` runs it under
//! callgrind and prints instructions per conversion.
//!
//! `--fastest` times each call and prints the fastest, in microseconds: to
//! compare two builds on a shared machine, where other work only ever adds
//! time, run each a few times in turn and compare the fastest calls.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use kyaml::Options;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (fastest, args) = match &args[..] {
        [rest @ .., flag] if flag == "--fastest" => (true, rest),
        all => (false, all),
    };
    let [file, contender, times] = args else {
        eprintln!(
            "usage: repeat FILE to_string|compact|to_fmt|to_writer|dump|yaml|validate TIMES [--fastest]"
        );
        return ExitCode::from(2);
    };
    let (Ok(input), Ok(times)) = (std::fs::read(file), times.parse::<usize>()) else {
        eprintln!("repeat: cannot read {file} or parse {times}");
        return ExitCode::from(2);
    };
    let run: fn(&[u8]) = match contender.as_str() {
        "to_string" => |input| drop(black_box(Options::new().to_string(input).unwrap())),
        "compact" => |input| {
            let opts = Options::new().compact(true);
            drop(black_box(opts.to_string(input).unwrap()));
        },
        "to_fmt" => |input| {
            let mut out = String::with_capacity(2 * input.len());
            Options::new().to_fmt(&mut out, input).unwrap();
            drop(black_box(out));
        },
        "to_writer" => |input| {
            let mut out = Vec::with_capacity(2 * input.len());
            Options::new().to_writer(&mut out, input).unwrap();
            drop(black_box(out));
        },
        "dump" => |input| {
            use std::fmt::Write;
            let text = std::str::from_utf8(input).unwrap_or_default();
            let mut out = String::with_capacity(256);
            write!(out, "{}", kyaml::Dump(text)).unwrap();
            drop(black_box(out));
        },
        "yaml" => |input| {
            let opts = Options::new().input(kyaml::Input::Yaml);
            drop(black_box(opts.to_string(input).unwrap()));
        },
        "validate" => |input| {
            black_box(serde_json::from_slice::<&serde_json::value::RawValue>(input).unwrap());
        },
        other => {
            eprintln!("repeat: unknown contender {other}");
            return ExitCode::from(2);
        }
    };
    if !fastest {
        for _ in 0..times {
            run(black_box(&input));
        }
        return ExitCode::SUCCESS;
    }
    let best = (0..times).map(|_| {
        let start = Instant::now();
        run(black_box(&input));
        start.elapsed()
    });
    match best.min() {
        Some(best) => println!("{file} {contender} {:.1}", best.as_secs_f64() * 1e6),
        None => println!("{file} {contender} no calls"),
    }
    ExitCode::SUCCESS
}
