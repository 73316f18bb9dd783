// Models on accelerator devices (the CUDA backend). The host engine runs the model, but the
// application's buffers are device memory the host cannot read: inputs are copied into
// page-locked host buffers, the engine runs on them, and the outputs are copied back. Outputs
// are first copied to the host as well, so that bytes the model does not write keep their
// value, as on the CPU backend.
//
// aclmdlExecuteAsync puts all of it in stream order on the device lane: copies in, a host task
// running the engine, copies out, and a host task returning the staging buffers. Host tasks
// run as CUDA host functions, which must not call CUDA: nothing in them allocates or frees
// through the accelerator, and the model they hold is handed to DrainDeferredReleases rather
// than released there.
#include <algorithm>
#include <cinttypes>
#include <mutex>

#include "backend/accelerator.h"
#include "core/device.h"
#include "core/error.h"
#include "core/log.h"
#include "core/memory.h"
#include "core/stream.h"
#include "model/model.h"

namespace openacl::model {

// Host buffers for one execution's inputs and outputs (page-locked by the accelerator).
struct Model::Staging {
    explicit Staging(backend::Accelerator* owner) : accelerator(owner) {}
    ~Staging() {
        for (void* p : inputs)
            if (p != nullptr) accelerator->FreeHost(p);
        for (void* p : outputs)
            if (p != nullptr) accelerator->FreeHost(p);
    }
    Staging(const Staging&) = delete;
    Staging& operator=(const Staging&) = delete;

    bool Fits(const ExecRequest& request) const {
        if (request.inputs.size() != inputs.size() || request.outputs.size() != outputs.size()) {
            return false;
        }
        for (size_t i = 0; i < inputs.size(); ++i)
            if (request.inputs[i].size > input_sizes[i]) return false;
        for (size_t o = 0; o < outputs.size(); ++o)
            if (request.outputs[o].size > output_sizes[o]) return false;
        return true;
    }

    backend::Accelerator* accelerator;
    std::vector<void*> inputs, outputs;
    std::vector<size_t> input_sizes, output_sizes;
};

void Model::StagingDeleter::operator()(Staging* staging) const {
    delete staging;
}

namespace {

std::mutex g_deferred_mutex;
std::vector<std::shared_ptr<Model>>& Deferred() {
    static auto* deferred = new std::vector<std::shared_ptr<Model>>;
    return *deferred;
}

// Called in host tasks: only moves the reference (a host allocation at most).
void DeferRelease(std::shared_ptr<Model> model) {
    std::lock_guard lock(g_deferred_mutex);
    Deferred().push_back(std::move(model));
}

aclError QueueFailed(backend::Accelerator* accelerator, uint32_t id, int32_t status,
                     const char* what) {
    return Fail(ACL_ERROR_RT_COPY_DATA, "model %u: %s cannot be queued on %s: %s", id, what,
                accelerator->name(), accelerator->StatusText(status).c_str());
}

}  // namespace

void DrainDeferredReleases() {
    std::vector<std::shared_ptr<Model>> released;
    {
        std::lock_guard lock(g_deferred_mutex);
        if (Deferred().empty()) return;
        released.swap(Deferred());
    }
    released.clear();  // outside the lock: a model's destructor frees device memory
}

void Model::NoteStaged() {
    if (staged_logged_.exchange(true, std::memory_order_relaxed)) return;
    OPENACL_LOG_INFO(
        "model %u runs on the host engine (%s) on device %d (%s): each execution copies its "
        "inputs to host memory and its outputs back",
        id_, engine_name(), device_->id(), device_->accelerator()->name());
}

Model::Staging* Model::TakeStaging(const ExecRequest& request) {
    {
        std::lock_guard lock(staging_mutex_);
        for (auto& staging : staging_) {
            if (staging != nullptr && staging->Fits(request)) return staging.release();
        }
    }
    backend::Accelerator* accelerator = device_->accelerator();
    auto staging = std::make_unique<Staging>(accelerator);
    auto allocate = [&](size_t size, std::vector<void*>* list, std::vector<size_t>* sizes) {
        void* p = size == 0 ? nullptr : accelerator->AllocateHost(size);
        list->push_back(p);
        sizes->push_back(size);
        return size == 0 || p != nullptr;
    };
    for (const BufferRef& ref : request.inputs) {
        if (!allocate(ref.size, &staging->inputs, &staging->input_sizes)) return nullptr;
    }
    for (const BufferRef& ref : request.outputs) {
        // A (NULL, 0) output of a synchronous execution is staged in Run itself.
        if (!allocate(ref.size, &staging->outputs, &staging->output_sizes)) return nullptr;
    }
    return staging.release();
}

void Model::ReturnStaging(Staging* staging) {
    // Called in host tasks: no accelerator call; the slot it fills is kept, never freed here.
    std::lock_guard lock(staging_mutex_);
    for (auto& slot : staging_) {
        if (slot == nullptr) {
            slot.reset(staging);
            return;
        }
    }
    staging_.emplace_back(staging);
}

bool Model::RunStaged(const ExecRequest& request, std::string* error, aclError* code) {
    backend::Accelerator* accelerator = device_->accelerator();
    NoteStaged();
    Staging* staging = TakeStaging(request);
    if (staging == nullptr) {
        *error = "cannot allocate page-locked host memory to stage its inputs and outputs";
        *code = ACL_ERROR_RT_MEMORY_ALLOCATION;
        return false;
    }
    struct Return {
        Model* model;
        Staging* staging;
        ~Return() { model->ReturnStaging(staging); }
    } give_back{this, staging};
    auto copy = [&](void* dst, const void* src, size_t size, const char* what, size_t index) {
        if (size == 0) return true;
        int32_t status = accelerator->CopySync(dst, src, size);
        if (status == 0) return true;
        *error = std::string("copying ") + what + " " + std::to_string(index) + " on " +
                 accelerator->name() + " failed: " + accelerator->StatusText(status);
        *code = ACL_ERROR_RT_COPY_DATA;
        return false;
    };
    ExecRequest host = request;
    std::vector<std::vector<uint8_t>> runtime_outputs(request.outputs.size());
    host.staged_runtime_outputs = &runtime_outputs;
    for (size_t i = 0; i < request.inputs.size(); ++i) {
        if (!copy(staging->inputs[i], request.inputs[i].data, request.inputs[i].size, "input", i)) {
            return false;
        }
        host.inputs[i].data = staging->inputs[i];
    }
    for (size_t o = 0; o < request.outputs.size(); ++o) {
        const BufferRef& ref = request.outputs[o];
        if (ref.runtime_allocated && ref.data == nullptr) continue;
        if (!copy(staging->outputs[o], ref.data, ref.size, "output", o)) return false;
        host.outputs[o].data = staging->outputs[o];
    }
    if (!Run(host, false, error, code)) return false;
    for (size_t o = 0; o < request.outputs.size(); ++o) {
        const BufferRef& ref = request.outputs[o];
        if (ref.runtime_allocated && ref.data == nullptr) {
            const std::vector<uint8_t>& produced = runtime_outputs[o];
            void* device = nullptr;
            if (DeviceMalloc(&device, std::max<size_t>(produced.size(), 1),
                             ACL_MEM_MALLOC_HUGE_FIRST, DeviceAllocKind::kMalloc,
                             nullptr) != ACL_SUCCESS) {
                *error = "cannot allocate output " + std::to_string(o) + " on the device";
                *code = ACL_ERROR_RT_MEMORY_ALLOCATION;
                return false;
            }
            if (!copy(device, produced.data(), produced.size(), "output", o)) {
                DeviceFree(device, false);
                return false;
            }
            ref.handle->data = device;
            ref.handle->size = produced.size();
            continue;
        }
        if (!copy(ref.data, staging->outputs[o], ref.size, "output", o)) return false;
    }
    *code = ACL_SUCCESS;
    return true;
}

aclError Model::SubmitStaged(std::shared_ptr<Model> model, ExecRequest request, Stream* stream) {
    Model* self = model.get();
    backend::Lane* lane = stream->lane();
    backend::Accelerator* accelerator = self->device_->accelerator();
    for (size_t o = 0; o < request.outputs.size(); ++o) {
        if (request.outputs[o].data == nullptr) {
            // Prepare allocates (NULL, 0) outputs of asynchronous executions; an unbounded one
            // it refuses. Nothing else can get here.
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "model %u: output %zu has no buffer, and an execution on %s cannot "
                        "allocate one while it runs: give a buffer",
                        self->id_, o, accelerator->name());
        }
    }
    self->NoteStaged();
    Staging* staging = self->TakeStaging(request);
    if (staging == nullptr) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "model %u: cannot allocate page-locked host memory to stage its inputs and "
                    "outputs",
                    self->id_);
    }
    struct Pending {
        std::shared_ptr<Model> model;
        ExecRequest host;  // the request, on the staging buffers
        Staging* staging;
        Stream* stream;
    };
    auto* pending = new Pending{std::move(model), request, staging, stream};
    for (size_t i = 0; i < request.inputs.size(); ++i)
        pending->host.inputs[i].data = staging->inputs[i];
    for (size_t o = 0; o < request.outputs.size(); ++o)
        pending->host.outputs[o].data = staging->outputs[o];

    int32_t status = 0;
    const char* what = "";
    for (size_t i = 0; i < request.inputs.size() && status == 0; ++i) {
        if (request.inputs[i].size == 0) continue;
        status = lane->Copy(staging->inputs[i], request.inputs[i].data, request.inputs[i].size);
        what = "an input copy";
    }
    for (size_t o = 0; o < request.outputs.size() && status == 0; ++o) {
        if (request.outputs[o].size == 0) continue;
        status = lane->Copy(staging->outputs[o], request.outputs[o].data, request.outputs[o].size);
        what = "an output copy";
    }
    const uint32_t id = self->id_;
    // Neither task below is replayable: they run on a device lane, whose streams cannot be
    // captured, and the copies around them go to the lane directly, so a replay of the tasks
    // alone would run the model on stale staging buffers. A capture that reached them would be
    // invalidated (ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT) rather than replay that.
    if (status == 0) {
        const cpu::Task run = cpu::MakeTask(
            [pending](cpu::TaskContext& ctx) {
                if (ctx.cancelled()) return cpu::TaskStatus::Done();
                std::string error;
                aclError code = ACL_SUCCESS;
                if (!pending->model->Run(pending->host, false, &error, &code)) {
                    pending->stream->NoteFailure("model %u execution failed: %s",
                                                 pending->model->id(), error.c_str());
                    return cpu::TaskStatus::Failed(code);
                }
                return cpu::TaskStatus::Done();
            },
            0, cpu::Task::kCallWhenCancelled);
        stream->Submit(run, {trace::Kind::kModel, id});
        for (size_t o = 0; o < request.outputs.size() && status == 0; ++o) {
            if (request.outputs[o].size == 0) continue;
            status =
                lane->Copy(request.outputs[o].data, staging->outputs[o], request.outputs[o].size);
            what = "an output copy";
        }
    }
    // Whatever was queued, the staging goes back and the model is released once it has run.
    const cpu::Task finish = cpu::MakeTask(
        [pending](cpu::TaskContext&) {
            pending->model->ReturnStaging(pending->staging);
            DeferRelease(std::move(pending->model));
            delete pending;
            return cpu::TaskStatus::Done();
        },
        0, cpu::Task::kCallWhenCancelled);
    stream->Submit(finish);  // bookkeeping: not a second "model" slice on the timeline
    return status == 0 ? ACL_SUCCESS : QueueFailed(accelerator, id, status, what);
}

}  // namespace openacl::model
