//! The diff's own tests: rendering, hunks, words, colour.

use super::hunks::{common_prefix, common_suffix, lines_back, split_lines};
use super::words::words;
use super::*;
use alloc::string::ToString;
use alloc::vec::Vec;

#[test]
fn equal_renderings_write_nothing() {
    assert_eq!(Diff::new("[1,2]", " [ 1 , 2 ] ").to_string(), "");
    assert_eq!(Diff::new("x", "x").to_string(), "");
}

#[test]
fn invalid_input_shows_as_dump_does_and_never_hides_the_other_side() {
    let diff = Diff::new("{\"a\": tru}", "{\"a\": true}").to_string();
    assert_eq!(
        diff,
        "--- left\n+++ right\n@@ -1 +1,3 @@\n-\"{\\\"a\\\": tru}\" # invalid JSON: expected `true` at line 1, column 10\n+{\n+  a: true,\n+}\n"
    );
    let bytes: &[u8] = b"[\"\xff\"]";
    let diff = Diff::new(bytes, "[]").to_string();
    assert!(
        diff.contains("-\"[\\\"\u{fffd}\\\"]\" # invalid JSON: "),
        "{diff}"
    );
    assert!(diff.contains("+[]"), "{diff}");
}

#[test]
fn invisible_differences_show_escaped() {
    // `\r\n` against `\n`, and a no-break space against a space.
    let diff = Diff::new(r#"["a\r\nb", "x y"]"#, r#"["a\nb", "x\u00a0y"]"#).to_string();
    assert_eq!(
        diff,
        "--- left\n+++ right\n@@ -1,7 +1,7 @@ [0]\n [\n   \"\\\n-     a\\r\\n\\\n+     a\\n\\\n      b\\\n     \",\n-  \"x y\",\n+  \"x\\_y\",\n ]\n"
    );
}

#[test]
fn hunks_merge_within_two_contexts_and_split_beyond() {
    let old: Vec<String> = (0..20).map(|i| i.to_string()).collect();
    let mut new = old.clone();
    new[2] = "-2".into();
    new[8] = "-8".into(); // 5 equal lines apart: one hunk with context 3
    new[18] = "-18".into(); // 9 apart: a second hunk
    let (old, new) = (
        alloc::format!("[{}]", old.join(",")),
        alloc::format!("[{}]", new.join(",")),
    );
    let text = Diff::new(&old, &new).to_string();
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("@@")).collect();
    assert_eq!(headers, ["@@ -1,13 +1,13 @@ [2]", "@@ -17,6 +17,6 @@ [18]"]);
}

#[test]
fn a_missing_final_line_feed_is_a_difference_and_is_marked() {
    let diff = LineDiff::new("a\nb\n", "a\nb").to_string();
    assert_eq!(
        diff,
        "--- left\n+++ right\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"
    );
    let diff = LineDiff::new("x\ny", "x\nz").context(0).to_string();
    assert_eq!(
        diff,
        "--- left\n+++ right\n@@ -2 +2 @@\n-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file\n"
    );
    // The value form's renderings never end in a line feed: no marker.
    assert_eq!(
        Diff::new("1", "2").to_string(),
        "--- left\n+++ right\n@@ -1 +1 @@\n-1\n+2\n"
    );
}

#[test]
fn word_splitting() {
    let line = "  image: \"nginx:1.25\",";
    let words: Vec<&str> = words(line).into_iter().map(|(s, e)| &line[s..e]).collect();
    assert_eq!(
        words,
        ["  ", "image", ":", " ", "\"", "nginx", ":", "1", ".", "25", "\"", ","]
    );
}

#[test]
fn line_helpers() {
    assert_eq!(split_lines("a\nb\n").collect::<Vec<_>>(), ["a\n", "b\n"]);
    assert_eq!(
        split_lines("a\n\nb").collect::<Vec<_>>(),
        ["a\n", "\n", "b"]
    );
    assert_eq!(split_lines("").count(), 0);
    assert_eq!(split_lines("\n").collect::<Vec<_>>(), ["\n"]);
    assert_eq!(lines_back("a\nb\nc\n", 2), 2);
    assert_eq!(lines_back("a\nb\n", 5), 0);
    let long: Vec<u8> = (0..1000).map(|i| (i % 7) as u8).collect();
    let mut other = long.clone();
    other[700] = 9;
    assert_eq!(common_prefix(&long, &other), 700);
    assert_eq!(common_suffix(&long, &other), 299);
    assert_eq!(common_suffix(&long[..10], &long), 0);
}

#[test]
fn a_tab_and_other_invisible_characters_show_escaped_in_the_value_form() {
    // KYAML writes a TAB raw in a folded string's lines and in comments;
    // a comment may hold any character that prints nothing.
    let (old, new) = (
        "s: \"a\\tb\\nc\\n\" #\tx\u{200b}\n",
        "s: \"a b\\nc\\n\" # x\n",
    );
    let diff = Diff::new(old, new).input(Input::Yaml).context(0);
    assert_eq!(
        diff.to_string(),
        "--- left\n+++ right\n@@ -3 +3 @@ s\n-     a\\tb\\n\\\n+     a b\\n\\\n@@ -5 +5 @@ s\n-    \", #\\tx\\u200b\n+    \", # x\n"
    );
    let colored = diff.color(true).to_string();
    assert!(colored.contains("a\x1b[7m\\t\x1b[27mb"), "{colored:?}");
    assert!(!colored.contains('\t'), "{colored:?}");
    // The document form is a patch of `kyaml`'s output: its own bytes.
    let patch = diff.form(Form::Document).to_string();
    assert!(patch.contains("-     a\tb\\n\\\n"), "{patch:?}");
}
