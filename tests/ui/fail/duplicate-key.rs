use serde::Deserialize;
use settled::StreamingModel;

#[derive(Deserialize, StreamingModel)]
#[serde(rename_all = "camelCase")]
struct User {
    user_id: u64,
    #[serde(rename = "userId")]
    legacy_id: u64,
}

fn main() {}
