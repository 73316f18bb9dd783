#!/usr/bin/env python3
"""Summarizes bench/models.sh: per model, the median time of each engine (the median of its
per-round medians, with their range), the ratio to ONNX Runtime, and how far each engine's
output is from ONNX Runtime's on the same input.

    models_summary.py --manifest MODELS/manifest.json [--busy B,A] ROUNDDIR...

Each ROUNDDIR holds ort.NAME.json (bench/ort_peer.js), openacl.NAME.json (bench_models) and
the outputs NAME.{ort,openacl,opencv}.bin. Error: max |x - ort| / max |ort| over the whole output (the
largest difference relative to the output's scale; an element-wise relative error is
meaningless where outputs cross zero). Targets (issue 10): openacl <= 0.85x ONNX Runtime's
time on ResNet-50, <= 1.0x on MobileNetV2 and the detector; error <= 1e-4.
"""
import argparse
import json
import os
import statistics
import sys

import numpy as np

TARGETS = {"resnet50": 0.85, "mobilenetv2": 1.0, "detector": 1.0}
TITLES = {"resnet50": "ResNet-50", "mobilenetv2": "MobileNetV2", "detector": "YOLO-style detector",
          "tiny": "tiny (one Relu, 16 floats): per-call cost"}
ERROR_TARGET = 1e-4


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def merged(directory, engine):
    """A round's results of one program, run once per model (ENGINE.MODEL.json), as one."""
    result = None
    for file in sorted(os.listdir(directory)):
        if file.startswith(engine + ".") and file.endswith(".json"):
            part = load(os.path.join(directory, file))
            if part is None:
                continue
            if result is None:
                result = dict(part, models={})
            result["models"].update(part.get("models", {}))
    return result


def times(rounds, source, name, engine):
    """Per-round medians and the first error message of one engine on one model."""
    medians, error = {}, None
    for i, r in enumerate(rounds):
        entry = ((r.get(source) or {}).get("models", {}).get(name) or {}).get(engine) or {}
        if "median_ms" in entry:
            medians[i] = entry["median_ms"]
        if entry.get("error") and error is None:
            error = entry["error"]
    return medians, error


def load_ms(rounds, source, name, engine):
    """Median over the rounds of one engine's load (session creation) time, or None."""
    values = [((r.get(source) or {}).get("models", {}).get(name) or {}).get(engine, {})
              .get("load_ms") for r in rounds]
    values = [v for v in values if v]
    return statistics.median(values) if values else None


def geomean(values):
    return float(np.exp(np.mean(np.log(values))))


def ratio(over, under):
    """Median over the rounds of the per-round ratio: each round's two measurements are seconds
    apart, so the ratio is steadier than the ratio of the overall medians."""
    both = [over[i] / under[i] for i in over if i in under and under[i] > 0]
    return (statistics.median(both), min(both), max(both)) if both else None


def fmt_ratio(r):
    if r is None:
        return "–"
    return f"{r[0]:.2f}x" + (f" ({r[1]:.2f} – {r[2]:.2f})" if r[2] > r[1] else "")


def fmt_ms(medians, error):
    medians = list(medians.values())
    if not medians:
        return "fails" if error else "–"
    m = statistics.median(medians)
    text = f"{m:.4g}" if m >= 1 else f"{m * 1000:.3g} µs"
    if len(medians) > 1 and m >= 1:
        text += f" ({min(medians):.4g} – {max(medians):.4g})"
    return text


def brief(error):
    """OpenCV's import errors nest the cause in '>' lines: keep the innermost reason."""
    lines = [line.lstrip("> ").strip() for line in error.splitlines()]
    lines = [line for line in lines if line]
    cause = next((line for line in lines if "parse error" in line), lines[0] if lines else "")
    detail = " ".join(line for line in lines if line.startswith("(expected"))
    text = " ".join(f"{cause} {detail}".split())
    return (text[:-len(", where")] if text.endswith(", where") else text)[:400]


def max_rel_error(dirs, name, engine):
    for d in dirs:
        ref_path = os.path.join(d, f"{name}.ort.bin")
        path = os.path.join(d, f"{name}.{engine}.bin")
        if os.path.exists(ref_path) and os.path.exists(path):
            ref = np.fromfile(ref_path, dtype=np.float32).astype(np.float64)
            got = np.fromfile(path, dtype=np.float32).astype(np.float64)
            if ref.shape != got.shape:
                return f"{got.size} values, ORT {ref.size}"
            scale = np.max(np.abs(ref))
            return float(np.max(np.abs(got - ref)) / (scale if scale > 0 else 1.0))
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--busy", default="")
    parser.add_argument("--omp-wait-policy", default="")
    parser.add_argument("rounds", nargs="+")
    args = parser.parse_args()
    manifest = load(args.manifest)
    rounds = [{"ort": merged(d, "ort"), "acl": merged(d, "openacl")} for d in args.rounds]
    ort_info = next((r["ort"] for r in rounds if r["ort"]), {}) or {}
    acl_info = next((r["acl"] for r in rounds if r["acl"]), {}) or {}
    print(f"ONNX Runtime {ort_info.get('ort_version', '?')} (onnxruntime-node, Node.js "
          f"{ort_info.get('node_version', '?')}, {ort_info.get('threads', '?')} intra-op threads); "
          f"OpenCV DNN {acl_info.get('opencv_version', '?')} "
          f"({acl_info.get('opencv_threads', '?')} threads), called directly and behind "
          f"aclmdlExecute. {len(rounds)} rounds"
          + (f"; CPUs busy before/after: {args.busy.replace(',', '% / ')}%" if args.busy else "")
          + "; openacl's OpenMP wait policy: "
          + (f"OMP_WAIT_POLICY={args.omp_wait_policy}" if args.omp_wait_policy
             else "libgomp's default (threads spin between parallel regions, as ONNX Runtime's do)")
          + ".\n")
    print("Times in ms: median of the per-round medians (range of the rounds). Ratios: to ONNX "
          "Runtime's time, the median of the per-round ratios (their range). "
          "Error: max |x - ORT| / max |ORT|.\n")
    print("| Model | Batch | ONNX Runtime ms | OpenCV DNN ms | openacl ms | openacl / ORT | "
          "OpenCV / ORT | Target (openacl) | Max rel error openacl | Max rel error OpenCV | "
          "Load ms ORT / openacl |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    failures = []
    acl_ratios, load_ratios = [], []
    for entry in manifest:
        name, model = entry["name"], entry["model"]
        if not any(name in ((r["ort"] or {}).get("models", {})) or
                   name in ((r["acl"] or {}).get("models", {})) for r in rounds):
            continue
        ort, ort_err = times(rounds, "ort", name, "ort")
        cv, cv_err = times(rounds, "acl", name, "opencv")
        acl, acl_err = times(rounds, "acl", name, "openacl")
        for engine, err in (("ONNX Runtime", ort_err), ("OpenCV DNN", cv_err),
                            ("openacl", acl_err)):
            if err:
                failures.append(f"- {name}, {engine}: {brief(err)}")
        acl_vs_ort, cv_vs_ort = ratio(acl, ort), ratio(cv, ort)
        target = TARGETS.get(model)
        verdict = "–"
        if target is not None:
            verdict = f"≤ {target:.2f}x: " + (
                "met" if acl_vs_ort is not None and acl_vs_ort[0] <= target else "**not met**")
        errors = []
        for engine in ("openacl", "opencv"):
            e = max_rel_error(args.rounds, name, engine)
            errors.append("–" if e is None else e if isinstance(e, str) else f"{e:.1e}")
        ort_load, acl_load = (load_ms(rounds, "ort", name, "ort"),
                              load_ms(rounds, "acl", name, "openacl"))
        loads = "–"
        if ort_load and acl_load and not acl_err:
            loads = f"{ort_load:.3g} / {acl_load:.3g}"
            load_ratios.append(acl_load / ort_load)
        if acl_vs_ort is not None:
            acl_ratios.append(acl_vs_ort[0])
        print(f"| {TITLES.get(model, model)} | {entry['batch']} | {fmt_ms(ort, ort_err)} | "
              f"{fmt_ms(cv, cv_err)} | {fmt_ms(acl, acl_err)} | {fmt_ratio(acl_vs_ort)} | "
              f"{fmt_ratio(cv_vs_ort)} | {verdict} | {errors[0]} | {errors[1]} | {loads} |")
    if acl_ratios:
        line = (f"\nGeometric mean over the {len(acl_ratios)} models openacl ran: run "
                f"{geomean(acl_ratios):.2f}x ONNX Runtime's time")
        if load_ratios:
            line += f", load {geomean(load_ratios):.2f}x its session creation"
        print(line + ".")
    engines = [e for e in manifest if e.get("engine")]
    if engines:
        print("\nWhat atc decided for each model:\n")
        for e in engines:
            print(f"- {e['name']}: {e['engine']}")
    if failures:
        print("\nEngines that could not load or run a model:\n")
        print("\n".join(failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
