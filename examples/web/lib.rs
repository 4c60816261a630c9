//! The web examples: settled with the HTTP stack of a Rust application. An SSE server that
//! streams a model's answer into a page ([`server`]), async-openai and reqwest reading a
//! provider's stream ([`clients`]), and a local stand-in for the provider that replays
//! recorded streams ([`replay`]).

pub mod clients;
pub mod replay;
pub mod server;
