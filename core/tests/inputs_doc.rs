//! docs/inputs.md's input tables are written from the input registry; this fails when the
//! committed file is stale. `UPDATE_DOCS=1 cargo test -p nginx-gen-core inputs_doc`
//! rewrites it.
#![allow(
    clippy::disallowed_methods,
    reason = "the test reads and, on request, writes the documentation file; core itself stays pure"
)]

use nginx_gen_core::inputs::doc;

#[test]
fn inputs_doc_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/inputs.md");
    let text = std::fs::read_to_string(path).expect("docs/inputs.md is readable");
    let fresh = doc::splice(&text).unwrap_or_else(|| {
        panic!(
            "docs/inputs.md lacks the markers\n{}\n{}",
            doc::BEGIN,
            doc::END
        )
    });
    if std::env::var_os("UPDATE_DOCS").is_some() {
        if fresh != text {
            std::fs::write(path, &fresh).expect("docs/inputs.md is writable");
        }
        return;
    }
    assert!(
        fresh == text,
        "docs/inputs.md is stale: run `UPDATE_DOCS=1 cargo test -p nginx-gen-core inputs_doc`"
    );
}
