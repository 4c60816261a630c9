//! Copies in the documentation stay the code that runs. The README's async-openai and
//! reqwest forms are `rust,ignore` blocks (the README's doctests build without the HTTP
//! stack): they must be the functions of `clients.rs` that this package compiles and
//! `tests/clients.rs` runs, between the `// README: NAME` and `// README: end` markers,
//! character for character. And `settled::serve`'s documentation shows the page's script,
//! which must be the one `server/index.html` runs (and `tests/browser.rs` checks).

const README: &str = include_str!("../../../README.md");
const CLIENTS: &str = include_str!("../clients.rs");
const SERVE_DOCS: &str = include_str!("../../../core/src/serve/mod.rs");

/// The marked regions of `clients.rs`: (name, code).
fn regions() -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    let mut rest = CLIENTS;
    while let Some(at) = rest.find("// README: ") {
        let line_end = at + rest[at..].find('\n').unwrap();
        let name = &rest[at + "// README: ".len()..line_end];
        rest = &rest[line_end + 1..];
        if name == "end" {
            continue;
        }
        let end = rest.find("// README: end").expect("a region ends");
        out.push((name, rest[..end].trim_end()));
        rest = &rest[end..];
    }
    out
}

/// The README's `rust,ignore` blocks.
fn ignored_blocks() -> Vec<&'static str> {
    README
        .split("```rust,ignore\n")
        .skip(1)
        .map(|block| block[..block.find("```").expect("a block ends")].trim_end())
        .collect()
}

#[test]
fn the_readme_shows_the_compiled_async_openai_and_reqwest_forms() {
    let regions = regions();
    let names: Vec<&str> = regions.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["async-openai", "async-openai tool call", "reqwest"]);
    let blocks = ignored_blocks();
    for (name, code) in regions.iter().filter(|(n, _)| !n.contains("tool call")) {
        assert!(
            blocks.contains(code),
            "README.md's `{name}` block differs from examples/web/clients.rs; copy it over:\n{code}"
        );
    }
    // Each in the section it belongs to.
    let section = &README[README.find("## Using it with your provider").unwrap()..];
    let section = &section[..section[3..].find("\n## ").unwrap()];
    assert!(
        section.contains("review_with_async_openai") && section.contains("review_with_reqwest")
    );
}

#[test]
fn the_serve_docs_show_the_pages_script() {
    let page = settled_web_examples::server::PAGE;
    let start = page.find("<script>\n").expect("an inline script") + "<script>\n".len();
    let script = &page[start..start + page[start..].find("</script>").unwrap()];
    // The module docs' last `js` block, without its `//! ` prefixes.
    let docs: Vec<&str> = SERVE_DOCS
        .lines()
        .take_while(|l| l.starts_with("//!") || l.starts_with("#!"))
        .map(|l| {
            l.strip_prefix("//! ")
                .unwrap_or(l.strip_prefix("//!").unwrap_or(l))
        })
        .collect();
    let open = docs
        .iter()
        .rposition(|l| *l == "```js")
        .expect("a js block");
    let close = open + docs[open..].iter().position(|l| *l == "```").unwrap();
    let shown = docs[open + 1..close].join("\n");
    assert_eq!(
        shown.trim_end(),
        script.trim_end(),
        "copy the page's script into core/src/serve/mod.rs"
    );
    // The reader the page loads is the one the docs include.
    assert!(page.contains("<script src=\"/settled.js\"></script>"));
    assert!(SERVE_DOCS.contains("#![doc = include_str!(\"client.js\")]"));
}
