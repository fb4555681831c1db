//===- LaunchHost.h - Launches of the grid-stride variants ------*- C++ -*-===//
//
// The host side of issue 40's reshaped launches (`-passes=coalda-launch-host`,
// and at the start of clang's pipeline on a CUDA host compile that lists
// -coalda-launch-variants): a kernel's stub launches through a run-time
// choice between the kernel and its grid-stride variant. See
// lib/LaunchHost.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LAUNCHHOST_H
#define COALDA_LAUNCHHOST_H

#include "llvm/IR/PassManager.h"

namespace coalda {

class LaunchHostPass : public llvm::PassInfoMixin<LaunchHostPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace coalda

#endif // COALDA_LAUNCHHOST_H
