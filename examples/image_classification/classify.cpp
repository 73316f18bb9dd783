// Image classification with the AscendCL model API, end to end: initialise, load an ONNX model
// (or an .om file from openacl's atc), decode and preprocess an image on the host, copy it to
// the device, execute, copy the probabilities back, print the top 5, release everything.
// It uses only the public acl API (plus OpenCV for the image), so it builds unchanged against
// CANN, given an .om model there.
//
//   classify [IMAGE [MODEL]]
//
// Without IMAGE it draws a test image itself. MODEL defaults to resnet_random.onnx, which the
// build writes with make_resnet: a ResNet-style network with RANDOM weights (nothing can be
// downloaded here), so its top 5 are arbitrary class numbers. Give a trained ImageNet classifier
// (1x3xHxW float input, 1000 outputs) for real predictions.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "acl/acl.h"

#ifndef OPENACL_EXAMPLE_RESNET_MODEL
#define OPENACL_EXAMPLE_RESNET_MODEL "resnet_random.onnx"
#endif

namespace {

// Reports a failed call with the runtime's own explanation (which already names the function
// and the error code); true when the call succeeded.
bool Ok(aclError rc, const char* what) {
    if (rc == ACL_SUCCESS) return true;
    const char* message = aclGetRecentErrMsg();
    if (message != nullptr && message[0] != '\0') {
        std::fprintf(stderr, "classify: %s\n", message);
    } else {
        std::fprintf(stderr, "classify: %s failed (error %d)\n", what, static_cast<int>(rc));
    }
    return false;
}

// A pointer-returning call failed: aclError is not available, the message still is.
bool Ok(const void* handle, const char* what) {
    if (handle != nullptr) return true;
    const char* message = aclGetRecentErrMsg();
    std::fprintf(stderr, "classify: %s returned NULL: %s\n", what,
                 message != nullptr && message[0] != '\0' ? message : "(no message)");
    return false;
}

double MsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// A 320x240 colour gradient written as PNG and decoded again, so that the example runs without
// arguments and still goes through the same file decoding as a real photo.
cv::Mat MakeTestImage(std::string* path) {
    cv::Mat image(240, 320, CV_8UC3);
    for (int y = 0; y < image.rows; ++y) {
        for (int x = 0; x < image.cols; ++x) {
            image.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>(255 * x / (image.cols - 1)),
                                                  static_cast<uchar>(255 * y / (image.rows - 1)),
                                                  static_cast<uchar>((x + y) % 256));
        }
    }
    *path = "/tmp/openacl_classify_" + std::to_string(getpid()) + ".png";
    if (!cv::imwrite(*path, image)) {
        std::fprintf(stderr, "classify: cannot write the test image %s\n", path->c_str());
        return {};
    }
    return cv::imread(*path, cv::IMREAD_COLOR);
}

// ImageNet preprocessing, as torchvision's reference models expect: shorter side resized to
// 256/224 of the crop, centre crop of height x width, BGR (OpenCV's order) to RGB, scaled to
// [0, 1], normalised with the ImageNet mean and standard deviation, and laid out as CHW planes.
std::vector<float> Preprocess(const cv::Mat& bgr, int height, int width) {
    const double shorter = std::min(bgr.rows, bgr.cols);
    const double scale = 256.0 / 224.0 * std::min(height, width) / shorter;
    const int resized_w = std::max(width, static_cast<int>(std::lround(bgr.cols * scale)));
    const int resized_h = std::max(height, static_cast<int>(std::lround(bgr.rows * scale)));
    cv::Mat resized;
    cv::resize(bgr, resized, cv::Size(resized_w, resized_h), 0, 0,
               scale < 1.0 ? cv::INTER_AREA : cv::INTER_LINEAR);
    const cv::Mat crop =
        resized(cv::Rect((resized_w - width) / 2, (resized_h - height) / 2, width, height));
    cv::Mat rgb;
    cv::cvtColor(crop, rgb, cv::COLOR_BGR2RGB);

    const float mean[3] = {0.485f, 0.456f, 0.406f};
    const float stddev[3] = {0.229f, 0.224f, 0.225f};
    const size_t plane = static_cast<size_t>(height) * static_cast<size_t>(width);
    std::vector<float> chw(3 * plane);
    for (int y = 0; y < height; ++y) {
        const auto* row = rgb.ptr<cv::Vec3b>(y);
        for (int x = 0; x < width; ++x) {
            for (int c = 0; c < 3; ++c) {
                chw[c * plane + static_cast<size_t>(y) * width + x] =
                    (row[x][c] / 255.0f - mean[c]) / stddev[c];
            }
        }
    }
    return chw;
}

// Everything the example acquires, released in reverse order whatever happened, each release
// checked too.
struct Resources {
    bool initialized = false;
    bool device_set = false;
    int32_t device = 0;
    uint32_t model_id = 0;
    bool model_loaded = false;
    aclmdlDesc* desc = nullptr;
    void* input = nullptr;
    void* output = nullptr;
    aclDataBuffer* input_buffer = nullptr;
    aclDataBuffer* output_buffer = nullptr;
    aclmdlDataset* input_set = nullptr;
    aclmdlDataset* output_set = nullptr;
    std::string test_image;

    bool Release() {
        bool ok = true;
        if (input_buffer) ok &= Ok(aclDestroyDataBuffer(input_buffer), "aclDestroyDataBuffer");
        if (output_buffer) ok &= Ok(aclDestroyDataBuffer(output_buffer), "aclDestroyDataBuffer");
        if (input_set) ok &= Ok(aclmdlDestroyDataset(input_set), "aclmdlDestroyDataset");
        if (output_set) ok &= Ok(aclmdlDestroyDataset(output_set), "aclmdlDestroyDataset");
        if (input) ok &= Ok(aclrtFree(input), "aclrtFree(input)");
        if (output) ok &= Ok(aclrtFree(output), "aclrtFree(output)");
        if (model_loaded) ok &= Ok(aclmdlUnload(model_id), "aclmdlUnload");
        if (desc) ok &= Ok(aclmdlDestroyDesc(desc), "aclmdlDestroyDesc");
        if (device_set) ok &= Ok(aclrtResetDevice(device), "aclrtResetDevice");
        if (initialized) ok &= Ok(aclFinalize(), "aclFinalize");
        if (!test_image.empty()) std::remove(test_image.c_str());
        return ok;
    }
};

bool Classify(Resources& r, const char* image_path, const char* model_path) {
    if (!Ok(aclInit(nullptr), "aclInit")) return false;
    r.initialized = true;
    if (!Ok(aclrtSetDevice(r.device), "aclrtSetDevice")) return false;
    r.device_set = true;

    // Load the model and ask it what it expects, rather than assuming.
    auto start = std::chrono::steady_clock::now();
    if (!Ok(aclmdlLoadFromFile(model_path, &r.model_id), "aclmdlLoadFromFile")) return false;
    r.model_loaded = true;
    std::printf("model      %s (loaded in %.0f ms)\n", model_path, MsSince(start));
    r.desc = aclmdlCreateDesc();
    if (!Ok(r.desc, "aclmdlCreateDesc")) return false;
    if (!Ok(aclmdlGetDesc(r.desc, r.model_id), "aclmdlGetDesc")) return false;
    if (aclmdlGetNumInputs(r.desc) != 1 || aclmdlGetNumOutputs(r.desc) != 1) {
        std::fprintf(stderr,
                     "classify: expected a model with 1 input and 1 output, got %zu and %zu\n",
                     aclmdlGetNumInputs(r.desc), aclmdlGetNumOutputs(r.desc));
        return false;
    }
    aclmdlIODims in_dims{};
    if (!Ok(aclmdlGetInputDims(r.desc, 0, &in_dims), "aclmdlGetInputDims")) return false;
    if (in_dims.dimCount != 4 || in_dims.dims[0] != 1 || in_dims.dims[1] != 3 ||
        in_dims.dims[2] <= 0 || in_dims.dims[3] <= 0 ||
        aclmdlGetInputDataType(r.desc, 0) != ACL_FLOAT ||
        aclmdlGetOutputDataType(r.desc, 0) != ACL_FLOAT) {
        std::fprintf(stderr,
                     "classify: expected a float input of shape 1x3xHxW and a float output\n");
        return false;
    }
    const int height = static_cast<int>(in_dims.dims[2]);
    const int width = static_cast<int>(in_dims.dims[3]);
    const size_t input_size = aclmdlGetInputSizeByIndex(r.desc, 0);
    const size_t output_size = aclmdlGetOutputSizeByIndex(r.desc, 0);
    const size_t classes = output_size / sizeof(float);
    std::printf("input      \"%s\" 1x3x%dx%d float (%zu bytes), output \"%s\" %zu floats\n",
                in_dims.name, height, width, input_size, aclmdlGetOutputNameByIndex(r.desc, 0),
                classes);
    if (input_size != 3 * static_cast<size_t>(height) * width * sizeof(float) || classes == 0) {
        std::fprintf(stderr, "classify: unexpected sizes: input %zu bytes, output %zu bytes\n",
                     input_size, output_size);
        return false;
    }

    // Decode and preprocess on the host.
    cv::Mat image;
    if (image_path != nullptr) {
        image = cv::imread(image_path, cv::IMREAD_COLOR);
        if (image.empty()) {
            std::fprintf(stderr, "classify: cannot read an image from %s\n", image_path);
            return false;
        }
        std::printf("image      %s (%dx%d)\n", image_path, image.cols, image.rows);
    } else {
        image = MakeTestImage(&r.test_image);
        if (image.empty()) return false;
        std::printf(
            "image      %s (%dx%d): a generated colour gradient; pass a path to "
            "classify your own\n",
            r.test_image.c_str(), image.cols, image.rows);
    }
    const std::vector<float> host_input = Preprocess(image, height, width);

    // Model inputs and outputs live in device memory.
    if (!Ok(aclrtMalloc(&r.input, input_size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc(input)") ||
        !Ok(aclrtMalloc(&r.output, output_size, ACL_MEM_MALLOC_HUGE_FIRST),
            "aclrtMalloc(output)")) {
        return false;
    }
    if (!Ok(aclrtMemcpy(r.input, input_size, host_input.data(), input_size,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            "aclrtMemcpy(host -> device)")) {
        return false;
    }
    r.input_set = aclmdlCreateDataset();
    r.output_set = aclmdlCreateDataset();
    if (!Ok(r.input_set, "aclmdlCreateDataset") || !Ok(r.output_set, "aclmdlCreateDataset")) {
        return false;
    }
    r.input_buffer = aclCreateDataBuffer(r.input, input_size);
    r.output_buffer = aclCreateDataBuffer(r.output, output_size);
    if (!Ok(r.input_buffer, "aclCreateDataBuffer(input)") ||
        !Ok(r.output_buffer, "aclCreateDataBuffer(output)")) {
        return false;
    }
    if (!Ok(aclmdlAddDatasetBuffer(r.input_set, r.input_buffer), "aclmdlAddDatasetBuffer") ||
        !Ok(aclmdlAddDatasetBuffer(r.output_set, r.output_buffer), "aclmdlAddDatasetBuffer")) {
        return false;
    }

    // The first execution also sets up the engine's buffers; the next ones show the steady
    // state an application serving a stream of images would see.
    start = std::chrono::steady_clock::now();
    if (!Ok(aclmdlExecute(r.model_id, r.input_set, r.output_set), "aclmdlExecute")) return false;
    const double first_ms = MsSince(start);
    constexpr int kRuns = 5;
    double best_ms = 1e30, total_ms = 0;
    for (int i = 0; i < kRuns; ++i) {
        start = std::chrono::steady_clock::now();
        if (!Ok(aclmdlExecute(r.model_id, r.input_set, r.output_set), "aclmdlExecute")) {
            return false;
        }
        const double ms = MsSince(start);
        best_ms = std::min(best_ms, ms);
        total_ms += ms;
    }

    std::vector<float> probabilities(classes);
    if (!Ok(aclrtMemcpy(probabilities.data(), output_size, r.output, output_size,
                        ACL_MEMCPY_DEVICE_TO_HOST),
            "aclrtMemcpy(device -> host)")) {
        return false;
    }
    // A model that ends in logits rather than Softmax (most exported classifiers) gets its
    // softmax here, so the printout is probabilities either way.
    const double sum = std::accumulate(probabilities.begin(), probabilities.end(), 0.0);
    const bool are_probabilities =
        std::abs(sum - 1.0) < 1e-3 &&
        std::all_of(probabilities.begin(), probabilities.end(), [](float p) { return p >= 0; });
    if (!are_probabilities) {
        const float top = *std::max_element(probabilities.begin(), probabilities.end());
        double total = 0;
        for (float& p : probabilities) {
            p = std::exp(p - top);
            total += p;
        }
        for (float& p : probabilities)
            p = static_cast<float>(p / total);
        std::printf("(the model's output is not a probability distribution: softmax applied)\n");
    }
    std::vector<size_t> order(classes);
    std::iota(order.begin(), order.end(), size_t{0});
    const size_t top_n = std::min<size_t>(5, classes);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top_n),
                      order.end(),
                      [&](size_t a, size_t b) { return probabilities[a] > probabilities[b]; });
    std::printf("\ntop %zu classes\n", top_n);
    for (size_t k = 0; k < top_n; ++k) {
        std::printf("  %zu. class %4zu  probability %.5f\n", k + 1, order[k],
                    probabilities[order[k]]);
    }
    std::printf("\ninference  first aclmdlExecute %.1f ms; next %d: mean %.1f ms, best %.1f ms\n",
                first_ms, kRuns, total_ms / kRuns, best_ms);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 3) {
        std::fprintf(stderr, "usage: %s [IMAGE [MODEL]]\n", argv[0]);
        return 2;
    }
    const char* image_path = argc > 1 && argv[1][0] != '\0' ? argv[1] : nullptr;
    const char* model_path = argc > 2 ? argv[2] : OPENACL_EXAMPLE_RESNET_MODEL;
    const bool random_model = argc <= 2;
    if (random_model) {
        std::printf(
            "NOTE: the default model has RANDOM weights (written by make_resnet from a fixed "
            "seed;\n      no trained weights can be downloaded here). The pipeline is real, the "
            "classes\n      it prints are arbitrary. Pass a trained model as the second "
            "argument.\n\n");
    }
    Resources resources;
    const bool classified = Classify(resources, image_path, model_path);
    const bool released = resources.Release();
    if (!classified || !released) return 1;
    if (random_model) std::printf("(random weights: the class numbers above mean nothing)\n");
    return 0;
}
