"""Access control as a plug-in of the root: accounts with API keys, roles, and the request hook
that says who calls before any route runs (see referee/service/access.py for the vocabulary)."""
