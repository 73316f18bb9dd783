// The .om container: round trips, every kind of damage, and model format detection. The
// layout is rebuilt here from docs/OM_FORMAT.md rather than from the code, so the document
// and the implementation are checked against each other.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/om_file.h"

namespace openacl::model {
namespace {

// A minimal ModelProto: ir_version 7 (field 1), an empty graph (field 7), opset 13 (field 8).
const std::string kTinyOnnx("\x08\x07\x3a\x00\x42\x02\x10\x0d", 8);

void Put32(std::string* s, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        (*s)[at + i] = static_cast<char>(v >> (8 * i));
}

void Put64(std::string* s, size_t at, uint64_t v) {
    Put32(s, at, static_cast<uint32_t>(v));
    Put32(s, at + 4, static_cast<uint32_t>(v >> 32));
}

uint32_t Get32(const std::string& s, size_t at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = v << 8 | static_cast<uint8_t>(s[at + i]);
    return v;
}

void Reseal(std::string* image) {
    Put32(image, 60, OmChecksum(image->data(), image->size()));
}

// The layout of docs/OM_FORMAT.md, written independently of om_file.cpp: format version 2
// (an 80-byte header; the plan section, when there is one, after the ONNX section).
std::string Build(const std::string& options, const std::string& onnx,
                  const std::string& plan = "") {
    std::string image(80, '\0');
    std::memcpy(image.data(), "OACL-OM\0", 8);
    Put32(&image, 8, 2);
    Put32(&image, 12, 80);
    Put64(&image, 16, 80 + options.size() + onnx.size() + plan.size());
    Put64(&image, 24, 80);
    Put64(&image, 32, options.size());
    Put64(&image, 40, 80 + options.size());
    Put64(&image, 48, onnx.size());
    Put64(&image, 64, plan.empty() ? 0 : 80 + options.size() + onnx.size());
    Put64(&image, 72, plan.size());
    image += options + onnx + plan;
    Reseal(&image);
    return image;
}

// Format version 1, as openacl's first atc wrote it: a 64-byte header, no plan.
std::string BuildV1(const std::string& options, const std::string& onnx) {
    std::string image(64, '\0');
    std::memcpy(image.data(), "OACL-OM\0", 8);
    Put32(&image, 8, 1);
    Put32(&image, 12, 64);
    Put64(&image, 16, 64 + options.size() + onnx.size());
    Put64(&image, 24, 64);
    Put64(&image, 32, options.size());
    Put64(&image, 40, 64 + options.size());
    Put64(&image, 48, onnx.size());
    image += options + onnx;
    Reseal(&image);
    return image;
}

OmFile FullFile() {
    OmFile file;
    file.options.producer = "openacl atc test";
    file.options.soc_version = "Ascend310P3";
    file.options.input_format = "NCHW";
    file.options.inputs = {{"image", {-1, 3, 224, 224}, true}, {"scale", {}, false}};
    file.options.output_types = {{"prob", ACL_FLOAT16}, {"label", ACL_UINT8}};
    file.options.dynamic_batch_sizes = {1, 2, 4, 8};
    file.options.engine = {"Test CPU; avx2; 4 threads", true, 1, 2, {-1, 3, 11}, {-1, 1}};
    file.onnx = kTinyOnnx;
    return file;
}

void ExpectSame(const OmOptions& a, const OmOptions& b) {
    EXPECT_EQ(a.producer, b.producer);
    EXPECT_EQ(a.soc_version, b.soc_version);
    EXPECT_EQ(a.input_format, b.input_format);
    ASSERT_EQ(a.inputs.size(), b.inputs.size());
    for (size_t i = 0; i < a.inputs.size(); ++i) {
        EXPECT_EQ(a.inputs[i].name, b.inputs[i].name);
        EXPECT_EQ(a.inputs[i].shape, b.inputs[i].shape);
        EXPECT_EQ(a.inputs[i].fp16, b.inputs[i].fp16);
    }
    EXPECT_EQ(a.output_types, b.output_types);
    EXPECT_EQ(a.dynamic_batch_sizes, b.dynamic_batch_sizes);
    EXPECT_EQ(a.dynamic_image_sizes, b.dynamic_image_sizes);
    EXPECT_EQ(a.dynamic_dims, b.dynamic_dims);
    EXPECT_EQ(a.engine.machine, b.engine.machine);
    EXPECT_EQ(a.engine.nhwc, b.engine.nhwc);
    EXPECT_EQ(a.engine.threads, b.engine.threads);
    EXPECT_EQ(a.engine.head_layers, b.engine.head_layers);
    EXPECT_EQ(a.engine.convs, b.engine.convs);
    EXPECT_EQ(a.engine.head_convs, b.engine.head_convs);
}

// Parses and expects failure with `fragment` in the message.
void ExpectRejected(const std::string& image, const std::string& fragment) {
    OmFile out;
    out.onnx = "untouched";
    std::string error;
    EXPECT_FALSE(ParseOm(image.data(), image.size(), &out, &error));
    EXPECT_NE(error.find(fragment), std::string::npos) << "message: " << error;
    EXPECT_EQ(out.onnx, "untouched") << "a failed parse must leave *out alone";
}

TEST(OmFile, RoundTripKeepsEveryOption) {
    const OmFile file = FullFile();
    const std::string image = SerializeOm(file);
    OmFile out;
    std::string error;
    ASSERT_TRUE(ParseOm(image.data(), image.size(), &out, &error)) << error;
    ExpectSame(file.options, out.options);
    EXPECT_EQ(out.onnx, file.onnx);
}

TEST(OmFile, RoundTripImageSizesAndOneTypeForAllOutputs) {
    OmFile file;
    file.options.input_format = "NHWC";
    file.options.inputs = {{"x", {1, -1, -1, 3}, false}};
    file.options.output_types = {{"", ACL_FLOAT}};
    file.options.dynamic_image_sizes = {{224, 224}, {448, 320}};
    file.onnx = kTinyOnnx;
    const std::string image = SerializeOm(file);
    OmFile out;
    std::string error;
    ASSERT_TRUE(ParseOm(image.data(), image.size(), &out, &error)) << error;
    ExpectSame(file.options, out.options);
}

TEST(OmFile, RoundTripDynamicDims) {
    OmFile file;
    file.options.input_format = "ND";
    file.options.inputs = {{"x", {1, -1, -1}, false}, {"mask", {-1}, false}};
    file.options.dynamic_dims = {{2, 3, 4}, {8, 8, 1}};
    file.onnx = kTinyOnnx;
    const std::string image = SerializeOm(file);
    OmFile out;
    std::string error;
    ASSERT_TRUE(ParseOm(image.data(), image.size(), &out, &error)) << error;
    ExpectSame(file.options, out.options);
}

TEST(OmFile, RoundTripDefaultsAndNullOut) {
    OmFile file;
    file.onnx = kTinyOnnx;
    const std::string image = SerializeOm(file);
    std::string error;
    EXPECT_TRUE(ParseOm(image.data(), image.size(), nullptr, &error)) << error;
}

TEST(OmFile, SerializedLayoutMatchesTheDocument) {
    const OmFile file = FullFile();
    EXPECT_EQ(SerializeOm(file), Build(OmOptionsToJson(file.options), file.onnx));
    const std::string image = SerializeOm(file);
    EXPECT_EQ(image.compare(0, 8, std::string("OACL-OM\0", 8)), 0);
    EXPECT_EQ(Get32(image, 8), kOmFormatVersion);
    EXPECT_EQ(Get32(image, 12), 80u);
    EXPECT_EQ(image.substr(image.size() - kTinyOnnx.size()), kTinyOnnx);
}

TEST(OmFile, ThePlanSectionFollowsTheOnnxSection) {
    OmFile file = FullFile();
    file.plan = "OAPL plan bytes";
    const std::string image = SerializeOm(file);
    EXPECT_EQ(image, Build(OmOptionsToJson(file.options), file.onnx, file.plan));
    OmFile out;
    std::string error;
    ASSERT_TRUE(ParseOm(image.data(), image.size(), &out, &error)) << error;
    EXPECT_EQ(out.plan, file.plan);
    EXPECT_EQ(out.onnx, file.onnx);
}

TEST(OmFile, VersionOneFilesStillRead) {
    const OmFile file = FullFile();
    const std::string image = BuildV1(OmOptionsToJson(file.options), file.onnx);
    OmFile out;
    std::string error;
    ASSERT_TRUE(ParseOm(image.data(), image.size(), &out, &error)) << error;
    ExpectSame(file.options, out.options);
    EXPECT_EQ(out.onnx, file.onnx);
    EXPECT_TRUE(out.plan.empty());
}

TEST(OmFile, PlanSectionFieldsAreChecked) {
    OmFile file = FullFile();
    file.plan = "OAPL plan bytes";
    const std::string good = SerializeOm(file);
    const uint64_t size = good.size();
    struct Case {
        const char* what;
        size_t at;
        uint64_t value;
        const char* fragment;
    };
    const Case cases[] = {
        {"plan inside the header", 64, 8, "plan section (offset 8"},
        {"plan past the end", 72, size, "plan section"},
        {"plan size huge", 72, ~uint64_t{0}, "lies outside the payload"},
        {"plan offset without a size", 72, 0, "plan section is empty"},
        {"plan over the options", 64, 80, "overlaps the options"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        std::string image = good;
        Put64(&image, c.at, c.value);
        Reseal(&image);
        ExpectRejected(image, c.fragment);
    }
}

TEST(OmFile, ChecksumIsZlibCrc32) {
    // The CRC-32 check value; under 60 bytes the whole input is covered.
    EXPECT_EQ(OmChecksum("123456789", 9), 0xCBF43926u);
    // Larger inputs: compare the sliced implementation with the bitwise definition.
    std::mt19937 random(7);
    std::string data(4099, '\0');
    for (char& c : data)
        c = static_cast<char>(random());
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < data.size(); ++i) {
        if (i >= 60 && i < 64) continue;
        crc ^= static_cast<uint8_t>(data[i]);
        for (int k = 0; k < 8; ++k)
            crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
    EXPECT_EQ(OmChecksum(data.data(), data.size()), ~crc);
}

TEST(OmFile, EveryTruncationIsRejected) {
    const std::string image = SerializeOm(FullFile());
    for (size_t length = 0; length < image.size(); ++length) {
        SCOPED_TRACE("length " + std::to_string(length));
        const std::string cut = image.substr(0, length);
        ExpectRejected(cut, length < 8 ? "not an openacl .om" : "truncated");
    }
}

TEST(OmFile, TrailingBytesAreRejected) {
    ExpectRejected(SerializeOm(FullFile()) + "x", "1 unexpected bytes after the end");
}

TEST(OmFile, EveryFlippedByteIsRejected) {
    const std::string image = SerializeOm(FullFile());
    for (size_t at = 0; at < image.size(); ++at) {
        for (uint8_t mask : {0x01, 0x80, 0xFF}) {
            std::string damaged = image;
            damaged[at] = static_cast<char>(damaged[at] ^ mask);
            OmFile out;
            std::string error;
            EXPECT_FALSE(ParseOm(damaged.data(), damaged.size(), &out, &error))
                << "byte " << at << " mask " << int{mask};
            EXPECT_FALSE(error.empty());
        }
    }
}

TEST(OmFile, PayloadDamageIsAChecksumMismatch) {
    std::string image = SerializeOm(FullFile());
    image[image.size() - 1] ^= 0x10;
    ExpectRejected(image, "checksum mismatch");
}

TEST(OmFile, HeaderFieldsAreChecked) {
    const std::string good = SerializeOm(FullFile());
    const uint64_t size = good.size();
    struct Case {
        const char* what;
        size_t at;
        uint64_t value;
        bool wide;
        const char* fragment;
    };
    const Case cases[] = {
        {"future version", 8, 3, false, "format version 3 is newer"},
        {"version 0", 8, 0, false, "version 0"},
        {"header too small", 12, 79, false, "less than the 80"},
        {"header past the end", 12, size + 1, false, "less than the header"},
        {"file size too small", 16, 10, true, "less than the header"},
        {"file size too large", 16, size + 100, true, "truncated"},
        {"options inside the header", 24, 8, true, "options section (offset 8"},
        {"options past the end", 24, size, true, "lies outside the payload"},
        {"options offset huge", 24, ~uint64_t{0}, true, "lies outside the payload"},
        {"options size huge", 32, ~uint64_t{0}, true, "lies outside the payload"},
        {"options empty", 32, 0, true, "options section is empty"},
        {"onnx size past the end", 48, size, true, "ONNX section"},
        {"onnx offset overlaps options", 40, 80, true, "overlap"},
        {"unknown flags", 56, 1, false, "unknown header flags 0x1"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        std::string image = good;
        if (c.wide) {
            Put64(&image, c.at, c.value);
        } else {
            Put32(&image, c.at, static_cast<uint32_t>(c.value));
        }
        Reseal(&image);
        ExpectRejected(image, c.fragment);
    }
}

TEST(OmFile, ForeignFilesAreExplained) {
    std::string cann = "IMOD" + std::string(252, '\0');
    ExpectRejected(cann, "CANN");
    ExpectRejected(kTinyOnnx, "not an openacl .om");
    ExpectRejected("", "not an openacl .om");
    std::string error;
    EXPECT_FALSE(ParseOm(nullptr, 0, nullptr, &error));
}

TEST(OmFile, LongerHeadersOfLaterWritersAreSkipped) {
    // A writer may grow the header; a version-1 reader skips what it does not know.
    const std::string options = OmOptionsToJson(FullFile().options);
    std::string image(96, '\0');
    std::memcpy(image.data(), "OACL-OM\0", 8);
    Put32(&image, 8, 1);
    Put32(&image, 12, 96);
    Put64(&image, 16, 96 + kTinyOnnx.size() + options.size());
    Put64(&image, 24, 96 + kTinyOnnx.size());  // sections in the other order, too
    Put64(&image, 32, options.size());
    Put64(&image, 40, 96);
    Put64(&image, 48, kTinyOnnx.size());
    image[70] = 'z';  // a field of the longer header
    image += kTinyOnnx + options;
    Reseal(&image);
    OmFile out;
    std::string error;
    ASSERT_TRUE(ParseOm(image.data(), image.size(), &out, &error)) << error;
    EXPECT_EQ(out.onnx, kTinyOnnx);
    EXPECT_EQ(out.options.soc_version, "Ascend310P3");
}

TEST(OmFile, MalformedJsonIsRejected) {
    ExpectRejected(Build("{\"inputs\": [", kTinyOnnx), "not valid JSON");
    ExpectRejected(Build("not json", kTinyOnnx), "not valid JSON");
    ExpectRejected(Build("{} {}", kTinyOnnx), "not valid JSON");
    ExpectRejected(Build("{\"producer\": \"\xff\xfe\"}", kTinyOnnx), "not valid JSON");
    ExpectRejected(Build(std::string(100000, '[') + std::string(100000, ']'), kTinyOnnx),
                   "nested deeper");
    // The same damage in an image with the original length, re-sealed.
    std::string image = SerializeOm(FullFile());
    image[80] = '<';  // the options' first byte
    Reseal(&image);
    ExpectRejected(image, "not valid JSON");
}

TEST(OmFile, WrongJsonTypesAreRejected) {
    const std::pair<const char*, const char*> cases[] = {
        {"[]", "the options section must be a JSON object"},
        {"{\"producer\": 5}", "\"producer\" must be a string"},
        {"{\"soc_version\": null}", "\"soc_version\" must be a string"},
        {"{\"input_format\": \"NCW\"}", "\"input_format\" must be"},
        {"{\"inputs\": {}}", "\"inputs\" must be an array"},
        {"{\"inputs\": [3]}", "\"inputs\"[0] must be an object"},
        {"{\"inputs\": [{}]}", "\"inputs\"[0].\"name\" must be a non-empty string"},
        {"{\"inputs\": [{\"name\": \"\"}]}", "must be a non-empty string"},
        {"{\"inputs\": [{\"name\": 3}]}", "must be a non-empty string"},
        {"{\"inputs\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}", "repeats an earlier input"},
        {"{\"inputs\": [{\"name\": \"a\", \"shape\": 3}]}", "\"shape\" must be an array"},
        {"{\"inputs\": [{\"name\": \"a\", \"shape\": [1.5]}]}", "\"shape\"[0] must be an integer"},
        {"{\"inputs\": [{\"name\": \"a\", \"shape\": [1, -2]}]}", "\"shape\"[1] must be"},
        {"{\"inputs\": [{\"name\": \"a\", \"shape\": [18446744073709551615]}]}", "must be an"},
        {"{\"inputs\": [{\"name\": \"a\", \"fp16\": \"yes\"}]}", "\"fp16\" must be true or false"},
        {"{\"output_types\": []}", "\"output_types\" must be an object"},
        {"{\"output_types\": {\"y\": 1}}", "must be a data type name"},
        {"{\"output_types\": {\"y\": \"FP99\"}}", "is not a known data type name"},
        {"{\"output_types\": {\"y\": \"fp16\"}}", "is not a known data type name"},
        {"{\"output_types\": {\"\": \"FP16\", \"y\": \"FP32\"}}", "mixes a type for all"},
        {"{\"dynamic_batch_sizes\": 4}", "must be an array"},
        {"{\"dynamic_batch_sizes\": [1, 0]}", "\"dynamic_batch_sizes\"[1] must be a positive"},
        {"{\"dynamic_batch_sizes\": [-1]}", "must be a positive integer"},
        {"{\"dynamic_batch_sizes\": [\"2\"]}", "must be a positive integer"},
        {"{\"dynamic_image_sizes\": [[1]]}", "must be a [height, width] pair"},
        {"{\"dynamic_image_sizes\": [[1, 0]]}", "\"dynamic_image_sizes\"[0][1] must be"},
        {"{\"dynamic_batch_sizes\": [1, 2], \"dynamic_image_sizes\": [[1, 1], [2, 2]]}",
         "gears of more than one kind"},
        {"{\"dynamic_dims\": [[2, 3], []]}", "\"dynamic_dims\"[1] must be a non-empty array"},
        {"{\"dynamic_dims\": [[2, 0]]}", "\"dynamic_dims\"[0][1] must be a positive"},
        {"{\"dynamic_dims\": [[2]], \"dynamic_batch_sizes\": [1, 2]}", "gears of more than one"},
        {"{\"engine_choices\": []}", "\"engine_choices\" must be an object"},
        {"{\"engine_choices\": {\"threads\": 2}}", "\"engine_choices\".nhwc must be true"},
        {"{\"engine_choices\": {\"nhwc\": true}}", "\"engine_choices\".threads must be a pos"},
        {"{\"engine_choices\": {\"nhwc\": true, \"threads\": 0}}", "must be a positive"},
        {"{\"engine_choices\": {\"nhwc\": true, \"threads\": 5000}}", "at most 4096"},
        {"{\"engine_choices\": {\"nhwc\": false, \"threads\": 1, \"head_layers\": -1}}",
         ".head_layers must be >= 0"},
        {"{\"engine_choices\": {\"nhwc\": false, \"threads\": 1, \"convs\": 3}}",
         ".convs must be a list"},
        {"{\"engine_choices\": {\"nhwc\": false, \"threads\": 1, \"convs\": [16]}}",
         ".convs holds a value outside -1..15"},
        {"{\"engine_choices\": {\"nhwc\": false, \"threads\": 1, \"head_convs\": [-2]}}",
         ".head_convs holds a value outside -1..15"},
    };
    for (const auto& [json, fragment] : cases) {
        SCOPED_TRACE(json);
        const std::string image = Build(json, kTinyOnnx);
        ExpectRejected(image, fragment);
        std::string error;
        ParseOm(image.data(), image.size(), nullptr, &error);
        EXPECT_EQ(error.rfind("malformed options: ", 0), 0u) << error;
    }
}

TEST(OmFile, UnknownKeysAndMissingKeysAreTolerated) {
    OmFile out;
    std::string error;
    const std::string image =
        Build("{\"future_key\": {\"x\": [1]}, \"soc_version\": \"A\"}", kTinyOnnx);
    ASSERT_TRUE(ParseOm(image.data(), image.size(), &out, &error)) << error;
    EXPECT_EQ(out.options.soc_version, "A");
    EXPECT_TRUE(out.options.inputs.empty());
}

TEST(OmFile, TheOnnxSectionMustHoldAModel) {
    ExpectRejected(Build("{}", "hello, world"), "does not hold an ONNX model");
}

TEST(OmFile, DataTypeNames) {
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_UINT8, ACL_INT32, ACL_INT64, ACL_BOOL}) {
        aclDataType back = ACL_DT_UNDEFINED;
        ASSERT_TRUE(DataTypeFromName(DataTypeName(type), &back)) << type;
        EXPECT_EQ(back, type);
    }
    EXPECT_EQ(DataTypeName(ACL_FLOAT), "FP32");
    EXPECT_EQ(DataTypeName(ACL_FLOAT16), "FP16");
    EXPECT_EQ(DataTypeName(ACL_DT_UNDEFINED), "");
    aclDataType type = ACL_FLOAT;
    EXPECT_FALSE(DataTypeFromName("FLOAT", &type));
    EXPECT_EQ(type, ACL_FLOAT);
}

TEST(DetectModelFormat, RecognisesOmAndOnnx) {
    const std::string om = SerializeOm(FullFile());
    EXPECT_EQ(DetectModelFormat(om.data(), om.size()), ModelFormat::kOm);
    // A damaged .om is still an .om: ParseOm then says what is wrong with it.
    EXPECT_EQ(DetectModelFormat(om.data(), 8), ModelFormat::kOm);
    EXPECT_EQ(DetectModelFormat(kTinyOnnx.data(), kTinyOnnx.size()), ModelFormat::kOnnx);
    // Permissive: ir_version alone, and fields a later ONNX may add after the first.
    EXPECT_EQ(DetectModelFormat("\x08\x07", 2), ModelFormat::kOnnx);
    EXPECT_EQ(DetectModelFormat("\x08\x07\xf8\x01\x05", 5), ModelFormat::kOnnx);
}

TEST(DetectModelFormat, RejectsGarbage) {
    const std::string cases[] = {
        "",
        "ir_version: 7\ngraph { }\n",  // the text format is not the binary one
        "{\"inputs\": []}",
        std::string("\x08", 1),                  // a tag with no value
        std::string("\x3a\x05\x00", 3),          // graph longer than the data
        std::string("\x0a\x00\x3a\x00", 4),      // ir_version with the wrong wire type
        std::string("\x62\x00\x3a\x00", 4),      // an unknown field first
        std::string("\x08\x07\x3b\x3a\x00", 5),  // a group
        std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12),  // 11-byte varint
        std::string(16, '\0'),
        std::string(16, '\xff'),
    };
    for (size_t i = 0; i < std::size(cases); ++i) {
        const std::string& c = cases[i];
        EXPECT_EQ(DetectModelFormat(c.data(), c.size()), ModelFormat::kUnknown) << "case " << i;
    }
    EXPECT_EQ(DetectModelFormat(nullptr, 10), ModelFormat::kUnknown);
    // Random bytes: almost never a model; a fixed seed keeps this deterministic.
    std::mt19937 random(42);
    int accepted = 0;
    for (int n = 0; n < 1000; ++n) {
        std::string bytes(64 + n % 200, '\0');
        for (char& b : bytes)
            b = static_cast<char>(random());
        accepted += DetectModelFormat(bytes.data(), bytes.size()) == ModelFormat::kOnnx;
    }
    EXPECT_EQ(accepted, 0);
}

TEST(DetectModelFormat, TruncatedOnnxIsNotOnnx) {
    const std::string model("\x08\x07\x12\x04test\x3a\x06\x0a\x04\x0a\x01x\x12", 16);
    ASSERT_EQ(DetectModelFormat(model.data(), model.size()), ModelFormat::kOnnx);
    for (size_t length = 1; length < model.size(); ++length) {
        // Cuts at a field boundary leave a shorter valid model; the others must fail.
        const ModelFormat f = DetectModelFormat(model.data(), length);
        if (length == 2 || length == 8) continue;
        EXPECT_EQ(f, ModelFormat::kUnknown) << "length " << length;
    }
}

TEST(DetectModelFormat, EveryOnnxTestModelIsOnnx) {
    const std::filesystem::path root = OPENACL_ONNX_TESTDATA;
    if (!std::filesystem::is_directory(root)) GTEST_SKIP() << root << " is not installed";
    int models = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
        if (entry.path().filename() != "model.onnx") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        const std::string data = bytes.str();
        EXPECT_EQ(DetectModelFormat(data.data(), data.size()), ModelFormat::kOnnx) << entry.path();
        ++models;
    }
    EXPECT_GT(models, 0);
}

}  // namespace
}  // namespace openacl::model
