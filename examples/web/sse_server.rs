//! A web page that fills a review in live: `POST /review` replays a recorded model stream
//! through `Review::stream()` and answers with `settled::serve::sse` (server-sent events
//! `draft`, `field`, `done`, `error`); `/` serves the page.
//!
//! ```sh
//! cargo run -p settled-web-examples --example sse_server     # then open http://127.0.0.1:3000
//! ```
//!
//! `http://127.0.0.1:3000/?autostart&pace=60` starts by itself, slowly.

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::var("SETTLED_ADDR").unwrap_or_else(|_| "127.0.0.1:3000".into());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("listening on http://{}", listener.local_addr()?);
    settled_web_examples::server::serve(listener).await
}
