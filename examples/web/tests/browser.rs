//! The page in a real browser: headless Chromium loads it from a server on 127.0.0.1 (an
//! ephemeral port), a stream runs, and the DOM is checked at every moment it changed.
//!
//! The server puts a harness first into the page (`tests/browser/harness.js`): it clicks
//! the button as a user would, records what the page shows after every DOM change (each
//! field's state and text, the status line, the button, the requests and their aborts)
//! and writes that history into the DOM; an image held by the server until the harness is
//! done keeps the page loading, so that `chromium --dump-dom` prints the page with the
//! history once the stream is over. The last test's page starts itself
//! (`/?autostart&pace=…`). A screenshot of the finished page is saved under the target
//! directory (`target/tmp/browser/review.png`).
//!
//! Without Chromium (`chromium` or `chromium-browser` on PATH, or `SETTLED_CHROMIUM`) each
//! test says it was skipped and why, and passes; with `SETTLED_REQUIRE_BROWSER=1` (set by
//! `.ci/browser`) a missing browser fails instead.
//!
//! `SETTLED_PAGE=FILE` serves another page in place of `server/index.html`: with the page
//! of commit 6c8e6c4 (`git show 6c8e6c4:examples/web/server/index.html`) every test below
//! fails, each on the bug it is named after.

use axum::Router;
use axum::response::sse::{Event, Sse};
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

const FIELDS: [&str; 3] = ["verdict", "reasons", "score"];
/// The server's pause per token: under a second for the recorded review.
const PACE: Duration = Duration::from_millis(5);

#[derive(Debug, Clone, Deserialize)]
struct Snapshot {
    t: u64,
    note: String,
    fields: BTreeMap<String, Option<FieldView>>,
    status: String,
    button: Option<ButtonView>,
    requests: Vec<RequestView>,
    legend: Vec<LegendView>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct FieldView {
    state: String,
    /// A string, or the list's items for `reasons`.
    text: Value,
    /// The computed colour of its border.
    colour: String,
}

#[derive(Debug, Clone, Deserialize)]
struct LegendView {
    state: String,
    text: String,
    colour: String,
}

#[derive(Debug, Clone, Deserialize)]
struct ButtonView {
    text: String,
    disabled: bool,
}

#[derive(Debug, Clone, Deserialize)]
struct RequestView {
    url: String,
    aborted: bool,
}

impl Snapshot {
    fn field(&self, name: &str) -> FieldView {
        self.fields[name].clone().expect("the page has the field")
    }

    fn shows_text(&self) -> bool {
        FIELDS.iter().any(|f| !empty(&self.field(f).text))
    }

    fn status_is(&self, word: &str) -> bool {
        self.status.to_lowercase().starts_with(word)
    }
}

fn empty(text: &Value) -> bool {
    match text {
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => true,
    }
}

fn rank(state: &str) -> u8 {
    match state {
        "pending" => 0,
        "streaming" => 1,
        _ => 2,
    }
}

/// `after` shows `before` and maybe more: strings extend, lists extend item by item.
fn extends(before: &Value, after: &Value) -> bool {
    match (before, after) {
        (Value::String(b), Value::String(a)) => a.starts_with(b.as_str()),
        (Value::Array(b), Value::Array(a)) => {
            a.len() >= b.len() && b.iter().zip(a).all(|(b, a)| extends(b, a))
        }
        _ => before == after,
    }
}

/// Each field's state only moves forward, and its text only extends.
fn assert_forward(history: &[Snapshot]) {
    for pair in history.windows(2) {
        for name in FIELDS {
            let (before, after) = (pair[0].field(name), pair[1].field(name));
            assert!(
                rank(&after.state) >= rank(&before.state),
                "`{name}` went back from {} to {} at {} ms ({}): {before:?} then {after:?}",
                before.state,
                after.state,
                pair[1].t,
                pair[1].note
            );
            assert!(
                extends(&before.text, &after.text),
                "`{name}`'s text went back at {} ms: {before:?} then {after:?}",
                pair[1].t
            );
        }
    }
}

/// The page shows `value` (the `done` event's), every field settled.
fn assert_final(snapshot: &Snapshot, value: &Value) {
    for name in FIELDS {
        let field = snapshot.field(name);
        assert_eq!(field.state, "settled", "`{name}` at the end: {snapshot:?}");
        let shown = match &value[name] {
            Value::Array(items) => Value::Array(items.clone()),
            Value::String(s) => json!(s),
            other => json!(other.to_string()),
        };
        assert_eq!(field.text, shown, "`{name}` shows the final value");
    }
    assert!(snapshot.status_is("done"), "{snapshot:?}");
}

/// The recorded review, as its `done` event carries it.
fn final_review() -> Value {
    let text = settled_examples::REVIEW_RESPONSE;
    serde_json::from_str(&text[text.find('{').unwrap()..=text.rfind('}').unwrap()]).unwrap()
}

// --- the browser -----------------------------------------------------------------------

fn chromium() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("SETTLED_CHROMIUM") {
        return Ok(path.into());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            if dir.join(name).is_file() {
                return Ok(dir.join(name));
            }
        }
    }
    Err(
        "no `chromium` or `chromium-browser` on PATH (Debian: `apt-get install chromium`; \
         `.ci/browser` installs it)"
            .into(),
    )
}

/// The browser, or `None` after saying on the terminal why `test` is skipped.
fn browser(test: &str) -> Option<PathBuf> {
    match chromium() {
        Ok(path) => Some(path),
        Err(why) if std::env::var("SETTLED_REQUIRE_BROWSER").as_deref() == Ok("1") => {
            panic!("{test}: {why}, and SETTLED_REQUIRE_BROWSER=1 requires a browser")
        }
        Err(why) => {
            // Straight to stderr, past the test harness's capture of `eprintln!`.
            let _ = writeln!(
                std::io::stderr(),
                "browser test `{test}` skipped: {why}; set SETTLED_REQUIRE_BROWSER=1 to make this a failure"
            );
            None
        }
    }
}

/// One Chromium at a time: the machine is small, and the pacing is part of the tests.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

/// Loads `url`, waits for the page's load event (which the harness holds until it is
/// done), and returns the DOM; saves a screenshot to `screenshot` too.
fn dump_dom(browser: &Path, url: &str, screenshot: Option<&Path>) -> String {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let profile = std::env::temp_dir().join(format!(
        "settled-chromium-{}-{}",
        std::process::id(),
        url.len() + url.bytes().map(usize::from).sum::<usize>()
    ));
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=800,700",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()));
    if let Some(path) = screenshot {
        command.arg(format!("--screenshot={}", path.display()));
    }
    let mut child = command
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", browser.display()));
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + Duration::from_secs(90);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish in time: {url}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    let _ = std::fs::remove_dir_all(&profile);
    assert!(status.success(), "chromium failed ({status}): {stderr}");
    assert!(stdout.contains("</html>"), "no DOM from chromium: {stderr}");
    stdout
}

/// The harness's history in a dumped DOM.
fn history(dom: &str) -> (String, Vec<Snapshot>) {
    let start = dom
        .find("<pre id=\"harness-history\"")
        .unwrap_or_else(|| panic!("no history in the page: {dom}"));
    let open = start + dom[start..].find('>').unwrap() + 1;
    let reason = dom[start..open]
        .split("data-reason=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_default()
        .to_string();
    let close = open + dom[open..].find("</pre>").unwrap();
    let json = dom[open..close]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&");
    (reason, serde_json::from_str(&json).unwrap())
}

// --- the server --------------------------------------------------------------------------

/// The page with the harness first in its head, and the image that holds its load event.
fn page() -> String {
    let page = match std::env::var_os("SETTLED_PAGE") {
        Some(path) => std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("SETTLED_PAGE={}: {e}", path.to_string_lossy())),
        None => settled_web_examples::server::PAGE.to_string(),
    };
    page.replacen("<head>", "<head><script src=\"/__harness.js\"></script>", 1)
        .replacen("</body>", "<img src=\"/__hold\" alt=\"\" hidden></body>", 1)
}

/// Serves the page, the harness and its hold on 127.0.0.1, and `review` (`POST /review`,
/// `/settled.js`).
async fn serve(review: Router) -> SocketAddr {
    let released = Arc::new(Notify::new());
    let hold = Arc::clone(&released);
    let page = page();
    let app = Router::new()
        .route("/", get(move || async move { Html(page) }))
        .route(
            "/__harness.js",
            get(|| async {
                (
                    [("content-type", "text/javascript")],
                    include_str!("browser/harness.js"),
                )
            }),
        )
        .route(
            "/__hold",
            get(move || async move {
                let _ = tokio::time::timeout(Duration::from_secs(60), hold.notified()).await;
                axum::http::StatusCode::NO_CONTENT
            }),
        )
        .route(
            "/__release",
            post(move || async move {
                released.notify_one();
                axum::http::StatusCode::NO_CONTENT
            }),
        )
        .merge(review);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// The example's own `POST /review`: the recorded review, paced.
fn real_review() -> Router {
    settled_web_examples::server::api(PACE, settled::serve::KEEP_ALIVE)
}

/// A `POST /review` that sends `script`: (pause in ms, event, data).
fn scripted(script: Vec<(u64, &'static str, Value)>) -> Router {
    let events = move || {
        let script = script.clone();
        async move {
            let events = futures::stream::iter(script).then(|(pause, name, data)| async move {
                tokio::time::sleep(Duration::from_millis(pause)).await;
                Ok::<_, Infallible>(Event::default().event(name).data(data.to_string()))
            });
            Sse::new(events).into_response()
        }
    };
    Router::new()
        .route("/settled.js", get(|| async { settled::serve::client_js() }))
        .route("/review", post(events))
}

use futures::StreamExt;

/// Runs the page at `query` against `review` in Chromium: the history, and the DOM.
async fn run(
    browser: PathBuf,
    review: Router,
    query: &str,
    shot: Option<PathBuf>,
) -> (Vec<Snapshot>, String) {
    let addr = serve(review).await;
    let url = format!("http://{addr}/{query}");
    let dom = tokio::task::spawn_blocking(move || dump_dom(&browser, &url, shot.as_deref()))
        .await
        .unwrap();
    let (reason, history) = history(&dom);
    assert!(!history.is_empty());
    assert_ne!(
        reason, "timeout",
        "the page never said done or error: {history:#?}"
    );
    (history, dom)
}

// --- the tests ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_fills_in_live_and_field_states_only_move_forward() {
    let Some(browser) = browser("the_page_fills_in_live_and_field_states_only_move_forward") else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join("review.png");
    let _ = std::fs::remove_file(&shot);
    let (history, dom) = run(browser, real_review(), "?harness=click", Some(shot.clone())).await;
    let review = final_review();

    assert_eq!(history.last().unwrap().requests.len(), 1);
    // Several moments: the reasons were seen at many lengths, one of them mid-string
    // while the stream was still running.
    let end = history
        .iter()
        .position(|s| s.status_is("done"))
        .expect("done");
    let reasons: Vec<Value> = history[..end]
        .iter()
        .map(|s| s.field("reasons").text)
        .collect();
    let distinct: std::collections::BTreeSet<String> =
        reasons.iter().map(Value::to_string).collect();
    assert!(
        distinct.len() > 10,
        "reasons seen at {} moments",
        distinct.len()
    );
    let final_first = review["reasons"][0].as_str().unwrap();
    assert!(
        history[..end].iter().any(|s| {
            let field = s.field("reasons");
            field.state == "streaming"
                && field.text[0]
                    .as_str()
                    .is_some_and(|t| !t.is_empty() && t.len() < final_first.len())
        }),
        "a reason shows streaming text before the stream ends"
    );
    assert_forward(&history);
    assert_final(history.last().unwrap(), &review);
    // The DOM itself, as dumped, shows the value.
    assert!(dom.contains("Unicode survives: naïve café, 漢字, and 🚀"));

    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 2000,
        "{}",
        shot.display()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_request_aborts_the_first_and_resets_the_page() {
    let Some(browser) = browser("a_second_request_aborts_the_first_and_resets_the_page") else {
        return;
    };
    let (history, _) = run(browser, real_review(), "?harness=twice", None).await;
    let initial = history[0].button.clone().expect("a button").text;

    let second = history
        .iter()
        .position(|s| s.requests.len() == 2)
        .expect("a second request");
    assert!(
        history[second - 1].shows_text(),
        "the second request came mid-stream"
    );
    assert!(
        history[second].requests[0].aborted,
        "the first request is aborted when the second starts: {:#?}",
        &history[second - 1..=second]
    );
    for name in FIELDS {
        let field = history[second].field(name);
        assert!(
            field.state == "pending" && empty(&field.text),
            "`{name}` is reset: {field:?}"
        );
    }
    // From then on, one stream: forward only, done once, at the end, with its value.
    let after = &history[second..];
    assert_forward(after);
    let done = after
        .iter()
        .position(|s| s.status_is("done"))
        .expect("done");
    for snapshot in &after[done..] {
        assert_final(snapshot, &final_review());
    }
    // The button says it restarts while a request runs, and is itself again after.
    let running: Vec<&Snapshot> = history
        .iter()
        .filter(|s| !s.requests.is_empty() && !s.status_is("done"))
        .collect();
    assert!(
        running.iter().all(|s| {
            let button = s.button.as_ref().unwrap();
            button.text != initial || button.disabled
        }),
        "the button is relabelled (or disabled) while streaming"
    );
    assert_eq!(
        history.last().unwrap().button.as_ref().unwrap().text,
        initial
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_final_value_comes_from_done() {
    let Some(browser) = browser("the_final_value_comes_from_done") else {
        return;
    };
    // Drafts stop early (a server may send them at most every so often); `done` has all.
    let done = json!({"verdict": "ship", "reasons": ["Fast", "Small"], "score": 9});
    let script = vec![
        (20, "draft", json!({"verdict": "ship"})),
        (20, "field", json!({"field": "verdict", "value": "ship"})),
        (20, "draft", json!({"verdict": "ship", "reasons": ["Fa"]})),
        (20, "done", done.clone()),
    ];
    let (history, _) = run(browser, scripted(script), "?harness=click", None).await;
    assert_forward(&history);
    assert_final(history.last().unwrap(), &done);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_shows_the_error_and_keeps_the_last_draft() {
    let Some(browser) = browser("an_error_shows_the_error_and_keeps_the_last_draft") else {
        return;
    };
    let message = "the input was cut short (`length`) before the value was complete";
    let script = vec![
        (20, "draft", json!({"verdict": "ship"})),
        (20, "field", json!({"field": "verdict", "value": "ship"})),
        (20, "draft", json!({"verdict": "ship", "reasons": ["Fa"]})),
        (
            20,
            "error",
            json!({"kind": "truncated", "message": message,
                   "draft": {"verdict": "ship", "reasons": ["Fast", "Sm"]},
                   "missing": ["reasons", "score"]}),
        ),
    ];
    let (history, _) = run(browser, scripted(script), "?harness=click", None).await;
    assert_forward(&history);
    let end = history.last().unwrap();
    assert!(
        end.status_is("error") && end.status.contains(message),
        "{}",
        end.status
    );
    let shown = |name: &str| {
        let field = end.field(name);
        (field.state, field.text)
    };
    assert_eq!(shown("verdict"), ("settled".into(), json!("ship")));
    assert_eq!(
        shown("reasons"),
        ("streaming".into(), json!(["Fast", "Sm"])),
        "the error's draft"
    );
    assert_eq!(shown("score"), ("pending".into(), json!("")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_is_thinking_until_the_value_begins() {
    let Some(browser) = browser("the_model_is_thinking_until_the_value_begins") else {
        return;
    };
    // A preamble: nothing for 300 ms, then the value.
    let script = vec![
        (300, "draft", json!({"verdict": "ship"})),
        (20, "field", json!({"field": "verdict", "value": "ship"})),
        (
            20,
            "done",
            json!({"verdict": "ship", "reasons": [], "score": 1}),
        ),
    ];
    let (history, _) = run(browser, scripted(script), "?harness=click", None).await;
    let thinking = |s: &Snapshot| s.status.to_lowercase().contains("thinking");
    assert!(
        history
            .iter()
            .any(|s| !s.requests.is_empty() && !s.shows_text() && thinking(s)),
        "a visible \"thinking\" status before the value begins: {history:#?}"
    );
    assert!(
        history
            .iter()
            .filter(|s| s.shows_text())
            .all(|s| !thinking(s)),
        "no \"thinking\" once the value began"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_colours_have_a_legend() {
    let Some(browser) = browser("the_colours_have_a_legend") else {
        return;
    };
    let (history, _) = run(browser, real_review(), "?harness=click", None).await;
    let legend = &history.last().unwrap().legend;
    let states: Vec<&str> = legend.iter().map(|l| l.state.as_str()).collect();
    assert_eq!(
        states,
        ["pending", "streaming", "settled"],
        "a legend entry per state"
    );
    for entry in legend {
        assert!(entry.text.starts_with(&entry.state), "{entry:?}");
        // In the colour the fields have in that state.
        let field = history
            .iter()
            .flat_map(|s| FIELDS.map(|f| s.field(f)))
            .find(|f| f.state == entry.state)
            .unwrap_or_else(|| panic!("no field was ever {}", entry.state));
        assert_eq!(entry.colour, field.colour, "{entry:?}");
    }
    let colours: std::collections::BTreeSet<&str> =
        legend.iter().map(|l| l.colour.as_str()).collect();
    assert_eq!(colours.len(), 3, "three colours: {legend:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_starts_itself_from_its_query() {
    let Some(browser) = browser("the_page_starts_itself_from_its_query") else {
        return;
    };
    let (history, _) = run(
        browser,
        real_review(),
        "?autostart&pace=3&harness=none",
        None,
    )
    .await;
    let requests = &history.last().unwrap().requests;
    assert_eq!(requests.len(), 1);
    assert!(
        requests[0].url.ends_with("/review?pace=3"),
        "{}",
        requests[0].url
    );
    assert_forward(&history);
    assert_final(history.last().unwrap(), &final_review());
}
