//===- shim_strings.h - strings the shim hands to Rust ---------------------===//
//
// Every string or byte buffer the C ABI returns is malloc'ed, so that one free
// function (weld_lto_free_string) serves them all, from either translation unit.
//===----------------------------------------------------------------------===//

#ifndef WELD_SHIM_STRINGS_H
#define WELD_SHIM_STRINGS_H

#include "llvm/ADT/StringRef.h"

#include <cstdlib>
#include <cstring>

// A malloc'ed copy of S with a NUL after it (S may hold NULs itself); null when
// out of memory.
inline char *dupString(llvm::StringRef S) {
  char *P = static_cast<char *>(std::malloc(S.size() + 1));
  if (!P)
    return nullptr;
  std::memcpy(P, S.data(), S.size());
  P[S.size()] = '\0';
  return P;
}

#endif
