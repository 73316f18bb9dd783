// Data dumps (acl_dump.h, aclmdlInitDump / SetDump / FinalizeDump, aclInit's "dump" section):
// the inputs and outputs of a model's layers written as CANN writes them, so that CANN's own
// tools (msaccucmp) and tools/openacl_dump.py read them.
//
// Where: {root}/{YYYYMMDDhhmmss}/{device}/{model name}/{model id}/{execution}/ with one file
// per layer, {op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}; root is ASCEND_DUMP_PATH,
// else ASCEND_WORK_PATH, else the configuration's dump_path, else the working directory.
// What: an 8-byte little-endian header length, the DumpData protobuf header (dtypes, formats,
// shapes, sizes, op name) and then the bytes of the inputs and of the outputs, in that order.
// A registered callback (acldumpRegCallback) receives those bytes in chunks instead. With
// dump_data "stats", each folder gets one statistic.csv instead, a row per tensor
// (core/dump_stats.h).
//
// A model takes the settings in force when it is loaded (as documented: models loaded earlier
// are not affected), so a run never reads the global state.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "acl/acl_dump.h"
#include "model/model_engine.h"

namespace openacl::dump {

enum class Mode { kOutput, kInput, kAll };

// What one loaded model dumps, fixed at its load.
class ModelDump {
 public:
    // Whether layer `name` is on the model's list (no list: every layer).
    bool WantsLayer(const std::string& name) const;
    // Whether execution `index` (0, 1, ... per model) is within dump_step.
    bool WantsExecution(uint64_t index) const;
    Mode mode() const { return mode_; }
    // Writes (or hands to the callback) one layer's file (in the execution's folder for a
    // model; kernels, dumped as single operators, have none). Failures are logged, not fatal: a
    // dump must not fail the inference it watches.
    void WriteLayer(uint64_t execution, uint32_t stream_id, uint32_t task_id,
                    const std::string& op_type, const std::string& op_name,
                    const std::vector<model::TensorView>& inputs,
                    const std::vector<model::TensorView>& outputs) const;

 private:
    friend std::shared_ptr<const ModelDump> ForModel(const std::string&, const std::string&,
                                                     uint32_t, int32_t);
    friend std::shared_ptr<const ModelDump> ForOperators(int32_t);
    // dump_data "stats": the rows of the layer's tensors, appended to the folder's
    // statistic.csv (core/dump_stats.h).
    void WriteStats(const std::string& directory, uint64_t now, uint32_t stream_id,
                    uint32_t task_id, const std::string& op_type, const std::string& op_name,
                    const std::vector<model::TensorView>& inputs,
                    const std::vector<model::TensorView>& outputs) const;
    std::string directory_;  // up to and including the model id (a model's) or the device
    bool per_execution_ = true;
    Mode mode_ = Mode::kOutput;
    uint32_t stats_ = 0;  // dump_data "stats": the statistics a row holds; 0: whole tensors
    std::vector<std::string> layers_;                   // empty: all
    std::vector<std::pair<uint64_t, uint64_t>> steps_;  // empty: all
};

// The dump settings a model being loaded now takes: null when dumping is off or the model is
// not on the dump list. `file_stem` (the .om/.onnx file name without its extension, or "")
// and `graph_name` both name the model for the list.
std::shared_ptr<const ModelDump> ForModel(const std::string& file_stem,
                                          const std::string& graph_name, uint32_t model_id,
                                          int32_t device_id);

// What a kernel launched now dumps, as a single operator ("dump_op_switch": "on"): null when
// single-operator dumps are off (one atomic load). Its inputs and outputs are the device memory
// its arguments point at, from each pointer to the end of its allocation, before and after.
std::shared_ptr<const ModelDump> ForOperators(int32_t device_id);

// aclInit's configuration text: applies its "dump" section, if any. Records the error.
aclError ConfigureFromInit(const std::string& json_text);
aclError InitDump();                        // aclmdlInitDump
aclError SetDump(const char* config_path);  // aclmdlSetDump
aclError FinalizeDump();                    // aclmdlFinalizeDump
void ResetAtFinalize();                     // aclFinalize: back to nothing configured

aclError RegisterCallback(int32_t (*callback)(const acldumpChunk*, int32_t), int32_t flag);
void UnregisterCallback();
// The data-dump root (DATA_DUMP, OVERFLOW_DUMP) or the exception-dump folder (AIC_ERR_*):
// null when none is configured.
const char* PathOf(acldumpType type);

// Exception dumps ("dump_scene": "aic_err_brief_dump" / "aic_err_norm_dump" / "lite_exception",
// or ASCEND_DUMP_SCENE): a kernel that fails leaves the device memory its arguments point at in
// <exception root>/extra-info/data-dump/<device>/<kernel>.<kernel>.<task>.<stream>.<µs>, in the
// format above; the root is NPU_COLLECT_PATH, ASCEND_DUMP_PATH, ASCEND_WORK_PATH, dump_path or
// the working directory, in that order. One atomic load when off.
bool ExceptionDumpsOn();
void DumpFailedKernel(int32_t device_id, uint32_t stream_id, uint32_t task_id,
                      const std::string& kernel, const std::vector<model::TensorView>& memory);
aclError SaveExceptionInfo(const char* file_name, const char* user_tag,
                           const acldumpTensorInfo* tensors, size_t count);
aclError ExceptionInfoPath(char* path, size_t max_len);

aclError StartOpArgs(uint32_t dump_type, const char* path);  // aclopStartDumpArgs
aclError StopOpArgs(uint32_t dump_type);                     // aclopStopDumpArgs

}  // namespace openacl::dump
