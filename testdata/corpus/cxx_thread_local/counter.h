#pragma once
#include <string>

// A thread_local object with a non-trivial constructor and destructor, defined in counter.cpp and
// used from main.cpp (so accesses go through the TLS wrapper function).
struct Tracker {
    std::string label;
    int hits = 0;
    Tracker();
    ~Tracker();
};
extern thread_local Tracker tracker;
int record(int n);          // counter.cpp
int destroyed_trackers();   // counter.cpp
