// Test harness, put first into the page's <head> by tests/browser.rs. It watches the page
// as a user would see it, independently of the page's own code: after every DOM change it
// records each field's state (its class: pending, streaming or settled) and text, the
// status line, the button, the legend, and the requests made and whether each was aborted. It clicks
// the button as `?harness=` says (click: once; twice: again as soon as a field shows
// text; none: not at all; idle: not at all, and stops at once). When the page has been
// quiet for a while after a "done" or "error" status, it writes the history into the DOM
// (<pre id="harness-history">) and releases the image that holds the page's load event,
// so that `chromium --dump-dom` prints the page then.
(() => {
  const plan = new URLSearchParams(location.search).get('harness') || 'click';
  const t0 = performance.now();
  const history = [];
  const requests = [];
  let last = '';
  let lastChange = t0;
  const realFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const request = { url: String(input), aborted: false };
    const signal = init && init.signal;
    if (signal) signal.addEventListener('abort', () => { request.aborted = true; snap('abort'); });
    requests.push(request);
    snap('fetch');
    return realFetch(input, init);
  };
  function field(id) {
    const el = document.getElementById(id);
    if (!el) return null;
    const c = el.classList;
    const state = c.contains('settled') ? 'settled' : c.contains('streaming') ? 'streaming' : 'pending';
    const value = el.querySelector('.value');
    const text = !value ? '' : id === 'reasons'
      ? [...value.querySelectorAll('li')].map(li => li.textContent)
      : value.textContent;
    return { state, text, colour: getComputedStyle(el).borderLeftColor };
  }
  function shown(el) {
    return !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  }
  function snap(note) {
    if (!document.body) return;
    const status = document.getElementById('status');
    const go = document.getElementById('go');
    const state = {
      fields: { verdict: field('verdict'), reasons: field('reasons'), score: field('score') },
      status: shown(status) ? status.textContent.trim() : '',
      button: go ? { text: go.textContent.trim(), disabled: go.disabled } : null,
      requests: requests.map(r => ({ ...r })),
      legend: [...document.querySelectorAll('#legend [data-state]')].map(el => ({
        state: el.dataset.state, text: el.textContent.trim(), colour: getComputedStyle(el).borderLeftColor,
      })),
    };
    const key = JSON.stringify(state);
    if (key === last) return;
    last = key;
    lastChange = performance.now();
    history.push({ t: Math.round(lastChange - t0), note, ...state });
  }
  function finish(reason) {
    snap('end');
    const pre = document.createElement('pre');
    pre.id = 'harness-history';
    pre.dataset.reason = reason;
    pre.hidden = true; // in the DOM, not in the screenshot
    pre.textContent = JSON.stringify(history);
    document.body.appendChild(pre);
    realFetch('/__release', { method: 'POST' });
  }
  document.addEventListener('DOMContentLoaded', () => {
    const observer = new MutationObserver(() => snap('change'));
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    snap('load');
    if (plan === 'idle') {
      observer.disconnect();
      finish('idle');
      return;
    }
    const go = document.getElementById('go');
    if (plan === 'click' || plan === 'twice') go.click();
    let again = plan === 'twice';
    const deadline = performance.now() + 20000;
    const timer = setInterval(() => {
      const now = history[history.length - 1];
      const fields = Object.values(now.fields).filter(Boolean);
      if (again && fields.some(f => f.text.length > 0)) {
        again = false;
        go.click();
        return;
      }
      const ended = /^(done|error)/i.test(now.status);
      const quiet = performance.now() - lastChange > 300;
      if ((ended && quiet && !again) || performance.now() > deadline) {
        clearInterval(timer);
        observer.disconnect();
        finish(ended ? 'ended' : 'timeout');
      }
    }, 20);
  });
})();
