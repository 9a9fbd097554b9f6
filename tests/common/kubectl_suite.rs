// yaml-test-suite cases where kubectl's reader (go-yaml v2) departs from
// YAML 1.2, each asked of the real kubectl (the case's text under a
// ConfigMap's field). One list for the parser's suite test
// (src/scan/yaml/tests.rs) and the data one (tests/yaml.rs), both of which
// `include!` this file.

/// Error cases that go-yaml v2 (kubectl's reader) reads, asked of the
/// real kubectl (each case's text under a ConfigMap's field): kyaml reads
/// them as kubectl does, with a warning (tests/kubectl_syntax.rs pins the
/// data). The issue 20 list of 14 was made with the PyYAML-based
/// `kubectl_read.py`; these are the ones kubectl reads
/// (of its list, 9HCY, EB22, MUS6/01 and RHX7 hold `%` directives, which
/// kubectl's document splitter reads differently: not done).
const ERRORS_KUBECTL_READS: &[&str] = &[
    // Flow collection lines at or left of the block indentation.
    "9C9N", "CVW2", "DK95/01", "QB6E", "Y79Y/003",
    // A comment right after a node, with no white space before `#`.
    "9JBA", "SU5Z", "X4QW",
    // `-` then `,` or `]` in a flow collection: the plain scalar `-`.
    "G5U8", "YJV2",
    // A block scalar's leading empty lines set its indentation.
    "S98Z",
    // `,` belongs to a tag in block context (`!!str,`).
    "U99R",
    // `\'` in a double-quoted scalar: go-yaml reads `'`.
    "HRE5",
];

/// Valid YAML 1.2 cases that go-yaml v2 refuses (asked of the real
/// kubectl): kyaml refuses them too, as kubectl reads only what it can.
const VALID_KUBECTL_REFUSES: &[&str] = &[
    // An implicit key in a flow collection whose `:` is on a later line.
    "4MUZ/00", "4MUZ/01", "4MUZ/02", "5MUD", "9SA2", "K3WX", "NJ66", "UT92", "VJP3/01",
    // `?` inside a plain scalar in a flow collection.
    "JR7V",
];

/// Valid YAML 1.2 cases go-yaml v2 reads as other data (asked of the real
/// kubectl; tests/kubectl_syntax.rs pins it): `?` in a flow collection is
/// always an explicit key (`[?x]` is `[{x: null}]`).
const VALID_KUBECTL_READS_OTHERWISE: &[&str] = &["652Z", "HM87/01"];

