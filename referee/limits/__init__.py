"""Rate limits and quotas (issue 12): flask-limiter per key and per address on the route
families that cost us (creating matches, moves, checks, registering bots, events), and a
ceiling on unfinished matches per key and per address. A plug-in of the root (plugin.py)."""
