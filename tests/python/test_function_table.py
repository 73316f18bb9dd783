"""Every function of pyACL's tables (python/functions.txt) exists, and a call that fails —
zeros for every handle, before any device is set — answers in the documented shape: ret alone,
(outputs..., ret), None, or the C return value. Runs in a fresh process so nothing is set up."""
import os
import re

import pytest

from conftest import run_python

TABLE = os.path.join(os.path.dirname(__file__), "..", "..", "python", "functions.txt")


def rows():
    out = []
    with open(TABLE, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                call, returns, cfunc = [c.strip() for c in line.split("|")[:3]]
                out.append((call, returns, cfunc))
    return out


ROWS = rows()

# The probe runs in a subprocess: for each function it calls with zeros; on a TypeError it reads
# the argument types from the signature in the message and calls again with values of those types.
PROBE = r'''
import json, re, sys
import acl
DUMMY = {"int": 0, "float": 0.0, "str": "", "list": [], "dict": {}, "tuple": (), "bytes": b"",
         "callable": (lambda *a: None), "callable or None": None, "": 0}
SPECIFIC = {  # calls whose zero arguments are not a failing call
    "acl.util.ptr_to_numpy": (0, (0,), 11), "acl.util.ptr_to_bytes": (0, 0),
    "acl.util.bytes_to_ptr": (b"xy",), "acl.util.start_thread": ((lambda a: None), None),
    "acl.mdl.set_input_dynamic_dims": (0, 0, 0, {"dims": []}),
    "acl.util.numpy_to_ptr": None, "acl.util.numpy_contiguous_to_ptr": None,
}
def typed(sig):
    args = re.search(r"\((.*?)\) ->", sig).group(1)
    out = []
    for a in filter(None, [x.strip() for x in re.split(r",\s*(?![^\[]*\])", args)]):
        t = a.split(":", 1)[1].strip() if ":" in a else ""
        out.append(DUMMY.get(t, DUMMY.get(t.split("[")[0], 0)))
    return tuple(out)
result, extra = {}, {}
for call in json.load(sys.stdin):
    name = call.split("(")[0]
    fn = acl
    for part in name.split(".")[1:]:
        fn = getattr(fn, part, None)
    if fn is None:
        result[name] = ["missing"]; continue
    listed = [a.strip() for a in call[call.index("(") + 1:-1].split(",") if a.strip()]
    nargs = len([a for a in listed if not a.startswith("[")])
    try:  # one argument too many: a TypeError naming the function
        fn(*([0] * (len(listed) + 1)))
        extra[name] = "no TypeError"
    except TypeError as e:
        extra[name] = "ok" if name + "(" in str(e) else "message without signature: " + str(e)
    except Exception as e:
        extra[name] = type(e).__name__ + ": " + str(e)
    args = SPECIFIC.get(name, (0,) * nargs)
    if args is None:
        import numpy; args = (numpy.zeros(2, dtype=numpy.float32),)
    try:
        value = fn(*args)
    except TypeError as e:
        try:
            value = fn(*typed(str(e)))
        except Exception as e2:
            result[name] = ["raised", type(e2).__name__ + ": " + str(e2)]; continue
    except Exception as e:
        result[name] = ["raised", type(e).__name__ + ": " + str(e)]; continue
    if isinstance(value, tuple):
        result[name] = ["tuple", len(value), type(value[-1]).__name__]
    else:
        result[name] = ["value", type(value).__name__]
json.dump({"shape": result, "extra": extra}, sys.stdout)
'''


@pytest.fixture(scope="module")
def probed():
    import json
    import subprocess
    import sys
    calls = [r[0] for r in ROWS]
    proc = subprocess.run([sys.executable, "-c", PROBE], input=json.dumps(calls),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def expected_shape(returns):
    if returns == "ret":
        return ["value", "int"]
    if returns == "None":
        return ["value", "NoneType"]
    if returns.startswith("("):
        elems, depth, cur = [], 0, ""
        for ch in returns[1:-1]:
            depth += ch in "[{("
            depth -= ch in "]})"
            if ch == "," and depth == 0:
                elems.append(cur.strip())
                cur = ""
            else:
                cur += ch
        elems.append(cur.strip())
        return ["tuple", len(elems), "int" if elems[-1] == "ret" else "ndarray"]
    return None  # a C value: any non-tuple


def test_table_lists_every_function_of_the_reference_once():
    names = [r[0].split("(")[0] for r in ROWS]
    assert len(names) == len(set(names))
    assert len(names) == 587  # §2.1-2.8 of the reference


# Documented exceptions: the video calls need a registered Python callback first.
RAISES_WITHOUT_CALLBACK = {"acl.media.vdec_get_channel_desc_callback",
                           "acl.media.vdec_send_frame", "acl.media.vdec_send_skipped_frame",
                           "acl.media.venc_send_frame", "acl.media.venc_get_channel_desc_callback"}


@pytest.mark.parametrize("call,returns,cfunc", ROWS, ids=[r[0].split("(")[0] for r in ROWS])
def test_failing_call_has_documented_shape(probed, call, returns, cfunc):
    got = probed["shape"][call.split("(")[0]]
    if call.split("(")[0] in RAISES_WITHOUT_CALLBACK:
        assert got[0] == "raised" and got[1].startswith("RuntimeError"), got
        return
    assert got[0] not in ("missing", "raised"), got
    want = expected_shape(returns)
    if want is None:
        assert got[0] == "value", got
    else:
        assert got == want, f"{call} -> {returns}"


@pytest.mark.parametrize("call", [r[0] for r in ROWS], ids=[r[0].split("(")[0] for r in ROWS])
def test_too_many_arguments_raise_type_error_with_the_signature(probed, call):
    assert probed["extra"][call.split("(")[0]] == "ok"
