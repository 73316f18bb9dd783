// The log holds back floods of one line: a line repeated from the same place is written at
// most 10 times a second, and the copies held back are counted in a "last message repeated K
// more times" line when the second is over (as syslog does). A program whose report thread
// loops on aclrtProcessReport before any channel subscribes it must not write a line per turn.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "test_support.h"

namespace {

using LogRepeats = LogToStdoutTest;

void LogSame(int times) {
    for (int i = 0; i < times; ++i)
        aclAppLog(ACL_ERROR, "Poll", "loop.cpp", 12, "nothing to do");
}

}  // namespace

TEST_F(LogRepeats, ALineRepeatedInALoopIsWrittenTenTimesASecond) {
    const std::string out = Capture([] { LogSame(1000); });
    EXPECT_EQ(CountOccurrences(out, "Poll: nothing to do"), 10u) << out;
}

TEST_F(LogRepeats, DifferentLinesAreAllWritten) {
    const std::string out = Capture([] {
        for (int i = 0; i < 30; ++i)
            aclAppLog(ACL_ERROR, "Poll", "loop.cpp", 12, "frame %d done", i);
    });
    EXPECT_EQ(CountOccurrences(out, "Poll: frame "), 30u) << out;
}

TEST_F(LogRepeats, TheSameTextFromAnotherPlaceIsAnotherLine) {
    const std::string out = Capture([] {
        LogSame(20);
        for (int i = 0; i < 20; ++i)
            aclAppLog(ACL_ERROR, "Poll", "loop.cpp", 13, "nothing to do");
    });
    EXPECT_EQ(CountOccurrences(out, "Poll: nothing to do"), 20u) << out;
}

TEST_F(LogRepeats, TheHeldBackCopiesAreCountedOnceTheSecondIsOver) {
    const std::string out = Capture([] {
        LogSame(100);
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        aclAppLog(ACL_INFO, "Other", "other.cpp", 3, "later");
    });
    EXPECT_NE(out.find("last message repeated 90 more times"), std::string::npos) << out;
    EXPECT_NE(out.find("[loop.cpp:12]"), std::string::npos) << "the summary names the place";
    EXPECT_LT(out.find("last message repeated"), out.find("Other: later")) << out;
}

TEST_F(LogRepeats, ALineComingBackAloneAfterAFloodIsWritten) {
    const std::string out = Capture([] {
        LogSame(100);
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        LogSame(1);
    });
    // 10 copies, the summary (which quotes the line), and the line that came back.
    EXPECT_EQ(CountOccurrences(out, "Poll: nothing to do"), 12u) << out;
    EXPECT_NE(out.find("last message repeated 90 more times"), std::string::npos) << out;
}

TEST_F(LogRepeats, CountsStillHeldBackAreWrittenBeforeTheSettingsAreReloaded) {
    const std::string out = Capture([] {
        LogSame(50);
        aclFinalize();
        aclInit(nullptr);  // re-reads the log settings
    });
    EXPECT_NE(out.find("last message repeated 40 more times"), std::string::npos) << out;
}
