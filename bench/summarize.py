#!/usr/bin/env python3
"""Turns the JSON output of bench_runtime and bench_pocl into a Markdown table of medians,
ratios and targets.

usage: summarize.py RUNTIME_JSON [POCL_JSON]
"""
import json
import re
import sys

UNIT_TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def load_medians(path):
    """{(benchmark, dir argument or None): median entry} from a Google Benchmark JSON file."""
    if path is None:
        return {}, {}
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print(f"warning: cannot read {path}: {e}", file=sys.stderr)
        return {}, {}
    medians = {}
    for b in data.get("benchmarks", []):
        if b.get("aggregate_name") != "median":
            continue
        name = b["run_name"]
        base = name.split("/")[0].split("::")[-1]
        m = re.search(r"/dir:(\d+)", name)
        medians[(base, int(m.group(1)) if m else None)] = b
    return medians, data.get("context", {})


def us(entry):
    """Median time of an entry in microseconds."""
    if entry is None:
        return None
    return entry["real_time"] * UNIT_TO_US[entry.get("time_unit", "ns")]


def counter(entry, name):
    if entry is None or name not in entry:
        return None
    return float(entry[name])


def fmt(value, unit=""):
    if value is None:
        return "n/a"
    if abs(value) >= 1000:
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    elif abs(value) >= 1:
        text = f"{value:.2f}"
    else:
        text = f"{value:.3f}"
    return text + unit


def verdict(ok):
    if ok is None:
        return "n/a"
    return "met" if ok else "**not met**"


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    acl, acl_ctx = load_medians(argv[1])
    pocl, pocl_ctx = load_medians(argv[2] if len(argv) > 2 else None)

    rows = []  # (measurement, openacl, peer, ratio, target, verdict)

    def latency(label, acl_key, pocl_key, limit, min_speedup=None):
        a = us(acl.get((acl_key, None)))
        p = us(pocl.get((pocl_key, None))) if pocl_key else None
        speedup = p / a if a and p else None
        ok = None
        if limit is not None and a is not None:
            ok = a <= limit
            if min_speedup is not None:
                ok = ok and speedup is not None and speedup >= min_speedup
        target = "" if limit is None else f"<= {limit:g} us"
        if min_speedup is not None:
            target += f", >= {min_speedup:g}x faster than PoCL"
        rows.append(
            (
                label,
                fmt(a, " us"),
                fmt(p, " us"),
                "" if speedup is None else f"PoCL / openacl = {speedup:.1f}x",
                target or "(for information)",
                verdict(ok) if limit is not None else "",
            )
        )

    latency(
        "enqueue, aclrtLaunchHostFunc(empty) | PoCL empty kernel",
        "BM_LaunchHostFuncEnqueue",
        "BM_PoclEnqueueEmptyKernel",
        0.3,
    )
    latency(
        "enqueue while the stream's worker is busy (no consumer)",
        "BM_LaunchHostFuncEnqueueBusyStream",
        None,
        None,
    )
    latency(
        "enqueue, aclrtRecordEvent | PoCL marker + clReleaseEvent",
        "BM_RecordEventEnqueue",
        "BM_PoclEnqueueMarker",
        0.3,
    )
    latency(
        "enqueue + aclrtSynchronizeStream | empty kernel + clFinish",
        "BM_LaunchHostFuncSynchronize",
        "BM_PoclEnqueueFinish",
        2.0,
        10.0,
    )
    latency(
        "aclrtLaunchCallback -> callback runs (report thread) | marker callback",
        "BM_LaunchCallbackToRun",
        "BM_PoclMarkerCallbackToRun",
        5.0,
    )
    latency(
        "aclrtLaunchCallback + aclrtProcessReport on one thread",
        "BM_LaunchCallbackProcessReportSameThread",
        None,
        None,
    )

    acl_memcpy = us(acl.get(("BM_Memcpy64MiB", None)))
    pocl_memcpy = us(pocl.get(("BM_Memcpy64MiB", None)))
    rows.append(
        (
            "memcpy 64 MiB (reference)",
            fmt(acl_memcpy, " us") + ("" if not acl_memcpy else f" ({64 / 1024 / acl_memcpy * 1e6:.2f} GiB/s)"),
            fmt(pocl_memcpy, " us") + " (in bench_pocl)",
            "",
            "",
            "",
        )
    )
    for d, label, peer in [(0, "H2D", "clEnqueueWriteBuffer"), (1, "D2H", "clEnqueueReadBuffer"),
                           (2, "D2D", "clEnqueueCopyBuffer")]:
        a = us(acl.get(("BM_MemcpyAsync64MiB", d)))
        p = us(pocl.get(("BM_PoclCopy64MiB", d)))
        rel = acl_memcpy / a if a and acl_memcpy else None
        prel = pocl_memcpy / p if p and pocl_memcpy else None
        ratio = "" if rel is None else f"openacl = {rel:.2f}x memcpy speed"
        if prel is not None:
            ratio += f"; PoCL = {prel:.2f}x"
        rows.append(
            (
                f"64 MiB aclrtMemcpyAsync {label} + sync | {peer} + clFinish",
                fmt(a, " us"),
                fmt(p, " us"),
                ratio,
                ">= 0.95x memcpy",
                verdict(None if rel is None else rel >= 0.95),
            )
        )

    two = acl.get(("BM_TwoStreamsOf1msHostFuncsVsOne", None))
    ratio = counter(two, "ratio")
    plain = counter(two, "plain_threads_ratio")
    rows.append(
        (
            "two streams of 20 x 1 ms host functions vs one",
            ""
            if two is None
            else f"{fmt(counter(two, 'two_streams_ms'))} ms vs {fmt(counter(two, 'one_stream_ms'))} ms",
            "",
            "n/a" if ratio is None else f"{ratio:.3f}x (plain threads: {plain:.3f}x)",
            "<= 1.1x",
            verdict(None if ratio is None else ratio <= 1.1),
        )
    )

    idle = counter(acl.get(("BM_IdleCpuOf8Streams", None)), "cpu_percent")
    pidle = counter(pocl.get(("BM_PoclIdleCpuOf8Queues", None)), "cpu_percent")
    rows.append(
        (
            "CPU of an idle runtime with 8 streams | 8 queues (over 1 s)",
            fmt(idle, " % of a core"),
            fmt(pidle, " % of a core"),
            "",
            "< 1% of a core",
            verdict(None if idle is None else idle < 1.0),
        )
    )

    print(f"Host: {acl_ctx.get('host_name', '?')}, {acl_ctx.get('num_cpus', '?')} CPUs at "
          f"{acl_ctx.get('mhz_per_cpu', '?')} MHz, load average {acl_ctx.get('load_avg', '?')} "
          f"at the start of bench_runtime")
    if pocl_ctx:
        print(f"Peer: {pocl_ctx.get('pocl', 'PoCL')}")
    else:
        print("Peer: PoCL results missing (bench_pocl not built or failed)")
    print("All values are medians of the repetitions.\n")
    header = ("Measurement (openacl | peer)", "openacl", "PoCL", "Ratio", "Target", "")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
