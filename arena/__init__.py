"""The arena: bots that answer over HTTP play matches, tournaments and a ladder, with ratings."""
