"""What `referee bench many` prints of its figures: one line per scale, then how each figure
grows from the smallest scale to the largest (flat per match reads ~1.0x)."""

from __future__ import annotations


def report_line(scale: int, f: dict, base: dict | None) -> str:
    """One scale's figures; against `base` (the smallest scale), what each match added."""
    split = f["cpu_split_us"]
    line = (f"{scale:>5} matches: {f['moves_per_s']:7.1f} remote moves/s, "
            f"{f['versions_per_s']:7.1f} versions/s, p50 {f['p50_ms']:6.2f} ms, "
            f"p99 {f['p99_ms']:7.2f} ms (prompt {f['prompt_p99_ms']:.1f}, move "
            f"{f['move_p99_ms']:.1f}), server CPU {f['cpu_us_per_version']:.0f} us/move "
            f"(gunicorn {split['api']:.0f}, workers {split['workers']:.0f}, Redis "
            f"{split['redis']:.0f}; {f['cpu_busy']:.2f} CPUs busy; "
            f"{f['net_cpu_us_per_version']:.0f} us/move net of its {f['idle_cpu_ms_per_s']:.1f} "
            f"ms/s idle), Redis "
            f"{f['redis_kb_per_created']:.1f} KB a match created and "
            f"{f['redis_bytes_per_version']:.0f} B a move, a match's own keys "
            f"{f['own_kb_at_go']:.1f} KB at go and {f['own_kb_at_end']:.1f} KB at the end, "
            f"{f['redis_kb_per_live']:.1f} KB/live match at the end ({f['held']} live, {f['kept'] - f['held']} ended), RSS "
            f"{f['rss_mb']:6.1f} MB ({f['rss_kb_per_live']:.0f} KB/live match over the idle "
            f"deployment), requests a move (the bots' too): prompt {f['per_version']['prompt']:.2f}, match "
            f"{f['per_version']['match']:.2f}, move {f['per_version']['move']:.2f}; "
            f"{f['stale']} stale, {f['errors']} errors")
    if base is not None:
        added = max(1, f["held"] - base["held"])
        line += (f"; each match more than at {base['scale']}: Redis "
                 f"{(f['redis_used_kb'] - base['redis_used_kb']) / added:.1f} KB, RSS "
                 f"{(f['rss_mb'] - base['rss_mb']) * 1024 / added:.1f} KB; p99 "
                 f"{f['p99_ms'] / base['p99_ms']:.2f}x")
    return line


GROWTH = [("server CPU per move (us)", "cpu_us_per_version", "{:.0f}"),
          ("  net of the idle deployment's (us)", "net_cpu_us_per_version", "{:.0f}"),
          ("API CPU per request (us)", "api_cpu_us_per_request", "{:.0f}"),
          ("requests per move landed", "requests_per_version", "{:.2f}"),
          ("  prompts per move landed", "prompts_per_version", "{:.2f}"),
          ("idle deployment's CPU (ms/s)", "idle_cpu_ms_per_s", "{:.1f}"),
          ("Redis per match created (KB)", "redis_kb_per_created", "{:.1f}"),
          ("Redis per move (B)", "redis_bytes_per_version", "{:.0f}"),
          ("Redis of a match's own keys at go (KB)", "own_kb_at_go", "{:.1f}"),
          ("Redis per live match at the end (KB)", "redis_kb_per_live", "{:.1f}"),
          ("RSS each match added over the scale before (KB)", "rss_kb_added", "{:.0f}"),
          ("p99 per request (ms)", "p99_ms", "{:.1f}"),
          ("remote moves/s", "moves_per_s", "{:.0f}")]
"""The per-scale figures the growth lines compare: (what, key, format)."""


def growth_lines(by_scale: dict[int, dict]) -> list[str]:
    """Each figure at every scale and its ratio to the smallest scale's: flat per match reads
    ~1.0x for the first three; throughput falling while CPU per move stays is queueing on
    the same CPUs, not a cost that grows with the matches."""
    scales = sorted(by_scale)
    for smaller, larger in zip(scales, scales[1:]):   # RSS: the first scale's is mostly warm-up
        by_scale[larger]["rss_kb_added"] = (by_scale[larger]["rss_mb"] - by_scale[smaller][
            "rss_mb"]) * 1024 / max(1, by_scale[larger]["held"] - by_scale[smaller]["held"])
    for figures in by_scale.values():
        figures["prompts_per_version"] = figures["per_version"]["prompt"]
    lines = [f"growth {' -> '.join(map(str, scales))} matches (ratio to the first figure):"]
    width = max(len(what) for what, _, _ in GROWTH)
    for what, key, fmt in GROWTH:
        had = [s for s in scales if key in by_scale[s]]
        if not had:
            continue
        first = by_scale[had[0]][key]
        values = " -> ".join(fmt.format(by_scale[s][key]) if key in by_scale[s] else "-"
                             for s in scales)
        ratios = " ".join(f"{by_scale[s][key] / first:.2f}x" if first else "n/a"
                          for s in had[1:])
        lines.append(f"  {what:<{width}}  {values}  ({ratios or 'one figure'})")
    return lines
