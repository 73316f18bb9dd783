#include "backend/accelerator.h"

namespace openacl::backend {

namespace {

AcceleratorFactory& Factory() {
    static auto* factory = new AcceleratorFactory;
    return *factory;
}

}  // namespace

void SetAcceleratorFactoryForTesting(AcceleratorFactory factory) {
    Factory() = std::move(factory);
}

const AcceleratorFactory& AcceleratorFactoryForTesting() {
    return Factory();
}

}  // namespace openacl::backend
