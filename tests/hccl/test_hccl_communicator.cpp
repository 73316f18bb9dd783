// Communicators: HcclCommInitAll, configurations of every layout size, names, sub-
// communicators, rank queries, process-wide settings, error strings, suspension and the
// state callbacks.
#include <mutex>
#include <set>

#include "hccl_test_support.h"

namespace {

using namespace hccl_test;

// Overwrites the size (and version) HcclCommConfigInit wrote, as a program built against an
// older header (or torch_npu, which writes 32) passes them.
void SetConfigSize(HcclCommConfig* config, size_t size, uint32_t version) {
    std::memcpy(config->reserved, &size, sizeof size);
    std::memcpy(config->reserved + sizeof size + sizeof(uint32_t), &version, sizeof version);
}

std::string NameOf(HcclComm comm) {
    char name[COMM_NAME_MAX_LENGTH] = {};
    EXPECT_EQ(HcclGetCommName(comm, name), HCCL_SUCCESS);
    return name;
}

TEST_F(HcclTest, InitAllMakesOneRankPerListedDeviceInListOrder) {
    int32_t devices[3] = {2, 0, 3};
    HcclComm comms[3] = {};
    ASSERT_EQ(HcclCommInitAll(3, devices, comms), HCCL_SUCCESS);
    const std::string name = NameOf(comms[0]);
    for (uint32_t i = 0; i < 3; ++i) {
        uint32_t size = 0, rank = 99;
        EXPECT_EQ(HcclGetRankSize(comms[i], &size), HCCL_SUCCESS);
        EXPECT_EQ(HcclGetRankId(comms[i], &rank), HCCL_SUCCESS);
        EXPECT_EQ(size, 3u);
        EXPECT_EQ(rank, i);
        EXPECT_EQ(NameOf(comms[i]), name) << "the ranks of one communicator share its name";
    }
    // Rank i is on devices[i]: each thread uses its rank's device.
    std::vector<std::thread> threads;
    for (uint32_t i = 0; i < 3; ++i) {
        threads.emplace_back([&, i] {
            ASSERT_EQ(aclrtSetDevice(devices[i]), ACL_SUCCESS);
            aclrtStream stream = nullptr;
            ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
            Rank r;
            void* buf = r.Upload(std::vector<int32_t>{devices[i]});
            EXPECT_EQ(
                HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, comms[i], stream),
                HCCL_SUCCESS);
            EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
            EXPECT_EQ(r.Download<int32_t>(buf, 1)[0], 5);
            aclrtFree(buf);
            EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
            EXPECT_EQ(HcclCommDestroy(comms[i]), HCCL_SUCCESS);
        });
    }
    for (std::thread& t : threads)
        t.join();
}

TEST_F(HcclTest, TwoCommunicatorsOfTheSameDevicesAreIndependent) {
    // Two communicators over devices 0 and 1, each on its own stream: rank 0 uses A then B,
    // rank 1 B then A. Neither waits for the other's order.
    int32_t devices[2] = {0, 1};
    HcclComm a[2] = {}, b[2] = {};
    ASSERT_EQ(HcclCommInitAll(2, devices, a), HCCL_SUCCESS);
    ASSERT_EQ(HcclCommInitAll(2, devices, b), HCCL_SUCCESS);
    EXPECT_NE(NameOf(a[0]), NameOf(b[0]));
    std::vector<std::thread> threads;
    for (uint32_t i = 0; i < 2; ++i) {
        threads.emplace_back([&, i] {
            ASSERT_EQ(aclrtSetDevice(devices[i]), ACL_SUCCESS);
            aclrtStream sa = nullptr, sb = nullptr;
            ASSERT_EQ(aclrtCreateStream(&sa), ACL_SUCCESS);
            ASSERT_EQ(aclrtCreateStream(&sb), ACL_SUCCESS);
            Rank r;
            void* x = r.Upload(std::vector<int32_t>{1});
            void* y = r.Upload(std::vector<int32_t>{10});
            auto on_a = [&] {
                EXPECT_EQ(HcclAllReduce(x, x, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, a[i], sa),
                          HCCL_SUCCESS);
            };
            auto on_b = [&] {
                EXPECT_EQ(HcclAllReduce(y, y, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, b[i], sb),
                          HCCL_SUCCESS);
            };
            if (i == 0) {
                on_a();
                on_b();
            } else {
                on_b();
                on_a();
            }
            EXPECT_EQ(aclrtSynchronizeStream(sa), ACL_SUCCESS);
            EXPECT_EQ(aclrtSynchronizeStream(sb), ACL_SUCCESS);
            EXPECT_EQ(r.Download<int32_t>(x, 1)[0], 2);
            EXPECT_EQ(r.Download<int32_t>(y, 1)[0], 20);
            aclrtFree(x);
            aclrtFree(y);
            EXPECT_EQ(aclrtDestroyStream(sa), ACL_SUCCESS);
            EXPECT_EQ(aclrtDestroyStream(sb), ACL_SUCCESS);
            EXPECT_EQ(HcclCommDestroy(a[i]), HCCL_SUCCESS);
            EXPECT_EQ(HcclCommDestroy(b[i]), HCCL_SUCCESS);
        });
    }
    for (std::thread& t : threads)
        t.join();
}

TEST_F(HcclTest, InitAllRefusesDuplicateAndUnknownDevices) {
    HcclComm comms[2] = {};
    int32_t twice[2] = {1, 1};
    EXPECT_EQ(HcclCommInitAll(2, twice, comms), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"both device 1"}));
    int32_t unknown[2] = {0, 7};
    EXPECT_EQ(HcclCommInitAll(2, unknown, comms), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"devices[1] is 7"}));
    EXPECT_EQ(HcclCommInitAll(0, twice, comms), HCCL_E_PARA);
    EXPECT_EQ(HcclCommInitAll(2, nullptr, comms), HCCL_E_PTR);
    EXPECT_EQ(HcclCommInitAll(2, unknown, nullptr), HCCL_E_PTR);
}

TEST_F(HcclTest, ConfigOfTheCurrentLayoutNamesTheCommunicator) {
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    std::strcpy(config.hcclCommName, "tensor_parallel");
    RunRanks(
        2,
        [](Rank& r) {
            EXPECT_EQ(NameOf(r.comm), "tensor_parallel");
            HcclComm found = nullptr;
            EXPECT_EQ(HcclCommGetHandleWithName("tensor_parallel", &found), HCCL_SUCCESS);
            EXPECT_EQ(found, r.comm) << "the name finds this thread's device's rank";
        },
        &config);
}

TEST_F(HcclTest, ConfigOfVersion6LayoutIsReadUpToItsSize) {
    // A 312-byte config: the name is read; the execution timeout (v10) is beyond it and is
    // not, even though the bytes there hold a value that would be refused.
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    SetConfigSize(&config, 312, 6);
    std::strcpy(config.hcclCommName, "old_layout");
    config.hcclExecTimeOut = -5;  // would be refused if it were read
    RunRanks(
        2, [](Rank& r) { EXPECT_EQ(NameOf(r.comm), "old_layout"); }, &config);
}

TEST_F(HcclTest, ConfigOf32BytesHoldsOnlyBufferSizeAndDeterminism) {
    // torch_npu's form when the library lacks names: the name field is past the size.
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    SetConfigSize(&config, 32, HCCL_COMM_CONFIG_VERSION);
    config.hcclBufferSize = 400;
    config.hcclDeterministic = 1;
    std::strcpy(config.hcclCommName, "ignored");
    RunRanks(
        2, [](Rank& r) { EXPECT_NE(NameOf(r.comm), "ignored"); }, &config);
}

TEST_F(HcclTest, ConfigOf2240BytesMayNameAndTimeTheCommunicator) {
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    ASSERT_EQ(sizeof config, 2240u);
    config.hcclExecTimeOut = 30;
    config.hcclBufferSize = 64;
    std::strcpy(config.hcclCommName, "v10");
    RunRanks(
        3,
        [](Rank& r) {
            EXPECT_EQ(NameOf(r.comm), "v10");
            void* buf = r.Upload(std::vector<int32_t>{1});
            EXPECT_EQ(
                HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
                HCCL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            EXPECT_EQ(r.Download<int32_t>(buf, 1)[0], 3);
            aclrtFree(buf);
        },
        &config);
}

TEST_F(HcclTest, ConfigNotInitialisedIsRefused) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    HcclRootInfo root;
    ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
    HcclCommConfig config;
    std::memset(&config, 0, sizeof config);
    HcclComm comm = nullptr;
    EXPECT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"HcclCommConfigInit"}));
    EXPECT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, nullptr, &comm), HCCL_E_PTR);
}

TEST_F(HcclTest, ConfigFieldsOutOfRangeAreRefused) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    HcclRootInfo root;
    ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
    HcclComm comm = nullptr;
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    config.hcclDeterministic = 3;
    EXPECT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"hcclDeterministic"}));
    HcclCommConfigInit(&config);
    config.hcclBufferSize = 0;
    EXPECT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"hcclBufferSize"}));
    HcclCommConfigInit(&config);
    config.hcclExecTimeOut = -2;
    EXPECT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"hcclExecTimeOut"}));
    HcclCommConfigInit(&config);
    std::memset(config.hcclCommName, 'x', sizeof config.hcclCommName);
    EXPECT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"hcclCommName"}));
    // The root info is still good after refused attempts.
    HcclCommConfigInit(&config);
    EXPECT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), HCCL_SUCCESS);
    EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
}

TEST_F(HcclTest, DefaultNamesDifferBetweenCommunicators) {
    std::string first, second;
    RunRanks(1, [&](Rank& r) { first = NameOf(r.comm); });
    RunRanks(1, [&](Rank& r) { second = NameOf(r.comm); });
    EXPECT_FALSE(first.empty());
    EXPECT_NE(first, second);
}

TEST_F(HcclTest, ANameIsUniqueOnADevice) {
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    std::strcpy(config.hcclCommName, "taken");
    RunRanks(
        1,
        [&](Rank&) {
            HcclRootInfo root;
            ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
            HcclComm again = nullptr;
            EXPECT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &config, &again), HCCL_E_PARA);
            EXPECT_TRUE(ErrorMentions({"taken", "device 0"}));
        },
        &config);
}

TEST_F(HcclTest, GetHandleWithNameFindsLiveCommunicatorsOnly) {
    HcclComm found = nullptr;
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(HcclCommGetHandleWithName("nobody", &found), HCCL_E_NOT_FOUND);
    EXPECT_TRUE(ErrorMentions({"nobody"}));
    EXPECT_EQ(HcclCommGetHandleWithName(nullptr, &found), HCCL_E_PTR);
    EXPECT_EQ(HcclCommGetHandleWithName("nobody", nullptr), HCCL_E_PTR);
    std::string name;
    RunRanks(1, [&](Rank& r) { name = NameOf(r.comm); });
    EXPECT_EQ(HcclCommGetHandleWithName(name.c_str(), &found), HCCL_E_NOT_FOUND)
        << "a destroyed communicator's name finds nothing";
}

TEST_F(HcclTest, RankQueriesRefuseNullOutputs) {
    RunRanks(2, [](Rank& r) {
        uint32_t value = 0;
        EXPECT_EQ(HcclGetRankSize(r.comm, nullptr), HCCL_E_PTR);
        EXPECT_EQ(HcclGetRankId(r.comm, nullptr), HCCL_E_PTR);
        EXPECT_EQ(HcclGetCommName(r.comm, nullptr), HCCL_E_PTR);
        EXPECT_EQ(HcclGetRankSize(r.comm, &value), HCCL_SUCCESS);
        EXPECT_EQ(value, 2u);
        EXPECT_EQ(HcclGetRankId(r.comm, &value), HCCL_SUCCESS);
        EXPECT_EQ(value, r.rank);
    });
}

TEST_F(HcclTest, SubCommunicatorHasTheListedMembersInListOrder) {
    RunRanks(4, [](Rank& r) {
        // Members 1 and 3 of the global communicator; 0 and 2 are not members.
        uint32_t members[2] = {1, 3};
        const bool member = r.rank == 1 || r.rank == 3;
        HcclComm sub = reinterpret_cast<HcclComm>(0x1);
        EXPECT_EQ(HcclCreateSubCommConfig(&r.comm, 2, member ? members : nullptr, member ? 7 : 0,
                                          r.rank == 3 ? 1 : 0, nullptr, &sub),
                  HCCL_SUCCESS);
        if (!member) {
            EXPECT_EQ(sub, nullptr);
            return;
        }
        ASSERT_NE(sub, nullptr);
        uint32_t size = 0, rank = 99;
        EXPECT_EQ(HcclGetRankSize(sub, &size), HCCL_SUCCESS);
        EXPECT_EQ(HcclGetRankId(sub, &rank), HCCL_SUCCESS);
        EXPECT_EQ(size, 2u);
        EXPECT_EQ(rank, r.rank == 3 ? 1u : 0u);
        EXPECT_EQ(NameOf(sub), NameOf(r.comm) + "_sub_7");
        // Sub-rank 0 (global rank 1) gathers first.
        void* send = r.Upload(std::vector<uint32_t>{r.rank});
        void* recv = r.Upload(std::vector<uint32_t>{0, 0});
        EXPECT_EQ(HcclAllGather(send, recv, 1, HCCL_DATA_TYPE_UINT32, sub, r.stream), HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<uint32_t>(recv, 2), (std::vector<uint32_t>{1, 3}));
        EXPECT_EQ(HcclCommDestroy(sub), HCCL_SUCCESS);
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, SubCommunicatorsOfDisjointMembersWorkSideBySide) {
    RunRanks(4, [](Rank& r) {
        // {0, 2} and {1, 3}, with their own ids, each reducing its members' ranks.
        uint32_t even[2] = {0, 2}, odd[2] = {1, 3};
        HcclComm sub = nullptr;
        EXPECT_EQ(HcclCreateSubCommConfig(&r.comm, 2, r.rank % 2 == 0 ? even : odd, r.rank % 2,
                                          r.rank / 2, nullptr, &sub),
                  HCCL_SUCCESS);
        ASSERT_NE(sub, nullptr);
        void* buf = r.Upload(std::vector<uint32_t>{r.rank});
        EXPECT_EQ(HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_UINT32, HCCL_REDUCE_SUM, sub, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<uint32_t>(buf, 1)[0], r.rank % 2 == 0 ? 2u : 4u);
        EXPECT_EQ(HcclCommDestroy(sub), HCCL_SUCCESS);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, SubCommunicatorRefusesAMisplacedSubRankId) {
    RunRanks(2, [](Rank& r) {
        uint32_t members[2] = {0, 1};
        uint32_t unsorted[2] = {1, 0};
        HcclComm sub = nullptr;
        // rankIds[subCommRankId] must be this rank.
        EXPECT_EQ(HcclCreateSubCommConfig(&r.comm, 2, members, 1, 1 - r.rank, nullptr, &sub),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"subCommRankId"}));
        EXPECT_EQ(HcclCreateSubCommConfig(&r.comm, 2, unsorted, 1, r.rank, nullptr, &sub),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"ascending"}));
        EXPECT_EQ(HcclCreateSubCommConfig(&r.comm, 3, members, 1, r.rank, nullptr, &sub),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"rankNum"}));
        EXPECT_EQ(HcclCreateSubCommConfig(nullptr, 2, members, 1, r.rank, nullptr, &sub),
                  HCCL_E_PTR);
    });
}

TEST_F(HcclTest, ConfigCapabilityCoversNameAndExecutionTimeout) {
    const uint32_t capability = HcclGetCommConfigCapability();
    EXPECT_GT(capability, static_cast<uint32_t>(HCCL_COMM_CONFIG_COMM_NAME));
    EXPECT_GT(capability, static_cast<uint32_t>(HCCL_COMM_CONFIG_EXEC_TIMEOUT));
    EXPECT_LE(capability, static_cast<uint32_t>(HCCL_COMM_CONFIG_RESERVED));
}

TEST_F(HcclTest, DeterminismSettingIsKeptForTheProcess) {
    HcclConfigValue value;
    value.value = 1;
    EXPECT_EQ(HcclSetConfig(HCCL_DETERMINISTIC, value), HCCL_SUCCESS);
    HcclConfigValue read;
    read.value = -1;
    EXPECT_EQ(HcclGetConfig(HCCL_DETERMINISTIC, &read), HCCL_SUCCESS);
    EXPECT_EQ(read.value, 1);
    value.value = 3;
    EXPECT_EQ(HcclSetConfig(HCCL_DETERMINISTIC, value), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"HCCL_DETERMINISTIC"}));
    EXPECT_EQ(HcclSetConfig(HCCL_CONFIG_RESERVED, value), HCCL_E_PARA);
    EXPECT_EQ(HcclGetConfig(HCCL_CONFIG_RESERVED, &read), HCCL_E_PARA);
    EXPECT_EQ(HcclGetConfig(HCCL_DETERMINISTIC, nullptr), HCCL_E_PTR);
    EXPECT_EQ(HcclGetConfig(HCCL_DETERMINISTIC, &read), HCCL_SUCCESS);
    EXPECT_EQ(read.value, 1) << "a refused setting changes nothing";
}

TEST_F(HcclTest, EveryResultCodeHasItsOwnErrorString) {
    std::set<std::string> seen;
    for (int code = HCCL_SUCCESS; code <= HCCL_E_OOM; ++code) {
        const char* text = HcclGetErrorString(static_cast<HcclResult>(code));
        ASSERT_NE(text, nullptr) << code;
        EXPECT_NE(std::string(text), "unknown error") << code;
        EXPECT_TRUE(seen.insert(text).second) << code << " repeats \"" << text << "\"";
    }
    const char* in_status = HcclGetErrorString(HCCL_E_IN_STATUS);
    EXPECT_TRUE(seen.insert(in_status).second) << in_status;
    EXPECT_STREQ(HcclGetErrorString(HCCL_E_RESERVED), "unknown error");
    EXPECT_STREQ(HcclGetErrorString(static_cast<HcclResult>(-1)), "unknown error");
}

TEST_F(HcclTest, SuspendedCommunicatorRefusesCollectivesUntilResumed) {
    RunRanks(2, [](Rank& r) {
        const std::string name = NameOf(r.comm);
        HcclCommStatus status = HCCL_COMM_STATUS_INVALID;
        EXPECT_EQ(HcclCommGetStatus(name.c_str(), &status), HCCL_SUCCESS);
        EXPECT_EQ(status, HCCL_COMM_STATUS_READY);
        EXPECT_EQ(HcclCommSuspend(r.comm), HCCL_SUCCESS);
        EXPECT_EQ(HcclCommGetStatus(name.c_str(), &status), HCCL_SUCCESS);
        EXPECT_EQ(status, HCCL_COMM_STATUS_SUSPENDING);
        void* buf = r.Upload(std::vector<int32_t>{static_cast<int32_t>(r.rank + 1)});
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_E_SUSPENDING);
        EXPECT_TRUE(ErrorMentions({"suspended", "HcclCommResume"}));
        EXPECT_EQ(HcclBarrier(r.comm, r.stream), HCCL_E_SUSPENDING);
        EXPECT_EQ(HcclCommResume(r.comm), HCCL_SUCCESS);
        EXPECT_EQ(HcclCommGetStatus(name.c_str(), &status), HCCL_SUCCESS);
        EXPECT_EQ(status, HCCL_COMM_STATUS_READY);
        // The refused calls took no turn: the ranks are still in step.
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<int32_t>(buf, 1)[0], 3);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, GetStatusOfAnUnknownNameIsNotFound) {
    HcclCommStatus status = HCCL_COMM_STATUS_READY;
    EXPECT_EQ(HcclCommGetStatus("missing", &status), HCCL_E_NOT_FOUND);
    EXPECT_TRUE(ErrorMentions({"missing"}));
    EXPECT_EQ(HcclCommGetStatus(nullptr, &status), HCCL_E_PTR);
    EXPECT_EQ(HcclCommGetStatus("missing", nullptr), HCCL_E_PTR);
}

struct PhaseLog {
    std::mutex mutex;
    std::vector<std::pair<HcclComm, HcclCommStatePhase>> calls;
};

HcclResult RecordPhase(HcclComm comm, HcclCommStatePhase phase, void* args) {
    auto* log = static_cast<PhaseLog*>(args);
    std::lock_guard lock(log->mutex);
    log->calls.emplace_back(comm, phase);
    return HCCL_SUCCESS;
}

TEST_F(HcclTest, StateCallbacksSeeDestroyAndResumeOfEachCommunicator) {
    PhaseLog log;
    ASSERT_EQ(HcclCommRegCommStateCallback("test", RecordPhase, &log), HCCL_SUCCESS);
    HcclComm handle = nullptr;
    RunRanks(1, [&](Rank& r) {
        handle = r.comm;
        EXPECT_EQ(HcclCommSuspend(r.comm), HCCL_SUCCESS);
        EXPECT_EQ(HcclCommResume(r.comm), HCCL_SUCCESS);
    });
    using Call = std::pair<HcclComm, HcclCommStatePhase>;
    EXPECT_EQ(log.calls, (std::vector<Call>{{handle, HCCL_COMM_STATE_PHASE_RESUME_PRE},
                                            {handle, HCCL_COMM_STATE_PHASE_RESUME_POST},
                                            {handle, HCCL_COMM_STATE_PHASE_DESTROY_PRE},
                                            {handle, HCCL_COMM_STATE_PHASE_DESTROY_POST}}));
    // A null callback unregisters.
    ASSERT_EQ(HcclCommRegCommStateCallback("test", nullptr, nullptr), HCCL_SUCCESS);
    log.calls.clear();
    RunRanks(1, [](Rank&) {});
    EXPECT_TRUE(log.calls.empty());
    EXPECT_EQ(HcclCommRegCommStateCallback(nullptr, RecordPhase, &log), HCCL_E_PTR);
}

TEST_F(HcclTest, ExpansionModeIsWhatTheConfigSaid) {
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    config.hcclOpExpansionMode = HCCL_OP_EXPANSION_MODE_AIV;
    RunRanks(
        1,
        [](Rank& r) {
            HcclOpExpansionMode mode = HCCL_OP_EXPANSION_MODE_INVALID;
            EXPECT_EQ(
                HcclConfigGetInfo(r.comm, HCCL_CONFIG_TYPE_OP_EXPANSION_MODE, sizeof mode, &mode),
                HCCL_SUCCESS);
            EXPECT_EQ(mode, HCCL_OP_EXPANSION_MODE_AIV);
            EXPECT_EQ(HcclConfigGetInfo(r.comm, HCCL_CONFIG_TYPE_OP_EXPANSION_MODE, 2, &mode),
                      HCCL_E_PARA);
            EXPECT_EQ(HcclConfigGetInfo(r.comm, HCCL_CONFIG_TYPE_HCCL_ALGO, sizeof mode, &mode),
                      HCCL_E_NOT_SUPPORT);
        },
        &config);
}

}  // namespace
