#!/usr/bin/env python3
"""openacl's bisheng driver (tools/bisheng): how it reads CANN's options, what it refuses, and a
.asc program compiled and linked from the command line, as `bisheng x.asc -o x` is used."""
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get("OPENACL_SOURCE_DIR",
                            os.path.join(os.path.dirname(__file__), "..", ".."))
DRIVER = os.path.join(SOURCE_DIR, "tools", "bisheng")
CXX = os.environ.get("OPENACL_CXX", "c++")
LIBRARY = os.environ.get("OPENACL_LIBRARY", "")
OPENACL_FLAGS = ["--openacl-include=" + os.path.join(SOURCE_DIR, "include"),
                 "--openacl-include=" + os.path.join(SOURCE_DIR, "src", "ascendc", "include"),
                 "--openacl-library=" + LIBRARY, "--host-compiler=" + CXX]

loader = importlib.machinery.SourceFileLoader("bisheng", DRIVER)
spec = importlib.util.spec_from_loader("bisheng", loader)
bisheng = importlib.util.module_from_spec(spec)
loader.exec_module(bisheng)


def run_driver(*args, cwd=None):
    return subprocess.run([sys.executable, DRIVER, *OPENACL_FLAGS, *args], cwd=cwd,
                          capture_output=True, text=True)


class Options(unittest.TestCase):
    def test_npu_arch_gives_the_chips_numbers(self):
        o = bisheng.parse(["--npu-arch=dav-3510", "x.asc"])
        self.assertEqual(bisheng.chip_defines(o), ["-D__NPU_ARCH__=3510", "-D__CCE_AICORE__=310"])

    def test_the_default_architecture_is_atlas_a2(self):
        o = bisheng.parse(["x.asc"])
        self.assertEqual(bisheng.chip_defines(o), ["-D__NPU_ARCH__=2201", "-D__CCE_AICORE__=220"])

    def test_cpu_run_mode_defines_ascendc_cpu_debug(self):
        o = bisheng.parse(["--run-mode=cpu", "x.asc"])
        self.assertIn("-DASCENDC_CPU_DEBUG=1", bisheng.chip_defines(o))
        self.assertNotIn("-DASCENDC_CPU_DEBUG=1", bisheng.chip_defines(bisheng.parse(["x.asc"])))

    def test_device_compiler_options_are_dropped_and_host_sections_kept(self):
        o = bisheng.parse(["-Xaicore-start", "-O0", "--cce-foo", "-Xaicore-end", "-mllvm",
                           "-cce-aicore-stack-size=0x8000", "--cce-auto-sync", "--enable-simt",
                           "-Xhost-start", "-Wall", "-DHOST=1", "-Xhost-end", "x.asc"])
        self.assertEqual(o.compile_args, ["-Wall", "-DHOST=1"])
        self.assertEqual(o.both_args, [])
        self.assertEqual(o.inputs, [("x.asc", True)])

    def test_x_asc_makes_any_file_a_source(self):
        o = bisheng.parse(["-x", "asc", "kernel.cpp", "-c"])
        self.assertEqual(o.inputs, [("kernel.cpp", True)])
        self.assertEqual(bisheng.parse(["kernel.cpp"]).inputs, [("kernel.cpp", False)])

    def test_linker_options_go_to_the_link_and_dependency_options_to_the_final_compile(self):
        o = bisheng.parse(["-L/opt/lib", "-ltiling_api", "-Wl,--as-needed", "-MD", "-MT", "x.o",
                           "-MF", "x.d", "-O2", "-fPIC", "-Iinc", "x.asc"])
        self.assertEqual(o.link_args, ["-L/opt/lib", "-ltiling_api", "-Wl,--as-needed"])
        self.assertEqual(o.dep_args, ["-MD", "-MT", "x.o", "-MF", "x.d"])
        self.assertEqual(o.both_args, ["-O2", "-fPIC"])
        self.assertEqual(o.compile_args, ["-Iinc"])

    def test_a_standard_below_cxx20_is_raised_to_it(self):
        def std(flag):
            return bisheng.std_flag(bisheng.parse([flag, "x.asc"]))
        self.assertEqual(std("-std=c++17"), "-std=c++20")
        self.assertEqual(std("-std=gnu++14"), "-std=gnu++20")
        self.assertEqual(std("-std=c++23"), "-std=c++23")


class Refusals(unittest.TestCase):
    def test_an_unknown_architecture_is_refused_listing_the_known_ones(self):
        r = run_driver("--npu-arch=dav-9999", "x.asc")
        self.assertEqual(r.returncode, 1)
        self.assertIn("--npu-arch=dav-9999 is not an architecture openacl knows", r.stderr)
        self.assertIn("dav-2201", r.stderr)

    def test_an_unknown_run_mode_is_refused(self):
        r = run_driver("--run-mode=fpga", "x.asc")
        self.assertEqual(r.returncode, 1)
        self.assertIn("--run-mode=fpga is not one of npu, cpu, sim", r.stderr)

    def test_no_input_is_refused(self):
        r = run_driver("-c")
        self.assertEqual(r.returncode, 1)
        self.assertIn("no input files", r.stderr)

    def test_a_missing_source_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = run_driver("-c", "absent.asc", "-o", "absent.o", cwd=tmp)
        self.assertEqual(r.returncode, 1)
        self.assertIn("absent.asc: no such file", r.stderr)

    def test_a_launch_without_its_closing_chevrons_is_refused_at_its_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "bad.asc"), "w") as f:
                f.write('#include "openacl/kernel.h"\n__global__ __vector__ void k(GM_ADDR x) {}\n'
                        "void f(void* s) {\n  k<<<1, 0, s(nullptr);\n}\n")
            r = run_driver("-c", "bad.asc", "-o", "bad.o", cwd=tmp)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("bad.asc:4: '<<<' without '>>>'", r.stderr)


class CommandLineProgram(unittest.TestCase):
    @unittest.skipUnless(LIBRARY, "OPENACL_LIBRARY (the built libascendcl.so) is not set")
    def test_a_program_compiled_and_linked_in_one_command_runs_its_kernel(self):
        source = r'''
#include <cstdio>
#include "acl/acl.h"
#include "openacl/kernel.h"

__global__ __vector__ void fill(__gm__ int* out, int value) {
    out[GetBlockIdx()] = value + static_cast<int>(GetBlockIdx());
}

int main() {
    int* out = nullptr;
    aclrtStream stream = nullptr;
    if (aclInit(nullptr) || aclrtSetDevice(0) || aclrtCreateStream(&stream) ||
        aclrtMalloc(reinterpret_cast<void**>(&out), 4 * sizeof(int), ACL_MEM_MALLOC_HUGE_FIRST))
        return 2;
    fill<<<4, 0, stream>>>(out, 40);
    int host[4] = {};
    if (aclrtSynchronizeStream(stream) ||
        aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST))
        return 3;
    std::printf("%d %d %d %d\n", host[0], host[1], host[2], host[3]);
    aclrtFree(out);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
'''
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "fill.asc"), "w") as f:
                f.write(source)
            r = run_driver("fill.asc", "-o", "fill", "--npu-arch=dav-2201", "-O1", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.isfile(os.path.join(tmp, "fill.fill.o.openacl", "fill.cpp")),
                            "the lowered copy is kept beside the object")
            env = dict(os.environ, ASCEND_PROCESS_LOG_PATH=tmp)
            ran = subprocess.run([os.path.join(tmp, "fill")], capture_output=True, text=True,
                                 env=env)
            self.assertEqual(ran.returncode, 0, ran.stderr)
            self.assertEqual(ran.stdout.strip(), "40 41 42 43")


if __name__ == "__main__":
    unittest.main()
