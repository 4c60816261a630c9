use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
struct Meta {
    author: String,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Post {
    title: String,
    #[serde(flatten)]
    meta: Meta,
}

fn main() {
    let mut stream = Post::stream();
    stream.feed(br#"{"author": "a", "title": "t"}"#).unwrap();
    let post = stream.finish().unwrap();
    assert_eq!((post.title.as_str(), post.meta.author.as_str()), ("t", "a"));
}
