//! The example models.

use serde::{Deserialize, Serialize};
use settled::StreamingModel;

/// Whether the change ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, StreamingModel)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Merge it.
    Ship,
    /// Needs more work.
    Hold,
}

/// A code review, as the model is asked to write it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct Review {
    /// Ship or hold.
    pub verdict: Verdict,
    /// Why, one reason per entry.
    pub reasons: Vec<String>,
    /// Confidence from 0 to 10.
    #[settled(maximum = 10)]
    pub score: u8,
}

/// A task agreed in the meeting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct ActionItem {
    /// Stable id, acted upon: shown only once complete.
    #[settled(atomic)]
    pub id: String,
    /// What to do.
    pub description: String,
    /// Who does it.
    pub owner: String,
    /// When, as YYYY-MM-DD, if agreed.
    pub due_date: Option<String>,
}

/// What the meeting was about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct MeetingSummary {
    /// The meeting's title.
    pub title: String,
    /// The date, YYYY-MM-DD.
    pub date: String,
    /// Who attended.
    pub participants: Vec<String>,
    /// Two or three sentences.
    pub summary: String,
    /// Tasks agreed.
    pub action_items: Vec<ActionItem>,
}

/// A meeting report with its metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct MeetingReport {
    /// The meeting.
    pub meeting: MeetingSummary,
    /// When the report was generated (RFC 3339).
    pub generated_at: String,
    /// Report format version.
    pub version: u32,
}

/// One step of an agent: what it thinks, then what it does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct AgentStep {
    /// Why these actions, in a sentence or two.
    pub thought: String,
    /// What to do, in order.
    pub actions: Vec<Action>,
}

/// An action of the agent, told apart by its `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Search the web before answering.
    Search {
        /// What to search for.
        query: String,
        /// How many results to read.
        top_k: u32,
    },
    /// Answer the user.
    Reply {
        /// The answer, in Markdown.
        text: String,
    },
}
