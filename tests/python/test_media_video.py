"""acl.media video from Python: VENC encodes synthetic NV12 frames, VDEC decodes the packets
back; both callbacks run on the report thread (acl.util.start_thread + process_report)."""
import os
import threading
import time

# The default chip (Atlas A2) has no video encoder: run on an Atlas 300I Pro's, set before the
# runtime starts (pytest imports this module before the fixtures initialise it).
os.environ["OPENACL_SOC_NAME"] = "Ascend310P3"

from conftest import ACL_SUCCESS  # noqa: E402

NV12 = 1  # PIXEL_FORMAT_YUV_SEMIPLANAR_420
H264_MAIN_LEVEL = 2
W, H = 176, 144
FRAMES = 4


class Reporter:
    def __init__(self, acl, context):
        self.acl, self.stop, self.ident = acl, False, None
        self.tid, ret = acl.util.start_thread(self.loop, context)
        assert ret == 0
        while self.ident is None:
            time.sleep(0.001)

    def loop(self, context):
        self.acl.rt.set_context(context)
        self.ident = threading.get_ident()
        while not self.stop:
            self.acl.rt.process_report(20)

    def close(self):
        self.stop = True
        assert self.acl.util.stop_thread(self.tid) == 0


def frame(i):
    """Frame i: a luma gradient moving 2 px a frame, flat chroma."""
    luma = bytes(((x + 2 * i) * 200 // W + y * 40 // H) % 256 for y in range(H) for x in range(W))
    return luma + bytes([128]) * (W * H // 2)


def to_device(acl, data):
    ptr, ret = acl.media.dvpp_malloc(len(data))
    assert ret == ACL_SUCCESS
    assert acl.rt.memcpy(ptr, len(data), acl.util.bytes_to_ptr(data), len(data), 1) == ACL_SUCCESS
    return ptr


def test_venc_then_vdec_round_trip_from_python(acl, runtime):
    reporter = Reporter(acl, runtime["context"])
    try:
        # ---- encode ----
        packets, threads = [], set()

        def on_packet(pic_desc, stream_desc, user_data):
            threads.add(threading.get_ident())
            assert acl.media.dvpp_get_stream_desc_ret_code(stream_desc) == 0
            size = acl.media.dvpp_get_stream_desc_size(stream_desc)
            data = bytes(size)
            assert acl.rt.memcpy(acl.util.bytes_to_ptr(data), size,
                                 acl.media.dvpp_get_stream_desc_data(stream_desc), size,
                                 2) == ACL_SUCCESS
            packets.append((user_data, data))

        venc = acl.media.venc_create_channel_desc()
        for setter, value in ((acl.media.venc_set_channel_desc_thread_id, reporter.tid),
                              (acl.media.venc_set_channel_desc_callback, on_packet),
                              (acl.media.venc_set_channel_desc_entype, H264_MAIN_LEVEL),
                              (acl.media.venc_set_channel_desc_pic_format, NV12),
                              (acl.media.venc_set_channel_desc_pic_width, W),
                              (acl.media.venc_set_channel_desc_pic_height, H)):
            assert setter(venc, value) == ACL_SUCCESS
        assert acl.media.venc_create_channel(venc) == ACL_SUCCESS
        pictures, pic_descs = [], []
        for i in range(FRAMES):
            pictures.append(to_device(acl, frame(i)))
            desc = acl.media.dvpp_create_pic_desc()
            for setter, value in ((acl.media.dvpp_set_pic_desc_data, pictures[-1]),
                                  (acl.media.dvpp_set_pic_desc_size, W * H * 3 // 2),
                                  (acl.media.dvpp_set_pic_desc_format, NV12),
                                  (acl.media.dvpp_set_pic_desc_width, W),
                                  (acl.media.dvpp_set_pic_desc_height, H),
                                  (acl.media.dvpp_set_pic_desc_width_stride, W),
                                  (acl.media.dvpp_set_pic_desc_height_stride, H)):
                assert setter(desc, value) == ACL_SUCCESS
            pic_descs.append(desc)
            assert acl.media.venc_send_frame(venc, desc, 0, 0, i) == ACL_SUCCESS
        eos = acl.media.venc_create_frame_config()
        assert acl.media.venc_set_frame_config_eos(eos, 1) == ACL_SUCCESS
        assert acl.media.venc_send_frame(venc, 0, 0, eos, None) == ACL_SUCCESS  # waits
        assert [index for index, _ in packets] == list(range(FRAMES))
        assert threads == {reporter.ident}
        assert acl.media.venc_destroy_channel(venc) == ACL_SUCCESS
        assert acl.media.venc_destroy_channel_desc(venc) == ACL_SUCCESS
        assert acl.media.venc_destroy_frame_config(eos) == ACL_SUCCESS

        # ---- decode ----
        decoded = []

        def on_picture(stream_desc, pic_desc, user_data):
            assert acl.media.dvpp_get_pic_desc_ret_code(pic_desc) == 0
            ws = acl.media.dvpp_get_pic_desc_width_stride(pic_desc)
            luma = bytes(ws * H)
            assert acl.rt.memcpy(acl.util.bytes_to_ptr(luma), len(luma),
                                 acl.media.dvpp_get_pic_desc_data(pic_desc), len(luma),
                                 2) == ACL_SUCCESS
            decoded.append((user_data, ws, luma))

        vdec = acl.media.vdec_create_channel_desc()
        for setter, value in ((acl.media.vdec_set_channel_desc_thread_id, reporter.tid),
                              (acl.media.vdec_set_channel_desc_callback, on_picture),
                              (acl.media.vdec_set_channel_desc_entype, H264_MAIN_LEVEL)):
            assert setter(vdec, value) == ACL_SUCCESS
        assert acl.media.vdec_create_channel(vdec) == ACL_SUCCESS
        streams, outputs, buffers = [], [], []
        for index, data in packets:
            buffers.append(to_device(acl, data))
            stream = acl.media.dvpp_create_stream_desc()
            assert acl.media.dvpp_set_stream_desc_data(stream, buffers[-1]) == ACL_SUCCESS
            assert acl.media.dvpp_set_stream_desc_size(stream, len(data)) == ACL_SUCCESS
            out, ret = acl.media.dvpp_malloc(W * H * 3 // 2)
            assert ret == ACL_SUCCESS
            buffers.append(out)
            pic = acl.media.dvpp_create_pic_desc()
            assert acl.media.dvpp_set_pic_desc_data(pic, out) == ACL_SUCCESS
            assert acl.media.dvpp_set_pic_desc_size(pic, W * H * 3 // 2) == ACL_SUCCESS
            streams.append(stream)
            outputs.append(pic)
            assert acl.media.vdec_send_frame(vdec, stream, pic, 0, index) == ACL_SUCCESS
        end = acl.media.dvpp_create_stream_desc()
        assert acl.media.dvpp_set_stream_desc_eos(end, 1) == ACL_SUCCESS
        assert acl.media.vdec_send_frame(vdec, end, 0, 0, None) == ACL_SUCCESS  # waits
        assert [index for index, _, _ in decoded] == list(range(FRAMES))
        for index, ws, luma in decoded:
            source = frame(index)
            err = sum(abs(luma[y * ws + x] - source[y * W + x])
                      for y in range(0, H, 4) for x in range(0, W, 4))
            assert err / ((H // 4) * (W // 4)) < 3.0  # mean luma error at 300 kbit/s
        assert acl.media.vdec_destroy_channel(vdec) == ACL_SUCCESS
        assert acl.media.vdec_destroy_channel_desc(vdec) == ACL_SUCCESS
        for desc in pic_descs + outputs:
            assert acl.media.dvpp_destroy_pic_desc(desc) == ACL_SUCCESS
        for desc in streams + [end]:
            assert acl.media.dvpp_destroy_stream_desc(desc) == ACL_SUCCESS
        for ptr in pictures + buffers:
            assert acl.media.dvpp_free(ptr) == ACL_SUCCESS
    finally:
        reporter.close()
