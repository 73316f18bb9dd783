#!/usr/bin/env python3
"""What tools/ascendc_gen.py reads from kernel sources and how it lowers <<<>>> launches."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get("OPENACL_SOURCE_DIR",
                            os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SOURCE_DIR, "tools"))
import ascendc_gen  # noqa: E402


def kernels(text):
    return {k.name: k for k in ascendc_gen.scan(text)[0]}


class SignatureReading(unittest.TestCase):
    def test_extern_c_kernel_with_gm_pointers_scalars_and_a_tiling_struct(self):
        found = kernels("""
            struct TilingData { unsigned total; unsigned tile; };
            extern "C" __global__ __aicore__ void add(GM_ADDR x, __gm__ float* y,
                                                      TilingData tiling, float alpha) { }
        """)
        params = found["add"].params
        self.assertEqual([p.name for p in params], ["x", "y", "tiling", "alpha"])
        self.assertEqual([p.kind for p in params], ["pointer", "pointer", "struct", "scalar"])
        self.assertTrue(found["add"].extern_c)

    def test_gen3_core_qualifiers_mark_cube_kernels(self):
        found = kernels("""
            __global__ __cube__ void c(__gm__ float* x) { }
            __global__ __vector__ void v(__gm__ float* x) { }
            __global__ __mix__(1, 2) void m(__gm__ float* x) { }
            template <typename T> __global__ __cube__ void t(__gm__ T* x) { }
        """)
        self.assertEqual({name: k.cube for name, k in found.items()},
                         {"c": True, "v": False, "m": False, "t": True})
        self.assertEqual([p.name for p in found["m"].params], ["x"])

    def test_mix_kernels_say_how_many_aivs_each_aic_has(self):
        found = kernels("""
            __global__ __mix__(1, 2) void a(__gm__ float* x) { }
            __global__ __mix__(1, 1) void b(__gm__ float* x) { }
            extern "C" __global__ __aicore__ void c(GM_ADDR x) {
                KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
            }
            extern "C" __global__ __aicore__ void d(GM_ADDR x) {
                KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
            }
            __global__ __vector__ void e(__gm__ float* x) { }
        """)
        self.assertEqual({name: k.mix for name, k in found.items()},
                         {"a": 2, "b": 1, "c": 2, "d": 0, "e": 0})

    def test_declarations_without_a_body_are_not_kernels(self):
        self.assertEqual(kernels('extern "C" __global__ __aicore__ void k(GM_ADDR x);'), {})

    def test_comments_are_not_read(self):
        found = kernels("""
            /* __global__ void fake(int a) { } */
            // __global__ void fake2(int a) { }
            __global__ __aicore__ void real(GM_ADDR x /* the input */) { }
        """)
        self.assertEqual(list(found), ["real"])

    def test_launch_bounds_and_mix_qualifiers_are_skipped(self):
        found = kernels("""
            __global__ __aicore__ __launch_bounds__(256) void a(GM_ADDR x) { }
            __global__ __mix__(1, 2) void b(GM_ADDR x, int n) { }
            extern "C" __global__ void __launch_bounds__(64) c(GM_ADDR x) { }
        """)
        self.assertEqual(sorted(found), ["a", "b", "c"])
        self.assertEqual([p.name for p in found["b"].params], ["x", "n"])

    def test_template_kernels_keep_their_template_parameters(self):
        found = kernels("""
            template <typename T, int N = 4>
            __global__ __aicore__ void scale(__gm__ T* out, T factor) { out[0] = factor * N; }
        """)
        k = found["scale"]
        self.assertIsNotNone(k.template)
        self.assertEqual(ascendc_gen.template_args(k), ["T", "N"])
        self.assertEqual([p.kind for p in k.params], ["pointer", "scalar"])

    def test_explicit_specialisations_are_not_separate_kernels(self):
        found = kernels("""
            template <typename T> __global__ void k(__gm__ T* x) { }
            template <> __global__ void k<float>(__gm__ float* x) { }
        """)
        self.assertEqual(list(found), ["k"])

    def test_function_bodies_with_nested_brackets_do_not_hide_later_kernels(self):
        found = kernels("""
            __global__ void first(GM_ADDR x) { int a[2][2] = {{1, 2}, {3, 4}}; x[a[0][1]] = 0; }
            static int helper(int v = 3) { return v; }
            namespace ns { __global__ void second(GM_ADDR x) { } }
        """)
        self.assertEqual(sorted(found), ["first", "second"])
        self.assertEqual(found["second"].namespace, ["ns"])

    def test_typedef_structs_are_tiling_structs(self):
        found = kernels("""
            typedef struct { int n; } Plain;
            typedef struct Tagged { int n; } TaggedT;
            __global__ void k(Plain a, TaggedT b) { }
        """)
        a, b = found["k"].params
        self.assertEqual((a.kind, a.struct.keyword), ("struct", None))
        self.assertEqual((b.kind, b.struct.alias_of), ("struct", "Tagged"))

    def test_leading_launch_parameters_are_renamed_on_a_clash(self):
        k = kernels("__global__ void k(GM_ADDR stream, unsigned numBlocks) { }")["k"]
        self.assertEqual(ascendc_gen.launch_names(k), ("_numBlocks", "_stream"))
        self.assertIn("uint32_t _numBlocks, aclrtStream _stream, void* stream, unsigned numBlocks",
                      ascendc_gen.launch_header(k))

    @unittest.skipUnless(shutil.which(os.environ.get("OPENACL_CXX", "c++")), "no C++ compiler")
    def test_token_pasted_names_are_read_after_preprocessing(self):
        source = """
            #define DEFINE(T) extern "C" __global__ __aicore__ void fill_##T(GM_ADDR out, T v) { }
            DEFINE(float)
            DEFINE(int)
        """
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "k.cpp")
            with open(path, "w") as f:
                f.write(source)
            text = subprocess.run([os.environ.get("OPENACL_CXX", "c++"), "-E", "-x", "c++",
                                   "-DOPENACL_KERNEL_H_", path], check=True,
                                  capture_output=True, text=True).stdout
        found = kernels(text)
        self.assertEqual(sorted(found), ["fill_float", "fill_int"])
        self.assertEqual(found["fill_float"].params[1].type, "float")


class ChevronLowering(unittest.TestCase):
    def lower(self, text):
        return ascendc_gen.rewrite_chevrons(text)

    def test_three_launch_arguments_go_in_front_of_the_call_arguments(self):
        self.assertEqual(self.lower("k<<<n, nullptr, s>>>(x, y);"), "k(n, nullptr, s, x, y);")

    def test_one_two_and_four_launch_arguments_are_filled_up_to_three(self):
        self.assertEqual(self.lower("k<<<n>>>(x);"), "k(n, 0, nullptr, x);")
        self.assertEqual(self.lower("k<<<n, 0>>>(x);"), "k(n, 0, nullptr, x);")
        self.assertEqual(self.lower("k<<<n, t, 0, s>>>(x);"),
                         "k(n, (static_cast<void>(t), 0), s, x);")

    def test_a_kernel_without_arguments_gets_no_trailing_comma(self):
        self.assertEqual(self.lower("k<<<1, 0, s>>>();"), "k(1, 0, s);")

    def test_template_kernels_and_nested_templates_and_parentheses(self):
        self.assertEqual(
            self.lower("k<T, 4><<<std::min<uint32_t>(a, b), 0, s>>>(f(x, g(y)), v);"),
            "k<T, 4>(std::min<uint32_t>(a, b), 0, s, f(x, g(y)), v);")

    def test_lines_stay_where_they_were(self):
        text = "a;\nk<<<n,\n  0, s>>>(x,\n y);\nb;\n"
        lowered = self.lower(text)
        self.assertEqual(lowered.count("\n"), text.count("\n"))
        self.assertEqual(lowered.splitlines()[-1], "b;")

    def test_strings_and_comments_are_left_alone(self):
        text = 'const char* s = "k<<<1>>>()"; // k<<<2>>>()\n/* k<<<3>>>() */\n'
        self.assertEqual(self.lower(text), text)

    def test_a_launch_without_an_argument_list_is_an_error(self):
        with self.assertRaises(SystemExit):
            self.lower("k<<<1, 0, s>>>;")


if __name__ == "__main__":
    unittest.main()
