//===- lto_shim.cpp - weld's C ABI over LLVM 22's lto::LTO -----------------===//
//
// The only C++ in weld. It turns llvm::lto::InputFile, the module summary and
// llvm::lto::LTO into opaque handles behind an `extern "C"` interface that the
// Rust crate `lto` (src/ffi.rs) mirrors by hand.
//
// Rules this file keeps, because Rust cannot recover from their violation:
//   * No C++ exception and no llvm::Error crosses the boundary. LLVM is built
//     with -fno-exceptions; every llvm::Error/Expected is consumed here and
//     turned into a status code plus a malloc'ed message (weld_lto_free_string).
//     What the C++ library throws from inside LLVM is caught at the guards
//     (see "Containment" below), with LLVM's crashes and fatal errors.
//   * No Rust callback is ever called from C++: LTO's concurrent output streams
//     are collected into per-task buffers owned by the result handle, so a Rust
//     panic can never unwind through LLVM frames.
//   * Every LLVMContext created here has a diagnostic handler installed:
//     LLVM's default handler calls exit(1) on an error diagnostic.
//
// Keep this one translation unit small: it takes about as long to compile as
// the rest of weld, so include only what is used.
//===----------------------------------------------------------------------===//

#include "llvm/Analysis/ModuleSummaryAnalysis.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Bitcode/LLVMBitCodes.h"
#include "llvm/Bitstream/BitstreamReader.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/DTLTO/DTLTO.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/GlobalValue.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSummaryIndex.h"
#include "llvm/IR/Verifier.h"
#include "llvm/LTO/Config.h"
#include "llvm/LTO/LTO.h"
#include "llvm/LTO/LTOBackend.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/IRSymtab.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/Caching.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include "shim_strings.h"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

using namespace llvm;

namespace {

// ---------------------------------------------------------------------------
// Plumbing shared by every entry point.
// ---------------------------------------------------------------------------

std::once_flag InitOnce;

// ---------------------------------------------------------------------------
// Containment of LLVM's failures.
//
// LLVM trusts bitcode more than a linker may: a corrupt file can make its
// readers read out of bounds (SIGSEGV, SIGBUS), stop in report_fatal_error
// ("Broken module found"), or ask for an absurd allocation. So every call that
// reads an input or runs LTO runs under a CrashRecoveryContext (`contained`):
// a signal, a fatal error or an allocation failure jumps back to it and
// becomes an error that names the input.
//
// The jump skips the destructors of every frame in between, so whatever those
// frames held (memory, locks, half-built objects) stays as it was. LLVM is
// therefore not trusted again: the first contained failure "poisons" the shim,
// later entry points refuse to run, handles are leaked instead of destroyed,
// and the Rust side reports that one failure and leaves with weld_lto_exit,
// which skips exit-time destructors (LLVM's included).
// ---------------------------------------------------------------------------

std::atomic<bool> Poisoned{false};
std::mutex FirstFailureMu;
std::string FirstFailure; // the complete message of the first contained failure

// What the fatal-error and bad-alloc handlers leave for the innermost guard of
// their thread; the guard reads them after the jump.
thread_local std::string *FatalReason = nullptr;
thread_local const char *BadAllocReason = nullptr;

// Set while weld_lto_run runs: what LTO is working on, for the one failure no
// guard can catch (see onSignal). A plain C string, so a signal handler can
// write it.
std::string RunContextText;
std::atomic<const char *> RunContext{nullptr};

const int ContainedSignals[] = {SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP};
struct sigaction LlvmActions[NSIG];

const char *signalName(int Sig) {
  switch (Sig) {
  case SIGABRT:
    return "SIGABRT";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGSEGV:
    return "SIGSEGV";
  case SIGTRAP:
    return "SIGTRAP";
  default:
    return "a signal";
  }
}

// Async-signal-safe: only write(2).
void writeStderr(const char *S) {
  if (S)
    (void)!write(2, S, strlen(S));
}

// A failure on a thread without a guard (only LLVM's own threads, see
// onSignal): nothing can unwind it, so say what happened and end the process
// before anything else runs. No output file exists during LTO, so there is
// nothing to remove.
[[noreturn]] void reportAndExit(const char *What, const char *Reason) {
  writeStderr("weld: error: ");
  if (const char *Ctx = RunContext.load()) {
    writeStderr(Ctx);
    writeStderr(": ");
  }
  writeStderr(What);
  writeStderr(Reason);
  writeStderr("\n");
  _exit(1);
}

// report_fatal_error would print "LLVM ERROR" and exit(1) (or abort): under a
// guard, jump back to it instead.
void onFatalError(void *, const char *Reason, bool) {
  if (CrashRecoveryContext *CRC = CrashRecoveryContext::GetCurrent()) {
    if (FatalReason)
      *FatalReason = Reason ? Reason : "";
    CRC->HandleExit(1);
  }
  reportAndExit("LLVM error: ", Reason ? Reason : "");
}

// Allocation failures: no allocation here, the reason is a string literal.
void onBadAlloc(void *, const char *Reason, bool) {
  if (CrashRecoveryContext *CRC = CrashRecoveryContext::GetCurrent()) {
    BadAllocReason = Reason ? Reason : "allocation failed";
    CRC->HandleExit(1);
  }
  reportAndExit("LLVM ran out of memory: ", Reason ? Reason : "");
}

// Installed over CrashRecoveryContext's handlers. A guarded thread goes on to
// LLVM's handler, which jumps back to the guard. The threads LLVM starts on its
// own for full-LTO code generation in several partitions have no guard (weld
// cannot wrap their tasks): a crash there while LTO runs is reported as such
// and ends the process. Anything else (a crash outside LLVM) gets LLVM's
// handler too, which restores the previous handlers and re-raises the signal.
void onSignal(int Sig, siginfo_t *Info, void *Ucontext) {
  if (!CrashRecoveryContext::GetCurrent() && RunContext.load()) {
    writeStderr("weld: error: ");
    writeStderr(RunContext.load());
    writeStderr(": LLVM crashed with ");
    writeStderr(signalName(Sig));
    writeStderr(" on one of its code generation threads\n");
    _exit(1);
  }
  const struct sigaction &A = LlvmActions[Sig];
  if (A.sa_flags & SA_SIGINFO) {
    A.sa_sigaction(Sig, Info, Ucontext);
  } else if (A.sa_handler != SIG_DFL && A.sa_handler != SIG_IGN) {
    A.sa_handler(Sig);
  } else {
    signal(Sig, SIG_DFL);
    raise(Sig);
  }
}

void installContainment() {
  install_fatal_error_handler(onFatalError, nullptr);
  install_bad_alloc_error_handler(onBadAlloc, nullptr);
  CrashRecoveryContext::Enable();
  for (int Sig : ContainedSignals) {
    struct sigaction A;
    memset(&A, 0, sizeof A);
    A.sa_sigaction = onSignal;
    // SA_ONSTACK: Rust gives its threads an alternate signal stack, so a stack
    // overflow inside LLVM on one of them can still be handled.
    A.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&A.sa_mask);
    sigaction(Sig, &A, &LlvmActions[Sig]);
  }
}

// A stack overflow (deep recursion over a corrupt file) can only be handled
// on another stack. Rust gives its threads one; LLVM's thread pool does not,
// so a guarded thread without one gets one, kept for the thread's life.
void ensureAltStack() {
  thread_local bool Checked = false;
  if (Checked)
    return;
  Checked = true;
  stack_t Old;
  if (sigaltstack(nullptr, &Old) != 0 || !(Old.ss_flags & SS_DISABLE))
    return;
  stack_t S;
  S.ss_size = 64 * 1024;
  S.ss_sp = std::malloc(S.ss_size);
  S.ss_flags = 0;
  if (S.ss_sp && sigaltstack(&S, nullptr) != 0)
    std::free(S.ss_sp);
}

// Why a guarded call did not return: "LLVM crashed with SIGSEGV", "LLVM
// failed" (report_fatal_error) or "LLVM ran out of memory", and LLVM's reason.
struct Failure {
  std::string What, Reason;
  // "WHAT while DOING: REASON".
  std::string describe(const Twine &Doing) const {
    return (What + " while " + Doing + (Reason.empty() ? "" : ": ") + Reason)
        .str();
  }
};

// Runs Fn under crash recovery: nullopt when it returned, else why it did not.
// Any failure poisons LLVM.
std::optional<Failure> contained(function_ref<void()> Fn) {
  ensureAltStack();
  std::string Fatal;
  std::string *OuterFatal = FatalReason;
  const char *OuterBadAlloc = BadAllocReason;
  FatalReason = &Fatal;
  BadAllocReason = nullptr;
  // An exception LLVM did not catch (it has no handlers) is caught here and
  // is a failure like the others; a frame it unwound through ran no
  // destructor either (LLVM is compiled without exceptions).
  std::optional<Failure> Thrown;
  CrashRecoveryContext CRC;
  bool Ok = CRC.RunSafely([&] {
    try {
      Fn();
    } catch (const std::bad_alloc &) {
      Thrown = Failure{"LLVM ran out of memory", ""};
    } catch (const std::exception &E) {
      Thrown = Failure{"LLVM failed", std::string("uncaught exception: ") +
                                          E.what()};
    } catch (...) {
      Thrown = Failure{"LLVM failed", "uncaught exception"};
    }
  });
  const char *BadAlloc = BadAllocReason;
  FatalReason = OuterFatal;
  BadAllocReason = OuterBadAlloc;
  if (Ok && !Thrown)
    return std::nullopt;
  Poisoned = true;
  if (Thrown)
    return Thrown;
  if (BadAlloc)
    return Failure{"LLVM ran out of memory", BadAlloc};
  if (!Fatal.empty())
    return Failure{"LLVM failed", Fatal};
  if (CRC.RetCode > 128)
    return Failure{std::string("LLVM crashed with ") +
                       signalName(CRC.RetCode - 128),
                   ""};
  return Failure{"LLVM exited with code " + std::to_string(CRC.RetCode), ""};
}

// Keeps the first contained failure's message for weld_lto_failure and
// returns it.
std::string recordFailure(std::string Msg) {
  std::lock_guard<std::mutex> Lock(FirstFailureMu);
  if (FirstFailure.empty())
    FirstFailure = Msg;
  return Msg;
}

// Targets, MC layers and asm parsers/printers are registered once per process:
// the irsymtab builder needs asm parsers for module-level inline asm, codegen
// needs the rest. The codegen command-line flags are registered here (not in a
// static constructor) so that merely loading weld does not touch LLVM's global
// option registry, and so `-mllvm -use-ctors` & co. behave as in lld.
void initOnce() {
  std::call_once(InitOnce, [] {
    InitializeAllTargetInfos();
    InitializeAllTargets();
    InitializeAllTargetMCs();
    InitializeAllAsmParsers();
    InitializeAllAsmPrinters();
    static codegen::RegisterCodeGenFlags CodeGenFlags;
    installContainment();
  });
}


template <typename S> std::string str(const S &W) {
  return std::string(W.ptr, W.len);
}

int fail(char **Err, const Twine &Msg) {
  if (Err)
    *Err = dupString(Msg.str());
  return 1;
}

int failWith(char **Err, const Twine &Prefix, Error E) {
  std::string Msg = toString(std::move(E));
  return fail(Err, Prefix + Msg);
}

// What an entry point answers once LLVM is poisoned; the driver reports the
// failure that poisoned it instead.
int refuse(char **Err) {
  return fail(Err, "LLVM is not used after the failure reported first");
}

// Runs an entry point's work (Body(&Msg) returns a status and sets Msg on
// failure) under `contained`. A contained failure becomes "ID: WHY while
// DOING", remembered as the failure that poisoned LLVM.
template <typename F>
int guardedCall(StringRef Id, const char *Doing, char **Err, F Body) {
  if (Poisoned)
    return refuse(Err);
  int Status = 1;
  char *Msg = nullptr;
  if (std::optional<Failure> Why = contained([&] { Status = Body(&Msg); })) {
    std::free(Msg);
    return fail(Err, recordFailure(Id.str() + ": " + Why->describe(Doing)));
  }
  if (Status && Err)
    *Err = Msg;
  else
    std::free(Msg);
  return Status;
}

// Collects diagnostics from any thread. LTO calls the handler concurrently from
// ThinLTO backend threads, each with its own LLVMContext.
struct DiagSink {
  std::mutex Mu;
  std::vector<std::pair<int, std::string>> Items; // (severity, text)
  bool HasError = false;

  void add(const DiagnosticInfo &DI) {
    std::string Text;
    raw_string_ostream OS(Text);
    // Inline-asm diagnostics only say "<inline asm>:1:5"; naming the module
    // is the only way a user can find which input they came from.
    if (auto *SM = dyn_cast<DiagnosticInfoSrcMgr>(&DI))
      if (SM->isInlineAsmDiag())
        OS << SM->getModuleName() << ' ';
    DiagnosticPrinterRawOStream DP(OS);
    DI.print(DP);
    OS.flush();
    std::lock_guard<std::mutex> Lock(Mu);
    if (DI.getSeverity() == DS_Error)
      HasError = true;
    Items.emplace_back(int(DI.getSeverity()), std::move(Text));
  }
};

void sinkCallback(const DiagnosticInfo *DI, void *Ctx) {
  static_cast<DiagSink *>(Ctx)->add(*DI);
}

} // namespace

// ---------------------------------------------------------------------------
// The C ABI. Layouts must match src/ffi.rs exactly.
// ---------------------------------------------------------------------------

extern "C" {

enum : uint32_t {
  WELD_SYM_UNDEFINED = 1u << 0,
  WELD_SYM_WEAK = 1u << 1,
  WELD_SYM_COMMON = 1u << 2,
  WELD_SYM_INDIRECT = 1u << 3,
  WELD_SYM_USED = 1u << 4,
  WELD_SYM_TLS = 1u << 5,
  WELD_SYM_MAY_OMIT = 1u << 6,
  WELD_SYM_GLOBAL = 1u << 7,
  WELD_SYM_FORMAT_SPECIFIC = 1u << 8,
  WELD_SYM_UNNAMED_ADDR = 1u << 9,
  WELD_SYM_EXECUTABLE = 1u << 10,
  WELD_SYM_HAS_GUID = 1u << 11,
};

struct WeldStr {
  const char *ptr;
  size_t len;
};

struct WeldSymbol {
  WeldStr name;
  WeldStr ir_name;
  WeldStr section;
  uint32_t flags;
  uint32_t visibility; // GlobalValue::VisibilityTypes: 0 default, 1 hidden, 2 protected
  int32_t comdat_index; // -1: not in a comdat
  uint32_t common_align;
  uint64_t common_size;
  uint64_t guid; // valid if WELD_SYM_HAS_GUID
};

struct WeldComdat {
  WeldStr name;
  uint32_t selection_kind; // llvm::Comdat::SelectionKind
};

struct WeldInputInfo {
  WeldStr target_triple;
  WeldStr source_filename;
  uint32_t num_modules;
  uint8_t is_thin;       // some module is compiled with ThinLTO
  uint8_t has_summary;   // every module carries a summary
  uint8_t unified_lto;
  uint8_t split_lto_unit;
};

struct WeldInput {
  // MemoryBufferRef and every BitcodeModule point into this string, so it is
  // heap-allocated once and handed to WeldLto intact by weld_lto_add (moving a
  // short std::string would move its bytes and leave them dangling).
  std::unique_ptr<std::string> ModuleId;
  MemoryBufferRef Buffer;
  std::unique_ptr<lto::InputFile> File;
  WeldInputInfo Info;
  // Where the bitcode came from (weld_lto_input_set_origin), for DTLTO, which
  // must give the remote compiler a file of its own for an archive member or
  // the bitcode section of a fat object. The InputFile keeps StringRefs to
  // the strings, so weld_lto_add hands them to WeldLto with the module id.
  std::unique_ptr<std::string> ArchivePath, MemberName;
  bool FatLTOObject = false;
};

const char *weld_lto_llvm_version(void) { return LLVM_VERSION_STRING; }

void weld_lto_free_string(char *S) { std::free(S); }

// LLVM's demangling (Itanium, Rust, D, Microsoft), as lld prints symbols; the
// name itself when it is not mangled. Free with weld_lto_free_string; null only
// when out of memory.
char *weld_demangle(const char *Name, size_t Len) {
  std::string D = llvm::demangle(std::string_view(Name, Len));
  char *Out = static_cast<char *>(std::malloc(D.size() + 1));
  if (Out)
    std::memcpy(Out, D.c_str(), D.size() + 1);
  return Out;
}

uint64_t weld_lto_guid(const char *Name, size_t Len) {
  // getGlobalIdentifier strips the "\1" no-mangle marker, as the summary
  // writer does; external linkage means no "file;" prefix.
  return GlobalValue::getGUIDAssumingExternalLinkage(
      GlobalValue::getGlobalIdentifier(StringRef(Name, Len),
                                       GlobalValue::ExternalLinkage, ""));
}

} // extern "C"

namespace {

// Calls Fn with the cursor inside each top-level module block of the file.
// Errors are the bitstream's ("malformed bitcode wrapper header", ...).
Error forEachModuleBlock(MemoryBufferRef Buffer,
                                function_ref<Error(BitstreamCursor &)> Fn) {
  const unsigned char *Begin =
      reinterpret_cast<const unsigned char *>(Buffer.getBufferStart());
  const unsigned char *End = Begin + Buffer.getBufferSize();
  if (isBitcodeWrapper(Begin, End) &&
      SkipBitcodeWrapperHeader(Begin, End, /*VerifyBufferSize=*/true))
    return createStringError("malformed bitcode wrapper header");
  BitstreamCursor C(ArrayRef<uint8_t>(Begin, End));
  for (unsigned Magic : {unsigned('B'), unsigned('C'), 0x0u, 0xCu, 0xEu, 0xDu}) {
    Expected<SimpleBitstreamCursor::word_t> Bits =
        C.Read(Magic == 'B' || Magic == 'C' ? 8 : 4);
    if (!Bits || *Bits != Magic) {
      if (!Bits)
        consumeError(Bits.takeError());
      return createStringError("not a bitcode stream");
    }
  }
  while (!C.AtEndOfStream()) {
    Expected<BitstreamEntry> E = C.advance();
    if (!E)
      return E.takeError();
    if (E->Kind == BitstreamEntry::EndBlock ||
        E->Kind == BitstreamEntry::Error)
      break;
    if (E->Kind != BitstreamEntry::SubBlock)
      return createStringError("record at top level");
    if (E->ID == bitc::MODULE_BLOCK_ID) {
      if (Error X = C.EnterSubBlock(E->ID))
        return X;
      if (Error X = Fn(C))
        return X;
    } else if (Error X = C.SkipBlock()) {
      return X;
    }
    // Top-level blocks are 32-bit aligned; trailing padding ends the stream.
    if (C.getCurrentByteNo() + 4 > size_t(End - Begin))
      break;
  }
  return Error::success();
}

// An attribute group names the parameter it applies to by index, and LLVM's
// reader gives the attribute list a slot for every index up to it: a corrupt
// index near four billion asks for tens of gigabytes, which the system may
// grant and then kill weld for using. So an index no function has (past a
// million parameters; the function's own attributes are ~0) is refused before
// LLVM reads the file. Only the attribute group block is read: the others are
// skipped by their length.
std::optional<std::string> checkAttributeGroups(MemoryBufferRef Buffer) {
  constexpr uint64_t MaxParams = 1u << 20;
  std::optional<std::string> Bad;
  BitstreamBlockInfo Info; // the cursor keeps a pointer to it
  Error X = forEachModuleBlock(Buffer, [&](BitstreamCursor &C) -> Error {
    SmallVector<uint64_t, 16> Record;
    unsigned Depth = 0; // inside the attribute group block when 1
    while (true) {
      Expected<BitstreamEntry> E = C.advance();
      if (!E)
        return E.takeError();
      switch (E->Kind) {
      case BitstreamEntry::Error:
        return createStringError("malformed bitcode block");
      case BitstreamEntry::EndBlock:
        if (Depth == 0)
          return Error::success();
        Depth--;
        break;
      case BitstreamEntry::SubBlock:
        if (E->ID == bitc::BLOCKINFO_BLOCK_ID) {
          // Abbreviations the attribute block may use; LLVM reads it too.
          Expected<std::optional<BitstreamBlockInfo>> BI =
              C.ReadBlockInfoBlock();
          if (!BI)
            return BI.takeError();
          // Without it no record can be read: LLVM will say why.
          if (!*BI)
            return Error::success();
          Info = std::move(**BI);
          C.setBlockInfo(&Info);
        } else if (Depth == 0 && E->ID == bitc::PARAMATTR_GROUP_BLOCK_ID) {
          if (Error X = C.EnterSubBlock(E->ID))
            return X;
          Depth++;
        } else if (Error X = C.SkipBlock()) {
          return X;
        }
        break;
      case BitstreamEntry::Record: {
        if (Depth == 0) {
          if (Expected<unsigned> K = C.skipRecord(E->ID); !K)
            return K.takeError();
          break;
        }
        Record.clear();
        Expected<unsigned> Code = C.readRecord(E->ID, Record);
        if (!Code)
          return Code.takeError();
        if (*Code == bitc::PARAMATTR_GRP_CODE_ENTRY && Record.size() >= 2) {
          uint32_t Index = uint32_t(Record[1]);
          if (Index != ~0u && Index > MaxParams) {
            Bad = "malformed bitcode: an attribute group applies to "
                  "parameter " +
                  std::to_string(Index - 1);
            return Error::success();
          }
        }
        break;
      }
      }
    }
  });
  // A stream this walk cannot follow is LLVM's to refuse, in its words.
  consumeError(std::move(X));
  return Bad;
}

// LLVM uses a stored irsymtab (the symbol table clang writes next to the IR)
// without checking it: its ranges and string offsets are followed as they are,
// and the strings reach Rust, which copies them. A corrupt one would make weld
// read outside the file, in LLVM or in Rust where no guard helps. So every
// range of the table must lie in the table and every string in its string
// table, and each module's symbols and their rarely-used fields must exist.
// Only a table LLVM would read is checked (its version is the current one);
// LLVM rebuilds any other from the IR.
std::optional<std::string> checkStoredSymtab(MemoryBufferRef Buffer) {
  namespace S = irsymtab::storage;
  Expected<BitcodeFileContents> BFC = getBitcodeFileContents(Buffer);
  if (!BFC) {
    // InputFile::create reports it in LLVM's words.
    consumeError(BFC.takeError());
    return std::nullopt;
  }
  StringRef Symtab = BFC->Symtab, Strtab = BFC->StrtabForSymtab;
  if (Strtab.empty() || Symtab.size() < sizeof(S::Header))
    return std::nullopt;
  const auto *H = reinterpret_cast<const S::Header *>(Symtab.data());
  if (H->Version != S::Header::kCurrentVersion)
    return std::nullopt;
  auto StrOk = [&](const S::Str &X) {
    return uint64_t(X.Offset) + uint64_t(X.Size) <= Strtab.size();
  };
  auto RangeOk = [&](const auto &R, size_t Elt) {
    return uint64_t(R.Offset) + uint64_t(R.Size) * Elt <= Symtab.size();
  };
  auto At = [&](const auto &R, size_t I, auto *Type) {
    using T = std::remove_pointer_t<decltype(Type)>;
    return reinterpret_cast<const T *>(Symtab.data() + R.Offset) + I;
  };
  const std::string Bad = "malformed bitcode symbol table: ";
  if (!StrOk(H->Producer) || !StrOk(H->TargetTriple) ||
      !StrOk(H->SourceFileName) || !StrOk(H->COFFLinkerOpts))
    return Bad + "a header string lies outside the string table";
  if (!RangeOk(H->Modules, sizeof(S::Module)) ||
      !RangeOk(H->Comdats, sizeof(S::Comdat)) ||
      !RangeOk(H->Symbols, sizeof(S::Symbol)) ||
      !RangeOk(H->Uncommons, sizeof(S::Uncommon)) ||
      !RangeOk(H->DependentLibraries, sizeof(S::Str)))
    return Bad + "a table lies outside it";
  uint32_t NumComdats = H->Comdats.Size, NumSyms = H->Symbols.Size,
           NumUncs = H->Uncommons.Size;
  for (uint32_t I = 0; I < NumComdats; I++)
    if (!StrOk(At(H->Comdats, I, (S::Comdat *)nullptr)->Name))
      return Bad + "a comdat name lies outside the string table";
  for (uint32_t I = 0; I < H->DependentLibraries.Size; I++)
    if (!StrOk(*At(H->DependentLibraries, I, (S::Str *)nullptr)))
      return Bad + "a library name lies outside the string table";
  for (uint32_t I = 0; I < NumUncs; I++) {
    const S::Uncommon *U = At(H->Uncommons, I, (S::Uncommon *)nullptr);
    if (!StrOk(U->COFFWeakExternFallbackName) || !StrOk(U->SectionName))
      return Bad + "a section name lies outside the string table";
  }
  for (uint32_t I = 0; I < NumSyms; I++) {
    const S::Symbol *Sym = At(H->Symbols, I, (S::Symbol *)nullptr);
    if (!StrOk(Sym->Name) || !StrOk(Sym->IRName))
      return Bad + "a symbol name lies outside the string table";
    uint32_t C = Sym->ComdatIndex;
    if (C != uint32_t(-1) && C >= NumComdats)
      return Bad + "a symbol's comdat index is out of range";
  }
  for (uint32_t I = 0; I < H->Modules.Size; I++) {
    const S::Module *M = At(H->Modules, I, (S::Module *)nullptr);
    uint32_t Begin = M->Begin, End = M->End, Unc = M->UncBegin;
    if (Begin > End || End > NumSyms || Unc > NumUncs)
      return Bad + "a module's symbols lie outside the symbol list";
    // Each symbol flagged as having uncommon fields takes the next entry.
    for (uint32_t J = Begin; J < End; J++) {
      uint32_t Flags = At(H->Symbols, J, (S::Symbol *)nullptr)->Flags;
      if ((Flags >> S::Symbol::FB_has_uncommon) & 1) {
        if (Unc >= NumUncs)
          return Bad + "a symbol's uncommon fields are missing";
        Unc++;
      }
    }
  }
  return std::nullopt;
}

// weld_lto_input_open's work, under its guard.
int openInput(WeldInput *In, char **Err) {
  if (std::optional<std::string> Bad = checkStoredSymtab(In->Buffer))
    return fail(Err, "cannot read LLVM bitcode: " + *Bad);
  if (std::optional<std::string> Bad = checkAttributeGroups(In->Buffer))
    return fail(Err, "cannot read LLVM bitcode: " + *Bad);

  Expected<std::unique_ptr<lto::InputFile>> FileOrErr =
      lto::InputFile::create(In->Buffer);
  if (!FileOrErr) {
    std::string Msg = toString(FileOrErr.takeError());
    // An "Unknown attribute kind"/"Invalid record" from a newer producer is
    // not corruption: say which LLVM wrote it so the user knows what to fix.
    Expected<std::string> Producer = getBitcodeProducerString(In->Buffer);
    std::string Hint;
    if (Producer) {
      StringRef P = *Producer;
      P.consume_front("LLVM");
      unsigned Major = 0;
      bool HasMajor = !P.empty() && !P.take_until([](char C) {
                                       return !isDigit(C);
                                     }).getAsInteger(10, Major);
      if (HasMajor && Major > LLVM_VERSION_MAJOR)
        Hint = (" (it was produced by LLVM " + P +
                ", which is newer than weld's LLVM " LLVM_VERSION_STRING
                "; compile it with clang " + Twine(LLVM_VERSION_MAJOR) +
                " or older, or use a weld built with a newer LLVM)")
                   .str();
      else if (!P.empty() && P != LLVM_VERSION_STRING)
        Hint = (" (it was produced by LLVM " + P + ")").str();
    } else {
      consumeError(Producer.takeError());
    }
    return fail(Err, "cannot read LLVM bitcode: " + Msg + Hint);
  }
  In->File = std::move(*FileOrErr);

  // InputFile::isThinLTO() is only meaningful after LTO::add, so ask each
  // BitcodeModule directly.
  Expected<std::vector<BitcodeModule>> Mods = getBitcodeModuleList(In->Buffer);
  if (!Mods)
    return failWith(Err, "cannot read LLVM bitcode: ", Mods.takeError());
  WeldInputInfo &Info = In->Info;
  Info.num_modules = uint32_t(Mods->size());
  Info.is_thin = 0;
  Info.has_summary = 1;
  Info.unified_lto = 0;
  Info.split_lto_unit = 0;
  for (BitcodeModule &BM : *Mods) {
    Expected<BitcodeLTOInfo> LI = BM.getLTOInfo();
    if (!LI)
      return failWith(Err, "cannot read LLVM bitcode: ", LI.takeError());
    Info.is_thin |= LI->IsThinLTO;
    Info.has_summary &= LI->HasSummary;
    Info.unified_lto |= LI->UnifiedLTO;
    Info.split_lto_unit |= LI->EnableSplitLTOUnit;
  }
  StringRef TT = In->File->getTargetTriple();
  StringRef SF = In->File->getSourceFileName();
  Info.target_triple = {TT.data(), TT.size()};
  Info.source_filename = {SF.data(), SF.size()};
  return 0;
}

} // namespace

extern "C" {

int weld_lto_input_open(const uint8_t *Data, size_t Len, const char *Id,
                        size_t IdLen, WeldInput **Out, char **Err) {
  initOnce();
  if (Poisoned)
    return refuse(Err);
  auto In = std::make_unique<WeldInput>();
  In->ModuleId = std::make_unique<std::string>(Id, IdLen);
  In->Buffer = MemoryBufferRef(
      StringRef(reinterpret_cast<const char *>(Data), Len), *In->ModuleId);
  int Status = 1;
  char *Msg = nullptr;
  if (std::optional<Failure> Why =
          contained([&] { Status = openInput(In.get(), &Msg); })) {
    // The input's half-built state is LLVM's now: leak it.
    (void)In.release();
    std::free(Msg);
    return fail(Err, recordFailure(std::string(Id, IdLen) + ": " +
                                   Why->describe("reading this bitcode file")));
  }
  if (Status) {
    *Err = Msg;
    return Status;
  }
  *Out = In.release();
  return 0;
}

// Says that the input is member `Member` of archive `Archive` (both empty:
// it is not), and whether its bitcode is a fat object's `.llvm.lto` section.
// Only DTLTO looks at either.
void weld_lto_input_set_origin(WeldInput *In, const char *Archive,
                               size_t ArchiveLen, const char *Member,
                               size_t MemberLen, uint8_t FatLTOObject) {
  In->ArchivePath = std::make_unique<std::string>(Archive, ArchiveLen);
  In->MemberName = std::make_unique<std::string>(Member, MemberLen);
  In->FatLTOObject = FatLTOObject != 0;
}

void weld_lto_input_free(WeldInput *In) {
  // After a contained failure the object may be half-destroyed or share
  // state with one that is: leak it, the process is about to end.
  if (!Poisoned)
    delete In;
}

void weld_lto_input_info(const WeldInput *In, WeldInputInfo *Out) {
  *Out = In->Info;
}

size_t weld_lto_input_num_symbols(const WeldInput *In) {
  return In->File->symbols().size();
}

void weld_lto_input_symbol(const WeldInput *In, size_t I, WeldSymbol *Out) {
  const lto::InputFile::Symbol &S = In->File->symbols()[I];
  StringRef Name = S.getName(), IRName = S.getIRName(),
            Sec = S.getSectionName();
  uint32_t F = 0;
  F |= S.isUndefined() ? WELD_SYM_UNDEFINED : 0;
  F |= S.isWeak() ? WELD_SYM_WEAK : 0;
  F |= S.isCommon() ? WELD_SYM_COMMON : 0;
  F |= S.isIndirect() ? WELD_SYM_INDIRECT : 0;
  F |= S.isUsed() ? WELD_SYM_USED : 0;
  F |= S.isTLS() ? WELD_SYM_TLS : 0;
  F |= S.canBeOmittedFromSymbolTable() ? WELD_SYM_MAY_OMIT : 0;
  F |= S.isGlobal() ? WELD_SYM_GLOBAL : 0;
  F |= S.isFormatSpecific() ? WELD_SYM_FORMAT_SPECIFIC : 0;
  F |= S.isUnnamedAddr() ? WELD_SYM_UNNAMED_ADDR : 0;
  F |= S.isExecutable() ? WELD_SYM_EXECUTABLE : 0;
  Out->guid = 0;
  if (!IRName.empty()) {
    // Module-level asm symbols have no IR name and no summary. Everything in
    // the irsymtab is global, but keep the local rule right in case that
    // changes: locals hash "<source file>;<name>".
    GlobalValue::LinkageTypes L = S.isGlobal() ? GlobalValue::ExternalLinkage
                                               : GlobalValue::InternalLinkage;
    Out->guid = GlobalValue::getGUIDAssumingExternalLinkage(
        GlobalValue::getGlobalIdentifier(IRName, L,
                                         In->File->getSourceFileName()));
    F |= WELD_SYM_HAS_GUID;
  }
  Out->name = {Name.data(), Name.size()};
  Out->ir_name = {IRName.data(), IRName.size()};
  Out->section = {Sec.data(), Sec.size()};
  Out->flags = F;
  Out->visibility = uint32_t(S.getVisibility());
  Out->comdat_index = S.getComdatIndex();
  Out->common_size = S.isCommon() ? S.getCommonSize() : 0;
  Out->common_align = S.isCommon() ? S.getCommonAlignment() : 0;
}

size_t weld_lto_input_num_comdats(const WeldInput *In) {
  return In->File->getComdatTable().size();
}

void weld_lto_input_comdat(const WeldInput *In, size_t I, WeldComdat *Out) {
  const auto &C = In->File->getComdatTable()[I];
  Out->name = {C.first.data(), C.first.size()};
  Out->selection_kind = uint32_t(C.second);
}

// The library specifiers of the module's `llvm.dependent-libraries` metadata
// (`#pragma comment(lib, ...)`), which lld adds to the link like `.deplibs`.
size_t weld_lto_input_num_dependent_libraries(const WeldInput *In) {
  return In->File->getDependentLibraries().size();
}

void weld_lto_input_dependent_library(const WeldInput *In, size_t I,
                                      WeldStr *Out) {
  StringRef L = In->File->getDependentLibraries()[I];
  *Out = {L.data(), L.size()};
}

// ---------------------------------------------------------------------------
// Module summary as a flat graph of GUIDs. Rust maps GUIDs to symbols and
// follows edges through locals; this side only reads.
// ---------------------------------------------------------------------------

enum : uint32_t {
  WELD_NODE_LIVE = 1u << 0,
  WELD_NODE_FUNCTION = 1u << 1,
  WELD_NODE_VARIABLE = 1u << 2,
  WELD_NODE_ALIAS = 1u << 3,
  WELD_NODE_LOCAL = 1u << 4,
};

struct WeldSummaryNode {
  uint64_t guid;
  uint32_t flags;
  uint32_t edges_begin; // [begin, end) into WeldSummary::Edges
  uint32_t edges_end;
  uint32_t reserved;
  uint64_t name_begin; // [begin, begin + len) into WeldSummary::Names
  uint64_t name_len;
};

struct WeldSummary {
  std::vector<WeldSummaryNode> Nodes;
  std::vector<uint64_t> Edges;
  // Every node's IR name, back to back: the only way to label a static
  // function in a --why-live chain, since its GUID cannot be reversed.
  std::string Names;
  uint32_t BuiltModules = 0; // modules whose summary was computed from IR
};

static void appendIndex(WeldSummary &S, const ModuleSummaryIndex &Index) {
  for (const auto &Entry : Index) {
    for (const auto &Sum : Entry.second.getSummaryList()) {
      WeldSummaryNode N{};
      N.guid = Entry.first;
      // Names are kept by a per-module index read from bitcode (pointing into
      // the buffer's string table) and by one built from IR.
      ValueInfo VI(Index.haveGVs(), &Entry);
      StringRef Name;
      if (!Index.haveGVs() || VI.getValue())
        Name = VI.name();
      N.name_begin = S.Names.size();
      N.name_len = Name.size();
      S.Names.append(Name.data(), Name.size());
      N.flags = Sum->isLive() ? WELD_NODE_LIVE : 0;
      if (GlobalValue::isLocalLinkage(Sum->linkage()))
        N.flags |= WELD_NODE_LOCAL;
      N.edges_begin = uint32_t(S.Edges.size());
      for (ValueInfo VI : Sum->refs())
        S.Edges.push_back(VI.getGUID());
      if (auto *FS = dyn_cast<FunctionSummary>(Sum.get())) {
        N.flags |= WELD_NODE_FUNCTION;
        for (const FunctionSummary::EdgeTy &E : FS->calls())
          S.Edges.push_back(E.first.getGUID());
      } else if (auto *AS = dyn_cast<AliasSummary>(Sum.get())) {
        N.flags |= WELD_NODE_ALIAS;
        if (AS->hasAliasee())
          S.Edges.push_back(AS->getAliaseeGUID());
      } else {
        N.flags |= WELD_NODE_VARIABLE;
      }
      N.edges_end = uint32_t(S.Edges.size());
      S.Nodes.push_back(N);
    }
  }
}

} // extern "C"

// weld_lto_input_summary's work, under its guard.
static int readSummary(const WeldInput *In, WeldSummary **Out, char **Err) {
  Expected<std::vector<BitcodeModule>> Mods = getBitcodeModuleList(In->Buffer);
  if (!Mods)
    return failWith(Err, "cannot read LLVM bitcode: ", Mods.takeError());
  auto S = std::make_unique<WeldSummary>();
  for (BitcodeModule &BM : *Mods) {
    Expected<BitcodeLTOInfo> LI = BM.getLTOInfo();
    if (!LI)
      return failWith(Err, "cannot read LLVM bitcode: ", LI.takeError());
    if (LI->HasSummary) {
      // Reads only the summary block: no IR is materialized.
      Expected<std::unique_ptr<ModuleSummaryIndex>> Index = BM.getSummary();
      if (!Index)
        return failWith(Err, "cannot read module summary: ", Index.takeError());
      appendIndex(*S, **Index);
      continue;
    }
    // No summary (an old or hand-made module): compute one from the IR, as
    // the compiler would have. Slower, but exact.
    LLVMContext Ctx;
    DiagSink Diags;
    Ctx.setDiagnosticHandlerCallBack(sinkCallback, &Diags);
    Expected<std::unique_ptr<Module>> M = BM.parseModule(Ctx);
    if (!M)
      return failWith(Err, "cannot parse LLVM bitcode: ", M.takeError());
    if (Diags.HasError)
      return fail(Err, "cannot parse LLVM bitcode: " + Diags.Items.back().second);
    ProfileSummaryInfo PSI(**M);
    ModuleSummaryIndex Index = buildModuleSummaryIndex(**M, nullptr, &PSI);
    appendIndex(*S, Index);
    S->BuiltModules++;
  }
  *Out = S.release();
  return 0;
}

extern "C" {

int weld_lto_input_summary(const WeldInput *In, WeldSummary **Out,
                           char **Err) {
  initOnce();
  return guardedCall(*In->ModuleId, "reading its module summary", Err,
                     [&](char **Msg) { return readSummary(In, Out, Msg); });
}

void weld_lto_summary_get(const WeldSummary *S, const WeldSummaryNode **Nodes,
                          size_t *NumNodes, const uint64_t **Edges,
                          size_t *NumEdges, uint32_t *BuiltModules,
                          WeldStr *Names) {
  Names->ptr = S->Names.data();
  Names->len = S->Names.size();
  *Nodes = S->Nodes.data();
  *NumNodes = S->Nodes.size();
  *Edges = S->Edges.data();
  *NumEdges = S->Edges.size();
  *BuiltModules = S->BuiltModules;
}

void weld_lto_summary_free(WeldSummary *S) {
  // After a contained failure the object may be half-destroyed or share
  // state with one that is: leak it, the process is about to end.
  if (!Poisoned)
    delete S;
}

// ---------------------------------------------------------------------------
// Inline assembly: the edges no summary shows.
// ---------------------------------------------------------------------------

namespace {

// The asm string of an inline-asm constant record, whatever its vintage: the
// size comes first in the three older layouts and after the function type in
// the current one. False if the record does not hold together.
bool asmStringOf(unsigned Code, const SmallVectorImpl<uint64_t> &R,
                 std::string &Out) {
  size_t At = Code == bitc::CST_CODE_INLINEASM ? 2 : 1;
  if (R.size() <= At)
    return false;
  uint64_t Size = R[At];
  if (Size > R.size() - At - 1)
    return false;
  for (uint64_t I = 0; I < Size; ++I)
    Out += char(R[At + 1 + I]);
  return true;
}

// Walks one block (the cursor is inside it), appending the strings of
// inline-asm constants and module-level asm, descending into function and
// constants blocks only. Nothing is materialized: this reads the bitstream.
Error scanBlock(BitstreamCursor &C, unsigned BlockID, BitstreamBlockInfo &Info,
                std::string &Out) {
  SmallVector<uint64_t, 64> Record;
  while (true) {
    Expected<BitstreamEntry> E = C.advance();
    if (!E)
      return E.takeError();
    switch (E->Kind) {
    case BitstreamEntry::Error:
      return createStringError("malformed bitcode block");
    case BitstreamEntry::EndBlock:
      return Error::success();
    case BitstreamEntry::SubBlock:
      if (E->ID == bitc::BLOCKINFO_BLOCK_ID) {
        Expected<std::optional<BitstreamBlockInfo>> BI = C.ReadBlockInfoBlock();
        if (!BI)
          return BI.takeError();
        if (!*BI)
          return createStringError("malformed block info");
        // The cursor keeps a pointer: the caller owns the info.
        Info = std::move(**BI);
        C.setBlockInfo(&Info);
      } else if (E->ID == bitc::FUNCTION_BLOCK_ID ||
                 E->ID == bitc::CONSTANTS_BLOCK_ID) {
        if (Error Err = C.EnterSubBlock(E->ID))
          return Err;
        if (Error Err = scanBlock(C, E->ID, Info, Out))
          return Err;
      } else if (Error Err = C.SkipBlock()) {
        return Err;
      }
      break;
    case BitstreamEntry::Record: {
      bool Wanted = BlockID == bitc::CONSTANTS_BLOCK_ID ||
                    BlockID == bitc::MODULE_BLOCK_ID;
      if (!Wanted) {
        if (Expected<unsigned> K = C.skipRecord(E->ID); !K)
          return K.takeError();
        break;
      }
      Record.clear();
      Expected<unsigned> Code = C.readRecord(E->ID, Record);
      if (!Code)
        return Code.takeError();
      if (BlockID == bitc::MODULE_BLOCK_ID) {
        if (*Code == bitc::MODULE_CODE_ASM) {
          for (uint64_t Ch : Record)
            Out += char(Ch);
          Out += '\0';
        }
        break;
      }
      switch (*Code) {
      case bitc::CST_CODE_INLINEASM_OLD:
      case bitc::CST_CODE_INLINEASM_OLD2:
      case bitc::CST_CODE_INLINEASM_OLD3:
      case bitc::CST_CODE_INLINEASM:
        if (!asmStringOf(*Code, Record, Out))
          return createStringError("malformed inline asm record");
        Out += '\0';
        break;
      default:
        break;
      }
      break;
    }
    }
  }
}

} // namespace

// weld_lto_input_asm's work, under its guard.
static int readAsm(const WeldInput *In, char **Out, size_t *OutLen,
                   char **Err) {
  std::string Strings;
  BitstreamBlockInfo Info;
  if (Error X = forEachModuleBlock(In->Buffer, [&](BitstreamCursor &C) {
        return scanBlock(C, bitc::MODULE_BLOCK_ID, Info, Strings);
      })) {
    std::string Msg = toString(std::move(X));
    if (Msg == "not a bitcode stream" || Msg == "malformed bitcode wrapper header")
      return fail(Err, Msg);
    return fail(Err, "cannot scan bitcode: " + Msg);
  }
  *OutLen = Strings.size();
  *Out = dupString(Strings);
  return 0;
}

int weld_lto_input_asm(const WeldInput *In, char **Out, size_t *OutLen,
                       char **Err) {
  initOnce();
  return guardedCall(*In->ModuleId, "scanning it for inline assembly", Err,
                     [&](char **Msg) { return readAsm(In, Out, OutLen, Msg); });
}

// ---------------------------------------------------------------------------
// The LTO run.
// ---------------------------------------------------------------------------

enum : uint32_t {
  WELD_RELOC_DEFAULT = 0, // let the bitcode decide (lld: -r)
  WELD_RELOC_STATIC = 1,
  WELD_RELOC_PIC = 2,
  WELD_RELOC_DYNAMIC_NO_PIC = 3,
};

enum : uint32_t {
  WELD_LTO_KIND_DEFAULT = 0,         // each module's own kind
  WELD_LTO_KIND_UNIFIED_REGULAR = 1, // lld --lto=full
  WELD_LTO_KIND_UNIFIED_THIN = 2,    // lld --lto=thin
};

enum : uint32_t {
  WELD_BB_SECTIONS_DEFAULT = 0, // what -mllvm -basic-block-sections= says
  WELD_BB_SECTIONS_ALL = 1,
  WELD_BB_SECTIONS_NONE = 2,
  WELD_BB_SECTIONS_LIST = 3, // bb_sections_list holds the file's contents
};

// Strings are empty when unset; lists are (pointer, count) pairs.
struct WeldLtoConfig {
  uint32_t opt_level;    // 0..3
  uint32_t cg_opt_level; // 0..3
  WeldStr cpu;
  const WeldStr *mllvm;
  size_t num_mllvm;
  uint32_t thin_jobs;  // 0: one per physical core
  uint32_t partitions; // full-LTO codegen partitions, >= 1
  WeldStr cache_dir;   // empty: no cache
  WeldStr cache_policy;
  WeldStr save_temps_prefix; // empty: no save-temps
  uint32_t reloc_model;
  uint8_t emit_asm;
  uint8_t function_sections;
  uint8_t data_sections;
  uint8_t always_emit_regular_obj;
  uint8_t debug_pass_manager;
  uint8_t disable_verify;
  uint8_t emit_llvm;         // stop before codegen, keep each task's bitcode
  uint8_t reserved;
  const WeldStr *save_temps_stages; // none: every stage
  size_t num_save_temps_stages;
  WeldStr opt_pipeline; // --lto-newpm-passes
  WeldStr aa_pipeline;  // --lto-aa-pipeline
  WeldStr remarks_filename;
  WeldStr remarks_passes;
  WeldStr remarks_format;
  WeldStr stats_file;
  WeldStr sample_profile;
  WeldStr cs_profile; // output pattern with run_cs_instr, else the profile used
  WeldStr dwo_dir;
  WeldStr bb_sections_list;
  const WeldStr *pass_plugins;
  size_t num_pass_plugins;
  uint64_t remarks_hotness_threshold;
  uint32_t lto_kind;
  uint32_t bb_sections;
  uint8_t remarks_with_hotness;
  uint8_t remarks_hotness_auto; // threshold from the profile summary
  uint8_t run_cs_instr;
  uint8_t pgo_warn_mismatch;
  uint8_t whole_program_visibility;
  uint8_t validate_all_vtables_have_type_infos;
  uint8_t all_vtables_have_type_infos;
  uint8_t bb_addr_map;
  uint8_t unique_bb_section_names;
  // Distributed ThinLTO (lld's --thinlto-index-only and friends).
  uint8_t thin_index_only;         // write index files instead of compiling
  uint8_t thin_emit_index_files;   // write them (also) while compiling
  uint8_t thin_emit_imports_files; // and a MODULE.imports next to each
  uint8_t reserved2[4];
  WeldStr thin_prefix_old; // --thinlto-prefix-replace=OLD;NEW;NATIVE
  WeldStr thin_prefix_new;
  WeldStr thin_native_prefix;
  WeldStr thin_linked_objects_file;       // --thinlto-index-only=FILE
  const WeldStr *thin_modules_to_compile; // --thinlto-single-module=
  size_t num_thin_modules_to_compile;
  // DTLTO (lld's --thinlto-distributor= and companions); no distributor:
  // ThinLTO backends run in process.
  WeldStr dtlto_distributor;
  const WeldStr *dtlto_distributor_args;
  size_t num_dtlto_distributor_args;
  WeldStr dtlto_compiler;
  const WeldStr *dtlto_compiler_prepend_args;
  size_t num_dtlto_compiler_prepend_args;
  const WeldStr *dtlto_compiler_args;
  size_t num_dtlto_compiler_args;
  WeldStr dtlto_linker_output;
};

struct WeldResolution {
  uint8_t prevailing;
  uint8_t visible_to_regular_obj;
  uint8_t final_definition_in_linkage_unit;
  uint8_t export_dynamic;
  uint8_t linker_redefined;
};

// --lto-emit-llvm: the bitcode of each task's module, taken just before code
// generation (which is then skipped). Written from backend threads.
struct BitcodeCapture {
  std::mutex Mu;
  std::map<unsigned, SmallString<0>> Modules;
};

// Which added modules have had their index file written. The backends report
// each module they wrote (from LLVM's threads); a module none wrote (a
// full-LTO module, one a single-module run skipped) still gets an empty
// index file after the run, as lld writes one for every bitcode input.
struct IndexFiles {
  std::mutex Mu;
  std::vector<std::string> Pending; // in the order the modules were added
  std::string OldPrefix, NewPrefix;
  bool EmitImports = false;
  bool SingleModule = false; // --thinlto-single-module: no empty files

  void written(const std::string &Id) {
    std::lock_guard<std::mutex> Lock(Mu);
    llvm::erase(Pending, Id);
  }
};

// DTLTO's settings. LLVM's out-of-process backend and its DTLTO driver keep
// StringRefs to them, so they live as long as the LTO object.
struct DtltoStrings {
  std::string Distributor, Compiler, LinkerOutput;
  std::vector<std::string> DistributorArgs, CompilerPrependArgs, CompilerArgs;
  std::vector<StringRef> DistributorArgRefs, CompilerPrependArgRefs,
      CompilerArgRefs;
};

struct WeldLto {
  std::shared_ptr<DiagSink> Diags;
  std::shared_ptr<BitcodeCapture> Bitcode; // set with emit_llvm
  std::unique_ptr<DtltoStrings> Dtlto;     // set when a distributor is given
  std::unique_ptr<lto::LTO> L;
  // What weld_lto_run checks before LLVM sees it: LLVM reports a bad pipeline
  // or plugin with report_fatal_error (exit or crash), and a bad remarks
  // format or pass regex only after it has created the remarks files.
  std::string OptPipeline, AAPipeline, RemarksFilename, RemarksPasses,
      RemarksFormat;
  std::vector<std::string> PassPlugins;
  std::string Triple; // of the first input: the target the pipelines are for
  // Module ids referenced by BitcodeModules inside L; they must outlive run().
  std::vector<std::unique_ptr<std::string>> Ids;
  // Archive paths and member names the InputFiles in L refer to (DTLTO).
  std::vector<std::unique_ptr<std::string>> Origins;
  // Every added input's bytes (owned by the caller until run() returns), so a
  // failed run can find which input LLVM refused to read.
  std::vector<MemoryBufferRef> Buffers;
  std::string CacheDir, CachePolicy;
  size_t NumInputs = 0;
  bool Ran = false;
  // Distributed ThinLTO: the list of native objects the final link takes
  // (--thinlto-index-only=FILE), and the state the index writers share.
  std::unique_ptr<raw_fd_ostream> LinkedObjects;
  std::string LinkedObjectsPath;
  std::shared_ptr<IndexFiles> Indexes; // set when index files are written
  bool IndexOnly = false; // LLVM's index writer instead of backends
};

struct WeldLtoResult {
  std::vector<SmallString<0>> Bufs;                 // in-process output
  std::vector<SmallString<0>> Bitcode;              // emit_llvm: per task
  std::vector<std::unique_ptr<MemoryBuffer>> Files; // from the cache
  std::vector<std::string> Names;
  std::vector<uint8_t> FromCache;
  std::vector<std::pair<int, std::string>> Diags;
  uint32_t CacheHits = 0;
};

static std::mutex OptionsMu;
static std::vector<std::string> AppliedOptions;

// -mllvm options live in LLVM's process-global registry (lto::Config's
// MllvmArgs only feed the cache key), so they are parsed into it, under a
// lock, with errors captured instead of LLVM's exit(1). The same list is not
// parsed twice: list options would accumulate values.
static int applyOptions(const std::vector<std::string> &Args, char **Err) {
  std::lock_guard<std::mutex> Lock(OptionsMu);
  if (Args.empty() || Args == AppliedOptions)
    return 0;
  std::vector<const char *> Argv{"weld (LLVM option parsing)"};
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  std::string Msg;
  raw_string_ostream OS(Msg);
  if (!cl::ParseCommandLineOptions(int(Argv.size()), Argv.data(), "", &OS)) {
    OS.flush();
    return fail(Err, "invalid -mllvm option: " + StringRef(Msg).trim());
  }
  AppliedOptions = Args;
  return 0;
}

int weld_lto_set_options(const WeldStr *Args, size_t NumArgs, char **Err) {
  initOnce();
  std::vector<std::string> V;
  for (size_t I = 0; I < NumArgs; I++)
    V.emplace_back(Args[I].ptr, Args[I].len);
  return applyOptions(V, Err);
}

namespace {

// Set on the threads running a ThinLTO backend (GuardedThinBackend): the
// full-LTO module is verified before optimization, a ThinLTO one after import.
thread_local bool InThinTask = false;
// The verifier's first finding about the last module verifyBeforeOpt refused
// on this thread; empty when none was.
thread_local std::string BrokenModule;

bool verifyBeforeOpt(const Module &M) {
  std::string Found;
  raw_string_ostream OS(Found);
  bool BrokenDebugInfo = false;
  // Broken debug info alone is not fatal: LLVM's verifier pass drops it and
  // warns, as it would have without this check.
  if (!verifyModule(M, &OS, &BrokenDebugInfo))
    return true;
  OS.flush();
  StringRef First = StringRef(Found).split('\n').first.trim();
  BrokenModule = ("the module is invalid: " + First).str();
  return false;
}

// LLVM's in-process ThinLTO backend, with each module's backend run under its
// own guard on the pool thread that runs it. A CrashRecoveryContext covers only
// the thread that enters it, and the in-process backend offers no way to wrap
// its tasks, so this one does what it does (parse the module in a fresh
// context, look it up in the cache, run lto::thinBackend) inside `contained`.
// An error or a contained failure is reported as "MODULE: ...": LLVM's own
// backend would not say which module its reader refused. Once LLVM is
// poisoned, tasks not yet started do nothing (the run fails anyway).
class GuardedThinBackend : public lto::ThinBackendProc {
  AddStreamFn AddStream;
  FileCache Cache;
  // The CFI function sets, part of every cache key.
  DenseSet<GlobalValue::GUID> CfiFunctionDefs, CfiFunctionDecls;
  // With Indexes (--thinlto-emit-index-files), each module's index file
  // (and imports file) is written as its backend starts, as LLVM's
  // in-process backend does.
  std::shared_ptr<IndexFiles> Indexes;

public:
  GuardedThinBackend(
      const lto::Config &Conf, ModuleSummaryIndex &CombinedIndex,
      ThreadPoolStrategy Parallelism,
      const DenseMap<StringRef, GVSummaryMapTy> &ModuleToDefinedGVSummaries,
      AddStreamFn AddStream, FileCache Cache,
      std::shared_ptr<IndexFiles> Indexes)
      : ThinBackendProc(Conf, CombinedIndex, ModuleToDefinedGVSummaries,
                        /*OnWrite=*/nullptr,
                        /*ShouldEmitImportsFiles=*/Indexes &&
                            Indexes->EmitImports,
                        Parallelism),
        AddStream(std::move(AddStream)), Cache(std::move(Cache)),
        Indexes(std::move(Indexes)) {
    for (GlobalValue::GUID G : CombinedIndex.cfiFunctionDefs().guids())
      CfiFunctionDefs.insert(G);
    for (GlobalValue::GUID G : CombinedIndex.cfiFunctionDecls().guids())
      CfiFunctionDecls.insert(G);
  }

  Error start(
      unsigned Task, BitcodeModule BM,
      const FunctionImporter::ImportMapTy &ImportList,
      const FunctionImporter::ExportSetTy &ExportList,
      const std::map<GlobalValue::GUID, GlobalValue::LinkageTypes> &ResolvedODR,
      MapVector<StringRef, BitcodeModule> &ModuleMap) override {
    const GVSummaryMapTy &DefinedGlobals =
        ModuleToDefinedGVSummaries.find(BM.getModuleIdentifier())->second;
    if (Indexes) {
      std::string Id = BM.getModuleIdentifier().str();
      if (Error E = emitFiles(ImportList, Id, Id))
        return E;
      Indexes->written(Id);
    }
    // The lists live in LTO::runThinLTO until wait() returns.
    BackendThreadPool.async([this, Task, BM, &ImportList, &ExportList,
                             &ResolvedODR, &DefinedGlobals, &ModuleMap] {
      std::string Failure =
          runTask(Task, BM, ImportList, ExportList, ResolvedODR,
                  DefinedGlobals, ModuleMap);
      if (Failure.empty())
        return;
      std::lock_guard<std::mutex> Lock(ErrMu);
      Error E = createStringError(Failure);
      Err = Err ? joinErrors(std::move(*Err), std::move(E)) : std::move(E);
    });
    return Error::success();
  }

private:
  // One module's backend; the failure as "MODULE: ...", empty if none.
  std::string
  runTask(unsigned Task, BitcodeModule BM,
          const FunctionImporter::ImportMapTy &ImportList,
          const FunctionImporter::ExportSetTy &ExportList,
          const std::map<GlobalValue::GUID, GlobalValue::LinkageTypes>
              &ResolvedODR,
          const GVSummaryMapTy &DefinedGlobals,
          MapVector<StringRef, BitcodeModule> &ModuleMap) {
    if (Poisoned)
      return "";
    std::string ModuleID = BM.getModuleIdentifier().str();
    auto Compile = [&](AddStreamFn Stream) -> Error {
      lto::LTOLLVMContext Ctx(Conf);
      Expected<std::unique_ptr<Module>> M = BM.parseModule(Ctx);
      if (!M)
        return M.takeError();
      return lto::thinBackend(Conf, Task, Stream, **M, CombinedIndex,
                              ImportList, DefinedGlobals, &ModuleMap,
                              Conf.CodeGenOnly);
    };
    auto Run = [&]() -> Error {
      // Without a cache, or without a module hash to key it, compile.
      if (!Cache.isValid() || !CombinedIndex.modulePaths().count(ModuleID) ||
          all_of(CombinedIndex.getModuleHash(ModuleID),
                 [](uint32_t V) { return V == 0; }))
        return Compile(AddStream);
      std::string Key = computeLTOCacheKey(
          Conf, CombinedIndex, ModuleID, ImportList, ExportList, ResolvedODR,
          DefinedGlobals, CfiFunctionDefs, CfiFunctionDecls);
      Expected<AddStreamFn> CacheStream = Cache(Task, Key, ModuleID);
      if (!CacheStream)
        return CacheStream.takeError();
      // A null stream: the cache had the object and handed it over.
      if (*CacheStream)
        return Compile(*CacheStream);
      return Error::success();
    };
    std::string Msg;
    InThinTask = true;
    BrokenModule.clear();
    std::optional<Failure> Why = contained([&] {
      if (Error E = Run())
        Msg = toString(std::move(E));
    });
    InThinTask = false;
    if (Why)
      return recordFailure(ModuleID + ": " + Why->describe("compiling it"));
    if (Msg.empty())
      Msg = std::move(BrokenModule);
    return Msg.empty() ? Msg : ModuleID + ": " + Msg;
  }
};

lto::ThinBackend guardedThinBackend(ThreadPoolStrategy Parallelism,
                                    std::shared_ptr<IndexFiles> Indexes) {
  return lto::ThinBackend(
      [Parallelism, Indexes](const lto::Config &Conf,
                             ModuleSummaryIndex &CombinedIndex,
                             const DenseMap<StringRef, GVSummaryMapTy> &Defined,
                             AddStreamFn AddStream, FileCache Cache) {
        return std::make_unique<GuardedThinBackend>(
            Conf, CombinedIndex, Parallelism, Defined, std::move(AddStream),
            std::move(Cache), Indexes);
      },
      Parallelism);
}

} // namespace

int weld_lto_new(const WeldLtoConfig *C, WeldLto **Out, char **Err) {
  initOnce();
  if (C->opt_level > 3)
    return fail(Err, "invalid LTO optimization level: " + Twine(C->opt_level));
  if (C->cg_opt_level > 3)
    return fail(Err, "invalid LTO codegen optimization level: " +
                         Twine(C->cg_opt_level));

  lto::Config Conf;
  for (size_t I = 0; I < C->num_mllvm; I++)
    Conf.MllvmArgs.emplace_back(C->mllvm[I].ptr, C->mllvm[I].len);
  if (applyOptions(Conf.MllvmArgs, Err))
    return 1;

  // Start from the codegen flags, as clang and lld do, so -mllvm spellings of
  // codegen options keep working, then apply what the linker decided.
  Conf.Options = codegen::InitTargetOptionsFromCodeGenFlags(Triple());
  // Without this, constructors go to .ctors, which glibc's crt no longer runs.
  Conf.Options.UseInitArray = true;
  // lld accepts the new relocations and address-significance tables (ICF).
  Conf.Options.EmitAddrsig = true;
  Conf.Options.FunctionSections = C->function_sections != 0;
  Conf.Options.DataSections = C->data_sections != 0;

  if (std::optional<Reloc::Model> RM = codegen::getExplicitRelocModel()) {
    Conf.RelocModel = *RM;
  } else {
    switch (C->reloc_model) {
    case WELD_RELOC_DEFAULT:
      Conf.RelocModel = std::nullopt;
      break;
    case WELD_RELOC_STATIC:
      Conf.RelocModel = Reloc::Static;
      break;
    case WELD_RELOC_PIC:
      Conf.RelocModel = Reloc::PIC_;
      break;
    case WELD_RELOC_DYNAMIC_NO_PIC:
      Conf.RelocModel = Reloc::DynamicNoPIC;
      break;
    default:
      return fail(Err, "invalid relocation model " + Twine(C->reloc_model));
    }
  }
  Conf.CodeModel = codegen::getExplicitCodeModel();
  Conf.CPU = C->cpu.len ? std::string(C->cpu.ptr, C->cpu.len)
                        : codegen::getCPUStr();
  Conf.MAttrs = codegen::getMAttrs();
  Conf.OptLevel = C->opt_level;
  static const CodeGenOptLevel CGLevels[] = {
      CodeGenOptLevel::None, CodeGenOptLevel::Less, CodeGenOptLevel::Default,
      CodeGenOptLevel::Aggressive};
  Conf.CGOptLevel = CGLevels[C->cg_opt_level];
  Conf.PTO.LoopVectorization = Conf.OptLevel > 1;
  Conf.PTO.SLPVectorization = Conf.OptLevel > 1;
  Conf.DebugPassManager = C->debug_pass_manager != 0;
  Conf.DisableVerify = C->disable_verify != 0;
  Conf.AlwaysEmitRegularLTOObj = C->always_emit_regular_obj != 0;
  if (C->emit_asm) {
    Conf.CGFileType = CodeGenFileType::AssemblyFile;
    Conf.Options.MCOptions.AsmVerbose = true;
  }

  // Basic block sections: unset leaves what the codegen flags said.
  switch (C->bb_sections) {
  case WELD_BB_SECTIONS_DEFAULT:
    break;
  case WELD_BB_SECTIONS_ALL:
    Conf.Options.BBSections = BasicBlockSection::All;
    break;
  case WELD_BB_SECTIONS_NONE:
    Conf.Options.BBSections = BasicBlockSection::None;
    break;
  case WELD_BB_SECTIONS_LIST:
    Conf.Options.BBSections = BasicBlockSection::List;
    Conf.Options.BBSectionsFuncListBuf = MemoryBuffer::getMemBufferCopy(
        str(C->bb_sections_list), "--lto-basic-block-sections");
    break;
  default:
    return fail(Err, "invalid basic block sections mode " +
                         Twine(C->bb_sections));
  }
  Conf.Options.BBAddrMap = C->bb_addr_map != 0;
  Conf.Options.UniqueBasicBlockSectionNames = C->unique_bb_section_names != 0;

  Conf.OptPipeline = str(C->opt_pipeline);
  Conf.AAPipeline = str(C->aa_pipeline);
  Conf.RemarksFilename = str(C->remarks_filename);
  Conf.RemarksPasses = str(C->remarks_passes);
  Conf.RemarksFormat = str(C->remarks_format);
  Conf.RemarksWithHotness = C->remarks_with_hotness != 0;
  if (C->remarks_hotness_auto)
    Conf.RemarksHotnessThreshold = std::nullopt;
  else
    Conf.RemarksHotnessThreshold = C->remarks_hotness_threshold;
  Conf.StatsFile = str(C->stats_file);
  Conf.SampleProfile = str(C->sample_profile);
  Conf.CSIRProfile = str(C->cs_profile);
  Conf.RunCSIRInstr = C->run_cs_instr != 0;
  Conf.PGOWarnMismatch = C->pgo_warn_mismatch != 0;
  Conf.DwoDir = str(C->dwo_dir);
  Conf.HasWholeProgramVisibility = C->whole_program_visibility != 0;
  Conf.ValidateAllVtablesHaveTypeInfos =
      C->validate_all_vtables_have_type_infos != 0;
  Conf.AllVtablesHaveTypeInfos = C->all_vtables_have_type_infos != 0;
  for (size_t I = 0; I < C->num_pass_plugins; I++)
    Conf.PassPlugins.push_back(str(C->pass_plugins[I]));
  // Symbol names stay copied (LLVM's default): lld can drop the copies because its
  // inputs outlive LTO, but an input whose symbol table LLVM had to rebuild (bitcode
  // from another LLVM, such as rustc's) owns its names only until weld_lto_add
  // returns.

  lto::LTO::LTOKind Kind;
  switch (C->lto_kind) {
  case WELD_LTO_KIND_DEFAULT:
    Kind = lto::LTO::LTOK_Default;
    break;
  case WELD_LTO_KIND_UNIFIED_REGULAR:
    Kind = lto::LTO::LTOK_UnifiedRegular;
    break;
  case WELD_LTO_KIND_UNIFIED_THIN:
    Kind = lto::LTO::LTOK_UnifiedThin;
    break;
  default:
    return fail(Err, "invalid LTO kind " + Twine(C->lto_kind));
  }

  auto W = std::make_unique<WeldLto>();
  W->Diags = std::make_shared<DiagSink>();
  std::shared_ptr<DiagSink> Sink = W->Diags;
  Conf.DiagHandler = [Sink](const DiagnosticInfo &DI) { Sink->add(DI); };
  W->OptPipeline = Conf.OptPipeline;
  W->AAPipeline = Conf.AAPipeline;
  W->RemarksFilename = Conf.RemarksFilename;
  W->RemarksPasses = Conf.RemarksPasses;
  W->RemarksFormat = Conf.RemarksFormat;
  W->PassPlugins = Conf.PassPlugins;

  if (!Conf.DisableVerify) {
    // LLVM verifies a module after optimizing it, where a broken one (a
    // corrupt but readable input) may already have crashed the optimizer, and
    // it prints the verifier's findings on stderr before stopping. So each
    // module is verified first, findings kept: the full-LTO module before
    // optimization, a ThinLTO module once its imports are in. A broken one
    // stops its task, and the task reports it (see brokenModule).
    Conf.PreOptModuleHook = [](unsigned, const Module &M) {
      return InThinTask || verifyBeforeOpt(M);
    };
    Conf.PostImportModuleHook = [](unsigned, const Module &M) {
      return verifyBeforeOpt(M);
    };
  }

  if (C->emit_llvm) {
    // lld writes the module to the output file here and returns false, which
    // skips code generation; the bitcode is kept per task instead, so the
    // linker decides what to write and no thread touches the output.
    W->Bitcode = std::make_shared<BitcodeCapture>();
    std::shared_ptr<BitcodeCapture> Cap = W->Bitcode;
    Conf.PreCodeGenModuleHook = [Cap](unsigned Task, const Module &M) {
      SmallString<0> Buf;
      raw_svector_ostream OS(Buf);
      WriteBitcodeToFile(M, OS, /*ShouldPreserveUseListOrder=*/false);
      std::lock_guard<std::mutex> Lock(Cap->Mu);
      Cap->Modules[Task] = std::move(Buf);
      return false;
    };
  }

  if (C->save_temps_prefix.len) {
    DenseSet<StringRef> Stages;
    for (size_t I = 0; I < C->num_save_temps_stages; I++)
      Stages.insert(StringRef(C->save_temps_stages[I].ptr,
                              C->save_temps_stages[I].len));
    // An empty set means every stage. The strings only need to live through
    // this call: addSaveTemps compares them and keeps nothing.
    if (Error E = Conf.addSaveTemps(str(C->save_temps_prefix),
                                    /*UseInputModulePath=*/true, Stages))
      return failWith(Err, "--save-temps: ", std::move(E));
  }
  W->CacheDir.assign(C->cache_dir.ptr, C->cache_dir.len);
  W->CachePolicy.assign(C->cache_policy.ptr, C->cache_policy.len);
  if (!W->CacheDir.empty()) {
    // Validate now so a bad policy fails before any work is done.
    Expected<CachePruningPolicy> P = parseCachePruningPolicy(W->CachePolicy);
    if (!P)
      return failWith(Err, "invalid LTO cache policy: ", P.takeError());
  }

  for (size_t I = 0; I < C->num_thin_modules_to_compile; I++)
    Conf.ThinLTOModulesToCompile.push_back(str(C->thin_modules_to_compile[I]));
  if (C->thin_index_only || C->thin_emit_index_files) {
    W->Indexes = std::make_shared<IndexFiles>();
    W->Indexes->OldPrefix = str(C->thin_prefix_old);
    W->Indexes->NewPrefix = str(C->thin_prefix_new);
    W->Indexes->EmitImports = C->thin_emit_imports_files != 0;
    W->Indexes->SingleModule = C->num_thin_modules_to_compile != 0;
  }
  lto::ThinBackend Backend;
  if (C->thin_index_only) {
    W->IndexOnly = true;
    // Opened before any input is added, as lld does, so the list exists
    // (empty) even when no ThinLTO module is written into it.
    W->LinkedObjectsPath = str(C->thin_linked_objects_file);
    if (!W->LinkedObjectsPath.empty()) {
      std::error_code EC;
      W->LinkedObjects = std::make_unique<raw_fd_ostream>(
          W->LinkedObjectsPath, EC, sys::fs::OF_None);
      if (EC)
        return fail(Err, "cannot open " + W->LinkedObjectsPath + ": " +
                             EC.message());
    }
    std::shared_ptr<IndexFiles> Indexes = W->Indexes;
    // LLVM's own writer, so the files are what lld writes for the same
    // resolutions; it writes the modules in the order they were added.
    Backend = lto::createWriteIndexesThinBackend(
        hardware_concurrency(C->thin_jobs), W->Indexes->OldPrefix,
        W->Indexes->NewPrefix, str(C->thin_native_prefix),
        W->Indexes->EmitImports, W->LinkedObjects.get(),
        [Indexes](const std::string &Id) { Indexes->written(Id); });
  } else if (C->dtlto_distributor.len) {
    // LLVM's own out-of-process backend, so the job file and the way the
    // distributor is run are LLVM's, as with lld; its parallelism (lld's
    // choice) only bounds the index writing done here.
    auto D = std::make_unique<DtltoStrings>();
    auto strs = [](const WeldStr *V, size_t N, std::vector<std::string> &Out,
                   std::vector<StringRef> &Refs) {
      for (size_t I = 0; I < N; I++)
        Out.push_back(str(V[I]));
      for (const std::string &A : Out)
        Refs.push_back(A);
    };
    D->Distributor = str(C->dtlto_distributor);
    D->Compiler = str(C->dtlto_compiler);
    D->LinkerOutput = str(C->dtlto_linker_output);
    strs(C->dtlto_distributor_args, C->num_dtlto_distributor_args,
         D->DistributorArgs, D->DistributorArgRefs);
    strs(C->dtlto_compiler_prepend_args, C->num_dtlto_compiler_prepend_args,
         D->CompilerPrependArgs, D->CompilerPrependArgRefs);
    strs(C->dtlto_compiler_args, C->num_dtlto_compiler_args, D->CompilerArgs,
         D->CompilerArgRefs);
    std::shared_ptr<IndexFiles> Indexes = W->Indexes;
    Backend = lto::createOutOfProcessThinBackend(
        hardware_concurrency(C->thin_jobs),
        [Indexes](const std::string &Id) {
          if (Indexes)
            Indexes->written(Id);
        },
        /*ShouldEmitIndexFiles=*/C->thin_emit_index_files != 0,
        /*ShouldEmitImportsFiles=*/C->thin_emit_imports_files != 0,
        D->LinkerOutput, D->Distributor, D->DistributorArgRefs, D->Compiler,
        D->CompilerPrependArgRefs, D->CompilerArgRefs,
        /*SaveTemps=*/C->save_temps_prefix.len != 0);
    W->Dtlto = std::move(D);
  } else {
    Backend = guardedThinBackend(heavyweight_hardware_concurrency(C->thin_jobs),
                                 W->Indexes);
  }
  if (W->Dtlto)
    // The DTLTO driver gives an archive member (or a fat object's bitcode) a
    // file of its own for the remote compiler, and removes it after the run.
    W->L = std::make_unique<lto::DTLTO>(
        std::move(Conf), std::move(Backend), C->partitions ? C->partitions : 1,
        Kind, W->Dtlto->LinkerOutput, /*SaveTemps=*/C->save_temps_prefix.len != 0);
  else
    W->L = std::make_unique<lto::LTO>(std::move(Conf), std::move(Backend),
                                      C->partitions ? C->partitions : 1, Kind);
  *Out = W.release();
  return 0;
}

void weld_lto_free(WeldLto *W) {
  // After a contained failure the object may be half-destroyed or share
  // state with one that is: leak it, the process is about to end.
  if (!Poisoned)
    delete W;
}

int weld_lto_add(WeldLto *W, WeldInput *In, const WeldResolution *Res,
                 size_t NumRes, char **Err) {
  // Take ownership first: the input is consumed whatever happens.
  std::unique_ptr<WeldInput> Owned(In);
  if (W->Ran)
    return fail(Err, "LTO inputs added after run()");
  size_t NumSyms = Owned->File->symbols().size();
  if (NumRes != NumSyms)
    return fail(Err, *Owned->ModuleId + ": " + Twine(NumRes) +
                         " symbol resolutions given for " + Twine(NumSyms) +
                         " symbols");
  std::vector<lto::SymbolResolution> R(NumRes);
  for (size_t I = 0; I < NumRes; I++) {
    R[I].Prevailing = Res[I].prevailing != 0;
    R[I].VisibleToRegularObj = Res[I].visible_to_regular_obj != 0;
    R[I].FinalDefinitionInLinkageUnit =
        Res[I].final_definition_in_linkage_unit != 0;
    R[I].ExportDynamic = Res[I].export_dynamic != 0;
    R[I].LinkerRedefined = Res[I].linker_redefined != 0;
  }
  // The BitcodeModules that LTO keeps refer to the module id's storage.
  // Kept even if add() fails: LTO may already hold references to it.
  W->Ids.push_back(std::move(Owned->ModuleId));
  const std::string &Id = *W->Ids.back();
  W->Buffers.push_back(Owned->Buffer);
  if (Owned->ArchivePath && !Owned->ArchivePath->empty()) {
    W->Origins.push_back(std::move(Owned->ArchivePath));
    StringRef Archive = *W->Origins.back();
    W->Origins.push_back(std::move(Owned->MemberName));
    Owned->File->setArchivePathAndName(Archive, *W->Origins.back());
  }
  Owned->File->fatLTOObject(Owned->FatLTOObject);
  if (W->Triple.empty())
    W->Triple = Owned->File->getTargetTriple().str();
  if (Poisoned) {
    (void)Owned.release();
    return refuse(Err);
  }
  // LTO::add reads the module's summary (ThinLTO) or its module-level records
  // (full LTO): as much of the file as any reader.
  int Status = guardedCall(Id, "adding it to LTO", Err, [&](char **Msg) {
    if (Error E = W->L->add(std::move(Owned->File), R))
      return failWith(Msg, Id + ": ", std::move(E));
    W->NumInputs++;
    if (W->Indexes) {
      std::lock_guard<std::mutex> Lock(W->Indexes->Mu);
      W->Indexes->Pending.push_back(Id);
    }
    return 0;
  });
  if (Poisoned)
    (void)Owned.release();
  return Status;
}

// The first added input whose modules LLVM cannot read, as "<input>: <LLVM's
// reason>". Only called after a failed run: it costs a parse of every input.
// Each input is read under a guard of its own, so a crash names it too.
static std::optional<std::string> unreadableInput(const WeldLto &W) {
  for (size_t I = 0; I < W.Buffers.size() && I < W.Ids.size(); I++) {
    std::optional<std::string> Reason;
    std::optional<Failure> Why = contained([&] {
      Expected<std::vector<BitcodeModule>> Mods =
          getBitcodeModuleList(W.Buffers[I]);
      if (!Mods) {
        Reason = toString(Mods.takeError());
        return;
      }
      for (BitcodeModule &BM : *Mods) {
        LLVMContext Ctx;
        DiagSink Diags;
        Ctx.setDiagnosticHandlerCallBack(sinkCallback, &Diags);
        Expected<std::unique_ptr<Module>> M =
            BM.getLazyModule(Ctx, false, false);
        if (!M) {
          Reason = toString(M.takeError());
          return;
        }
        // Function bodies too: a full-LTO module is read whole only while
        // it is linked into the merged module, whose errors say nothing of
        // where it came from.
        if (Error X = (*M)->materializeAll()) {
          Reason = toString(std::move(X));
          return;
        }
      }
    });
    if (Why)
      return recordFailure(*W.Ids[I] + ": " +
                           Why->describe("reading this bitcode file"));
    if (Reason)
      return *W.Ids[I] + ": " + *Reason;
  }
  return std::nullopt;
}

// The settings LLVM would only reject in the middle of the run, by ending the
// process (a pipeline it cannot parse, a plugin it cannot load) or after
// creating the remarks files (an unknown format, a bad pass regex), checked
// up front with LLVM's own parsers and its wording.
static std::optional<std::string> checkSettings(const WeldLto &W) {
  // Without a remarks file LLVM looks at neither the format nor the passes.
  if (!W.RemarksFilename.empty() && !W.RemarksFormat.empty()) {
    Expected<remarks::Format> F = remarks::parseFormat(W.RemarksFormat);
    if (!F)
      return toString(F.takeError());
  }
  if (!W.RemarksFilename.empty() && !W.RemarksPasses.empty()) {
    std::string Why;
    if (!Regex(W.RemarksPasses).isValid(Why))
      return Why;
  }
  std::vector<PassPlugin> Plugins;
  for (const std::string &Path : W.PassPlugins) {
    Expected<PassPlugin> P = PassPlugin::Load(Path);
    if (!P)
      return toString(P.takeError());
    Plugins.push_back(std::move(*P));
  }
  if (W.OptPipeline.empty() && W.AAPipeline.empty())
    return std::nullopt;
  // Target passes and plugins' passes are only known to a PassBuilder that
  // has the target machine and the plugins' callbacks, as LTO's own has.
  llvm::Triple TT(W.Triple);
  std::string Ignored;
  std::unique_ptr<TargetMachine> TM;
  if (const Target *T = TargetRegistry::lookupTarget(TT, Ignored))
    TM.reset(T->createTargetMachine(TT, "", "", TargetOptions(), std::nullopt));
  PassBuilder PB(TM.get());
  for (const PassPlugin &P : Plugins)
    P.registerPassBuilderCallbacks(PB);
  if (!W.OptPipeline.empty()) {
    ModulePassManager MPM;
    if (Error E = PB.parsePassPipeline(MPM, W.OptPipeline))
      return "unable to parse pass pipeline description '" + W.OptPipeline +
             "': " + toString(std::move(E));
  }
  if (!W.AAPipeline.empty()) {
    AAManager AA;
    if (Error E = PB.parseAAPipeline(AA, W.AAPipeline))
      return "unable to parse AA pipeline description '" + W.AAPipeline +
             "': " + toString(std::move(E));
  }
  return std::nullopt;
}

// After a run that wrote index files: an empty index file (and imports file)
// for each module no backend wrote one for, as lld writes them (a full-LTO
// module has no ThinLTO index, but a distributed build expects a file per
// bitcode input), then the list of native objects closed.
static int finishIndexFiles(WeldLto &W, char **Err) {
  if (W.Indexes && !W.Indexes->SingleModule) {
    std::vector<std::string> Pending;
    {
      std::lock_guard<std::mutex> Lock(W.Indexes->Mu);
      Pending = W.Indexes->Pending;
    }
    for (const std::string &Id : Pending) {
      std::string Path = lto::getThinLTOOutputFile(Id, W.Indexes->OldPrefix,
                                                   W.Indexes->NewPrefix);
      std::vector<std::string> Files = {Path + ".thinlto.bc"};
      if (W.Indexes->EmitImports)
        Files.push_back(Path + ".imports");
      for (const std::string &F : Files) {
        std::error_code EC;
        raw_fd_ostream OS(F, EC, sys::fs::OF_None);
        if (EC)
          return fail(Err, "cannot open " + F + ": " + EC.message());
      }
    }
  }
  if (W.LinkedObjects) {
    W.LinkedObjects->close();
    if (std::error_code EC = W.LinkedObjects->error()) {
      // An unchecked stream error would end the process when it is freed.
      W.LinkedObjects->clear_error();
      return fail(Err, "cannot write " + W.LinkedObjectsPath + ": " +
                           EC.message());
    }
  }
  return 0;
}

// On failure *Out is still set: its diagnostics hold LLVM's error messages,
// and Err holds LTO's own error when it is not one of them (may be empty).
int weld_lto_run(WeldLto *W, WeldLtoResult **Out, char **Err) {
  if (W->Ran)
    return fail(Err, "LTO run() called twice");
  W->Ran = true;
  auto R = std::make_unique<WeldLtoResult>();
  if (W->NumInputs == 0) {
    *Out = R.release();
    return finishIndexFiles(*W, Err);
  }
  if (std::optional<std::string> Bad = checkSettings(*W)) {
    *Out = R.release();
    return fail(Err, *Bad);
  }
  unsigned MaxTasks = W->L->getMaxTasks();
  R->Bufs.resize(MaxTasks);
  R->Files.resize(MaxTasks);
  R->Names.resize(MaxTasks);
  R->FromCache.assign(MaxTasks, 0);
  WeldLtoResult *RP = R.get();

  // Called concurrently, at most once per task: each task owns its slot.
  auto AddStream = [RP, MaxTasks](unsigned Task, const Twine &ModuleName)
      -> Expected<std::unique_ptr<CachedFileStream>> {
    if (Task >= MaxTasks)
      return createStringError("LTO task " + Twine(Task) + " out of range");
    RP->Names[Task] = ModuleName.str();
    return std::make_unique<CachedFileStream>(
        std::make_unique<raw_svector_ostream>(RP->Bufs[Task]));
  };

  std::atomic<uint32_t> Hits{0};
  FileCache Cache;
  if (!W->CacheDir.empty()) {
    // Both hits and (after writing) misses come back through AddBuffer, so
    // hits are counted where the cache lookup answers "no stream needed".
    Expected<FileCache> Local = localCache(
        "ThinLTO", "Thin", W->CacheDir,
        [RP, MaxTasks](unsigned Task, const Twine &ModuleName,
                       std::unique_ptr<MemoryBuffer> MB) {
          if (Task >= MaxTasks)
            return;
          RP->Files[Task] = std::move(MB);
          RP->Names[Task] = ModuleName.str();
        });
    if (!Local)
      return failWith(Err, "cannot use LTO cache directory " + W->CacheDir +
                               ": ",
                      Local.takeError());
    FileCache Inner = std::move(*Local);
    Cache = FileCache(
        [Inner, RP, MaxTasks, &Hits](unsigned Task, StringRef Key,
                                     const Twine &ModuleName) mutable
        -> Expected<AddStreamFn> {
          Expected<AddStreamFn> S = Inner(Task, Key, ModuleName);
          if (S && !*S) {
            Hits++;
            if (Task < MaxTasks)
              RP->FromCache[Task] = 1;
          }
          return S;
        },
        W->CacheDir);
  }

  if (Poisoned) {
    *Out = R.release();
    return refuse(Err);
  }
  // Under a guard: the thin link, the full-LTO module's optimization and code
  // generation run on this thread (ThinLTO backends have guards of their own).
  // Which input a crash here comes from cannot be told, so it names them all.
  std::string RunError;
  RunContextText.clear();
  for (size_t I = 0; I < W->Ids.size(); I++)
    RunContextText += (I ? ", " : "") + *W->Ids[I];
  RunContext = RunContextText.c_str();
  BrokenModule.clear();
  std::optional<Failure> Why = contained([&] {
    if (Error E = W->L->run(AddStream, Cache))
      RunError = toString(std::move(E));
  });
  RunContext = nullptr;
  // The full-LTO module, merged from every full-LTO input, failed
  // verification: which input broke it cannot be told.
  if (RunError.empty() && !BrokenModule.empty())
    RunError = RunContextText + ": " + BrokenModule;
  if (Why) {
    *Out = R.release();
    return fail(Err, recordFailure(RunContextText + ": " +
                                   Why->describe("running LTO")));
  }
  if (Poisoned) {
    // A backend's guard caught it, and named its module; its message is the
    // one to report. The diagnostics are left alone: a thread that failed
    // may have left their lock taken.
    *Out = R.release();
    std::lock_guard<std::mutex> Lock(FirstFailureMu);
    return fail(Err, FirstFailure);
  }
  {
    std::lock_guard<std::mutex> Lock(W->Diags->Mu);
    R->Diags = std::move(W->Diags->Items);
    W->Diags->Items.clear();
  }
  R->CacheHits = Hits.load();
  if (W->Bitcode) {
    std::lock_guard<std::mutex> Lock(W->Bitcode->Mu);
    R->Bitcode.resize(MaxTasks);
    for (auto &[Task, Buf] : W->Bitcode->Modules)
      if (Task < MaxTasks)
        R->Bitcode[Task] = std::move(Buf);
    W->Bitcode->Modules.clear();
  }
  if (!RunError.empty()) {
    std::string Msg = std::move(RunError);
    // Errors such as a future bitcode epoch surface only when LTO parses
    // the IR, without the module's name: find the input that cannot be read
    // so the one error names it.
    if (std::optional<std::string> Bad = unreadableInput(*W)) {
      R->Diags.clear();
      *Out = R.release();
      return fail(Err, *Bad);
    }
    for (auto &D : R->Diags)
      if (D.first == DS_Error && D.second == Msg)
        Msg.clear();
    // A backend names its module ("MODULE: text"); the same text as an
    // unnamed error diagnostic would only say it again.
    SmallVector<StringRef, 4> Lines;
    StringRef(Msg).split(Lines, '\n');
    llvm::erase_if(R->Diags, [&](const std::pair<int, std::string> &D) {
      return D.first == DS_Error && any_of(Lines, [&](StringRef L) {
               return L.ends_with(": " + D.second);
             });
    });
    *Out = R.release();
    return fail(Err, Msg);
  }
  if (W->Diags->HasError) {
    *Out = R.release();
    return fail(Err, "");
  }
  // The run is over: LLVM's LTO state (its combined index, ...) goes now,
  // before weld copies the objects out, not after (0.5 MB of the heap at the
  // peak of a distributed ThinLTO link of Lua, massif).
  W->L.reset();
  // Pruning mirrors lld, which does not prune after an index-only run (its
  // backend uses no cache). The policy was validated in weld_lto_new.
  if (!W->CacheDir.empty() && !W->IndexOnly) {
    Expected<CachePruningPolicy> P = parseCachePruningPolicy(W->CachePolicy);
    if (P)
      pruneCache(W->CacheDir, *P, R->Files);
    else
      consumeError(P.takeError());
  }
  *Out = R.release();
  return finishIndexFiles(*W, Err);
}

size_t weld_lto_result_num_tasks(const WeldLtoResult *R) {
  return R->Bufs.size();
}

// The object of one task; len 0 when LTO produced nothing for it.
void weld_lto_result_object(const WeldLtoResult *R, size_t Task,
                            WeldStr *Data, WeldStr *Name, uint8_t *FromCache) {
  StringRef D;
  if (R->Files[Task])
    D = R->Files[Task]->getBuffer();
  else
    D = StringRef(R->Bufs[Task].data(), R->Bufs[Task].size());
  *Data = {D.data(), D.size()};
  *Name = {R->Names[Task].data(), R->Names[Task].size()};
  *FromCache = R->FromCache[Task];
}

uint32_t weld_lto_result_cache_hits(const WeldLtoResult *R) {
  return R->CacheHits;
}

size_t weld_lto_result_num_diags(const WeldLtoResult *R) {
  return R->Diags.size();
}

void weld_lto_result_diag(const WeldLtoResult *R, size_t I, uint32_t *Severity,
                          WeldStr *Text) {
  *Severity = uint32_t(R->Diags[I].first);
  *Text = {R->Diags[I].second.data(), R->Diags[I].second.size()};
}

// The message of the first contained failure (see "Containment" above), as a
// malloc'ed string for weld_lto_free_string; null when LLVM never failed.
char *weld_lto_failure(void) {
  if (!Poisoned)
    return nullptr;
  std::lock_guard<std::mutex> Lock(FirstFailureMu);
  return dupString(FirstFailure);
}

// Ends the process without exit-time destructors: after a contained failure
// they would run over whatever state the failure left behind.
void weld_lto_exit(int Code) { _exit(Code); }

// sizeof(WeldLtoConfig), which the Rust mirror checks before every use: the
// two declarations are kept in step by hand.
size_t weld_lto_config_size(void) { return sizeof(WeldLtoConfig); }

// lld's index file for a bitcode input that did not join the link (an
// archive member nothing extracted): an empty summary index flagged so the
// distributed backend skips the module.
int weld_lto_write_empty_index(const char *Path, size_t Len, char **Err) {
  initOnce();
  std::string P(Path, Len);
  std::error_code EC;
  raw_fd_ostream OS(P, EC, sys::fs::OF_None);
  if (EC)
    return fail(Err, "cannot open " + P + ": " + EC.message());
  ModuleSummaryIndex Index(/*HaveGVs=*/false);
  Index.setSkipModuleByDistributedBackend();
  writeIndexToFile(Index, OS);
  OS.close();
  if (std::error_code WEC = OS.error()) {
    OS.clear_error();
    return fail(Err, "cannot write " + P + ": " + WEC.message());
  }
  return 0;
}

// The bitcode of one task with emit_llvm; len 0 when there is none.
void weld_lto_result_bitcode(const WeldLtoResult *R, size_t Task,
                             WeldStr *Data) {
  if (Task < R->Bitcode.size())
    *Data = {R->Bitcode[Task].data(), R->Bitcode[Task].size()};
  else
    *Data = {nullptr, 0};
}

// Frees one task's object and bitcode once weld holds its own copy: without
// it, every object would be in memory twice when the last one is copied (the
// link's peak, with distributed ThinLTO, came there). A buffer is freed by
// moving it out (swapping with or assigning an empty SmallString keeps the
// capacity).
void weld_lto_result_release_task(WeldLtoResult *R, size_t Task) {
  if (Poisoned)
    return;
  if (Task < R->Bufs.size()) {
    SmallString<0> Gone(std::move(R->Bufs[Task]));
  }
  if (Task < R->Files.size())
    R->Files[Task].reset();
  if (Task < R->Bitcode.size()) {
    SmallString<0> Gone(std::move(R->Bitcode[Task]));
  }
}

void weld_lto_result_free(WeldLtoResult *R) {
  // After a contained failure the object may be half-destroyed or share
  // state with one that is: leak it, the process is about to end.
  if (!Poisoned)
    delete R;
}

// Names joined by '\0' into one malloc'ed buffer (weld_lto_free_string).
char *weld_lto_runtime_libcalls(const char *TT, size_t Len, size_t *OutLen) {
  initOnce();
  std::string Joined;
  for (const char *S : lto::LTO::getRuntimeLibcallSymbols(Triple(StringRef(TT, Len)))) {
    if (!S)
      continue;
    Joined += S;
    Joined += '\0';
  }
  *OutLen = Joined.size();
  return dupString(Joined);
}

} // extern "C"
