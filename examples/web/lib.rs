//! The web examples: an SSE server that streams a recorded model response into a page.

pub mod server;
