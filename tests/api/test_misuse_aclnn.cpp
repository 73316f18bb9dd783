// Misuse table, nnopbase (aclnn/acl_meta.h, aclnn/aclnn_base.h): the objects every aclnn
// operator takes and the executor functions. Null required pointers are 161001, wrong objects
// and values 161002, null executors (and tensors) to the executor functions 561103.
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "misuse_table.h"

TEST(MisuseTable, Nnopbase) {
    const int64_t dims[2] = {2, 3};
    const int64_t negative[2] = {2, -3};
    const int64_t negative_stride[2] = {3, -1};
    aclTensor* tensor =
        aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, nullptr);
    ASSERT_NE(tensor, nullptr);
    float one = 1.0f;
    aclScalar* scalar = aclCreateScalar(&one, ACL_FLOAT);
    ASSERT_NE(scalar, nullptr);
    const aclTensor* not_a_tensor = reinterpret_cast<const aclTensor*>(scalar);
    aclTensorList* list = aclCreateTensorList(nullptr, 0);
    ASSERT_NE(list, nullptr);
    int64_t* values = nullptr;
    uint64_t count = 0;
    const auto null_executor = static_cast<aclOpExecutor*>(nullptr);

    const std::vector<MisuseRow> rows = {
        {"aclCreateTensor(viewDims NULL, 2, ...)",
         [&] {
             return aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2,
                                    nullptr)
                        ? ACL_SUCCESS
                        : RecordedError();
         },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclCreateTensor(viewDims [2, -3], ...)",
         [&] {
             return aclCreateTensor(negative, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2,
                                    nullptr)
                        ? ACL_SUCCESS
                        : RecordedError();
         },
         ACLNN_ERR_PARAM_INVALID},
        {"aclCreateTensor(stride [3, -1], ...)",
         [&] {
             return aclCreateTensor(dims, 2, ACL_FLOAT, negative_stride, 0, ACL_FORMAT_ND, dims, 2,
                                    nullptr)
                        ? ACL_SUCCESS
                        : RecordedError();
         },
         ACLNN_ERR_PARAM_INVALID},
        {"aclCreateScalar(NULL, ACL_FLOAT)",
         [&] { return aclCreateScalar(nullptr, ACL_FLOAT) ? ACL_SUCCESS : RecordedError(); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclCreateScalar(&one, ACL_STRING)",
         [&] { return aclCreateScalar(&one, ACL_STRING) ? ACL_SUCCESS : RecordedError(); },
         ACLNN_ERR_PARAM_INVALID},
        {"aclCreateTensorList(NULL, 2)",
         [&] { return aclCreateTensorList(nullptr, 2) ? ACL_SUCCESS : RecordedError(); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclCreateScalarList(NULL, 2)",
         [&] { return aclCreateScalarList(nullptr, 2) ? ACL_SUCCESS : RecordedError(); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclDestroyTensor(a scalar)", [&] { return aclDestroyTensor(not_a_tensor); },
         ACLNN_ERR_PARAM_INVALID},
        {"aclDestroyScalar(a tensor)",
         [&] { return aclDestroyScalar(reinterpret_cast<const aclScalar*>(tensor)); },
         ACLNN_ERR_PARAM_INVALID},
        {"aclDestroyIntArray(a tensor)",
         [&] { return aclDestroyIntArray(reinterpret_cast<const aclIntArray*>(tensor)); },
         ACLNN_ERR_PARAM_INVALID},
        {"aclDestroyFloatArray(a tensor)",
         [&] { return aclDestroyFloatArray(reinterpret_cast<const aclFloatArray*>(tensor)); },
         ACLNN_ERR_PARAM_INVALID},
        {"aclDestroyBoolArray(a tensor)",
         [&] { return aclDestroyBoolArray(reinterpret_cast<const aclBoolArray*>(tensor)); },
         ACLNN_ERR_PARAM_INVALID},
        {"aclDestroyTensorList(a tensor)",
         [&] { return aclDestroyTensorList(reinterpret_cast<const aclTensorList*>(tensor)); },
         ACLNN_ERR_PARAM_INVALID},
        {"aclDestroyScalarList(a tensor)",
         [&] { return aclDestroyScalarList(reinterpret_cast<const aclScalarList*>(tensor)); },
         ACLNN_ERR_PARAM_INVALID},
        {"aclGetViewShape(NULL, ...)", [&] { return aclGetViewShape(nullptr, &values, &count); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetViewShape(tensor, NULL, ...)",
         [&] { return aclGetViewShape(tensor, nullptr, &count); }, ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetStorageShape(tensor, &values, NULL)",
         [&] { return aclGetStorageShape(tensor, &values, nullptr); }, ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetViewStrides(a scalar, ...)",
         [&] { return aclGetViewStrides(not_a_tensor, &values, &count); }, ACLNN_ERR_PARAM_INVALID},
        {"aclGetViewOffset(tensor, NULL)", [&] { return aclGetViewOffset(tensor, nullptr); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetFormat(NULL, ...)",
         [&] {
             aclFormat format;
             return aclGetFormat(nullptr, &format);
         },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetDataType(tensor, NULL)", [&] { return aclGetDataType(tensor, nullptr); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetIntArraySize(NULL, ...)", [&] { return aclGetIntArraySize(nullptr, &count); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetFloatArraySize(NULL, ...)", [&] { return aclGetFloatArraySize(nullptr, &count); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetBoolArraySize(NULL, ...)", [&] { return aclGetBoolArraySize(nullptr, &count); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetTensorListSize(list, NULL)", [&] { return aclGetTensorListSize(list, nullptr); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetScalarListSize(NULL, ...)", [&] { return aclGetScalarListSize(nullptr, &count); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclInitTensor(NULL, ...)",
         [&] {
             return aclInitTensor(nullptr, dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2,
                                  nullptr);
         },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclInitTensor(tensor, offset -1)",
         [&] {
             return aclInitTensor(tensor, dims, 2, ACL_FLOAT, nullptr, -1, ACL_FORMAT_ND, dims, 2,
                                  nullptr);
         },
         ACLNN_ERR_PARAM_INVALID},
        {"aclSetAclOpExecutorRepeatable(NULL)",
         [&] { return aclSetAclOpExecutorRepeatable(null_executor); }, ACLNN_ERR_INNER_NULLPTR},
        {"aclDestroyAclOpExecutor(NULL)", [&] { return aclDestroyAclOpExecutor(null_executor); },
         ACLNN_ERR_INNER_NULLPTR},
        {"aclSetInputTensorAddr(NULL, ...)",
         [&] { return aclSetInputTensorAddr(null_executor, 0, tensor, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"aclSetOutputTensorAddr(NULL, ...)",
         [&] { return aclSetOutputTensorAddr(null_executor, 0, tensor, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"aclSetDynamicInputTensorAddr(NULL, ...)",
         [&] { return aclSetDynamicInputTensorAddr(null_executor, 0, 0, list, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"aclSetDynamicOutputTensorAddr(NULL, ...)",
         [&] { return aclSetDynamicOutputTensorAddr(null_executor, 0, 0, list, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"aclSetTensorAddr(NULL, ...)",
         [&] { return aclSetTensorAddr(null_executor, 0, tensor, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"aclSetDynamicTensorAddr(NULL, ...)",
         [&] { return aclSetDynamicTensorAddr(null_executor, 0, 0, list, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"AclSetInputTensorAddr(NULL, ...)",
         [&] { return AclSetInputTensorAddr(null_executor, 0, tensor, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"AclSetOutputTensorAddr(NULL, ...)",
         [&] { return AclSetOutputTensorAddr(null_executor, 0, tensor, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"AclSetDynamicInputTensorAddr(NULL, ...)",
         [&] { return AclSetDynamicInputTensorAddr(null_executor, 0, 0, list, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"AclSetDynamicOutputTensorAddr(NULL, ...)",
         [&] { return AclSetDynamicOutputTensorAddr(null_executor, 0, 0, list, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"AclSetTensorAddr(NULL, ...)",
         [&] { return AclSetTensorAddr(null_executor, 0, tensor, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"AclSetDynamicTensorAddr(NULL, ...)",
         [&] { return AclSetDynamicTensorAddr(null_executor, 0, 0, list, nullptr); },
         ACLNN_ERR_INNER_NULLPTR},
        {"aclSetRawTensorAddr(NULL, ...)", [&] { return aclSetRawTensorAddr(nullptr, nullptr); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclGetRawTensorAddr(tensor, NULL)", [&] { return aclGetRawTensorAddr(tensor, nullptr); },
         ACLNN_ERR_PARAM_NULLPTR},
        {"aclnnInit(a missing file)", [&] { return aclnnInit("/nonexistent/aclnn.json"); },
         ACLNN_ERR_PARAM_INVALID},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyScalar(scalar), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
}
