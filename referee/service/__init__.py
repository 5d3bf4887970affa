"""The service layer: matches in Redis, the match runner, jobs and workers (I/O lives here)."""
