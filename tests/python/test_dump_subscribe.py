"""acl.mdl dumps and acl.prof operator subscriptions from Python, as pyACL programs use them: a
two-layer model (x * x, then Softmax) whose layers are dumped to files or to a callback, and
whose operators arrive on a pipe after each execution."""
import glob
import os
import struct

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")  # Debian python3-onnx (scripts/install-deps.sh)
from onnx import TensorProto, helper  # noqa: E402

from conftest import (ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST,  # noqa: E402
                      ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS)

WIDTH = 8


def model_bytes():
    graph = helper.make_graph(
        [helper.make_node("Mul", ["x", "x"], ["t"], name="sq"),
         helper.make_node("Softmax", ["t"], ["y"], name="soft")],
        "square",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, WIDTH])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, WIDTH])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    return model.SerializeToString()


class Model:
    """The model loaded from memory, with device buffers for one input and one output."""

    def __init__(self, acl):
        self.acl = acl
        blob = model_bytes()
        self.id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(blob), len(blob))
        assert ret == ACL_SUCCESS
        self.size = WIDTH * 4
        self.x, ret = acl.rt.malloc(self.size, ACL_MEM_MALLOC_HUGE_FIRST)
        self.y, ret = acl.rt.malloc(self.size, ACL_MEM_MALLOC_HUGE_FIRST)
        self.inputs = acl.mdl.create_dataset()
        self.outputs = acl.mdl.create_dataset()
        self.buffers = [acl.create_data_buffer(self.x, self.size),
                        acl.create_data_buffer(self.y, self.size)]
        acl.mdl.add_dataset_buffer(self.inputs, self.buffers[0])
        acl.mdl.add_dataset_buffer(self.outputs, self.buffers[1])

    def run(self, x):
        data = x.astype(np.float32).tobytes()
        assert self.acl.rt.memcpy(self.x, self.size, self.acl.util.bytes_to_ptr(data), self.size,
                                  ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
        assert self.acl.mdl.execute(self.id, self.inputs, self.outputs) == ACL_SUCCESS
        out = bytes(self.size)  # written through its address, as pyACL samples do
        assert self.acl.rt.memcpy(self.acl.util.bytes_to_ptr(out), self.size, self.y, self.size,
                                  ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
        return np.frombuffer(out, dtype=np.float32).copy()

    def close(self):
        for b in self.buffers:
            self.acl.destroy_data_buffer(b)
        self.acl.mdl.destroy_dataset(self.inputs)
        self.acl.mdl.destroy_dataset(self.outputs)
        self.acl.rt.free(self.x)
        self.acl.rt.free(self.y)
        assert self.acl.mdl.unload(self.id) == ACL_SUCCESS


def tail_floats(raw, count):
    return np.frombuffer(raw[len(raw) - 4 * count:], dtype=np.float32)


def test_a_subscription_delivers_one_record_per_layer_on_the_pipe(acl, runtime):
    model = Model(acl)
    r, w = os.pipe()
    config = acl.prof.create_subscribe_config(1, 0xFF, w)  # ACL_AICORE_NONE
    assert config != 0
    assert acl.prof.model_subscribe(model.id, config) == ACL_SUCCESS
    model.run(np.arange(WIDTH))
    size, ret = acl.prof.get_op_desc_size()
    assert ret == ACL_SUCCESS
    data = os.read(r, 2 * size)
    assert len(data) == 2 * size
    ptr = acl.util.bytes_to_ptr(data)
    assert acl.prof.get_op_num(ptr, len(data)) == (2, ACL_SUCCESS)
    assert acl.prof.get_op_name_v2(ptr, len(data), 0) == ("sq", ACL_SUCCESS)
    assert acl.prof.get_op_type_v2(ptr, len(data), 1) == ("Softmax", ACL_SUCCESS)
    assert acl.prof.get_op_end(ptr, len(data), 1) >= acl.prof.get_op_start(ptr, len(data), 1)
    assert acl.prof.model_unsubscribe(model.id) == ACL_SUCCESS
    assert os.read(r, 1) == b""  # the runtime closed the write end
    os.close(r)
    assert acl.prof.destroy_subscribe_config(config) == ACL_SUCCESS
    model.close()


def test_set_dump_writes_each_layers_output(acl, runtime, tmp_path):
    config = tmp_path / "dump.json"
    out = tmp_path / "out"
    config.write_text('{"dump": {"dump_path": "%s", "dump_list": [{"model_name": "square"}]}}'
                      % out)
    assert acl.mdl.init_dump() == ACL_SUCCESS
    assert acl.mdl.set_dump(str(config)) == ACL_SUCCESS
    model = Model(acl)
    x = np.arange(WIDTH, dtype=np.float32)
    y = model.run(x)
    assert acl.mdl.finalize_dump() == ACL_SUCCESS
    files = sorted(glob.glob(str(out / "*" / "0" / "square" / str(model.id) / "0" / "*")))
    assert [os.path.basename(f).split(".")[:2] for f in files] == [["Binary", "sq"],
                                                                    ["Softmax", "soft"]]
    for path in files:
        raw = open(path, "rb").read()
        (header,) = struct.unpack_from("<Q", raw)
        assert 8 + header + 4 * WIDTH == len(raw)
    np.testing.assert_array_equal(tail_floats(open(files[1], "rb").read(), WIDTH), y)
    model.close()


def test_a_dump_callback_receives_the_bytes_instead_of_files(acl, runtime, tmp_path):
    chunks = []

    def collect(chunk):
        chunks.append((chunk["file_name"], chunk["offset"], chunk["is_last_chunk"],
                       acl.util.ptr_to_bytes(chunk["data_buf"], chunk["buf_len"])))
        return 0

    config = tmp_path / "dump.json"
    out = tmp_path / "out"
    config.write_text('{"dump": {"dump_path": "%s", "dump_list": []}}' % out)
    assert acl.mdl.dump_reg_callback(collect, 0) == ACL_SUCCESS
    assert acl.mdl.init_dump() == ACL_SUCCESS
    assert acl.mdl.set_dump(str(config)) == ACL_SUCCESS
    model = Model(acl)
    y = model.run(np.arange(WIDTH, dtype=np.float32))
    assert acl.mdl.finalize_dump() == ACL_SUCCESS
    acl.mdl.dump_unreg_callback()
    assert not out.exists()
    soft = [c for c in chunks if ".soft." in c[0]]
    assert len(soft) == 1 and soft[0][1] == 0 and soft[0][2] == 1
    np.testing.assert_array_equal(tail_floats(soft[0][3], WIDTH), y)
    model.close()
