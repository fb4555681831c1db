//===- BackendVectors.h - Accesses the backend merges into vectors --------===//
//
// A thread that reads both floats of a float2 at a stride of 8 bytes issues
// two IR loads whose warp accesses each touch twice the sectors they need;
// the backend's LoadStoreVectorizer merges them into one ld.v2.f32, whose
// warp access is contiguous. markBackendVectors predicts that merge, so
// that findings class such an access as coalesced (Nsight Compute measures
// LDG.E.64 at the ideal sectors) instead of reporting waste that is not
// there. The rewrites keep their own cost rule (VectorizedElement).
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_BACKENDVECTORS_H
#define COALDA_LIB_BACKENDVECTORS_H

#include "coalda/CoalescingAnalysis.h"

#include <vector>

namespace llvm {
class AAResults;
class Function;
} // namespace llvm

namespace coalda {

/// Sets AccessExpr::VectorWidth on every access of F that the backend will
/// move, with its neighbours, as one vector access covering a whole
/// element of the lane stride.
void markBackendVectors(const llvm::Function &F,
                        std::vector<AccessExpr> &Accesses,
                        llvm::AAResults &AA);

} // namespace coalda

#endif // COALDA_LIB_BACKENDVECTORS_H
