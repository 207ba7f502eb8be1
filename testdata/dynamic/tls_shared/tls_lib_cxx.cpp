#include "tls.h"
#include <atomic>

static std::atomic<int> constructed{0};
Tracker::Tracker() : name("tracker"), uses(0) { ++constructed; }
Tracker::~Tracker() {}
thread_local Tracker lib_tracker;

extern "C" int lib_tracker_uses(void) { return lib_tracker.uses; }
extern "C" int lib_trackers_constructed(void) { return constructed; }
