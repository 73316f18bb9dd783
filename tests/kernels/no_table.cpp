// A shared library with no openacl kernel table: loading it as a kernel binary must fail.
extern "C" __attribute__((visibility("default"))) int no_table_answer() {
    return 42;
}
