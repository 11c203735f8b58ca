"""The JavaScript the click spider runs in the page (Playwright evaluate calls)."""

# The item's own stable identity, in order of preference, and its text (hashed when it has no identity).
ITEM_KEY_JS = """el => {
  for (const name of ['data-job-id', 'data-id', 'data-key', 'id']) {
    const value = el.getAttribute(name);
    if (value) return [name + '=' + value, null];
  }
  const link = el.matches('a[href]') ? el : el.querySelector('a[href]');
  return link ? ['href=' + link.getAttribute('href'), null] : [null, el.innerText];
}"""

DETAIL_HTML_JS = """sel => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const box = el.getBoundingClientRect();
  const visible = box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  return visible && el.innerText.trim() ? el.outerHTML : null;
}"""

# Counts the page's own fetch and XMLHttpRequest calls where they are made. Playwright reports a request a moment
# after the page made it (later still on a loaded machine), so a spinner a click drew can be on screen before its
# fetch is known outside the page. Installed once per document; returns how many requests the page has started.
REQUEST_COUNTER_JS = """() => {
  let state = window.__gigflowRequests;
  if (!state) {
    state = window.__gigflowRequests = {started: 0, ended: [], open: new Set()};
    const begin = () => { const id = ++state.started; state.open.add(id); return id; };
    const end = id => { if (state.open.delete(id)) state.ended = [...state.ended.slice(-63), id]; };
    const fetch = window.fetch;
    if (typeof fetch === 'function') {
      window.fetch = function (...args) {
        const id = begin();
        try { return fetch.apply(this, args).finally(() => end(id)); } catch (error) { end(id); throw error; }
      };
    }
    const XHR = window.XMLHttpRequest && window.XMLHttpRequest.prototype;
    if (XHR && typeof XHR.send === 'function') {
      const send = XHR.send;
      XHR.send = function (...args) {
        const id = begin();
        this.addEventListener('loadend', () => end(id), {once: true});
        try { return send.apply(this, args); } catch (error) { end(id); throw error; }
      };
    }
  }
  return typeof state.started === 'number' ? state.started : 0;  // a page's own value of that name counts nothing
}"""

# The detail region (as DETAIL_HTML_JS) with the page's own requests started after ``mark``: how many are still
# open, and the last of them to end.
DETAIL_STATE_JS = """([sel, mark]) => {
  const html = (%s)(sel);
  const state = window.__gigflowRequests;
  if (!state || !(state.open instanceof Set) || !Array.isArray(state.ended)) return [html, 0, 0];
  const ended = state.ended.filter(id => id > mark);
  return [html, [...state.open].filter(id => id > mark).length, ended.length ? ended[ended.length - 1] : 0];
}""" % DETAIL_HTML_JS
