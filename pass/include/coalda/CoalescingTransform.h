//===- CoalescingTransform.h - Rewrite strided copies coalesced -----------===//
//
// The COALDA transformation (`-passes=coalda`). In each kernel it groups the
// stores of a strided copy (`dst[i].r = src[i].r; dst[i].g = ...`) whose
// members together cover [0, stride) of every element, proves the rewrite
// legal, and replaces the group by a copy of the block row's whole region of
// stride*blockDim.x bytes in which consecutive threads move consecutive,
// widened units (16, 4 bytes or the member width), all loads before all
// stores, versioned on run-time overlap and alignment checks with the original
// code as fallback. It then erases the dead address arithmetic, verifies the
// kernel (an invalid result is rolled back) and reports.
//
// With -coalda-report=FILE it writes the findings of every kernel as JSON.
// The phases live in lib/ (CopyGroup.h gives the data flow).
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_COALESCINGTRANSFORM_H
#define COALDA_COALESCINGTRANSFORM_H

#include "llvm/IR/PassManager.h"

namespace coalda {

class CoalescingTransformPass
    : public llvm::PassInfoMixin<CoalescingTransformPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

} // namespace coalda

#endif // COALDA_COALESCINGTRANSFORM_H
