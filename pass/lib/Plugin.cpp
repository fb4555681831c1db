//===- Plugin.cpp - Registers COALDA with the new pass manager ------------===//
//
// `opt-19 -load-pass-plugin=libCoalda.so -passes=coalda` runs the
// transformation, `-passes='print<coalda>'` prints the analysis, and
// `clang++-19 -fpass-plugin=libCoalda.so` runs the transformation at the end
// of clang's -O1..-O3 pipeline (it skips modules that are not NVPTX, so only
// the device side of a CUDA compile is touched).
//
//===----------------------------------------------------------------------===//

#include "coalda/CoalescingAnalysis.h"
#include "coalda/CoalescingTransform.h"

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
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel Level) {
                  if (Level != OptimizationLevel::O0)
                    MPM.addPass(coalda::CoalescingTransformPass());
                });
          }};
}
