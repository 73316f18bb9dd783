// Data-movement operator types: Transpose, Slice and StridedSlice, the Concat family, Pack,
// the Split family, GatherV2, Tile and the shape-only types (Reshape, Squeeze, Unsqueeze,
// ExpandDims, Flatten). Most are a copy between views (aclnnInplaceCopy of a strided view of
// the input); the "D" forms take as attributes what the others take as constant inputs.
#include <algorithm>
#include <string>

#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_repeat.h"
#include "op/op_registry.h"

namespace openacl::op {
namespace {

int64_t Product(const Shape& s, size_t from, size_t to) {
    int64_t n = 1;
    for (size_t i = from; i < to && i < s.size(); ++i)
        n *= s[i];
    return n;
}

// y = x's data with y's shape (the same elements in row-major order).
void CopyAs(Builder& b, const Shape& y) {
    if (Product(y, 0, y.size()) != b.in(0).numel()) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s: x of shape %s has %lld elements, the output shape %s "
              "has %lld",
              b.type(), ShapeString(b.in(0).dims).c_str(), static_cast<long long>(b.in(0).numel()),
              ShapeString(y).c_str(), static_cast<long long>(Product(y, 0, y.size())));
    }
    if (b.Shapes({y})) return;
    OPENACL_OP_STEP(b, InplaceCopy, b.Out(0), b.InView(0, y, RowMajor(y), 0));
}

void TransposeWith(Builder& b, Shape perm) {
    const Shape& x = b.in(0).dims;
    const auto rank = static_cast<int64_t>(x.size());
    if (static_cast<int64_t>(perm.size()) != rank) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s: perm %s has %zu entries for x of %lld dimensions",
              b.type(), ShapeString(perm).c_str(), perm.size(), static_cast<long long>(rank));
    }
    std::vector<bool> seen(x.size(), false);
    Shape y(x.size());
    for (size_t i = 0; i < perm.size(); ++i) {
        perm[i] = NormalizeAxis(perm[i], rank, "perm entry");
        if (seen[static_cast<size_t>(perm[i])]) {
            Throw(ACL_ERROR_INVALID_PARAM, "%s: perm %s repeats %lld", b.type(),
                  ShapeString(perm).c_str(), static_cast<long long>(perm[i]));
        }
        seen[static_cast<size_t>(perm[i])] = true;
        y[i] = x[static_cast<size_t>(perm[i])];
    }
    if (b.Shapes({y})) return;
    const aclIntArray dims = MakeIntArray(perm);
    OPENACL_OP_STEP(b, Permute, b.In(0), &dims, b.Out(0));
}

void Transpose(Builder& b) {
    TransposeWith(b, b.Values(1, "perm"));
}
void TransposeD(Builder& b) {
    TransposeWith(b, b.RequireInts("perm"));
}

// Slice: size[i] elements from offsets[i] (size -1: to the end).
void SliceWith(Builder& b, const Shape& offsets, Shape size) {
    const Shape& x = b.in(0).dims;
    if (offsets.size() != x.size() || size.size() != x.size()) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s: offsets %s and size %s need one entry per dimension of x %s", b.type(),
              ShapeString(offsets).c_str(), ShapeString(size).c_str(), ShapeString(x).c_str());
    }
    const Shape strides = RowMajor(x);
    int64_t first = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        if (size[i] == -1) size[i] = x[i] - offsets[i];
        if (offsets[i] < 0 || size[i] < 0 || offsets[i] + size[i] > x[i]) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "%s: dimension %zu of x has %lld elements; offset %lld and size %lld do not fit",
                  b.type(), i, static_cast<long long>(x[i]), static_cast<long long>(offsets[i]),
                  static_cast<long long>(size[i]));
        }
        first += offsets[i] * strides[i];
    }
    if (b.Shapes({size})) return;
    OPENACL_OP_STEP(b, InplaceCopy, b.Out(0), b.InView(0, size, strides, first));
}

void Slice(Builder& b) {
    SliceWith(b, b.Values(1, "offsets"), b.Values(2, "size"));
}
void SliceD(Builder& b) {
    SliceWith(b, b.RequireInts("offsets"), b.RequireInts("size"));
}

// StridedSlice with TensorFlow's masks (begin, end, shrink_axis); positive strides only.
void StridedSliceWith(Builder& b, const Shape& begin, const Shape& end, const Shape& step) {
    const Shape& x = b.in(0).dims;
    const int64_t begin_mask = b.AttrInt("begin_mask", 0), end_mask = b.AttrInt("end_mask", 0);
    const int64_t shrink = b.AttrInt("shrink_axis_mask", 0);
    if (b.AttrInt("ellipsis_mask", 0) != 0 || b.AttrInt("new_axis_mask", 0) != 0) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s: ellipsis_mask and new_axis_mask are not supported by openacl (give them 0)",
              b.type());
    }
    if (begin.size() != end.size() || begin.size() != step.size() || begin.size() > x.size()) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s: begin %s, end %s and strides %s need the same length, at most x's rank %zu",
              b.type(), ShapeString(begin).c_str(), ShapeString(end).c_str(),
              ShapeString(step).c_str(), x.size());
    }
    const Shape x_strides = RowMajor(x);
    Shape shape, strides, y;
    int64_t first = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        const int64_t n = x[i];
        if (i >= begin.size()) {
            shape.push_back(n);
            strides.push_back(x_strides[i]);
            y.push_back(n);
            continue;
        }
        const int64_t s = step[i];
        if (s <= 0) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "%s: strides[%zu] is %lld: openacl slices with positive strides only", b.type(),
                  i, static_cast<long long>(s));
        }
        auto clamp = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
        const int64_t lo = ((begin_mask >> i) & 1) != 0 ? 0 : clamp(begin[i]);
        if (((shrink >> i) & 1) != 0) {
            const int64_t at = begin[i] < 0 ? begin[i] + n : begin[i];
            if (at < 0 || at >= n) {
                Throw(ACL_ERROR_INVALID_PARAM,
                      "%s: begin[%zu] %lld is outside dimension %zu (%lld)", b.type(), i,
                      static_cast<long long>(begin[i]), i, static_cast<long long>(n));
            }
            first += at * x_strides[i];
            continue;  // the dimension is removed
        }
        const int64_t hi = ((end_mask >> i) & 1) != 0 ? n : clamp(end[i]);
        const int64_t count = hi > lo ? (hi - lo + s - 1) / s : 0;
        first += lo * x_strides[i];
        shape.push_back(count);
        strides.push_back(x_strides[i] * s);
        y.push_back(count);
    }
    if (b.Shapes({y})) return;
    OPENACL_OP_STEP(b, InplaceCopy, b.Out(0), b.InView(0, shape, strides, first));
}

void StridedSlice(Builder& b) {
    StridedSliceWith(b, b.Values(1, "begin"), b.Values(2, "end"), b.Values(3, "strides"));
}
void StridedSliceD(Builder& b) {
    StridedSliceWith(b, b.RequireInts("begin"), b.RequireInts("end"),
                     b.AttrInts("strides", Shape(b.RequireInts("begin").size(), 1)));
}

// Concatenation of inputs [first, last) along axis.
void ConcatWith(Builder& b, int first, int last, int64_t axis) {
    if (last <= first)
        Throw(ACL_ERROR_OP_INPUT_NOT_MATCH, "%s has nothing to concatenate", b.type());
    Shape y = b.in(first).dims;
    const auto rank = static_cast<int64_t>(y.size());
    axis = NormalizeAxis(axis, rank, "concat_dim");
    for (int i = first + 1; i < last; ++i) {
        const Shape& x = b.in(i).dims;
        bool fits = x.size() == y.size();
        for (size_t d = 0; fits && d < x.size(); ++d)
            fits = d == static_cast<size_t>(axis) || x[d] == y[d];
        if (!fits) {
            Throw(ACL_ERROR_INVALID_PARAM, "%s: input %d of shape %s does not join %s along %lld",
                  b.type(), i, ShapeString(x).c_str(), ShapeString(b.in(first).dims).c_str(),
                  static_cast<long long>(axis));
        }
        y[static_cast<size_t>(axis)] += x[static_cast<size_t>(axis)];
    }
    if (b.Shapes({y})) return;
    aclTensorList list;
    for (int i = first; i < last; ++i)
        list.tensors.push_back(b.In(i));
    OPENACL_OP_STEP(b, Cat, &list, axis, b.Out(0));
}

void ConcatD(Builder& b) {
    ConcatWith(b, 0, b.num_inputs(), b.RequireInt("concat_dim"));
}
void ConcatV2D(Builder& b) {
    ConcatWith(b, 0, b.num_inputs(), b.RequireInt("concat_dim"));
}
void ConcatV2(Builder& b) {
    const Shape dim = b.Values(b.num_inputs() - 1, "concat_dim");
    if (dim.size() != 1) Throw(ACL_ERROR_INVALID_PARAM, "ConcatV2: concat_dim holds one value");
    ConcatWith(b, 0, b.num_inputs() - 1, dim[0]);
}
void Concat(Builder& b) {
    const Shape dim = b.Values(0, "concat_dim");
    if (dim.size() != 1) Throw(ACL_ERROR_INVALID_PARAM, "Concat: concat_dim holds one value");
    ConcatWith(b, 1, b.num_inputs(), dim[0]);
}

// Pack: the inputs stacked along a new axis.
void Pack(Builder& b) {
    const Shape& x = b.in(0).dims;
    const int64_t axis =
        NormalizeAxis(b.AttrInt("axis", 0), static_cast<int64_t>(x.size()) + 1, "axis");
    for (int i = 1; i < b.num_inputs(); ++i) {
        if (b.in(i).dims != x) {
            Throw(ACL_ERROR_INVALID_PARAM, "Pack: input %d has the shape %s, input 0 %s", i,
                  ShapeString(b.in(i).dims).c_str(), ShapeString(x).c_str());
        }
    }
    Shape unsqueezed = x;
    unsqueezed.insert(unsqueezed.begin() + axis, 1);
    Shape y = unsqueezed;
    y[static_cast<size_t>(axis)] = b.num_inputs();
    if (b.Shapes({y})) return;
    aclTensorList list;
    for (int i = 0; i < b.num_inputs(); ++i)
        list.tensors.push_back(b.InView(i, unsqueezed, RowMajor(unsqueezed), 0));
    OPENACL_OP_STEP(b, Cat, &list, axis, b.Out(0));
}

// Split into pieces of `sizes` along axis: output k is a copy of its piece.
void SplitWith(Builder& b, int64_t axis, Shape sizes) {
    const Shape& x = b.in(0).dims;
    axis = NormalizeAxis(axis, static_cast<int64_t>(x.size()), "split_dim");
    const int64_t n = x[static_cast<size_t>(axis)];
    if (static_cast<int>(sizes.size()) != b.num_outputs()) {
        Throw(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s makes %zu pieces but has %d outputs", b.type(),
              sizes.size(), b.num_outputs());
    }
    int64_t total = 0, unknown = -1;
    for (size_t k = 0; k < sizes.size(); ++k) {
        if (sizes[k] == -1 && unknown < 0) {
            unknown = static_cast<int64_t>(k);
        } else {
            total += sizes[k];
        }
    }
    if (unknown >= 0) {
        sizes[static_cast<size_t>(unknown)] = n - total;
        total = n;
    }
    if (total != n || std::any_of(sizes.begin(), sizes.end(), [](int64_t s) { return s < 0; })) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s: pieces %s do not split %lld elements", b.type(),
              ShapeString(sizes).c_str(), static_cast<long long>(n));
    }
    std::vector<Shape> shapes;
    for (int64_t size : sizes) {
        Shape y = x;
        y[static_cast<size_t>(axis)] = size;
        shapes.push_back(y);
    }
    if (b.Shapes(shapes)) return;
    const Shape strides = RowMajor(x);
    int64_t at = 0;
    for (size_t k = 0; k < sizes.size(); ++k) {
        aclTensor* piece = b.InView(0, shapes[k], strides, at * strides[static_cast<size_t>(axis)]);
        OPENACL_OP_STEP(b, InplaceCopy, b.Out(static_cast<int>(k)), piece);
        at += sizes[k];
    }
}

void SplitD(Builder& b) {
    const int64_t parts = b.RequireInt("num_split");
    const Shape& x = b.in(0).dims;
    const int64_t axis =
        NormalizeAxis(b.RequireInt("split_dim"), static_cast<int64_t>(x.size()), "split_dim");
    const int64_t n = x[static_cast<size_t>(axis)];
    if (parts <= 0 || n % parts != 0) {
        Throw(ACL_ERROR_INVALID_PARAM, "SplitD: %lld elements do not split into %lld equal pieces",
              static_cast<long long>(n), static_cast<long long>(parts));
    }
    SplitWith(b, axis, Shape(static_cast<size_t>(parts), n / parts));
}
void SplitVD(Builder& b) {
    SplitWith(b, b.RequireInt("split_dim"), b.RequireInts("size_splits"));
}

void GatherWith(Builder& b, int64_t axis) {
    if (b.AttrInt("batch_dims", 0) != 0) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s: batch_dims other than 0 is not supported by openacl",
              b.type());
    }
    const Shape& x = b.in(0).dims;
    const Shape& indices = b.in(1).dims;
    axis = NormalizeAxis(axis, static_cast<int64_t>(x.size()), "axis");
    Shape y(x.begin(), x.begin() + axis);
    y.insert(y.end(), indices.begin(), indices.end());
    y.insert(y.end(), x.begin() + axis + 1, x.end());
    if (b.Shapes({y})) return;
    OPENACL_OP_STEP(b, GatherV2, b.In(0), axis, b.In(1), b.Out(0));
}

void GatherV2(Builder& b) {
    const Shape axis = b.Values(2, "axis");
    if (axis.size() != 1) Throw(ACL_ERROR_INVALID_PARAM, "GatherV2: axis holds one value");
    GatherWith(b, axis[0]);
}
void GatherV2D(Builder& b) {
    GatherWith(b, b.RequireInt("axis"));
}
void Gather(Builder& b) {
    GatherWith(b, 0);
}

void TileWith(Builder& b, const Shape& multiples) {
    const Shape& x = b.in(0).dims;
    if (multiples.size() < x.size()) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s: multiples %s has fewer entries than x %s has "
              "dimensions",
              b.type(), ShapeString(multiples).c_str(), ShapeString(x).c_str());
    }
    Shape y = multiples;
    const size_t lead = multiples.size() - x.size();
    for (size_t i = 0; i < y.size(); ++i) {
        if (multiples[i] < 0) {
            Throw(ACL_ERROR_INVALID_PARAM, "%s: multiples %s holds a negative count", b.type(),
                  ShapeString(multiples).c_str());
        }
        if (i >= lead) y[i] *= x[i - lead];
    }
    if (b.Shapes({y})) return;
    const aclIntArray repeats = MakeIntArray(multiples);
    OPENACL_OP_STEP(b, Repeat, b.In(0), &repeats, b.Out(0));
}

void Tile(Builder& b) {
    TileWith(b, b.Values(1, "multiples"));
}
void TileD(Builder& b) {
    TileWith(b, b.RequireInts("multiples"));
}

// Reshape(x, shape): a -1 entry takes what is left, a 0 keeps x's dimension.
void Reshape(Builder& b) {
    Shape y = b.Values(1, "shape");
    const Shape& x = b.in(0).dims;
    int64_t known = 1, unknown = -1;
    for (size_t i = 0; i < y.size(); ++i) {
        if (y[i] == 0 && i < x.size()) y[i] = x[i];
        if (y[i] == -1) {
            if (unknown >= 0) Throw(ACL_ERROR_INVALID_PARAM, "Reshape: shape has two -1 entries");
            unknown = static_cast<int64_t>(i);
        } else {
            known *= y[i];
        }
    }
    if (unknown >= 0) y[static_cast<size_t>(unknown)] = known == 0 ? 0 : b.in(0).numel() / known;
    CopyAs(b, y);
}

void Squeeze(Builder& b) {
    const Shape& x = b.in(0).dims;
    const Shape axes = b.AttrInts("axis", {});
    std::vector<bool> drop(x.size(), false);
    if (axes.empty()) {
        for (size_t i = 0; i < x.size(); ++i)
            drop[i] = x[i] == 1;
    }
    for (int64_t a : axes) {
        const int64_t axis = NormalizeAxis(a, static_cast<int64_t>(x.size()), "axis");
        if (x[static_cast<size_t>(axis)] != 1) {
            Throw(ACL_ERROR_INVALID_PARAM, "Squeeze: dimension %lld of x %s is not 1",
                  static_cast<long long>(axis), ShapeString(x).c_str());
        }
        drop[static_cast<size_t>(axis)] = true;
    }
    Shape y;
    for (size_t i = 0; i < x.size(); ++i) {
        if (!drop[i]) y.push_back(x[i]);
    }
    CopyAs(b, y);
}

// Size-1 dimensions inserted at `axes` (positions in the output).
void InsertAxes(Builder& b, const Shape& axes) {
    const Shape& x = b.in(0).dims;
    const auto rank = static_cast<int64_t>(x.size() + axes.size());
    std::vector<bool> inserted(static_cast<size_t>(rank), false);
    for (int64_t a : axes)
        inserted[static_cast<size_t>(NormalizeAxis(a, rank, "axes"))] = true;
    Shape y;
    size_t next = 0;
    for (int64_t i = 0; i < rank; ++i) {
        if (inserted[static_cast<size_t>(i)]) {
            y.push_back(1);
        } else if (next < x.size()) {
            y.push_back(x[next++]);
        }
    }
    if (y.size() != static_cast<size_t>(rank)) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s: axes %s repeat an axis", b.type(),
              ShapeString(axes).c_str());
    }
    CopyAs(b, y);
}

void Unsqueeze(Builder& b) {
    InsertAxes(b, b.RequireInts("axes"));
}
void ExpandDims(Builder& b) {
    const Shape axis = b.Values(1, "axis");
    if (axis.size() != 1) Throw(ACL_ERROR_INVALID_PARAM, "ExpandDims: axis holds one value");
    InsertAxes(b, axis);
}

// TransData between the plain layouts of 4-D data (NCHW <-> NHWC), or within one layout (a
// copy). CANN's main use, to and from its storage formats (NC1HWC0, FRACTAL_Z, ...), has no
// meaning on a CPU: those are ACL_ERROR_FORMAT_NOT_MATCH.
void TransData(Builder& b) {
    auto layout = [&b](const char* attr, aclFormat fallback) {
        aclFormat format = fallback;
        const std::string name = b.AttrString(attr, "");
        if (!name.empty() && !FormatFromJsonName(name, &format)) {
            Throw(ACL_ERROR_INVALID_PARAM, "TransData: %s \"%s\" is no format", attr, name.c_str());
        }
        return format;
    };
    const aclFormat from = layout("src_format", b.in(0).format);
    const aclFormat to = layout("dst_format", b.out(0).format);
    for (aclFormat f : {from, to}) {
        const bool plain = f == ACL_FORMAT_NCHW || f == ACL_FORMAT_NHWC || f == ACL_FORMAT_ND ||
                           f == ACL_FORMAT_NCL || f == ACL_FORMAT_NC || f == ACL_FORMAT_HWCN ||
                           f == ACL_FORMAT_NCDHW || f == ACL_FORMAT_NDHWC;
        if (!plain) {
            const char* name = FormatJsonName(f);
            Throw(ACL_ERROR_FORMAT_NOT_MATCH,
                  "TransData to or from %s: that is an Ascend storage layout, which openacl does "
                  "not use; it converts NCHW and NHWC",
                  name != nullptr ? name : "an unknown format");
        }
    }
    const Shape& x = b.in(0).dims;
    if (from == to) {
        if (b.Shapes({x})) return;
        OPENACL_OP_STEP(b, InplaceCopy, b.Out(0), b.In(0));
        return;
    }
    Shape perm;
    if (from == ACL_FORMAT_NCHW && to == ACL_FORMAT_NHWC) perm = {0, 2, 3, 1};
    if (from == ACL_FORMAT_NHWC && to == ACL_FORMAT_NCHW) perm = {0, 3, 1, 2};
    if (perm.empty() || x.size() != 4) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "TransData from %s to %s of %s: openacl converts 4-D data between NCHW and NHWC",
              FormatJsonName(from), FormatJsonName(to), ShapeString(x).c_str());
    }
    TransposeWith(b, perm);
}

void Flatten(Builder& b) {
    const Shape& x = b.in(0).dims;
    const int64_t axis =
        NormalizeAxis(b.AttrInt("axis", 1), static_cast<int64_t>(x.size()) + 1, "axis");
    CopyAs(b, {Product(x, 0, static_cast<size_t>(axis)),
               Product(x, static_cast<size_t>(axis), x.size())});
}

}  // namespace

void AddMovementOps(std::vector<OpTypeInfo>* table) {
    const std::vector<OpTypeInfo> ops = {
        {"Transpose", 2, 2, 1, Transpose},
        {"TransposeD", 1, 1, 1, TransposeD},
        {"Slice", 3, 3, 1, Slice},
        {"SliceD", 1, 1, 1, SliceD},
        {"StridedSlice", 4, 4, 1, StridedSlice},
        {"StridedSliceD", 1, 1, 1, StridedSliceD},
        {"ConcatD", 1, -1, 1, ConcatD},
        {"ConcatV2D", 1, -1, 1, ConcatV2D},
        {"ConcatV2", 2, -1, 1, ConcatV2},
        {"Concat", 2, -1, 1, Concat},
        {"Pack", 1, -1, 1, Pack},
        {"SplitD", 1, 1, -1, SplitD},
        {"SplitVD", 1, 1, -1, SplitVD},
        {"GatherV2", 3, 3, 1, GatherV2},
        {"GatherV2D", 2, 2, 1, GatherV2D},
        {"Gather", 2, 2, 1, Gather},
        {"Tile", 2, 2, 1, Tile},
        {"TileD", 1, 1, 1, TileD},
        {"Reshape", 2, 2, 1, Reshape},
        {"Squeeze", 1, 1, 1, Squeeze},
        {"Unsqueeze", 1, 1, 1, Unsqueeze},
        {"ExpandDims", 2, 2, 1, ExpandDims},
        {"Flatten", 1, 1, 1, Flatten},
        {"TransData", 1, 1, 1, TransData},
    };
    table->insert(table->end(), ops.begin(), ops.end());
}

}  // namespace openacl::op
