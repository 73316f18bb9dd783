"""acl.media: the Python-side rules for video callbacks, and DVPP image work from Python (the
DVPP rules themselves are tested in tests/dvpp/; video round trips in test_media_video.py)."""
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


PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1  # NV12


def nv12_desc(acl, data, width, height):
    """A picture description of an NV12 picture with VPC's strides (16 across, 2 down)."""
    ws, hs = (width + 15) // 16 * 16, (height + 1) // 2 * 2
    desc = acl.media.dvpp_create_pic_desc()
    for setter, value in ((acl.media.dvpp_set_pic_desc_data, data),
                          (acl.media.dvpp_set_pic_desc_size, ws * hs * 3 // 2),
                          (acl.media.dvpp_set_pic_desc_format, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                          (acl.media.dvpp_set_pic_desc_width, width),
                          (acl.media.dvpp_set_pic_desc_height, height),
                          (acl.media.dvpp_set_pic_desc_width_stride, ws),
                          (acl.media.dvpp_set_pic_desc_height_stride, hs)):
        assert setter(desc, value) == ACL_SUCCESS
    return desc, ws * hs * 3 // 2


def test_vpc_resize_from_python_halves_a_picture_keeping_its_values(acl, runtime):
    channel = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_create_channel(channel) == ACL_SUCCESS
    src_bytes = 640 * 480 * 3 // 2
    src, ret = acl.media.dvpp_malloc(src_bytes)
    assert ret == ACL_SUCCESS
    picture = bytes([100]) * (640 * 480) + bytes([128]) * (640 * 480 // 2)  # flat grey
    assert acl.rt.memcpy(src, src_bytes, acl.util.bytes_to_ptr(picture), src_bytes,
                         1) == ACL_SUCCESS
    in_desc, _ = nv12_desc(acl, src, 640, 480)
    dst_bytes = 320 * 240 * 3 // 2
    dst, ret = acl.media.dvpp_malloc(dst_bytes)
    assert ret == ACL_SUCCESS
    out_desc, _ = nv12_desc(acl, dst, 320, 240)
    resize = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_resize_async(channel, in_desc, out_desc, resize,
                                           runtime["stream"]) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    result = bytes(dst_bytes)
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(result), dst_bytes, dst, dst_bytes,
                         2) == ACL_SUCCESS
    assert set(result[:320 * 240]) == {100} and set(result[320 * 240:]) == {128}
    for release in (lambda: acl.media.dvpp_destroy_resize_config(resize),
                    lambda: acl.media.dvpp_destroy_pic_desc(in_desc),
                    lambda: acl.media.dvpp_destroy_pic_desc(out_desc),
                    lambda: acl.media.dvpp_free(src), lambda: acl.media.dvpp_free(dst),
                    lambda: acl.media.dvpp_destroy_channel(channel),
                    lambda: acl.media.dvpp_destroy_channel_desc(channel)):
        assert release() == ACL_SUCCESS


def test_vpc_resize_breaking_a_rule_answers_the_c_code(acl, runtime):
    channel = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_create_channel(channel) == ACL_SUCCESS
    resize = acl.media.dvpp_create_resize_config()
    # A null input picture: the C function's own code, no exception.
    assert acl.media.dvpp_vpc_resize_async(channel, 0, 0, resize,
                                           runtime["stream"]) == 100000
    assert acl.media.dvpp_destroy_resize_config(resize) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_channel(channel) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_channel_desc(channel) == ACL_SUCCESS
