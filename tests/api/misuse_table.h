// The misuse table: rows of wrong calls, each with the code the documentation gives for it.
// Every implemented function has rows (test MisuseTable.EveryImplementedFunctionHasRows checks
// the sources of test_bad_input.cpp and test_misuse_*.cpp against docs/API_COVERAGE.md), so
// adding a function means adding rows here too.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "recorded_error.h"

struct MisuseRow {
    std::string name;  // "function(arguments)": the function is what precedes '(' or ' '
    std::function<aclError()> call;
    aclError expected;
};

// Each row must fail with its code and leave a message that names the function, the code and
// what was wrong.
inline void ExpectEveryRowFails(const std::vector<MisuseRow>& rows) {
    for (const MisuseRow& row : rows) {
        SCOPED_TRACE(row.name);
        ClearErrMsgs();  // start from no messages
        aclrtGetLastError(ACL_RT_THREAD_LEVEL);
        EXPECT_EQ(row.call(), row.expected);
        const char* message = TakeErrMsg();
        ASSERT_NE(message, nullptr) << "no message was recorded";
        const std::string text = message;
        const std::string function = row.name.substr(0, row.name.find_first_of("( "));
        EXPECT_NE(text.find(function + " failed (error " + std::to_string(row.expected) + ")"),
                  std::string::npos)
            << "message: " << text;
        EXPECT_GT(text.size(), function.size() + 30) << "the message says what was wrong";
    }
}
