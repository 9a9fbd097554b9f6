//! `kyaml fmt` on raw bytes read as YAML. Never panics; whatever it
//! accepts, it writes with every comment of each document kept the same
//! number of times in that document, as a fixed point (formatting the
//! output again changes nothing), and with the data of the input (the
//! compact renderings of input and output agree).
#![no_main]

use kyaml::{Input, Options};
use libfuzzer_sys::fuzz_target;

/// The comments of each document, sorted.
fn comments(yaml: &str) -> Vec<Vec<&str>> {
    let mut docs: Vec<Vec<&str>> = Vec::new();
    for (doc, text) in kyaml::yaml_comments(yaml) {
        if docs.len() <= doc {
            docs.resize(doc + 1, Vec::new());
        }
        docs[doc].push(text);
    }
    docs.iter_mut().for_each(|d| d.sort_unstable());
    docs
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let opts = Options::new().input(Input::Yaml);
    let Ok(out) = opts.to_string(input) else {
        return;
    };
    assert_eq!(comments(&out), comments(input), "comments kept");
    assert_eq!(opts.to_string(&out).as_deref(), Ok(out.as_str()), "a fixed point");
    let compact = opts.compact(true);
    assert_eq!(compact.to_string(&out).ok(), compact.to_string(input).ok(), "same data");
});
