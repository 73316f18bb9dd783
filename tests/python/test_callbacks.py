"""Callbacks from Python: acl.util.start_thread threads subscribed to a stream run the
functions queued with acl.rt.launch_callback, inside acl.rt.process_report, on that thread."""
import threading

from conftest import ACL_CALLBACK_BLOCK, ACL_CALLBACK_NO_BLOCK, ACL_SUCCESS, run_python


class Reporter:
    """The samples' report thread: set the context, loop on process_report until stopped."""

    def __init__(self, acl, context):
        self.acl, self.stop = acl, False
        self.tid, ret = acl.util.start_thread(self.loop, [context, 50])
        assert ret == 0 and self.tid != 0

    def loop(self, args):
        context, timeout_ms = args
        self.acl.rt.set_context(context)
        while not self.stop:
            self.acl.rt.process_report(timeout_ms)

    def close(self):
        self.stop = True
        assert self.acl.util.stop_thread(self.tid) == 0


def test_start_thread_runs_the_function_with_its_args(acl):
    seen = []
    tid, ret = acl.util.start_thread(lambda args: seen.append((args, threading.get_ident())), "x")
    assert ret == 0
    assert acl.util.stop_thread(tid) == 0
    assert seen == [("x", tid)]  # the thread id is that thread's pthread_t


def test_start_thread_with_none_calls_the_function_without_args(acl):
    seen = []
    tid, _ = acl.util.start_thread(lambda: seen.append(1), None)
    assert acl.util.stop_thread(tid) == 0 and seen == [1]


def test_stop_thread_raises_if_the_function_raised(acl):
    import pytest

    def boom(_):
        raise ValueError("bad frame")

    tid, _ = acl.util.start_thread(boom, 0)
    with pytest.raises(RuntimeError, match="ValueError"):
        acl.util.stop_thread(tid)


def test_launch_callback_runs_on_the_subscribed_thread(acl, runtime):
    stream = runtime["stream"]
    reporter = Reporter(acl, runtime["context"])
    assert acl.rt.subscribe_report(reporter.tid, stream) == ACL_SUCCESS
    calls = []
    on_done = lambda data: calls.append((data, threading.get_ident()))  # noqa: E731
    assert acl.rt.launch_callback(on_done, ["frame", 1], ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS
    assert acl.rt.launch_callback(on_done, None, ACL_CALLBACK_NO_BLOCK, stream) == ACL_SUCCESS
    # The GIL is released while waiting, so the reporter thread can run the callbacks.
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert acl.rt.unsubscribe_report(reporter.tid, stream) == ACL_SUCCESS
    reporter.close()
    assert (["frame", 1], reporter.tid) in calls
    assert all(tid == reporter.tid for _, tid in calls)


def test_launch_callback_without_a_subscribed_thread_is_the_c_error(acl, runtime):
    stream, _ = acl.rt.create_stream()
    ret = acl.rt.launch_callback(lambda d: None, None, ACL_CALLBACK_BLOCK, stream)
    assert ret == 107015  # ACL_ERROR_RT_STREAM_NO_CB_REG, as the C function answers
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_launch_callback_wants_a_callable(acl, runtime):
    import pytest
    with pytest.raises(TypeError, match="acl.rt.launch_callback"):
        acl.rt.launch_callback(None, None, ACL_CALLBACK_BLOCK, runtime["stream"])


def test_an_exception_in_a_callback_is_reported_and_does_not_crash():
    result = run_python("""
        import acl
        acl.init(); acl.rt.set_device(0)
        ctx, _ = acl.rt.create_context(0)
        stream, _ = acl.rt.create_stream()
        stop = []
        def loop(c):
            acl.rt.set_context(c)
            while not stop:
                acl.rt.process_report(20)
        tid, _ = acl.util.start_thread(loop, ctx)
        acl.rt.subscribe_report(tid, stream)
        def bad(_):
            raise KeyError("callback failure")
        print("launch", acl.rt.launch_callback(bad, None, 1, stream))
        print("sync", acl.rt.synchronize_stream(stream))
        acl.rt.unsubscribe_report(tid, stream); stop.append(1); acl.util.stop_thread(tid)
        acl.rt.destroy_stream(stream); acl.rt.destroy_context(ctx); acl.rt.reset_device(0)
        print("finalize", acl.finalize())
    """)
    assert result.returncode == 0, result.stderr
    assert "launch 0" in result.stdout and "finalize 0" in result.stdout
    assert "KeyError" in result.stderr and "callback failure" in result.stderr


def test_system_exit_in_a_thread_function_does_not_end_the_process():
    result = run_python("""
        import sys
        import acl
        tid, _ = acl.util.start_thread(lambda: sys.exit(3), None)
        try:
            acl.util.stop_thread(tid)
        except RuntimeError as e:
            print("stop_thread:", e)
        print("still running")
    """)
    assert result.returncode == 0, result.stderr
    assert "SystemExit" in result.stdout and "still running" in result.stdout
    assert "acl: exception in the acl.util.start_thread function" in result.stderr
