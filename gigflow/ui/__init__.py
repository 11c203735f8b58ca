"""The review web app (`scrapy ui`): sources, jobs and noise decisions with their evidence, and the actions the
commands offer. Routes are thin (app.py); every import of library internals is in library.py; its reads are the
store's (gigflow.store.review), so the app holds no SQL."""
