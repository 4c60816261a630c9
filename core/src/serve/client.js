// settled's server-sent drafts, read with fetch (EventSource can only GET).
// streamDrafts(url, init, on) sends the request `init` describes (a POST with a body, a
// `signal` from an AbortController to cancel it) and calls, as events arrive:
//   on.draft(draft)                   the value so far, only when it changed
//   on.field({field, value})          a top-level field settled: its final value
//   on.done(value)                    the strict value: the last event
//   on.error({kind, message, draft})  the stream failed; `draft` is the last draft
// It resolves when the response ends, and rejects on a network error, an abort, or a
// failure of its own or of a handler, cancelling the response then (the server stops).
// Lines may end with `\n` (as axum, and so settled::serve, writes them), `\r\n` or `\r`.
async function streamDrafts(url, init, on) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      // A `\r` that ends the read may be the first half of a `\r\n`: it waits.
      const whole = buffer.endsWith('\r') ? buffer.length - 1 : buffer.length;
      buffer = buffer.slice(0, whole).replace(/\r\n?/g, '\n') + buffer.slice(whole);
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue; // a keep-alive comment
          const colon = line.indexOf(':');
          const name = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (name === 'event') event = text;
          else if (name === 'data') data.push(text);
        }
        const handler = Object.hasOwn(on, event) ? on[event] : null;
        if (handler && data.length > 0) handler(JSON.parse(data.join('\n')));
      }
    }
  } catch (error) {
    reader.cancel(error).catch(() => {});
    throw error;
  }
}

// A field's state only moves forward: pending, then streaming, then settled. A draft
// arriving after a field settled must not turn it back to streaming.
const FIELD_STATES = ['pending', 'streaming', 'settled'];
function advance(state, next) {
  return FIELD_STATES.indexOf(next) > FIELD_STATES.indexOf(state) ? next : state;
}
