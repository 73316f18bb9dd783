// Host-side tiling definitions (CANN's register/tilingdata_base.h): a class declared with
// BEGIN_TILING_DATA_DEF ... END_TILING_DATA_DEF gets set_<field>/get_<field> for each field,
// and SaveToBuffer writes the fields in the byte layout of the plain C++ struct with the same
// fields in the same order (each at its natural alignment, the size rounded up to the largest
// alignment), which is what the kernel's GET_TILING_DATA copies. Needs no kernel header.
//
//   BEGIN_TILING_DATA_DEF(AddTiling)
//   TILING_DATA_FIELD_DEF(uint32_t, totalLength);
//   TILING_DATA_FIELD_DEF_ARR(uint16_t, 4, shape);
//   TILING_DATA_FIELD_DEF_STRUCT(TCubeTilingLike, cube);
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(AddCustom, AddTiling)
#ifndef OPENACL_ASCENDC_REGISTER_TILINGDATA_BASE_H_
#define OPENACL_ASCENDC_REGISTER_TILINGDATA_BASE_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace optiling {

class TilingDef {
 public:
    TilingDef() = default;
    TilingDef(const TilingDef&) = delete;  // fields are registered by address
    TilingDef& operator=(const TilingDef&) = delete;
    virtual ~TilingDef() = default;

    // Bytes SaveToBuffer writes.
    size_t GetDataSize() const {
        size_t offset = 0;
        for (const Field& field : fields_)
            offset = AlignUp(offset, field.alignment) + FieldSize(field);
        return AlignUp(offset, GetAlignment());
    }
    // The largest alignment of a field (1 for no fields).
    size_t GetAlignment() const {
        size_t alignment = 1;
        for (const Field& field : fields_) {
            size_t a = field.nested != nullptr ? field.nested->GetAlignment() : field.alignment;
            if (a > alignment) alignment = a;
        }
        return alignment;
    }
    // Writes the fields to data, zero-filling the padding. A buffer smaller than GetDataSize()
    // is left untouched and the problem printed to stderr.
    void SaveToBuffer(void* data, size_t capacity) const {
        size_t size = GetDataSize();
        if (data == nullptr || capacity < size) {
            std::fprintf(stderr,
                         "SaveToBuffer: %s needs %zu bytes but the buffer %s%zu: nothing was "
                         "written (size the buffer with GetDataSize())\n",
                         class_name_.c_str(), size, data == nullptr ? "is null, capacity " : "has ",
                         capacity);
            return;
        }
        std::memset(data, 0, size);
        Write(static_cast<uint8_t*>(data));
    }
    const std::string& GetTilingClassName() const { return class_name_; }

    // Used by the field macros.
    struct Field {
        std::string name;
        const void* address;
        size_t size;
        size_t alignment;
        const TilingDef* nested;  // for TILING_DATA_FIELD_DEF_STRUCT
    };
    struct FieldRegistrar {
        FieldRegistrar(TilingDef* owner, Field field) { owner->fields_.push_back(field); }
    };
    struct ClassNameSetter {
        ClassNameSetter(TilingDef* owner, const char* name) { owner->class_name_ = name; }
    };

 private:
    static size_t AlignUp(size_t value, size_t alignment) {
        return (value + alignment - 1) / alignment * alignment;
    }
    size_t FieldSize(const Field& field) const {
        return field.nested != nullptr ? field.nested->GetDataSize() : field.size;
    }
    void Write(uint8_t* out) const {
        size_t offset = 0;
        for (const Field& field : fields_) {
            size_t alignment =
                field.nested != nullptr ? field.nested->GetAlignment() : field.alignment;
            offset = AlignUp(offset, alignment);
            if (field.nested != nullptr) {
                field.nested->Write(out + offset);
            } else {
                std::memcpy(out + offset, field.address, field.size);
            }
            offset += FieldSize(field);
        }
    }

    std::vector<Field> fields_;
    std::string class_name_;
};

// Op type -> a factory for its tiling class (REGISTER_TILING_DATA_CLASS).
class CTilingDataClassFactory {
 public:
    using Creator = std::function<std::shared_ptr<TilingDef>()>;
    static CTilingDataClassFactory& GetInstance() {
        static CTilingDataClassFactory instance;
        return instance;
    }
    void RegisterTilingData(const std::string& opType, Creator creator) {
        std::lock_guard lock(mutex_);
        creators_[opType] = std::move(creator);
    }
    // A new instance of opType's tiling class, or nullptr when none is registered.
    std::shared_ptr<TilingDef> CreateTilingDataInstance(const std::string& opType) {
        std::lock_guard lock(mutex_);
        auto found = creators_.find(opType);
        return found == creators_.end() ? nullptr : found->second();
    }

 private:
    std::mutex mutex_;
    std::map<std::string, Creator> creators_;
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                                              \
    class class_name : public ::optiling::TilingDef {                                  \
     private:                                                                          \
        ::optiling::TilingDef::ClassNameSetter openacl_class_name_{this, #class_name}; \
                                                                                       \
     public:

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                          \
 public:                                                                                      \
    void set_##field_name(data_type value) {                                                  \
        field_name##_ = value;                                                                \
    }                                                                                         \
    data_type get_##field_name() const {                                                      \
        return field_name##_;                                                                 \
    }                                                                                         \
                                                                                              \
 private:                                                                                     \
    data_type field_name##_{};                                                                \
    ::optiling::TilingDef::FieldRegistrar openacl_##field_name##_registrar_{                  \
        this, {#field_name, &field_name##_, sizeof(data_type), alignof(data_type), nullptr}}; \
                                                                                              \
 public:

// set_<name>(const T*) copies `count` elements; get_<name>() returns the array.
#define TILING_DATA_FIELD_DEF_ARR(data_type, count, field_name)                                  \
 public:                                                                                         \
    void set_##field_name(const data_type* values) {                                             \
        std::memcpy(field_name##_, values, sizeof(field_name##_));                               \
    }                                                                                            \
    const data_type* get_##field_name() const {                                                  \
        return field_name##_;                                                                    \
    }                                                                                            \
    data_type* get_##field_name() {                                                              \
        return field_name##_;                                                                    \
    }                                                                                            \
                                                                                                 \
 private:                                                                                        \
    data_type field_name##_[count]{};                                                            \
    ::optiling::TilingDef::FieldRegistrar openacl_##field_name##_registrar_{                     \
        this, {#field_name, field_name##_, sizeof(field_name##_), alignof(data_type), nullptr}}; \
                                                                                                 \
 public:

// A nested tiling class, reached as the member `field_name` (tiling.cube.set_m(...)).
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                \
 public:                                                                     \
    struct_type field_name;                                                  \
                                                                             \
 private:                                                                    \
    ::optiling::TilingDef::FieldRegistrar openacl_##field_name##_registrar_{ \
        this, {#field_name, &field_name, 0, 1, &field_name}};                \
                                                                             \
 public:

#define END_TILING_DATA_DEF }

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                     \
    [[maybe_unused]] static const bool openacl_tiling_registered_##op_type##_##class_name = \
        (::optiling::CTilingDataClassFactory::GetInstance().RegisterTilingData(             \
             #op_type, [] { return std::make_shared<class_name>(); }),                      \
         true);

#endif  // OPENACL_ASCENDC_REGISTER_TILINGDATA_BASE_H_
