//===- CoalescingTransform.h - Rewrite strided copies coalesced -----------===//
//
// The COALDA transformation (`-passes=coalda`). In each kernel it groups the
// stores of a strided copy (`dst[i].r = src[i].r; dst[i].g = ...`) whose
// members together cover [0, stride) of every element, proves the rewrite
// legal, and replaces the group by a copy of the block row's whole region of
// stride*blockDim.x bytes in which consecutive threads move consecutive,
// widened units (16, 4 bytes or the member width), all loads before all
// stores, versioned on run-time overlap and alignment checks with the original
// code as fallback. It then erases the dead address arithmetic.
//
// With -coalda-report=FILE it writes the findings of every kernel as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_COALESCINGTRANSFORM_H
#define COALDA_COALESCINGTRANSFORM_H

#include "coalda/CoalescingAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DominatorTree;
class OptimizationRemarkEmitter;
class PostDominatorTree;
class LoopInfo;
} // namespace llvm

namespace coalda {

/// The stores (and their loads) of one strided copy: dst members sharing base,
/// lane, stride and uniform part.
struct CopyGroup {
  std::vector<const AccessExpr *> Stores; ///< sorted by offset
  std::vector<const AccessExpr *> Loads;  ///< Loads[k] feeds Stores[k]
  int64_t Stride = 0;
  /// A lane stride known only at run time (bytes, e.g. 4*n): the rewrite is
  /// versioned on it being equal to Stride, the bytes the members cover.
  std::optional<Poly> RuntimeStride;
  uint64_t MemberWidth = 0;
  bool NeedsOverlapCheck = true;
  /// Empty while the group is a legal candidate; else why it is left alone.
  std::string Missed;
  std::string Action; ///< what the rewrite did, for the report
  std::vector<unsigned> Units; ///< unit widths of the emitted versions

  /// Which threads of a block row run the copy. Null Index: all of them.
  /// Else the prefix tid.x < clamp(End - (Index - tid.x), 0, ntid.x), where
  /// Index = tid.x + (row-uniform) is tested `Index < End` by a bounds guard
  /// or a grid-stride loop.
  llvm::Value *GuardIndex = nullptr;
  llvm::Value *GuardEnd = nullptr;
  bool GuardSigned = true;
  std::string GuardKind = "none"; ///< none | bounds | loop
  bool RotatedLoop = false; ///< the loop tests `i + step < n` at its latch

  /// A grid-stride loop `for (i = gid; i < n; i += ntid.x*nctaid.x)` whose
  /// body is only this copy covers elements [0, n) over the whole grid: it
  /// is also replaced, when aligned and disjoint, by one flat copy of the
  /// S*n bytes by all threads. FlatEntry is the block every thread runs just
  /// before the loop, FlatExit where the loop leaves to.
  llvm::BasicBlock *FlatEntry = nullptr;
  llvm::BasicBlock *FlatExit = nullptr;
  /// The pure computation of GuardEnd to repeat in front of the loop, when
  /// it is computed inside (operands first; empty when it is available).
  llvm::SmallVector<llvm::Instruction *, 4> FlatEndCopies;
  bool Transformed = false;

  const AccessExpr &first() const { return *Stores.front(); }
};

class CoalescingTransformPass
    : public llvm::PassInfoMixin<CoalescingTransformPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  /// Step 1: stores of one region with the same canonical form.
  std::vector<CopyGroup> collect(const CoalescingInfo &Info);
  /// Step 2: fills CopyGroup::Missed for each group that must be left alone.
  void checkLegality(CopyGroup &G, const CoalescingInfo &Info,
                     llvm::PostDominatorTree &PDT, llvm::DominatorTree &DT,
                     llvm::LoopInfo &LI,
                     const llvm::DenseMap<const llvm::Instruction *,
                                          const CopyGroup *> &CopyOf);
  /// Part of legality: the threads of a row that reach the copy's block are
  /// all threads, or a prefix found from a bounds guard or a grid-stride
  /// loop. Returns why not, or "".
  std::string findActiveThreads(CopyGroup &G, const CoalescingInfo &Info,
                                llvm::PostDominatorTree &PDT,
                                llvm::DominatorTree &DT, llvm::LoopInfo &LI);
  /// Part of legality: other accesses to the copied memory (and, for a
  /// shared-memory fill, the barrier after it). Returns why not, or "".
  std::string checkOtherAccesses(
      const CopyGroup &G, const CoalescingInfo &Info, llvm::DominatorTree &DT,
      const llvm::DenseMap<const llvm::Instruction *, const CopyGroup *>
          &CopyOf);
  /// Part of legality: can the whole grid-stride loop become a flat copy?
  void findFlatLoop(CopyGroup &G, const CoalescingInfo &Info,
                    llvm::PostDominatorTree &PDT, llvm::DominatorTree &DT,
                    llvm::LoopInfo &LI);
  /// Part of step 3: the flat copy in front of the loop.
  void emitFlatCopy(CopyGroup &G);
  /// Step 3: emit the versioned, widened copy before the group's last store.
  void rewrite(CopyGroup &G, const CoalescingInfo &Info);
  /// Step 4: delete the group's loads and stores and their dead addresses.
  void erase(CopyGroup &G);
  /// Steps 3 and 4 for one kernel, verified; see the definition.
  bool transformFunction(llvm::Function &F, std::vector<CopyGroup> &Groups,
                         const CoalescingInfo &Info, llvm::json::Array *Report);
};

} // namespace coalda

#endif // COALDA_COALESCINGTRANSFORM_H
