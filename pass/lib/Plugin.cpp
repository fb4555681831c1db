//===- Plugin.cpp - Registers COALDA with the new pass manager ------------===//
//
// `opt-19 -load-pass-plugin=libCoalda.so -passes=coalda` runs the
// transformation, `-passes='print<coalda>'` prints the analysis, and
// `clang++-19 -fpass-plugin=libCoalda.so` runs the transformation at the end
// of clang's -O1..-O3 pipeline (it skips modules that are not NVPTX, so only
// the device side of a CUDA compile is touched). On a host compile given
// -coalda-launch-variants, the launch pass (LaunchHost.h) runs at the
// pipeline's start, at every -O level.
//
//===----------------------------------------------------------------------===//

#include "coalda/CoalescingAnalysis.h"
#include "coalda/CoalescingTransform.h"
#include "coalda/LaunchHost.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Coalda", "0.1", [](PassBuilder &PB) {
            PB.registerAnalysisRegistrationCallback(
                [](FunctionAnalysisManager &FAM) {
                  FAM.registerPass([] { return coalda::CoalescingAnalysis(); });
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "coalda-launch-host") {
                    MPM.addPass(coalda::LaunchHostPass());
                    return true;
                  }
                  if (Name != "coalda")
                    return false;
                  MPM.addPass(coalda::CoalescingTransformPass());
                  return true;
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, FunctionPassManager &FPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "print<coalda>")
                    return false;
                  FPM.addPass(coalda::CoalescingPrinterPass(errs()));
                  return true;
                });
            // The host side of reshaped launches, before the stubs are
            // inlined (a no-op unless -coalda-launch-variants lists some).
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(coalda::LaunchHostPass());
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel Level) {
                  if (Level != OptimizationLevel::O0)
                    MPM.addPass(coalda::CoalescingTransformPass());
                });
          }};
}
