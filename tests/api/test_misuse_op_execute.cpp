// Misuse table, single operators (acl/acl_op.h execution, acl/acl_op_compiler.h compilation).
#include <cstdint>
#include <vector>

#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"
#include "acl/ops/acl_cblas.h"
#include "misuse_table.h"

TEST(MisuseTable, SingleOperators) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const int64_t dims[] = {4};
    aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    aclTensorDesc* half = aclCreateTensorDesc(ACL_FLOAT16, 1, dims, ACL_FORMAT_ND);
    aclTensorDesc* host = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    ASSERT_EQ(aclSetTensorPlaceMent(host, ACL_MEMTYPE_HOST), ACL_SUCCESS);
    aclDataBuffer* buffer = aclCreateDataBuffer(dev, 64);
    aclopAttr* string_attr = aclopCreateAttr();
    ASSERT_EQ(aclopSetAttrString(string_attr, "transpose_x1", "yes"), ACL_SUCCESS);
    aclopHandle* gemm = nullptr;
    ASSERT_EQ(aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2,
                                          ACL_COMPUTE_HIGH_PRECISION, &gemm),
              ACL_SUCCESS);
    // Destroyed objects, made after every live one so that none of those reuses their address.
    aclTensorDesc* stale = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    aclDestroyTensorDesc(stale);
    aclopAttr* stale_attr = aclopCreateAttr();
    aclopDestroyAttr(stale_attr);
    aclopHandle* destroyed = nullptr;
    ASSERT_EQ(aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2,
                                          ACL_COMPUTE_HIGH_PRECISION, &destroyed),
              ACL_SUCCESS);
    aclopDestroyHandle(destroyed);

    aclTensorDesc* two[] = {desc, desc};
    aclTensorDesc* one[] = {desc};
    aclTensorDesc* stale_one[] = {stale};
    aclTensorDesc* host_two[] = {desc, host};
    aclDataBuffer* bufs[] = {buffer, buffer};
    const char garbage[] = "not a model at all";
    const auto kSys = ACL_ENGINE_SYS;
    const auto kCompile = ACL_COMPILE_SYS;

    const std::vector<MisuseRow> rows = {
        {"aclopSetModelDir(NULL)", [] { return aclopSetModelDir(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetModelDir(missing directory)",
         [] { return aclopSetModelDir("/no/such/openacl/dir"); }, ACL_ERROR_READ_MODEL_FAILURE},
        {"aclopLoad(NULL)", [] { return aclopLoad(nullptr, 8); }, ACL_ERROR_INVALID_PARAM},
        {"aclopLoad(size 0)", [&] { return aclopLoad(garbage, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclopLoad(no model)", [&] { return aclopLoad(garbage, sizeof garbage); },
         ACL_ERROR_PARSE_MODEL},
        {"aclopExecute(NULL opType)",
         [&] { return aclopExecute(nullptr, 2, two, bufs, 1, one, bufs, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopExecute(no model)",
         [&] { return aclopExecute("Add", 2, two, bufs, 1, one, bufs, nullptr, nullptr); },
         ACL_ERROR_OP_NOT_FOUND},
        {"aclopExecuteV2(numInputs -1)",
         [&] { return aclopExecuteV2("Add", -1, two, bufs, 1, one, bufs, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopExecuteV2(NULL inputDesc)",
         [&] { return aclopExecuteV2("Add", 2, nullptr, bufs, 1, one, bufs, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopExecuteV2(no model)",
         [&] { return aclopExecuteV2("Add", 2, two, bufs, 1, one, bufs, nullptr, nullptr); },
         ACL_ERROR_OP_NOT_FOUND},
        {"aclopCreateHandle(NULL handle)",
         [&] { return aclopCreateHandle("Add", 2, two, 1, one, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopCreateHandle(no model)",
         [&] {
             aclopHandle* handle = nullptr;
             return aclopCreateHandle("Add", 2, two, 1, one, nullptr, &handle);
         },
         ACL_ERROR_OP_NOT_FOUND},
        {"aclopCreateHandle(host-placed input)",
         [&] {
             aclopHandle* handle = nullptr;
             return aclopCreateHandle("Add", 2, host_two, 1, one, nullptr, &handle);
         },
         ACL_ERROR_API_NOT_SUPPORT},
        {"aclopDestroyHandle(destroyed handle)",
         [&] {
             aclopDestroyHandle(destroyed);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclopExecWithHandle(NULL handle)",
         [&] { return aclopExecWithHandle(nullptr, 2, bufs, 1, bufs, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopExecWithHandle(destroyed handle)",
         [&] { return aclopExecWithHandle(destroyed, 5, bufs, 1, bufs, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopExecWithHandle(2 inputs for GEMM's 5)",
         [&] { return aclopExecWithHandle(gemm, 2, bufs, 1, bufs, nullptr); },
         ACL_ERROR_OP_INPUT_NOT_MATCH},
        {"aclopCast(NULL srcDesc)",
         [&] { return aclopCast(nullptr, buffer, half, buffer, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopCast(no Cast model)",
         [&] { return aclopCast(desc, buffer, half, buffer, 0, nullptr); }, ACL_ERROR_OP_NOT_FOUND},
        {"aclopCreateHandleForCast(NULL dstDesc)",
         [&] {
             aclopHandle* handle = nullptr;
             return aclopCreateHandleForCast(desc, nullptr, 0, &handle);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclopCreateHandleForCast(NULL handle)",
         [&] { return aclopCreateHandleForCast(desc, half, 0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclopUpdateParams(NULL opType)",
         [&] { return aclopUpdateParams(nullptr, 1, one, 1, one, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopUpdateParams(unknown type)",
         [&] { return aclopUpdateParams("NoSuchOp", 1, one, 1, one, nullptr); },
         ACL_ERROR_OP_NOT_FOUND},
        {"aclopCreateKernel(NULL binData)",
         [] {
             return aclopCreateKernel("MisuseKernel", "k", "kernel", nullptr, 8, ACL_ENGINE_SYS,
                                      nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclopCreateKernel(not a kernel binary)",
         [&] {
             return aclopCreateKernel("MisuseKernel", "k", "kernel", const_cast<char*>(garbage),
                                      sizeof garbage, ACL_ENGINE_SYS, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclopRegisterCompileFunc(NULL func)",
         [] { return aclopRegisterCompileFunc("MisuseKernel", nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclopUnregisterCompileFunc(NULL opType)",
         [] { return aclopUnregisterCompileFunc(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclopSetKernelArgs(a description no selector fills)",
         [&] {
             return aclopSetKernelArgs(reinterpret_cast<aclopKernelDesc*>(dev), "k", 1, garbage,
                                       sizeof garbage);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetKernelWorkspaceSizes(numWorkspaces -1)",
         [&] {
             return aclopSetKernelWorkspaceSizes(reinterpret_cast<aclopKernelDesc*>(dev), -1,
                                                 nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclGenGraphAndDumpForOp(NULL graphDumpPath)",
         [&] {
             return aclGenGraphAndDumpForOp("Add", 2, two, bufs, 1, one, bufs, nullptr, kSys,
                                            nullptr, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclGenGraphAndDumpForOp(missing directory)",
         [&] {
             return aclGenGraphAndDumpForOp("Add", 2, two, bufs, 1, one, bufs, nullptr, kSys,
                                            "/no/such/openacl/dir/add.txt", nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclDestroyGraphDumpOpt(NULL)", [] { return aclDestroyGraphDumpOpt(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetMaxOpQueueNum(0)", [] { return aclopSetMaxOpQueueNum(0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopInferShape(NULL opType)",
         [&] { return aclopInferShape(nullptr, 1, one, bufs, 1, one, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopInferShape(one input for Add)",
         [&] { return aclopInferShape("Add", 1, one, bufs, 1, one, nullptr); },
         ACL_ERROR_OP_INPUT_NOT_MATCH},
        {"aclopCompile(engineType 7)",
         [&] {
             return aclopCompile("Relu", 1, one, 1, one, nullptr, static_cast<aclopEngineType>(7),
                                 kCompile, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclopCompile(ACL_COMPILE_UNREGISTERED)",
         [&] {
             return aclopCompile("Relu", 1, one, 1, one, nullptr, kSys, ACL_COMPILE_UNREGISTERED,
                                 "/tmp");
         },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclopCompile(destroyed attr)",
         [&] { return aclopCompile("Relu", 1, one, 1, one, stale_attr, kSys, kCompile, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopCompileAndExecute(unknown type)",
         [&] {
             return aclopCompileAndExecute("NoSuchOp", 1, one, bufs, 1, one, bufs, nullptr, kSys,
                                           kCompile, nullptr, nullptr);
         },
         ACL_ERROR_OP_NOT_FOUND},
        {"aclopCompileAndExecute(destroyed inputDesc)",
         [&] {
             return aclopCompileAndExecute("Relu", 1, stale_one, bufs, 1, one, bufs, nullptr, kSys,
                                           kCompile, nullptr, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclopCompileAndExecuteV2(string transpose_x1)",
         [&] {
             return aclopCompileAndExecuteV2("MatMul", 2, two, bufs, 1, one, bufs, string_attr,
                                             kSys, kCompile, nullptr, nullptr);
         },
         ACL_ERROR_OP_ATTR_NOT_MATCH},
    };
    ExpectEveryRowFails(rows);
    aclopDestroyHandle(gemm);
    aclopDestroyAttr(string_attr);
    aclDestroyDataBuffer(buffer);
    aclDestroyTensorDesc(desc);
    aclDestroyTensorDesc(half);
    aclDestroyTensorDesc(host);
    aclrtFree(dev);
    aclrtResetDeviceForce(0);
}
