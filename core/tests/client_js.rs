//! The page script `settled::serve::CLIENT_JS` (core/src/serve/client.js), run in Node
//! against scripted responses (tests/client_js.mjs): every SSE line ending, a body split
//! at every byte, and a failure that must cancel the response. Without `node` on PATH the
//! test says it was skipped and passes (the browser test runs the script too).

use std::path::Path;
use std::process::Command;

#[test]
fn the_page_script_reads_every_line_ending_and_cancels_on_failure() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = Command::new("node")
        .arg(here.join("tests/client_js.mjs"))
        .arg(here.join("src/serve/client.js"))
        .output();
    let output = match run {
        Ok(output) => output,
        Err(e) => {
            eprintln!("client.js test skipped: cannot run `node` ({e})");
            return;
        }
    };
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("the harness prints one JSON line");
    let expected = serde_json::json!([[
        ["draft", {"a": 1}],
        ["field", {"field": "a", "value": 1}],
        ["done", {"a": 2}]
    ]]);
    assert_eq!(report["seen"], expected, "the same events at every split");
    assert_eq!(report["rejected"], "SyntaxError");
    assert_eq!(report["cancelled"], true, "a failure cancels the response");
}
