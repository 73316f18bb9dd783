#!/usr/bin/env python3
"""The AscendCL concepts chapter in Python (pyACL): Device, Context, Stream, host and device
memory, a copy there and back with a check, a callback thread, and a kernel. Each step prints
what it does and why. It uses only `import acl` and numpy, so it runs unchanged on CANN.

    concepts_walkthrough.py [KERNEL_BINARY]

KERNEL_BINARY is openacl's example kernels (build/kernels/example_kernels.so); without it the
kernel step is skipped.
"""
import struct
import sys
import threading

import numpy as np

import acl

# pyACL exports no constants: scripts define the ones they use.
ACL_SUCCESS = 0
ACL_HOST = 1
ACL_HBM_MEM = 1
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_CALLBACK_BLOCK = 1

step = 0


def check(ret, what):
    """Prints a step; stops the walk-through with the runtime's message if the call failed."""
    global step
    if ret != ACL_SUCCESS:
        print(f"  FAILED: {what} returned {ret}: {acl.get_recent_err_msg() or ''}")
        sys.exit(1)
    step += 1
    print(f"  [{step:2d}] {what}")


def section(title):
    print(f"\n{title}")


def main():
    print("openacl walk-through of the AscendCL concepts chapter, in Python")

    section("4.0 Initialise: acl.init once per process, acl.finalize at the end")
    check(acl.init(), "acl.init(): no configuration file")
    mode, ret = acl.rt.get_run_mode()
    check(ret, "acl.rt.get_run_mode: the application runs on the host")
    print(f"       run mode = {'ACL_HOST' if mode == ACL_HOST else 'ACL_DEVICE'}, "
          f"SoC = {acl.get_soc_name()}")

    section("4.1 Device: which card you work on")
    count, ret = acl.rt.get_device_count()
    check(ret, "acl.rt.get_device_count")
    print(f"       {count} device(s) visible")
    device = 0
    check(acl.rt.set_device(device), "acl.rt.set_device(0): this thread now works on device 0")

    section("4.2 Context: your workbench, bound to one thread at a time")
    context, ret = acl.rt.create_context(device)
    check(ret, "acl.rt.create_context on device 0 (becomes current)")
    check(acl.rt.set_context(context), "acl.rt.set_context: bind it to this thread")

    # The chapter's pitfall: another thread does not inherit this thread's context.
    def without_context():
        _, err = acl.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST)
        print(f"       another thread without acl.rt.set_context gets error {err}:\n"
              f"       {acl.get_recent_err_msg()}")
    other = threading.Thread(target=without_context)
    other.start()
    other.join()

    section("4.3 Stream: an in-order task queue; different streams run in parallel")
    stream, ret = acl.rt.create_stream()
    check(ret, "acl.rt.create_stream: an explicit stream in this context")

    section("4.4 Memory: host and device are two domains; data moves by memcpy")
    size = 1 << 20
    free_before, total, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check(ret, "acl.rt.get_mem_info")
    host_in, ret = acl.rt.malloc_host(size)
    check(ret, "acl.rt.malloc_host: pinned host memory for input")
    host_out, ret = acl.rt.malloc_host(size)
    check(ret, "acl.rt.malloc_host: pinned host memory for output")
    dev_a, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "acl.rt.malloc: device buffer A")
    dev_b, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "acl.rt.malloc: device buffer B")
    free_after, total, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check(ret, "acl.rt.get_mem_info again")
    print(f"       device memory free: {free_before} -> {free_after} bytes of {total}")

    pattern = ((np.arange(size) * 31 + 7) % 256).astype(np.uint8).tobytes()
    check(acl.rt.memcpy(host_in, size, acl.util.bytes_to_ptr(pattern), size, 0),
          "acl.rt.memcpy: numpy data (via acl.util.bytes_to_ptr) into the host buffer")
    check(acl.rt.memcpy(dev_a, size, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE),
          "acl.rt.memcpy host -> device A")
    check(acl.rt.memcpy(dev_b, size, dev_a, size, ACL_MEMCPY_DEVICE_TO_DEVICE),
          "acl.rt.memcpy device A -> device B")
    check(acl.rt.memcpy(host_out, size, dev_b, size, ACL_MEMCPY_DEVICE_TO_HOST),
          "acl.rt.memcpy device B -> host")
    if acl.util.ptr_to_bytes(host_out, size) != pattern:
        print("  FAILED: the data came back different")
        return 1
    print(f"       {size} bytes made the round trip unchanged")

    section("4.5 Synchronous vs asynchronous: keep the device busy and the CPU too")
    # A callback thread, as the chapter recommends: the stream tells the host when it is done.
    stop, frames_done = [], []

    def reporter(ctx):
        acl.rt.set_context(ctx)  # new threads have no current context
        while not stop:
            acl.rt.process_report(100)
    reporter_id, ret = acl.util.start_thread(reporter, context)
    check(ret, "acl.util.start_thread: a host thread to run this stream's callbacks")
    check(acl.rt.subscribe_report(reporter_id, stream),
          "acl.rt.subscribe_report: that thread runs the stream's callbacks")
    copied, ret = acl.rt.create_event()
    check(ret, "acl.rt.create_event")
    check(acl.rt.memset_async(dev_a, size, 0, size, stream),
          "acl.rt.memset_async: queued; the call returns at once")
    check(acl.rt.memcpy_async(dev_a, size, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE, stream),
          "acl.rt.memcpy_async host -> device A: queued behind the memset")
    check(acl.rt.record_event(copied, stream), "acl.rt.record_event: marks the end of the copy")
    check(acl.rt.memcpy_async(host_out, size, dev_a, size, ACL_MEMCPY_DEVICE_TO_HOST, stream),
          "acl.rt.memcpy_async device A -> host")
    check(acl.rt.launch_callback(lambda frame: frames_done.append(frame), "frame 1",
                                 ACL_CALLBACK_BLOCK, stream),
          "acl.rt.launch_callback: notify the host when the frame is back")
    print("       the CPU is free meanwhile: it could prepare the next frame here")
    check(acl.rt.synchronize_event(copied), "acl.rt.synchronize_event: wait only for the upload")
    check(acl.rt.synchronize_stream(stream), "acl.rt.synchronize_stream: the whole frame is done")
    intact = acl.util.ptr_to_bytes(host_out, size) == pattern
    print(f"       callbacks run: {frames_done}; data {'intact' if intact else 'CORRUPTED'}")
    if frames_done != ["frame 1"] or not intact:
        return 1
    check(acl.rt.unsubscribe_report(reporter_id, stream), "acl.rt.unsubscribe_report")
    stop.append(True)
    check(acl.util.stop_thread(reporter_id), "acl.util.stop_thread: join the callback thread")
    check(acl.rt.destroy_event(copied), "acl.rt.destroy_event")

    if len(sys.argv) > 1:
        section("4.3 again: a kernel on the stream, its blocks spread over every core")
        kernels, ret = acl.rt.binary_load_from_file(sys.argv[1], [])
        check(ret, "acl.rt.binary_load_from_file: the example kernels")
        vector_add, ret = acl.rt.binary_get_function(kernels, "vector_add")
        check(ret, 'acl.rt.binary_get_function("vector_add")')
        # z = x + y over n floats of A (x), B (y) and B again (z): one 8-byte slot per argument.
        n = size // 4
        x = np.arange(n, dtype=np.float32).tobytes()
        check(acl.rt.memcpy(dev_a, size, acl.util.bytes_to_ptr(x), size,
                            ACL_MEMCPY_HOST_TO_DEVICE), "x -> device A")
        check(acl.rt.memcpy(dev_b, size, acl.util.bytes_to_ptr(x), size,
                            ACL_MEMCPY_HOST_TO_DEVICE), "y -> device B")
        slots = struct.pack("<4Q", dev_a, dev_b, dev_b, n)
        args, ret = acl.rt.malloc(len(slots), ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, "acl.rt.malloc: arguments")
        check(acl.rt.memcpy(args, len(slots), acl.util.bytes_to_ptr(slots), len(slots),
                            ACL_MEMCPY_HOST_TO_DEVICE), "arguments -> device")
        check(acl.rt.launch_kernel(vector_add, 64, args, len(slots), stream),
              "acl.rt.launch_kernel(vector_add, 64 blocks): queued on the stream")
        z = np.zeros(n, dtype=np.float32).tobytes()
        check(acl.rt.memcpy_async(acl.util.bytes_to_ptr(z), size, dev_b, size,
                                  ACL_MEMCPY_DEVICE_TO_HOST, stream),
              "acl.rt.memcpy_async: the result back into a bytes object, after the kernel")
        check(acl.rt.synchronize_stream(stream), "acl.rt.synchronize_stream")
        if not np.array_equal(np.frombuffer(z, dtype=np.float32),
                              2 * np.frombuffer(x, dtype=np.float32)):
            print("  FAILED: wrong sums")
            return 1
        print(f"       all {n} sums are right")
        check(acl.rt.free(args), "acl.rt.free arguments")
        check(acl.rt.binary_unload(kernels), "acl.rt.binary_unload")

    section("Clean up in reverse order")
    check(acl.rt.free(dev_b), "acl.rt.free B")
    check(acl.rt.free(dev_a), "acl.rt.free A")
    check(acl.rt.free_host(host_out), "acl.rt.free_host output")
    check(acl.rt.free_host(host_in), "acl.rt.free_host input")
    check(acl.rt.destroy_stream(stream), "acl.rt.destroy_stream")
    check(acl.rt.destroy_context(context), "acl.rt.destroy_context")
    check(acl.rt.reset_device(device), "acl.rt.reset_device(0): a forgotten reset leaks the device")
    check(acl.finalize(), "acl.finalize")
    print("\nall steps passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
