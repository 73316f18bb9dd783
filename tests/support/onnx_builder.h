// Builds small ONNX models in tests, so each test shows the graph it runs.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace test_onnx {

// A dimension: a size, or -1 for a symbolic one (named "N").
using Dims = std::vector<int64_t>;

class Builder {
 public:
    explicit Builder(int64_t opset = 13) {
        model_.set_ir_version(7);
        model_.set_producer_name("openacl-tests");
        auto* op = model_.add_opset_import();
        op->set_domain("");
        op->set_version(opset);
        model_.mutable_graph()->set_name("test");
    }
    Builder& Input(const std::string& name, const Dims& dims,
                   int32_t type = onnx::TensorProto::FLOAT) {
        Describe(model_.mutable_graph()->add_input(), name, dims, type);
        return *this;
    }
    Builder& Output(const std::string& name, const Dims& dims,
                    int32_t type = onnx::TensorProto::FLOAT) {
        Describe(model_.mutable_graph()->add_output(), name, dims, type);
        return *this;
    }
    Builder& Node(const std::string& op, std::initializer_list<std::string> inputs,
                  std::initializer_list<std::string> outputs, const std::string& domain = "") {
        auto* node = model_.mutable_graph()->add_node();
        node->set_op_type(op);
        if (!domain.empty()) {
            node->set_domain(domain);
            bool imported = false;
            for (const auto& op : model_.opset_import())
                imported |= op.domain() == domain;
            if (!imported) {
                auto* op = model_.add_opset_import();
                op->set_domain(domain);
                op->set_version(1);
            }
        }
        for (const auto& i : inputs)
            node->add_input(i);
        for (const auto& o : outputs)
            node->add_output(o);
        return *this;
    }
    // Names the last node added (compiled layers and dump files carry it).
    Builder& Name(const std::string& name) {
        LastNode()->set_name(name);
        return *this;
    }
    Builder& IntAttribute(const std::string& name, int64_t value) {
        auto* node =
            model_.mutable_graph()->mutable_node()->Mutable(model_.graph().node_size() - 1);
        auto* attr = node->add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::INT);
        attr->set_i(value);
        return *this;
    }
    Builder& IntsAttribute(const std::string& name, const std::vector<int64_t>& values) {
        auto* attr = LastNode()->add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : values)
            attr->add_ints(v);
        return *this;
    }
    Builder& FloatAttribute(const std::string& name, float value) {
        auto* attr = LastNode()->add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::FLOAT);
        attr->set_f(value);
        return *this;
    }
    Builder& FloatsAttribute(const std::string& name, const std::vector<float>& values) {
        auto* attr = LastNode()->add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::FLOATS);
        for (float v : values)
            attr->add_floats(v);
        return *this;
    }
    Builder& StringAttribute(const std::string& name, const std::string& value) {
        auto* attr = LastNode()->add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::STRING);
        attr->set_s(value);
        return *this;
    }
    // A graph attribute of the last node (If's branches): `branch`'s graph, whose inputs are
    // not used (a branch reads the outer graph's values by name) and whose outputs are.
    Builder& GraphAttribute(const std::string& name, const Builder& branch) {
        auto* attr = LastNode()->add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::GRAPH);
        *attr->mutable_g() = branch.model_.graph();
        attr->mutable_g()->clear_input();
        attr->mutable_g()->set_name(name);
        return *this;
    }
    Builder& Int64Weight(const std::string& name, const Dims& dims,
                         const std::vector<int64_t>& values) {
        auto* init = model_.mutable_graph()->add_initializer();
        init->set_name(name);
        init->set_data_type(onnx::TensorProto::INT64);
        for (int64_t d : dims)
            init->add_dims(d);
        for (int64_t v : values)
            init->add_int64_data(v);
        return *this;
    }
    Builder& Weight(const std::string& name, const Dims& dims, const std::vector<float>& values) {
        auto* init = model_.mutable_graph()->add_initializer();
        init->set_name(name);
        init->set_data_type(onnx::TensorProto::FLOAT);
        for (int64_t d : dims)
            init->add_dims(d);
        for (float v : values)
            init->add_float_data(v);
        return *this;
    }
    std::string Bytes() const { return model_.SerializeAsString(); }

 private:
    onnx::NodeProto* LastNode() {
        return model_.mutable_graph()->mutable_node()->Mutable(model_.graph().node_size() - 1);
    }
    static void Describe(onnx::ValueInfoProto* value, const std::string& name, const Dims& dims,
                         int32_t type) {
        value->set_name(name);
        auto* tensor = value->mutable_type()->mutable_tensor_type();
        tensor->set_elem_type(type);
        auto* shape = tensor->mutable_shape();
        for (int64_t d : dims) {
            if (d < 0) {
                shape->add_dim()->set_dim_param("N");
            } else {
                shape->add_dim()->set_dim_value(d);
            }
        }
    }

    onnx::ModelProto model_;
};

}  // namespace test_onnx
