// Loaded models: what aclmdlLoad* produce and aclmdlExecute* run. A model reserves device
// memory for its weights (so aclrtGetMemInfo tells the truth) and keeps an engine, which holds
// the weights in its own formats, and a pool of engine instances so that several threads and
// streams may execute it at once.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_mdl.h"
#include "model/dataset.h"
#include "model/model_desc.h"
#include "model/model_engine.h"
#include "model/om_file.h"
#include "model/plan.h"

namespace openacl::dump {
class ModelDump;
}

namespace openacl {
class Context;
class Device;
class Stream;
}  // namespace openacl

namespace openacl::model {

// A model image (an .om or ONNX file's bytes) taken apart and described; no engine yet. A
// loaded model lets go of its graph and plan once its engine is built (Model::Start).
struct ModelImage {
    std::string file_stem;  // the model file's name without folder and extension ("" from memory)
    std::string onnx;
    std::shared_ptr<const Plan> plan;  // the compiled plan an .om carries, if any
    OmOptions options;
    GraphInfo graph;
    ModelDescription description;
};

// Parses and describes a model image. Records the documented error with a message.
aclError ReadModelImage(const void* data, size_t size, ModelImage* image);
// Reads a whole model file into memory (ACL_ERROR_READ_MODEL_FAILURE and a message if not).
aclError ReadModelFile(const char* path, std::string* bytes);

// The device memory a model image needs: its weights (the graph) and work memory (the largest
// inputs and outputs it exchanges).
void QueryModelSize(const ModelImage& image, size_t* work_size, size_t* weight_size);

// One buffer of an execution, captured when the call is made.
struct BufferRef {
    aclDataBuffer* handle = nullptr;
    void* data = nullptr;
    size_t size = 0;
    bool runtime_allocated = false;  // an output the runtime allocated (NULL, 0 buffer)
};

// Everything one execution needs, checked and resolved at call time.
struct ExecRequest {
    int32_t stream_id = 0;  // the stream an asynchronous execution runs on (dump file names)
    std::vector<BufferRef> inputs;  // graph inputs (the dynamic tensor input is not fed)
    std::vector<std::vector<int64_t>> input_dims;
    std::vector<BufferRef> outputs;
    aclmdlDataset* output_set = nullptr;
    // A synchronous execution staged through host memory on an accelerator (model/staging.cpp):
    // outputs the runtime allocates are produced here first, one buffer per output.
    std::vector<std::vector<uint8_t>>* staged_runtime_outputs = nullptr;
};

class Model {
 public:
    Model(uint32_t id, ModelImage image, Context* context, void* weight, bool owns_weight,
          void* work, bool owns_work);
    ~Model();
    Model(const Model&) = delete;
    Model& operator=(const Model&) = delete;

    uint32_t id() const { return id_; }
    const ModelDescription& description() const { return image_.description; }
    Context* context() const { return context_; }
    Device* device() const { return device_; }

    // Builds the engine (and one instance, proving the graph imports). Records the error.
    aclError Start();
    // The engine that runs the model: "onednn" or "opencv-dnn" (after Start).
    const char* engine_name() const { return engine_ ? engine_->name() : ""; }

    // Checks the datasets against the model and resolves shapes (call time). For an
    // asynchronous execution, outputs the runtime must allocate are allocated here.
    aclError Prepare(const aclmdlDataset* input, aclmdlDataset* output, bool async,
                     ExecRequest* request);
    // Runs one inference now, on the calling thread. False with *error on failure; *code is
    // the aclError to report.
    bool Run(const ExecRequest& request, bool recheck_memory, std::string* error, aclError* code);

    // Output dims of the latest execution (aclmdlGetCurOutputDims); empty before the first.
    std::vector<int64_t> CurrentOutputDims(size_t index);

    // On an accelerator device (CUDA) the host engine cannot read the device buffers: these
    // run it on host copies (model/staging.cpp). RunStaged: aclmdlExecute (the copies are
    // synchronous); SubmitStaged: aclmdlExecuteAsync on a stream with a device lane.
    bool RunStaged(const ExecRequest& request, std::string* error, aclError* code);
    static aclError SubmitStaged(std::shared_ptr<Model> model, ExecRequest request, Stream* stream);

 private:
    struct Session;
    struct Staging;
    struct StagingDeleter {  // Staging is complete only in model/staging.cpp
        void operator()(Staging* staging) const;
    };
    Staging* TakeStaging(const ExecRequest& request);
    void ReturnStaging(Staging* staging);
    void NoteStaged();
    std::unique_ptr<ModelEngine> CreateCompiledEngine();
    std::unique_ptr<Session> TakeSession(std::string* error);
    void ReturnSession(std::unique_ptr<Session> session);
    bool CheckDeviceBuffer(const BufferRef& buffer, size_t needed, const char* what, size_t index,
                           const std::string& name, std::string* error) const;

    uint32_t id_;
    ModelImage image_;
    Context* context_;
    Device* device_;
    uint64_t context_serial_;
    void* weight_;
    bool owns_weight_;
    void* work_;
    bool owns_work_;
    std::unique_ptr<ModelEngine> engine_;
    std::mutex pool_mutex_;
    std::vector<std::unique_ptr<Session>> idle_;
    std::mutex current_mutex_;
    std::vector<std::vector<int64_t>> current_output_dims_;
    // Accelerator devices: host staging buffers (pinned), reused; freed with the model, which
    // is never destroyed inside a host task (see DrainDeferredReleases).
    std::mutex staging_mutex_;
    std::vector<std::unique_ptr<Staging, StagingDeleter>> staging_;
    std::atomic<bool> staged_logged_{false};
    // Dumps take the settings in force at load (core/dump.h); null: this model dumps nothing.
    std::shared_ptr<const dump::ModelDump> dump_;
    std::atomic<uint64_t> executions_{0};  // dump folders count executions from 0
};

// The registry of loaded models. Ids start at 1 and are never reused within a process.
uint32_t NextModelId();
void RegisterModel(std::shared_ptr<Model> model);
std::shared_ptr<Model> FindModel(uint32_t id);
std::shared_ptr<Model> RemoveModel(uint32_t id);
// Unloads every model still loaded, warning about each (aclFinalize).
void UnloadAllModels(const char* reason);

// aclmdlExecuteAsync: queues the execution on the stream; the task holds the model alive.
aclError SubmitExecution(std::shared_ptr<Model> model, ExecRequest request, Stream* stream);

// Executions queued on device lanes finish in host tasks, which must not call the
// accelerator (CUDA forbids it in host functions): what they held (the model, whose
// destructor frees memory) is handed back here and released by the next call of this, made
// by aclmdlExecute*, aclmdlUnload and at aclFinalize.
void DrainDeferredReleases();

}  // namespace openacl::model
