//! kyaml's YAML -> KYAML against saphyr-parser's events, on the six
//! bench files (`benches/data/*.yaml`: four block-style, `kubectl_pods`, `compose` and `compose_written_out`), in one process.
//!
//! Each round times every contender on one file, the order rotating
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
//! Three more kyaml contenders read without writing, like-for-like with
//! a parser that only parses (the table and `--raw` hold them too):
//!
//! - `kyaml-syntax`: the scanner and the parser alone, every syntax event
//!   dropped as it comes (`Options::yaml_syntax_events`, hidden from the
//!   docs: a bench entry, not API), as saphyr-parser's events are;
//! - `kyaml-load`: and the reader that turns them into data, as
//!   `to_string` reads the file (the one reader, `stream.rs`, which holds
//!   a map with a merge key until it closes: `compose`'s services),
//!   comments attached: `Options::warnings`, which
//!   reads the input exactly so and returns its (few) warnings;
//! - `kyaml-check`: and the checking pass over those data events (the
//!   plan's duplicate-key and list checks): `Options::check`, all of
//!   `to_string` but the emitter and its output.
//!
//! `to_string` minus `kyaml-check` is the writing; `kyaml-check` minus
//! `kyaml-load` the checks and the data events' reading back.
//!
//! `--only CONTENDER` and `--file NAME` narrow the run to one contender
//! and one file, for callgrind: the difference between the counts of
//! `--rounds 3` and `--rounds 1`, halved, is one call's instructions
//! (`tools/bench_yaml_instructions.sh` does that for every contender).

use std::hint::black_box;
use std::time::Instant;

use kyaml::Options;
use saphyr_parser::Parser;

// `--rounds N` and the median, as the crate's timing examples read them.
#[allow(dead_code)]
#[path = "../../../examples/shared/timing.rs"]
mod timing;
use timing::{median, rounds_and_arguments};

const FILES: [&str; 7] = [
    "twitter",
    "citm_catalog",
    "canada",
    "k8s_swagger",
    "kubectl_pods",
    "compose",
    "compose_written_out",
];

/// Who is timed, in the order of the table and of `--raw`'s lines.
const CONTENDERS: [&str; 5] = [
    "kyaml",
    "kyaml-syntax",
    "kyaml-load",
    "kyaml-check",
    "saphyr",
];

const YAML: Options = Options::new().input(kyaml::Input::Yaml);

/// kyaml: the YAML path into a new `String`, as the `yaml` contender of
/// `examples/repeat.rs` and the YAML table of `examples/bench.rs`.
fn kyaml_convert(input: &[u8]) {
    drop(black_box(YAML.to_string(input).unwrap()));
}

/// Runs contender `who` on the file once; returns a count (events, or
/// warnings), so the call cannot be optimised away.
fn run(who: &str, input: &[u8], text: &str) -> usize {
    match who {
        "kyaml" => {
            kyaml_convert(input);
            0
        }
        "kyaml-syntax" => YAML.yaml_syntax_events(input).unwrap(),
        "kyaml-load" => YAML.warnings(input).len(),
        "kyaml-check" => {
            YAML.check(input).unwrap();
            0
        }
        "saphyr" => saphyr_events(text),
        _ => unreachable!("{who}"),
    }
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
                    "usage: yaml-parsers-bench [--rounds N] [--raw] [--only {}] [--file NAME]",
                    CONTENDERS.join("|")
                );
                std::process::exit(2);
            }
        }
    }
    if only.as_deref().is_some_and(|o| !CONTENDERS.contains(&o)) {
        eprintln!("--only: one of {}", CONTENDERS.join(", "));
        std::process::exit(2);
    }
    let chosen: Vec<&str> = CONTENDERS
        .into_iter()
        .filter(|c| only.as_deref().is_none_or(|o| o == *c))
        .collect();
    if !raw {
        println!("{rounds} rounds, medians, MB/s of input\n");
        println!(
            "| file | MB | kyaml YAML → KYAML | kyaml syntax events | kyaml load | kyaml check | saphyr-parser events | kyaml/saphyr | kyaml syntax/saphyr |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    }
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../data");
    for name in FILES {
        if file.as_deref().is_some_and(|f| f != name) {
            continue;
        }
        let path = format!("{data}/{name}.yaml");
        let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let text = std::str::from_utf8(&input).expect("UTF-8 input");
        // One untimed call each: page in the input, size the allocator's
        // heap; the counts go to stderr in the table's mode.
        let counts: Vec<usize> = chosen.iter().map(|c| run(c, &input, text)).collect();
        // Each round runs every chosen contender, the order rotating.
        let mut times = vec![Vec::new(); chosen.len()];
        for round in 0..rounds {
            for k in 0..chosen.len() {
                let i = (round + k) % chosen.len();
                let start = Instant::now();
                black_box(run(chosen[i], black_box(&input), black_box(text)));
                times[i].push(start.elapsed().as_secs_f64());
            }
        }
        if raw {
            for (who, times) in chosen.iter().zip(&times) {
                times.iter().for_each(|t| println!("{name} {who} {t:.9}"));
            }
            continue;
        }
        if only.is_some() {
            continue;
        }
        let mb = input.len() as f64 / 1e6;
        let medians: Vec<f64> = times.into_iter().map(median).collect();
        let mut row = format!("| {name} | {mb:.2} |");
        for m in &medians {
            row += &format!(" {:.0} |", mb / m);
        }
        let saphyr = medians[4];
        row += &format!(" {:.2} | {:.2} |", saphyr / medians[0], saphyr / medians[1]);
        println!("{row}");
        eprintln!(
            "{name}: {} kyaml syntax events, {} warnings, {} saphyr events",
            counts[1], counts[2], counts[4]
        );
    }
}
