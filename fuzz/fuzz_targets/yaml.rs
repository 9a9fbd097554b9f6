//! YAML input, raw bytes in, under both schemas. Never panics (nor hangs:
//! the reader is linear, aliases stop at the expansion limit);
//! deterministic; every entry point (`to_string` in one pass, `to_writer`
//! checked then written, `to_fmt` through the stack buffer or the fixed
//! store) writes the same output or fails with the same error, in both
//! layouts; and what it writes, read again as YAML under the same schema,
//! is written the same (KYAML is a fixed point: the data re-reads as
//! itself, comments and all). The warnings of a writing are those the
//! reader notes alone (`Options::warnings`). Read from an `io::Read` in
//! pieces (`transcode`, which frames each document as it arrives and
//! reads it alone), it writes what `to_writer` writes, or fails with the
//! same error after the same documents.
#![no_main]

use kyaml::{Error, Input, Options, Schema};
use libfuzzer_sys::fuzz_target;

#[path = "../common/pieces.rs"]
mod pieces;

fn entry_points(data: &[u8], opts: Options) -> Result<String, Error> {
    let string = opts.to_string(data);
    assert_eq!(string, opts.to_string(data), "deterministic");
    let mut fmt = String::new();
    let fmt_result = opts.to_fmt(&mut fmt, data);
    let mut writer = Vec::new();
    let writer_result = opts.to_writer(&mut writer, data);
    let writer = String::from_utf8(writer).expect("UTF-8 output");
    match &string {
        Ok(out) => {
            assert_eq!(fmt_result, Ok(()));
            assert!(writer_result.is_ok());
            assert_eq!((&fmt, &writer), (out, out));
        }
        Err(e) => {
            assert_eq!(fmt_result, Err(e.clone()));
            let io = writer_result.expect_err("to_writer fails too");
            let inner = io.get_ref().and_then(|i| i.downcast_ref::<Error>());
            assert_eq!(inner, Some(e));
            // The same documents before the bad one.
            assert_eq!(fmt, writer);
        }
    }
    string
}

fn check_stream(data: &[u8], opts: Options) {
    let mut whole = Vec::new();
    let error = opts.to_writer(&mut whole, data).err().map(|e| {
        *e.into_inner()
            .and_then(|e| e.downcast::<Error>().ok())
            .expect("to_writer's error is ours")
    });
    let (streamed, out) = pieces::transcoded(data, opts);
    assert_eq!(streamed, error, "transcode and to_writer disagree");
    assert_eq!(
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&whole),
        "transcode and to_writer wrote different documents"
    );
}

fuzz_target!(|data: &[u8]| {
    for schema in [Schema::Kubectl, Schema::Yaml12] {
        for compact in [false, true] {
            let opts = Options::new()
                .input(Input::Yaml)
                .schema(schema)
                .compact(compact);
            let result = entry_points(data, opts);
            check_stream(data, opts);
            let mut warned = Vec::new();
            let _ = opts.to_writer_with_warnings(std::io::sink(), data, &mut warned);
            assert_eq!(warned, opts.warnings(data), "warnings");
            if let Ok(out) = result {
                let again = opts.to_string(&out);
                assert_eq!(again.as_deref(), Ok(out.as_str()), "fixed point");
            }
        }
    }
});
