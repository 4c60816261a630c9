//! Records provider fixtures chunked at real tokenizer boundaries (o200k_base, embedded in
//! tiktoken-rs: no download): reads a response text, splits it into tokens, and writes the
//! provider's exact SSE wire format, one event per token.
//!
//! ```sh
//! cargo run -p settled-examples --features tokenizer --example record -- \
//!     openai examples/recorded/review.txt > examples/recorded/openai_review.sse
//! ```
//!
//! Formats: `openai` (Chat Completions content), `openai-tools` (two tool calls, their
//! argument tokens interleaved), `openai-responses`, `anthropic` (text), `anthropic-tool`
//! (tool_use input). `--cut N` ends the stream after N tokens with the provider's
//! token-limit finish reason.

use serde_json::json;
use std::io::Write;

fn tokens(text: &str) -> Vec<String> {
    let bpe = tiktoken_rs::o200k_base().expect("o200k_base is embedded");
    let ids = bpe.encode_with_special_tokens(text);
    // Decode token by token; a token may hold part of a UTF-8 character: carry the bytes.
    let mut out = Vec::new();
    let mut pending: Vec<u8> = Vec::new();
    for id in ids {
        let bytes = bpe
            ._decode_native_and_split(vec![id])
            .next()
            .unwrap_or_default();
        pending.extend(bytes);
        if let Ok(s) = std::str::from_utf8(&pending) {
            out.push(s.to_string());
            pending.clear();
        }
    }
    out
}

static KEEPALIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn sse(out: &mut impl Write, event: Option<&str>, data: &serde_json::Value) {
    // Providers (and proxies) send SSE comments as keep-alives: one every 16 events.
    if KEEPALIVE.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 16 == 15 {
        writeln!(out, ": keep-alive\n").unwrap();
    }
    if let Some(event) = event {
        writeln!(out, "event: {event}").unwrap();
    }
    writeln!(out, "data: {data}\n").unwrap();
}

const USAGE: &str = "usage: record FORMAT RESPONSE_FILE [SECOND_ARGUMENTS_FILE] [--cut N]
  FORMAT: openai | openai-tools | openai-responses | anthropic | anthropic-tool
  (openai-tools takes the second tool call's arguments from SECOND_ARGUMENTS_FILE)";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(format), Some(path)) = (args.first(), args.get(1)) else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    const FORMATS: &[&str] = &[
        "openai",
        "openai-tools",
        "openai-responses",
        "anthropic",
        "anthropic-tool",
    ];
    if !FORMATS.contains(&format.as_str()) {
        eprintln!("record: unknown format `{format}`\n{USAGE}");
        std::process::exit(2);
    }
    let cut = args
        .iter()
        .position(|a| a == "--cut")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok());
    let text = std::fs::read_to_string(path).expect("readable response");
    let mut toks = tokens(&text);
    let truncated = cut.is_some_and(|n| n < toks.len());
    if let Some(n) = cut {
        toks.truncate(n);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let id = "chatcmpl-rec0001";
    match format.as_str() {
        "openai" => {
            for t in &toks {
                sse(
                    &mut out,
                    None,
                    &json!({"id": id, "object": "chat.completion.chunk", "model": "gpt-4o-2024-08-06",
                    "choices": [{"index": 0, "delta": {"content": t}, "finish_reason": null}]}),
                );
            }
            let reason = if truncated { "length" } else { "stop" };
            sse(
                &mut out,
                None,
                &json!({"id": id, "object": "chat.completion.chunk", "model": "gpt-4o-2024-08-06",
                "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}),
            );
            writeln!(out, "data: [DONE]\n").unwrap();
        }
        "openai-tools" => {
            let second = std::fs::read_to_string(args.get(2).expect("second arguments file"))
                .expect("readable");
            let toks2 = tokens(&second);
            for (i, name) in [(0, "submit_review"), (1, "submit_review")] {
                sse(
                    &mut out,
                    None,
                    &json!({"id": id, "object": "chat.completion.chunk", "model": "gpt-4o-2024-08-06",
                    "choices": [{"index": 0, "delta": {"tool_calls": [{"index": i, "id": format!("call_{i}"), "type": "function",
                    "function": {"name": name, "arguments": ""}}]}, "finish_reason": null}]}),
                );
            }
            let longest = toks.len().max(toks2.len());
            for k in 0..longest {
                for (i, list) in [(0, &toks), (1, &toks2)] {
                    if let Some(t) = list.get(k) {
                        sse(
                            &mut out,
                            None,
                            &json!({"id": id, "object": "chat.completion.chunk", "model": "gpt-4o-2024-08-06",
                            "choices": [{"index": 0, "delta": {"tool_calls": [{"index": i, "function": {"arguments": t}}]}, "finish_reason": null}]}),
                        );
                    }
                }
            }
            sse(
                &mut out,
                None,
                &json!({"id": id, "object": "chat.completion.chunk", "model": "gpt-4o-2024-08-06",
                "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
            );
            writeln!(out, "data: [DONE]\n").unwrap();
        }
        "openai-responses" => {
            sse(
                &mut out,
                Some("response.created"),
                &json!({"type": "response.created", "response": {"id": "resp_rec0001", "status": "in_progress"}}),
            );
            for t in &toks {
                sse(
                    &mut out,
                    Some("response.output_text.delta"),
                    &json!({"type": "response.output_text.delta",
                    "item_id": "msg_rec0001", "output_index": 0, "content_index": 0, "delta": t}),
                );
            }
            if truncated {
                sse(
                    &mut out,
                    Some("response.incomplete"),
                    &json!({"type": "response.incomplete",
                    "response": {"id": "resp_rec0001", "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}}}),
                );
            } else {
                sse(
                    &mut out,
                    Some("response.completed"),
                    &json!({"type": "response.completed", "response": {"id": "resp_rec0001", "status": "completed"}}),
                );
            }
        }
        "anthropic" | "anthropic-tool" => {
            let tool = format == "anthropic-tool";
            sse(
                &mut out,
                Some("message_start"),
                &json!({"type": "message_start", "message": {"id": "msg_rec0001", "type": "message",
                "role": "assistant", "model": "claude-sonnet-4-5", "content": [], "stop_reason": null, "usage": {"input_tokens": 120, "output_tokens": 1}}}),
            );
            let block = if tool {
                json!({"type": "tool_use", "id": "toolu_rec0001", "name": "submit_review", "input": {}})
            } else {
                json!({"type": "text", "text": ""})
            };
            sse(
                &mut out,
                Some("content_block_start"),
                &json!({"type": "content_block_start", "index": 0, "content_block": block}),
            );
            writeln!(out, "event: ping\ndata: {{\"type\": \"ping\"}}\n").unwrap();
            for t in &toks {
                let delta = if tool {
                    json!({"type": "input_json_delta", "partial_json": t})
                } else {
                    json!({"type": "text_delta", "text": t})
                };
                sse(
                    &mut out,
                    Some("content_block_delta"),
                    &json!({"type": "content_block_delta", "index": 0, "delta": delta}),
                );
            }
            sse(
                &mut out,
                Some("content_block_stop"),
                &json!({"type": "content_block_stop", "index": 0}),
            );
            let reason = if truncated {
                "max_tokens"
            } else if tool {
                "tool_use"
            } else {
                "end_turn"
            };
            sse(
                &mut out,
                Some("message_delta"),
                &json!({"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": null},
                "usage": {"output_tokens": toks.len()}}),
            );
            sse(
                &mut out,
                Some("message_stop"),
                &json!({"type": "message_stop"}),
            );
        }
        other => panic!("unknown format {other}"),
    }
}
