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
