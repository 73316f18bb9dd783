// atc, the command: see atc.cpp.
#include <google/protobuf/stubs/common.h>

#include "atc.h"

int main(int argc, char** argv) {
    GOOGLE_PROTOBUF_VERIFY_VERSION;
    return AtcMain(argc, argv);
}
