//===- LoopPromotion.h - Loop accumulators promoted to registers ----------===//
//
// A loop that reads and writes the same uncoalesced global element on every
// iteration (`d_fv_gpu[first_i + wtx].v += ...`, `dest[tid].s0 +=
// src[tid].s0`) pays for its members on every pass. The promotion versions
// the loop on run-time overlap checks and, where they pass, keeps the
// element in registers for the whole loop: loaded before, stored after. The
// algorithm is at the top of LoopPromotion.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_LOOPPROMOTION_H
#define COALDA_LIB_LOOPPROMOTION_H

#include "CopyGroup.h"
#include "RewriteKind.h"

#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/PassManager.h"

#include <optional>
#include <vector>

namespace llvm {
class BasicBlock;
class Function;
} // namespace llvm

namespace coalda {

/// One loop with uncoalesced global accesses at addresses it does not
/// change, and what became of it.
struct PromotionOutcome {
  llvm::BasicBlock *Header = nullptr;
  llvm::DebugLoc Loc; ///< the loop's
  /// The loop's global accesses at loop-invariant addresses: the element's
  /// loads and stores, and the reads the loop does not change.
  std::vector<const AccessExpr *> Accesses;
  unsigned Checks = 0; ///< pairs of address ranges compared at run time
  Verdict Skip;
  bool Transformed = false;
  bool legal() const { return !Skip; }
  RewriteKind kind() const { return RewriteKind::LoopPromotion; }
};

/// The promotion candidates of F, each decided (F is not changed).
std::vector<PromotionOutcome>
collectPromotions(llvm::Function &F, const CoalescingInfo &Info,
                  llvm::FunctionAnalysisManager &FAM);

/// Versions and promotes the legal candidates of F; each gets Transformed
/// or the reason LICM left its element in the loop. Returns whether any
/// loop was promoted (otherwise F may still have been put in loop-simplify
/// form: the caller restores it).
bool applyPromotions(llvm::Function &F, std::vector<PromotionOutcome> &Ps,
                     llvm::FunctionAnalysisManager &FAM);


} // namespace coalda

#endif // COALDA_LIB_LOOPPROMOTION_H
