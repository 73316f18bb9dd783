// The ModelEngine implemented with OpenCV DNN (4.6). OpenCV computes in float32 whatever the
// graph says, represents every tensor as a cv::Mat (which has no 0-D or 1-D form), imports only
// some forms of some operators, and reports failures as exceptions. This file rewrites graphs
// into forms OpenCV imports (keeping their meaning), and turns its results back into the
// graph's contract: declared element types, ONNX shapes, and messages instead of exceptions.
// docs/CONFORMANCE.md says what each adaptation fixed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>

#include "model/model_desc.h"
#include "model/model_engine.h"
#include "model/onnx_graph.h"

namespace openacl::model {
namespace {

int64_t Product(const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims)
        n *= d;
    return n;
}

bool IsStatic(const std::vector<int64_t>& dims) {
    return std::all_of(dims.begin(), dims.end(), [](int64_t d) { return d >= 0; });
}

size_t ElementSize(aclDataType type) {
    switch (type) {
        case ACL_BOOL:
        case ACL_INT8:
        case ACL_UINT8:
            return 1;
        case ACL_FLOAT16:
        case ACL_BF16:
        case ACL_INT16:
        case ACL_UINT16:
            return 2;
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32:
            return 4;
        case ACL_DOUBLE:
        case ACL_INT64:
        case ACL_UINT64:
            return 8;
        default:
            return 0;
    }
}

const char* TypeName(aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
            return "float32";
        case ACL_FLOAT16:
            return "float16";
        case ACL_BF16:
            return "bfloat16";
        case ACL_DOUBLE:
            return "float64";
        case ACL_INT8:
            return "int8";
        case ACL_INT16:
            return "int16";
        case ACL_INT32:
            return "int32";
        case ACL_INT64:
            return "int64";
        case ACL_UINT8:
            return "uint8";
        case ACL_UINT16:
            return "uint16";
        case ACL_UINT32:
            return "uint32";
        case ACL_UINT64:
            return "uint64";
        case ACL_BOOL:
            return "bool";
        case ACL_STRING:
            return "string";
        case ACL_COMPLEX64:
            return "complex64";
        case ACL_COMPLEX128:
            return "complex128";
        default:
            return "an element type without an ACL counterpart";
    }
}

float Bf16ToFloat(uint16_t bits) {
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

uint16_t FloatToBf16(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if (std::isnan(value)) return 0x7fc0;
    bits += 0x7fff + ((bits >> 16) & 1);  // round to nearest even
    return static_cast<uint16_t>(bits >> 16);
}

// Integer results come back from OpenCV as floats. Values a hair away from an integer are float
// noise (pow, exp-based ops) and round; others are quotients, which ONNX truncates toward zero.
template <typename Int>
Int ToInteger(double v) {
    if (std::isnan(v)) return 0;
    double r = std::nearbyint(v);
    if (std::fabs(v - r) > 1e-3 * std::max(1.0, std::fabs(v))) r = std::trunc(v);
    if (r <= static_cast<double>(std::numeric_limits<Int>::lowest())) {
        return std::numeric_limits<Int>::lowest();
    }
    if (r >= static_cast<double>(std::numeric_limits<Int>::max())) {
        return std::numeric_limits<Int>::max();
    }
    return static_cast<Int>(r);
}

template <typename Src>
double Load(const Src* src, size_t i) {
    if constexpr (std::is_same_v<Src, cv::float16_t>) {
        return static_cast<float>(src[i]);
    } else {
        return static_cast<double>(src[i]);
    }
}

// Writes n elements of src (any arithmetic type or cv::float16_t) as `type` into dst.
template <typename Src>
bool StoreAs(const Src* src, size_t n, aclDataType type, void* dst) {
    auto each = [&](auto* out, auto convert) {
        for (size_t i = 0; i < n; ++i)
            out[i] = convert(Load(src, i));
    };
    switch (type) {
        case ACL_FLOAT:
            each(static_cast<float*>(dst), [](double v) { return static_cast<float>(v); });
            return true;
        case ACL_DOUBLE:
            each(static_cast<double*>(dst), [](double v) { return v; });
            return true;
        case ACL_FLOAT16:
            each(static_cast<cv::float16_t*>(dst),
                 [](double v) { return cv::float16_t(static_cast<float>(v)); });
            return true;
        case ACL_BF16:
            each(static_cast<uint16_t*>(dst),
                 [](double v) { return FloatToBf16(static_cast<float>(v)); });
            return true;
        case ACL_BOOL:
            each(static_cast<uint8_t*>(dst), [](double v) { return uint8_t(v != 0.0); });
            return true;
        case ACL_INT8:
            each(static_cast<int8_t*>(dst), ToInteger<int8_t>);
            return true;
        case ACL_UINT8:
            each(static_cast<uint8_t*>(dst), ToInteger<uint8_t>);
            return true;
        case ACL_INT16:
            each(static_cast<int16_t*>(dst), ToInteger<int16_t>);
            return true;
        case ACL_UINT16:
            each(static_cast<uint16_t*>(dst), ToInteger<uint16_t>);
            return true;
        case ACL_INT32:
            each(static_cast<int32_t*>(dst), ToInteger<int32_t>);
            return true;
        case ACL_UINT32:
            each(static_cast<uint32_t*>(dst), ToInteger<uint32_t>);
            return true;
        case ACL_INT64:
            each(static_cast<int64_t*>(dst), ToInteger<int64_t>);
            return true;
        case ACL_UINT64:
            each(static_cast<uint64_t*>(dst), ToInteger<uint64_t>);
            return true;
        default:
            return false;
    }
}

// Reads n elements of an input tensor of `type` as float32, what every OpenCV layer computes in.
bool InputToFloat(aclDataType type, const void* src, size_t n, float* dst) {
    auto each = [&](const auto* in) {
        for (size_t i = 0; i < n; ++i)
            dst[i] = static_cast<float>(Load(in, i));
    };
    switch (type) {
        case ACL_FLOAT:
            std::memcpy(dst, src, n * sizeof(float));
            return true;
        case ACL_DOUBLE:
            each(static_cast<const double*>(src));
            return true;
        case ACL_FLOAT16:
            each(static_cast<const cv::float16_t*>(src));
            return true;
        case ACL_BOOL:
        case ACL_UINT8:
            each(static_cast<const uint8_t*>(src));
            return true;
        case ACL_INT8:
            each(static_cast<const int8_t*>(src));
            return true;
        case ACL_INT16:
            each(static_cast<const int16_t*>(src));
            return true;
        case ACL_UINT16:
            each(static_cast<const uint16_t*>(src));
            return true;
        case ACL_INT32:
            each(static_cast<const int32_t*>(src));
            return true;
        case ACL_UINT32:
            each(static_cast<const uint32_t*>(src));
            return true;
        case ACL_INT64:
            each(static_cast<const int64_t*>(src));
            return true;
        case ACL_UINT64:
            each(static_cast<const uint64_t*>(src));
            return true;
        case ACL_BF16:
            for (size_t i = 0; i < n; ++i)
                dst[i] = Bf16ToFloat(static_cast<const uint16_t*>(src)[i]);
            return true;
        default:
            return false;
    }
}

bool MatToType(const cv::Mat& mat, aclDataType type, void* dst) {
    const size_t n = mat.total();
    switch (mat.depth()) {
        case CV_32F:
            return StoreAs(mat.ptr<float>(), n, type, dst);
        case CV_64F:
            return StoreAs(mat.ptr<double>(), n, type, dst);
        case CV_16F:
            return StoreAs(mat.ptr<cv::float16_t>(), n, type, dst);
        case CV_8U:
            return StoreAs(mat.ptr<uint8_t>(), n, type, dst);
        case CV_8S:
            return StoreAs(mat.ptr<int8_t>(), n, type, dst);
        case CV_16U:
            return StoreAs(mat.ptr<uint16_t>(), n, type, dst);
        case CV_16S:
            return StoreAs(mat.ptr<int16_t>(), n, type, dst);
        case CV_32S:
            return StoreAs(mat.ptr<int32_t>(), n, type, dst);
        default:
            return false;
    }
}

std::vector<int64_t> MatDims(const cv::Mat& mat) {
    std::vector<int64_t> dims;
    for (int i = 0; i < mat.dims; ++i)
        dims.push_back(mat.size[i]);
    return dims;
}

// The ONNX shape of an output OpenCV produced as `mat`. OpenCV has no 0-D or 1-D Mats and
// drops or adds leading 1s, so its shape is trusted only when the graph says nothing better:
// a static expected shape with the same element count wins; a partly known one takes its
// unknown dimensions from OpenCV's.
std::vector<int64_t> ReconcileDims(const cv::Mat& mat, const std::vector<int64_t>& expected,
                                   bool rank_known) {
    std::vector<int64_t> actual = MatDims(mat);
    const int64_t count = static_cast<int64_t>(mat.total());
    if (!rank_known) return actual;
    if (IsStatic(expected)) return Product(expected) == count ? expected : actual;
    // Align OpenCV's dims to the expected rank by removing or adding leading 1s.
    std::vector<int64_t> aligned = actual;
    while (aligned.size() > expected.size() && aligned.front() == 1)
        aligned.erase(aligned.begin());
    while (aligned.size() < expected.size())
        aligned.insert(aligned.begin(), 1);
    if (aligned.size() == expected.size()) {
        bool agrees = true;
        for (size_t i = 0; i < expected.size(); ++i) {
            agrees = agrees && (expected[i] < 0 || expected[i] == aligned[i]);
        }
        if (agrees) return aligned;
    }
    // One unknown dimension: it is whatever makes the element count right.
    int64_t known = 1;
    int unknown = 0;
    for (int64_t d : expected) {
        if (d < 0) {
            ++unknown;
        } else {
            known *= d;
        }
    }
    if (unknown == 1 && known > 0 && count % known == 0) {
        std::vector<int64_t> filled = expected;
        for (int64_t& d : filled) {
            if (d < 0) d = count / known;
        }
        return filled;
    }
    return actual;
}

// OpenCV's messages nest: "OpenCV(4.6.0) /path/file.cpp:123: error: (-2:...) " prefixes,
// " in function 'x'" suffixes, "Node [Op@domain]:(id) parse error: " and "\n> " quoting. The
// reason is what is left.
std::string CleanMessage(std::string text) {
    static const std::regex prefix(R"(OpenCV\([^)]*\) [^ ]*:\d+: error: \([-\d]+:[^)]*\) ?)");
    static const std::regex function(R"( ?in function '[^']*')");
    static const std::regex node(R"(Node \[[^\]]*\]:\([^)]*\) parse error: ?)");
    static const std::regex quoting(R"(\n(> ?)*)");
    static const std::regex spaces(R"( {2,})");
    text = std::regex_replace(text, prefix, "");
    text = std::regex_replace(text, function, "");
    text = std::regex_replace(text, node, "");
    text = std::regex_replace(text, quoting, " ");
    text = std::regex_replace(text, spaces, " ");
    while (!text.empty() && (text.back() == ' ' || text.back() == '>'))
        text.pop_back();
    while (!text.empty() && (text.front() == ' ' || text.front() == ':')) {
        text.erase(text.begin());
    }
    return text;
}

std::string ExceptionText(const cv::Exception& e) {
    return CleanMessage(e.err.empty() ? e.msg : e.err);
}

// Names the operator OpenCV could not import from its exception text: "Can't create layer "x"
// of type "Foo"" when it has no layer for the operator, "Node [Foo@ai.onnx]" otherwise.
std::string ImportFailure(const std::string& text) {
    static const std::regex cannot_create(R"re(Can't create layer "[^"]*" of type "([^"]+)")re");
    static const std::regex node(R"re(Node \[([^\]@]+)@([^\]]*)\]:\(([^)]*)\))re");
    std::smatch match;
    std::string detail = CleanMessage(text);
    if (std::regex_search(text, match, cannot_create)) {
        return "operator " + match[1].str() + " is not supported by the OpenCV DNN engine (" +
               detail + ")";
    }
    if (std::regex_search(text, match, node)) {
        // OpenCV's node ids: "onnx_node!<name>" or "onnx_node_output_<i>!<output>".
        static const std::regex by_output(R"(onnx_node_output_\d+!(.*))");
        std::string id = match[3].str(), which;
        std::smatch parts;
        if (std::regex_match(id, parts, by_output)) {
            which = "the node producing '" + parts[1].str() + "'";
        } else {
            which = "node '" + (id.rfind("onnx_node!", 0) == 0 ? id.substr(10) : id) + "'";
        }
        return "OpenCV DNN cannot import operator " + match[1].str() + " (" + which +
               "): " + detail;
    }
    return "OpenCV DNN cannot import the model: " + detail;
}

// OpenCV logs its errors on stderr (import failures, shape errors during a run) before throwing
// them; the runtime reports them through ACL instead. The log level is process-wide: it is
// lowered while any import or run is in progress and restored after the last one, and left
// alone when the user chose a level with OPENCV_LOG_LEVEL.
class QuietOpenCv {
 public:
    QuietOpenCv() {
        if (UserChose()) return;
        State& s = GetState();
        std::lock_guard<std::mutex> lock(s.mutex);
        if (s.depth++ == 0) {
            s.saved = cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
        }
    }
    ~QuietOpenCv() {
        if (UserChose()) return;
        State& s = GetState();
        std::lock_guard<std::mutex> lock(s.mutex);
        if (--s.depth == 0) cv::utils::logging::setLogLevel(s.saved);
    }
    QuietOpenCv(const QuietOpenCv&) = delete;
    QuietOpenCv& operator=(const QuietOpenCv&) = delete;

 private:
    struct State {
        std::mutex mutex;
        int depth = 0;
        cv::utils::logging::LogLevel saved = cv::utils::logging::LOG_LEVEL_INFO;
    };
    static State& GetState() {
        static State state;
        return state;
    }
    static bool UserChose() {
        static const bool chose = std::getenv("OPENCV_LOG_LEVEL") != nullptr;
        return chose;
    }
};

cv::dnn::Net Import(const std::string& bytes) {
    QuietOpenCv quiet;
    cv::dnn::Net net = cv::dnn::readNetFromONNX(bytes.data(), bytes.size());
    net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
    return net;
}

// ---- Preparing the graph for OpenCV --------------------------------------------------------

// Operators OpenCV 4.6's ONNX importer has no layer for ("Can't create layer"), as the ONNX
// backend tests showed (docs/CONFORMANCE.md), and those with graph attributes, which it cannot
// read; less those RewriteNodes spells with others (And, Or, Xor, GreaterOrEqual, LessOrEqual,
// Mean, IsNaN). Checked before importing so that a refusal names all of them, not only the
// first.
bool IsUnsupportedOp(const std::string& op) {
    static const std::set<std::string> ops = {"Bernoulli",
                                              "BitShift",
                                              "BlackmanWindow",
                                              "CastLike",
                                              "Compress",
                                              "ConvInteger",
                                              "DFT",
                                              "Det",
                                              "DynamicQuantizeLinear",
                                              "Einsum",
                                              "EyeLike",
                                              "GatherElements",
                                              "GatherND",
                                              "GridSample",
                                              "HammingWindow",
                                              "HannWindow",
                                              "Hardmax",
                                              "If",
                                              "IsInf",
                                              "LayerNormalization",
                                              "Loop",
                                              "MatMulInteger",
                                              "MeanVarianceNormalization",
                                              "MelWeightMatrix",
                                              "Mod",
                                              "NegativeLogLikelihoodLoss",
                                              "NonMaxSuppression",
                                              "NonZero",
                                              "OneHot",
                                              "RNN",
                                              "RandomUniformLike",
                                              "Range",
                                              "ReverseSequence",
                                              "RoiAlign",
                                              "STFT",
                                              "Scan",
                                              "Scatter",
                                              "ScatterElements",
                                              "ScatterND",
                                              "SequenceConstruct",
                                              "SequenceEmpty",
                                              "Size",
                                              "SoftmaxCrossEntropyLoss",
                                              "SplitToSequence",
                                              "TfIdfVectorizer",
                                              "Tile",
                                              "TopK",
                                              "Trilu",
                                              "Unique",
                                              "Where"};
    // GraphInfo names operators of other domains "domain.Op"; OpenCV implements neither the
    // ONNX-ML nor the training operators.
    return ops.count(op) > 0 || op.rfind("ai.onnx.ml.", 0) == 0 ||
           op.rfind("ai.onnx.preview.training.", 0) == 0;
}

// The elements of a constant tensor as doubles; false for a type or storage it cannot read.
bool ConstantValues(const onnx::TensorProto& t, std::vector<double>* values) {
    int64_t count = 1;
    for (int64_t d : t.dims())
        count *= d;
    if (count < 0) return false;
    values->assign(static_cast<size_t>(count), 0.0);
    const aclDataType type = AclTypeFromOnnx(t.data_type());
    const size_t element = ElementSize(type);
    if (element == 0) return false;
    auto fill = [&](auto&& at, int64_t have) {
        if (have != count) return false;
        for (int64_t i = 0; i < count; ++i)
            (*values)[i] = at(i);
        return true;
    };
    if (t.has_raw_data()) {
        const std::string& raw = t.raw_data();
        if (raw.size() != static_cast<size_t>(count) * element) return false;
        std::vector<float> as_float(static_cast<size_t>(count));
        if (type == ACL_DOUBLE || type == ACL_INT64 || type == ACL_UINT64) {
            // Wider than float: read directly so that large integers survive.
            for (int64_t i = 0; i < count; ++i) {
                double v = 0;
                if (type == ACL_DOUBLE) {
                    std::memcpy(&v, raw.data() + i * 8, 8);
                } else if (type == ACL_INT64) {
                    int64_t x;
                    std::memcpy(&x, raw.data() + i * 8, 8);
                    v = static_cast<double>(x);
                } else {
                    uint64_t x;
                    std::memcpy(&x, raw.data() + i * 8, 8);
                    v = static_cast<double>(x);
                }
                (*values)[i] = v;
            }
            return true;
        }
        if (!InputToFloat(type, raw.data(), static_cast<size_t>(count), as_float.data())) {
            return false;
        }
        for (int64_t i = 0; i < count; ++i)
            (*values)[i] = as_float[i];
        return true;
    }
    switch (type) {
        case ACL_FLOAT:
            return fill([&](int64_t i) { return t.float_data(i); }, t.float_data_size());
        case ACL_DOUBLE:
            return fill([&](int64_t i) { return t.double_data(i); }, t.double_data_size());
        case ACL_INT64:
            return fill([&](int64_t i) { return static_cast<double>(t.int64_data(i)); },
                        t.int64_data_size());
        case ACL_UINT32:
        case ACL_UINT64:
            return fill([&](int64_t i) { return static_cast<double>(t.uint64_data(i)); },
                        t.uint64_data_size());
        case ACL_FLOAT16:
            return fill(
                [&](int64_t i) {
                    return static_cast<double>(static_cast<float>(
                        cv::float16_t::fromBits(static_cast<uint16_t>(t.int32_data(i)))));
                },
                t.int32_data_size());
        case ACL_BF16:
            return fill(
                [&](int64_t i) {
                    return static_cast<double>(Bf16ToFloat(static_cast<uint16_t>(t.int32_data(i))));
                },
                t.int32_data_size());
        default:
            return fill([&](int64_t i) { return static_cast<double>(t.int32_data(i)); },
                        t.int32_data_size());
    }
}

// The value a Constant node holds, in any of its attribute forms.
bool ConstantNodeValue(const onnx::NodeProto& node, onnx::TensorProto* out) {
    for (const auto& attr : node.attribute()) {
        onnx::TensorProto t;
        if (attr.name() == "value" && attr.has_t()) {
            t = attr.t();
        } else if (attr.name() == "value_float") {
            t.set_data_type(onnx::TensorProto::FLOAT);
            t.add_float_data(attr.f());
        } else if (attr.name() == "value_floats") {
            t.set_data_type(onnx::TensorProto::FLOAT);
            t.add_dims(attr.floats_size());
            for (float f : attr.floats())
                t.add_float_data(f);
        } else if (attr.name() == "value_int") {
            t.set_data_type(onnx::TensorProto::INT64);
            t.add_int64_data(attr.i());
        } else if (attr.name() == "value_ints") {
            t.set_data_type(onnx::TensorProto::INT64);
            t.add_dims(attr.ints_size());
            for (int64_t i : attr.ints())
                t.add_int64_data(i);
        } else {
            continue;
        }
        *out = std::move(t);
        return true;
    }
    return false;
}

bool IsDefaultDomain(const onnx::NodeProto& node) {
    return node.domain().empty() || node.domain() == "ai.onnx";
}

const onnx::AttributeProto* FindAttribute(const onnx::NodeProto& node, const char* name) {
    for (const auto& attr : node.attribute()) {
        if (attr.name() == name) return &attr;
    }
    return nullptr;
}

// Who produces and who consumes each tensor of the top-level graph.
struct GraphIndex {
    std::map<std::string, int> producer;
    std::map<std::string, std::vector<int>> consumers;
    std::map<std::string, const onnx::TensorProto*> initializers;

    explicit GraphIndex(const onnx::GraphProto& graph) {
        for (const auto& init : graph.initializer())
            initializers[init.name()] = &init;
        for (int n = 0; n < graph.node_size(); ++n) {
            for (const auto& out : graph.node(n).output())
                producer[out] = n;
            for (const auto& in : graph.node(n).input()) {
                if (!in.empty()) consumers[in].push_back(n);
            }
        }
    }

    // A tensor's constant value: an initializer or a Constant node's output.
    bool Constant(const onnx::GraphProto& graph, const std::string& name,
                  onnx::TensorProto* out) const {
        if (auto it = initializers.find(name); it != initializers.end()) {
            *out = *it->second;
            return true;
        }
        auto it = producer.find(name);
        return it != producer.end() && graph.node(it->second).op_type() == "Constant" &&
               IsDefaultDomain(graph.node(it->second)) &&
               ConstantNodeValue(graph.node(it->second), out);
    }
};

// The shape of every tensor ONNX shape inference can tell from the declared input shapes (-1 for
// a dimension it cannot tell).
using Shapes = std::map<std::string, std::vector<int64_t>>;

Shapes InferShapes(const onnx::ModelProto& model) {
    Shapes shapes;
    onnx::ModelProto copy = model;
    try {
        onnx::ShapeInferenceOptions options;
        options.check_type = false;
        options.error_mode = 0;
        onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception&) {
        // Shapes stay unknown where inference failed; nothing depends on having them all.
    }
    const auto& graph = copy.graph();
    for (const auto* list : {&graph.input(), &graph.value_info(), &graph.output()}) {
        for (const auto& value : *list) {
            if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape()) {
                continue;
            }
            std::vector<int64_t>& dims = shapes[value.name()];
            dims.clear();
            for (const auto& dim : value.type().tensor_type().shape().dim()) {
                dims.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
            }
        }
    }
    for (const auto& init : graph.initializer()) {
        shapes[init.name()].assign(init.dims().begin(), init.dims().end());
    }
    return shapes;
}

int64_t DefaultOpset(const onnx::ModelProto& model) {
    for (const auto& opset : model.opset_import()) {
        if (opset.domain().empty() || opset.domain() == "ai.onnx") return opset.version();
    }
    return 0;
}

onnx::AttributeProto* SetAttribute(onnx::NodeProto* node, const char* name,
                                   onnx::AttributeProto::AttributeType type) {
    onnx::AttributeProto* attr = nullptr;
    for (auto& a : *node->mutable_attribute()) {
        if (a.name() == name) attr = &a;
    }
    if (!attr) attr = node->add_attribute();
    attr->Clear();
    attr->set_name(name);
    attr->set_type(type);
    return attr;
}

// Newer opsets turned some attributes into inputs (Clip's bounds in 11, Squeeze's and
// Unsqueeze's axes, ReduceSum's axes and Split's sizes in 13); OpenCV 4.6 reads most of them
// only as the older attributes. Constant ones become attributes again.
void FoldConstantInputs(onnx::GraphProto* graph) {
    const GraphIndex index(*graph);
    auto constant = [&](const std::string& name, std::vector<double>* values) {
        onnx::TensorProto t;
        return index.Constant(*graph, name, &t) && ConstantValues(t, values);
    };
    for (auto& node : *graph->mutable_node()) {
        if (!IsDefaultDomain(node) || node.input_size() < 2) continue;
        const std::string& op = node.op_type();
        if (op == "Clip") {
            std::vector<std::pair<const char*, double>> bounds;
            bool folded = true;
            for (int i = 1; i < node.input_size() && i < 3 && folded; ++i) {
                std::vector<double> values;
                if (node.input(i).empty()) continue;
                folded = constant(node.input(i), &values) && values.size() == 1;
                if (folded) bounds.emplace_back(i == 1 ? "min" : "max", values[0]);
            }
            if (!folded) continue;
            node.mutable_input()->DeleteSubrange(1, node.input_size() - 1);
            for (const auto& [name, value] : bounds) {
                SetAttribute(&node, name, onnx::AttributeProto::FLOAT)
                    ->set_f(static_cast<float>(value));
            }
        } else if (op == "Squeeze" || op == "Unsqueeze" || op == "ReduceSum" || op == "Split") {
            std::vector<double> values;
            if (node.input(1).empty() || !constant(node.input(1), &values)) continue;
            if (op == "ReduceSum" && values.empty()) {
                const auto* noop = FindAttribute(node, "noop_with_empty_axes");
                if (noop && noop->i() != 0) {
                    node.set_op_type("Identity");
                    node.clear_attribute();
                }
                node.mutable_input()->DeleteSubrange(1, node.input_size() - 1);
                continue;
            }
            auto* attr =
                SetAttribute(&node, op == "Split" ? "split" : "axes", onnx::AttributeProto::INTS);
            for (double v : values)
                attr->add_ints(static_cast<int64_t>(v));
            node.mutable_input()->DeleteSubrange(1, node.input_size() - 1);
        }
    }
}

// Element-wise operators with numpy broadcasting: leading 1s on an operand change nothing.
bool IsElementwise(const onnx::NodeProto& node) {
    static const std::set<std::string> ops = {"Abs",
                                              "Acos",
                                              "Acosh",
                                              "Add",
                                              "And",
                                              "Asin",
                                              "Asinh",
                                              "Atan",
                                              "Atanh",
                                              "Cast",
                                              "Ceil",
                                              "Celu",
                                              "Clip",
                                              "Cos",
                                              "Cosh",
                                              "Div",
                                              "Elu",
                                              "Equal",
                                              "Erf",
                                              "Exp",
                                              "Floor",
                                              "Greater",
                                              "GreaterOrEqual",
                                              "HardSigmoid",
                                              "HardSwish",
                                              "Identity",
                                              "IsInf",
                                              "IsNaN",
                                              "LeakyRelu",
                                              "Less",
                                              "LessOrEqual",
                                              "Log",
                                              "Max",
                                              "Mean",
                                              "Min",
                                              "Mish",
                                              "Mod",
                                              "Mul",
                                              "Neg",
                                              "Not",
                                              "Or",
                                              "Pow",
                                              "Reciprocal",
                                              "Relu",
                                              "Round",
                                              "Selu",
                                              "Sigmoid",
                                              "Sign",
                                              "Sin",
                                              "Sinh",
                                              "Softplus",
                                              "Softsign",
                                              "Sqrt",
                                              "Sub",
                                              "Sum",
                                              "Tan",
                                              "Tanh",
                                              "ThresholdedRelu",
                                              "Where",
                                              "Xor"};
    return IsDefaultDomain(node) && ops.count(node.op_type()) > 0;
}

int64_t IntAttribute(const onnx::NodeProto& node, const char* name, int64_t fallback) {
    const auto* attr = FindAttribute(node, name);
    return attr ? attr->i() : fallback;
}

float FloatAttribute(const onnx::NodeProto& node, const char* name, float fallback) {
    const auto* attr = FindAttribute(node, name);
    return attr ? attr->f() : fallback;
}

onnx::TensorProto* AddFloatInitializer(onnx::GraphProto* graph, const std::string& name,
                                       const std::vector<int64_t>& dims,
                                       const std::vector<double>& values) {
    auto* init = graph->add_initializer();
    init->set_name(name);
    init->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims)
        init->add_dims(d);
    for (double v : values)
        init->add_float_data(static_cast<float>(v));
    return init;
}

template <typename FreshName>
void RewriteGemm(onnx::GraphProto* graph, const GraphIndex& index, const Shapes& shapes,
                 onnx::NodeProto* node, std::vector<onnx::NodeProto>* before,
                 std::vector<onnx::NodeProto>* after, FreshName&& fresh_name) {
    onnx::TensorProto b;
    std::vector<double> b_values;
    if (!index.Constant(*graph, node->input(1), &b) || b.dims_size() != 2 ||
        !ConstantValues(b, &b_values)) {
        return;
    }
    const float alpha = FloatAttribute(*node, "alpha", 1.0f);
    const float beta = FloatAttribute(*node, "beta", 1.0f);
    const bool trans_b = IntAttribute(*node, "transB", 0) != 0;
    const int64_t n = trans_b ? b.dims(0) : b.dims(1), k = trans_b ? b.dims(1) : b.dims(0);
    // C becomes N values scaled by beta when it is a constant row; otherwise (a matrix, or
    // computed) it is added after the product by an Add, scaled first if beta is not 1.
    std::vector<double> c_values;
    std::string c_after;
    const bool has_c = node->input_size() > 2 && !node->input(2).empty();
    if (has_c) {
        onnx::TensorProto c;
        int64_t rows = 2;
        if (index.Constant(*graph, node->input(2), &c) && ConstantValues(c, &c_values)) {
            rows = 1;
            for (int i = 0; i + 1 < c.dims_size(); ++i)
                rows *= c.dims(i);
        }
        if (c_values.size() == 1) {
            c_values.assign(static_cast<size_t>(n), c_values[0] * beta);
        } else if (rows == 1 && static_cast<int64_t>(c_values.size()) == n) {
            for (double& v : c_values)
                v *= beta;
        } else {
            // OpenCV adds a computed tensor only to one of the same shape; any other C is left
            // to fail the import, so that binding can make it a constant.
            auto c_shape = shapes.find(node->input(2));
            auto y_shape = shapes.find(node->output(0));
            if (rows == 2 && (c_shape == shapes.end() || y_shape == shapes.end() ||
                              !IsStatic(y_shape->second) || c_shape->second != y_shape->second)) {
                return;
            }
            c_values.clear();
            c_after = node->input(2);
        }
    }
    std::vector<double> weights(static_cast<size_t>(n * k));
    for (int64_t r = 0; r < n; ++r) {
        for (int64_t col = 0; col < k; ++col) {
            weights[r * k + col] = alpha * b_values[trans_b ? r * k + col : col * n + r];  // [N, K]
        }
    }
    const std::string base = fresh_name(node->output(0));
    node->set_input(1, AddFloatInitializer(graph, base + "_B", {n, k}, weights)->name());
    if (!c_values.empty()) {
        node->set_input(2, AddFloatInitializer(graph, base + "_C", {n}, c_values)->name());
    } else if (node->input_size() > 2) {
        node->mutable_input()->DeleteSubrange(2, node->input_size() - 2);
    }
    if (!c_after.empty()) {
        onnx::NodeProto add;
        add.set_op_type("Add");
        add.add_input(base + "_AB");
        std::string c = c_after;
        if (beta != 1.0f) {
            onnx::NodeProto scale;
            scale.set_op_type("Mul");
            scale.add_input(c_after);
            scale.add_input(AddFloatInitializer(graph, base + "_beta", {}, {beta})->name());
            scale.add_output(base + "_betaC");
            c = scale.output(0);
            after->push_back(std::move(scale));
        }
        add.add_input(c);
        add.add_output(node->output(0));
        node->set_output(0, base + "_AB");
        after->push_back(std::move(add));
    }
    if (IntAttribute(*node, "transA", 0) != 0) {
        onnx::NodeProto transpose;
        transpose.set_op_type("Transpose");
        transpose.add_input(node->input(0));
        transpose.add_output(base + "_At");
        auto* perm = SetAttribute(&transpose, "perm", onnx::AttributeProto::INTS);
        perm->add_ints(1);
        perm->add_ints(0);
        node->set_input(0, transpose.output(0));
        before->push_back(std::move(transpose));
    }
    node->clear_attribute();
    SetAttribute(node, "transB", onnx::AttributeProto::INT)->set_i(1);
}

onnx::NodeProto MakeNode(const char* op, std::vector<std::string> inputs, std::string output) {
    onnx::NodeProto node;
    node.set_op_type(op);
    for (auto& in : inputs)
        node.add_input(std::move(in));
    node.add_output(std::move(output));
    return node;
}

// And = Mul, Or = Max, Xor = Not(Equal), a >= b = Max(Greater, Equal) (false for NaN, as
// ONNX says), Mean = Sum / n, IsNaN = Not(Equal(x, x)). Appends the replacement to *out.
template <typename FreshName>
bool EmulateLogical(onnx::GraphProto* graph, const onnx::NodeProto* node,
                    std::vector<onnx::NodeProto>* out, FreshName&& fresh_name) {
    const std::string& op = node->op_type();
    const std::string& y = node->output_size() > 0 ? node->output(0) : std::string();
    const int n = node->input_size();
    if ((op == "And" || op == "Or") && n == 2) {
        out->push_back(MakeNode(op == "And" ? "Mul" : "Max", {node->input(0), node->input(1)}, y));
    } else if (op == "Xor" && n == 2) {
        const std::string equal = fresh_name(y);
        out->push_back(MakeNode("Equal", {node->input(0), node->input(1)}, equal));
        out->push_back(MakeNode("Not", {equal}, y));
    } else if ((op == "GreaterOrEqual" || op == "LessOrEqual") && n == 2) {
        const std::string strict = fresh_name(y), equal = fresh_name(y);
        out->push_back(MakeNode(op == "GreaterOrEqual" ? "Greater" : "Less",
                                {node->input(0), node->input(1)}, strict));
        out->push_back(MakeNode("Equal", {node->input(0), node->input(1)}, equal));
        out->push_back(MakeNode("Max", {strict, equal}, y));
    } else if (op == "IsNaN" && n == 1) {
        const std::string equal = fresh_name(y);
        out->push_back(MakeNode("Equal", {node->input(0), node->input(0)}, equal));
        out->push_back(MakeNode("Not", {equal}, y));
    } else if (op == "Mean" && n >= 2) {
        const std::string sum = fresh_name(y);
        onnx::NodeProto add = MakeNode("Sum", {}, sum);
        for (const auto& in : node->input())
            add.add_input(in);
        out->push_back(std::move(add));
        const std::string scale = fresh_name(y);
        AddFloatInitializer(graph, scale, {}, {1.0 / n});
        out->push_back(MakeNode("Mul", {sum, scale}, y));
    } else {
        return false;
    }
    return true;
}

// Repairs of what OpenCV 4.6 expects but the ONNX spec leaves optional, and of opset
// differences it ignores.
void RewriteNodes(onnx::ModelProto* model, const Shapes& shapes) {
    onnx::GraphProto* graph = model->mutable_graph();
    const int64_t opset = DefaultOpset(*model);
    const GraphIndex index(*graph);
    const std::vector<onnx::NodeProto> original_nodes(graph->node().begin(), graph->node().end());
    std::vector<onnx::NodeProto> rewritten;
    int fresh = 0;
    auto fresh_name = [&](const std::string& base) {
        return base + "__openacl_" + std::to_string(fresh++);
    };
    for (const auto& original : graph->node()) {
        onnx::NodeProto node = original;
        const std::string& op = node.op_type();
        if (!IsDefaultDomain(node)) {
            rewritten.push_back(std::move(node));
            continue;
        }
        // kernel_shape is optional (W's shape says it); OpenCV requires it.
        if ((op == "Conv" || op == "ConvTranspose") && node.input_size() > 1 &&
            !FindAttribute(node, "kernel_shape")) {
            auto it = shapes.find(node.input(1));
            if (it != shapes.end() && it->second.size() > 2 && IsStatic(it->second)) {
                auto* attr = SetAttribute(&node, "kernel_shape", onnx::AttributeProto::INTS);
                for (size_t i = 2; i < it->second.size(); ++i)
                    attr->add_ints(it->second[i]);
            }
        }
        // epsilon has a default; OpenCV requires it.
        if ((op == "InstanceNormalization" || op == "BatchNormalization") &&
            !FindAttribute(node, "epsilon")) {
            SetAttribute(&node, "epsilon", onnx::AttributeProto::FLOAT)->set_f(1e-5f);
        }
        // OpenCV imports Gemm as a fully connected layer: B constant and stored transposed
        // ([N, K], transB = 1), C a constant of N values, no alpha, beta or transA. Constant
        // operands are rearranged into that form.
        std::vector<onnx::NodeProto> after;
        if (op == "Gemm" && node.input_size() >= 2) {
            RewriteGemm(graph, index, shapes, &node, &rewritten, &after, fresh_name);
        }
        // OpenCV's Dropout copies one input to every output it declares, reading past its
        // inputs for the mask; the mask is answered without OpenCV (Source::kAllTrue).
        if (op == "Dropout" && node.output_size() > 1 && !index.consumers.count(node.output(1))) {
            node.mutable_output()->DeleteSubrange(1, node.output_size() - 1);
        }
        // Logical operators OpenCV 4.6 lacks, spelled with ones it has; booleans are 0 and 1
        // in its float32 tensors.
        if (EmulateLogical(graph, &node, &rewritten, fresh_name)) continue;
        // Variadic operators with a single input are the identity; OpenCV requires two.
        if ((op == "Max" || op == "Min" || op == "Sum" || op == "Mean") && node.input_size() == 1) {
            node.set_op_type("Identity");
        }
        // Before opset 13, Softmax, LogSoftmax and Hardmax work on the input flattened to 2-D
        // at `axis`; OpenCV applies them along that one axis, as opset 13 does. The old
        // meaning is spelled out: Flatten, the operator on axis 1, Reshape back.
        // The default axis was 1 before opset 13 and is -1 since; OpenCV always takes 1.
        const bool softmax = op == "Softmax" || op == "LogSoftmax" || op == "Hardmax";
        if (softmax && !FindAttribute(node, "axis")) {
            SetAttribute(&node, "axis", onnx::AttributeProto::INT)->set_i(opset < 13 ? 1 : -1);
        }
        auto shape = node.input_size() > 0 ? shapes.find(node.input(0)) : shapes.end();
        if (softmax && opset < 13 && shape != shapes.end() && IsStatic(shape->second)) {
            const int64_t rank = static_cast<int64_t>(shape->second.size());
            int64_t axis = FindAttribute(node, "axis")->i();
            if (axis < 0) axis += rank;
            if (axis >= 0 && axis < rank - 1) {
                const std::string flat = fresh_name(node.output(0)) + "_flat";
                const std::string soft = fresh_name(node.output(0)) + "_2d";
                const std::string dims = fresh_name(node.output(0)) + "_shape";
                onnx::NodeProto flatten;
                flatten.set_op_type("Flatten");
                flatten.add_input(node.input(0));
                flatten.add_output(flat);
                SetAttribute(&flatten, "axis", onnx::AttributeProto::INT)->set_i(axis);
                onnx::NodeProto reshape;
                reshape.set_op_type("Reshape");
                reshape.add_input(soft);
                reshape.add_input(dims);
                reshape.add_output(node.output(0));
                auto* init = graph->add_initializer();
                init->set_name(dims);
                init->set_data_type(onnx::TensorProto::INT64);
                init->add_dims(rank);
                for (int64_t d : shape->second)
                    init->add_int64_data(d);
                node.set_input(0, flat);
                node.set_output(0, soft);
                SetAttribute(&node, "axis", onnx::AttributeProto::INT)->set_i(1);
                rewritten.push_back(std::move(flatten));
                rewritten.push_back(std::move(node));
                rewritten.push_back(std::move(reshape));
                continue;
            }
        }
        rewritten.push_back(std::move(node));
        for (auto& extra : after)
            rewritten.push_back(std::move(extra));
    }
    graph->clear_node();
    for (auto& node : rewritten)
        *graph->add_node() = std::move(node);

    // OpenCV computes in float32 but keeps integer and float64 constants in their own types and
    // then reads them as float32 in element-wise layers (x + int64 1 adds a denormal). Constants
    // that only meet element-wise operators are stored as float32; those used as shapes,
    // indices or axes keep their types.
    auto only_elementwise = [&](const std::string& name) {
        auto it = index.consumers.find(name);
        if (it == index.consumers.end()) return false;
        for (int n : it->second) {
            if (!IsElementwise(original_nodes[n])) return false;
        }
        return true;
    };
    auto to_float = [](onnx::TensorProto* t) {
        std::vector<double> values;
        if (t->data_type() == onnx::TensorProto::FLOAT || !ConstantValues(*t, &values)) return;
        onnx::TensorProto converted;
        converted.set_name(t->name());
        converted.set_data_type(onnx::TensorProto::FLOAT);
        *converted.mutable_dims() = t->dims();
        for (double v : values)
            converted.add_float_data(static_cast<float>(v));
        *t = std::move(converted);
    };
    for (auto& init : *graph->mutable_initializer()) {
        if (only_elementwise(init.name())) to_float(&init);
    }
    for (auto& node : *graph->mutable_node()) {
        if (node.op_type() != "Constant" || !IsDefaultDomain(node) || node.output_size() != 1 ||
            !only_elementwise(node.output(0))) {
            continue;
        }
        onnx::TensorProto value;
        if (!ConstantNodeValue(node, &value)) continue;
        to_float(&value);
        node.clear_attribute();
        auto* attr = SetAttribute(&node, "value", onnx::AttributeProto::TENSOR);
        *attr->mutable_t() = std::move(value);
    }
}

// OpenCV represents 0-D and 1-D tensors with two dimensions, so a negative axis counted from the
// end lands on the wrong dimension; counted from the front it is right either way.
void NormalizeAxes(onnx::GraphProto* graph, const Shapes& shapes) {
    static const std::set<std::string> axis_ops = {"ArgMax",
                                                   "ArgMin",
                                                   "Compress",
                                                   "Concat",
                                                   "DequantizeLinear",
                                                   "Flatten",
                                                   "Gather",
                                                   "GatherElements",
                                                   "Hardmax",
                                                   "LogSoftmax",
                                                   "LpNormalization",
                                                   "QuantizeLinear",
                                                   "Scatter",
                                                   "ScatterElements",
                                                   "Softmax",
                                                   "Split",
                                                   "TopK"};
    static const std::set<std::string> axes_ops = {
        "ReduceL1",  "ReduceL2",   "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
        "ReduceMin", "ReduceProd", "ReduceSum",    "ReduceSumSquare", "Squeeze",   "Unsqueeze"};
    const GraphIndex index(*graph);
    for (auto& node : *graph->mutable_node()) {
        if (!IsDefaultDomain(node) || node.input_size() == 0) continue;
        auto shape = shapes.find(node.input(0));
        if (shape == shapes.end()) continue;
        const int64_t rank = static_cast<int64_t>(shape->second.size());
        const bool axis_op = axis_ops.count(node.op_type()) > 0;
        const bool axes_op = axes_ops.count(node.op_type()) > 0;
        for (auto& attr : *node.mutable_attribute()) {
            if (axis_op && attr.name() == "axis" && attr.i() < 0) {
                attr.set_i(attr.i() + rank);
            } else if (axes_op && attr.name() == "axes") {
                // Unsqueeze's axes index its output.
                const int64_t r = node.op_type() == "Unsqueeze" ? rank + attr.ints_size() : rank;
                for (int i = 0; i < attr.ints_size(); ++i) {
                    if (attr.ints(i) < 0) attr.set_ints(i, attr.ints(i) + r);
                }
            }
        }
        // Slice takes its axes as an input (opset 10+): a constant one is replaced.
        std::vector<double> axes;
        onnx::TensorProto t;
        if (node.op_type() == "Slice" && node.input_size() > 3 && !node.input(3).empty() &&
            index.Constant(*graph, node.input(3), &t) && ConstantValues(t, &axes) &&
            std::any_of(axes.begin(), axes.end(), [](double a) { return a < 0; })) {
            auto* init = graph->add_initializer();
            init->set_name(node.input(3) + "__openacl_normalized");
            init->set_data_type(onnx::TensorProto::INT64);
            init->add_dims(static_cast<int64_t>(axes.size()));
            for (double a : axes)
                init->add_int64_data(static_cast<int64_t>(a < 0 ? a + rank : a));
            node.set_input(3, init->name());
        }
    }
}

// Every rewrite the graph gets before OpenCV imports it. Folding constant inputs into
// attributes repairs imports, but also hides patterns OpenCV fuses (Exp, ReduceSum, Div into
// Softmax), so it is done only when the graph does not import without it.
void RewriteForOpenCv(onnx::ModelProto* model, const Shapes& shapes, bool fold_inputs) {
    if (fold_inputs) FoldConstantInputs(model->mutable_graph());
    RewriteNodes(model, shapes);
    NormalizeAxes(model->mutable_graph(), shapes);
}

// The rank OpenCV should be told for graph input `name`: OpenCV's element-wise layers need two
// dimensions and operands of equal rank, so an input that only ever meets element-wise
// operators gets leading 1s up to the largest rank it meets (at least 2). 0: keep as declared.
int PromotedRank(const onnx::GraphProto& graph, const GraphIndex& index, const Shapes& shapes,
                 const std::string& name, int rank) {
    int target = std::max(rank, 2);
    std::vector<std::string> pending = {name};
    std::set<int> seen;
    while (!pending.empty()) {
        std::string tensor = pending.back();
        pending.pop_back();
        auto it = index.consumers.find(tensor);
        if (it == index.consumers.end()) continue;
        for (int n : it->second) {
            if (!seen.insert(n).second) continue;
            const auto& node = graph.node(n);
            if (!IsElementwise(node)) return 0;
            for (const auto& out : node.output()) {
                auto r = shapes.find(out);
                if (r == shapes.end()) return 0;
                target = std::max(target, static_cast<int>(r->second.size()));
                pending.push_back(out);
            }
        }
    }
    return target > rank && !seen.empty() ? target : 0;
}

// Where a graph output comes from. OpenCV folds constants and shapes into its layers and cannot
// hand them back, so those outputs are answered without it.
// OpenCV's Dropout has no mask output (asking for it reads past its outputs); at inference
// the mask is all true.
enum class Source { kNet, kConstant, kShapeOf, kInput, kAllTrue };

struct OutputPlan {
    Source source = Source::kNet;
    size_t index = 0;  // kNet: position among the forwarded names; kShapeOf/kInput: the input
    int64_t start = 0, end = std::numeric_limits<int64_t>::max();  // kShapeOf's slice
    std::vector<int64_t> dims;                                     // kConstant
    std::vector<uint8_t> bytes;                                    // kConstant, declared type
};

// What every instance of one model shares.
struct Shared {
    std::string onnx;  // as loaded (shape inference of the real graph)
    GraphInfo graph;
    onnx::ModelProto model;  // rewritten for OpenCV
    Shapes shapes;           // of the tensors of the graph as loaded
    std::string prepared;    // `model` serialized: what OpenCV imports when nothing is bound
    std::vector<bool> used;  // per input: some node or output reads it
    std::vector<int> promoted_rank;               // per input: 0, or the rank OpenCV is given
    std::vector<std::vector<int64_t>> expand_to;  // per input: {}, or the shape it is broadcast to
    std::vector<OutputPlan> outputs;
    std::vector<cv::String> forward_names;

    // Inputs OpenCV needs as constants (Reshape's shape, Gemm's B, Slice's starts...): each run
    // imports the graph with their values folded in, again only when those values change.
    std::mutex mutex;
    std::vector<bool> bind;
};

// The graph inputs whose values OpenCV needs as constants to import the node an import error
// names: the blob it says it is missing, or else the node's inputs after the first.
std::vector<size_t> InputsToBind(const std::string& text, const Shared& shared) {
    std::vector<size_t> result;
    if (text.find("Can't create layer") != std::string::npos) return result;
    const onnx::GraphProto& graph = shared.model.graph();
    const GraphIndex index(graph);
    std::vector<std::string> tensors;
    static const std::regex blob(R"(Blob (\S+) not found in const blobs)");
    static const std::regex node_id(R"(Node \[[^\]]*\]:\(([^)]*)\))");
    std::smatch match;
    if (std::regex_search(text, match, blob)) {
        tensors.push_back(match[1].str());
    } else if (std::regex_search(text, match, node_id)) {
        // OpenCV names a node "onnx_node!<name>", or after its first named output:
        // "onnx_node_output_<i>!<output>".
        const std::string id = match[1].str();
        static const std::regex by_output(R"(onnx_node_output_(\d+)!(.*))");
        static const std::string by_name = "onnx_node!";
        std::smatch parts;
        const bool named_by_output = std::regex_match(id, parts, by_output);
        for (const auto& node : graph.node()) {
            const int out = named_by_output ? std::stoi(parts[1].str()) : -1;
            const bool is_it = (named_by_output && out < node.output_size() &&
                                node.output(out) == parts[2].str()) ||
                               (!named_by_output && id.rfind(by_name, 0) == 0 &&
                                node.name() == id.substr(by_name.size()));
            if (!is_it) continue;
            for (int i = 1; i < node.input_size(); ++i) {
                if (!node.input(i).empty()) tensors.push_back(node.input(i));
            }
            break;
        }
    }
    // Bind the graph inputs the tensors are computed from.
    std::set<std::string> seen;
    while (!tensors.empty()) {
        std::string name = tensors.back();
        tensors.pop_back();
        if (!seen.insert(name).second) continue;
        bool is_input = false;
        for (size_t k = 0; k < shared.graph.inputs.size(); ++k) {
            if (shared.graph.inputs[k].name == name) {
                result.push_back(k);
                is_input = true;
            }
        }
        auto producer = index.producer.find(name);
        if (!is_input && producer != index.producer.end()) {
            for (const auto& in : graph.node(producer->second).input()) {
                if (!in.empty()) tensors.push_back(in);
            }
        }
    }
    return result;
}

// The graph with the bound inputs turned into initializers holding this run's values.
std::string BindInputs(const Shared& shared, const std::vector<bool>& bind,
                       const std::vector<TensorView>& inputs) {
    onnx::ModelProto variant = shared.model;
    auto* graph = variant.mutable_graph();
    for (size_t k = 0; k < bind.size(); ++k) {
        if (!bind[k]) continue;
        const ValueInfo& info = shared.graph.inputs[k];
        auto* list = graph->mutable_input();
        for (int i = 0; i < list->size(); ++i) {
            if (list->Get(i).name() == info.name) {
                list->DeleteSubrange(i, 1);
                break;
            }
        }
        auto* init = graph->add_initializer();
        init->set_name(info.name);
        init->set_data_type(info.onnx_type);
        for (int64_t d : inputs[k].dims)
            init->add_dims(d);
        const size_t bytes = static_cast<size_t>(Product(inputs[k].dims)) * ElementSize(info.type);
        init->set_raw_data(inputs[k].data, bytes);
    }
    RewriteForOpenCv(&variant, shared.shapes, true);
    return variant.SerializeAsString();
}

// OpenCV crashes on some invalid constants (a Slice step of 0, a Reshape shape that copies a
// dimension the input lacks), so bound values must first make a graph ONNX shape inference
// accepts.
bool ValidateBound(const Shared& shared, const std::vector<bool>& bind,
                   const std::vector<TensorView>& inputs, std::string* error) {
    onnx::ModelProto model;
    if (!model.ParseFromArray(shared.onnx.data(), static_cast<int>(shared.onnx.size()))) {
        *error = "the model is not a readable ONNX graph";
        return false;
    }
    auto* graph = model.mutable_graph();
    std::string names;
    for (size_t k = 0; k < bind.size(); ++k) {
        const ValueInfo& info = shared.graph.inputs[k];
        auto* list = graph->mutable_input();
        for (int i = 0; i < list->size(); ++i) {
            if (list->Get(i).name() != info.name) continue;
            // A bound input stays declared too: before IR 4 every initializer must be.
            auto* shape = list->Mutable(i)->mutable_type()->mutable_tensor_type()->mutable_shape();
            shape->clear_dim();
            for (int64_t d : inputs[k].dims)
                shape->add_dim()->set_dim_value(d);
            break;
        }
        if (!bind[k]) continue;
        // OpenCV divides by the size of a layer's weights: an empty weight crashes it.
        if (Product(inputs[k].dims) == 0) {
            static const std::set<std::string> weighted = {"Gemm",
                                                           "MatMul",
                                                           "Conv",
                                                           "ConvTranspose",
                                                           "BatchNormalization",
                                                           "InstanceNormalization",
                                                           "PRelu"};
            for (const auto& node : graph->node()) {
                bool consumes = false;
                for (const auto& in : node.input())
                    consumes = consumes || in == info.name;
                if (consumes && weighted.count(node.op_type())) {
                    *error = "input '" + info.name + "' is empty but " + node.op_type() +
                             " needs it as a non-empty weight";
                    return false;
                }
            }
        }
        names += (names.empty() ? "'" : ", '") + info.name + "'";
        auto* init = graph->add_initializer();
        init->set_name(info.name);
        init->set_data_type(info.onnx_type);
        for (int64_t d : inputs[k].dims)
            init->add_dims(d);
        init->set_raw_data(inputs[k].data,
                           static_cast<size_t>(Product(inputs[k].dims)) * ElementSize(info.type));
    }
    try {
        onnx::ShapeInferenceOptions options;
        options.check_type = false;
        options.error_mode = 1;
        options.enable_data_propagation = true;
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        *error = "the values of input(s) " + names +
                 ", which OpenCV DNN needs as constants, make the graph invalid: " +
                 CleanMessage(e.what());
        return false;
    }
    return true;
}

// Rewrites the graph for OpenCV and decides where each output comes from. False with *error
// when the graph cannot be read.
bool Prepare(Shared* shared, std::string* error) {
    const std::string& onnx = shared->onnx;
    if (onnx.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
        !shared->model.ParseFromArray(onnx.data(), static_cast<int>(onnx.size()))) {
        *error = "the model is not a readable ONNX graph";
        return false;
    }
    const GraphInfo& info = shared->graph;
    onnx::GraphProto* graph = shared->model.mutable_graph();
    shared->shapes = InferShapes(shared->model);
    // Where outputs come from is decided on the graph as loaded (rewrites drop Dropout masks).
    const onnx::GraphProto original = *graph;
    const GraphIndex original_index(original);
    RewriteForOpenCv(&shared->model, shared->shapes, false);
    const GraphIndex index(*graph);

    std::set<std::string> output_names;
    for (const ValueInfo& out : info.outputs)
        output_names.insert(out.name);
    shared->used.assign(info.inputs.size(), false);
    shared->promoted_rank.assign(info.inputs.size(), 0);
    for (size_t k = 0; k < info.inputs.size(); ++k) {
        const std::string& name = info.inputs[k].name;
        shared->used[k] = index.consumers.count(name) > 0 || output_names.count(name) > 0;
        // Decided on the graph as loaded: rewrites keep element-wise operators element-wise,
        // but their new tensors have no inferred shapes.
        if (info.inputs[k].has_shape) {
            shared->promoted_rank[k] = PromotedRank(original, original_index, shared->shapes, name,
                                                    static_cast<int>(info.inputs[k].dims.size()));
        }
    }
    // OpenCV 4.6 adds, compares... two computed tensors only when their shapes are equal. An
    // input whose consumers are all element-wise with one output shape is broadcast to that
    // shape before OpenCV sees it, which changes none of their results.
    shared->expand_to.assign(info.inputs.size(), {});
    for (size_t k = 0; k < info.inputs.size(); ++k) {
        const ValueInfo& in = info.inputs[k];
        auto consumers = original_index.consumers.find(in.name);
        if (!in.has_shape || !IsStatic(in.dims) || consumers == original_index.consumers.end()) {
            continue;
        }
        std::vector<int64_t> target;
        bool uniform = true;
        for (int n : consumers->second) {
            const auto& node = original.node(n);
            auto out = node.output_size() == 1 ? shared->shapes.find(node.output(0))
                                               : shared->shapes.end();
            uniform = uniform && IsElementwise(node) && out != shared->shapes.end() &&
                      IsStatic(out->second) && (target.empty() || target == out->second);
            if (!uniform) break;
            target = out->second;
        }
        if (!uniform || target == in.dims || target.size() < in.dims.size()) continue;
        bool broadcastable = true;
        const size_t offset = target.size() - in.dims.size();
        for (size_t d = 0; d < in.dims.size(); ++d) {
            broadcastable = broadcastable && (in.dims[d] == target[offset + d] || in.dims[d] == 1);
        }
        if (!broadcastable) continue;
        shared->expand_to[k] = target;
        shared->promoted_rank[k] = 0;
    }
    // Declare promoted shapes, and drop inputs nothing reads (OpenCV fails a run that feeds
    // one) and inputs that are initializers (IR < 4 defaults: constants, which OpenCV would
    // otherwise expect to be fed and leave uninitialized).
    auto* inputs = graph->mutable_input();
    for (int i = inputs->size() - 1; i >= 0; --i) {
        if (index.initializers.count(inputs->Get(i).name())) {
            inputs->DeleteSubrange(i, 1);
            continue;
        }
        for (size_t k = 0; k < info.inputs.size(); ++k) {
            if (info.inputs[k].name != inputs->Get(i).name()) continue;
            if (!shared->used[k]) {
                inputs->DeleteSubrange(i, 1);
            } else if (!shared->expand_to[k].empty()) {
                auto* shape =
                    inputs->Mutable(i)->mutable_type()->mutable_tensor_type()->mutable_shape();
                shape->clear_dim();
                for (int64_t d : shared->expand_to[k])
                    shape->add_dim()->set_dim_value(d);
            } else if (shared->promoted_rank[k] > 0) {
                auto* shape =
                    inputs->Mutable(i)->mutable_type()->mutable_tensor_type()->mutable_shape();
                onnx::TensorShapeProto promoted;
                const int missing = shared->promoted_rank[k] - shape->dim_size();
                for (int j = 0; j < missing; ++j)
                    promoted.add_dim()->set_dim_value(1);
                for (const auto& dim : shape->dim())
                    *promoted.add_dim() = dim;
                *shape = promoted;
            }
            break;
        }
    }

    for (const ValueInfo& out : info.outputs) {
        OutputPlan plan;
        onnx::TensorProto constant;
        std::vector<double> values;
        auto producer = original_index.producer.find(out.name);
        const onnx::NodeProto* node =
            producer == original_index.producer.end() ? nullptr : &original.node(producer->second);
        bool is_input = false;
        for (size_t k = 0; k < info.inputs.size(); ++k) {
            if (info.inputs[k].name == out.name) {
                plan.source = Source::kInput;
                plan.index = k;
                is_input = true;
            }
        }
        if (is_input) {
            // answered from the input
        } else if ((original_index.initializers.count(out.name) ||
                    (node && node->op_type() == "Constant")) &&
                   original_index.Constant(original, out.name, &constant) &&
                   ConstantValues(constant, &values) && ElementSize(out.type) > 0) {
            plan.source = Source::kConstant;
            plan.dims.assign(constant.dims().begin(), constant.dims().end());
            plan.bytes.resize(std::max<size_t>(values.size() * ElementSize(out.type), 1));
            StoreAs(values.data(), values.size(), out.type, plan.bytes.data());
        } else if (node && node->op_type() == "Shape" && IsDefaultDomain(*node) &&
                   out.type == ACL_INT64) {
            for (size_t k = 0; k < info.inputs.size(); ++k) {
                if (info.inputs[k].name == node->input(0)) {
                    plan.source = Source::kShapeOf;
                    plan.index = k;
                }
            }
            if (const auto* start = FindAttribute(*node, "start")) plan.start = start->i();
            if (const auto* end = FindAttribute(*node, "end")) plan.end = end->i();
        }
        if (node && node->op_type() == "Dropout" && IsDefaultDomain(*node) &&
            node->output_size() > 1 && node->output(1) == out.name && out.type == ACL_BOOL) {
            plan.source = Source::kAllTrue;
        }
        if (plan.source == Source::kNet) {
            plan.index = shared->forward_names.size();
            shared->forward_names.push_back(out.name);
        }
        shared->outputs.push_back(std::move(plan));
    }
    shared->bind.assign(info.inputs.size(), false);
    shared->prepared = shared->model.SerializeAsString();
    return true;
}

// Numpy broadcasting of src (dims) to `to`, which has at least as many dimensions.
void Broadcast(const float* src, const std::vector<int64_t>& dims, const std::vector<int64_t>& to,
               std::vector<float>* dst) {
    const size_t rank = to.size(), offset = rank - dims.size();
    std::vector<int64_t> stride(rank, 0);  // the source step per target dimension
    int64_t step = 1;
    for (size_t d = rank; d-- > offset;) {
        const int64_t size = dims[d - offset];
        stride[d] = size == 1 ? 0 : step;
        step *= size;
    }
    dst->resize(static_cast<size_t>(std::max<int64_t>(Product(to), 1)));
    std::vector<int64_t> at(rank, 0);
    int64_t from = 0;
    for (float& out : *dst) {
        out = src[from];
        for (size_t d = rank; d-- > 0;) {  // odometer over the target shape
            from += stride[d];
            if (++at[d] < to[d]) break;
            from -= stride[d] * at[d];
            at[d] = 0;
        }
    }
}

// ---- Running --------------------------------------------------------------------------------

class OpenCvInstance final : public EngineInstance {
 public:
    OpenCvInstance(std::shared_ptr<Shared> shared, cv::dnn::Net net)
        : shared_(std::move(shared)), net_(std::move(net)) {
        const size_t inputs = shared_->graph.inputs.size();
        input_store_.resize(inputs);
        input_mats_.resize(inputs);
        expanded_.resize(inputs);
        bound_.assign(inputs, false);
        bound_dims_.resize(inputs);
        bound_bytes_.resize(inputs);
        output_store_.resize(shared_->graph.outputs.size());
    }

    bool Run(const std::vector<TensorView>& inputs, std::vector<TensorView>* outputs,
             std::string* error) override {
        try {
            QuietOpenCv quiet;
            return RunUnchecked(inputs, outputs, error);
        } catch (const cv::Exception& e) {
            *error = "OpenCV DNN failed to run the model: " + ExceptionText(e);
        } catch (const std::exception& e) {
            *error = std::string("OpenCV DNN failed to run the model: ") + e.what();
        } catch (...) {
            *error = "OpenCV DNN failed to run the model (unknown exception)";
        }
        return false;
    }

 private:
    bool RunUnchecked(const std::vector<TensorView>& inputs, std::vector<TensorView>* outputs,
                      std::string* error) {
        const GraphInfo& graph = shared_->graph;
        if (inputs.size() != graph.inputs.size()) {
            *error = "the model has " + std::to_string(graph.inputs.size()) + " inputs, " +
                     std::to_string(inputs.size()) + " were given";
            return false;
        }
        bool dims_changed = input_dims_.size() != inputs.size();
        input_dims_.resize(inputs.size());
        for (size_t i = 0; i < inputs.size(); ++i) {
            if (!CheckInput(i, inputs[i], error)) return false;
            if (input_dims_[i] != inputs[i].dims) {
                input_dims_[i] = inputs[i].dims;
                dims_changed = true;
            }
        }
        if (dims_changed || expected_.size() != graph.outputs.size()) UpdateExpectedDims();
        if (!shared_->forward_names.empty()) {
            if (!EnsureNet(inputs, error)) return false;
            for (size_t i = 0; i < inputs.size(); ++i) {
                if (shared_->used[i] && !bound_[i] && !SetInput(i, inputs[i], error)) {
                    return false;
                }
            }
            net_.forward(output_mats_, shared_->forward_names);
            if (output_mats_.size() != shared_->forward_names.size()) {
                *error = "OpenCV DNN produced " + std::to_string(output_mats_.size()) +
                         " outputs, " + std::to_string(shared_->forward_names.size()) +
                         " were asked for";
                return false;
            }
        }
        outputs->resize(graph.outputs.size());
        for (size_t i = 0; i < graph.outputs.size(); ++i) {
            if (!TakeOutput(i, inputs, &(*outputs)[i], error)) return false;
        }
        return true;
    }

    bool CheckInput(size_t index, const TensorView& view, std::string* error) const {
        const ValueInfo& info = shared_->graph.inputs[index];
        const size_t element = ElementSize(view.type);
        if (element == 0 || !IsStatic(view.dims) || view.type != info.type) {
            *error = "input '" + info.name + "' (" + TypeName(view.type) + ", " +
                     DimsText(view.dims) + ") cannot be passed to OpenCV DNN";
            return false;
        }
        const size_t count = static_cast<size_t>(Product(view.dims));
        if (view.bytes < count * element || (count > 0 && view.data == nullptr)) {
            *error = "input '" + info.name + "' holds " + std::to_string(view.bytes) +
                     " bytes, its shape " + DimsText(view.dims) + " needs " +
                     std::to_string(count * element);
            return false;
        }
        return true;
    }

    bool BoundValuesMatch(const std::vector<TensorView>& inputs) const {
        for (size_t k = 0; k < inputs.size(); ++k) {
            if (!bound_[k]) continue;
            const size_t bytes =
                static_cast<size_t>(Product(inputs[k].dims)) * ElementSize(inputs[k].type);
            if (bound_dims_[k] != inputs[k].dims || bound_bytes_[k].size() != bytes ||
                (bytes > 0 && std::memcmp(bound_bytes_[k].data(), inputs[k].data, bytes) != 0)) {
                return false;
            }
        }
        return true;
    }

    // Imports the graph again when inputs OpenCV needs as constants are bound and their values
    // changed, or when another import error shows that more inputs must be.
    bool EnsureNet(const std::vector<TensorView>& inputs, std::string* error) {
        std::vector<bool> bind;
        {
            std::lock_guard<std::mutex> lock(shared_->mutex);
            bind = shared_->bind;
        }
        for (size_t attempt = 0; attempt <= inputs.size(); ++attempt) {
            if (!net_.empty() && bind == bound_ && BoundValuesMatch(inputs)) return true;
            const bool any = std::find(bind.begin(), bind.end(), true) != bind.end();
            std::string text;
            if (any && !ValidateBound(*shared_, bind, inputs, error)) return false;
            try {
                net_ = Import(any ? BindInputs(*shared_, bind, inputs) : shared_->prepared);
                bound_ = bind;
                for (size_t k = 0; k < inputs.size(); ++k) {
                    if (!bind[k]) continue;
                    bound_dims_[k] = inputs[k].dims;
                    const auto* data = static_cast<const uint8_t*>(inputs[k].data);
                    bound_bytes_[k].assign(data,
                                           data + static_cast<size_t>(Product(inputs[k].dims)) *
                                                      ElementSize(inputs[k].type));
                }
                return true;
            } catch (const cv::Exception& e) {
                text = e.what();
            }
            net_ = cv::dnn::Net();
            bool grew = false;
            for (size_t k : InputsToBind(text, *shared_)) {
                grew = grew || !bind[k];
                bind[k] = true;
            }
            if (!grew) {
                *error = ImportFailure(text);
                if (any) error->append(" (with the values of the inputs it needs as constants)");
                return false;
            }
            std::lock_guard<std::mutex> lock(shared_->mutex);
            for (size_t k = 0; k < bind.size(); ++k) {
                if (bind[k]) shared_->bind[k] = true;
            }
        }
        *error = "OpenCV DNN cannot import the model with any of its inputs fixed";
        return false;
    }

    bool SetInput(size_t index, const TensorView& view, std::string* error) {
        const ValueInfo& info = shared_->graph.inputs[index];
        const size_t count = static_cast<size_t>(Product(view.dims));
        // OpenCV has no 0-D or 1-D Mat: a scalar is a 1-element and a vector an n x 1 Mat,
        // unless the graph was told the input has leading 1s (PromotedRank).
        std::vector<int> sizes;
        for (int i = static_cast<int>(view.dims.size()); i < shared_->promoted_rank[index]; ++i) {
            sizes.push_back(1);
        }
        for (int64_t d : view.dims)
            sizes.push_back(static_cast<int>(d));
        if (sizes.empty()) sizes.push_back(1);
        cv::Mat& mat = input_mats_[index];
        const std::vector<int64_t>& expand = shared_->expand_to[index];
        if (!expand.empty()) {
            if (view.dims != info.dims) {
                *error = "input '" + info.name + "' has shape " + DimsText(view.dims) +
                         ", the graph declares " + DimsText(info.dims);
                return false;
            }
            std::vector<float>& store = input_store_[index];
            store.resize(std::max<size_t>(count, 1));
            if (!InputToFloat(view.type, view.data, count, store.data())) {
                *error = std::string("input '") + info.name + "' has element type " +
                         TypeName(view.type) + ", which OpenCV DNN cannot take";
                return false;
            }
            Broadcast(store.data(), view.dims, expand, &expanded_[index]);
            sizes.assign(expand.begin(), expand.end());
            mat = cv::Mat(static_cast<int>(sizes.size()), sizes.data(), CV_32F,
                          expanded_[index].data());
        } else if (view.type == ACL_FLOAT) {
            // setInput copies the blob, so the caller's memory is wrapped, not copied first.
            mat = cv::Mat(static_cast<int>(sizes.size()), sizes.data(), CV_32F,
                          const_cast<void*>(view.data));
        } else {
            std::vector<float>& store = input_store_[index];
            store.resize(std::max<size_t>(count, 1));
            if (!InputToFloat(view.type, view.data, count, store.data())) {
                *error = std::string("input '") + info.name + "' has element type " +
                         TypeName(view.type) + ", which OpenCV DNN cannot take";
                return false;
            }
            mat = cv::Mat(static_cast<int>(sizes.size()), sizes.data(), CV_32F, store.data());
        }
        net_.setInput(mat, info.name);
        return true;
    }

    // The shapes the graph promises for the current input shapes: declared ones when static,
    // otherwise ONNX shape inference (once per change of input shapes).
    void UpdateExpectedDims() {
        const GraphInfo& graph = shared_->graph;
        expected_.assign(graph.outputs.size(), {});
        rank_known_.assign(graph.outputs.size(), false);
        bool need_inference = false;
        for (size_t i = 0; i < graph.outputs.size(); ++i) {
            const ValueInfo& out = graph.outputs[i];
            rank_known_[i] = out.has_shape;
            expected_[i] = out.dims;
            need_inference = need_inference || !out.has_shape || !IsStatic(out.dims);
        }
        if (!need_inference) return;
        std::vector<std::vector<int64_t>> inferred;
        std::string ignored;
        if (!InferOutputDims(shared_->onnx, input_dims_, &inferred, &ignored) ||
            inferred.size() != graph.outputs.size()) {
            return;
        }
        for (size_t i = 0; i < graph.outputs.size(); ++i) {
            if (rank_known_[i] && IsStatic(expected_[i])) continue;
            // Inference leaves a dimension -1 when it cannot tell, and says {-2} for a rank.
            if (inferred[i] == std::vector<int64_t>{-2}) continue;
            expected_[i] = inferred[i];
            rank_known_[i] = true;
        }
    }

    bool TakeOutput(size_t index, const std::vector<TensorView>& inputs, TensorView* view,
                    std::string* error) {
        const ValueInfo& info = shared_->graph.outputs[index];
        const OutputPlan& plan = shared_->outputs[index];
        const size_t element = ElementSize(info.type);
        view->type = info.type;
        std::vector<uint8_t>& store = output_store_[index];
        switch (plan.source) {
            case Source::kConstant:
                view->dims = plan.dims;
                view->data = plan.bytes.data();
                view->bytes = static_cast<size_t>(Product(plan.dims)) * element;
                return true;
            case Source::kShapeOf: {
                const auto& dims = inputs[plan.index].dims;
                const int64_t rank = static_cast<int64_t>(dims.size());
                auto clamp = [rank](int64_t i) {
                    return std::clamp<int64_t>(i < 0 ? i + rank : i, 0, rank);
                };
                const int64_t start = clamp(plan.start), end = clamp(plan.end);
                const int64_t count = std::max<int64_t>(end - start, 0);
                store.resize(std::max<size_t>(static_cast<size_t>(count) * sizeof(int64_t), 1));
                if (count > 0)
                    std::memcpy(store.data(), dims.data() + start, count * sizeof(int64_t));
                view->dims = {count};
                view->data = store.data();
                view->bytes = static_cast<size_t>(count) * sizeof(int64_t);
                return true;
            }
            case Source::kInput: {
                const TensorView& in = inputs[plan.index];
                store.assign(static_cast<const uint8_t*>(in.data),
                             static_cast<const uint8_t*>(in.data) + in.bytes);
                store.resize(std::max<size_t>(store.size(), 1));
                view->dims = in.dims;
                view->data = store.data();
                view->bytes = in.bytes;
                return true;
            }
            case Source::kAllTrue: {
                // The mask has the shape of the Dropout's input, which the graph tells.
                if (!rank_known_[index] || !IsStatic(expected_[index])) {
                    *error = "the shape of output '" + info.name + "' cannot be inferred";
                    return false;
                }
                const size_t count = static_cast<size_t>(Product(expected_[index]));
                store.assign(std::max<size_t>(count, 1), 1);
                view->dims = expected_[index];
                view->data = store.data();
                view->bytes = count;
                return true;
            }
            case Source::kNet:
                break;
        }
        cv::Mat& mat = output_mats_[plan.index];
        if (!mat.isContinuous()) mat = mat.clone();
        if (rank_known_[index] && IsStatic(expected_[index]) &&
            Product(expected_[index]) != static_cast<int64_t>(mat.total())) {
            *error = "OpenCV DNN computed output '" + info.name + "' with shape " +
                     DimsText(MatDims(mat)) + " (" + std::to_string(mat.total()) +
                     " elements), but the graph gives it shape " + DimsText(expected_[index]) +
                     ": OpenCV does not implement this operator as ONNX specifies";
            return false;
        }
        view->dims = ReconcileDims(mat, expected_[index], rank_known_[index]);
        view->bytes = mat.total() * element;
        if (info.type == ACL_FLOAT && mat.depth() == CV_32F) {
            // OpenCV's own blob stays valid until the next forward, like the instance's storage.
            view->data = mat.ptr();
            return true;
        }
        store.resize(std::max<size_t>(view->bytes, 1));
        if (!MatToType(mat, info.type, store.data())) {
            *error = "output '" + info.name + "' cannot be converted to " + TypeName(info.type);
            return false;
        }
        view->data = store.data();
        return true;
    }

    std::shared_ptr<Shared> shared_;
    cv::dnn::Net net_;
    std::vector<bool> bound_;  // the inputs net_ holds as constants, and their values
    std::vector<std::vector<int64_t>> bound_dims_;
    std::vector<std::vector<uint8_t>> bound_bytes_;
    std::vector<std::vector<float>> input_store_;
    std::vector<std::vector<float>> expanded_;  // inputs broadcast for OpenCV (expand_to)
    std::vector<cv::Mat> input_mats_;
    std::vector<cv::Mat> output_mats_;
    std::vector<std::vector<uint8_t>> output_store_;
    std::vector<std::vector<int64_t>> input_dims_;
    std::vector<std::vector<int64_t>> expected_;
    std::vector<bool> rank_known_;
};

class OpenCvEngine final : public ModelEngine {
 public:
    OpenCvEngine(std::shared_ptr<Shared> shared, cv::dnn::Net first)
        : shared_(std::move(shared)), first_(std::move(first)) {}

    std::unique_ptr<EngineInstance> CreateInstance(std::string* error) override {
        try {
            cv::dnn::Net net;
            {
                // The net imported to check the model serves the first instance; with inputs
                // to bind, each instance imports its own at its first run.
                std::lock_guard<std::mutex> lock(mutex_);
                net = std::exchange(first_, cv::dnn::Net());
            }
            bool deferred;
            {
                std::lock_guard<std::mutex> lock(shared_->mutex);
                deferred = std::find(shared_->bind.begin(), shared_->bind.end(), true) !=
                           shared_->bind.end();
            }
            if (net.empty() && !deferred && !shared_->forward_names.empty()) {
                net = Import(shared_->prepared);
            }
            return std::make_unique<OpenCvInstance>(shared_, std::move(net));
        } catch (const cv::Exception& e) {
            *error = ImportFailure(e.what());
        } catch (const std::exception& e) {
            *error = std::string("OpenCV DNN cannot create an instance of the model: ") + e.what();
        }
        return nullptr;
    }

    const char* name() const override { return "opencv-dnn"; }

 private:
    std::shared_ptr<Shared> shared_;
    std::mutex mutex_;
    cv::dnn::Net first_;
};

// Once per process, before the first engine: OPENACL_MODEL_THREADS=N caps the threads OpenCV
// uses inside one execution (default: its own choice, every core). 1 runs each execution on its
// caller's thread only: useful when many streams execute models at once, and under
// ThreadSanitizer, which cannot see how OpenCV's TBB pool synchronises.
void PrepareOpenCvOnce() {
    static std::once_flag once;
    std::call_once(once, [] {
        // OpenCV creates its layer registry's mutex lazily with an unsynchronised check, so two
        // threads loading their first models at once race on it (ThreadSanitizer shows it).
        // Creating one layer here, once, makes that happen before any concurrent load.
        cv::dnn::LayerParams params;
        cv::dnn::LayerFactory::createLayerInstance("ReLU", params);
        const char* value = std::getenv("OPENACL_MODEL_THREADS");
        if (value == nullptr || *value == '\0') return;
        char* end = nullptr;
        long threads = std::strtol(value, &end, 10);
        if (*end != '\0' || threads < 1 || threads > 4096) return;
        cv::setNumThreads(threads == 1 ? 0 : static_cast<int>(threads));  // 0: no threading
    });
}

}  // namespace

std::unique_ptr<ModelEngine> CreateOpenCvEngine(const std::string& onnx, const GraphInfo& graph,
                                                std::string* error) {
    PrepareOpenCvOnce();
    for (const auto* values : {&graph.inputs, &graph.outputs}) {
        for (const ValueInfo& value : *values) {
            if (ElementSize(value.type) == 0) {
                *error = std::string(values == &graph.inputs ? "input '" : "output '") +
                         value.name + "' has element type " + TypeName(value.type) +
                         " (ONNX type " + std::to_string(value.onnx_type) +
                         "), which the OpenCV DNN engine does not support";
                return nullptr;
            }
        }
    }
    std::string unsupported;
    for (const std::string& op : graph.op_types) {
        if (IsUnsupportedOp(op)) unsupported += (unsupported.empty() ? "" : ", ") + op;
    }
    if (!unsupported.empty()) {
        *error = "the OpenCV DNN engine (OpenCV " CV_VERSION ") does not support operator(s) " +
                 unsupported;
        return nullptr;
    }
    try {
        auto shared = std::make_shared<Shared>();
        shared->onnx = onnx;
        shared->graph = graph;
        if (!Prepare(shared.get(), error)) return nullptr;
        cv::dnn::Net net;
        if (!shared->forward_names.empty()) {
            std::string text;
            try {
                net = Import(shared->prepared);
            } catch (const cv::Exception& e) {
                text = e.what();
            }
            if (net.empty()) {
                onnx::ModelProto folded = shared->model;
                RewriteForOpenCv(&folded, shared->shapes, true);
                std::string bytes = folded.SerializeAsString();
                try {
                    net = Import(bytes);
                    shared->model = std::move(folded);
                    shared->prepared = std::move(bytes);
                } catch (const cv::Exception& e) {
                    text = e.what();
                }
            }
            if (net.empty()) {
                // Some operators need inputs as constants; the first run supplies them.
                std::vector<size_t> bind = InputsToBind(text, *shared);
                if (bind.empty()) {
                    *error = ImportFailure(text);
                    return nullptr;
                }
                for (size_t k : bind)
                    shared->bind[k] = true;
            }
        }
        return std::make_unique<OpenCvEngine>(std::move(shared), std::move(net));
    } catch (const cv::Exception& e) {
        *error = ImportFailure(e.what());
    } catch (const std::exception& e) {
        *error = std::string("OpenCV DNN cannot import the model: ") + e.what();
    } catch (...) {
        *error = "OpenCV DNN cannot import the model (unknown exception)";
    }
    return nullptr;
}

}  // namespace openacl::model
