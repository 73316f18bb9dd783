// Compiled as C++17 and as C++20 with strict warnings: the header and every template a user
// is likely to instantiate.
#include "openacl/acl.hpp"

#include <array>
#include <vector>

int acl_hpp_instantiates(acl::StreamRef stream, acl::Kernel kernel, const acl::Model& model) {
    auto device = acl::DeviceBuffer<float>::create(4);
    auto pinned = acl::PinnedHostBuffer<float>::create(4);
    std::vector<float> vector(4);
    std::array<float, 4> array{};
    float c_array[4] = {};
    const auto& const_device = device;
    acl::copy(device, vector);
    acl::copy(device, array);
    acl::copy(device, c_array);
    acl::copy(pinned, const_device);
    acl::copy(device.span().first(2), pinned.span().subspan(2));
    acl::fill_bytes(device, 0);
    stream.copy(vector, device);
    stream.fill_bytes(pinned, 1);
    stream.launch(kernel, 1);
    stream.launch(kernel, 8, device, const_device, device.span(), uint32_t{1}, 2.0f, 3.0, nullptr,
                  static_cast<void*>(nullptr));
    auto event = acl::Event::create();
    stream.record(event);
    stream.wait(event);
    stream.host_function([] {});
    stream.callback([v = std::vector<int>(3)] { (void)v; }, false);
    auto inputs = acl::Dataset::create();
    auto outputs = acl::Dataset::create();
    inputs.add(const_device).add(device.span());
    stream.execute(model, inputs, outputs);
    acl::Expected<acl::Context> context = acl::Context::try_create(0);
    if (!context) return context.error().code;
    acl::CurrentContext guard(*context);
    return 0;
}
