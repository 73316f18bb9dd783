#!/usr/bin/env python3
"""Turns the JSON output of bench_runtime (openacl) and bench_pocl (PoCL) into a Markdown table
of medians, ratios and targets; with --models, bench_model's (the model API next to OpenCV DNN)
into a second one.

usage: summarize.py RUNTIME_JSON [POCL_JSON] [--models MODEL_JSON]
"""
import json
import os
import re
import sys

UNIT_TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def load_medians(path):
    """({(benchmark, dir or call argument or None): median entry}, context) of a Google Benchmark
    JSON file; ({}, {}) when there is none."""
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
        m = re.search(r"/(?:dir|call):(\d+)", name)
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


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def load_model_medians(path):
    """{(benchmark, ((argument, value), ...)): median entry} of bench_model's JSON file."""
    medians = {}
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print(f"warning: cannot read {path}: {e}", file=sys.stderr)
        return medians
    for b in data.get("benchmarks", []):
        if b.get("aggregate_name") != "median":
            continue
        name = b["run_name"]
        args = tuple(
            (k, int(v))
            for k, v in re.findall(r"/(\w+):(\d+)(?=/|$)", name)
            if k not in ("min_time", "repeats")
        )
        medians[(name.split("/")[0], args)] = b
    return medians


def model_table(path):
    """Markdown lines for bench_model's results; [] when there are none."""
    medians = load_model_medians(path)
    if not medians:
        return []
    models = [(0, "ResNet-10-style, 1x3x224x224 -> 1000 (random weights)"),
              (1, "MLP 64-64-64-64-10 (random weights)")]
    lines = [
        "",
        "Models: aclmdlExecute vs cv::dnn::Net::forward (OpenCV DNN, the engine behind it) on "
        "the same ONNX model, alternating in the same iterations; medians.",
        "",
        "| Measurement | openacl | OpenCV DNN | Comparison | Target | Verdict |",
        "|---|---|---|---|---|---|",
    ]
    for index, label in models:
        entry = medians.get(("BM_ExecuteVsOpenCv", (("model", index),)))
        acl_us, cv_us = counter(entry, "acl_us"), counter(entry, "opencv_us")
        pct, extra = counter(entry, "overhead_pct"), counter(entry, "overhead_us")
        comparison = "" if pct is None else f"overhead {pct:+.2f}% ({fmt(extra, ' us')} per call)"
        target, ok = ("<= 3% overhead", None if pct is None else pct <= 3.0) if index == 0 else (
            "(information)", None)
        lines.append(
            f"| {label}: aclmdlExecute (OpenCV: setInput + forward) | "
            f"{fmt(acl_us, ' us')} | {fmt(cv_us, ' us')} | {comparison} | {target} | "
            f"{verdict(ok) if index == 0 else ''} |"
        )
    for index, label in models:
        entry = medians.get(("BM_ExecuteAsyncThroughput", (("model", index),)))
        if entry is None:
            continue
        sync, one, two = (counter(entry, k) for k in ("sync_per_s", "stream1_per_s",
                                                      "streams2_per_s"))
        ratio = counter(entry, "two_vs_one")
        lines.append(
            f"| {label}: executions/s, aclmdlExecuteAsync on 1 stream / on 2 streams "
            f"(synchronous aclmdlExecute loop) | {fmt(one, '/s')} / {fmt(two, '/s')} "
            f"({fmt(sync, '/s')}) | | "
            f"{'' if ratio is None else f'2 streams {ratio:.2f}x 1 stream'} | (information) | |"
        )
    return lines


def main(argv):
    models_path = None
    if "--models" in argv:
        i = argv.index("--models")
        if i + 1 >= len(argv):
            print(__doc__, file=sys.stderr)
            return 2
        models_path = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    acl, acl_ctx = load_medians(argv[1])
    pocl, pocl_ctx = load_medians(argv[2] if len(argv) > 2 else None)

    # (measurement, openacl, PoCL, memcpy, comparison, target, verdict)
    rows = []

    def latency(label, acl_key, pocl_key, limit=None, min_speedup=None):
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
                fmt(p, " us") if pocl_key else "",
                "",
                "" if speedup is None else f"openacl {speedup:.1f}x faster",
                target or "(information)",
                verdict(ok) if limit is not None else "",
            )
        )

    latency(
        "enqueue: aclrtLaunchHostFunc(empty) (PoCL: empty kernel, global size 1)",
        "BM_LaunchHostFuncEnqueue",
        "BM_PoclEnqueueEmptyKernel",
        0.3,
    )
    latency(
        "enqueue: aclrtLaunchHostFunc(empty) on a parked stream (nothing drains it meanwhile)",
        "BM_LaunchHostFuncEnqueueParkedStream",
        None,
    )
    latency(
        "enqueue: aclrtRecordEvent (PoCL: clEnqueueMarkerWithWaitList + clReleaseEvent)",
        "BM_RecordEventEnqueue",
        "BM_PoclEnqueueMarker",
        0.3,
    )
    latency(
        "enqueue: aclrtRecordEvent on a parked stream (nothing drains it meanwhile)",
        "BM_RecordEventEnqueueParkedStream",
        None,
    )
    latency(
        "enqueue + aclrtSynchronizeStream (PoCL: empty kernel + clFinish)",
        "BM_LaunchHostFuncSynchronize",
        "BM_PoclEnqueueFinish",
        2.0,
        10.0,
    )
    latency(
        "aclrtLaunchKernel(empty_kernel, 1 block) + aclrtSynchronizeStream "
        "(PoCL: empty kernel, global size 1, + clFinish)",
        "BM_EmptyKernelSynchronize",
        "BM_PoclEnqueueFinish",
        2.0,
    )

    # Parallel efficiency of the compute-bound kernel: 64 blocks (work-groups) on all cores vs
    # the same work in one block on one core, alternating within each repetition.
    chain = acl.get(("BM_ComputeKernel64Blocks", None))
    pchain = pocl.get(("BM_PoclComputeKernel64Groups", None))

    def scaling_text(entry):
        if entry is None or counter(entry, "speedup") is None:
            return "n/a"
        return (
            f"{fmt(counter(entry, 'parallel_ms'))} ms vs {fmt(counter(entry, 'serial_ms'))} ms "
            f"on one core: {counter(entry, 'speedup'):.2f}x on {counter(entry, 'cores'):.0f} "
            f"cores, efficiency {100 * counter(entry, 'efficiency'):.0f}%"
        )

    eff = counter(chain, "efficiency")
    a_ms, p_ms = counter(chain, "parallel_ms"), counter(pchain, "parallel_ms")
    comparison = ""
    if a_ms and p_ms:
        one_core = counter(pchain, "serial_ms") / counter(chain, "serial_ms")
        comparison = (
            f"openacl {p_ms / a_ms:.2f}x PoCL's speed (64 blocks); "
            f"one core: openacl {one_core:.2f}x PoCL's"
        )
    rows.append(
        (
            "compute-bound kernel (fp_chain), 64 blocks on all cores vs 1 block on one core "
            "(PoCL: 64 work-groups of 1 vs 1)",
            scaling_text(chain),
            scaling_text(pchain) if pchain is not None else "",
            "",
            comparison,
            ">= 90% efficiency",
            verdict(None if eff is None else eff >= 0.9),
        )
    )
    latency(
        "launch to start of an empty host function on the worker",
        "BM_LaunchHostFuncToRun",
        None,
    )
    latency(
        "aclrtLaunchCallback -> callback runs in aclrtProcessReport on a report thread "
        "(PoCL: marker + clSetEventCallback -> callback runs)",
        "BM_LaunchCallbackToRun",
        "BM_PoclMarkerCallbackToRun",
        5.0,
    )
    latency(
        "aclrtLaunchCallback + aclrtProcessReport on the launching thread",
        "BM_LaunchCallbackProcessReportSameThread",
        None,
    )

    latency(
        "machine reference: cache-line round trip between two spinning threads",
        "BM_CoreToCorePingPong",
        None,
    )

    for d, label, peer in [
        (0, "H2D", "clEnqueueWriteBuffer"),
        (1, "D2H", "clEnqueueReadBuffer"),
        (2, "D2D", "clEnqueueCopyBuffer"),
    ]:
        a_entry = acl.get(("BM_MemcpyAsync64MiB", d))
        p_entry = pocl.get(("BM_PoclCopy64MiB", d))
        # Each copy iteration is paired with a plain memcpy in the same process.
        rel = counter(a_entry, "vs_memcpy")
        prel = counter(p_entry, "vs_memcpy")
        memcpy_us = counter(a_entry, "memcpy_us")
        comparison = "" if rel is None else f"openacl {rel:.2f}x memcpy's speed"
        if prel is not None:
            comparison += f"; PoCL {prel:.2f}x its memcpy's"
        rows.append(
            (
                f"64 MiB aclrtMemcpyAsync {label} + synchronize (PoCL: {peer} + clFinish)",
                fmt(us(a_entry), " us"),
                fmt(us(p_entry), " us"),
                fmt(memcpy_us, " us"),
                comparison,
                ">= 0.95x memcpy",
                verdict(None if rel is None else rel >= 0.95),
            )
        )

    two = acl.get(("BM_TwoStreamsOf1msHostFuncsVsOne", None))
    ratio = counter(two, "ratio")
    plain = counter(two, "plain_threads_ratio")
    rows.append(
        (
            "two streams of 20 host functions of 1 ms CPU each, vs one stream",
            "n/a"
            if two is None
            else f"{fmt(counter(two, 'two_streams_ms'))} ms vs "
            f"{fmt(counter(two, 'one_stream_ms'))} ms",
            "",
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
            "CPU used over 1 s by an idle runtime with 8 streams (PoCL: 8 queues)",
            fmt(idle, " % of a core"),
            fmt(pidle, " % of a core"),
            "",
            "",
            "< 1% of a core",
            verdict(None if idle is None else idle < 1.0),
        )
    )

    # Tracing's cost: untraced and traced batches alternated in one process.
    for call, label, limit in (
        (0, "aclrtLaunchHostFunc enqueue", 20.0),
        (1, "aclrtRecordEvent enqueue", 20.0),
        (2, "aclrtLaunchHostFunc enqueue on a parked stream", None),
    ):
        entry = acl.get(("BM_TracingCostOnEnqueue", call))
        extra = counter(entry, "extra_percent")
        rows.append(
            (
                f"tracing on (aclprofStart): {label}",
                "n/a" if extra is None else
                f"{fmt(counter(entry, 'off_us'))} us off, {fmt(counter(entry, 'on_us'))} us on: "
                f"{extra:+.0f}%",
                "",
                "",
                "",
                "(information)" if limit is None else f"<= +{limit:g}%",
                "" if limit is None else verdict(None if extra is None else extra <= limit),
            )
        )

    load = acl_ctx.get("load_avg")
    load_text = ", ".join(f"{x:.2f}" for x in load) if isinstance(load, list) else "?"
    busy = os.environ.get("OPENACL_BENCH_BUSY")
    busy_text = f"; CPUs {busy}% busy just before the run" if busy else ""
    print(f"Machine: {os.cpu_count()} x {cpu_model()}; load average {load_text} when "
          f"bench_runtime started{busy_text}")
    if pocl_ctx:
        print(f"Peer: {pocl_ctx.get('pocl', 'PoCL')}")
    else:
        print("Peer: no PoCL results (bench_pocl was not built or failed)")
    print("Values are medians over the repetitions of each benchmark.\n")
    header = ("Measurement", "openacl", "PoCL", "memcpy", "Comparison", "Target", "Verdict")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if models_path:
        for line in model_table(models_path):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
