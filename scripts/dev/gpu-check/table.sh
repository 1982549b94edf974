#!/usr/bin/env bash
# The table of every timed run (the bench_*.json files of stages bench, trees, orders, variants and
# plummer; the sweep's left out) in table.txt: N, method, precision, the stages' times, the direct
# sum's pair rate and the errors, then each run's tree parameters, interactions and memory.
# gpu-check.sh makes it after those stages and prints it last.

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"

python3 - "$OUT" >"$OUT/table.txt" <<'PY'
import json, glob, os, sys
out = sys.argv[1]
rows = []
extra = []
for f in sorted(glob.glob(os.path.join(out, "bench_*.json"))):
    if "sweep" in f:
        continue
    d = json.load(open(f))
    for r in d["results"]:
        t = r["times"]; e = r["error"]
        rows.append((d["n"], r["method"] + ("/" + r["tree_build"] if r.get("tree_build") else ""), r["precision"], t, r["interactions_per_s"], e))
        extra.append("%s n=%d: p=%s theta=%s buckets=%s/%s pairs=%.3e m2p=%.3e device=%.0f B/particle pinned=%.0f B/particle host peak=%.0f B/particle" % (
            os.path.basename(f), d["n"], r.get("tree", {}).get("order"), r.get("tree", {}).get("theta"),
            r.get("tree", {}).get("target_bucket"), r.get("tree", {}).get("source_bucket"),
            r.get("pair_interactions", 0), r.get("multipole_interactions", 0),
            r.get("device_bytes", 0) / d["n"], r.get("pinned_bytes", 0) / d["n"], r.get("peak_host_bytes", 0) / d["n"]))
print("%-9s %-6s %-6s %8s %7s %7s %7s %7s %7s %7s %10s %9s %9s" % ("N", "method", "prec", "total", "tree", "lists", "multip", "near", "far", "xfer", "pairs/s*", "u.mean", "du.mean"))
for n, m, p, t, ips, e in rows:
    near = t["near"]
    pairs = ips * t["total"] if m == "direct" else float("nan")
    rate = pairs / near if (m == "direct" and near > 0) else float("nan")
    print("%-9d %-6s %-6s %8.4f %7.4f %7.4f %7.4f %7.4f %7.4f %7.4f %10.3e %9.2e %9.2e" % (
        n, m, p, t["total"], t["tree"], t["lists"], t["multipole"], near, t["far"], t["transfer"],
        rate, e["velocity_mean_rel"], e["gradient_mean_rel"] or 0))
print("* direct: N^2 / kernel time (CUDA events, median call)")
print("\n".join(extra))
PY
