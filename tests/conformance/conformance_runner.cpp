// ONNX backend-test conformance of the model API: every case of the ONNX test data (a model.onnx
// and test_data_set_*/input_N.pb, output_N.pb) is loaded, executed and checked through the
// public AscendCL API, each in its own child process so that a crash or a hang in the engine
// is recorded instead of ending the run. Writes a per-group Markdown summary to stdout (and to
// --markdown=PATH), with how many cases each engine took and passed, and one line per case
// (with its engine) to --tsv=PATH; --min-pass=N fails the run when fewer
// cases pass. See docs/CONFORMANCE.md.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "model/compiler/compiler.h"
#include "onnx_tensor.h"

namespace fs = std::filesystem;
using conformance::HostTensor;

namespace {

const char* const kDefaultData = "/usr/share/libonnx-testdata/data";
const char* const kDefaultGroups[] = {"node", "pytorch-converted", "pytorch-operator", "simple"};
const char* const kStatuses[] = {"passed", "failed", "unsupported", "error", "crashed", "timeout"};

struct Case {
    std::string group;
    std::string name;
    fs::path dir;
};

struct Outcome {
    std::string status;
    std::string reason;
    std::string engine = "-";  // "onednn" or "opencv-dnn": which engine the model got
};

// The engine a model gets: the runtime compiles it with this same compiler and falls back to
// OpenCV DNN when the compiler does not cover the graph.
std::string EngineFor(const fs::path& model) {
    std::ifstream file(model, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    openacl::model::CompileResult result;
    return openacl::model::CompileOnnx(bytes, openacl::model::CompileOptions{}, &result)
               ? "onednn"
               : "opencv-dnn";
}

std::string OneLine(std::string text) {
    for (char& c : text) {
        if (c == '\n' || c == '\t' || c == '\r') c = ' ';
    }
    return text;
}

std::string RecentError() {
    const char* message = aclGetRecentErrMsg();
    return message ? OneLine(message) : std::string();
}

std::string Code(aclError code) {
    return "error " + std::to_string(code);
}

// The ACL resources of one case, released in reverse order whatever happens.
class CaseRun {
 public:
    ~CaseRun() {
        if (input_) DestroyDataset(input_);
        if (output_) DestroyDataset(output_);
        for (void* p : device_)
            aclrtFree(p);
        if (desc_) aclmdlDestroyDesc(desc_);
        if (loaded_) aclmdlUnload(model_id_);
    }

    Outcome Run(const Case& c) {
        const std::string model_path = (c.dir / "model.onnx").string();
        aclError rc = aclmdlLoadFromFile(model_path.c_str(), &model_id_);
        if (rc != ACL_SUCCESS) return {"unsupported", "load: " + Code(rc) + ": " + RecentError()};
        loaded_ = true;
        desc_ = aclmdlCreateDesc();
        if (!desc_) return {"error", "aclmdlCreateDesc failed"};
        if ((rc = aclmdlGetDesc(desc_, model_id_)) != ACL_SUCCESS) {
            return {"error", "aclmdlGetDesc: " + Code(rc) + ": " + RecentError()};
        }
        std::vector<fs::path> sets;
        for (const auto& entry : fs::directory_iterator(c.dir)) {
            if (entry.is_directory() &&
                entry.path().filename().string().rfind("test_data_set", 0) == 0) {
                sets.push_back(entry.path());
            }
        }
        std::sort(sets.begin(), sets.end());
        if (sets.empty()) return {"error", "the case has no test_data_set"};
        for (const fs::path& set : sets) {
            Outcome outcome = RunSet(set);
            if (outcome.status != "passed") {
                if (sets.size() > 1)
                    outcome.reason = set.filename().string() + ": " + outcome.reason;
                return outcome;
            }
        }
        return {"passed", ""};
    }

 private:
    static void DestroyDataset(aclmdlDataset* dataset) {
        for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(dataset); ++i) {
            aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dataset, i));
        }
        aclmdlDestroyDataset(dataset);
    }

    void* DeviceBuffer(size_t bytes) {
        void* p = nullptr;
        if (aclrtMalloc(&p, std::max<size_t>(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
            return nullptr;
        }
        device_.push_back(p);
        return p;
    }

    static bool LoadAll(const fs::path& set, const char* prefix, std::vector<HostTensor>* out,
                        std::string* error) {
        for (size_t i = 0;; ++i) {
            fs::path path = set / (prefix + std::to_string(i) + ".pb");
            if (!fs::exists(path)) return true;
            HostTensor t;
            if (!conformance::LoadTensor(path.string(), &t, error)) return false;
            out->push_back(std::move(t));
        }
    }

    Outcome RunSet(const fs::path& set) {
        std::vector<HostTensor> inputs, expected;
        std::string error;
        if (!LoadAll(set, "input_", &inputs, &error) ||
            !LoadAll(set, "output_", &expected, &error)) {
            return {"unsupported", "test data: " + error};
        }
        const size_t num_inputs = aclmdlGetNumInputs(desc_);
        const size_t num_outputs = aclmdlGetNumOutputs(desc_);
        if (num_inputs != inputs.size() || num_outputs != expected.size()) {
            return {"error", "the model has " + std::to_string(num_inputs) + " inputs and " +
                                 std::to_string(num_outputs) + " outputs, the test data " +
                                 std::to_string(inputs.size()) + " and " +
                                 std::to_string(expected.size())};
        }
        if (input_) DestroyDataset(input_);
        if (output_) DestroyDataset(output_);
        input_ = aclmdlCreateDataset();
        output_ = aclmdlCreateDataset();
        if (!input_ || !output_) return {"error", "aclmdlCreateDataset failed"};

        for (size_t i = 0; i < num_inputs; ++i) {
            const HostTensor& t = inputs[i];
            const aclDataType type = aclmdlGetInputDataType(desc_, i);
            // The test data stores bfloat16 as uint16: bytes of the same size are taken as is.
            if (conformance::ElementBytes(type) != conformance::ElementBytes(t.type)) {
                return {"error", "input " + std::to_string(i) + ": the model takes ACL type " +
                                     std::to_string(type) + ", the test data has " +
                                     std::to_string(t.type)};
            }
            void* dev = DeviceBuffer(t.bytes.size());
            if (!dev) return {"error", "aclrtMalloc failed: " + RecentError()};
            aclError rc = ACL_SUCCESS;
            if (!t.bytes.empty()) {
                rc = aclrtMemcpy(dev, t.bytes.size(), t.bytes.data(), t.bytes.size(),
                                 ACL_MEMCPY_HOST_TO_DEVICE);
            }
            if (rc != ACL_SUCCESS)
                return {"error", "aclrtMemcpy: " + Code(rc) + ": " + RecentError()};
            aclDataBuffer* buffer = aclCreateDataBuffer(dev, t.bytes.size());
            if (!buffer || aclmdlAddDatasetBuffer(input_, buffer) != ACL_SUCCESS) {
                if (buffer) aclDestroyDataBuffer(buffer);
                return {"error", "input dataset: " + RecentError()};
            }
            // A dynamic input is told its actual shape.
            aclmdlIODims dims{};
            bool same = aclmdlGetInputDims(desc_, i, &dims) == ACL_SUCCESS &&
                        dims.dimCount == t.dims.size() &&
                        std::equal(t.dims.begin(), t.dims.end(), dims.dims);
            if (!same) {
                aclTensorDesc* td = aclCreateTensorDesc(type, static_cast<int>(t.dims.size()),
                                                        t.dims.data(), ACL_FORMAT_ND);
                aclError set_rc =
                    td ? aclmdlSetDatasetTensorDesc(input_, td, i) : ACL_ERROR_BAD_ALLOC;
                if (td) aclDestroyTensorDesc(td);
                if (set_rc != ACL_SUCCESS) {
                    return {"error",
                            "aclmdlSetDatasetTensorDesc: " + Code(set_rc) + ": " + RecentError()};
                }
            }
        }
        std::vector<size_t> capacity(num_outputs);
        for (size_t o = 0; o < num_outputs; ++o) {
            // A dynamic output's size is 0 or a bound; the expected output says what it needs.
            capacity[o] = std::max(aclmdlGetOutputSizeByIndex(desc_, o), expected[o].bytes.size());
            void* dev = DeviceBuffer(capacity[o]);
            if (!dev) return {"error", "aclrtMalloc failed: " + RecentError()};
            aclDataBuffer* buffer = aclCreateDataBuffer(dev, capacity[o]);
            if (!buffer || aclmdlAddDatasetBuffer(output_, buffer) != ACL_SUCCESS) {
                if (buffer) aclDestroyDataBuffer(buffer);
                return {"error", "output dataset: " + RecentError()};
            }
        }

        aclError rc = aclmdlExecute(model_id_, input_, output_);
        if (rc != ACL_SUCCESS) return {"error", "execute: " + Code(rc) + ": " + RecentError()};

        for (size_t o = 0; o < num_outputs; ++o) {
            HostTensor& want = expected[o];
            const aclDataType type = aclmdlGetOutputDataType(desc_, o);
            const std::string which = "output " + std::to_string(o);
            if (conformance::ElementBytes(type) != conformance::ElementBytes(want.type)) {
                return {"failed", which + ": type " + std::to_string(type) + ", expected " +
                                      std::to_string(want.type)};
            }
            if (type != want.type) want.type = type;  // bfloat16 stored as uint16
            std::vector<int64_t> got_dims;
            aclmdlIODims dims{};
            if (aclmdlGetCurOutputDims(desc_, o, &dims) == ACL_SUCCESS) {
                got_dims.assign(dims.dims, dims.dims + dims.dimCount);
            } else if (aclTensorDesc* td = aclmdlGetDatasetTensorDesc(output_, o)) {
                for (size_t d = 0; d < aclGetTensorDescNumDims(td); ++d) {
                    int64_t v = 0;
                    aclGetTensorDescDimV2(td, d, &v);
                    got_dims.push_back(v);
                }
            } else {
                return {"error", which + ": no way to learn its shape: " + RecentError()};
            }
            if (got_dims != want.dims) {
                return {"failed", which + ": shape " + conformance::DimsText(got_dims) +
                                      ", expected " + conformance::DimsText(want.dims)};
            }
            std::vector<uint8_t> got(want.bytes.size());
            void* dev = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(output_, o));
            if (!got.empty() && (rc = aclrtMemcpy(got.data(), got.size(), dev, got.size(),
                                                  ACL_MEMCPY_DEVICE_TO_HOST)) != ACL_SUCCESS) {
                return {"error", which + ": aclrtMemcpy: " + Code(rc) + ": " + RecentError()};
            }
            const size_t count =
                want.bytes.size() / std::max<size_t>(conformance::ElementBytes(type), 1);
            conformance::Comparison cmp =
                conformance::Compare(type, got.data(), want.bytes.data(), count);
            if (!cmp.equal) {
                char text[256];
                std::snprintf(text, sizeof text,
                              "%s: %zu of %zu values differ; max abs error %.6g at element %zu "
                              "(got %.9g, expected %.9g)",
                              which.c_str(), cmp.mismatches, count, cmp.max_abs_error,
                              cmp.worst_index, cmp.worst_actual, cmp.worst_expected);
                return {"failed", text};
            }
        }
        return {"passed", ""};
    }

    uint32_t model_id_ = 0;
    bool loaded_ = false;
    aclmdlDesc* desc_ = nullptr;
    aclmdlDataset* input_ = nullptr;
    aclmdlDataset* output_ = nullptr;
    std::vector<void*> device_;
};

// The child's work: a fresh runtime, one case, a result line on `fd`.
[[noreturn]] void RunChild(const Case& c, int fd) {
    Outcome outcome;
    aclError rc = aclInit(nullptr);
    if (rc != ACL_SUCCESS) {
        outcome = {"error", "aclInit: " + Code(rc) + ": " + RecentError()};
    } else if ((rc = aclrtSetDevice(0)) != ACL_SUCCESS) {
        outcome = {"error", "aclrtSetDevice: " + Code(rc) + ": " + RecentError()};
    } else {
        {
            CaseRun run;
            outcome = run.Run(c);
        }
        aclrtResetDevice(0);
        aclFinalize();
    }
    std::string line =
        EngineFor(c.dir / "model.onnx") + "\t" + outcome.status + "\t" + OneLine(outcome.reason);
    size_t done = 0;
    while (done < line.size()) {
        ssize_t n = write(fd, line.data() + done, line.size() - done);
        if (n <= 0) break;
        done += static_cast<size_t>(n);
    }
    _exit(0);
}

struct Running {
    size_t index;
    pid_t pid;
    int fd;
    std::string output;
    std::chrono::steady_clock::time_point deadline;
    bool timed_out = false;
};

struct Options {
    fs::path data = kDefaultData;
    std::vector<std::string> groups;
    std::vector<fs::path> cases;
    std::string filter;
    std::string tsv;
    std::string markdown;
    long min_pass = -1;
    int timeout_s = 60;
    int jobs = 1;
    bool verbose = false;
};

void Usage() {
    std::cerr << "usage: conformance_runner [--data=DIR] [--groups=a,b] [--filter=TEXT]\n"
                 "         [--tsv=PATH] [--markdown=PATH] [--min-pass=N] [--timeout=SECONDS]\n"
                 "         [--jobs=N] [--verbose] [CASE_DIR...]\n";
}

bool ParseOptions(int argc, char** argv, Options* o) {
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&](const char* name) -> const char* {
            size_t n = std::strlen(name);
            return arg.compare(0, n, name) == 0 ? arg.c_str() + n : nullptr;
        };
        if (const char* v = value("--data=")) {
            o->data = v;
        } else if (const char* v = value("--groups=")) {
            std::string list = v;
            for (size_t start = 0; start <= list.size();) {
                size_t comma = list.find(',', start);
                if (comma == std::string::npos) comma = list.size();
                if (comma > start) o->groups.push_back(list.substr(start, comma - start));
                start = comma + 1;
            }
        } else if (const char* v = value("--filter=")) {
            o->filter = v;
        } else if (const char* v = value("--tsv=")) {
            o->tsv = v;
        } else if (const char* v = value("--markdown=")) {
            o->markdown = v;
        } else if (const char* v = value("--min-pass=")) {
            o->min_pass = std::strtol(v, nullptr, 10);
        } else if (const char* v = value("--timeout=")) {
            o->timeout_s = std::max(1, std::atoi(v));
        } else if (const char* v = value("--jobs=")) {
            o->jobs = std::max(1, std::atoi(v));
        } else if (arg == "--verbose") {
            o->verbose = true;
        } else if (arg == "--help" || arg == "-h" || arg.rfind("--", 0) == 0) {
            Usage();
            return false;
        } else {
            o->cases.push_back(arg);
        }
    }
    if (o->groups.empty()) o->groups.assign(std::begin(kDefaultGroups), std::end(kDefaultGroups));
    return true;
}

std::vector<Case> FindCases(const Options& o) {
    std::vector<Case> cases;
    auto add = [&](const fs::path& dir, const std::string& group) {
        if (!fs::exists(dir / "model.onnx")) return;
        std::string name = dir.filename().string();
        if (!o.filter.empty() && name.find(o.filter) == std::string::npos) return;
        cases.push_back({group, name, dir});
    };
    if (!o.cases.empty()) {
        for (const fs::path& dir : o.cases)
            add(dir, dir.parent_path().filename().string());
        return cases;
    }
    for (const std::string& group : o.groups) {
        fs::path root = o.data / group;
        if (!fs::is_directory(root)) continue;
        std::vector<fs::path> dirs;
        for (const auto& entry : fs::directory_iterator(root))
            dirs.push_back(entry.path());
        std::sort(dirs.begin(), dirs.end());
        for (const fs::path& dir : dirs)
            add(dir, group);
    }
    return cases;
}

bool Start(const Case& c, size_t index, const Options& o, Running* out) {
    int fds[2];
    if (pipe(fds) != 0) return false;
    std::cout.flush();
    std::cerr.flush();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        if (!o.verbose) {
            // The engine and the runtime log; the summary is what this program prints.
            FILE* null = std::freopen("/dev/null", "w", stdout);
            null = std::freopen("/dev/null", "w", stderr);
            (void)null;
        }
        RunChild(c, fds[1]);
    }
    close(fds[1]);
    *out = {index, pid, fds[0], "",
            std::chrono::steady_clock::now() + std::chrono::seconds(o.timeout_s)};
    return true;
}

Outcome Finish(Running& r) {
    int status = 0;
    waitpid(r.pid, &status, 0);
    close(r.fd);
    if (r.timed_out) return {"timeout", "no result within the time limit"};
    size_t first = r.output.find('\t');
    size_t tab = first == std::string::npos ? first : r.output.find('\t', first + 1);
    if (tab != std::string::npos && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return {r.output.substr(first + 1, tab - first - 1), r.output.substr(tab + 1),
                r.output.substr(0, first)};
    }
    if (WIFSIGNALED(status)) {
        return {"crashed", std::string("signal ") + std::to_string(WTERMSIG(status)) + " (" +
                               strsignal(WTERMSIG(status)) + ")"};
    }
    return {"crashed",
            "exited with status " + std::to_string(WEXITSTATUS(status)) + " without a result"};
}

// Runs the cases, at most o.jobs at a time, each in a child with a deadline.
std::vector<Outcome> RunAll(const std::vector<Case>& cases, const Options& o) {
    std::vector<Outcome> outcomes(cases.size());
    std::vector<Running> running;
    size_t next = 0;
    while (next < cases.size() || !running.empty()) {
        while (next < cases.size() && running.size() < static_cast<size_t>(o.jobs)) {
            Running r;
            if (Start(cases[next], next, o, &r)) {
                running.push_back(std::move(r));
            } else {
                outcomes[next] = {"error", "could not start a child process"};
            }
            ++next;
        }
        std::vector<pollfd> fds;
        for (const Running& r : running)
            fds.push_back({r.fd, POLLIN, 0});
        poll(fds.data(), fds.size(), 200);
        const auto now = std::chrono::steady_clock::now();
        for (size_t i = running.size(); i-- > 0;) {
            Running& r = running[i];
            bool done = false;
            if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                char buffer[4096];
                ssize_t n = read(r.fd, buffer, sizeof buffer);
                if (n > 0) {
                    r.output.append(buffer, static_cast<size_t>(n));
                } else {
                    done = true;
                }
            }
            if (!done && now > r.deadline) {
                kill(r.pid, SIGKILL);
                r.timed_out = true;
                done = true;
            }
            if (done) {
                outcomes[r.index] = Finish(r);
                const Case& c = cases[r.index];
                if (o.verbose) {
                    std::cerr << c.group << "/" << c.name << ": " << outcomes[r.index].status << " "
                              << outcomes[r.index].reason << "\n";
                }
                running.erase(running.begin() + static_cast<long>(i));
            }
        }
    }
    return outcomes;
}

std::string Summary(const std::vector<Case>& cases, const std::vector<Outcome>& outcomes) {
    std::map<std::string, std::map<std::string, int>> counts;
    std::vector<std::string> groups;
    for (size_t i = 0; i < cases.size(); ++i) {
        if (!counts.count(cases[i].group)) groups.push_back(cases[i].group);
        ++counts[cases[i].group][outcomes[i].status];
        ++counts["total"][outcomes[i].status];
    }
    groups.push_back("total");
    std::map<std::string, std::array<int, 2>> engines;  // engine -> cases, passed
    for (const Outcome& o : outcomes) {
        ++engines[o.engine][0];
        engines[o.engine][1] += o.status == "passed";
    }
    std::string text = "| group | cases |";
    for (const char* s : kStatuses)
        text += std::string(" ") + s + " |";
    text += "\n|---|---:|";
    for (size_t i = 0; i < std::size(kStatuses); ++i)
        text += "---:|";
    text += "\n";
    for (const std::string& g : groups) {
        int total = 0;
        for (const auto& [status, n] : counts[g])
            total += n;
        text += "| " + (g == "total" ? std::string("**total**") : g) + " | " +
                std::to_string(total) + " |";
        for (const char* s : kStatuses)
            text += " " + std::to_string(counts[g][s]) + " |";
        text += "\n";
    }
    text += "\n| engine | cases | passed |\n|---|---:|---:|\n";
    for (const auto& [engine, n] : engines)
        text +=
            "| " + engine + " | " + std::to_string(n[0]) + " | " + std::to_string(n[1]) + " |\n";
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    if (!ParseOptions(argc, argv, &options)) return 2;
    std::vector<Case> cases = FindCases(options);
    if (cases.empty()) {
        std::cerr << "no ONNX test cases found under " << options.data
                  << " (Debian package libonnx-testdata)\n";
        return 77;  // ctest: skipped
    }
    std::vector<Outcome> outcomes = RunAll(cases, options);

    if (!options.tsv.empty()) {
        std::ofstream tsv(options.tsv);
        tsv << "group\tcase\tengine\tstatus\treason\n";
        for (size_t i = 0; i < cases.size(); ++i) {
            tsv << cases[i].group << "\t" << cases[i].name << "\t" << outcomes[i].engine << "\t"
                << outcomes[i].status << "\t" << outcomes[i].reason << "\n";
        }
        if (!tsv) std::cerr << "cannot write " << options.tsv << "\n";
    }
    const std::string summary = Summary(cases, outcomes);
    std::cout << summary;
    if (!options.markdown.empty()) std::ofstream(options.markdown) << summary;

    const long passed = std::count_if(outcomes.begin(), outcomes.end(),
                                      [](const Outcome& o) { return o.status == "passed"; });
    if (options.min_pass >= 0 && passed < options.min_pass) {
        std::cout << "FAIL: " << passed << " cases passed, at least " << options.min_pass
                  << " must\n";
        return 1;
    }
    std::cout << passed << " of " << cases.size() << " cases passed\n";
    return 0;
}
