//===- StagingCollect.cpp - Candidates for staging through shared memory --===//
//
// Phase 1 of the staging rewrite. The accesses of a kernel with a constant
// lane stride S wider than the access (uncoalesced) are grouped by block,
// base, lane kind, S and uniform part. A group whose offsets fit one S-byte
// window is one array's element per thread: a StagedArray. A block with any
// such array is a candidate; whether it is staged (a written array of
// members of at least 4 bytes whose stores cover the element) is the cost
// rule's decision in StagingLegality.cpp.
//
// A store whose address steps by its own width with tid.y and by a wider
// (run-time or constant) stride with the lane, `out[x*M + y]` in a 2-D
// block, is a transposed store: stored once per thread in its block, it is
// a candidate of its own (the block's threads store the column pieces in
// turn, through a tile), with the loads of the same element when it is a
// read-modify-write (the block loads the column pieces in turn first).
//
//===----------------------------------------------------------------------===//

#include "Staging.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "coalda"

using namespace llvm;

namespace coalda {

namespace {

/// An access that could be one member of a thread's element.
bool isElementAccess(const AccessExpr &A) {
  std::optional<int64_t> S = A.constantStride();
  return S && *S > 0 && A.Space == MemorySpace::Global &&
         A.Lane != LaneKind::None && !A.isTransfer() && !A.isCoalesced();
}

/// The grouping key: the same element of the same array in every thread.
struct ArrayKey {
  const BasicBlock *Block;
  const Value *Base;
  LaneKind Lane;
  int64_t Stride;
  Poly Uniform;

  bool operator<(const ArrayKey &O) const {
    return std::tie(Block, Base, Lane, Stride, Uniform) <
           std::tie(O.Block, O.Base, O.Lane, O.Stride, O.Uniform);
  }
};

/// The largest power of two dividing the stride, every member's offset and
/// width, and
/// no more than any access's declared alignment (a packed struct's members
/// are read byte by byte: its rows must be moved so too).
uint64_t memberWidth(const StagedArray &A) {
  uint64_t Bits = 16 | (uint64_t)A.Stride; // units tile the row exactly
  for (const AccessExpr *M : A.Accesses)
    Bits |= (uint64_t)A.offsetInElement(*M) | M->Width |
            M->alignment().value();
  return Bits & -Bits; // lowest set bit
}

/// Builds the array of one group, or nothing when its accesses do not fit
/// one element (out[i].x and out[i+1].x).
std::optional<StagedArray> makeArray(const ArrayKey &K,
                                     std::vector<const AccessExpr *> Accs) {
  StagedArray A;
  A.Base = K.Base;
  A.Stride = K.Stride;
  int64_t Lo = INT64_MAX, Hi = INT64_MIN;
  for (const AccessExpr *M : Accs) {
    Lo = std::min(Lo, M->Offset);
    Hi = std::max(Hi, M->Offset + (int64_t)M->Width);
  }
  A.ElementOffset = divideFloorSigned(Lo, K.Stride) * K.Stride;
  if (Hi > A.ElementOffset + K.Stride) {
    LLVM_DEBUG(dbgs() << "coalda: staging: accesses of " << baseName(K.Base)
                      << " span two elements\n");
    return std::nullopt;
  }
  llvm::sort(Accs, [](const AccessExpr *L, const AccessExpr *R) {
    return L->Inst->comesBefore(R->Inst);
  });
  A.Accesses = std::move(Accs);
  for (const AccessExpr *M : A.Accesses)
    (M->IsStore ? A.Written : A.Loaded) = true;
  A.MemberWidth = memberWidth(A);
  return A;
}

/// A store that a 2-D block makes in columns: base + S*lane + w*tid.y +
/// (row-uniform rest), S a run-time or a constant stride wider than w.
bool isTransposedStore(const AccessExpr &A, const CoalescingInfo &Info) {
  if (!A.isKnown() || !A.IsStore || A.isTransfer() ||
      A.Space != MemorySpace::Global || A.Lane == LaneKind::None ||
      A.isCoalesced())
    return false;
  auto It = A.Uniform.Terms.find(
      Monomial{Info.registerAtom(Atom::ThreadIdx, 1)});
  return It != A.Uniform.Terms.end() && It->second == (int64_t)A.Width;
}

/// A load of the very element a transposed store writes (a read-modify-write
/// `a[x*M + y] -= ...`): the same base, lane, stride, uniform part, offset
/// and width.
bool isSameElementLoad(const AccessExpr &L, const AccessExpr &S) {
  return L.isKnown() && !L.IsStore && !L.isTransfer() && L.Base == S.Base &&
         L.Lane == S.Lane && L.Stride == S.Stride && L.Uniform == S.Uniform &&
         L.Offset == S.Offset && L.Width == S.Width;
}

/// Transposed stores, one candidate per block: each base stored once in
/// the block, with the loads of the same element (read-modify-write).
/// Other accesses to the base in the block are legality's to check.
void collectTransposes(const CoalescingInfo &Info,
                       const DenseSet<const Instruction *> &Claimed,
                       std::vector<StagingOutcome> &Out) {
  MapVector<BasicBlock *, StagingCandidate> ByBlock;
  DenseMap<std::pair<const BasicBlock *, const Value *>, unsigned> Stores;
  for (const AccessExpr &A : Info.Accesses)
    if (A.isKnown() && A.IsStore)
      ++Stores[{A.Inst->getParent(), A.Base}];
  for (const AccessExpr &A : Info.Accesses) {
    BasicBlock *BB = A.Inst->getParent();
    if (Claimed.contains(A.Inst) || !isTransposedStore(A, Info) ||
        Stores[{BB, A.Base}] != 1)
      continue;
    StagedArray Arr;
    Arr.Base = A.Base;
    Arr.Stride = A.Width;
    Arr.ElementOffset = A.Offset;
    Arr.Accesses = {&A}; // the store first: the emitter and legality use it
    for (const AccessExpr &L : Info.Accesses)
      if (L.Inst->getParent() == BB && !Claimed.contains(L.Inst) &&
          isSameElementLoad(L, A))
        Arr.Accesses.push_back(&L);
    Arr.MemberWidth = A.Width;
    Arr.Written = Arr.Transposed = true;
    Arr.Loaded = Arr.Accesses.size() > 1;
    StagingCandidate &C = ByBlock[BB];
    C.Block = BB;
    C.Arrays.push_back(std::move(Arr));
  }
  for (auto &[BB, C] : ByBlock) {
    StagingOutcome O;
    O.Loc = C.Arrays.front().Accesses.front()->Inst->getDebugLoc();
    O.Candidate = std::move(C);
    Out.push_back(std::move(O));
  }
}

} // namespace

std::vector<StagingOutcome>
collectStagings(const CoalescingInfo &Info,
                const DenseSet<const Instruction *> &Claimed) {
  std::map<ArrayKey, std::vector<const AccessExpr *>> Groups;
  for (const AccessExpr &A : Info.Accesses)
    if (A.isKnown() && isElementAccess(A) && !Claimed.contains(A.Inst) &&
        !isTransposedStore(A, Info))
      Groups[{A.Inst->getParent(), A.Base, A.Lane, *A.constantStride(),
              A.Uniform}]
          .push_back(&A);

  // Blocks in the order of their first access, for stable reports.
  MapVector<BasicBlock *, StagingCandidate> ByBlock;
  for (const AccessExpr &A : Info.Accesses)
    if (A.isKnown() && isElementAccess(A) && !Claimed.contains(A.Inst) &&
        !isTransposedStore(A, Info))
      ByBlock.insert({A.Inst->getParent(), StagingCandidate()});
  for (auto &[Key, Accs] : Groups) {
    std::optional<StagedArray> A = makeArray(Key, Accs);
    if (!A)
      continue;
    auto *BB = const_cast<BasicBlock *>(Key.Block);
    StagingCandidate &C = ByBlock[BB];
    C.Block = BB;
    C.Arrays.push_back(std::move(*A));
  }
  std::vector<StagingOutcome> Out;
  for (auto &[BB, C] : ByBlock) {
    if (C.Arrays.empty())
      continue;
    // Written arrays first: the plan's run-time checks pair them with the rest.
    llvm::sort(C.Arrays, [](const StagedArray &L, const StagedArray &R) {
      const Instruction *LI = L.Accesses.front()->Inst;
      const Instruction *RI = R.Accesses.front()->Inst;
      if (L.Written != R.Written)
        return L.Written;
      return LI != RI && LI->comesBefore(RI);
    });
    StagingOutcome O;
    O.Loc = C.Arrays.front().Accesses.front()->Inst->getDebugLoc();
    O.Candidate = std::move(C);
    Out.push_back(std::move(O));
  }
  collectTransposes(Info, Claimed, Out);
  return Out;
}

} // namespace coalda
