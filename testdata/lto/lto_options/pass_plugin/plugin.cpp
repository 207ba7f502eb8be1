// An LLVM pass plugin for --load-pass-plugin: at the end of LTO's optimization pipeline
// (full and ThinLTO), it sets the initializer of `weld_plugin_marker` to 42 and says so on
// standard error. Built against LLVM 22 (llvm-config-22 --cxxflags) by the test.
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {
struct MarkerPass : PassInfoMixin<MarkerPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    // LTO has internalized the variable by now: look it up whatever its linkage.
    GlobalVariable *G = M.getNamedGlobal("weld_plugin_marker");
    if (!G || !G->hasInitializer())
      return PreservedAnalyses::all();
    G->setInitializer(ConstantInt::get(G->getValueType(), 42));
    errs() << "weld-test-plugin: set weld_plugin_marker in " << M.getSourceFileName()
           << "\n";
    return PreservedAnalyses::none();
  }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "WeldTestPlugin", "1", [](PassBuilder &PB) {
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
                  MPM.addPass(MarkerPass());
                });
            PB.registerFullLinkTimeOptimizationLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(MarkerPass()); });
          }};
}
