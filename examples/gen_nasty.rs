//! A seeded generator of nasty JSON documents for the cross-parser check.
//!
//! `cargo run --release --example gen_nasty -- --seed 1 --count 5000` prints
//! JSON Lines `{"id": "gen-1-0", "json": "..."}`: one small document (under
//! 2 KB) a line, built from the strings and numbers YAML parsers are known to
//! misread, as keys, values and list elements: booleans and nulls of YAML 1.1
//! and 1.2, number, date and sexagesimal look-alikes, YAML indicators and
//! punctuation in every position, Unicode spaces, format characters and other
//! scripts, control characters, multi-line strings whose lines start with
//! white space, keys past YAML's 1,024-character limit for implicit keys,
//! deep nesting and streams of several documents. Escapes, number notation
//! and white space between tokens are chosen at random. No duplicate keys and
//! no lone surrogates: every document is valid input for kyaml.

use std::fmt::Write;

/// The largest document written, in bytes of JSON text.
const MAX_LEN: usize = 2048;

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

    /// A character drawn uniformly from `from..=to`; a surrogate becomes
    /// U+FFFD (JSON text cannot hold a lone one).
    fn char_in(&mut self, from: u32, to: u32) -> char {
        let code = from + self.below((to - from + 1) as usize) as u32;
        char::from_u32(code).unwrap_or('\u{fffd}')
    }
}

const BOOLS_AND_NULLS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~", "", "t",
    "f", "T", "F", "tRuE", "nULL", "yES", "oN", "1", "0",
];

const NUMBER_LIKE: &[&str] = &[
    "0x1F",
    "0X1f",
    "0o17",
    "0O17",
    "0b101",
    "0B11",
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
    "+.5",
    ".inf",
    "-.Inf",
    "+.INF",
    ".NaN",
    ".nan",
    ".NAN",
    "inf",
    "-inf",
    "Infinity",
    "NaN",
    "nan",
    "in_f",
    "1:20",
    "190:20:30.15",
    "1:60",
    "-1:20",
    "1_0:2_0",
    "1e400",
    "1e101_000",
    "1_0e4_00",
    "1e4_00",
    "1e10",
    "1E10",
    "1e+10",
    "1e-10",
    "1E+5",
    "-1e-7",
    "1.5e3",
    "1.e5",
    "0",
    "-0",
    "0.0",
    "-0.0",
    "3.14",
    "1_2.3_4",
    "1_._",
    "0_",
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
    "0b2",
    "0e",
    "1,000",
    "1 000",
    "1/2",
    "1-2",
    "٣",
    "١٢٣",
    "１２",
];

const DATES: &[&str] = &[
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14T21:59:43.10-05:00",
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
    "2024-02-31",
    "20240101",
    "2024-1-1t1:2:3",
    "2024-01-01_",
    "2024-01",
];

const INDICATORS: &[&str] = &[
    "<<", "=", "-", "--", "---", "...", "?", ":", "#", "&a", "*a", "!tag", "!!str", "%YAML", "@",
    "`", "|", ">", "{", "}", "[", "]", ",", "'", "\"", "- a", "? a", "a: b", "a #b", "#a", "a:",
    ":a", "a,b", "[a]", "{a}", "'a'", "\"a\"", " a", "a ", "\\", "\\n", "a\\", "%", "!", "&", "*",
    "|-", ">+", "!!binary", "!<tag:x>", "? ", "- ", ": ", "...\n", "---\n",
];

const UNICODE: &[&str] = &[
    "\u{202e}rtl",
    "\u{200e}",
    "\u{200f}",
    "\u{2066}x\u{2069}",
    "\u{200b}",
    "a\u{200c}b",
    "\u{200d}",
    "\u{feff}",
    "\u{2060}",
    "\u{e0001}",
    "😀",
    "👩\u{200d}💻",
    "❤\u{fe0f}",
    "𝔘𝔫𝔦",
    "𐍈",
    "e\u{301}",
    "\u{301}",
    "مرحبا",
    "١٢٣",
    "۴",
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
    "\u{10fffd}",
    "\u{fffe}",
    "\u{ffff}",
    "\u{fffd}",
    "\u{378}",
    "\u{1fae9}",
    "\u{1f6dc}",
    "\u{ad}",
    "\u{9c}",
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
    "\u{c}",
    "\u{1f}",
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
    "a\n---\nb",
    "a\n...\n",
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
    "a\n\\ b",
    "a\n\\\tb",
    "a \n",
    "a\n ",
];

/// Bases that punctuation is put into: words, numbers, dates, label keys.
const BASES: &[&str] = &[
    "word",
    "x",
    "1",
    "12",
    "1.5",
    "0x1F",
    "2001-12-14",
    "yes",
    "null",
    "a-b",
    "app.kubernetes.io/name",
    "日本",
    "1e10",
];

const PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// Ordinary keys, and the ones JavaScript objects treat specially.
const WORDS: &[&str] = &[
    "app.kubernetes.io/name",
    "a-b",
    "a.b",
    "a/b",
    "a_b",
    "a--b",
    "a./b",
    "x",
    "metadata",
    "kind",
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
];

/// JSON numbers as text, including ones no float64 or 64-bit integer holds.
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
    "-0E-0",
    "10E-2",
    "0.1",
    "0.0",
    "1.0",
    "-0.0",
    "1e-400",
    "123456789012345678901234567890",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "-18446744073709551617",
    "3.141592653589793238462643383279",
    "1E400",
    "5e-324",
    "2.2250738585072014e-308",
    "1.7976931348623157e308",
    "1.7976931348623159e308",
];

/// A nasty string: from a pool, punctuated, random characters or lines, or
/// a mix of pool pieces.
fn nasty_string(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => rng.pick(BOOLS_AND_NULLS).into(),
        1 | 2 => rng.pick(NUMBER_LIKE).into(),
        3 => rng.pick(DATES).into(),
        4 => rng.pick(INDICATORS).into(),
        5 => rng.pick(UNICODE).into(),
        6 => rng.pick(MULTILINE).into(),
        7 => punctuated(rng),
        8 => rng.pick(WORDS).into(),
        9 => random_chars(rng),
        10 => random_lines(rng),
        _ => {
            let mut s = String::new();
            for _ in 0..1 + rng.below(4) {
                let pool = [
                    BOOLS_AND_NULLS,
                    NUMBER_LIKE,
                    DATES,
                    INDICATORS,
                    UNICODE,
                    MULTILINE,
                ][rng.below(6)];
                s.push_str(rng.pick(pool));
            }
            s
        }
    }
}

/// A base with one or two punctuation characters anywhere (first, inside,
/// last), or punctuation alone.
fn punctuated(rng: &mut Rng) -> String {
    let punct = |rng: &mut Rng| PUNCTUATION.as_bytes()[rng.below(PUNCTUATION.len())] as char;
    if rng.chance(15) {
        return (0..1 + rng.below(3)).map(|_| punct(rng)).collect();
    }
    let mut s: Vec<char> = rng.pick(BASES).chars().collect();
    for _ in 0..1 + rng.below(2) {
        let at = match rng.below(3) {
            0 => 0,
            1 => s.len(),
            _ => rng.below(s.len() + 1),
        };
        s.insert(at, punct(rng));
    }
    s.into_iter().collect()
}

/// One to eight characters from the ranges where escaping rules change:
/// C0, DEL and C1, Latin-1, the BMP, its specials, and the astral planes.
fn random_chars(rng: &mut Rng) -> String {
    const RANGES: [(u32, u32); 9] = [
        (0x00, 0x1f),
        (0x20, 0x7f),
        (0x80, 0xff),
        (0x100, 0xd7ff),
        (0xe000, 0xffff),
        (0x1_0000, 0x1_ffff),
        (0x2_0000, 0x3_ffff),
        (0xe_0000, 0xe_0fff),
        (0xf_0000, 0x10_ffff),
    ];
    (0..1 + rng.below(8))
        .map(|_| {
            let (from, to) = RANGES[rng.below(RANGES.len())];
            rng.char_in(from, to)
        })
        .collect()
}

/// Lines that start and end with white space (literal or written as an
/// escape), blank lines, CR before LF, and zero to two final line feeds.
fn random_lines(rng: &mut Rng) -> String {
    const STARTS: &[&str] = &[
        "", "", " ", "  ", "\t", " \t", "\r", "\u{b}", "\u{c}", "\u{85}", "\u{a0}", "\u{1680}",
        "\u{2000}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{feff}", "\u{200b}", "\\", "\"", "#",
        "- ", "---", "...",
    ];
    const ENDS: &[&str] = &["", "", " ", "\t", "\r", "\\", " \\"];
    let mut s = String::new();
    for i in 0..2 + rng.below(4) {
        if i > 0 {
            s.push('\n');
        }
        if rng.chance(15) {
            continue; // a blank line
        }
        s.push_str(rng.pick(STARTS));
        s.push_str(rng.pick(&["a", "text", "1", "yes", "日本", "a: b"]));
        s.push_str(rng.pick(ENDS));
    }
    for _ in 0..rng.below(3) {
        s.push('\n');
    }
    s
}

/// A key of about 1,024 bytes as kyaml writes it, YAML's limit for implicit
/// keys (some parsers count characters, some bytes): letters (a bare key),
/// or characters that take several bytes or are written as escapes.
fn long_key(rng: &mut Rng) -> String {
    // Each unit, and the bytes it takes in the output.
    const UNITS: [(&str, usize); 6] = [
        ("k", 1),
        ("é", 2),
        ("日", 3),
        ("\u{1}", 4),
        ("😀", 4),
        ("a b", 3),
    ];
    let (unit, bytes) = UNITS[rng.below(UNITS.len())];
    let written = 990 + rng.below(70);
    unit.repeat(written / bytes)
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
            '\u{8}' if rng.chance(50) => out.push_str("\\b"),
            '\u{c}' if rng.chance(50) => out.push_str("\\f"),
            '/' if rng.chance(50) => out.push_str("\\/"),
            c if (c as u32) < 0x20 || rng.chance(10) => write_unicode_escape(out, c, rng),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `\uXXXX` (a surrogate pair above the BMP), hex digits in either case.
fn write_unicode_escape(out: &mut String, c: char, rng: &mut Rng) {
    let upper = rng.chance(30);
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        let _ = match upper {
            true => write!(out, "\\u{unit:04X}"),
            false => write!(out, "\\u{unit:04x}"),
        };
    }
}

/// A JSON number: from the pool, or built from random parts (an integer
/// part of up to 30 digits, a fraction, an exponent in any notation).
fn write_number(out: &mut String, rng: &mut Rng) {
    if rng.chance(60) {
        out.push_str(rng.pick(NUMBERS));
        return;
    }
    if rng.chance(30) {
        out.push('-');
    }
    match rng.below(3) {
        0 => out.push('0'),
        _ => {
            out.push(char::from(b'1' + rng.below(9) as u8));
            out.push_str(&digits(rng, 0, 29));
        }
    }
    if rng.chance(40) {
        out.push('.');
        out.push_str(&digits(rng, 1, 6));
    }
    if rng.chance(50) {
        out.push_str(rng.pick(&["e", "E", "e+", "E+", "e-", "E-"]));
        out.push_str(&digits(rng, 1, 3));
    }
}

/// `min..=max` random decimal digits.
fn digits(rng: &mut Rng, min: usize, max: usize) -> String {
    let n = min + rng.below(max - min + 1);
    (0..n)
        .map(|_| char::from(b'0' + rng.below(10) as u8))
        .collect()
}

/// Sometimes some JSON white space between tokens.
fn write_space(out: &mut String, rng: &mut Rng) {
    if rng.chance(5) {
        out.push_str(rng.pick(&[" ", "\n", "\t", "\r\n", "  \n "]));
    }
}

/// Writes a random value of at most `depth` levels.
fn write_value(out: &mut String, rng: &mut Rng, depth: usize) {
    write_space(out, rng);
    if depth == 0 || !rng.chance(45) {
        match rng.below(10) {
            0..=5 => write_string(out, &nasty_string(rng), rng),
            6 | 7 => write_number(out, rng),
            8 => out.push_str(rng.pick(&["true", "false"])),
            _ => out.push_str("null"),
        }
    } else {
        let len = if rng.chance(15) { 0 } else { 1 + rng.below(5) };
        match rng.chance(50) {
            true => write_list(out, rng, depth, len),
            false => write_map(out, rng, depth, len),
        }
    }
    write_space(out, rng);
}

/// A list of `len` elements: sometimes only containers (a cuddled list),
/// else containers and scalars mixed.
fn write_list(out: &mut String, rng: &mut Rng, depth: usize, len: usize) {
    let only_containers = rng.chance(40);
    out.push('[');
    for i in 0..len {
        if i > 0 {
            out.push(',');
        }
        match only_containers {
            true => write_container(out, rng, depth - 1),
            false => write_value(out, rng, depth - 1),
        }
    }
    out.push(']');
}

/// An empty or small list or map.
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

/// A map of `len` members with distinct nasty keys, rarely a long one.
fn write_map(out: &mut String, rng: &mut Rng, depth: usize, len: usize) {
    let mut keys: Vec<String> = Vec::new();
    while keys.len() < len {
        let key = match rng.chance(2) {
            true => long_key(rng),
            false => nasty_string(rng),
        };
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    out.push('{');
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_space(out, rng);
        write_string(out, key, rng);
        write_space(out, rng);
        out.push(':');
        write_value(out, rng, depth.saturating_sub(1));
    }
    out.push('}');
}

/// A chain of 10 to 50 containers around a nasty value.
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

/// One document, or (rarely) a stream of two or three, each with white
/// space before it.
fn document(rng: &mut Rng) -> String {
    let mut json = String::new();
    let count = if rng.chance(4) { 2 + rng.below(2) } else { 1 };
    for i in 0..count {
        if i > 0 {
            json.push_str(rng.pick(&["\n", " ", "\r\n", "\n\n"]));
        }
        match rng.chance(5) {
            true => write_deep(&mut json, rng),
            false => {
                let depth = 1 + rng.below(4);
                write_value(&mut json, rng, depth)
            }
        }
    }
    json
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
        let json = loop {
            let json = document(&mut rng);
            if json.len() < MAX_LEN {
                break json;
            }
        };
        let line = serde_json::json!({"id": format!("gen-{seed}-{n}"), "json": json});
        println!("{line}");
    }
}
