//! A seeded generator of nasty JSON documents for the cross-parser check.
//!
//! `cargo run --release --example gen_nasty -- --seed 1 --count 5000` prints
//! JSON Lines `{"id": "gen-1-0", "json": "..."}`: one small document a line,
//! built from the strings and numbers YAML parsers are known to misread
//! (booleans and nulls of YAML 1.1 and 1.2, number and date look-alikes,
//! YAML indicators, Unicode spaces and format characters, folded-line
//! starts) as keys, values and list elements, with escapes chosen at random.
//! No duplicate keys, no lone surrogates: every document is valid for kyaml.

use std::fmt::Write;

/// splitmix64: small, seedable, good enough to pick from pools.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, pool: &[&'a str]) -> &'a str {
        pool[self.below(pool.len())]
    }
}

const BOOLS_AND_NULLS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~", "", "t",
    "f", "T", "F", "tRuE", "nULL", "yES",
];

const NUMBER_LIKE: &[&str] = &[
    "0x1F",
    "0X1f",
    "0o17",
    "0O17",
    "0b101",
    "017",
    "08",
    "09.5",
    "1_000",
    "_1",
    "1_",
    "__1__2__",
    ".5",
    "1.",
    "+1",
    "-1",
    ".inf",
    "-.Inf",
    "+.INF",
    ".NaN",
    ".nan",
    "inf",
    "Infinity",
    "NaN",
    "nan",
    "in_f",
    "1:20",
    "190:20:30.15",
    "1:60",
    "-1:20",
    "1e400",
    "1e101_000",
    "1_0e4_00",
    "1e10",
    "1E10",
    "1e+10",
    "1e-10",
    "1.5e3",
    "0",
    "-0",
    "0.0",
    "3.14",
    "1_2.3_4",
    "0x_",
    "0b_",
    "0o_",
    "0x",
    "0xFFFFFFFFFFFFFFFFFF",
    "123456789012345678901234567890",
    "1e",
    "1e+",
    "1.2.3",
    "10.0.0.1",
    "v1.2",
    "1.2.3-rc.1",
    "0x1p3",
    "0x1.8p-2",
    "0x1p99999",
    "1__0",
    "0_7",
    "0o8_",
    "1,000",
    "1 000",
];

const DATES: &[&str] = &[
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5",
    "2001-12-14",
    "2002-12-14",
    "2025-02-30",
    "2006-1-2",
    "2006-13-01",
    "2024-02-29",
    "2023-02-29",
    "0000-00-00",
    "9999-12-31",
    "2001-12-15T02:59:43.1Z",
    "2001-12-15 2:59:43.10",
    "12:30",
    "1:2:3",
    "2006-1-2T15:4:5.999999999Z",
    "2006-01-02T15:04:05+07:00",
    "2024-2-31",
    "20240101",
];

const INDICATORS: &[&str] = &[
    "<<", "=", "-", "--", "---", "...", "?", ":", "#", "&a", "*a", "!tag", "!!str", "%YAML", "@",
    "`", "|", ">", "{", "}", "[", "]", ",", "'", "\"", "- a", "? a", "a: b", "a #b", "#a", "a:",
    ":a", "a,b", "[a]", "{a}", "'a'", "\"a\"", " a", "a ", "\\", "\\n", "a\\", "%", "!", "&", "*",
];

const UNICODE: &[&str] = &[
    "\u{202e}rtl",
    "\u{200e}",
    "\u{2066}x\u{2069}",
    "\u{200b}",
    "a\u{200c}b",
    "\u{200d}",
    "\u{feff}",
    "😀",
    "𝔘𝔫𝔦",
    "𐍈",
    "e\u{301}",
    "\u{301}",
    "مرحبا",
    "١٢٣",
    "१२३",
    "日本語",
    "한국어",
    "Ελληνικά",
    "\u{a0}",
    "\u{2000}",
    "\u{200a}",
    "\u{3000}",
    "\u{2028}",
    "\u{2029}",
    "\u{85}",
    "\u{1680}",
    "\u{205f}",
    "\u{e000}",
    "\u{f0000}",
    "\u{fffe}",
    "\u{ffff}",
    "\u{378}",
    "\u{1fae9}",
    "\u{1f6dc}",
    "\u{ad}",
    "Ⅻ",
    "½",
    "²",
    "ǅ",
    "ʰ",
    "\u{7f}",
    "\u{0}",
    "\u{1b}",
    "\u{7}",
    "\u{b}",
];

const MULTILINE: &[&str] = &[
    "a\nb",
    " a\n b",
    "\ta\n\tb",
    "a\r\nb",
    "a\rb\nc",
    "\na",
    "a\n",
    "a\n\n",
    "\n",
    "\n\n",
    " \n ",
    "\t\n\t",
    "a  \nb",
    "a\t\nb",
    "#a\n- b\n---\n...",
    "a\n\u{a0}b",
    "a\n\u{3000}b",
    "a\n\rb",
    "a\n\u{2028}b",
    "a\n\u{85}b",
    "x\n  \n  y",
    "line one\n  indented\n\ttabbed\n\nblank above\n",
    "\\\n\\",
    "\"\n\"",
    "a\n\u{feff}b",
    "a\n \u{a0}b",
    "a\n\u{b}b",
];

const PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// JSON numbers as text, including ones no float64 holds.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "42",
    "1e10",
    "1E+5",
    "-1e-7",
    "1e400",
    "-1e400",
    "1.5e-3",
    "2.5E3",
    "0e0",
    "10E-2",
    "0.1",
    "1.0",
    "-0.0",
    "1e-400",
    "123456789012345678901234567890",
    "9007199254740993",
    "18446744073709551616",
    "9223372036854775808",
    "-9223372036854775809",
    "3.141592653589793238462643383279",
    "1E400",
    "5e-324",
];

/// A nasty string: from a pool, a punctuation word, or a mix of pieces.
fn nasty_string(rng: &mut Rng) -> String {
    match rng.below(9) {
        0 => rng.pick(BOOLS_AND_NULLS).into(),
        1 => rng.pick(NUMBER_LIKE).into(),
        2 => rng.pick(DATES).into(),
        3 => rng.pick(INDICATORS).into(),
        4 => rng.pick(UNICODE).into(),
        5 => rng.pick(MULTILINE).into(),
        6 => {
            // A word with a punctuation character at its start, middle or end.
            let p = PUNCTUATION.as_bytes()[rng.below(PUNCTUATION.len())] as char;
            match rng.below(3) {
                0 => format!("{p}word"),
                1 => format!("wo{p}rd"),
                _ => format!("word{p}"),
            }
        }
        7 => [
            "app.kubernetes.io/name",
            "a-b",
            "a.b",
            "a/b",
            "a_b",
            "x",
            "metadata",
            "kind",
        ][rng.below(8)]
        .into(),
        _ => {
            let mut s = String::new();
            for _ in 0..1 + rng.below(4) {
                let pool =
                    [BOOLS_AND_NULLS, NUMBER_LIKE, INDICATORS, UNICODE, MULTILINE][rng.below(5)];
                s.push_str(rng.pick(pool));
            }
            s
        }
    }
}

/// Writes `s` as a JSON string, escaping at random where JSON allows it.
fn write_string(out: &mut String, s: &str, rng: &mut Rng) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' if rng.chance(80) => out.push_str("\\n"),
            '\t' if rng.chance(80) => out.push_str("\\t"),
            '\r' if rng.chance(80) => out.push_str("\\r"),
            '/' if rng.chance(50) => out.push_str("\\/"),
            c if (c as u32) < 0x20 || rng.chance(10) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Writes a random value of at most `depth` levels.
fn write_value(out: &mut String, rng: &mut Rng, depth: usize) {
    let container = depth > 0 && rng.chance(45);
    if !container {
        match rng.below(10) {
            0..=5 => write_string(out, &nasty_string(rng), rng),
            6 | 7 => out.push_str(rng.pick(NUMBERS)),
            8 => out.push_str(rng.pick(&["true", "false"])),
            _ => out.push_str("null"),
        }
        return;
    }
    let len = if rng.chance(15) { 0 } else { 1 + rng.below(5) };
    if rng.chance(50) {
        // Lists: sometimes only containers, to exercise cuddling.
        let only_containers = rng.chance(40);
        out.push('[');
        for i in 0..len {
            if i > 0 {
                out.push(',');
            }
            if only_containers {
                write_container(out, rng, depth - 1);
            } else {
                write_value(out, rng, depth - 1);
            }
        }
        out.push(']');
    } else {
        write_map(out, rng, depth, len);
    }
}

fn write_container(out: &mut String, rng: &mut Rng, depth: usize) {
    if rng.chance(50) {
        out.push('[');
        if depth > 0 && rng.chance(70) {
            write_value(out, rng, depth);
        }
        out.push(']');
    } else {
        let len = rng.below(4);
        write_map(out, rng, depth + 1, len);
    }
}

fn write_map(out: &mut String, rng: &mut Rng, depth: usize, len: usize) {
    let mut keys: Vec<String> = Vec::new();
    while keys.len() < len {
        let key = nasty_string(rng);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    out.push('{');
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, key, rng);
        out.push(':');
        write_value(out, rng, depth.saturating_sub(1));
    }
    out.push('}');
}

/// A deep chain of containers around a nasty value.
fn write_deep(out: &mut String, rng: &mut Rng) {
    let depth = 10 + rng.below(40);
    let mut closers = String::new();
    for _ in 0..depth {
        if rng.chance(50) {
            out.push('[');
            closers.insert(0, ']');
        } else {
            out.push_str("{\"k\":");
            closers.insert(0, '}');
        }
    }
    write_value(out, rng, 2);
    out.push_str(&closers);
}

fn main() {
    let mut seed = 1;
    let mut count = 5000;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|v| v.parse().ok());
        match (arg.as_str(), value) {
            ("--seed", Some(v)) => seed = v,
            ("--count", Some(v)) => count = v,
            _ => {
                eprintln!("usage: gen_nasty [--seed N] [--count N]");
                std::process::exit(2);
            }
        }
    }
    let mut rng = Rng(seed);
    for n in 0..count {
        let mut json = String::new();
        if rng.chance(5) {
            write_deep(&mut json, &mut rng);
        } else {
            let depth = 1 + rng.below(4);
            write_value(&mut json, &mut rng, depth);
        }
        let line = serde_json::json!({"id": format!("gen-{seed}-{n}"), "json": json});
        println!("{line}");
    }
}
