"""Queries whose C structs come back as dicts, strings or lists, and the profiling lifecycle."""
from conftest import ACL_MEM_MALLOC_HUGE_FIRST, ACL_SUCCESS

ACL_MEM_LOCATION_TYPE_DEVICE = 1


def test_get_version_returns_three_numbers_and_ret(acl):
    major, minor, patch, ret = acl.get_version()
    assert ret == ACL_SUCCESS and all(isinstance(v, int) for v in (major, minor, patch))


def test_get_soc_name_is_a_str(acl, runtime):
    assert isinstance(acl.get_soc_name(), str)


def test_pointer_attributes_come_back_as_a_dict(acl, runtime):
    dev, _ = acl.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST)
    attrs, ret = acl.rt.pointer_get_attributes(dev)
    assert ret == ACL_SUCCESS
    assert attrs["location"] == {"id": 0, "type": ACL_MEM_LOCATION_TYPE_DEVICE}
    assert attrs["page_size"] > 0 and len(attrs["rsv"]) == 4
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_device_uuid_is_sixteen_byte_values(acl, runtime):
    uuid, ret = acl.rt.device_get_uuid(0)
    assert ret == ACL_SUCCESS and len(uuid["bytes"]) == 16
    assert all(0 <= b < 256 for b in uuid["bytes"])


def test_cann_version_is_a_dict_of_strings(acl):
    version, ret = acl.get_cann_version(0)
    assert ret == ACL_SUCCESS
    assert set(version) == {"version", "major_version", "minor_version", "release_version",
                            "patch_version", "reserved"}
    assert version["version"].startswith(version["major_version"] + ".")


def test_cann_attribute_list_has_its_count(acl):
    attrs, num, ret = acl.get_cann_attribute_list()
    assert ret == ACL_SUCCESS and len(attrs) == num


def test_malloc_with_an_empty_config_is_a_plain_malloc(acl, runtime):
    dev, ret = acl.rt.malloc_with_cfg(128, ACL_MEM_MALLOC_HUGE_FIRST, {})
    assert ret == ACL_SUCCESS and dev != 0
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_profiling_lifecycle_from_python(acl, runtime, tmp_path):
    assert acl.prof.init(str(tmp_path)) == ACL_SUCCESS
    config = acl.prof.create_config([0], 0, 0, 0)
    assert config != 0
    assert acl.prof.start(config) == ACL_SUCCESS
    assert acl.prof.stop(config) == ACL_SUCCESS
    assert acl.prof.destroy_config(config) == ACL_SUCCESS
    assert acl.prof.finalize() == ACL_SUCCESS


def test_msproftx_marks_and_ranges_reach_the_trace(acl, runtime, tmp_path):
    import glob
    import json
    ACL_PROF_MSPROFTX, ACL_STEP_START, ACL_STEP_END = 0x0080, 0, 1
    assert acl.prof.init(str(tmp_path)) == ACL_SUCCESS
    config = acl.prof.create_config([0], 0, 0, ACL_PROF_MSPROFTX)
    assert acl.prof.start(config) == ACL_SUCCESS
    stamp = acl.prof.create_stamp()
    assert stamp != 0
    assert acl.prof.set_stamp_trace_message(stamp, "python frame", 12) == ACL_SUCCESS
    assert acl.prof.push(stamp) == ACL_SUCCESS
    assert acl.prof.mark(stamp) == ACL_SUCCESS
    assert acl.prof.pop() == ACL_SUCCESS
    range_id, ret = acl.prof.range_start(stamp)
    assert ret == ACL_SUCCESS and range_id != 0
    assert acl.prof.range_stop(range_id) == ACL_SUCCESS
    step = acl.prof.create_step_info()
    assert acl.prof.get_step_timestamp(step, ACL_STEP_START, runtime["stream"]) == ACL_SUCCESS
    assert acl.prof.get_step_timestamp(step, ACL_STEP_END, runtime["stream"]) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    acl.prof.destroy_step_info(step)
    acl.prof.destroy_stamp(stamp)
    assert acl.prof.stop(config) == ACL_SUCCESS
    assert acl.prof.destroy_config(config) == ACL_SUCCESS
    assert acl.prof.finalize() == ACL_SUCCESS
    [path] = glob.glob(str(tmp_path / "*.json"))
    events = json.load(open(path))["traceEvents"]
    phases = {e["ph"] for e in events if e.get("name") == "python frame"}
    assert phases == {"X", "i", "b", "e"}  # push/pop, mark, and the range's two ends
    assert any(e.get("name") == "step 1 end" for e in events)


def test_tensor_desc_dims_and_ranges_take_lists(acl):
    desc = acl.create_tensor_desc(0, [2, 3], 2)
    assert desc != 0
    assert acl.get_tensor_desc_num_dims(desc) == 2
    assert acl.get_tensor_desc_dim_v2(desc, 1) == (3, ACL_SUCCESS)
    assert acl.set_tensor_shape(desc, [4, 5, 6]) == ACL_SUCCESS
    assert acl.get_tensor_desc_element_count(desc) == 120
    assert acl.set_tensor_shape_range(desc, [[1, 4], [1, 5], [1, 6]]) == ACL_SUCCESS
    assert acl.get_tensor_desc_dim_range(desc, 1, 2) == ([1, 5], ACL_SUCCESS)
    assert acl.get_tensor_desc_dim_range(desc, 9, 2) == (None, 100000)  # index out of range
    assert acl.destroy_tensor_desc(desc) is None


def test_app_log_returns_none(acl):
    assert acl.app_log(1, "pyACL test: app_log from Python") is None
