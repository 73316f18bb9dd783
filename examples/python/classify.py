#!/usr/bin/env python3
"""Image classification with pyACL's model API, end to end, as the Ascend samples write it:
initialise, load a model, ask it what it expects, preprocess an image on the host with numpy,
copy it to the device, execute, copy the scores back, print the top 5, release everything.
Only `import acl` and numpy: it runs unchanged on CANN with an .om model.

    classify.py MODEL [IMAGE]

MODEL is an .om file from atc (or an ONNX file, which openacl also loads) with one 1x3xHxW
float input and one float output. openacl's build writes
build/examples/image_classification/resnet_random.onnx: a ResNet-style network with RANDOM
weights, so its classes are arbitrary. IMAGE is an .npy array (HxWx3, uint8, RGB) or, when Pillow
is installed, any image file; without it the example draws a colour gradient.
"""
import sys
import time

import numpy as np

import acl

ACL_SUCCESS = 0
ACL_FLOAT = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2


class AclError(Exception):
    pass


def check(ret, what):
    if ret != ACL_SUCCESS:
        raise AclError(f"{what} failed (error {ret}): {acl.get_recent_err_msg() or ''}")


def test_image():
    """A 320x240 colour gradient, RGB."""
    h, w = 240, 320
    y, x = np.mgrid[0:h, 0:w]
    return np.stack([255 * x // (w - 1), 255 * y // (h - 1), (x + y) % 256], axis=-1).astype(np.uint8)


def read_image(path):
    if path.endswith(".npy"):
        return np.load(path)
    from PIL import Image  # optional: python3-pil
    return np.asarray(Image.open(path).convert("RGB"))


def resize_bilinear(image, height, width):
    h, w = image.shape[:2]
    ys = np.clip((np.arange(height) + 0.5) * h / height - 0.5, 0, h - 1)
    xs = np.clip((np.arange(width) + 0.5) * w / width - 0.5, 0, w - 1)
    y0, x0 = np.floor(ys).astype(int), np.floor(xs).astype(int)
    y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
    wy, wx = (ys - y0)[:, None, None], (xs - x0)[None, :, None]
    img = image.astype(np.float32)
    top = img[y0][:, x0] * (1 - wx) + img[y0][:, x1] * wx
    bottom = img[y1][:, x0] * (1 - wx) + img[y1][:, x1] * wx
    return top * (1 - wy) + bottom * wy


def preprocess(rgb, height, width):
    """ImageNet preprocessing: shorter side to 256/224 of the crop, centre crop, [0, 1],
    mean/std normalisation, CHW planes with a batch dimension."""
    scale = 256.0 / 224.0 * min(height, width) / min(rgb.shape[:2])
    rh = max(height, round(rgb.shape[0] * scale))
    rw = max(width, round(rgb.shape[1] * scale))
    resized = resize_bilinear(rgb, rh, rw)
    top, left = (rh - height) // 2, (rw - width) // 2
    crop = resized[top:top + height, left:left + width] / 255.0
    mean = np.array([0.485, 0.456, 0.406], dtype=np.float32)
    std = np.array([0.229, 0.224, 0.225], dtype=np.float32)
    chw = ((crop - mean) / std).transpose(2, 0, 1)
    return np.ascontiguousarray(chw[None], dtype=np.float32)


def classify(model_path, image_path, cleanup):
    check(acl.init(), "acl.init")
    cleanup.append(lambda: check(acl.finalize(), "acl.finalize"))
    check(acl.rt.set_device(0), "acl.rt.set_device")
    cleanup.append(lambda: check(acl.rt.reset_device(0), "acl.rt.reset_device"))

    start = time.perf_counter()
    model_id, ret = acl.mdl.load_from_file(model_path)
    check(ret, "acl.mdl.load_from_file")
    cleanup.append(lambda: check(acl.mdl.unload(model_id), "acl.mdl.unload"))
    print(f"model      {model_path} (loaded in {1000 * (time.perf_counter() - start):.0f} ms)")
    desc = acl.mdl.create_desc()
    cleanup.append(lambda: check(acl.mdl.destroy_desc(desc), "acl.mdl.destroy_desc"))
    check(acl.mdl.get_desc(desc, model_id), "acl.mdl.get_desc")
    if (acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)) != (1, 1):
        raise AclError("expected a model with 1 input and 1 output")
    dims, ret = acl.mdl.get_input_dims(desc, 0)
    check(ret, "acl.mdl.get_input_dims")
    shape = dims["dims"]
    if (len(shape) != 4 or shape[:2] != [1, 3] or acl.mdl.get_input_data_type(desc, 0) != ACL_FLOAT
            or acl.mdl.get_output_data_type(desc, 0) != ACL_FLOAT):
        raise AclError("expected a float input of shape 1x3xHxW and a float output")
    height, width = shape[2], shape[3]
    in_size = acl.mdl.get_input_size_by_index(desc, 0)
    out_size = acl.mdl.get_output_size_by_index(desc, 0)
    classes = out_size // 4
    print(f'input      "{dims["name"]}" 1x3x{height}x{width} float ({in_size} bytes), '
          f'output "{acl.mdl.get_output_name_by_index(desc, 0)}" {classes} floats')

    if image_path:
        image = read_image(image_path)
        print(f"image      {image_path} ({image.shape[1]}x{image.shape[0]})")
    else:
        image = test_image()
        print("image      a generated 320x240 colour gradient; pass a path to classify your own")
    blob = preprocess(image, height, width).tobytes()
    if len(blob) != in_size:
        raise AclError(f"input is {in_size} bytes, the image {len(blob)}")

    # Inputs and outputs live in device memory, wrapped in data buffers and datasets.
    datasets = {}
    for kind, size in (("input", in_size), ("output", out_size)):
        dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, f"acl.rt.malloc({kind})")
        cleanup.append(lambda dev=dev: check(acl.rt.free(dev), "acl.rt.free"))
        dataset = acl.mdl.create_dataset()
        cleanup.append(lambda d=dataset: check(acl.mdl.destroy_dataset(d), "destroy_dataset"))
        buf = acl.create_data_buffer(dev, size)
        cleanup.append(lambda b=buf: check(acl.destroy_data_buffer(b), "destroy_data_buffer"))
        _, ret = acl.mdl.add_dataset_buffer(dataset, buf)
        check(ret, "acl.mdl.add_dataset_buffer")
        datasets[kind] = (dataset, dev)
    check(acl.rt.memcpy(datasets["input"][1], in_size, acl.util.bytes_to_ptr(blob), in_size,
                        ACL_MEMCPY_HOST_TO_DEVICE), "acl.rt.memcpy(host -> device)")

    # The first execution also sets up the engine; the next ones show the steady state.
    times = []
    for _ in range(6):
        start = time.perf_counter()
        check(acl.mdl.execute(model_id, datasets["input"][0], datasets["output"][0]),
              "acl.mdl.execute")
        times.append(1000 * (time.perf_counter() - start))

    out = bytes(out_size)  # device results are copied straight into this bytes object
    check(acl.rt.memcpy(acl.util.bytes_to_ptr(out), out_size, datasets["output"][1], out_size,
                        ACL_MEMCPY_DEVICE_TO_HOST), "acl.rt.memcpy(device -> host)")
    scores = np.frombuffer(out, dtype=np.float32).astype(np.float64)
    if not (abs(scores.sum() - 1.0) < 1e-3 and (scores >= 0).all()):
        scores = np.exp(scores - scores.max())
        scores /= scores.sum()
        print("(the model's output is not a probability distribution: softmax applied)")
    top = np.argsort(scores)[::-1][:5]
    print(f"\ntop {len(top)} classes")
    for rank, cls in enumerate(top, 1):
        print(f"  {rank}. class {cls:4d}  probability {scores[cls]:.5f}")
    print(f"\ninference  first acl.mdl.execute {times[0]:.1f} ms; next {len(times) - 1}: "
          f"mean {np.mean(times[1:]):.1f} ms, best {min(times[1:]):.1f} ms")


def main():
    if not 2 <= len(sys.argv) <= 3:
        print(__doc__)
        return 2
    cleanup, ok = [], True
    try:
        classify(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None, cleanup)
    except AclError as e:
        print(f"classify: {e}", file=sys.stderr)
        ok = False
    for release in reversed(cleanup):  # release in reverse order whatever happened
        try:
            release()
        except AclError as e:
            print(f"classify: {e}", file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
