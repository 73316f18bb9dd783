#include "model/compiler/constant_folding.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "model/onnx_graph.h"

namespace openacl::model {
namespace {

constexpr size_t kMaxFoldElements = size_t{1} << 24;

int64_t Count(const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims)
        n *= d;
    return n;
}

const onnx::AttributeProto* Attr(const onnx::NodeProto& node, const char* name) {
    for (const auto& a : node.attribute()) {
        if (a.name() == name) return &a;
    }
    return nullptr;
}

int64_t AttrInt(const onnx::NodeProto& node, const char* name, int64_t fallback) {
    const auto* a = Attr(node, name);
    return a ? a->i() : fallback;
}

std::vector<int64_t> AttrInts(const onnx::NodeProto& node, const char* name) {
    const auto* a = Attr(node, name);
    return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : std::vector<int64_t>{};
}

bool IsIntegerType(int32_t type) {
    using T = onnx::TensorProto;
    return type == T::INT64 || type == T::INT32 || type == T::INT16 || type == T::INT8 ||
           type == T::UINT8 || type == T::UINT16 || type == T::UINT32 || type == T::UINT64 ||
           type == T::BOOL;
}

ConstValue Make(std::vector<int64_t> dims, bool integer) {
    ConstValue v;
    v.dims = std::move(dims);
    v.integer = integer;
    size_t n = static_cast<size_t>(Count(v.dims));
    if (integer) {
        v.ints.resize(n);
    } else {
        v.floats.resize(n);
    }
    return v;
}

void Set(ConstValue* v, size_t i, double x) {
    if (v->integer) {
        v->ints[i] = static_cast<int64_t>(x);
    } else {
        v->floats[i] = static_cast<float>(x);
    }
}

// Row-major index of `out_index` in a tensor of dims `from` broadcast to `to`.
size_t BroadcastIndex(size_t out_index, const std::vector<int64_t>& to,
                      const std::vector<int64_t>& from) {
    size_t index = 0, stride = 1;
    size_t rest = out_index;
    for (size_t k = 0; k < to.size(); ++k) {
        size_t axis = to.size() - 1 - k;
        size_t coord = rest % static_cast<size_t>(to[axis]);
        rest /= static_cast<size_t>(to[axis]);
        if (k < from.size()) {
            size_t f = from.size() - 1 - k;
            if (from[f] != 1) index += coord * stride;
            stride *= static_cast<size_t>(from[f]);
        }
    }
    return index;
}

bool Broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
               std::vector<int64_t>* out) {
    size_t rank = std::max(a.size(), b.size());
    out->assign(rank, 1);
    for (size_t k = 0; k < rank; ++k) {
        int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1;
        int64_t y = k < b.size() ? b[b.size() - 1 - k] : 1;
        if (x != y && x != 1 && y != 1) return false;
        (*out)[rank - 1 - k] = std::max(x, y);
    }
    return true;
}

int64_t Axis(int64_t axis, size_t rank) {
    return axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
}

}  // namespace

bool ReadTensorProto(const onnx::TensorProto& tensor, ConstValue* out, std::string* error) {
    using T = onnx::TensorProto;
    if (tensor.data_location() == T::EXTERNAL) {
        *error = "tensor '" + tensor.name() + "' keeps its data outside the model";
        return false;
    }
    std::vector<int64_t> dims(tensor.dims().begin(), tensor.dims().end());
    for (int64_t d : dims) {
        if (d < 0 || d > (int64_t{1} << 32)) {
            *error = "tensor '" + tensor.name() + "' has a bad dimension";
            return false;
        }
    }
    const int64_t n = Count(dims);
    const int32_t type = tensor.data_type();
    const bool integer = IsIntegerType(type);
    if (!integer && type != T::FLOAT && type != T::DOUBLE && type != T::FLOAT16) {
        *error = "tensor '" + tensor.name() + "' has an element type the compiler does not read";
        return false;
    }
    ConstValue v = Make(dims, integer);
    const std::string& raw = tensor.raw_data();
    auto need = [&](size_t have) {
        if (static_cast<int64_t>(have) != n) {
            *error = "tensor '" + tensor.name() + "' holds " + std::to_string(have) +
                     " values for " + std::to_string(n) + " elements";
            return false;
        }
        return true;
    };
    auto from_raw = [&](auto sample) {
        using E = decltype(sample);
        if (!need(raw.size() / sizeof(E)) || raw.size() % sizeof(E) != 0) return false;
        for (int64_t i = 0; i < n; ++i) {
            E e;
            std::memcpy(&e, raw.data() + i * sizeof(E), sizeof(E));
            Set(&v, static_cast<size_t>(i), static_cast<double>(e));
        }
        return true;
    };
    bool ok = true;
    if (tensor.has_raw_data()) {
        switch (type) {
            case T::FLOAT:
                ok = from_raw(float{});
                break;
            case T::DOUBLE:
                ok = from_raw(double{});
                break;
            case T::INT64:
                ok = from_raw(int64_t{});
                break;
            case T::INT32:
                ok = from_raw(int32_t{});
                break;
            case T::INT8:
                ok = from_raw(int8_t{});
                break;
            case T::UINT8:
            case T::BOOL:
                ok = from_raw(uint8_t{});
                break;
            default:
                *error = "tensor '" + tensor.name() + "' has raw data of a type not read here";
                return false;
        }
    } else if (type == T::FLOAT) {
        ok = need(tensor.float_data_size());
        for (int64_t i = 0; ok && i < n; ++i)
            v.floats[i] = tensor.float_data(static_cast<int>(i));
    } else if (type == T::DOUBLE) {
        ok = need(tensor.double_data_size());
        for (int64_t i = 0; ok && i < n; ++i)
            v.floats[i] = static_cast<float>(tensor.double_data(static_cast<int>(i)));
    } else if (type == T::INT64) {
        ok = need(tensor.int64_data_size());
        for (int64_t i = 0; ok && i < n; ++i)
            v.ints[i] = tensor.int64_data(static_cast<int>(i));
    } else if (integer && type != T::UINT64 && type != T::UINT32) {
        ok = need(tensor.int32_data_size());
        for (int64_t i = 0; ok && i < n; ++i)
            v.ints[i] = tensor.int32_data(static_cast<int>(i));
    } else {
        *error = "tensor '" + tensor.name() + "' stores its values in a form not read here";
        return false;
    }
    if (!ok) return false;
    *out = std::move(v);
    return true;
}

bool FoldNode(const onnx::NodeProto& node, const std::map<std::string, ConstValue>& consts,
              const std::map<std::string, std::vector<int64_t>>& dims,
              std::vector<ConstValue>* outputs) {
    const std::string& op = node.op_type();
    if (!node.domain().empty() && node.domain() != "ai.onnx") return false;
    outputs->clear();
    if (op == "Constant") {
        const auto* value = Attr(node, "value");
        ConstValue v;
        std::string ignored;
        if (value && value->has_t() && ReadTensorProto(value->t(), &v, &ignored)) {
            outputs->push_back(std::move(v));
            return true;
        }
        if (const auto* f = Attr(node, "value_float")) {
            v = Make({}, false);
            v.floats[0] = f->f();
        } else if (const auto* i = Attr(node, "value_int")) {
            v = Make({}, true);
            v.ints[0] = i->i();
        } else if (const auto* is = Attr(node, "value_ints")) {
            v = Make({is->ints_size()}, true);
            for (int k = 0; k < is->ints_size(); ++k)
                v.ints[k] = is->ints(k);
        } else if (const auto* fs = Attr(node, "value_floats")) {
            v = Make({fs->floats_size()}, false);
            for (int k = 0; k < fs->floats_size(); ++k)
                v.floats[k] = fs->floats(k);
        } else {
            return false;
        }
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "Shape") {
        if (node.input_size() < 1) return false;
        auto it = dims.find(node.input(0));
        if (it == dims.end() || Attr(node, "start") || Attr(node, "end")) return false;
        ConstValue v = Make({static_cast<int64_t>(it->second.size())}, true);
        v.ints = it->second;
        outputs->push_back(std::move(v));
        return true;
    }
    // Everything else needs every (non-empty) input constant.
    std::vector<const ConstValue*> in;
    for (const auto& name : node.input()) {
        if (name.empty()) {
            in.push_back(nullptr);
            continue;
        }
        auto it = consts.find(name);
        if (it == consts.end()) return false;
        in.push_back(&it->second);
    }
    if (in.empty() || in[0] == nullptr) return false;
    const ConstValue& x = *in[0];
    if (x.size() > kMaxFoldElements) return false;
    if (op == "Identity" || op == "Cast") {
        ConstValue v = x;
        if (op == "Cast") {
            const auto to = static_cast<int32_t>(AttrInt(node, "to", 1));
            ConstValue c = Make(x.dims, IsIntegerType(to));
            for (size_t i = 0; i < x.size(); ++i)
                Set(&c, i, to == onnx::TensorProto::BOOL ? x.at(i) != 0 : x.at(i));
            v = std::move(c);
        }
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "Unsqueeze" || op == "Squeeze" || op == "Reshape" || op == "Flatten") {
        ConstValue v = x;
        const size_t rank = x.dims.size();
        if (op == "Reshape") {
            if (in.size() < 2 || !in[1] || !in[1]->integer) return false;
            std::vector<int64_t> shape = in[1]->ints;
            int64_t known = 1, infer = -1;
            for (size_t i = 0; i < shape.size(); ++i) {
                if (shape[i] == 0 && i < rank && !AttrInt(node, "allowzero", 0)) {
                    shape[i] = x.dims[i];
                }
                if (shape[i] == -1) {
                    if (infer >= 0) return false;
                    infer = static_cast<int64_t>(i);
                } else if (shape[i] < 0) {
                    return false;
                } else {
                    known *= shape[i];
                }
            }
            if (infer >= 0) {
                if (known == 0 || Count(x.dims) % known != 0) return false;
                shape[infer] = Count(x.dims) / known;
            }
            if (Count(shape) != Count(x.dims)) return false;
            v.dims = shape;
        } else if (op == "Flatten") {
            int64_t axis = Axis(AttrInt(node, "axis", 1), rank);
            if (axis < 0 || axis > static_cast<int64_t>(rank)) return false;
            int64_t outer = 1;
            for (int64_t i = 0; i < axis; ++i)
                outer *= x.dims[i];
            v.dims = {outer, Count(x.dims) / std::max<int64_t>(outer, 1)};
        } else {
            std::vector<int64_t> axes = AttrInts(node, "axes");
            if (in.size() > 1 && in[1]) axes = in[1]->ints;
            if (op == "Unsqueeze") {
                size_t out_rank = rank + axes.size();
                std::vector<int64_t> d;
                std::vector<bool> one(out_rank, false);
                for (int64_t a : axes) {
                    a = Axis(a, out_rank);
                    if (a < 0 || a >= static_cast<int64_t>(out_rank)) return false;
                    one[a] = true;
                }
                size_t k = 0;
                for (size_t i = 0; i < out_rank; ++i)
                    d.push_back(one[i] ? 1 : (k < rank ? x.dims[k++] : 1));
                v.dims = d;
            } else {
                std::vector<int64_t> d;
                for (size_t i = 0; i < rank; ++i) {
                    bool drop = axes.empty() ? x.dims[i] == 1 : false;
                    for (int64_t a : axes)
                        drop = drop || Axis(a, rank) == static_cast<int64_t>(i);
                    if (!drop) d.push_back(x.dims[i]);
                }
                v.dims = d;
            }
        }
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "Gather") {
        if (in.size() < 2 || !in[1] || !in[1]->integer || x.dims.empty()) return false;
        const size_t rank = x.dims.size();
        int64_t axis = Axis(AttrInt(node, "axis", 0), rank);
        if (axis < 0 || axis >= static_cast<int64_t>(rank)) return false;
        const ConstValue& idx = *in[1];
        std::vector<int64_t> d(x.dims.begin(), x.dims.begin() + axis);
        d.insert(d.end(), idx.dims.begin(), idx.dims.end());
        d.insert(d.end(), x.dims.begin() + axis + 1, x.dims.end());
        int64_t outer = 1, inner = 1;
        for (int64_t i = 0; i < axis; ++i)
            outer *= x.dims[i];
        for (size_t i = static_cast<size_t>(axis) + 1; i < rank; ++i)
            inner *= x.dims[i];
        const int64_t extent = x.dims[axis];
        ConstValue v = Make(d, x.integer);
        size_t o = 0;
        for (int64_t a = 0; a < outer; ++a) {
            for (size_t j = 0; j < idx.size(); ++j) {
                int64_t k = idx.ints[j] < 0 ? idx.ints[j] + extent : idx.ints[j];
                if (k < 0 || k >= extent) return false;
                for (int64_t b = 0; b < inner; ++b)
                    Set(&v, o++, x.at(static_cast<size_t>((a * extent + k) * inner + b)));
            }
        }
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "Concat") {
        const size_t rank = x.dims.size();
        int64_t axis = Axis(AttrInt(node, "axis", 0), rank);
        if (rank == 0 || axis < 0 || axis >= static_cast<int64_t>(rank)) return false;
        std::vector<int64_t> d = x.dims;
        d[axis] = 0;
        bool integer = true;
        for (const auto* p : in) {
            if (!p || p->dims.size() != rank) return false;
            d[axis] += p->dims[axis];
            integer = integer && p->integer;
        }
        int64_t outer = 1;
        for (int64_t i = 0; i < axis; ++i)
            outer *= d[i];
        ConstValue v = Make(d, integer);
        size_t o = 0;
        for (int64_t a = 0; a < outer; ++a) {
            for (const auto* p : in) {
                size_t chunk = p->size() / static_cast<size_t>(std::max<int64_t>(outer, 1));
                for (size_t j = 0; j < chunk; ++j)
                    Set(&v, o++, p->at(static_cast<size_t>(a) * chunk + j));
            }
        }
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "ConstantOfShape") {
        if (!x.integer || x.dims.size() != 1) return false;
        for (int64_t d : x.ints) {
            if (d < 0) return false;
        }
        if (static_cast<size_t>(Count(x.ints)) > kMaxFoldElements) return false;
        ConstValue fill = Make({1}, false);
        if (const auto* value = Attr(node, "value")) {
            std::string ignored;
            if (!value->has_t() || !ReadTensorProto(value->t(), &fill, &ignored) ||
                fill.size() != 1) {
                return false;
            }
        }
        ConstValue v = Make(x.ints, fill.integer);
        for (size_t i = 0; i < v.size(); ++i)
            Set(&v, i, fill.at(0));
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Pow" || op == "Mod" ||
        op == "Min" || op == "Max" || op == "Equal" || op == "Less" || op == "Greater" ||
        op == "LessOrEqual" || op == "GreaterOrEqual" || op == "And" || op == "Or") {
        // Two operands (Min and Max fold two at a time, which is all exporters write in shape
        // arithmetic); comparisons give bool, held as integers.
        if (in.size() != 2 || !in[1]) return false;
        const ConstValue& y = *in[1];
        std::vector<int64_t> d;
        if (!Broadcast(x.dims, y.dims, &d)) return false;
        if (static_cast<size_t>(Count(d)) > kMaxFoldElements) return false;
        const bool compares = op == "Equal" || op == "Less" || op == "Greater" ||
                              op == "LessOrEqual" || op == "GreaterOrEqual" || op == "And" ||
                              op == "Or";
        const bool integer = compares || (x.integer && y.integer);
        ConstValue v = Make(d, integer);
        for (size_t i = 0; i < v.size(); ++i) {
            double a = x.at(BroadcastIndex(i, d, x.dims));
            double b = y.at(BroadcastIndex(i, d, y.dims));
            double r = 0.0;
            if (op == "Add") {
                r = a + b;
            } else if (op == "Sub") {
                r = a - b;
            } else if (op == "Mul") {
                r = a * b;
            } else if (op == "Div" || op == "Mod") {
                if (x.integer && y.integer) {
                    if (b == 0) return false;
                    const int64_t ia = static_cast<int64_t>(a), ib = static_cast<int64_t>(b);
                    if (op == "Div") {
                        r = static_cast<double>(ia / ib);
                    } else {
                        // Integer Mod takes the divisor's sign unless fmod = 1 (C's %).
                        int64_t m = ia % ib;
                        if (!AttrInt(node, "fmod", 0) && m != 0 && ((m < 0) != (ib < 0))) m += ib;
                        r = static_cast<double>(m);
                    }
                } else if (op == "Div") {
                    r = a / b;
                } else {
                    if (!AttrInt(node, "fmod", 0)) return false;  // float Mod needs fmod = 1
                    r = std::fmod(a, b);
                }
            } else if (op == "Pow") {
                r = std::pow(a, b);
            } else if (op == "Min") {
                r = std::min(a, b);
            } else if (op == "Max") {
                r = std::max(a, b);
            } else if (op == "Equal") {
                r = a == b;
            } else if (op == "Less") {
                r = a < b;
            } else if (op == "Greater") {
                r = a > b;
            } else if (op == "LessOrEqual") {
                r = a <= b;
            } else if (op == "GreaterOrEqual") {
                r = a >= b;
            } else if (op == "And") {
                r = a != 0 && b != 0;
            } else {
                r = a != 0 || b != 0;
            }
            Set(&v, i, r);
        }
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "Neg" || op == "Abs" || op == "Sqrt" || op == "Exp" || op == "Log" || op == "Floor" ||
        op == "Ceil" || op == "Reciprocal" || op == "Not" || op == "Sign") {
        ConstValue v = Make(x.dims, x.integer || op == "Not");
        for (size_t i = 0; i < x.size(); ++i) {
            const double a = x.at(i);
            double r = op == "Neg"          ? -a
                       : op == "Abs"        ? std::fabs(a)
                       : op == "Sqrt"       ? std::sqrt(a)
                       : op == "Exp"        ? std::exp(a)
                       : op == "Log"        ? std::log(a)
                       : op == "Floor"      ? std::floor(a)
                       : op == "Ceil"       ? std::ceil(a)
                       : op == "Reciprocal" ? 1.0 / a
                       : op == "Not"        ? static_cast<double>(a == 0)
                                            : static_cast<double>((a > 0) - (a < 0));
            Set(&v, i, r);
        }
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "Where") {
        if (in.size() != 3 || !in[1] || !in[2]) return false;
        std::vector<int64_t> d, d2;
        if (!Broadcast(x.dims, in[1]->dims, &d2) || !Broadcast(d2, in[2]->dims, &d)) return false;
        if (static_cast<size_t>(Count(d)) > kMaxFoldElements) return false;
        ConstValue v = Make(d, in[1]->integer && in[2]->integer);
        for (size_t i = 0; i < v.size(); ++i) {
            const bool c = x.at(BroadcastIndex(i, d, x.dims)) != 0;
            const ConstValue& pick = c ? *in[1] : *in[2];
            Set(&v, i, pick.at(BroadcastIndex(i, d, pick.dims)));
        }
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "Range") {
        if (in.size() != 3 || !in[1] || !in[2] || x.size() != 1 || in[1]->size() != 1 ||
            in[2]->size() != 1) {
            return false;
        }
        const double start = x.at(0), limit = in[1]->at(0), delta = in[2]->at(0);
        if (delta == 0) return false;
        const double count = std::max(std::ceil((limit - start) / delta), 0.0);
        if (count > static_cast<double>(kMaxFoldElements)) return false;
        ConstValue v = Make({static_cast<int64_t>(count)}, x.integer);
        for (size_t i = 0; i < v.size(); ++i)
            Set(&v, i, start + static_cast<double>(i) * delta);
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "Expand") {
        if (in.size() != 2 || !in[1] || !in[1]->integer) return false;
        std::vector<int64_t> d;
        if (!Broadcast(x.dims, in[1]->ints, &d)) return false;
        if (static_cast<size_t>(Count(d)) > kMaxFoldElements) return false;
        ConstValue v = Make(d, x.integer);
        for (size_t i = 0; i < v.size(); ++i)
            Set(&v, i, x.at(BroadcastIndex(i, d, x.dims)));
        outputs->push_back(std::move(v));
        return true;
    }
    if (op == "Slice") {
        // Opset 1-9 give starts, ends and axes as attributes, later opsets as inputs (with
        // steps); any rank, any step, clamped as ONNX specifies.
        const size_t rank = x.dims.size();
        std::vector<int64_t> starts, ends, axes, steps;
        if (Attr(node, "starts")) {
            starts = AttrInts(node, "starts");
            ends = AttrInts(node, "ends");
            axes = AttrInts(node, "axes");
        } else {
            if (in.size() < 3 || !in[1] || !in[2]) return false;
            auto ints = [](const ConstValue& c) {
                std::vector<int64_t> r;
                for (size_t i = 0; i < c.size(); ++i)
                    r.push_back(static_cast<int64_t>(c.at(i)));
                return r;
            };
            starts = ints(*in[1]);
            ends = ints(*in[2]);
            if (in.size() > 3 && in[3]) axes = ints(*in[3]);
            if (in.size() > 4 && in[4]) steps = ints(*in[4]);
        }
        if (axes.empty()) {
            for (size_t i = 0; i < starts.size(); ++i)
                axes.push_back(static_cast<int64_t>(i));
        }
        if (steps.empty()) steps.assign(starts.size(), 1);
        if (ends.size() != starts.size() || axes.size() != starts.size() ||
            steps.size() != starts.size() || rank == 0) {
            return false;
        }
        std::vector<int64_t> first(rank, 0), step(rank, 1), d = x.dims;
        for (size_t k = 0; k < starts.size(); ++k) {
            const int64_t a = Axis(axes[k], rank);
            if (a < 0 || a >= static_cast<int64_t>(rank) || steps[k] == 0) return false;
            const int64_t n = x.dims[a];
            int64_t b = starts[k] < 0 ? starts[k] + n : starts[k];
            int64_t e = ends[k] < 0 ? ends[k] + n : ends[k];
            if (steps[k] > 0) {
                b = std::clamp<int64_t>(b, 0, n);
                e = std::clamp<int64_t>(e, 0, n);
                d[a] = e > b ? (e - b + steps[k] - 1) / steps[k] : 0;
            } else {
                b = std::clamp<int64_t>(b, 0, n - 1);
                e = std::clamp<int64_t>(e, -1, n - 1);
                d[a] = b > e ? (b - e - steps[k] - 1) / -steps[k] : 0;
            }
            first[a] = b;
            step[a] = steps[k];
        }
        ConstValue v = Make(d, x.integer);
        for (size_t i = 0; i < v.size(); ++i) {
            size_t rest = i, from = 0, stride = 1;
            for (size_t k = rank; k-- > 0;) {
                const int64_t coord = static_cast<int64_t>(rest % static_cast<size_t>(d[k]));
                rest /= static_cast<size_t>(d[k]);
                from += static_cast<size_t>(first[k] + coord * step[k]) * stride;
                stride *= static_cast<size_t>(x.dims[k]);
            }
            Set(&v, i, x.at(from));
        }
        outputs->push_back(std::move(v));
        return true;
    }
    return false;
}

namespace {

std::vector<int64_t> StaticShape(const onnx::TypeProto& type, bool* ok) {
    std::vector<int64_t> dims;
    *ok = type.has_tensor_type() && type.tensor_type().has_shape();
    if (!*ok) return dims;
    for (const auto& d : type.tensor_type().shape().dim()) {
        if (!d.has_dim_value() || d.dim_value() < 0) {
            *ok = false;
            return {};
        }
        dims.push_back(d.dim_value());
    }
    return dims;
}

// The folded value as an initializer of the element type inference gave the output (int64 or
// float when it gave none). False for types this does not write (float16, strings...).
bool WriteTensorProto(const ConstValue& v, int32_t type, const std::string& name,
                      onnx::TensorProto* out) {
    using T = onnx::TensorProto;
    if (type == T::UNDEFINED) type = v.integer ? T::INT64 : T::FLOAT;
    out->set_name(name);
    out->set_data_type(type);
    for (int64_t d : v.dims)
        out->add_dims(d);
    for (size_t i = 0; i < v.size(); ++i) {
        const double x = v.at(i);
        switch (type) {
            case T::FLOAT:
                out->add_float_data(static_cast<float>(x));
                break;
            case T::DOUBLE:
                out->add_double_data(x);
                break;
            case T::INT64:
                out->add_int64_data(static_cast<int64_t>(x));
                break;
            case T::INT32:
            case T::INT16:
            case T::INT8:
            case T::UINT8:
            case T::UINT16:
            case T::BOOL:
                out->add_int32_data(static_cast<int32_t>(x));
                break;
            default:
                return false;
        }
    }
    return true;
}

}  // namespace

void InferShapesFoldingConstants(onnx::ModelProto* model) {
    auto* graph = model->mutable_graph();
    // Each round folds every chain it can reach; another is needed only when the last one's
    // constants let inference give shapes that Shape nodes then fold.
    for (int round = 0; round < 8; ++round) {
        InferShapesPropagatingData(model);
        std::map<std::string, std::vector<int64_t>> dims;
        std::map<std::string, int32_t> types;
        for (const auto* list : {&graph->value_info(), &graph->input(), &graph->output()}) {
            for (const auto& vi : *list) {
                bool ok;
                auto d = StaticShape(vi.type(), &ok);
                if (ok) dims[vi.name()] = std::move(d);
                if (vi.type().has_tensor_type()) {
                    types[vi.name()] = vi.type().tensor_type().elem_type();
                }
            }
        }
        std::map<std::string, ConstValue> consts;
        for (const auto& init : graph->initializer()) {
            ConstValue c;
            std::string ignored;
            if (ReadTensorProto(init, &c, &ignored)) {
                dims[init.name()] = c.dims;
                consts[init.name()] = std::move(c);
            }
        }
        std::vector<onnx::NodeProto> kept;
        bool folded_any = false;
        for (const auto& node : graph->node()) {
            std::vector<ConstValue> folded;
            std::vector<onnx::TensorProto> written(static_cast<size_t>(node.output_size()));
            bool fold = FoldNode(node, consts, dims, &folded) &&
                        static_cast<int>(folded.size()) == node.output_size();
            for (int i = 0; fold && i < node.output_size(); ++i) {
                const auto type = types.find(node.output(i));
                fold = WriteTensorProto(folded[i], type == types.end() ? 0 : type->second,
                                        node.output(i), &written[i]);
            }
            if (!fold) {
                kept.push_back(node);
                continue;
            }
            for (int i = 0; i < node.output_size(); ++i) {
                dims[node.output(i)] = folded[i].dims;
                consts[node.output(i)] = std::move(folded[i]);
                if (model->ir_version() < 4) {
                    // Before IR 4 every initializer is also a graph input.
                    auto* input = graph->add_input();
                    input->set_name(node.output(i));
                    auto* tensor = input->mutable_type()->mutable_tensor_type();
                    tensor->set_elem_type(written[i].data_type());
                    auto* shape = tensor->mutable_shape();
                    for (int64_t d : written[i].dims())
                        shape->add_dim()->set_dim_value(d);
                }
                *graph->add_initializer() = std::move(written[i]);
            }
            folded_any = true;
        }
        if (!folded_any) return;
        graph->clear_node();
        for (auto& node : kept)
            *graph->add_node() = std::move(node);
    }
    InferShapesPropagatingData(model);
}

}  // namespace openacl::model
