"""The headless Chromium a click crawl drives: politeness for every request the page makes, the Playwright
download handler, the scripts run in the page. Imported only by the click spider (scrapy-playwright by dotted path)."""
