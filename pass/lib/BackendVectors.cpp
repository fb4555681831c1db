//===- BackendVectors.cpp - Accesses the backend merges into vectors ------===//
//
// The prediction follows what LoadStoreVectorizer, which the NVPTX backend
// runs at -O1 and above, needs to merge a chain of loads or of stores:
//
//   1. Candidates: simple (neither volatile nor atomic) global loads and
//      stores, not memory transfers, linear in the lane at a constant
//      stride S that is a power of two from 2 to 16 bytes (the widest PTX
//      vector access is 16 bytes: v4.f32, v2.f64), each narrower than S.
//   2. Siblings: candidates of the same kind in the same basic block whose
//      addresses differ only in the constant offset (same base, lane,
//      stride and row-uniform terms).
//   3. An element [e*S, e*S + S), e = floor(Offset / S), is merged when its
//      siblings cover each of its bytes exactly once, none straddles its
//      end, and the one at e*S declares an alignment of at least S: the
//      backend splits a vector below its own alignment. A float4 of which
//      only x, y, z are read is not marked: llc emits v2 + scalar, which
//      ptxas merges into LDG.E.128 in some kernels and not in others.
//   4. Between the first and the last sibling of the element, no other
//      instruction may, by alias analysis, write what the loads read (a
//      chain of loads) or touch what the stores write (a chain of stores),
//      and each passes control to the next: the vectorizer moves the chain
//      past nothing else. Where the backend's alias analysis proves more
//      than the function's, a merge is missed and the access stays
//      uncoalesced in the findings, as before.
//
// The vector then moves S bytes per thread at a stride of S: one contiguous
// warp access. Functions marked optnone get no marks (their backend runs
// no vectorizer).
//
//===----------------------------------------------------------------------===//

#include "BackendVectors.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <map>

#define DEBUG_TYPE "coalda-vectors"

using namespace llvm;

STATISTIC(NumVectorMembers,
          "Accesses the backend is predicted to merge into a vector");
STATISTIC(NumElementsNotCovered,
          "Elements whose accesses leave bytes uncovered or overlap");
STATISTIC(NumElementsUnderAligned,
          "Elements whose first access is aligned below the element size");
STATISTIC(NumElementsInterrupted,
          "Elements whose accesses another memory access separates");

namespace coalda {
namespace {

constexpr int64_t MaxVectorBytes = 16;

/// The stride S of a candidate for a vector of S bytes, or nullopt.
std::optional<int64_t> vectorStride(const AccessExpr &A) {
  if (A.Space != MemorySpace::Global || !A.isKnown() ||
      A.Lane == LaneKind::None || A.isTransfer() || !A.isSimple())
    return std::nullopt;
  std::optional<int64_t> S = A.constantStride();
  if (!S || *S < 2 || *S > MaxVectorBytes || !isPowerOf2_64(*S) ||
      (int64_t)A.Width >= *S)
    return std::nullopt;
  return S;
}

/// Same kind, block and address up to the constant offset.
bool siblings(const AccessExpr &A, const AccessExpr &B) {
  return A.Inst->getParent() == B.Inst->getParent() &&
         A.IsStore == B.IsStore && A.Base == B.Base && A.Lane == B.Lane &&
         A.Stride == B.Stride && A.Uniform == B.Uniform;
}

/// Rule 3: the members tile [Start, Start + S) exactly, the first aligned.
bool tilesElement(SmallVectorImpl<AccessExpr *> &Members, int64_t Start,
                  int64_t S) {
  sort(Members, [](const AccessExpr *X, const AccessExpr *Y) {
    return X->Offset < Y->Offset;
  });
  int64_t Next = Start;
  for (const AccessExpr *M : Members) {
    if (M->Offset != Next) {
      ++NumElementsNotCovered;
      LLVM_DEBUG(dbgs() << "coalda-vectors: a gap or overlap at byte "
                        << Next - Start << " of an element: " << *M->Inst
                        << "\n");
      return false;
    }
    Next += M->Width;
  }
  if (Next != Start + S) {
    ++NumElementsNotCovered;
    LLVM_DEBUG(dbgs() << "coalda-vectors: an element covered to byte "
                      << Next - Start << " of " << S << "\n");
    return false;
  }
  if (Members.front()->alignment().value() < (uint64_t)S) {
    ++NumElementsUnderAligned;
    LLVM_DEBUG(dbgs() << "coalda-vectors: the element's first access is "
                      << "aligned below " << S << ": "
                      << *Members.front()->Inst << "\n");
    return false;
  }
  return true;
}

bool interrupted(const Instruction &I) {
  ++NumElementsInterrupted;
  LLVM_DEBUG(dbgs() << "coalda-vectors: an element's accesses are separated "
                    << "by " << I << "\n");
  return false;
}

/// Whether I stops the chain for member M: the vectorizer moves a chain of
/// loads up to its first load, so I may not write what a later load reads;
/// it moves a chain of stores down to its last store, so I may not touch
/// what an earlier store writes.
bool conflicts(const Instruction &I, const AccessExpr &M, AAResults &AA) {
  if (M.IsStore ? !I.mayReadOrWriteMemory() : !I.mayWriteToMemory())
    return false;
  ModRefInfo MR = AA.getModRefInfo(&I, MemoryLocation::get(M.Inst));
  return M.IsStore ? isModOrRefSet(MR) : isModSet(MR);
}

/// Rule 4: nothing between the members stops the chain.
bool uninterrupted(ArrayRef<AccessExpr *> Members, AAResults &AA) {
  DenseMap<const Instruction *, const AccessExpr *> Own;
  for (const AccessExpr *M : Members)
    Own[M->Inst] = M;
  SmallVector<const AccessExpr *, 4> Before; // the members passed so far
  SmallVector<const Instruction *, 8> Between;
  const BasicBlock *BB = Members.front()->Inst->getParent();
  for (const Instruction &I : *BB) {
    if (const AccessExpr *M = Own.lookup(&I)) {
      // A later load must not move above a write between.
      if (!M->IsStore)
        for (const Instruction *J : Between)
          if (conflicts(*J, *M, AA))
            return interrupted(*J);
      Before.push_back(M);
      if (Before.size() == Own.size())
        return true;
      continue;
    }
    if (Before.empty())
      continue;
    if (!isGuaranteedToTransferExecutionToSuccessor(&I))
      return interrupted(I);
    // An earlier store must not move below an access of its bytes.
    for (const AccessExpr *M : Before)
      if (M->IsStore && conflicts(I, *M, AA))
        return interrupted(I);
    Between.push_back(&I);
  }
  return false;
}

/// Marks the elements of one set of siblings that the backend merges.
void markSiblings(ArrayRef<AccessExpr *> Row, int64_t S, AAResults &AA) {
  std::map<int64_t, SmallVector<AccessExpr *, 4>> Elements;
  for (AccessExpr *A : Row)
    Elements[divideFloorSigned(A->Offset, S)].push_back(A);
  for (auto &[E, Members] : Elements) {
    if (!tilesElement(Members, E * S, S) || !uninterrupted(Members, AA))
      continue;
    for (AccessExpr *M : Members)
      M->VectorWidth = S;
    NumVectorMembers += Members.size();
  }
}

} // namespace

void markBackendVectors(const Function &F, std::vector<AccessExpr> &Accesses,
                        AAResults &AA) {
  if (F.hasOptNone())
    return;
  // Candidates by block, kind and base; each bucket is then split into
  // rows of siblings (usually one).
  DenseMap<std::tuple<const BasicBlock *, unsigned, const Value *>,
           SmallVector<AccessExpr *, 8>>
      Buckets;
  for (AccessExpr &A : Accesses)
    if (vectorStride(A))
      Buckets[{A.Inst->getParent(), unsigned(A.IsStore), A.Base}].push_back(&A);
  for (auto &Bucket : Buckets) {
    SmallVector<AccessExpr *, 8> &Left = Bucket.second;
    while (!Left.empty()) {
      AccessExpr *Head = Left.front();
      SmallVector<AccessExpr *, 8> Row, Rest;
      for (AccessExpr *A : Left)
        (siblings(*Head, *A) ? Row : Rest).push_back(A);
      markSiblings(Row, *vectorStride(*Head), AA);
      Left = std::move(Rest);
    }
  }
}

} // namespace coalda
