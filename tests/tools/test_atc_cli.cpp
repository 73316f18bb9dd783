// The atc command as users run it: the binary, its exit code, its one-line messages, and the
// .om it writes (read back with ParseOm).
#include <stdlib.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <nlohmann/json.hpp>

#include "model/om_file.h"
#include "op/op_model_file.h"
#include "temp_dir.h"

namespace {

namespace fs = std::filesystem;
using openacl::model::OmFile;

const std::string kTestData = OPENACL_ONNX_TESTDATA;
const std::string kRelu = kTestData + "/node/test_relu/model.onnx";                 // x[3,4,5]
const std::string kConv = kTestData + "/pytorch-converted/test_Conv2d/model.onnx";  // "0"[2,3,7,5]

std::string ReadFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

std::string Quote(const std::string& arg) {
    std::string quoted = "'";
    for (char c : arg)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

void AddValue(onnx::ValueInfoProto* value, const std::string& name, int32_t type,
              std::vector<int64_t> dims) {
    value->set_name(name);
    auto* tensor = value->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(type);
    for (int64_t d : dims)
        tensor->mutable_shape()->add_dim()->set_dim_value(d);
}

// A graph with what the test data lacks: named nodes, a node with two outputs, an integer
// input, and a weight that is also listed as an input (as old exporters do).
std::string SplitModel() {
    onnx::ModelProto model;
    model.set_ir_version(7);
    model.add_opset_import()->set_version(13);
    onnx::GraphProto* g = model.mutable_graph();
    g->set_name("split");
    AddValue(g->add_input(), "image", onnx::TensorProto::FLOAT, {1, 4, 8, 8});
    AddValue(g->add_input(), "ids", onnx::TensorProto::INT64, {4});
    AddValue(g->add_input(), "w", onnx::TensorProto::FLOAT, {1});
    onnx::TensorProto* w = g->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(1);
    w->add_float_data(0.5f);
    onnx::NodeProto* add = g->add_node();
    add->set_name("add1");
    add->set_op_type("Add");
    add->add_input("image");
    add->add_input("w");
    add->add_output("sum");
    onnx::NodeProto* split = g->add_node();
    split->set_name("split1");
    split->set_op_type("Split");
    split->add_input("sum");
    split->add_output("s0");
    split->add_output("s1");
    onnx::AttributeProto* axis = split->add_attribute();
    axis->set_name("axis");
    axis->set_type(onnx::AttributeProto::INT);
    axis->set_i(1);
    onnx::NodeProto* identity = g->add_node();
    identity->set_name("id1");
    identity->set_op_type("Identity");
    identity->add_input("ids");
    identity->add_output("ids_out");
    AddValue(g->add_output(), "s0", onnx::TensorProto::FLOAT, {1, 2, 8, 8});
    AddValue(g->add_output(), "s1", onnx::TensorProto::FLOAT, {1, 2, 8, 8});
    AddValue(g->add_output(), "ids_out", onnx::TensorProto::INT64, {4});
    return model.SerializeAsString();
}

// x[N, 4] -> Relu: a graph whose batch the exporter left open.
std::string DynamicReluModel() {
    onnx::ModelProto model;
    model.set_ir_version(7);
    model.add_opset_import()->set_version(13);
    onnx::GraphProto* g = model.mutable_graph();
    g->set_name("dynamic");
    auto batch_by_four = [](onnx::ValueInfoProto* value, const char* name) {
        AddValue(value, name, onnx::TensorProto::FLOAT, {});
        auto* shape = value->mutable_type()->mutable_tensor_type()->mutable_shape();
        shape->add_dim()->set_dim_param("N");
        shape->add_dim()->set_dim_value(4);
    };
    batch_by_four(g->add_input(), "x");
    batch_by_four(g->add_output(), "y");
    onnx::NodeProto* relu = g->add_node();
    relu->set_op_type("Relu");
    relu->add_input("x");
    relu->add_output("y");
    return model.SerializeAsString();
}

class AtcTest : public ::testing::Test {
 protected:
    void SetUp() override {
        if (!fs::exists(kRelu) || !fs::exists(kConv)) {
            GTEST_SKIP() << "the ONNX test data (libonnx-testdata) is not installed";
        }
        ASSERT_FALSE(dir_.empty());
        std::ofstream(dir_ / "split.onnx", std::ios::binary) << SplitModel();
        split_ = (dir_ / "split.onnx").string();
        std::ofstream(dir_ / "empty.onnx").close();
    }
    // Runs atc in the test's directory; stdout and stderr land in out_ and err_.
    int Atc(const std::vector<std::string>& args) {
        std::string command = "cd " + Quote(dir_.string()) + " && " + Quote(ATC_PATH);
        for (const std::string& arg : args)
            command += " " + Quote(arg);
        command += " >stdout.txt 2>stderr.txt";
        const int status = std::system(command.c_str());
        out_ = ReadFile(dir_ / "stdout.txt");
        err_ = ReadFile(dir_ / "stderr.txt");
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    // A conversion that must succeed; returns the .om it wrote, parsed.
    OmFile Convert(const std::vector<std::string>& args, const std::string& om = "out.om") {
        OmFile file;
        EXPECT_EQ(Atc(args), 0) << err_;
        EXPECT_NE(out_.find("ATC run success, welcome to the next use."), std::string::npos);
        EXPECT_NE(out_.find(om), std::string::npos) << "stdout names the file: " << out_;
        const std::string image = ReadFile(dir_ / om);
        std::string error;
        EXPECT_TRUE(openacl::model::ParseOm(image.data(), image.size(), &file, &error)) << error;
        return file;
    }

    TempDir tmp_{"atc_test"};
    const fs::path dir_ = tmp_.path();
    std::string split_;
    std::string out_;
    std::string err_;
};

TEST_F(AtcTest, HelpListsTheFlags) {
    EXPECT_EQ(Atc({"--help"}), 0);
    for (const char* flag : {"--model", "--framework", "--output", "--soc_version", "--input_shape",
                             "--input_format", "--input_fp16_nodes", "--output_type",
                             "--dynamic_batch_size", "--dynamic_image_size", "--log"}) {
        EXPECT_NE(out_.find(flag), std::string::npos) << flag;
    }
}

TEST_F(AtcTest, ConvertsReluAndKeepsTheOnnxBytes) {
    const OmFile file =
        Convert({"--model=" + kRelu, "--framework=5", "--output=out", "--soc_version=Ascend310P3"});
    EXPECT_EQ(file.onnx, ReadFile(kRelu));
    EXPECT_EQ(file.options.soc_version, "Ascend310P3");
    EXPECT_EQ(file.options.producer.rfind("openacl atc ", 0), 0u);
    ASSERT_EQ(file.options.inputs.size(), 1u);
    EXPECT_EQ(file.options.inputs[0].name, "x");
    EXPECT_TRUE(file.options.inputs[0].shape.empty());
    EXPECT_TRUE(file.options.output_types.empty());
    EXPECT_TRUE(err_.empty()) << err_;
}

TEST_F(AtcTest, ACoveredGraphGetsTheCompiledEngineAndAPlan) {
    const OmFile file =
        Convert({"--model=" + kRelu, "--framework=5", "--output=out", "--soc_version=Ascend310P3"});
    EXPECT_NE(out_.find("Engine: onednn"), std::string::npos) << out_;
    EXPECT_EQ(file.plan.rfind("OAPL", 0), 0u) << "the .om carries the compiled plan";
}

// The load on this machine builds the engine as atc timed it (model/engine_choices.h).
TEST_F(AtcTest, TheCompiledEngineIsTimedOnThisMachineAndItsChoicesStored) {
    const OmFile file =
        Convert({"--model=" + kConv, "--framework=5", "--output=out", "--soc_version=Ascend310P3"});
    EXPECT_NE(out_.find("; timed on this machine: "), std::string::npos) << out_;
    EXPECT_FALSE(file.options.engine.machine.empty());
    EXPECT_GE(file.options.engine.threads, 1);
    EXPECT_FALSE(file.options.engine.convs.empty());
}

TEST_F(AtcTest, AnInputShapeLetsADynamicGraphCompileAndItsPlanIsStored) {
    std::ofstream(dir_ / "dynamic.onnx", std::ios::binary) << DynamicReluModel();
    OmFile file = Convert(
        {"--model=dynamic.onnx", "--framework=5", "--output=out", "--soc_version=Ascend310P3"});
    EXPECT_NE(out_.find("Engine: opencv-dnn (the compiled engine does not cover: input 'x' has "
                        "no static shape)"),
              std::string::npos)
        << out_;
    EXPECT_TRUE(file.plan.empty());
    file = Convert({"--model=dynamic.onnx", "--framework=5", "--output=out",
                    "--soc_version=Ascend310P3", "--input_shape=x:2,4"});
    EXPECT_NE(out_.find("Engine: onednn (compiled plan of 1 layers"), std::string::npos) << out_;
    EXPECT_EQ(file.plan.rfind("OAPL", 0), 0u) << "the plan for the given shape is stored";
}

TEST_F(AtcTest, AnUncoveredOperatorIsNamedAndNoPlanIsStored) {
    const std::string hardmax =
        std::string(OPENACL_ONNX_TESTDATA) + "/node/test_hardmax_example/model.onnx";
    const OmFile file = Convert(
        {"--model=" + hardmax, "--framework=5", "--output=out", "--soc_version=Ascend310P3"});
    EXPECT_NE(out_.find("Engine: opencv-dnn (the compiled engine does not cover: Hardmax)"),
              std::string::npos)
        << out_;
    EXPECT_TRUE(file.plan.empty());
}

TEST_F(AtcTest, AcceptsSpaceSeparatedValuesAndAnOmSuffix) {
    const OmFile file = Convert({"--model", kRelu, "--framework", "5", "--output", "out.om",
                                 "--soc_version", "Ascend910B1", "--input_shape", "x:3,4,5"});
    EXPECT_FALSE(fs::exists(dir_ / "out.om.om"));
    EXPECT_EQ(file.options.soc_version, "Ascend910B1");
    EXPECT_EQ(file.options.inputs[0].shape, (std::vector<int64_t>{3, 4, 5}));
}

TEST_F(AtcTest, ConvWithDynamicBatchFp16InputAndOutputType) {
    const OmFile file =
        Convert({"--model=" + kConv, "--framework=5", "--output=out", "--soc_version=Ascend310P3",
                 "--input_shape=0:-1,3,7,5", "--input_format=NCHW", "--input_fp16_nodes=0",
                 "--output_type=FP16", "--dynamic_batch_size=1,2,4,8"});
    EXPECT_EQ(file.options.input_format, "NCHW");
    ASSERT_EQ(file.options.inputs.size(), 1u) << "weights listed as inputs are not inputs";
    EXPECT_EQ(file.options.inputs[0].name, "0");
    EXPECT_EQ(file.options.inputs[0].shape, (std::vector<int64_t>{-1, 3, 7, 5}));
    EXPECT_TRUE(file.options.inputs[0].fp16);
    EXPECT_EQ(file.options.output_types, (std::map<std::string, aclDataType>{{"", ACL_FLOAT16}}));
    EXPECT_EQ(file.options.dynamic_batch_sizes, (std::vector<uint64_t>{1, 2, 4, 8}));
}

TEST_F(AtcTest, ConvWithDynamicImageSizeNchwAndNhwc) {
    OmFile file =
        Convert({"--model=" + kConv, "--framework=5", "--output=out", "--soc_version=Ascend310",
                 "--input_shape=0:2,3,-1,-1", "--dynamic_image_size=7,5;14,10;"});
    EXPECT_EQ(file.options.dynamic_image_sizes,
              (std::vector<std::array<uint64_t, 2>>{{7, 5}, {14, 10}}));
    file = Convert({"--model=" + kConv, "--framework=5", "--output=out", "--soc_version=Ascend310",
                    "--input_format=NHWC", "--input_shape=0:2,-1,-1,5",
                    "--dynamic_image_size=7,5;14,10", "--log=null"});
    EXPECT_EQ(file.options.input_format, "NHWC");
    EXPECT_TRUE(err_.empty()) << "--log=null silences warnings: " << err_;
}

TEST_F(AtcTest, DynamicDimsGearsFillTheMarkedDimsInOrder) {
    const OmFile file =
        Convert({"--model=" + kRelu, "--framework=5", "--output=out", "--soc_version=Ascend310",
                 "--input_format=ND", "--input_shape=x:-1,4,-1", "--dynamic_dims=3,5; 2,7"});
    EXPECT_EQ(file.options.dynamic_dims, (std::vector<std::vector<uint64_t>>{{3, 5}, {2, 7}}));
    EXPECT_NE(out_.find("Engine: opencv-dnn (dynamic"), std::string::npos) << out_;
}

TEST_F(AtcTest, PerOutputTypesMapNodesToGraphOutputs) {
    const OmFile file =
        Convert({"--model=" + split_, "--framework=5", "--output=out", "--soc_version=Ascend310",
                 "--output_type=split1:1:FP16;ids_out:0:UINT8"});
    EXPECT_EQ(file.options.output_types,
              (std::map<std::string, aclDataType>{{"s1", ACL_FLOAT16}, {"ids_out", ACL_UINT8}}));
    ASSERT_EQ(file.options.inputs.size(), 2u);
    EXPECT_EQ(file.options.inputs[0].name, "image");
    EXPECT_EQ(file.options.inputs[1].name, "ids");
}

TEST_F(AtcTest, IgnoredNpuOptionsWarn) {
    Convert({"--model=" + kRelu, "--framework=5", "--output=out", "--soc_version=Ascend310",
             "--precision_mode=allow_fp32_to_fp16"});
    EXPECT_NE(err_.find("--precision_mode"), std::string::npos) << err_;
}

TEST_F(AtcTest, MissingSocVersionWarnsButConverts) {
    Convert({"--model=" + kRelu, "--framework=5", "--output=out"});
    EXPECT_NE(err_.find("--soc_version is not given"), std::string::npos) << err_;
}

TEST_F(AtcTest, ModeOneShowsAnOm) {
    Convert({"--model=" + kRelu, "--framework=5", "--output=out", "--soc_version=Ascend310"});
    ASSERT_EQ(Atc({"--mode=1", "--om=out.om", "--json=out.json"}), 0) << err_;
    const std::string json = ReadFile(dir_ / "out.json");
    EXPECT_NE(json.find("\"soc_version\": \"Ascend310\""), std::string::npos) << json;
}

struct FailureCase {
    const char* name;
    std::vector<std::string> args;  // after the common ones; "@relu" etc. name test models
    const char* message;
    bool common = true;  // prepend --framework=5 --output=out --soc_version=Ascend310
};

// Keeps ctest's test names readable (the default prints the struct's bytes).
void PrintTo(const FailureCase& c, std::ostream* os) {
    *os << c.name;
}

class AtcFailure : public AtcTest, public ::testing::WithParamInterface<FailureCase> {};

TEST_P(AtcFailure, ExitsOneWithOneLine) {
    std::vector<std::string> args;
    if (GetParam().common) args = {"--framework=5", "--output=out", "--soc_version=Ascend310"};
    for (std::string arg : GetParam().args) {
        for (const auto& [alias, path] : {std::pair<std::string, std::string>{"@relu", kRelu},
                                          {"@conv", kConv},
                                          {"@split", split_}}) {
            const size_t at = arg.find(alias);
            if (at != std::string::npos) arg.replace(at, alias.size(), path);
        }
        args.push_back(arg);
    }
    EXPECT_EQ(Atc(args), 1) << out_ << err_;
    std::string last_line = err_;
    if (!last_line.empty() && last_line.back() == '\n') last_line.pop_back();
    last_line = last_line.substr(
        last_line.rfind('\n') == std::string::npos ? 0 : last_line.rfind('\n') + 1);
    EXPECT_EQ(last_line.rfind("ATC run failed: ", 0), 0u) << err_;
    EXPECT_NE(last_line.find(GetParam().message), std::string::npos) << err_;
    EXPECT_EQ(err_.find("ATC run failed", err_.find("ATC run failed") + 1), std::string::npos);
    EXPECT_FALSE(fs::exists(dir_ / "out.om"));
    EXPECT_EQ(out_.find("success"), std::string::npos);
}

const FailureCase kFailures[] = {
    {"Caffe", {"--model=@relu", "--framework=0"}, "--framework=0 (Caffe) is not supported", false},
    {"MindSpore", {"--model=@relu", "--framework=1"}, "(MindSpore) is not supported", false},
    {"TensorFlow", {"--model=@relu", "--framework=3", "--output=out"}, "only 5 (ONNX)", false},
    {"BadFramework",
     {"--model=@relu", "--framework=9", "--output=out"},
     "use --framework=5",
     false},
    {"NoModel", {}, "--model is required"},
    {"NoOutput", {"--model=@relu", "--framework=5"}, "--output is required", false},
    {"MissingModelFile", {"--model=missing.onnx"}, "cannot open --model=missing.onnx"},
    {"EmptyModel", {"--model=empty.onnx"}, "--model=empty.onnx is empty"},
    {"ModelIsADirectory", {"--model=."}, "is a directory"},
    {"OutputDirMissing",
     {"--model=@relu", "--framework=5", "--output=no/such/dir/out"},
     "the directory no/such/dir of --output does not exist",
     false},
    {"BadSoc",
     {"--model=@relu", "--framework=5", "--output=out", "--soc_version=Tesla"},
     "--soc_version=Tesla is not an Ascend SoC name",
     false},
    {"UnknownFlag", {"--model=@relu", "--colour=red"}, "unknown option --colour"},
    {"UnsupportedFlag", {"--model=@relu", "--insert_op_conf=aipp.cfg"}, "--insert_op_conf is not"},
    {"RepeatedFlag", {"--model=@relu", "--model=@relu"}, "--model is given twice"},
    {"MissingValue", {"--model=@relu", "--input_shape"}, "--input_shape needs a value"},
    {"StrayArgument", {"--model=@relu", "model.onnx"}, "unexpected argument \"model.onnx\""},
    {"BadLog", {"--model=@relu", "--log=verbose"}, "--log=verbose is not a level"},
    {"BadMode", {"--model=@relu", "--mode=3"}, "--mode=3 is not supported"},
    {"ModeOneWithoutOm", {"--mode=1"}, "--mode=1 needs --om", false},
    {"ModeOneNotOm", {"--mode=1", "--om=@relu", "--json=x.json"}, "not an openacl .om", false},
    {"ShapeUnknownInput", {"--model=@relu", "--input_shape=y:3,4,5"}, "not an input of the graph"},
    {"ShapeOfAWeight", {"--model=@split", "--input_shape=w:1"}, "is a weight (initializer)"},
    {"ShapeRank", {"--model=@relu", "--input_shape=x:3,4"}, "gives \"x\" 2 dimensions"},
    {"ShapeZero", {"--model=@relu", "--input_shape=x:3,0,5"}, "has the dimension \"0\""},
    {"ShapeText", {"--model=@relu", "--input_shape=x:3,four,5"}, "has the dimension \"four\""},
    {"ShapeRange", {"--model=@relu", "--input_shape=x:1~3,4,5"}, "--input_shape_range"},
    {"ShapeNoColon", {"--model=@relu", "--input_shape=x"}, "is not name:dims"},
    {"ShapeTwice", {"--model=@relu", "--input_shape=x:3,4,5;x:3,4,5"}, "gives \"x\" twice"},
    {"BadFormat", {"--model=@relu", "--input_format=NC1HWC0"}, "--input_format=NC1HWC0 is not"},
    {"Fp16UnknownInput", {"--model=@relu", "--input_fp16_nodes=x;q"}, "names \"q\", which is not"},
    {"Fp16IntegerInput", {"--model=@split", "--input_fp16_nodes=ids"}, "whose type is INT64"},
    {"OutputTypeBad",
     {"--model=@relu", "--output_type=FP64"},
     "the types are FP32, FP16 and UINT8"},
    {"OutputTypeNoNode", {"--model=@relu", "--output_type=z:0:FP16"}, "no node named \"z\""},
    {"OutputTypeIndex", {"--model=@split", "--output_type=split1:2:FP16"}, "has 2 outputs"},
    {"OutputTypeNotGraphOutput",
     {"--model=@split", "--output_type=add1:0:FP16"},
     "\"sum\", which is not an output of the graph"},
    {"OutputTypeSyntax", {"--model=@split", "--output_type=split1:FP16"}, "is not node:index:type"},
    {"BatchWithoutShape", {"--model=@conv", "--dynamic_batch_size=1,2"}, "needs --input_shape"},
    {"BatchNotFirstDim",
     {"--model=@conv", "--input_shape=0:2,-1,7,5", "--dynamic_batch_size=1,2"},
     "the batch (first) dimension of \"0\" to be -1"},
    {"BatchOneGear",
     {"--model=@conv", "--input_shape=0:-1,3,7,5", "--dynamic_batch_size=4"},
     "has 1 gears; give between 2 and 100"},
    {"BatchTooManyGears",
     {"--model=@conv", "--input_shape=0:-1,3,7,5",
      "--dynamic_batch_size=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,"
      "27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,"
      "57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,"
      "87,88,89,90,91,92,93,94,95,96,97,98,99,100,101"},
     "has 101 gears"},
    {"BatchZeroGear",
     {"--model=@conv", "--input_shape=0:-1,3,7,5", "--dynamic_batch_size=0,2"},
     "gears are positive integers"},
    {"BatchRepeatedGear",
     {"--model=@conv", "--input_shape=0:-1,3,7,5", "--dynamic_batch_size=2,2"},
     "repeats a gear"},
    {"BatchAndImage",
     {"--model=@conv", "--input_shape=0:-1,3,-1,-1", "--dynamic_batch_size=1,2",
      "--dynamic_image_size=7,5;14,10"},
     "exclude each other"},
    {"ImageNotHw",
     {"--model=@conv", "--input_shape=0:2,3,-1,-1", "--input_format=NHWC",
      "--dynamic_image_size=7,5;14,10"},
     "needs H and W (NHWC) of \"0\" to be -1"},
    {"ImageNd",
     {"--model=@conv", "--input_shape=0:2,3,-1,-1", "--input_format=ND",
      "--dynamic_image_size=7,5;14,10"},
     "needs --input_format NCHW or NHWC"},
    {"ImageBadPair",
     {"--model=@conv", "--input_shape=0:2,3,-1,-1", "--dynamic_image_size=7;14,10"},
     "gear \"7\" is not height,width"},
    {"ImageWithoutDynamicDims",
     {"--model=@conv", "--input_shape=0:2,3,7,5", "--dynamic_image_size=7,5;14,10"},
     "needs --input_shape to mark H and W"},
    {"DimsNotNd",
     {"--model=@relu", "--input_shape=x:-1,4,-1", "--dynamic_dims=3,5;2,7"},
     "--dynamic_dims needs --input_format=ND"},
    {"DimsWithoutDynamicDims",
     {"--model=@relu", "--input_shape=x:3,4,5", "--input_format=ND", "--dynamic_dims=3,5;2,7"},
     "needs --input_shape to mark the dynamic dimensions as -1"},
    {"DimsWrongCount",
     {"--model=@relu", "--input_shape=x:-1,4,-1", "--input_format=ND", "--dynamic_dims=3,5;2"},
     "gear \"2\" has 1 values; --input_shape marks 2 dimensions -1"},
    {"DimsOneGear",
     {"--model=@relu", "--input_shape=x:-1,4,-1", "--input_format=ND", "--dynamic_dims=3,5"},
     "--dynamic_dims has 1 gears; give between 2 and 100"},
    {"DimsRepeated",
     {"--model=@relu", "--input_shape=x:-1,4,-1", "--input_format=ND", "--dynamic_dims=3,5;3,5"},
     "--dynamic_dims repeats a gear"},
    {"DimsZero",
     {"--model=@relu", "--input_shape=x:-1,4,-1", "--input_format=ND", "--dynamic_dims=3,0;2,7"},
     "gears are positive integers"},
    {"DimsAndBatch",
     {"--model=@relu", "--input_shape=x:-1,4,-1", "--input_format=ND", "--dynamic_dims=3,5;2,7",
      "--dynamic_batch_size=1,2"},
     "--dynamic_dims excludes --dynamic_batch_size"},
};

INSTANTIATE_TEST_SUITE_P(Flags, AtcFailure, ::testing::ValuesIn(kFailures),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_F(AtcTest, AnOmIsNotAModel) {
    Convert({"--model=" + kRelu, "--framework=5", "--output=out", "--soc_version=Ascend310"});
    EXPECT_EQ(Atc({"--model=out.om", "--framework=5", "--output=again"}), 1);
    EXPECT_NE(err_.find("is already an .om file"), std::string::npos) << err_;
}

TEST_F(AtcTest, GarbageIsNotAModel) {
    std::ofstream(dir_ / "text.onnx") << "ir_version: 7\n";
    EXPECT_EQ(Atc({"--model=text.onnx", "--framework=5", "--output=out"}), 1);
    EXPECT_NE(err_.find("is not an ONNX model"), std::string::npos) << err_;
    EXPECT_FALSE(fs::exists(dir_ / "out.om"));
}

// ---- --singleop: single-operator models ----

const char* const kOps = R"([
  {"op": "Add",
   "input_desc": [{"format": "ND", "shape": [2, 3], "type": "float16"},
                  {"format": "ND", "shape": [2, 3], "type": "float16"}],
   "output_desc": [{"format": "ND", "shape": [2, 3], "type": "float16"}]},
  {"op": "Cast", "name": "cast_model",
   "input_desc": [{"format": "ND", "shape": [-1], "shape_range": [[1, 64]], "type": "float"}],
   "output_desc": [{"format": "ND", "shape": [-1], "type": "half"}],
   "attr": [{"name": "dst_type", "type": "int", "value": 1},
            {"name": "truncate", "type": "bool", "value": false}]},
  {"op": "ArgMaxV2",
   "input_desc": [{"format": "nd", "shape": [3, 4], "type": "float"},
                  {"format": "ND", "shape": [1], "type": "int32", "is_const": true,
                   "const_value": [1]}],
   "output_desc": [{"format": "ND", "shape": [3], "type": "int32"}],
   "attr": [{"name": "dtype", "type": "data_type", "value": "int32"}]}
])";

openacl::op::OpModelSpec ReadModel(const fs::path& path) {
    const std::string bytes = ReadFile(path);
    openacl::op::OpModelSpec spec;
    std::string error;
    EXPECT_TRUE(openacl::op::ParseOpModel(bytes.data(), bytes.size(), &spec, &error))
        << path << ": " << error;
    return spec;
}

TEST_F(AtcTest, SingleOpWritesOneModelPerOperator) {
    std::ofstream(dir_ / "ops.json") << kOps;
    ASSERT_EQ(Atc({"--singleop=ops.json", "--output=models", "--soc_version=Ascend310P3"}), 0)
        << err_;
    EXPECT_NE(out_.find("3 single-operator models written to models"), std::string::npos);
    // Unnamed operators get CANN's name: index, type, then dtype, format and dims of each tensor.
    const auto add = ReadModel(dir_ / "models/0_Add_1_2_2_3_1_2_2_3_1_2_2_3.om");
    EXPECT_EQ(add.desc.type, "Add");
    ASSERT_EQ(add.desc.inputs.size(), 2u);
    EXPECT_EQ(add.desc.inputs[1].dtype, ACL_FLOAT16);
    const auto cast = ReadModel(dir_ / "models/cast_model.om");
    EXPECT_EQ(cast.desc.outputs[0].dtype, ACL_FLOAT16);  // "half"
    ASSERT_EQ(cast.desc.inputs[0].shape_range.size(), 1u);
    EXPECT_EQ(cast.desc.inputs[0].shape_range[0][1], 64);
    EXPECT_EQ(cast.desc.attr.Text(), "{dst_type: int = 1, truncate: bool = false}");
    const auto argmax = ReadModel(dir_ / "models/2_ArgMaxV2_0_2_3_4_3_2_1_3_2_3.om");
    EXPECT_TRUE(argmax.desc.inputs[1].is_const);
    EXPECT_EQ(argmax.desc.inputs[1].const_data, (std::vector<uint8_t>{1, 0, 0, 0}));
    EXPECT_EQ(argmax.desc.attr.Text(), "{dtype: data_type = 3}");
}

TEST_F(AtcTest, ModeOneShowsASingleOperatorModel) {
    std::ofstream(dir_ / "ops.json") << kOps;
    ASSERT_EQ(Atc({"--singleop=ops.json", "--output=models"}), 0) << err_;
    ASSERT_EQ(Atc({"--mode=1", "--om=models/cast_model.om", "--json=cast.json"}), 0) << err_;
    const auto json = nlohmann::json::parse(ReadFile(dir_ / "cast.json"));
    EXPECT_EQ(json["op"], "Cast");
    EXPECT_EQ(json["input_desc"][0]["type"], "float");
    EXPECT_EQ(json["producer"].get<std::string>().rfind("openacl atc ", 0), 0u);
}

TEST_F(AtcTest, SingleOpNamesTheOperatorAndKeyAtFault) {
    std::ofstream(dir_ / "bad.json") << R"([{"op": "Add", "output_desc": [{"format": "ND",
        "shape": [2], "type": "float"}]}, {"op": "Add", "output_desc": [{"format": "ND",
        "shape": [2], "type": "complex7"}]}])";
    EXPECT_EQ(Atc({"--singleop=bad.json", "--output=models"}), 1);
    EXPECT_NE(err_.find("operator 1.output_desc[0].type is \"complex7\""), std::string::npos)
        << err_;
    EXPECT_FALSE(fs::exists(dir_ / "models"));
}

TEST_F(AtcTest, SingleOpTakesAListOfOperators) {
    std::ofstream(dir_ / "one.json") << R"({"op": "Add"})";
    EXPECT_EQ(Atc({"--singleop=one.json", "--output=models"}), 1);
    EXPECT_NE(err_.find("not a JSON list of operators"), std::string::npos) << err_;
}

TEST_F(AtcTest, SingleOpExcludesModelConversion) {
    std::ofstream(dir_ / "ops.json") << kOps;
    EXPECT_EQ(Atc({"--singleop=ops.json", "--model=" + kRelu, "--output=models"}), 1);
    EXPECT_NE(err_.find("--model belongs to model conversion"), std::string::npos) << err_;
}

}  // namespace
