"""The model flow from Python, as the samples write it: an .om made by atc, loaded from a file
or from memory, datasets of data buffers, execute sync and async, outputs read with numpy."""
import os
import subprocess

import numpy as np
import pytest

from conftest import (ACL_CALLBACK_BLOCK, ACL_FLOAT, ACL_MEM_MALLOC_HUGE_FIRST,
                      ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS)
from test_callbacks import Reporter

ONNX_ADD = "/usr/share/libonnx-testdata/data/node/test_add/model.onnx"
SHAPE = (3, 4, 5)


@pytest.fixture(scope="module")
def om_path(tmp_path_factory):
    atc = os.environ.get("OPENACL_ATC") or os.path.join(
        os.path.dirname(__file__), "..", "..", "build", "bin", "atc")
    out = tmp_path_factory.mktemp("om") / "add"
    subprocess.run([atc, f"--model={ONNX_ADD}", "--framework=5", f"--output={out}",
                    "--soc_version=Ascend310P3"], check=True, capture_output=True)
    return str(out) + ".om"


@pytest.fixture
def model(acl, runtime, om_path):
    model_id, ret = acl.mdl.load_from_file(om_path)
    assert ret == ACL_SUCCESS
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == ACL_SUCCESS
    yield model_id, desc
    assert acl.mdl.destroy_desc(desc) == ACL_SUCCESS
    assert acl.mdl.unload(model_id) == ACL_SUCCESS


def make_dataset(acl, desc, count, size_of):
    dataset, buffers = acl.mdl.create_dataset(), []
    for i in range(count):
        size = size_of(desc, i)
        dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == ACL_SUCCESS
        buf = acl.create_data_buffer(dev, size)
        echoed, ret = acl.mdl.add_dataset_buffer(dataset, buf)  # pyACL's (dataset, ret) quirk
        assert (echoed, ret) == (dataset, ACL_SUCCESS)
        buffers.append((dev, size, buf))
    return dataset, buffers


def free_dataset(acl, dataset, buffers):
    for dev, _, buf in buffers:
        assert acl.destroy_data_buffer(buf) == ACL_SUCCESS
        assert acl.rt.free(dev) == ACL_SUCCESS
    assert acl.mdl.destroy_dataset(dataset) == ACL_SUCCESS


def prepare(acl, desc):
    inputs = make_dataset(acl, desc, acl.mdl.get_num_inputs(desc), acl.mdl.get_input_size_by_index)
    outputs = make_dataset(acl, desc, acl.mdl.get_num_outputs(desc),
                           acl.mdl.get_output_size_by_index)
    rng = np.random.default_rng(7)
    arrays = [rng.standard_normal(SHAPE).astype(np.float32) for _ in inputs[1]]
    for (dev, size, _), array in zip(inputs[1], arrays):
        blob = array.tobytes()
        assert acl.rt.memcpy(dev, size, acl.util.bytes_to_ptr(blob), len(blob),
                             ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    return inputs, outputs, arrays


def read_output(acl, desc, outputs):
    dev, size, _ = outputs[1][0]
    dims, ret = acl.mdl.get_cur_output_dims(desc, 0)
    assert ret == ACL_SUCCESS
    out = bytes(size)
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(out), size, dev, size,
                         ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    return np.frombuffer(out, dtype=np.float32).reshape(dims["dims"])


def test_model_description_reads_like_the_c_api(acl, model):
    _, desc = model
    assert (acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)) == (2, 1)
    assert acl.mdl.get_input_size_by_index(desc, 0) == 3 * 4 * 5 * 4
    dims, ret = acl.mdl.get_input_dims(desc, 0)
    assert ret == ACL_SUCCESS
    assert dims["dims"] == list(SHAPE) and dims["dimCount"] == 3 and isinstance(dims["name"], str)
    assert acl.mdl.get_output_data_type(desc, 0) == ACL_FLOAT
    assert isinstance(acl.mdl.get_input_name_by_index(desc, 0), str)


def test_dims_of_a_missing_output_are_an_empty_dict_and_the_c_error(acl, model):
    dims, ret = acl.mdl.get_output_dims(model[1], 5)
    assert dims == {} and ret != ACL_SUCCESS


def test_static_model_has_no_dynamic_batch_input(acl, model):
    # acllite probes this name on every execute: a nonzero ret, never an exception.
    index, ret = acl.mdl.get_input_index_by_name(model[1], "ascend_mbatch_shape_data")
    assert ret != ACL_SUCCESS and isinstance(index, int)


def test_execute_computes_the_model(acl, model):
    model_id, desc = model
    inputs, outputs, arrays = prepare(acl, desc)
    assert acl.mdl.execute(model_id, inputs[0], outputs[0]) == ACL_SUCCESS
    np.testing.assert_allclose(read_output(acl, desc, outputs), arrays[0] + arrays[1], rtol=1e-6)
    free_dataset(acl, *inputs)
    free_dataset(acl, *outputs)


def test_execute_async_with_a_callback_when_done(acl, runtime, model):
    model_id, desc = model
    stream = runtime["stream"]
    inputs, outputs, arrays = prepare(acl, desc)
    reporter = Reporter(acl, runtime["context"])
    assert acl.rt.subscribe_report(reporter.tid, stream) == ACL_SUCCESS
    done = []
    assert acl.mdl.execute_async(model_id, inputs[0], outputs[0], stream) == ACL_SUCCESS
    assert acl.rt.launch_callback(lambda data: done.append(read_output(acl, desc, data)),
                                  outputs, ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert acl.rt.unsubscribe_report(reporter.tid, stream) == ACL_SUCCESS
    reporter.close()
    assert len(done) == 1
    np.testing.assert_allclose(done[0], arrays[0] + arrays[1], rtol=1e-6)
    free_dataset(acl, *inputs)
    free_dataset(acl, *outputs)


def test_load_from_mem_takes_the_file_bytes(acl, runtime, om_path):
    with open(om_path, "rb") as f:
        blob = f.read()
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(blob), len(blob))
    assert ret == ACL_SUCCESS
    assert acl.mdl.unload(model_id) == ACL_SUCCESS


def test_loading_a_missing_file_is_the_c_error(acl, runtime):
    model_id, ret = acl.mdl.load_from_file("/nonexistent/model.om")
    assert ret != ACL_SUCCESS
    assert "model.om" in (acl.get_recent_err_msg() or "")


def test_execute_with_an_unknown_model_id_is_the_c_error(acl, runtime):
    dataset = acl.mdl.create_dataset()
    assert acl.mdl.execute(4242, dataset, dataset) == 100011  # ACL_ERROR_INVALID_MODEL_ID
    assert acl.mdl.destroy_dataset(dataset) == ACL_SUCCESS


def test_load_with_config_takes_the_path_as_a_str(acl, runtime, om_path):
    ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_PATH_PTR, ACL_MDL_LOAD_FROM_FILE = 1, 2, 1
    handle = acl.mdl.create_config_handle()
    assert acl.mdl.set_config_opt(handle, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE) == 0
    assert acl.mdl.set_config_opt(handle, ACL_MDL_PATH_PTR, om_path) == ACL_SUCCESS
    model_id, ret = acl.mdl.load_with_config(handle)
    assert ret == ACL_SUCCESS
    assert acl.mdl.unload(model_id) == ACL_SUCCESS
    assert acl.mdl.destroy_config_handle(handle) == ACL_SUCCESS


def test_load_with_config_without_a_load_type_is_the_c_error(acl, runtime, om_path):
    handle = acl.mdl.create_config_handle()
    assert acl.mdl.set_config_opt(handle, 2, om_path) == ACL_SUCCESS
    _, ret = acl.mdl.load_with_config(handle)
    assert ret == 100000  # ACL_ERROR_INVALID_PARAM
    assert "ACL_MDL_LOAD_TYPE_SIZET" in acl.get_recent_err_msg()
    assert acl.mdl.destroy_config_handle(handle) == ACL_SUCCESS
