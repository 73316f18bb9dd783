"""acl.media's Python-side rules for video callbacks. (The DVPP work itself is tested with the
DVPP implementation; these tests skip what needs it while openacl answers not-supported.)"""
import pytest

from conftest import ACL_SUCCESS


def test_vdec_send_frame_without_a_callback_raises_runtime_error(acl):
    with pytest.raises(RuntimeError, match="acl.media.vdec_send_frame"):
        acl.media.vdec_send_frame(0, 0, 0, 0, None)


def test_venc_send_frame_without_a_callback_raises_runtime_error(acl):
    with pytest.raises(RuntimeError, match="acl.media.venc_send_frame"):
        acl.media.venc_send_frame(0, 0, 0, 0, None)


def test_vdec_callback_must_be_callable(acl):
    with pytest.raises(TypeError, match="vdec_set_channel_desc_callback"):
        acl.media.vdec_set_channel_desc_callback(0, 42)


def test_callback_of_a_null_channel_desc_is_the_c_error_and_not_kept(acl):
    assert acl.media.vdec_set_channel_desc_callback(0, lambda *a: None) != ACL_SUCCESS
    with pytest.raises(RuntimeError):
        acl.media.vdec_get_channel_desc_callback(0)


def test_vdec_callback_is_kept_per_channel_description(acl, runtime):
    desc = acl.media.vdec_create_channel_desc()
    if desc == 0:
        pytest.skip("aclvdecCreateChannelDesc is not implemented by openacl yet")
    fn = lambda *a: None  # noqa: E731
    assert acl.media.vdec_set_channel_desc_callback(desc, fn) == ACL_SUCCESS
    assert acl.media.vdec_get_channel_desc_callback(desc) is fn
    assert acl.media.vdec_destroy_channel_desc(desc) == ACL_SUCCESS


def test_dvpp_set_channel_desc_param_echoes_the_desc(acl):
    desc, ret = acl.media.dvpp_set_channel_desc_param(0, 1, 0)
    assert desc == 0 and ret != ACL_SUCCESS


def test_batch_crop_takes_lists_and_echoes_dst_batch(acl):
    dst, ret = acl.media.dvpp_vpc_batch_crop_async(0, 0, [1], 1234, [0], 0)
    assert dst == 1234 and ret != ACL_SUCCESS
    with pytest.raises(TypeError):
        acl.media.dvpp_vpc_batch_crop_async(0, 0, (1,), 1234, [0], 0)


def test_dvpp_malloc_gives_dvpp_memory_usable_by_rt_memcpy(acl, runtime):
    ptr, ret = acl.media.dvpp_malloc(64)
    assert ret == ACL_SUCCESS and ptr != 0
    data = bytes(range(64))
    assert acl.rt.memcpy(ptr, 64, acl.util.bytes_to_ptr(data), 64, 1) == ACL_SUCCESS
    back = bytes(64)
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(back), 64, ptr, 64, 2) == ACL_SUCCESS
    assert back == data
    assert acl.media.dvpp_free(ptr) == ACL_SUCCESS


def test_dvpp_malloc_of_zero_bytes_is_the_c_error(acl, runtime):
    assert acl.media.dvpp_malloc(0) == (0, 100000)  # ACL_ERROR_INVALID_PARAM
