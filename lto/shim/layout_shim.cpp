//===- layout_shim.cpp - LLVM services weld's section layout uses ----------===//
//
// lld's balanced-partitioning section orderer (--bp-compression-sort=,
// --bp-startup-sort=) is built on two pieces of LLVM, and weld uses the same
// two so that the same nodes give the same order:
//   * llvm::BalancedPartitioning (LLVMSupport), the recursive bisection that
//     groups nodes sharing utility nodes;
//   * llvm::InstrProfReader, which reads the temporal profile traces of an
//     IRPGO profile (--irpgo-profile=).
// Everything else (which sections, which hashes, which utility nodes) is
// weld's Rust code in linker/src/bp_section_order.rs.
//
// A separate translation unit from lto_shim.cpp because it has nothing to do
// with LTO and because the profile reader's headers are heavy. The same rules
// hold: no exception or llvm::Error crosses the boundary, no callbacks into
// Rust, every returned buffer is malloc'ed and freed with
// weld_lto_free_string.
//===----------------------------------------------------------------------===//

#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/BalancedPartitioning.h"
#include "llvm/Support/VirtualFileSystem.h"

#include "shim_strings.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace llvm;

namespace {

void appendU64(std::string &Out, uint64_t V) {
  char Bytes[8];
  for (int I = 0; I < 8; ++I)
    Bytes[I] = static_cast<char>(V >> (8 * I));
  Out.append(Bytes, 8);
}

} // namespace

extern "C" {

// Orders `NumNodes` nodes with llvm::BalancedPartitioning's default
// configuration (lld's). Node I has id Ids[I] and the utility nodes
// Uns[Starts[I] .. Starts[I + 1]] (unique within the node). The ids in their
// new order are written to OutIds (NumNodes entries).
void weld_balanced_partitioning(const uint64_t *Ids, size_t NumNodes,
                                const size_t *Starts, const uint32_t *Uns,
                                uint64_t *OutIds) {
  std::vector<BPFunctionNode> Nodes;
  Nodes.reserve(NumNodes);
  for (size_t I = 0; I < NumNodes; ++I)
    Nodes.emplace_back(
        Ids[I], ArrayRef<uint32_t>(Uns + Starts[I], Uns + Starts[I + 1]));
  BalancedPartitioningConfig Config;
  BalancedPartitioning BP(Config);
  BP.run(Nodes);
  for (size_t I = 0; I < NumNodes; ++I)
    OutIds[I] = Nodes[I].Id;
}

// Reads the temporal profile traces of the profile at Path (an indexed or raw
// instrprof file, as lld reads --irpgo-profile=). On success returns 0 and a
// malloc'ed buffer in *Out of *OutLen bytes: little-endian u64 trace count;
// per trace its u64 name count; per name its u64 length and bytes. Each name
// is the function part of the IRPGO name (getParsedIRPGOName), empty when the
// profile's symbol table does not know the trace entry. On failure returns 1
// and LLVM's message in *Err.
int weld_read_temporal_traces(const char *Path, size_t PathLen, char **Out,
                              size_t *OutLen, char **Err) {
  *Out = nullptr;
  *OutLen = 0;
  *Err = nullptr;
  auto FS = vfs::getRealFileSystem();
  auto ReaderOrErr = InstrProfReader::create(Twine(StringRef(Path, PathLen)), *FS);
  if (!ReaderOrErr) {
    *Err = dupString(toString(ReaderOrErr.takeError()));
    return 1;
  }
  std::unique_ptr<InstrProfReader> Reader = std::move(*ReaderOrErr);
  // The symbol table that names the traces' entries is complete only once
  // every record has been read.
  for (auto &Record : *Reader)
    (void)Record;
  if (Reader->hasError()) {
    *Err = dupString(toString(Reader->getError()));
    return 1;
  }
  std::string Buf;
  auto &Traces = Reader->getTemporalProfTraces();
  appendU64(Buf, Traces.size());
  for (auto &Trace : Traces) {
    appendU64(Buf, Trace.FunctionNameRefs.size());
    for (uint64_t Ref : Trace.FunctionNameRefs) {
      StringRef Name = getParsedIRPGOName(Reader->getSymtab().getFuncOrVarName(Ref)).second;
      appendU64(Buf, Name.size());
      Buf.append(Name.data(), Name.size());
    }
  }
  *OutLen = Buf.size();
  *Out = dupString(Buf);
  if (!*Out) {
    *Err = dupString("out of memory");
    return 1;
  }
  return 0;
}

} // extern "C"
