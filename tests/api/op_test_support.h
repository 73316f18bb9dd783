// Helpers of the single-operator tests (acl_op.h): a tensor as aclop calls take it (a tensor
// description and a data buffer over device memory), and calls of aclopCompileAndExecute with
// lists of them.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"

// A tensor description with device memory behind it (or host memory: placement host).
class OpTensor {
 public:
    template <class T>
    OpTensor(aclDataType dtype, std::vector<int64_t> dims, const std::vector<T>& values,
             aclFormat format = ACL_FORMAT_ND, aclMemType placement = ACL_MEMTYPE_DEVICE)
        : dims_(std::move(dims)) {
        desc_ = aclCreateTensorDesc(dtype, static_cast<int>(dims_.size()),
                                    dims_.empty() ? nullptr : dims_.data(), format);
        bytes_ = values.size() * sizeof(T);
        host_ = placement != ACL_MEMTYPE_DEVICE;
        if (host_) {
            EXPECT_EQ(aclSetTensorPlaceMent(desc_, placement), ACL_SUCCESS);
            host_bytes_.resize(bytes_);
            if (bytes_ > 0) std::memcpy(host_bytes_.data(), values.data(), bytes_);
            buffer_ = aclCreateDataBuffer(host_bytes_.data(), bytes_);
            return;
        }
        if (bytes_ > 0) {
            EXPECT_EQ(aclrtMalloc(&dev_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
            EXPECT_EQ(aclrtMemcpy(dev_, bytes_, values.data(), bytes_, ACL_MEMCPY_HOST_TO_DEVICE),
                      ACL_SUCCESS);
        }
        buffer_ = aclCreateDataBuffer(dev_, bytes_);
    }
    // An output (or input) of `count` zeroed elements of `element` bytes.
    OpTensor(aclDataType dtype, std::vector<int64_t> dims, size_t count, size_t element,
             aclFormat format = ACL_FORMAT_ND)
        : OpTensor(dtype, std::move(dims), std::vector<char>(count * element), format) {}
    // An absent optional input.
    OpTensor() {
        desc_ = aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr, ACL_FORMAT_UNDEFINED);
        buffer_ = aclCreateDataBuffer(nullptr, 0);
    }
    ~OpTensor() {
        aclDestroyTensorDesc(desc_);
        aclDestroyDataBuffer(buffer_);
        if (dev_ != nullptr) aclrtFree(dev_);
    }
    OpTensor(const OpTensor&) = delete;
    OpTensor& operator=(const OpTensor&) = delete;

    aclTensorDesc* desc() const { return desc_; }
    aclDataBuffer* buffer() const { return buffer_; }
    void* dev() const { return dev_; }
    size_t bytes() const { return bytes_; }

    template <class T>
    std::vector<T> Read() const {
        std::vector<T> out(bytes_ / sizeof(T));
        if (bytes_ > 0) {
            EXPECT_EQ(aclrtMemcpy(out.data(), bytes_, dev_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST),
                      ACL_SUCCESS);
        }
        return out;
    }

 private:
    std::vector<int64_t> dims_;
    aclTensorDesc* desc_ = nullptr;
    aclDataBuffer* buffer_ = nullptr;
    void* dev_ = nullptr;
    size_t bytes_ = 0;
    bool host_ = false;
    std::vector<char> host_bytes_;
};

// The descriptions and buffers of a list of tensors, as the aclop arrays want them.
struct OpArrays {
    std::vector<aclTensorDesc*> descs;
    std::vector<aclDataBuffer*> buffers;
    explicit OpArrays(std::initializer_list<const OpTensor*> tensors) {
        for (const OpTensor* t : tensors) {
            descs.push_back(t->desc());
            buffers.push_back(t->buffer());
        }
    }
    int size() const { return static_cast<int>(descs.size()); }
    aclTensorDesc** d() { return descs.empty() ? nullptr : descs.data(); }
    aclDataBuffer** b() { return buffers.empty() ? nullptr : buffers.data(); }
};

// aclopCompileAndExecute, then a synchronisation of the default stream.
inline aclError CompileAndRun(const char* type, std::initializer_list<const OpTensor*> inputs,
                              std::initializer_list<const OpTensor*> outputs,
                              const aclopAttr* attr = nullptr) {
    OpArrays in(inputs), out(outputs);
    const aclError rc =
        aclopCompileAndExecute(type, in.size(), in.d(), in.b(), out.size(), out.d(), out.b(), attr,
                               ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr, nullptr);
    if (rc != ACL_SUCCESS) return rc;
    return aclrtSynchronizeStream(nullptr);
}

// aclopExecuteV2, then a synchronisation.
inline aclError ExecuteV2(const char* type, std::initializer_list<const OpTensor*> inputs,
                          std::initializer_list<const OpTensor*> outputs,
                          aclopAttr* attr = nullptr) {
    OpArrays in(inputs), out(outputs);
    const aclError rc = aclopExecuteV2(type, in.size(), in.d(), in.b(), out.size(), out.d(),
                                       out.b(), attr, nullptr);
    if (rc != ACL_SUCCESS) return rc;
    return aclrtSynchronizeStream(nullptr);
}

// An attribute set destroyed at scope exit.
class OpAttr {
 public:
    OpAttr() : attr_(aclopCreateAttr()) {}
    ~OpAttr() { aclopDestroyAttr(attr_); }
    OpAttr(const OpAttr&) = delete;
    OpAttr& operator=(const OpAttr&) = delete;
    aclopAttr* get() const { return attr_; }
    OpAttr& Bool(const char* name, bool v) {
        EXPECT_EQ(aclopSetAttrBool(attr_, name, v ? 1 : 0), ACL_SUCCESS);
        return *this;
    }
    OpAttr& Int(const char* name, int64_t v) {
        EXPECT_EQ(aclopSetAttrInt(attr_, name, v), ACL_SUCCESS);
        return *this;
    }
    OpAttr& Float(const char* name, float v) {
        EXPECT_EQ(aclopSetAttrFloat(attr_, name, v), ACL_SUCCESS);
        return *this;
    }
    OpAttr& String(const char* name, const char* v) {
        EXPECT_EQ(aclopSetAttrString(attr_, name, v), ACL_SUCCESS);
        return *this;
    }
    OpAttr& Ints(const char* name, const std::vector<int64_t>& v) {
        EXPECT_EQ(aclopSetAttrListInt(attr_, name, static_cast<int>(v.size()), v.data()),
                  ACL_SUCCESS);
        return *this;
    }

 private:
    aclopAttr* attr_;
};
