"""The Python examples (examples/python) run as tests, so what a learner reads always works."""
import os
import re
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python")


def run_example(name, *args):
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, name), *args],
                          capture_output=True, text=True, timeout=300)


def required_env(name):
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set (ctest sets it; see tests/python/CMakeLists.txt)")
    return value


def test_concepts_walkthrough_passes_every_step_including_the_kernel():
    result = run_example("concepts_walkthrough.py", required_env("OPENACL_EXAMPLE_KERNELS"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"all \d+ sums are right", result.stdout)
    assert result.stdout.rstrip().endswith("all steps passed")


def test_classify_prints_the_top_5_classes():
    result = run_example("classify.py", required_env("OPENACL_EXAMPLE_RESNET_MODEL"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "top 5 classes" in result.stdout
    assert result.stdout.count("probability") == 5


def test_classify_reports_a_missing_model_as_the_c_error():
    result = run_example("classify.py", "/nonexistent/model.om")
    assert result.returncode == 1
    assert "acl.mdl.load_from_file failed" in result.stderr
