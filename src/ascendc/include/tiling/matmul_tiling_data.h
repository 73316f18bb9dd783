// optiling::TCubeTiling: the host's view of the Matmul tiling, with CANN's set_<field> /
// get_<field> accessors, GetDataSize and SaveToBuffer. Its bytes are the kernel's TCubeTiling.
#ifndef OPENACL_ASCENDC_TILING_MATMUL_TILING_DATA_H_
#define OPENACL_ASCENDC_TILING_MATMUL_TILING_DATA_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernel_tiling/kernel_tiling.h"

namespace optiling {

class TCubeTiling {
 public:
#define OPENACL_TCUBE_TILING_ACCESSORS(name) \
    void set_##name(int32_t value) {         \
        data_.name = value;                  \
    }                                        \
    int32_t get_##name() const {             \
        return data_.name;                   \
    }
    OPENACL_TCUBE_TILING_FIELDS(OPENACL_TCUBE_TILING_ACCESSORS)
#undef OPENACL_TCUBE_TILING_ACCESSORS

    size_t GetDataSize() const {
        return sizeof(data_);
    }
    // Copies the tiling's bytes; a capacity below GetDataSize() copies nothing.
    void SaveToBuffer(void* buffer, size_t capacity) const {
        if (buffer != nullptr && capacity >= sizeof(data_))
            std::memcpy(buffer, &data_, sizeof(data_));
    }

    const ::TCubeTiling& Data() const {
        return data_;
    }
    ::TCubeTiling& Data() {
        return data_;
    }

 private:
    ::TCubeTiling data_{};
};

}  // namespace optiling

#endif  // OPENACL_ASCENDC_TILING_MATMUL_TILING_DATA_H_
