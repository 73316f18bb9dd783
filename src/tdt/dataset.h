// TDT datasets (acltdtDataset): the ordered items one send carries, or one receive delivered. A
// dataset the program fills refers to the program's items and never frees them; a dataset a
// receive fills owns the items it was given, frees them with itself or at the next receive, and
// takes no items from the program.
#pragma once

#include <string>
#include <vector>

#include "acl/acl_tdt.h"

struct acltdtDataset {
    // Where the items' data lives: CANN sends a dataset from host memory or from device
    // memory, never from both.
    enum class Memory { kUnknown, kHost, kDevice };

    std::vector<acltdtDataItem*> items;
    std::string name;  // only the device side names datasets: "" here
    Memory memory = Memory::kUnknown;
    bool received = false;  // filled by acltdtReceiveTensor: owns its items
};

namespace openacl::tdt {

// A registered, empty dataset (nullptr when out of memory).
acltdtDataset* NewDataset();
// Unregisters and frees a live dataset with the items it owns; false when it is not live.
bool DeleteDataset(const acltdtDataset* dataset);
bool IsLiveDataset(const acltdtDataset* dataset);
// Frees the items a received dataset owns and empties it, for the next receive.
void ClearReceived(acltdtDataset* dataset);
// Where `data` lives, as acltdtAddDataItem classifies an item (kUnknown for no data).
acltdtDataset::Memory MemoryOf(const void* data);

}  // namespace openacl::tdt
