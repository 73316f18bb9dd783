// The normalisation kernels of ops/norm.h: each row is gathered into a double buffer, its
// statistics computed there, and the results scattered back to the output's view.
#include "ops/norm.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/axis_plan.h"
#include "ops/dtype.h"
#include "ops/element.h"

namespace openacl::ops {
namespace {

// A flat view with size-1 dimensions dropped and neighbours merged, strides in bytes.
class Flat {
 public:
    explicit Flat(const FlatTensor& tensor) : data_(tensor.view.data), dtype_(tensor.view.dtype) {
        if (data_ == nullptr) return;
        const auto size = static_cast<int64_t>(DtypeSize(dtype_));
        for (int d = 0; d < tensor.shape.rank; ++d) {
            const int64_t dim = tensor.shape.dims[d];
            if (dim == 1) continue;
            const int64_t stride = tensor.view.strides[d] * size;
            if (rank_ > 0 && strides_[rank_ - 1] == stride * dim) {
                dims_[rank_ - 1] *= dim;
                strides_[rank_ - 1] = stride;
            } else {
                dims_[rank_] = dim;
                strides_[rank_] = stride;
                ++rank_;
            }
        }
        if (rank_ == 0) {
            dims_[0] = 1;
            strides_[0] = 0;
            rank_ = 1;
        }
    }
    bool present() const { return data_ != nullptr; }

    // Elements [first, first + n) in row-major order, read as double or written from double.
    void Read(int64_t first, int64_t n, double* out) const { Walk(first, n, out, false); }
    void Write(int64_t first, int64_t n, const double* in) const {
        Walk(first, n, const_cast<double*>(in), true);
    }

 private:
    void Walk(int64_t first, int64_t n, double* values, bool write) const {
        int64_t index[kMaxDims] = {};
        char* p = data_;
        int64_t rest = first;
        for (int d = rank_ - 1; d >= 0; --d) {
            index[d] = rest % dims_[d];
            rest /= dims_[d];
            p += index[d] * strides_[d];
        }
        const int inner = rank_ - 1;
        int64_t done = 0;
        while (done < n) {
            const int64_t run = std::min(dims_[inner] - index[inner], n - done);
            if (write) {
                Store<double>(values + done, run, p, strides_[inner], dtype_);
            } else {
                Load<double>(p, strides_[inner], dtype_, run, values + done);
            }
            done += run;
            if (done == n) break;
            // The run ended the innermost dimension: back to its start, carry outwards.
            p -= index[inner] * strides_[inner];
            index[inner] = 0;
            for (int d = inner - 1; d >= 0; --d) {
                if (++index[d] < dims_[d]) {
                    p += strides_[d];
                    break;
                }
                index[d] = 0;
                p -= (dims_[d] - 1) * strides_[d];
            }
        }
    }

    char* data_;
    aclDataType dtype_;
    int rank_ = 0;
    int64_t dims_[kMaxDims] = {};
    int64_t strides_[kMaxDims] = {};
};

// The value a tensor of `type` would hold for v.
double RoundAs(double v, aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
            return static_cast<float>(v);
        case ACL_FLOAT16:
            return f16::HalfToFloat(FloatToHalf(static_cast<float>(v)));
        case ACL_BF16:
            return f16::Bf16ToFloat(FloatToBf16(static_cast<float>(v)));
        default:
            return v;
    }
}

std::vector<double> ReadAll(const Flat& tensor, int64_t n, double fill) {
    std::vector<double> values(static_cast<size_t>(n), fill);
    if (tensor.present() && n > 0) tensor.Read(0, n, values.data());
    return values;
}

void WriteOne(const Flat& tensor, int64_t at, double value) {
    if (tensor.present()) tensor.Write(at, 1, &value);
}

// Mean and 1/sqrt(var + eps) of n values (mean 0 and rstd NaN when there are none).
void Moments(const double* x, int64_t n, double eps, double* mean, double* rstd) {
    if (n == 0) {
        *mean = 0.0;
        *rstd = std::numeric_limits<double>::quiet_NaN();
        return;
    }
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i)
        sum += x[i];
    const double m = sum / static_cast<double>(n);
    double squares = 0.0;
    for (int64_t i = 0; i < n; ++i)
        squares += (x[i] - m) * (x[i] - m);
    *mean = m;
    *rstd = 1.0 / std::sqrt(squares / static_cast<double>(n) + eps);
}

}  // namespace

void RunRmsNorm(const RmsNormArgs& args) {
    if (args.rows == 0) return;
    const Flat x(args.x), x2(args.x2), y(args.y), rstd(args.rstd), x_out(args.x_out);
    const std::vector<double> gamma = ReadAll(Flat(args.gamma), args.cols, 1.0);
    const aclDataType sum_type = x_out.present() ? args.x_out.view.dtype : args.x.view.dtype;
    const int64_t cols = args.cols;
    SplitUnits(args.rows, GrainFor(2 * cols), [&](int64_t begin, int64_t end) {
        std::vector<double> row(static_cast<size_t>(cols)), other;
        if (x2.present()) other.resize(static_cast<size_t>(cols));
        for (int64_t r = begin; r < end; ++r) {
            x.Read(r * cols, cols, row.data());
            if (x2.present()) {
                x2.Read(r * cols, cols, other.data());
                for (int64_t i = 0; i < cols; ++i)
                    row[i] = RoundAs(row[i] + other[i], sum_type);
                if (x_out.present()) x_out.Write(r * cols, cols, row.data());
            }
            double squares = 0.0;
            for (int64_t i = 0; i < cols; ++i)
                squares += row[i] * row[i];
            const double scale =
                1.0 / std::sqrt(cols == 0 ? std::numeric_limits<double>::quiet_NaN()
                                          : squares / static_cast<double>(cols) + args.eps);
            for (int64_t i = 0; i < cols; ++i)
                row[i] = row[i] * scale * gamma[i];
            if (cols > 0) y.Write(r * cols, cols, row.data());
            WriteOne(rstd, r, scale);
        }
    });
}

void RunLayerNorm(const LayerNormArgs& args) {
    if (args.rows == 0) return;
    const Flat x(args.x), out(args.out), mean(args.mean), rstd(args.rstd);
    const std::vector<double> weight = ReadAll(Flat(args.weight), args.cols, 1.0);
    const std::vector<double> bias = ReadAll(Flat(args.bias), args.cols, 0.0);
    const int64_t cols = args.cols;
    SplitUnits(args.rows, GrainFor(3 * cols), [&](int64_t begin, int64_t end) {
        std::vector<double> row(static_cast<size_t>(cols));
        for (int64_t r = begin; r < end; ++r) {
            double m = 0.0, s = 0.0;
            if (cols > 0) x.Read(r * cols, cols, row.data());
            Moments(row.data(), cols, args.eps, &m, &s);
            for (int64_t i = 0; i < cols; ++i)
                row[i] = (row[i] - m) * s * weight[i] + bias[i];
            if (cols > 0) out.Write(r * cols, cols, row.data());
            WriteOne(mean, r, m);
            WriteOne(rstd, r, s);
        }
    });
}

void RunGroupNorm(const GroupNormArgs& args) {
    const int64_t rows = args.n * args.groups;
    if (rows == 0) return;
    const Flat x(args.x), out(args.out), mean(args.mean), rstd(args.rstd);
    const std::vector<double> gamma = ReadAll(Flat(args.gamma), args.c, 1.0);
    const std::vector<double> beta = ReadAll(Flat(args.beta), args.c, 0.0);
    const int64_t channels = args.c / args.groups;  // per group
    const int64_t cols = channels * args.hxw;
    SplitUnits(rows, GrainFor(3 * cols), [&](int64_t begin, int64_t end) {
        std::vector<double> row(static_cast<size_t>(cols));
        for (int64_t r = begin; r < end; ++r) {
            double m = 0.0, s = 0.0;
            if (cols > 0) x.Read(r * cols, cols, row.data());
            Moments(row.data(), cols, args.eps, &m, &s);
            const int64_t first_channel = (r % args.groups) * channels;
            for (int64_t i = 0; i < cols; ++i) {
                const int64_t channel = first_channel + i / args.hxw;
                row[i] = (row[i] - m) * s * gamma[channel] + beta[channel];
            }
            if (cols > 0) out.Write(r * cols, cols, row.data());
            WriteOne(mean, r, m);
            WriteOne(rstd, r, s);
        }
    });
}

}  // namespace openacl::ops
