// atc, the command: see atc.cpp. The binary also links the compiled engine, to time it on this
// machine and keep what it decided in the .om (model/engine_choices.h).
#include <google/protobuf/stubs/common.h>

#include <memory>
#include <string>

#include "atc.h"
#include "core/device.h"
#include "model/engine_choices.h"
#include "model/model_engine.h"
#include "model/plan.h"

namespace {

bool TimeEngine(const openacl::model::Plan& plan, openacl::model::EngineChoices* choices,
                std::string* error) {
    using openacl::model::ByImage;
    using openacl::model::ConvLayout;
    auto engine = openacl::model::CreateDnnlEngine(
        std::make_shared<const openacl::model::Plan>(plan), openacl::ComputeThreadsPerRun(), error,
        ConvLayout::kMeasure, ByImage::kMeasure, nullptr, choices);
    return engine != nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    GOOGLE_PROTOBUF_VERIFY_VERSION;
    SetEngineTimer(TimeEngine);
    return AtcMain(argc, argv);
}
