// The kernel bench_cuda launches through openacl and through the CUDA runtime: the same
// fatbin on both sides, so only the launch paths differ.
extern "C" __global__ void empty_kernel() {}
