"""The review app's route handlers, one module per page group. Each handler is ``handler(ui, request)``: ``ui`` is
the app's UiContext (context.py), bound by create_app's route table."""
