// The calling thread's OpenMP team size for a scope: set on construction, restored on
// destruction. oneDNN and the operators' parallel loops size their teams from it, and the
// thread (a stream worker, a block thread) runs other work that chooses its own afterwards.
#pragma once

#include <omp.h>

namespace openacl::cpu {

class OmpThreads {
 public:
    explicit OmpThreads(int n) : saved_(omp_get_max_threads()) { omp_set_num_threads(n); }
    ~OmpThreads() { omp_set_num_threads(saved_); }
    OmpThreads(const OmpThreads&) = delete;
    OmpThreads& operator=(const OmpThreads&) = delete;

 private:
    int saved_;
};

}  // namespace openacl::cpu
