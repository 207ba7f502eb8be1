// C++ thread_local with non-trivial constructors and destructors across TUs, in several threads:
// each thread sees its own lazily constructed object; destructors run at thread exit.
#include "counter.h"
#include <cstdio>
#include <thread>
#include <vector>

static thread_local std::vector<int> local_log = {1, 2, 3}; // dynamic TLS init in this TU
static thread_local int plain_tls = 5;                      // static TLS init (.tdata)

int main() {
    std::vector<int> results(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([t, &results] {
            plain_tls += t;
            local_log.push_back(t);
            int hits = record(t + 1);
            hits = record(10);
            results[t] = hits * 100 + plain_tls * 10 + static_cast<int>(local_log.size());
        });
        threads.back().join(); // one at a time: deterministic construction numbers
    }
    for (int t = 0; t < 4; ++t)
        std::printf("thread %d: %d\n", t, results[t]);
    std::printf("main: hits=%d plain=%d log=%zu label-prefix=%s\n", record(2), plain_tls,
                local_log.size(), tracker.label.substr(0, 8).c_str());
    std::printf("destroyed after joins: %d\n", destroyed_trackers());
    int ok = destroyed_trackers() == 4 && results[3] == 1484;
    return ok ? 0 : 1;
}
