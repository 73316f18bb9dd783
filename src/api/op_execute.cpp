// acl_op.h and acl_op_compiler.h: running single operators. Online "compilation"
// (aclopCompileAndExecute[V2], aclopCompile) plans the operator on openacl's operator library
// (src/op/); model execution (aclopExecuteV2, aclopExecute, aclopCreateHandle, aclopCast) first
// needs a single-operator model that matches the call (aclopSetModelDir, aclopLoad, or an
// earlier aclopCompile), as CANN does, and answers ACL_ERROR_OP_NOT_FOUND without one.
// docs/OPERATORS.md, "aclop", says which operator types exist.
#include <cinttypes>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"
#include "core/data_buffer.h"
#include "core/error.h"
#include "core/op_attr.h"
#include "model/tensor_desc.h"
#include "op/op_graph_dump.h"
#include "op/op_handle.h"
#include "op/op_kernel.h"
#include "op/op_models.h"
#include "op/op_registry.h"

using openacl::Fail;
using openacl::op::OpDesc;
using openacl::op::Shape;
using openacl::op::TensorSpec;
using openacl::op::Throw;

namespace {

void CheckType(const char* opType) {
    if (opType == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "opType is null");
    if (opType[0] == '\0') Throw(ACL_ERROR_INVALID_PARAM, "opType is empty");
}

void CheckCount(int count, const char* name) {
    if (count < 0) Throw(ACL_ERROR_INVALID_PARAM, "%s is %d: it must not be negative", name, count);
}

template <class Desc>
void CheckDescs(int count, const Desc* const* descs, const char* name) {
    if (count > 0 && descs == nullptr) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s is null but names %d tensors", name, count);
    }
    for (int i = 0; i < count; ++i) {
        if (descs[i] == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "%s[%d] is null", name, i);
        if (!openacl::model::IsLiveTensorDesc(descs[i])) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "%s[%d] (%p) is not a live tensor description (aclCreateTensorDesc)", name, i,
                  static_cast<const void*>(descs[i]));
        }
    }
}

template <class Buffer>
void CheckBuffers(int count, const Buffer* const* buffers, const char* name) {
    if (count > 0 && buffers == nullptr) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s is null but names %d buffers", name, count);
    }
    for (int i = 0; i < count; ++i) {
        if (buffers[i] == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "%s[%d] is null", name, i);
        if (!openacl::IsLiveDataBuffer(buffers[i])) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "%s[%d] (%p) is not a live data buffer (aclCreateDataBuffer)", name, i,
                  static_cast<const void*>(buffers[i]));
        }
    }
}

void CheckAttr(const aclopAttr* attr, const char* name) {
    if (attr != nullptr && !openacl::IsLiveOpAttr(attr)) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s (%p) is not a live attribute set (aclopCreateAttr)",
              name, static_cast<const void*>(attr));
    }
}

// What every call naming an operator checks first: its type, counts, descriptions and attributes.
template <class In, class Out>
void CheckSignature(const char* opType, int numInputs, const In* const* inputDesc, int numOutputs,
                    const Out* const* outputDesc, const aclopAttr* attr) {
    CheckType(opType);
    CheckCount(numInputs, "numInputs");
    CheckCount(numOutputs, "numOutputs");
    CheckDescs(numInputs, inputDesc, "inputDesc");
    CheckDescs(numOutputs, outputDesc, "outputDesc");
    CheckAttr(attr, "attr");
}

void CheckCompileArgs(aclopEngineType engine, aclopCompileType flag, const char* opPath) {
    if (engine != ACL_ENGINE_SYS && engine != ACL_ENGINE_AICORE && engine != ACL_ENGINE_VECTOR) {
        Throw(ACL_ERROR_INVALID_PARAM, "engineType %d is not an aclopEngineType",
              static_cast<int>(engine));
    }
    if (flag == ACL_COMPILE_UNREGISTERED) {
        Throw(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "compileFlag ACL_COMPILE_UNREGISTERED compiles an operator from its Python source "
              "(opPath), which openacl cannot: it runs its built-in operators "
              "(ACL_COMPILE_SYS)");
    }
    if (flag != ACL_COMPILE_SYS) {
        Throw(ACL_ERROR_INVALID_PARAM, "compileFlag %d is not an aclopCompileType",
              static_cast<int>(flag));
    }
    if (opPath != nullptr) {
        openacl::Warn("opPath \"%s\" is ignored: it is reserved with ACL_COMPILE_SYS", opPath);
    }
}

// A description with the bytes of its constant, or of its host-placed buffer (or of any
// buffer: `all_host`, aclopInferShape's inputs are host memory).
TensorSpec SpecOf(const aclTensorDesc& desc, const aclDataBuffer* buffer, bool all_host) {
    TensorSpec spec;
    spec.dtype = desc.data_type;
    spec.format = desc.format;
    spec.dims = desc.dims;
    spec.shape_range = desc.shape_range;
    spec.name = desc.name;
    spec.is_const = desc.is_const;
    spec.const_data = desc.const_data;
    spec.placement = desc.placement;
    if (spec.is_const && !spec.const_data.empty()) {
        spec.has_value = true;
        spec.value = spec.const_data;
    } else if ((spec.host() || all_host) && buffer != nullptr && buffer->data != nullptr) {
        const int64_t numel = spec.numel();
        const size_t bytes =
            numel < 0 ? 0 : static_cast<size_t>(numel) * openacl::op::ElementSize(spec.dtype);
        if (bytes <= buffer->size) {
            const auto* p = static_cast<const uint8_t*>(buffer->data);
            spec.has_value = true;
            spec.value.assign(p, p + bytes);
        }
    }
    return spec;
}

OpDesc MakeDesc(const char* type, int numInputs, const aclTensorDesc* const* inputDesc,
                const aclDataBuffer* const* inputs, int numOutputs,
                const aclTensorDesc* const* outputDesc, const aclopAttr* attr,
                bool all_host = false) {
    OpDesc desc;
    desc.type = type;
    for (int i = 0; i < numInputs; ++i) {
        desc.inputs.push_back(
            SpecOf(*inputDesc[i], inputs != nullptr ? inputs[i] : nullptr, all_host));
    }
    for (int j = 0; j < numOutputs; ++j)
        desc.outputs.push_back(SpecOf(*outputDesc[j], nullptr, false));
    if (attr != nullptr) desc.attr = *attr;
    return desc;
}

// CANN returns at once when every output is empty.
bool AllEmpty(int numOutputs, const aclTensorDesc* const* outputDesc) {
    if (numOutputs == 0) return false;
    for (int j = 0; j < numOutputs; ++j) {
        if (openacl::model::ElementCount(outputDesc[j]->dims) != 0) return false;
        bool zero = false;
        for (int64_t d : outputDesc[j]->dims)
            zero = zero || d == 0;
        if (!zero) return false;
    }
    return true;
}

// Plans (or finds the plan of) the call and queues it. `update` (V2): outputDesc may give a
// dynamic or larger shape, and receives the real one.
aclError Execute(const OpDesc& desc, const aclDataBuffer* const* inputs,
                 const aclDataBuffer* const* outputs, aclTensorDesc* const* update,
                 aclrtStream stream) {
    std::shared_ptr<openacl::op::Plan> plan = openacl::op::GetPlan(desc);
    for (size_t j = 0; j < desc.outputs.size(); ++j) {
        const Shape& real = plan->output_shapes()[j];
        const TensorSpec& given = desc.outputs[j];
        if (given.dims == real) continue;
        int64_t real_numel = 1;
        for (int64_t d : real)
            real_numel *= d;
        const bool larger = given.is_static() && given.numel() >= real_numel;
        if (update == nullptr || (given.is_static() && !larger)) {
            Throw(
                ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s: outputDesc[%zu] is %s but the output is %s%s",
                desc.type.c_str(), j, openacl::op::SpecText(given).c_str(),
                openacl::op::ShapeString(real).c_str(),
                update == nullptr ? " (only the V2 functions take a larger or dynamic shape)" : "");
        }
    }
    for (size_t j = 0; j < desc.outputs.size(); ++j) {
        const aclDataBuffer* out = outputs[j];
        if (out == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "outputs[%zu] is null", j);
    }
    if (aclError rc = plan->Launch(inputs, outputs, stream); rc != ACL_SUCCESS) {
        throw openacl::op::OpError{rc, ""};  // recorded already
    }
    if (update != nullptr) {
        for (size_t j = 0; j < desc.outputs.size(); ++j)
            update[j]->dims = plan->output_shapes()[j];
    }
    return ACL_SUCCESS;
}

using openacl::op::Guard;

// An operator type the program registered kernels and a selector for (op/op_kernel.h): runs
// what the selector chose; such a type needs no single-operator model.
aclError LaunchRegistered(const OpDesc& desc, int numInputs, const aclTensorDesc* const* inputDesc,
                          const aclDataBuffer* const* inputs, int numOutputs,
                          const aclTensorDesc* const* outputDesc, aclDataBuffer* const* outputs,
                          const aclopAttr* attr, aclrtStream stream) {
    const openacl::op::KernelCall call{&desc, numInputs, inputDesc, numOutputs, outputDesc, attr};
    openacl::op::LaunchSelected(call, inputs, outputs, stream);
    return ACL_SUCCESS;
}

aclError CompileAndExecute(const char* opType, int numInputs,
                           const aclTensorDesc* const inputDesc[],
                           const aclDataBuffer* const inputs[], int numOutputs,
                           const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                           const aclopAttr* attr, aclopEngineType engineType,
                           aclopCompileType compileFlag, const char* opPath,
                           aclTensorDesc* const* update, aclrtStream stream) {
    return Guard([&] {
        CheckSignature(opType, numInputs, inputDesc, numOutputs, outputDesc, attr);
        CheckCompileArgs(engineType, compileFlag, opPath);
        if (AllEmpty(numOutputs, outputDesc)) return ACL_SUCCESS;
        CheckBuffers(numInputs, inputs, "inputs");
        CheckBuffers(numOutputs, outputs, "outputs");
        const OpDesc desc =
            MakeDesc(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, attr);
        if (openacl::op::HasSelector(desc.type)) {
            return LaunchRegistered(desc, numInputs, inputDesc, inputs, numOutputs, outputDesc,
                                    outputs, attr, stream);
        }
        const aclError rc = Execute(desc, inputs, outputs, update, stream);
        openacl::op::AddCompiledModel(desc);
        return rc;
    });
}

aclError ExecuteModel(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      const aclDataBuffer* const inputs[], int numOutputs,
                      const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                      const aclopAttr* attr, aclTensorDesc* const* update, aclrtStream stream) {
    return Guard([&] {
        CheckSignature(opType, numInputs, inputDesc, numOutputs, outputDesc, attr);
        if (AllEmpty(numOutputs, outputDesc)) return ACL_SUCCESS;
        CheckBuffers(numInputs, inputs, "inputs");
        CheckBuffers(numOutputs, outputs, "outputs");
        const OpDesc desc =
            MakeDesc(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, attr);
        if (openacl::op::HasSelector(desc.type)) {
            return LaunchRegistered(desc, numInputs, inputDesc, inputs, numOutputs, outputDesc,
                                    outputs, attr, stream);
        }
        openacl::op::RequireModel(desc);
        return Execute(desc, inputs, outputs, update, stream);
    });
}

// A handle for a call that a model matches; static shapes, no host-placed inputs (CANN's rule).
aclError CreateHandle(const OpDesc& desc, aclopHandle** handle) {
    for (size_t i = 0; i < desc.inputs.size(); ++i) {
        if (desc.inputs[i].host() && !desc.inputs[i].is_const) {
            Throw(ACL_ERROR_API_NOT_SUPPORT,
                  "inputDesc[%zu] is placed in host memory, which handles do not take: make "
                  "the input constant (aclSetTensorConst) or device memory",
                  i);
        }
    }
    for (size_t j = 0; j < desc.outputs.size(); ++j) {
        if (desc.outputs[j].host()) {
            Throw(ACL_ERROR_API_NOT_SUPPORT,
                  "outputDesc[%zu] is placed in host memory, which handles do not take", j);
        }
    }
    openacl::op::RequireModel(desc);
    std::shared_ptr<openacl::op::Plan> plan = openacl::op::GetPlan(desc);
    for (size_t j = 0; j < desc.outputs.size(); ++j) {
        if (desc.outputs[j].dims != plan->output_shapes()[j]) {
            Throw(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s: outputDesc[%zu] is %s but the output is %s",
                  desc.type.c_str(), j, openacl::op::SpecText(desc.outputs[j]).c_str(),
                  openacl::op::ShapeString(plan->output_shapes()[j]).c_str());
        }
    }
    *handle = openacl::op::NewHandle(std::move(plan));
    return ACL_SUCCESS;
}

// aclopCast's call: Cast with dst_type, and truncate when a model has it.
OpDesc CastDesc(const aclTensorDesc* srcDesc, const aclDataBuffer* srcBuffer,
                const aclTensorDesc* dstDesc, uint8_t truncate) {
    const aclTensorDesc* in[] = {srcDesc};
    const aclTensorDesc* out[] = {dstDesc};
    const aclDataBuffer* buffers[] = {srcBuffer};
    OpDesc desc =
        MakeDesc("Cast", 1, in, srcBuffer != nullptr ? buffers : nullptr, 1, out, nullptr);
    desc.attr.Set("dst_type", static_cast<int64_t>(dstDesc->data_type));
    // CANN sets truncate when its Cast operator has the attribute; a model tells.
    OpDesc with_truncate = desc;
    with_truncate.attr.Set("truncate", truncate != 0);
    if (openacl::op::HasModel(with_truncate) || !openacl::op::HasModel(desc)) {
        return with_truncate;
    }
    return desc;
}

void CheckCastDescs(const aclTensorDesc* srcDesc, const aclTensorDesc* dstDesc) {
    if (srcDesc == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "srcDesc is null");
    if (dstDesc == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "dstDesc is null");
    const aclTensorDesc* descs[] = {srcDesc, dstDesc};
    CheckDescs(2, descs, "srcDesc/dstDesc");
}

}  // namespace

// ---- acl_op_compiler.h ----

aclError aclopCompile(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      int numOutputs, const aclTensorDesc* const outputDesc[],
                      const aclopAttr* attr, aclopEngineType engineType,
                      aclopCompileType compileFlag, const char* opPath) {
    OPENACL_API();
    return Guard([&] {
        CheckSignature(opType, numInputs, inputDesc, numOutputs, outputDesc, attr);
        CheckCompileArgs(engineType, compileFlag, opPath);
        const OpDesc desc =
            MakeDesc(opType, numInputs, inputDesc, nullptr, numOutputs, outputDesc, attr);
        if (openacl::op::HasSelector(desc.type)) {
            // A registered kernel's "compilation" is its selector's choice, when the shapes
            // are known; otherwise each execution asks it.
            bool known = true;
            for (const TensorSpec& t : desc.inputs)
                known = known && (t.absent() || t.is_static());
            for (const TensorSpec& t : desc.outputs)
                known = known && t.is_static();
            if (known)
                openacl::op::Select({&desc, numInputs, inputDesc, numOutputs, outputDesc, attr});
            return ACL_SUCCESS;
        }
        openacl::op::CheckOpType(desc);
        // Static shapes with every value the plan needs: plan it now, so the first execution
        // finds it ready and a call openacl cannot run fails here.
        bool plannable = true;
        for (const TensorSpec& t : desc.inputs) {
            plannable = plannable && (t.absent() || (t.is_static() && (!t.host() || t.has_value)));
        }
        for (const TensorSpec& t : desc.outputs)
            plannable = plannable && t.is_static();
        if (plannable) {
            std::shared_ptr<openacl::op::Plan> plan = openacl::op::GetPlan(desc);
            for (size_t j = 0; j < desc.outputs.size(); ++j) {
                if (desc.outputs[j].dims != plan->output_shapes()[j]) {
                    Throw(ACL_ERROR_OP_OUTPUT_NOT_MATCH,
                          "%s: outputDesc[%zu] is %s but the output is %s", opType, j,
                          openacl::op::SpecText(desc.outputs[j]).c_str(),
                          openacl::op::ShapeString(plan->output_shapes()[j]).c_str());
                }
            }
        }
        openacl::op::AddCompiledModel(desc);
        return ACL_SUCCESS;
    });
}

aclError aclopCompileAndExecute(const char* opType, int numInputs,
                                const aclTensorDesc* const inputDesc[],
                                const aclDataBuffer* const inputs[], int numOutputs,
                                const aclTensorDesc* const outputDesc[],
                                aclDataBuffer* const outputs[], const aclopAttr* attr,
                                aclopEngineType engineType, aclopCompileType compileFlag,
                                const char* opPath, aclrtStream stream) {
    OPENACL_API();
    return CompileAndExecute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs,
                             attr, engineType, compileFlag, opPath, nullptr, stream);
}

aclError aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                                  aclDataBuffer* inputs[], int numOutputs,
                                  aclTensorDesc* outputDesc[], aclDataBuffer* outputs[],
                                  aclopAttr* attr, aclopEngineType engineType,
                                  aclopCompileType compileFlag, const char* opPath,
                                  aclrtStream stream) {
    OPENACL_API();
    return CompileAndExecute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs,
                             attr, engineType, compileFlag, opPath, outputDesc, stream);
}

aclError aclGenGraphAndDumpForOp(const char* opType, int numInputs,
                                 const aclTensorDesc* const inputDesc[],
                                 const aclDataBuffer* const inputs[], int numOutputs,
                                 const aclTensorDesc* const outputDesc[],
                                 aclDataBuffer* const outputs[], const aclopAttr* attr,
                                 aclopEngineType engineType, const char* graphDumpPath,
                                 const aclGraphDumpOption* graphDumpOpt) {
    OPENACL_API();
    return Guard([&] {
        CheckSignature(opType, numInputs, inputDesc, numOutputs, outputDesc, attr);
        CheckCompileArgs(engineType, ACL_COMPILE_SYS, nullptr);
        CheckBuffers(numInputs, inputs, "inputs");
        CheckBuffers(numOutputs, outputs, "outputs");
        if (graphDumpPath == nullptr || graphDumpPath[0] == '\0') {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "graphDumpPath is %s: name an existing directory or "
                  "a .txt file in one",
                  graphDumpPath == nullptr ? "null" : "empty");
        }
        if (graphDumpOpt != nullptr && !openacl::op::IsLiveGraphDumpOption(graphDumpOpt)) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "graphDumpOpt %p is not a live option (aclCreateGraphDumpOpt)",
                  static_cast<const void*>(graphDumpOpt));
        }
        const OpDesc desc =
            MakeDesc(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, attr);
        // The graph of an operator that can run here: a type of the operator library, or one
        // the program registered kernels for.
        if (!openacl::op::HasSelector(desc.type)) openacl::op::CheckOpType(desc);
        openacl::op::DumpGraph(desc, graphDumpPath);
        return ACL_SUCCESS;
    });
}

// ---- acl_op.h ----

aclError aclopSetModelDir(const char* modelDir) {
    OPENACL_API();
    return Guard([&] {
        if (modelDir == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "modelDir is null");
        openacl::op::LoadModelDir(modelDir);
        return ACL_SUCCESS;
    });
}

aclError aclopLoad(const void* model, size_t modelSize) {
    OPENACL_API();
    return Guard([&] {
        if (model == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "model is null");
        if (modelSize == 0) Throw(ACL_ERROR_INVALID_PARAM, "modelSize is 0");
        openacl::op::LoadModel(model, modelSize);
        return ACL_SUCCESS;
    });
}

aclError aclopExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      const aclDataBuffer* const inputs[], int numOutputs,
                      const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                      const aclopAttr* attr, aclrtStream stream) {
    OPENACL_API();
    return ExecuteModel(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                        nullptr, stream);
}

aclError aclopExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                        aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                        aclDataBuffer* outputs[], aclopAttr* attr, aclrtStream stream) {
    OPENACL_API();
    return ExecuteModel(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                        outputDesc, stream);
}

aclError aclopCreateHandle(const char* opType, int numInputs,
                           const aclTensorDesc* const inputDesc[], int numOutputs,
                           const aclTensorDesc* const outputDesc[], const aclopAttr* opAttr,
                           aclopHandle** handle) {
    OPENACL_API();
    return Guard([&] {
        CheckType(opType);
        if (handle == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "handle is null");
        CheckCount(numInputs, "numInputs");
        CheckCount(numOutputs, "numOutputs");
        CheckDescs(numInputs, inputDesc, "inputDesc");
        CheckDescs(numOutputs, outputDesc, "outputDesc");
        CheckAttr(opAttr, "opAttr");
        return CreateHandle(
            MakeDesc(opType, numInputs, inputDesc, nullptr, numOutputs, outputDesc, opAttr),
            handle);
    });
}

void aclopDestroyHandle(aclopHandle* handle) {
    OPENACL_API();
    if (handle == nullptr) return;
    if (!openacl::op::DeleteHandle(handle)) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "handle %p is not a live operator handle (destroyed already, or never created); "
             "nothing is destroyed",
             static_cast<void*>(handle));
    }
}

aclError aclopExecWithHandle(aclopHandle* handle, int numInputs,
                             const aclDataBuffer* const inputs[], int numOutputs,
                             aclDataBuffer* const outputs[], aclrtStream stream) {
    OPENACL_API();
    return Guard([&] {
        if (handle == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "handle is null");
        if (!openacl::op::IsLiveHandle(handle)) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "handle %p is not a live operator handle: destroyed, or never created",
                  static_cast<void*>(handle));
        }
        CheckCount(numInputs, "numInputs");
        CheckCount(numOutputs, "numOutputs");
        const openacl::op::Plan& plan = *handle->plan;
        if (static_cast<size_t>(numInputs) != plan.num_inputs()) {
            Throw(ACL_ERROR_OP_INPUT_NOT_MATCH, "numInputs is %d but the handle's %s has %zu",
                  numInputs, plan.type().c_str(), plan.num_inputs());
        }
        if (static_cast<size_t>(numOutputs) != plan.num_outputs()) {
            Throw(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "numOutputs is %d but the handle's %s has %zu",
                  numOutputs, plan.type().c_str(), plan.num_outputs());
        }
        CheckBuffers(numInputs, inputs, "inputs");
        CheckBuffers(numOutputs, outputs, "outputs");
        if (aclError rc = handle->plan->Launch(inputs, outputs, stream); rc != ACL_SUCCESS) {
            throw openacl::op::OpError{rc, ""};
        }
        return ACL_SUCCESS;
    });
}

aclError aclopCast(const aclTensorDesc* srcDesc, const aclDataBuffer* srcBuffer,
                   const aclTensorDesc* dstDesc, aclDataBuffer* dstBuffer, uint8_t truncate,
                   aclrtStream stream) {
    OPENACL_API();
    return Guard([&] {
        CheckCastDescs(srcDesc, dstDesc);
        if (srcBuffer == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "srcBuffer is null");
        if (dstBuffer == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "dstBuffer is null");
        const aclDataBuffer* buffers[] = {srcBuffer, dstBuffer};
        CheckBuffers(2, buffers, "srcBuffer/dstBuffer");
        const OpDesc desc = CastDesc(srcDesc, srcBuffer, dstDesc, truncate);
        openacl::op::RequireModel(desc);
        const aclDataBuffer* inputs[] = {srcBuffer};
        const aclDataBuffer* outputs[] = {dstBuffer};
        return Execute(desc, inputs, outputs, nullptr, stream);
    });
}

aclError aclopCreateHandleForCast(aclTensorDesc* srcDesc, aclTensorDesc* dstDesc, uint8_t truncate,
                                  aclopHandle** handle) {
    OPENACL_API();
    return Guard([&] {
        CheckCastDescs(srcDesc, dstDesc);
        if (handle == nullptr) Throw(ACL_ERROR_INVALID_PARAM, "handle is null");
        return CreateHandle(CastDesc(srcDesc, nullptr, dstDesc, truncate), handle);
    });
}

aclError aclopUpdateParams(const char* opType, int numInputs,
                           const aclTensorDesc* const inputDesc[], int numOutputs,
                           const aclTensorDesc* const outputDesc[], const aclopAttr* attr) {
    OPENACL_API();
    return Guard([&] {
        CheckSignature(opType, numInputs, inputDesc, numOutputs, outputDesc, attr);
        const OpDesc desc =
            MakeDesc(opType, numInputs, inputDesc, nullptr, numOutputs, outputDesc, attr);
        if (openacl::op::HasSelector(desc.type)) {
            openacl::op::Select({&desc, numInputs, inputDesc, numOutputs, outputDesc, attr});
            return ACL_SUCCESS;
        }
        openacl::op::CheckOpType(desc);
        // The kernel "selector" of openacl is its planner: plan for these shapes when they are
        // known, so the executions that follow find the plan made.
        bool plannable = true;
        for (const TensorSpec& t : desc.inputs)
            plannable = plannable && (t.absent() || (t.is_static() && (!t.host() || t.has_value)));
        if (plannable) openacl::op::GetPlan(desc);
        return ACL_SUCCESS;
    });
}

aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum) {
    OPENACL_API();
    if (maxOpNum == 0) return Fail(ACL_ERROR_INVALID_PARAM, "maxOpNum is 0: it must be positive");
    openacl::op::SetPlanCacheCapacity(maxOpNum);
    openacl::op::SetCompiledModelCapacity(maxOpNum);
    openacl::op::SetSelectionCapacity(maxOpNum);
    return ACL_SUCCESS;
}

aclError aclopInferShape(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                         aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                         aclopAttr* attr) {
    OPENACL_API();
    return Guard([&] {
        CheckSignature(opType, numInputs, inputDesc, numOutputs, outputDesc, attr);
        if (inputs != nullptr) {
            for (int i = 0; i < numInputs; ++i) {
                if (inputs[i] != nullptr && !openacl::IsLiveDataBuffer(inputs[i])) {
                    Throw(ACL_ERROR_INVALID_PARAM, "inputs[%d] is not a live data buffer", i);
                }
            }
        }
        const OpDesc desc =
            MakeDesc(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, attr, true);
        openacl::op::CheckOpType(desc);
        bool known = true;
        for (const TensorSpec& t : desc.inputs)
            known = known && (t.absent() || t.is_static());
        if (!known) {
            // Shapes that depend on unknown dimensions: the rank is unknown too (-2).
            for (int j = 0; j < numOutputs; ++j)
                outputDesc[j]->dims = {openacl::op::kUnknownRankDim};
            return ACL_SUCCESS;
        }
        const std::vector<Shape> shapes = openacl::op::InferShapes(desc);
        for (int j = 0; j < numOutputs; ++j)
            outputDesc[j]->dims = shapes[static_cast<size_t>(j)];
        return ACL_SUCCESS;
    });
}
