// The model API (aclmdlLoadFromFile + aclmdlExecute) and OpenCV DNN called directly
// (cv::dnn::readNetFromONNX + forward) on the .onnx files bench/models/make_bench_models writes
// (ResNet-50, MobileNetV2 and a YOLO-style detector at batch 1 and 8) or those of the real-model
// set (bench/real_models.py, with the .om atc made of each). bench/models.sh runs this
// next to ONNX Runtime (bench/ort_peer.js) in the same run and compares all three with
// bench/models_summary.py; docs/PERFORMANCE.md ("Models against ONNX Runtime") has the method.
//
//   bench_models --dir MODELDIR --out RESULT.json [--names a,b] [--seconds S] [--outputs DIR]
//
// For each model both engines run the same fixed input; every iteration runs both once,
// alternating which goes first, until `seconds` of openacl time (at least 3 runs each). The
// result JSON has each engine's per-run times and median, the load time, and the error when
// an engine cannot load or run the model (a result too, not a crash). The outputs of the last
// run go to DIR/NAME.openacl.bin and DIR/NAME.opencv.bin for the comparison with ONNX Runtime.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include "acl/acl.h"
#include "bench_common.h"

namespace {

using bench::NowNs;
using nlohmann::json;

std::string AclFailure(const char* what, aclError rc) {
    const char* msg = aclGetRecentErrMsg();
    return std::string(what) + " failed with " + std::to_string(rc) + ": " +
           (msg && *msg ? msg : "(no message)");
}

bool ReadFile(const std::string& path, std::string* bytes) {
    std::ifstream file(path, std::ios::binary);
    bytes->assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    return static_cast<bool>(file) || file.eof();
}

bool WriteFile(const std::string& path, const void* data, size_t bytes) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    return static_cast<bool>(file);
}

double Median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The model loaded through the model API, with device-memory input and output, as an
// application on an NPU has them (the copies are not timed: they are the card's transfers).
class AclSide {
 public:
    std::string error;
    double load_ms = 0;

    AclSide(const std::string& path, const std::string& input) {
        const int64_t t0 = NowNs();
        aclError rc = aclmdlLoadFromFile(path.c_str(), &id_);
        load_ms = static_cast<double>(NowNs() - t0) * 1e-6;
        if (rc != ACL_SUCCESS) {
            error = AclFailure("aclmdlLoadFromFile", rc);
            return;
        }
        loaded_ = true;
        aclmdlDesc* desc = aclmdlCreateDesc();
        rc = aclmdlGetDesc(desc, id_);
        if (rc != ACL_SUCCESS) {
            error = AclFailure("aclmdlGetDesc", rc);
            aclmdlDestroyDesc(desc);
            return;
        }
        const size_t in_bytes = aclmdlGetInputSizeByIndex(desc, 0);
        output_bytes_ = aclmdlGetOutputSizeByIndex(desc, 0);
        aclmdlDestroyDesc(desc);
        if (in_bytes != input.size()) {
            error = "the model API wants " + std::to_string(in_bytes) +
                    " input bytes, the file has " + std::to_string(input.size());
            return;
        }
        if ((rc = aclrtMalloc(&in_, in_bytes, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS ||
            (rc = aclrtMalloc(&out_, output_bytes_, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS ||
            (rc = aclrtMemcpy(in_, in_bytes, input.data(), in_bytes, ACL_MEMCPY_HOST_TO_DEVICE)) !=
                ACL_SUCCESS) {
            error = AclFailure("aclrtMalloc/aclrtMemcpy", rc);
            return;
        }
        in_buf_ = aclCreateDataBuffer(in_, in_bytes);
        out_buf_ = aclCreateDataBuffer(out_, output_bytes_);
        in_set_ = aclmdlCreateDataset();
        out_set_ = aclmdlCreateDataset();
        if (aclmdlAddDatasetBuffer(in_set_, in_buf_) != ACL_SUCCESS ||
            aclmdlAddDatasetBuffer(out_set_, out_buf_) != ACL_SUCCESS) {
            error = AclFailure("aclmdlAddDatasetBuffer", ACL_ERROR_FAILURE);
        }
    }
    ~AclSide() {
        if (in_set_) aclmdlDestroyDataset(in_set_);
        if (out_set_) aclmdlDestroyDataset(out_set_);
        if (in_buf_) aclDestroyDataBuffer(in_buf_);
        if (out_buf_) aclDestroyDataBuffer(out_buf_);
        if (in_) aclrtFree(in_);
        if (out_) aclrtFree(out_);
        if (loaded_) aclmdlUnload(id_);
    }
    AclSide(const AclSide&) = delete;
    AclSide& operator=(const AclSide&) = delete;

    bool ok() const { return error.empty(); }

    bool Run() {
        const aclError rc = aclmdlExecute(id_, in_set_, out_set_);
        if (rc != ACL_SUCCESS) error = AclFailure("aclmdlExecute", rc);
        return rc == ACL_SUCCESS;
    }

    bool SaveOutput(const std::string& path) {
        std::vector<char> host(output_bytes_);
        const aclError rc =
            aclrtMemcpy(host.data(), host.size(), out_, output_bytes_, ACL_MEMCPY_DEVICE_TO_HOST);
        if (rc != ACL_SUCCESS) {
            error = AclFailure("aclrtMemcpy", rc);
            return false;
        }
        return WriteFile(path, host.data(), host.size());
    }

 private:
    uint32_t id_ = 0;
    bool loaded_ = false;
    size_t output_bytes_ = 0;
    void* in_ = nullptr;
    void* out_ = nullptr;
    aclDataBuffer* in_buf_ = nullptr;
    aclDataBuffer* out_buf_ = nullptr;
    aclmdlDataset* in_set_ = nullptr;
    aclmdlDataset* out_set_ = nullptr;
};

// What an OpenCV DNN application does per inference: setInput of a blob over host memory,
// forward, copy the result out of the returned blob.
class OpenCvSide {
 public:
    std::string error;
    double load_ms = 0;

    OpenCvSide(const std::string& path, std::vector<int> dims, const std::string& input)
        : dims_(std::move(dims)), input_(input.size() / sizeof(float)) {
        std::memcpy(input_.data(), input.data(), input_.size() * sizeof(float));
        const int64_t t0 = NowNs();
        try {
            net_ = cv::dnn::readNetFromONNX(path);
        } catch (const cv::Exception& e) {
            error = std::string("cv::dnn::readNetFromONNX: ") + e.what();
        }
        load_ms = static_cast<double>(NowNs() - t0) * 1e-6;
    }

    bool ok() const { return error.empty(); }

    bool Run() {
        try {
            cv::Mat blob(static_cast<int>(dims_.size()), dims_.data(), CV_32F, input_.data());
            net_.setInput(blob);
            cv::Mat out = net_.forward();
            output_.resize(out.total());
            if (!out.isContinuous() || out.type() != CV_32F) {
                error = "OpenCV returned a non-contiguous or non-float blob";
                return false;
            }
            std::memcpy(output_.data(), out.ptr<float>(), output_.size() * sizeof(float));
            return true;
        } catch (const cv::Exception& e) {
            error = std::string("cv::dnn::Net::forward: ") + e.what();
            return false;
        }
    }

    bool SaveOutput(const std::string& path) {
        return WriteFile(path, output_.data(), output_.size() * sizeof(float));
    }

 private:
    std::vector<int> dims_;
    std::vector<float> input_;
    std::vector<float> output_;
    cv::dnn::Net net_;
};

json EngineResult(const std::string& error, double load_ms, const std::vector<double>& runs) {
    json r = {{"load_ms", load_ms}};
    if (!error.empty()) r["error"] = error;
    if (!runs.empty()) {
        r["runs_ms"] = runs;
        r["median_ms"] = Median(runs);
    }
    return r;
}

json MeasureModel(const json& entry, const std::string& dir, const std::string& outputs,
                  double seconds) {
    const std::string name = entry["name"];
    std::string input;
    if (!ReadFile(dir + "/" + entry["input"]["file"].get<std::string>(), &input)) {
        return {{"error", "cannot read the input file"}};
    }
    std::vector<int> dims;
    for (const auto& d : entry["input"]["dims"])
        dims.push_back(d.get<int>());
    const std::string path = dir + "/" + entry["file"].get<std::string>();
    // openacl loads what atc made of the model where the manifest names it (real models whose
    // input shape --input_shape fixes), the .onnx otherwise; OpenCV always reads the .onnx.
    const std::string om = entry.value("om", std::string());
    AclSide acl(om.empty() ? path : dir + "/" + om, input);
    OpenCvSide cv_side(path, dims, input);
    // Warm-up: first runs allocate and, for OpenCV, finish initialising layers.
    const int warmup = entry["model"] == "tiny" ? 20 : 1;
    for (int i = 0; i < warmup; ++i) {
        if (acl.ok()) acl.Run();
        if (cv_side.ok()) cv_side.Run();
    }
    std::vector<double> acl_ms, cv_ms;
    const int min_runs = 3, max_runs = entry["model"] == "tiny" ? 2000 : 200;
    double spent = 0;
    for (int i = 0; (acl.ok() || cv_side.ok()) && i < max_runs && (i < min_runs || spent < seconds);
         ++i) {
        for (int k = 0; k < 2; ++k) {
            const bool acl_turn = (k == 0) == (i % 2 == 0);
            const int64_t t0 = NowNs();
            if (acl_turn && acl.ok()) {
                if (acl.Run()) acl_ms.push_back(static_cast<double>(NowNs() - t0) * 1e-6);
            } else if (!acl_turn && cv_side.ok()) {
                if (cv_side.Run()) cv_ms.push_back(static_cast<double>(NowNs() - t0) * 1e-6);
            }
            spent += static_cast<double>(NowNs() - t0) * 1e-9 / 2;
        }
    }
    if (acl.ok()) acl.SaveOutput(outputs + "/" + name + ".openacl.bin");
    if (cv_side.ok()) cv_side.SaveOutput(outputs + "/" + name + ".opencv.bin");
    std::fprintf(stderr, "bench_models: %-16s openacl %s  opencv %s\n", name.c_str(),
                 acl.ok() ? (std::to_string(Median(acl_ms)) + " ms").c_str() : "failed",
                 cv_side.ok() ? (std::to_string(Median(cv_ms)) + " ms").c_str() : "failed");
    return {{"openacl", EngineResult(acl.error, acl.load_ms, acl_ms)},
            {"opencv", EngineResult(cv_side.error, cv_side.load_ms, cv_ms)}};
}

}  // namespace

int main(int argc, char** argv) {
    std::string dir, out, outputs, names;
    double seconds = 5.0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        if (flag == "--dir")
            dir = value;
        else if (flag == "--out")
            out = value;
        else if (flag == "--outputs")
            outputs = value;
        else if (flag == "--names")
            names = "," + value + ",";
        else if (flag == "--seconds")
            seconds = std::stod(value);
        else {
            std::fprintf(stderr, "bench_models: unknown flag %s\n", flag.c_str());
            return 2;
        }
    }
    if (dir.empty() || out.empty() || argc % 2 == 0) {
        std::fprintf(stderr,
                     "usage: %s --dir MODELDIR --out RESULT.json [--names a,b] [--seconds S] "
                     "[--outputs DIR]\n",
                     argv[0]);
        return 2;
    }
    if (outputs.empty()) outputs = dir;
    std::string manifest_text;
    if (!ReadFile(dir + "/manifest.json", &manifest_text)) {
        std::fprintf(stderr, "bench_models: cannot read %s/manifest.json\n", dir.c_str());
        return 1;
    }
    const json manifest = json::parse(manifest_text);
    aclError rc = aclInit(nullptr);
    if (rc == ACL_SUCCESS) rc = aclrtSetDevice(0);
    if (rc != ACL_SUCCESS) {
        std::fprintf(stderr, "bench_models: %s\n",
                     AclFailure("aclInit/aclrtSetDevice", rc).c_str());
        return 1;
    }
    json result = {{"opencv_version", CV_VERSION}, {"opencv_threads", cv::getNumThreads()}};
    json& models = result["models"];
    models = json::object();
    for (const auto& entry : manifest) {
        const std::string name = entry["name"];
        if (!names.empty() && names.find("," + name + ",") == std::string::npos) continue;
        models[name] = MeasureModel(entry, dir, outputs, seconds);
    }
    aclrtResetDevice(0);
    aclFinalize();
    std::ofstream file(out);
    file << result.dump(1) << "\n";
    return file ? 0 : 1;
}
