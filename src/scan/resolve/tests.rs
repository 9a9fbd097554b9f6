//! The schemas' readings, numbers' spellings, keys, tags and warnings,
//! against kubectl's reading (`tests/data/plain-scalars.jsonl`) and by rule.

use super::key::*;
use super::number::*;
use super::plain::*;
use super::reading::*;
use super::tag::*;
use super::warning::*;
use super::Schema;
use serde_json::Value as Json;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use Schema::{Kubectl, Yaml12};

/// A reading as text: `null`, `true`, the written number, `"string"`,
/// or `error`.
fn read(text: &str, schema: Schema) -> String {
    match resolve_plain(text, schema) {
        Ok(Value::Null) => "null".into(),
        Ok(Value::Bool(b)) => b.to_string(),
        Ok(Value::Number(n)) => {
            let mut out = String::new();
            n.write_json(&mut out).unwrap();
            out
        }
        Ok(Value::Str(s)) => format!("{s:?}"),
        Err(_) => "error".into(),
    }
}

/// A reading by the schema's own rules alone (no fast path), the float
/// written by the full editor: the oracle of the fast paths.
fn read_by_rules(text: &str, schema: Schema) -> String {
    let value = match schema {
        Kubectl => resolve_kubectl(text),
        Yaml12 => resolve_yaml12(text),
    };
    let mut out = String::new();
    match value {
        Ok(Value::Number(Number::Float(Float::Finite(t) | Float::Json(t)))) => {
            write_float_text(&mut out, t).unwrap();
            out
        }
        Ok(Value::Number(n)) => {
            n.write_json(&mut out).unwrap();
            out
        }
        Ok(Value::Null) => "null".into(),
        Ok(Value::Bool(b)) => b.to_string(),
        Ok(Value::Str(s)) => format!("{s:?}"),
        Err(_) => "error".into(),
    }
}

/// The fast paths (a first byte no keyword or number starts with; a
/// number in JSON's canonical spelling) give what the schemas' rules
/// give, and the shortcut in `ambiguity` is right: both schemas agree
/// there. Texts: 300,000 pseudo-random strings over the bytes numbers
/// and keywords are made of, plus edge cases at the fast path's limits.
#[test]
fn fast_paths_agree_with_the_rules() {
    const BYTES: &[u8] = b"0123456789000-+.eE_xob~ynNtTa";
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut texts: Vec<String> = [
        "0",
        "-0",
        "-0.0",
        "00",
        "012",
        "123456789012345678",
        "1234567890123456789",
        "-999999999999999999",
        "9223372036854775808",
        "1.5e+99",
        "1.5e+999",
        "1.5e99",
        "1e+5",
        "0.5",
        ".5",
        "5.",
        "1234567890123456789012345678901234567.5",
        "12345678901234567890123456789012345678.5",
        "1234567890123456789012345678901234.5e+99",
        "1_000",
    ]
    .iter()
    .map(|t| t.to_string())
    .collect();
    // Every keyword of either schema, and it with a byte more.
    for word in [
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
        "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~",
        ".inf", "-.Inf", "+.INF", ".nan", ".NaN",
    ] {
        texts.extend([word.to_string(), format!("{word}s"), format!("{word}_")]);
    }
    for _ in 0..300_000 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let len = (seed >> 59) as usize % 12 + 1;
        let mut text = String::new();
        let mut bits = seed;
        for _ in 0..len {
            bits = bits.rotate_left(5) ^ 0x5851_F42D_4C95_7F2D;
            bits = bits.wrapping_mul(0x2545_F491_4F6C_DD1D);
            text.push(BYTES[(bits >> 58) as usize % BYTES.len()] as char);
        }
        texts.push(text);
    }
    let mut fast = 0;
    for text in &texts {
        let number = plain_json_number(text);
        for schema in [Kubectl, Yaml12] {
            assert_eq!(
                read(text, schema),
                read_by_rules(text, schema),
                "{text:?} {schema:?}"
            );
        }
        if number.is_some() {
            fast += 1;
            assert_eq!(read_by_rules(text, Kubectl), *text, "{text:?}");
            assert_eq!(read_by_rules(text, Yaml12), *text, "{text:?}");
        }
        if !may_be_special(text) {
            assert_eq!(read_by_rules(text, Kubectl), format!("{text:?}"));
            assert_eq!(read_by_rules(text, Yaml12), format!("{text:?}"));
        }
    }
    // The texts reach the fast path often enough to test it.
    assert!(fast > 5_000, "{fast}");
}

/// A plain key's text, or `None` when it is refused.
fn key_text(text: &str, schema: Schema) -> Option<String> {
    let k = resolve_key(text, schema).ok()?;
    let mut out = String::new();
    k.write_text(&mut out).unwrap();
    Some(out)
}

fn key(text: &str, schema: Schema) -> String {
    key_text(text, schema).unwrap_or_else(|| "error".into())
}

fn check(schema: Schema, table: &[(&str, &str)]) {
    for &(text, want) in table {
        assert_eq!(read(text, schema), want, "{text:?} under {}", schema.name());
    }
}

#[test]
fn kubectl_words() {
    check(
        Kubectl,
        &[
            ("y", "true"),
            ("Y", "true"),
            ("yes", "true"),
            ("Yes", "true"),
            ("YES", "true"),
            ("true", "true"),
            ("True", "true"),
            ("TRUE", "true"),
            ("on", "true"),
            ("On", "true"),
            ("ON", "true"),
            ("n", "false"),
            ("N", "false"),
            ("no", "false"),
            ("No", "false"),
            ("NO", "false"),
            ("false", "false"),
            ("False", "false"),
            ("FALSE", "false"),
            ("off", "false"),
            ("Off", "false"),
            ("OFF", "false"),
            ("", "null"),
            ("~", "null"),
            ("null", "null"),
            ("Null", "null"),
            ("NULL", "null"),
            ("yEs", "\"yEs\""),
            ("nULL", "\"nULL\""),
            ("t", "\"t\""),
            ("<<", "\"<<\""),
            ("inf", "\"inf\""),
            ("nan", "\"nan\""),
            (".iNf", "\".iNf\""),
        ],
    );
    for refused in [
        ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.INF", "-.inf", "-.Inf",
    ] {
        assert_eq!(
            resolve_plain(refused, Kubectl),
            Err(NOT_FINITE),
            "{refused}"
        );
    }
}

#[test]
fn kubectl_integers() {
    check(
        Kubectl,
        &[
            ("0", "0"),
            ("-0", "-0"),
            ("+0", "0"),
            ("0777", "511"),
            ("017", "15"),
            ("012", "10"),
            ("00", "0"),
            ("0o17", "15"),
            ("0O17", "15"),
            ("0x1F", "31"),
            ("0X1f", "31"),
            ("0x_1F", "31"),
            ("0b101", "5"),
            ("-0b101", "-5"),
            ("0B11", "3"),
            ("1_000", "1000"),
            ("1__0", "10"),
            ("1_", "1"),
            ("-_1", "-1"),
            ("+12", "12"),
            ("-12", "-12"),
            ("-0x10", "-16"),
            ("9223372036854775807", "9223372036854775807"),
            ("-9223372036854775808", "-9223372036854775808"),
            ("18446744073709551615", "18446744073709551615"),
            ("0xFFFFFFFFFFFFFFFF", "18446744073709551615"),
            // Past uint64, or below int64: a float, or a string.
            ("18446744073709551616", "18446744073709551616"),
            ("-9223372036854775809", "-9223372036854775809"),
            ("0x10000000000000000", "\"0x10000000000000000\""),
            (
                "0b11111111111111111111111111111111111111111111111111111111111111111",
                "\"0b11111111111111111111111111111111111111111111111111111111111111111\"",
            ),
            ("_1", "\"_1\""),
            ("0x", "\"0x\""),
            ("0o", "\"0o\""),
            ("0b", "\"0b\""),
            ("0xG", "\"0xG\""),
            ("0o8", "\"0o8\""),
            ("+", "\"+\""),
            ("-", "\"-\""),
            ("--1", "\"--1\""),
            ("1:20", "\"1:20\""),
            ("2024-01-02", "\"2024-01-02\""),
        ],
    );
    // The kind of number is kept (the text does not say).
    assert!(matches!(
        resolve_plain("08", Kubectl),
        Ok(Value::Number(Number::Float(_)))
    ));
    assert!(matches!(
        resolve_plain("0777", Kubectl),
        Ok(Value::Number(Number::Int(_)))
    ));
}

#[test]
fn kubectl_floats() {
    check(
        Kubectl,
        &[
            ("08", "8"),
            ("-08", "-8"),
            ("09.5", "9.5"),
            ("1e3", "1.0e+3"),
            ("1E3", "1.0E+3"),
            ("1e+3", "1.0e+3"),
            ("1e-3", "1.0e-3"),
            ("-1.5e-3", "-1.5e-3"),
            ("1.", "1.0"),
            ("12.", "12.0"),
            ("0.5", "0.5"),
            (".5", "0.5"),
            ("-.5", "-0.5"),
            ("+.5", "0.5"),
            ("1.5_0", "1.50"),
            (".5_5", "0.55"),
            (".5e1_0", "0.5e+10"),
            ("-0.0", "-0.0"),
            ("000.000", "0.000"),
            ("00e3", "0.0e+3"),
            ("-00.5", "-0.5"),
            ("+.5e3", "0.5e+3"),
            ("0_0_7.5", "7.5"),
            ("-_.5", "-0.5"),
            ("12.e3", "12.0e+3"),
            ("12._e3", "12.0e+3"),
            ("1_e3", "1.0e+3"),
            ("1e_+3", "1.0e+3"),
            ("1e_-3", "1.0e-3"),
            ("1e+_3", "1.0e+3"),
            ("1e_+_3", "1.0e+3"),
            ("1_000.5e1_0", "1000.5e+10"),
            ("123456789012345678901234", "123456789012345678901234"),
            ("0e99999999999999999999", "0.0e+99999999999999999999"),
            // Go's ParseFloat: `_` only between digits after a leading `.`.
            ("._5", "\"._5\""),
            (".5_", "\".5_\""),
            (".5__5", "\".5__5\""),
            (".5e_3", "\".5e_3\""),
            (".", "\".\""),
            ("..", "\"..\""),
            (".e3", "\".e3\""),
            ("1.2.3", "\"1.2.3\""),
            ("1e", "\"1e\""),
            ("3e", "\"3e\""),
            ("e3", "\"e3\""),
            ("10.0.0.1", "\"10.0.0.1\""),
            ("1e400", "\"1e400\""),
            ("-1e400", "\"-1e400\""),
            (".1e310", "\".1e310\""),
        ],
    );
}

#[test]
fn float64_range_is_exact() {
    let max = "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368";
    assert!(!past_f64(max));
    assert!(!past_f64("17976931348623158e292"));
    assert!(past_f64("17976931348623159e292"));
    assert!(past_f64(F64_OVERFLOW));
    assert!(past_f64(&format!("{F64_OVERFLOW}.000")));
    assert!(past_f64(&format!("{F64_OVERFLOW}0e-1")));
    let below = format!("{}1.9999", F64_OVERFLOW.get(..308).unwrap());
    assert_eq!(below.len(), 309 + 5);
    assert!(!past_f64(&below));
    assert!(!past_f64("0.0e999999999999999999999999"));
    assert!(past_f64("1_7_9.77e3_06"));
    assert!(!past_f64("1.79e308"));
    assert!(past_f64("1.8e308"));
    assert!(!past_f64(".00001e-9999999999999999999"));
    assert_eq!(float_value("17976931348623158e292"), f64::MAX);
    assert_eq!(float_value("-1_000.5e-1"), -100.05);
    assert_eq!(float_value(".5"), 0.5);
    assert_eq!(float_value("0.000"), 0.0);
    assert_eq!(float_value("1e-400"), 0.0);
    let long = format!("0.{}1", "0".repeat(2000));
    assert_eq!(float_value(&long), 0.0);
    // 2^-1075 (half the least subnormal), plus a little far away: rounds up.
    let half_least = "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324";
    assert_eq!(float_value(half_least), 0.0);
    assert_eq!(float_value(&format!("{half_least}1")), 0.0);
    let just_over = format!("{}1e-324", half_least.trim_end_matches("e-324"));
    assert_eq!(float_value(&just_over), f64::from_bits(1));
    let far_over = format!(
        "{}{}1e-324",
        half_least.trim_end_matches("e-324"),
        "0".repeat(1000)
    );
    assert_eq!(float_value(&far_over), f64::from_bits(1));
}

#[test]
fn yaml12_core_schema() {
    check(
        Yaml12,
        &[
            ("true", "true"),
            ("True", "true"),
            ("TRUE", "true"),
            ("false", "false"),
            ("False", "false"),
            ("FALSE", "false"),
            ("yes", "\"yes\""),
            ("on", "\"on\""),
            ("y", "\"y\""),
            ("off", "\"off\""),
            ("tRUE", "\"tRUE\""),
            ("", "null"),
            ("~", "null"),
            ("null", "null"),
            ("Null", "null"),
            ("NULL", "null"),
            ("0", "0"),
            ("-0", "-0"),
            ("+0", "0"),
            ("0777", "777"),
            ("+12", "12"),
            ("-012", "-12"),
            ("007", "7"),
            ("0o17", "15"),
            ("0x1F", "31"),
            ("0x1f", "31"),
            ("0O17", "\"0O17\""),
            ("0X1F", "\"0X1F\""),
            ("-0x1F", "\"-0x1F\""),
            ("0b101", "\"0b101\""),
            ("1_000", "\"1_000\""),
            ("0o8", "\"0o8\""),
            (
                "123456789012345678901234567890",
                "123456789012345678901234567890",
            ),
            (
                "-000123456789012345678901234567890",
                "-123456789012345678901234567890",
            ),
            (
                "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
                "340282366920938463463374607431768211455",
            ),
            ("1e3", "1.0e+3"),
            (".5", "0.5"),
            ("12.", "12.0"),
            ("-.5e-3", "-0.5e-3"),
            ("08", "8"),
            ("1e400", "1.0e+400"),
            (".inf", ".inf"),
            (".Inf", ".inf"),
            ("+.INF", ".inf"),
            ("-.inf", "-.inf"),
            ("-.Inf", "-.inf"),
            (".nan", ".nan"),
            (".NaN", ".nan"),
            (".NAN", ".nan"),
            ("-.nan", "\"-.nan\""),
            (".5_5", "\".5_5\""),
            ("1:20", "\"1:20\""),
            ("<<", "\"<<\""),
        ],
    );
    assert_eq!(
        resolve_plain("0x1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", Yaml12),
        Err(PAST_U128)
    );
}

#[test]
fn keys() {
    for (text, want) in [
        ("1", "1"),
        ("on", "true"),
        ("no", "false"),
        ("0777", "511"),
        ("-0x10", "-16"),
        ("1e3", "1000"),
        ("1e6", "1e+06"),
        ("1e-7", "1e-07"),
        ("0.1", "0.1"),
        ("1.5", "1.5"),
        ("123456", "123456"),
        ("1234567.0", "1.234567e+06"),
        ("0.0001", "0.0001"),
        ("0.00001", "1e-05"),
        ("16777217.0", "1.6777216e+07"),
        ("1e38", "1e+38"),
        ("-0.0", "-0"),
        ("0.0", "0"),
        ("3.4028235e38", "3.4028235e+38"),
        ("1e39", ".inf"),
        ("-1e39", "-.inf"),
        ("3.5e38", ".inf"),
        ("1e-46", "0"),
        ("1e-45", "1e-45"),
        ("100.", "100"),
        ("12.5", "12.5"),
        ("-3.25e2", "-325"),
        ("08", "8"),
        ("123456789012345678901234", "1.2345679e+23"),
        ("9223372036854775807", "9223372036854775807"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("9223372036854775808", "error"),
        ("18446744073709551615", "error"),
        ("~", "error"),
        ("", "error"),
        // As keys, infinity and NaN are floats like any other.
        (".inf", ".inf"),
        ("-.Inf", "-.inf"),
        ("+.INF", ".inf"),
        (".NaN", ".nan"),
        (".Nan", ".Nan"),
        ("0b+1", "1"),
        ("0b-1", "-1"),
        ("name", "name"),
        ("<<", "<<"),
    ] {
        assert_eq!(key(text, Kubectl), want, "key {text:?}");
    }
    for (text, want) in [
        ("yes", "yes"),
        ("0777", "777"),
        (".inf", ".inf"),
        ("-.inf", "-.inf"),
        (".nan", ".nan"),
        ("99999999999999999999", "error"),
        ("null", "error"),
        ("True", "true"),
        ("1e3", "1000"),
    ] {
        assert_eq!(key(text, Yaml12), want, "key {text:?} under yaml-1.2");
    }
}

#[test]
fn ambiguities() {
    let warn = |text: &str, schema: Schema| ambiguity(text, schema).map(|a| a.to_string());
    for (text, schema, want) in [
        ("yes", Kubectl, "plain scalar 'yes' is the boolean true under schema kubectl but the string \"yes\" under yaml-1.2; quote it to keep the string"),
        ("yes", Yaml12, "plain scalar 'yes' is the string \"yes\" under schema yaml-1.2 but the boolean true under kubectl; quote it to keep the string"),
        ("0777", Kubectl, "plain scalar '0777' is the integer 511 under schema kubectl but the integer 777 under yaml-1.2; write it as 511 to mean the same under both"),
        ("1_000", Kubectl, "plain scalar '1_000' is the integer 1000 under schema kubectl but the string \"1_000\" under yaml-1.2; quote it to keep the string"),
        (".inf", Yaml12, "plain scalar '.inf' is the float .inf under schema yaml-1.2 but an error under kubectl; quote it to keep the string"),
        ("1e400", Kubectl, "plain scalar '1e400' is the string \"1e400\" under schema kubectl but the float 1.0e+400 under yaml-1.2; quote it to keep the string"),
    ] {
        assert_eq!(warn(text, schema).as_deref(), Some(want));
    }
    for differ in [
        "on", "Off", "y", "N", "0b101", "0O17", "017", "0x_1F", "1__0", "12_3.5", "-0b1", "+0x1",
        ".5_5", "1e_3",
    ] {
        assert!(ambiguity(differ, Kubectl).is_some(), "{differ}");
        assert!(ambiguity(differ, Yaml12).is_some(), "{differ}");
    }
    for same in [
        "true",
        "False",
        "NULL",
        "~",
        "",
        "12",
        "+12",
        "-0",
        "0x1F",
        "0o17",
        "08",
        "-08",
        "1e3",
        ".5",
        "12.",
        "-1.5e-3",
        "99999999999999999999",
        "-9223372036854775809",
        "2024-01-02",
        "name",
        "<<",
        "0",
        "00",
        "1:20",
    ] {
        let schemas_disagree = |schema| ambiguity(same, schema).filter(|a| a.yaml11.is_none());
        assert_eq!(schemas_disagree(Kubectl), None, "{same}");
        assert_eq!(schemas_disagree(Yaml12), None, "{same}");
    }
}

/// What PyYAML 6 (YAML 1.1) reads where kubectl and YAML 1.2 agree and the
/// KYAML written reads otherwise to it: each case checked with
/// `yaml.safe_load`.
#[test]
fn yaml11_readers_disagree() {
    let yaml11 = |text: &str| ambiguity(text, Kubectl).and_then(|a| a.yaml11);
    // PyYAML: 80, 685230.15, 3723, 620, a date, a datetime, "1e3", "1.5e3".
    for (text, want) in [
        ("1:20", Yaml11::Sexagesimal),
        ("190:20:30.15", Yaml11::Sexagesimal),
        ("1:2:3", Yaml11::Sexagesimal),
        ("-1:20", Yaml11::Sexagesimal),
        ("2024-01-02", Yaml11::Timestamp),
        ("2001-12-14t21:59:43.10-05:00", Yaml11::Timestamp),
        ("1e3", Yaml11::NotFloat),
        ("1.5e3", Yaml11::NotFloat),
    ] {
        assert_eq!(yaml11(text), Some(want), "{text}");
    }
    // PyYAML reads these as kubectl and YAML 1.2 do (or as KYAML's
    // spelling of them): "0:30", "08:00", "12:60", 1500.0, 0.5, 1.0, 12.
    for same in [
        "0:30", "08:00", "12:60", "1.5e+3", ".5", "1.", "12", "12.5", "true", "name",
    ] {
        assert_eq!(yaml11(same), None, "{same}");
    }
    let warning = ambiguity("1:20", Kubectl).unwrap().to_string();
    assert_eq!(
        warning,
        "plain scalar '1:20' is a base-60 number to YAML 1.1 readers such as PyYAML but the string \"1:20\" under schemas kubectl and yaml-1.2; quote it to keep the string"
    );
}

fn tagged(tag: &str, text: &str, schema: Schema) -> String {
    match resolve_tagged(TagKind::of(tag), text, schema) {
        Ok(Tagged::Value(Value::Str(s))) => format!("{s:?}"),
        Ok(Tagged::Value(_)) => read(text, schema),
        Ok(Tagged::Binary(b)) => {
            let mut out = String::new();
            b.write_text(&mut out).unwrap();
            assert_eq!(b.bytes().collect::<Vec<u8>>(), out.as_bytes());
            format!("binary {out:?}")
        }
        Err(_) => "error".into(),
    }
}

#[test]
fn tags() {
    assert_eq!(TagKind::of("!!str"), TagKind::Str);
    assert_eq!(TagKind::of("tag:yaml.org,2002:int"), TagKind::Int);
    assert_eq!(TagKind::of("!<tag:yaml.org,2002:float>"), TagKind::Float);
    assert_eq!(TagKind::of("!!bool"), TagKind::Bool);
    assert_eq!(TagKind::of("!!null"), TagKind::Null);
    assert_eq!(TagKind::of("!!timestamp"), TagKind::Timestamp);
    assert_eq!(TagKind::of("!!binary"), TagKind::Binary);
    assert_eq!(TagKind::of("!!map"), TagKind::Map);
    assert_eq!(TagKind::of("!!seq"), TagKind::Seq);
    assert_eq!(TagKind::of("!"), TagKind::NonSpecific);
    assert_eq!(TagKind::of("!foo"), TagKind::Other("!foo"));
    assert_eq!(TagKind::of("!!set"), TagKind::Other("!!set"));
    // The "explicit tags" case of yaml-data.jsonl.
    for (tag, text, want) in [
        ("!!str", "123", "\"123\""),
        ("!!int", "42", "42"),
        ("!!float", "1", "1"),
        ("!!bool", "yes", "true"),
        ("!!null", "", "null"),
        ("!!str", "on", "\"on\""),
        ("!!binary", "aGVsbG8=", "binary \"hello\""),
        ("!foo", "bar", "\"bar\""),
        ("!foo", "12", "\"12\""),
        ("!!timestamp", "2001-12-14", "\"2001-12-14\""),
        ("!", "on", "\"on\""),
        ("!!int", "abc", "error"),
        ("!!int", "1.5", "error"),
        ("!!int", "on", "error"),
        ("!!int", "", "error"),
        ("!!int", "0x1F", "31"),
        ("!!int", "99999999999999999999", "error"),
        ("!!float", "abc", "error"),
        ("!!float", "1e400", "error"),
        ("!!bool", "1", "error"),
        ("!!null", "~", "null"),
        ("!!null", "foo", "error"),
        ("!!timestamp", "foo", "error"),
        (
            "!!timestamp",
            "2001-12-14 21:59:43.10",
            "\"2001-12-14 21:59:43.10\"",
        ),
        ("!!timestamp", "2001-02-30", "error"),
        ("!!merge", "foo", "\"foo\""),
        ("!!float", ".inf", "error"),
    ] {
        assert_eq!(tagged(tag, text, Kubectl), want, "{tag} {text}");
    }
    // YAML 1.2's core schema has no `yes`: its `!!bool` refuses it.
    assert_eq!(tagged("!!bool", "yes", Yaml12), "error");
    assert_eq!(tagged("!!float", ".inf", Yaml12), ".inf");
}

#[test]
fn binary() {
    for (text, want) in [
        ("", Some("")),
        ("YQ==", Some("a")),
        ("YR==", Some("a")),
        ("YWI=", Some("ab")),
        ("YWJj", Some("abc")),
        ("aGVs\n bG8=\n", Some("hello")),
        ("aGVs\tbG8=", Some("hello")),
        ("w6k=", Some("é")),
        ("8J+YgA==", Some("😀")),
        ("YQ", None),
        ("YQ=", None),
        ("Y===", None),
        ("YQ==YQ==", None),
        ("=YQ=", None),
        ("YQ=a", None),
        ("Y", None),
        ("YWJ$", None),
        ("/w==", None),
        ("w6", None),
    ] {
        let got = Binary::new(text).ok().map(|b| {
            let mut out = String::new();
            b.write_text(&mut out).unwrap();
            out
        });
        assert_eq!(got.as_deref(), want, "{text:?}");
    }
    // Long text crosses the 64-byte buffer with characters split.
    let long: String = "é😀a".repeat(100);
    let encoded = base64(long.as_bytes());
    let mut out = String::new();
    Binary::new(&encoded).unwrap().write_text(&mut out).unwrap();
    assert_eq!(out, long);
    let mut bad = long.into_bytes();
    bad[150] = 0xFF;
    assert_eq!(Binary::new(&base64(&bad)), Err(BAD_BINARY));
}

fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, &b| n << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(DIGITS[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Our reading as JSON data (a refusal as `None`).
fn as_json(reading: Result<Value<'_>, Refusal>) -> Option<Json> {
    Some(match reading.ok()? {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(b),
        Value::Str(s) => Json::String(s.into()),
        Value::Number(n) => {
            let mut text = String::new();
            n.write_json(&mut text).unwrap();
            // Rust's own float parsing (serde_json's refuses some texts
            // near float64's limit).
            match serde_json::from_str::<Json>(&text) {
                Ok(n @ Json::Number(_)) if !n.is_f64() => n,
                _ => Json::from(text.parse::<f64>().unwrap()),
            }
        }
    })
}

/// Equal data, numbers by value.
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                // serde_json's float parsing can be one unit in the last
                // place off; the text we write has every digit of the source.
                _ => match (x.as_f64(), y.as_f64()) {
                    (Some(x), Some(y)) => (x - y).abs() <= 4e-16 * x.abs().max(y.abs()),
                    _ => false,
                },
            }
        }
        _ => a == b,
    }
}

fn data(file: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Every plain-scalar case of yaml-data.jsonl (`v: X`, `X: v`, `- X`)
/// read by the resolver alone.
#[test]
fn yaml_data_plain_scalars() {
    let (mut cases, mut passed) = (0, 0);
    for line in data("yaml-data.jsonl").lines() {
        let case: Json = serde_json::from_str(line).unwrap();
        let yaml = case["yaml"].as_str().unwrap();
        let name = case["name"].as_str().unwrap();
        let (scalar, place) = if let Some(x) = name.strip_prefix("value '") {
            (
                yaml.strip_prefix("v: ").and_then(|y| y.strip_suffix('\n')),
                x,
            )
        } else if let Some(x) = name.strip_prefix("key '") {
            (yaml.strip_suffix(": v\n"), x)
        } else if let Some(x) = name.strip_prefix("list item '") {
            (
                yaml.strip_prefix("- ").and_then(|y| y.strip_suffix('\n')),
                x,
            )
        } else {
            continue;
        };
        let scalar = scalar.unwrap_or_else(|| panic!("{name}: {yaml:?}"));
        assert_eq!(place.strip_suffix('\''), Some(scalar), "{name}");
        let want = case.get("kubectl").map(|docs| docs[0].clone());
        if scalar == "-" && !name.starts_with("key") {
            // `v: -` (a syntax error) and `- -` (a list in a list): a
            // block sequence entry, not a scalar.
            continue;
        }
        cases += 1;
        let ok = if name.starts_with("key") {
            let got = key_text(scalar, Kubectl);
            match (&want, got) {
                (Some(Json::Object(m)), Some(k)) => {
                    m.len() == 1 && m.get(&k) == Some(&Json::String("v".into()))
                }
                (None, None) => true,
                _ => false,
            }
        } else {
            let value = want.as_ref().map(|w| {
                if name.starts_with("value") {
                    w["v"].clone()
                } else {
                    w[0].clone()
                }
            });
            match (value, as_json(resolve_plain(scalar, Kubectl))) {
                (Some(w), Some(g)) => same(&w, &g),
                (None, None) => true,
                _ => false,
            }
        };
        assert!(ok, "{name}: {scalar:?} want {want:?}");
        passed += 1;
    }
    std::eprintln!("yaml-data.jsonl plain scalars: {passed}/{cases}");
    assert_eq!(cases, 297);
}

/// `read_alike`, the shortcut past the second reading, hides nothing:
/// over the 4,000 random scalars and long numbers, a scalar it skips is
/// read alike by both schemas.
#[test]
fn ambiguity_shortcut_skips_only_what_reads_alike() {
    let mut skipped = 0;
    let long = [
        "1".repeat(299),
        "9".repeat(400),
        format!("{}.5", "9".repeat(310)),
    ];
    let rows = data("plain-scalars.jsonl");
    let texts = rows
        .lines()
        .map(|line| {
            let row: Json = serde_json::from_str(line).unwrap();
            row["scalar"].as_str().unwrap().to_string()
        })
        .chain(long);
    for text in texts {
        let text = text.as_str();
        if read_alike(text) {
            let (a, b) = (resolve_plain(text, Kubectl), resolve_plain(text, Yaml12));
            let alike = match (&a, &b) {
                (Ok(x), Ok(y)) => written_alike(x, y),
                (Err(_), Err(_)) => true,
                _ => false,
            };
            assert!(alike, "{text:?}: {a:?} / {b:?}");
            skipped += 1;
        }
    }
    assert!(skipped > 800, "{skipped}");
}

/// The same 4,000 scalars as eemeli's `yaml` (YAML 1.2 core schema)
/// reads them (tools/gen_plain_scalars_yaml12.js).
#[test]
fn random_plain_scalars_agree_with_yaml12_core() {
    let (mut rows, mut agree, mut known) = (0, 0, 0);
    for line in data("plain-scalars-yaml12.jsonl").lines() {
        let row: Json = serde_json::from_str(line).unwrap();
        let scalar = row["scalar"].as_str().unwrap();
        let (kind, text) = (
            row["value"]["type"].as_str().unwrap(),
            row["value"]["text"].as_str().unwrap(),
        );
        rows += 1;
        let got = resolve_plain(scalar, Yaml12);
        let written = |n: &Number<'_>| {
            let mut out = String::new();
            n.write_json(&mut out).unwrap();
            out
        };
        let ok = match (kind, got) {
            ("null", Ok(Value::Null)) => true,
            ("bool", Ok(Value::Bool(b))) => text == b.to_string(),
            // A negative zero keeps its sign (Python's int has none).
            ("int", Ok(Value::Number(n @ Number::Int(_)))) => {
                let ours = written(&n);
                ours == text || ours == "-0" && text == "0"
            }
            ("int", Err(PAST_U128)) if text.parse::<u128>().is_err() => {
                // Our limit: octal and hexadecimal up to 128 bits.
                known += 1;
                continue;
            }
            ("float", Ok(Value::Number(Number::Float(Float::NaN)))) => text == "NaN",
            ("float", Ok(Value::Number(Number::Float(Float::Infinity { negative })))) => {
                text == if negative { "-Infinity" } else { "Infinity" }
            }
            ("float", Ok(Value::Number(n @ Number::Float(_)))) => {
                let ours: f64 = written(&n).parse().unwrap();
                if ours.is_infinite() {
                    // Past float64: we keep the text, as the JSON path does.
                    assert!(text.ends_with("Infinity"), "{scalar}");
                    known += 1;
                    continue;
                }
                ours == text.parse::<f64>().unwrap()
            }
            ("str", Ok(Value::Str(s))) => s == text,
            _ => false,
        };
        assert!(
            ok,
            "{scalar:?}: want {kind} {text}, got {:?}",
            resolve_plain(scalar, Yaml12)
        );
        agree += 1;
    }
    std::eprintln!(
        "plain-scalars-yaml12.jsonl: {rows} scalars, {agree} agree, {known} known differences"
    );
    assert_eq!(agree + known, rows);
    assert_eq!(rows, 4000);
}

/// 4,000 random plain scalars as kubectl_read.py reads them
/// (tools/gen_plain_scalars.py), as values and as keys.
#[test]
fn random_plain_scalars_agree_with_kubectl_read() {
    let (mut rows, mut values, mut keys, mut known) = (0, 0, 0, 0);
    for line in data("plain-scalars.jsonl").lines() {
        let row: Json = serde_json::from_str(line).unwrap();
        let scalar = row["scalar"].as_str().unwrap();
        rows += 1;
        let got = as_json(resolve_plain(scalar, Kubectl));
        let python_big_binary = {
            // kubectl_read.py's last try reads `0b` digits of any length;
            // go-yaml v2's stops at 64 bits and keeps the string.
            let p: String = scalar.chars().filter(|&c| c != '_').collect();
            let digits = p.strip_prefix("-").unwrap_or(&p).strip_prefix("0b");
            digits.is_some_and(|d| d.len() > 64 && d.bytes().all(|b| b == b'0' || b == b'1'))
                && go_int(scalar).is_none()
        };
        if python_big_binary {
            assert_eq!(got, Some(Json::String(scalar.into())), "{scalar}");
            known += 1;
        } else {
            match (row.get("value"), &got) {
                (Some(w), Some(g)) => {
                    assert!(same(w, g), "value {scalar:?}: want {w}, got {g}")
                }
                (None, None) => {}
                (w, g) => panic!("value {scalar:?}: want {w:?}, got {g:?}"),
            }
            values += 1;
        }
        let got = key_text(scalar, Kubectl);
        let not_finite = resolve_plain(scalar, Kubectl) == Err(NOT_FINITE);
        if row.get("key_oracle_crash").is_some() || not_finite {
            // Past float32, Go's FormatFloat writes the infinity,
            // sigs.k8s.io/yaml `.inf`; kubectl_read.py crashes on it,
            // and refuses `.inf` and `.nan` as keys, which kubectl
            // reads (tests/kubectl_scalars.rs asks the real one).
            let want = match scalar.to_ascii_lowercase().trim_start_matches('+') {
                ".nan" => ".nan",
                s if s.starts_with('-') => "-.inf",
                _ => ".inf",
            };
            assert_eq!(got.as_deref(), Some(want), "key {scalar:?}");
            known += 1;
        } else if scalar == "<<" {
            // A merge key: the caller's (kubectl_read.py wants a map after it).
            assert_eq!(got.as_deref(), Some("<<"));
            known += 1;
        } else if python_big_binary {
            assert_eq!(got.as_deref(), Some(scalar));
            known += 1;
        } else {
            assert_eq!(
                got.as_deref(),
                row.get("key").map(|k| k.as_str().unwrap()),
                "key {scalar:?}"
            );
            keys += 1;
        }
    }
    std::eprintln!(
        "plain-scalars.jsonl: {rows} scalars, values agree {values}, keys agree {keys}, {known} known oracle differences"
    );
    assert_eq!(rows, 4000);
    assert_eq!(values + keys + known, 2 * rows);
}

/// Resolves a plain key under `schema` and turns it into key text
/// (`1` → "1", `on` → "true" under kubectl, `1e3` → "1000"). A null key and
/// an integer key past int64 are refused, as kubectl refuses them.
fn resolve_key(text: &str, schema: Schema) -> Result<Key<'_>, Refusal> {
    plain_key(text, resolve_plain(text, schema))
}

/// Whether the two schemas read the plain scalar `text` differently, that
/// is, whether the output under one would differ from the output under the
/// other (`08` is the float 8 to kubectl and the integer 8 to YAML 1.2,
/// both written `8`: no difference).
fn ambiguity(text: &str, schema: Schema) -> Option<Ambiguity<'_>> {
    resolve_plain_warned(text, schema).1
}
