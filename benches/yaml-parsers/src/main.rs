//! kyaml's YAML -> KYAML against saphyr-parser's events, on the four
//! block-style bench files (`benches/data/*.yaml`), in one process.
//!
//! Each round times both contenders on one file, the order alternating
//! round by round, and each timing includes dropping what the contender
//! made (kyaml's output `String`, saphyr's events). The table holds each
//! one's median in MB/s of input and the ratio kyaml/saphyr (> 1: kyaml
//! faster); the target is at least 1.5 on every file.
//!
//! kyaml starts from the input's bytes and checks that they are UTF-8 on
//! the way; saphyr-parser needs a `&str`, made once outside the timing, so
//! the ratio does not charge saphyr for the check kyaml pays.
//!
//! `--raw` prints every timing instead, one line per round and contender
//! (`FILE CONTENDER SECONDS`), for `tools/bench_yaml.py`, which alternates
//! runs of this binary with `tools/bench_rapidyaml.py` and takes the
//! medians over all of them.
//!
//! `--only kyaml|saphyr` and `--file NAME` narrow the run to one contender
//! and one file, for callgrind: the difference between the counts of
//! `--rounds 3` and `--rounds 1`, halved, is one call's instructions
//! (`tools/bench_yaml_instructions.sh` does that for all three parsers).

use std::hint::black_box;
use std::time::Instant;

use kyaml::Options;
use saphyr_parser::Parser;

// `--rounds N` and the median, as the crate's timing examples read them.
#[allow(dead_code)]
#[path = "../../../examples/shared/timing.rs"]
mod timing;
use timing::{median, rounds_and_arguments};

const FILES: [&str; 4] = ["twitter", "citm_catalog", "canada", "k8s_swagger"];

/// kyaml: the YAML path into a new `String`, as the `yaml` contender of
/// `examples/repeat.rs` and the YAML table of `examples/bench.rs`.
fn kyaml_convert(input: &[u8]) {
    let yaml = Options::new().input(kyaml::Input::Yaml);
    drop(black_box(yaml.to_string(input).unwrap()));
}

/// saphyr-parser: every event of the input, each dropped as it comes.
/// Returns the count, so the loop cannot be optimised away.
fn saphyr_events(text: &str) -> usize {
    let mut count = 0;
    for event in Parser::new_from_str(text) {
        black_box(event.unwrap());
        count += 1;
    }
    count
}

fn main() {
    let (rounds, rest) = rounds_and_arguments(21);
    let mut raw = false;
    let mut only: Option<String> = None;
    let mut file: Option<String> = None;
    let mut args = rest.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--raw" => raw = true,
            "--only" => only = args.next(),
            "--file" => file = args.next(),
            _ => {
                eprintln!(
                    "usage: yaml-parsers-bench [--rounds N] [--raw] [--only kyaml|saphyr] [--file NAME]"
                );
                std::process::exit(2);
            }
        }
    }
    if !raw {
        println!("{rounds} rounds, medians, MB/s of input\n");
        println!("| file | MB | kyaml YAML → KYAML | saphyr-parser events | kyaml/saphyr |");
        println!("|---|---:|---:|---:|---:|");
    }
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../data");
    let runs = |contender: &str| only.as_deref().is_none_or(|o| o == contender);
    for name in FILES {
        if file.as_deref().is_some_and(|f| f != name) {
            continue;
        }
        let path = format!("{data}/{name}.yaml");
        let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let text = std::str::from_utf8(&input).expect("UTF-8 input");
        // One untimed call each: page in the input, size the allocator's heap.
        if runs("kyaml") {
            kyaml_convert(&input);
        }
        let events = if runs("saphyr") {
            saphyr_events(text)
        } else {
            0
        };
        let (mut kyaml, mut saphyr) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            for k in 0..2 {
                let start = Instant::now();
                let kyaml_turn = (round + k) % 2 == 0;
                if !runs(if kyaml_turn { "kyaml" } else { "saphyr" }) {
                    continue;
                }
                if kyaml_turn {
                    kyaml_convert(black_box(&input));
                    kyaml.push(start.elapsed().as_secs_f64());
                } else {
                    black_box(saphyr_events(black_box(text)));
                    saphyr.push(start.elapsed().as_secs_f64());
                }
            }
        }
        if raw {
            kyaml.iter().for_each(|t| println!("{name} kyaml {t:.9}"));
            saphyr.iter().for_each(|t| println!("{name} saphyr {t:.9}"));
            continue;
        }
        if only.is_some() {
            continue;
        }
        let mb = input.len() as f64 / 1e6;
        let (k, s) = (median(kyaml), median(saphyr));
        println!(
            "| {name} | {mb:.2} | {:.0} | {:.0} | {:.2} |",
            mb / k,
            mb / s,
            s / k
        );
        eprintln!("{name}: {events} saphyr events");
    }
}
