"""Streams and events from Python: in-order queues, events as markers, timings as floats."""
import numpy as np

from conftest import ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS

ACL_EVENT_RECORDED_STATUS_COMPLETE = 1
ACL_EVENT_TIME_LINE = 0x00000008


def test_create_and_destroy_a_stream(acl, runtime):
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS and stream != 0
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_get_context_returns_the_current_one(acl, runtime):
    context, ret = acl.rt.get_context()
    assert (context, ret) == (runtime["context"], ACL_SUCCESS)


def test_recorded_event_completes_after_synchronize_event(acl, runtime):
    event, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS
    data = np.ones(1 << 16, dtype=np.float32).tobytes()
    dev, ret = acl.rt.malloc(len(data), ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memcpy_async(dev, len(data), acl.util.bytes_to_ptr(data), len(data),
                               ACL_MEMCPY_HOST_TO_DEVICE, runtime["stream"]) == ACL_SUCCESS
    assert acl.rt.record_event(event, runtime["stream"]) == ACL_SUCCESS
    assert acl.rt.synchronize_event(event) == ACL_SUCCESS
    status, ret = acl.rt.query_event_status(event)
    assert (status, ret) == (ACL_EVENT_RECORDED_STATUS_COMPLETE, ACL_SUCCESS)
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    assert acl.rt.destroy_event(event) == ACL_SUCCESS
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_event_elapsed_time_is_a_float(acl, runtime):
    start, _ = acl.rt.create_event_with_flag(ACL_EVENT_TIME_LINE)
    end, _ = acl.rt.create_event_with_flag(ACL_EVENT_TIME_LINE)
    assert acl.rt.record_event(start, runtime["stream"]) == ACL_SUCCESS
    assert acl.rt.record_event(end, runtime["stream"]) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == ACL_SUCCESS and isinstance(ms, float) and ms >= 0.0
    assert acl.rt.destroy_event(start) == ACL_SUCCESS
    assert acl.rt.destroy_event(end) == ACL_SUCCESS


def test_stream_wait_event_orders_two_streams(acl, runtime):
    other, _ = acl.rt.create_stream()
    event, _ = acl.rt.create_event()
    assert acl.rt.record_event(event, runtime["stream"]) == ACL_SUCCESS
    assert acl.rt.stream_wait_event(other, event) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(other) == ACL_SUCCESS
    assert acl.rt.destroy_event(event) == ACL_SUCCESS
    assert acl.rt.destroy_stream(other) == ACL_SUCCESS


def test_destroying_a_stream_twice_is_the_c_error(acl, runtime):
    stream, _ = acl.rt.create_stream()
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    assert acl.rt.destroy_stream(0) != ACL_SUCCESS
