#include "counter.h"
#include <atomic>
#include <cstdio>

static std::atomic<int> constructed{0};
static std::atomic<int> destroyed{0};

Tracker::Tracker() : label("tracker#" + std::to_string(++constructed)) {}
Tracker::~Tracker() { ++destroyed; }

thread_local Tracker tracker;

int record(int n) {
    for (int i = 0; i < n; ++i)
        ++tracker.hits;
    return tracker.hits;
}
int destroyed_trackers() { return destroyed.load(); }
