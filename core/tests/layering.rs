//! The library's modules depend on each other one way: the data flows scanner -> sink ->
//! typed/dynamic -> stream -> provider, and no module reaches back. Checked from the
//! sources: each top-level module's `crate::…` paths (names re-exported at the root are
//! traced to the module that defines them), then the graph must have no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The text of module `name`: its file, or every file of its folder (unit tests aside).
fn module_text(name: &str) -> String {
    let dir = src().join(name);
    if dir.is_dir() {
        let mut text = String::new();
        let mut stack = vec![dir];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs")
                    && path.file_name().is_some_and(|n| n != "tests.rs")
                {
                    text.push_str(&std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        text
    } else {
        std::fs::read_to_string(src().join(format!("{name}.rs"))).unwrap()
    }
}

/// Top-level modules, and where each name re-exported at the root comes from.
fn crate_layout() -> (Vec<String>, BTreeMap<String, String>) {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut modules = Vec::new();
    let mut origin = BTreeMap::new();
    for line in lib.lines() {
        let line = line.trim();
        for prefix in ["mod ", "pub mod "] {
            if let Some(name) = line.strip_prefix(prefix) {
                let name = name.trim_end_matches(';');
                if !name.starts_with("__") {
                    modules.push(name.to_owned());
                }
            }
        }
    }
    // `pub use module::{A, B};`, possibly over several lines.
    let mut rest = lib.as_str();
    while let Some(at) = rest.find("pub use ") {
        rest = &rest[at + 8..];
        let end = rest.find(';').unwrap();
        let item = &rest[..end];
        if let Some((module, names)) = item.split_once("::") {
            let names = names.trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace());
            for name in names.split(',') {
                let name = name.trim();
                if !name.is_empty() {
                    origin.insert(name.to_owned(), module.trim().to_owned());
                }
            }
        }
    }
    (modules, origin)
}

/// The modules `text` names through `crate::` in code (doc links are not dependencies).
fn dependencies(
    text: &str,
    modules: &[String],
    origin: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let text = code.as_str();
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + 7..];
        // `crate::{a, b}` and `crate::a`.
        let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            group[..group.find('}').unwrap_or(0)].split(',').collect()
        } else {
            vec![rest]
        };
        for name in names {
            let ident: String = name
                .trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if modules.contains(&ident) {
                out.insert(ident);
            } else if let Some(module) = origin.get(&ident) {
                out.insert(module.clone());
            }
        }
    }
    out
}

#[test]
fn modules_depend_one_way() {
    let (modules, origin) = crate_layout();
    assert!(modules.len() > 8, "{modules:?}");
    let graph: BTreeMap<String, BTreeSet<String>> = modules
        .iter()
        .map(|m| {
            let mut deps = dependencies(&module_text(m), &modules, &origin);
            deps.remove(m);
            (m.clone(), deps)
        })
        .collect();
    for (m, deps) in &graph {
        eprintln!("{m} -> {deps:?}");
    }
    // No cycle: repeatedly remove modules with no remaining dependency.
    let mut left = graph.clone();
    loop {
        let free: Vec<String> = left
            .iter()
            .filter(|(_, deps)| deps.iter().all(|d| !left.contains_key(d)))
            .map(|(m, _)| m.clone())
            .collect();
        if free.is_empty() {
            break;
        }
        for m in free {
            left.remove(&m);
        }
    }
    assert!(left.is_empty(), "modules in a dependency cycle: {left:?}");
}
