// Runs core/src/serve/client.js's streamDrafts in Node against scripted responses (see
// client_js.rs) and prints what it saw as one JSON line.
import fs from 'node:fs';

const source = fs.readFileSync(process.argv[2], 'utf8');
const streamDrafts = new Function(`${source}\nreturn streamDrafts;`)();

// A response whose body yields `parts` (then ends, unless `open`), noting its cancellation.
function respond(parts, open = false) {
  const encoder = new TextEncoder();
  let next = 0;
  let cancelled = false;
  const body = new ReadableStream({
    pull(controller) {
      if (next < parts.length) controller.enqueue(encoder.encode(parts[next++]));
      else if (!open) controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  globalThis.fetch = async () => ({ ok: true, status: 200, body });
  return { cancelled: () => cancelled, sent: () => next };
}

// Every line ending SSE allows (`\r\n`, `\r`, `\n`), a comment, a multi-line data field,
// the body split in two at every place.
const text =
  'event: draft\r\ndata: {"a":1}\r\n\r\n: keep-alive\r\r' +
  'event: field\rdata: {"field":"a",\rdata: "value":1}\r\r' +
  'event: done\ndata: {"a":2}\n\n';
const seen = new Set();
for (let cut = 0; cut <= text.length; cut++) {
  const got = [];
  const on = {
    draft: (d) => got.push(['draft', d]),
    field: (f) => got.push(['field', f]),
    done: (v) => got.push(['done', v]),
  };
  respond([text.slice(0, cut), text.slice(cut)]);
  try {
    await streamDrafts('/review', {}, on);
  } catch (error) {
    got.push(['rejected', String(error)]);
  }
  seen.add(JSON.stringify(got));
}

// A handler's failure (here JSON.parse's) rejects and cancels the response: the server
// stops sending (the model stops generating).
const server = respond(['event: draft\ndata: {not json\n\n', 'event: draft\ndata: {}\n\n'], true);
let rejected = null;
try {
  await streamDrafts('/review', {}, { draft: () => {} });
} catch (error) {
  rejected = error.name;
}
await new Promise((resolve) => setTimeout(resolve, 50));
console.log(JSON.stringify({ seen: [...seen].map((s) => JSON.parse(s)), rejected, cancelled: server.cancelled() }));
