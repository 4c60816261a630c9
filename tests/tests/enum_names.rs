//! `#[settled(normalize)]`: enum names as models write them (issue 15, item 2).

use serde::{Deserialize, Serialize};
use settled::{ErrorKind, StreamingModel};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(rename_all = "snake_case")]
#[settled(normalize)]
enum Status {
    InProgress,
    #[serde(alias = "complete")]
    Done,
    Positive,
}

/// The same enum without the opt-in: serde decides alone.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(rename_all = "snake_case")]
enum Strict {
    InProgress,
    #[serde(alias = "complete")]
    Done,
    Positive,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Task {
    status: Status,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct StrictTask {
    status: Strict,
}

const SPELLINGS: &[(&str, Status)] = &[
    ("in_progress", Status::InProgress),
    ("In Progress", Status::InProgress),
    ("in progress", Status::InProgress),
    ("in-progress", Status::InProgress),
    ("IN_PROGRESS", Status::InProgress),
    ("InProgress", Status::InProgress),
    ("inProgress", Status::InProgress),
    ("done", Status::Done),
    ("Done", Status::Done),
    ("complete", Status::Done),
    ("COMPLETE", Status::Done),
    ("Positive", Status::Positive),
    ("POSITIVE", Status::Positive),
    (" positive ", Status::Positive),
];

#[test]
fn normalize_accepts_case_and_separator_variants_and_aliases() {
    for (written, expected) in SPELLINGS {
        let json = format!(r#"{{"status": "{written}"}}"#);
        let mut stream = Task::stream();
        let fields: Vec<TaskField> = stream.feed(json.as_bytes()).unwrap().collect();
        assert_eq!(stream.draft().status, Some(*expected), "{written}");
        assert!(
            matches!(fields.as_slice(), [TaskField::Status(s)] if s == expected),
            "{written}: {fields:?}"
        );
        assert_eq!(stream.finish().unwrap().status, *expected, "{written}");
    }
}

#[test]
fn without_normalize_the_same_inputs_fail_as_serde_fails() {
    for (written, _) in SPELLINGS {
        let json = format!(r#"{{"status": "{written}"}}"#);
        let serde = serde_json::from_str::<StrictTask>(&json);
        let mut stream = StrictTask::stream();
        let streamed = stream.feed(json.as_bytes()).map(|_| ());
        match serde {
            Ok(task) => {
                streamed.unwrap();
                assert_eq!(stream.finish().unwrap().status, task.status, "{written}");
            }
            Err(serde_error) => {
                let error = streamed.unwrap_err();
                assert_eq!(error.kind(), ErrorKind::Validation, "{written}");
                let message = serde_error.to_string();
                let variant = message.split(" at line").next().unwrap_or(&message);
                assert!(
                    error.to_string().contains(variant),
                    "{written}: {error} vs {message}"
                );
            }
        }
    }
}

#[test]
fn a_name_that_matches_no_variant_is_still_serdes_error() {
    let mut stream = Task::stream();
    let error = stream
        .feed(br#"{"status": "finished"}"#)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Validation);
    assert!(
        error.to_string().contains("unknown variant `finished`"),
        "{error}"
    );
    assert_eq!(error.path(), Some("/status"));
}

#[test]
fn normalize_does_not_match_a_symbol_only_name_to_other_symbols() {
    // A review: a variant named `==` took every string with no letter or digit (`!=`
    // settled as `==`, and so did `<` and the empty string).
    #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StreamingModel)]
    #[settled(normalize)]
    #[serde(rename_all = "snake_case")]
    enum Op {
        #[serde(rename = "==")]
        Eq,
        Ne,
        Lt,
    }
    #[derive(Debug, PartialEq, Deserialize, StreamingModel)]
    struct Filter {
        op: Op,
    }
    for v in ["!=", "<", "", "= ="] {
        let json = format!(r#"{{"op": "{v}"}}"#);
        assert!(serde_json::from_str::<Filter>(&json).is_err());
        let mut stream = Filter::stream();
        let _ = stream.feed(json.as_bytes()).map(|fields| fields.count());
        let result = stream.finish();
        assert!(result.is_err(), "{v:?} settled as {result:?}");
    }
    for (v, op) in [("==", Op::Eq), ("NE", Op::Ne)] {
        let json = format!(r#"{{"op": "{v}"}}"#);
        let mut stream = Filter::stream();
        let _ = stream.feed(json.as_bytes()).map(|fields| fields.count());
        assert_eq!(stream.finish().unwrap(), Filter { op });
    }
}

#[test]
fn normalize_keeps_symbols_beside_letters() {
    // A fifth review: `C#` and `C` settled as the variant renamed `C++`.
    #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StreamingModel)]
    #[settled(normalize)]
    enum Lang {
        #[serde(rename = "C++")]
        Cpp,
        Rust,
    }
    #[derive(Debug, PartialEq, Deserialize, StreamingModel)]
    struct Pick {
        lang: Lang,
    }
    for v in ["C#", "C"] {
        let json = format!(r#"{{"lang": "{v}"}}"#);
        let mut stream = Pick::stream();
        let _ = stream.feed(json.as_bytes()).map(|f| f.count());
        let result = stream.finish();
        assert!(result.is_err(), "{v:?} settled as {result:?}");
    }
    let mut stream = Pick::stream();
    let _ = stream.feed(br#"{"lang": "c++"}"#).map(|f| f.count());
    assert_eq!(stream.finish().unwrap(), Pick { lang: Lang::Cpp });
}
