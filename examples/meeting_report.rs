//! Streams a nested meeting report: each action item is acted on the moment it settles,
//! long before the meeting (let alone the report) closes.
//!
//! ```sh
//! cargo run --example meeting_report
//! ```

use settled_examples::models::{
    ActionItemField, MeetingReport, MeetingReportField, MeetingSummaryField,
};
use settled_examples::{MEETING_RESPONSE, delay, token_chunks};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut stream = MeetingReport::stream();
    let chunks = token_chunks(MEETING_RESPONSE);
    let total = chunks.len();
    for (n, chunk) in chunks.into_iter().enumerate() {
        for field in stream.feed(chunk.as_bytes())? {
            let at = format!("[chunk {n:>3}/{total}]");
            match field {
                MeetingReportField::InMeeting(MeetingSummaryField::Title(title)) => {
                    println!("{at} title: {title}");
                }
                MeetingReportField::InMeeting(MeetingSummaryField::ParticipantsItem(i, who)) => {
                    println!("{at} participant {i}: {who}");
                }
                MeetingReportField::InMeeting(MeetingSummaryField::Summary(summary)) => {
                    println!("{at} summary: {summary}");
                }
                MeetingReportField::InMeeting(MeetingSummaryField::InActionItems(
                    i,
                    ActionItemField::Owner(owner),
                )) => println!("{at} action item {i} assigned to {owner}"),
                MeetingReportField::InMeeting(MeetingSummaryField::ActionItemsItem(i, item)) => {
                    println!(
                        "{at} action item {i} complete: {} -> {}",
                        item.id, item.description
                    );
                }
                MeetingReportField::Meeting(meeting) => {
                    println!(
                        "{at} meeting settled with {} action items",
                        meeting.action_items.len()
                    );
                }
                MeetingReportField::Version(v) => println!("{at} version {v}"),
                _ => {}
            }
        }
        std::thread::sleep(delay() / 4);
    }
    let report = stream.finish()?;
    println!(
        "final: generated at {}, {} participants",
        report.generated_at,
        report.meeting.participants.len()
    );
    Ok(())
}
