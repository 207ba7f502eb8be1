// bench-llvm-tool: the `llvm-static` workload of scripts/bench.
//
// A small but real LLVM client: it initialises every target LLVM was built with, parses an IR
// file, verifies it, runs the O2 pipeline and compiles the result to an object file for each
// target triple named on the command line. That pulls most of LLVM's static archives (IR, the
// pass pipeline, CodeGen, MC and every backend) into the link, which is what the benchmark wants.
//
//   bench-llvm-tool --version             prints LLVM's version and the number of targets
//   bench-llvm-tool FILE.ll [TRIPLE...]   optimises FILE.ll and compiles it for each TRIPLE
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace llvm;

static std::unique_ptr<TargetMachine> makeMachine(const Triple &T) {
  std::string Err;
  const Target *Tgt = TargetRegistry::lookupTarget(T, Err);
  if (!Tgt) {
    errs() << "bench-llvm-tool: " << T.str() << ": " << Err << "\n";
    return nullptr;
  }
  TargetOptions Opts;
  return std::unique_ptr<TargetMachine>(
      Tgt->createTargetMachine(T, "", "", Opts, Reloc::PIC_));
}

int main(int argc, char **argv) {
  InitializeAllTargetInfos();
  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();
  InitializeAllAsmPrinters();
  InitializeAllDisassemblers();

  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    unsigned N = 0;
    for (const Target &T : TargetRegistry::targets()) {
      (void)T;
      ++N;
    }
    outs() << "bench-llvm-tool (LLVM " LLVM_VERSION_STRING "), " << N << " targets\n";
    return 0;
  }
  if (argc < 2) {
    errs() << "usage: bench-llvm-tool --version | FILE.ll [TRIPLE...]\n";
    return 2;
  }

  LLVMContext Ctx;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseIRFile(argv[1], Diag, Ctx);
  if (!M) {
    Diag.print(argv[0], errs());
    return 1;
  }
  if (verifyModule(*M, &errs())) {
    errs() << "bench-llvm-tool: " << argv[1] << ": invalid module\n";
    return 1;
  }

  std::vector<std::string> Triples;
  for (int I = 2; I < argc; ++I)
    Triples.push_back(argv[I]);
  if (Triples.empty())
    Triples.push_back("x86_64-unknown-linux-gnu");

  for (const std::string &TS : Triples) {
    Triple T(TS);
    std::unique_ptr<TargetMachine> TM = makeMachine(T);
    if (!TM)
      return 1;
    std::unique_ptr<Module> Clone = CloneModule(*M);
    Clone->setTargetTriple(T);
    Clone->setDataLayout(TM->createDataLayout());

    LoopAnalysisManager LAM;
    FunctionAnalysisManager FAM;
    CGSCCAnalysisManager CGAM;
    ModuleAnalysisManager MAM;
    PassBuilder PB(TM.get());
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2);
    MPM.run(*Clone, MAM);

    unsigned Defined = 0;
    for (const Function &F : *Clone)
      if (!F.isDeclaration())
        ++Defined;

    SmallString<4096> Obj;
    raw_svector_ostream OS(Obj);
    legacy::PassManager PM;
    if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile)) {
      errs() << "bench-llvm-tool: " << TS << ": cannot emit an object file\n";
      return 1;
    }
    PM.run(*Clone);
    outs() << TS << ": " << Defined << " functions after O2, " << (Obj.empty() ? "no" : "an")
           << " object file\n";
  }
  return 0;
}
