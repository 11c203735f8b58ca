"""The read API's route handlers, one module per resource group. Each handler is ``handler(api, request)``: ``api``
is the app's ApiContext (context.py), bound by create_app's route table."""
