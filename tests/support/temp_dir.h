// A fresh directory for a test's files (traces, logs, configurations), removed with everything
// in it at scope exit: a test that fails halfway leaves nothing in /tmp either.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

class TempDir {
 public:
    explicit TempDir(const std::string& prefix = "openacl-test") {
        std::string pattern =
            (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
        if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    // Empty when the directory could not be made.
    const std::string& path() const { return path_; }
    std::string File(const std::string& name) const { return path_ + "/" + name; }

    // Every regular file below the directory, as full paths.
    std::vector<std::string> Files() const {
        std::vector<std::string> found;
        std::error_code error;
        for (std::filesystem::recursive_directory_iterator it(path_, error), end;
             !error && it != end; it.increment(error)) {
            if (it->is_regular_file()) found.push_back(it->path().string());
        }
        return found;
    }

 private:
    std::string path_;
};
