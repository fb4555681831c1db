//===- StagingCollect.cpp - Candidates for staging through shared memory --===//
//
// Phase 1 of the staging rewrite. The accesses of a kernel with a constant
// lane stride S wider than the access (uncoalesced) are grouped by control
// class (the blocks run by the same threads, once each: a block and those
// after libdevice's branches or a loop), base, lane kind, S and uniform
// part. A group whose offsets fit one S-byte window is one array's element
// per thread: a StagedArray; accesses to the same element under a branch
// between the class's blocks join it (joinBeside). A class with any such
// array is a candidate; whether it is staged (a written array of members of
// at least 4 bytes whose stores cover the element, and the cost rule for
// small elements) is decided in StagingLegality.cpp.
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
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "coalda-staging-collect"

STATISTIC(NumJoinedBeside, "Element accesses under a branch joined to a staged "
                           "array");

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
  const BasicBlock *Head; ///< of the accesses' control class
  const Value *Base;
  LaneKind Lane;
  int64_t Stride;
  Poly Uniform;

  bool operator<(const ArrayKey &O) const {
    return std::tie(Head, Base, Lane, Stride, Uniform) <
           std::tie(O.Head, O.Base, O.Lane, O.Stride, O.Uniform);
  }
};

/// The blocks of a function in reverse post-order: a block comes after
/// those that dominate it.
using BlockOrder = DenseMap<const BasicBlock *, unsigned>;

BlockOrder blockOrder(Function &F) {
  BlockOrder Order;
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
    Order.insert({BB, Order.size()});
  return Order;
}

/// A total order of instructions that follows each thread's: L runs before
/// R where both run (in one block, or R's block dominated by L's).
bool programOrder(const Instruction *L, const Instruction *R,
                  const BlockOrder &Order) {
  if (L->getParent() == R->getParent())
    return L != R && L->comesBefore(R);
  return Order.lookup(L->getParent()) < Order.lookup(R->getParent());
}

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

/// The bytes [Lo, Hi) of the element the accesses touch, relative to base +
/// S*lane + uniform.
std::pair<int64_t, int64_t> span(ArrayRef<const AccessExpr *> Accs) {
  int64_t Lo = INT64_MAX, Hi = INT64_MIN;
  for (const AccessExpr *M : Accs) {
    Lo = std::min(Lo, M->Offset);
    Hi = std::max(Hi, M->Offset + (int64_t)M->Width);
  }
  return {Lo, Hi};
}

/// Builds the array of one group (the accesses of its control class, then
/// those Beside it), or nothing when its accesses do not fit one element
/// (out[i].x and out[i+1].x).
std::optional<StagedArray> makeArray(const ArrayKey &K,
                                     std::vector<const AccessExpr *> Accs,
                                     ArrayRef<const AccessExpr *> Beside,
                                     const BlockOrder &Order) {
  StagedArray A;
  A.Base = K.Base;
  A.Stride = K.Stride;
  auto [Lo, Hi] = span(Accs);
  A.ElementOffset = divideFloorSigned(Lo, K.Stride) * K.Stride;
  if (Hi > A.ElementOffset + K.Stride) {
    LLVM_DEBUG(dbgs() << "coalda: staging: accesses of " << baseName(K.Base)
                      << " span two elements\n");
    return std::nullopt;
  }
  for (const AccessExpr *M : Beside)
    A.Conditional.insert(M->Inst);
  Accs.insert(Accs.end(), Beside.begin(), Beside.end());
  llvm::sort(Accs, [&](const AccessExpr *L, const AccessExpr *R) {
    return programOrder(L->Inst, R->Inst, Order);
  });
  A.Accesses = std::move(Accs);
  for (const AccessExpr *M : A.Accesses)
    (M->IsStore ? A.Written : A.Loaded) = true;
  A.MemberWidth = memberWidth(A);
  return A;
}

/// The arrays of one group: one, or where its accesses (and those Beside
/// it) reach several elements per thread (`x[i]` and `x[i + 160]`,
/// geglu's halves), one per element, each of the accesses within it (a
/// member straddling two elements is no array).
std::vector<StagedArray> makeArrays(const ArrayKey &K,
                                    std::vector<const AccessExpr *> Accs,
                                    ArrayRef<const AccessExpr *> Beside,
                                    const BlockOrder &Order) {
  if (std::optional<StagedArray> A = makeArray(K, Accs, Beside, Order))
    return {std::move(*A)};
  std::map<int64_t, std::pair<std::vector<const AccessExpr *>,
                              std::vector<const AccessExpr *>>>
      ByElement;
  for (const AccessExpr *M : Accs)
    ByElement[divideFloorSigned(M->Offset, K.Stride)].first.push_back(M);
  for (const AccessExpr *M : Beside)
    ByElement[divideFloorSigned(M->Offset, K.Stride)].second.push_back(M);
  // An element reached only under a branch is an array too: legality
  // leaves every array of such a base where it is, and says why.
  std::vector<StagedArray> Out;
  for (auto &[Element, Part] : ByElement)
    if (std::optional<StagedArray> A =
            Part.first.empty() ? makeArray(K, Part.second, {}, Order)
                               : makeArray(K, Part.first, Part.second, Order))
      Out.push_back(std::move(*A));
  return Out;
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
    C.Block = C.LastBlock = BB;
    C.Arrays.push_back(std::move(Arr));
  }
  for (auto &[BB, C] : ByBlock) {
    StagingOutcome O;
    O.Loc = C.Arrays.front().Accesses.front()->Inst->getDebugLoc();
    O.Candidate = std::move(C);
    Out.push_back(std::move(O));
  }
}

/// The first and last of the blocks of Accs (one control class: a chain of
/// dominance).
std::pair<BasicBlock *, BasicBlock *>
extent(ArrayRef<const AccessExpr *> Accs, const DominatorTree &DT) {
  BasicBlock *First = nullptr, *Last = nullptr;
  for (const AccessExpr *M : Accs) {
    BasicBlock *BB = M->Inst->getParent();
    if (!First || DT.dominates(BB, First))
      First = BB;
    if (!Last || DT.dominates(Last, BB))
      Last = BB;
  }
  return {First, Last};
}

/// Accesses to an array's element that only some of the threads running
/// its class run (`if (a > 0) a += p[i].z;` between the class's accesses)
/// join the array: they read and write the thread's slot of the tile like
/// the others, inside the region (after the class's first block, before its
/// last), without counting towards the element's cover. Their groups leave
/// Groups; returned by the group they join.
std::map<ArrayKey, std::vector<const AccessExpr *>>
joinBeside(std::map<ArrayKey, std::vector<const AccessExpr *>> &Groups,
           const DominatorTree &DT, const PostDominatorTree &PDT) {
  auto SameArray = [](const ArrayKey &L, const ArrayKey &R) {
    return L.Base == R.Base && L.Lane == R.Lane && L.Stride == R.Stride &&
           L.Uniform == R.Uniform;
  };
  std::map<ArrayKey, std::pair<BasicBlock *, BasicBlock *>> Extents;
  for (auto &[Key, Accs] : Groups)
    Extents[Key] = extent(Accs, DT);
  // Inside the other's extent, and within its element's bytes.
  auto Inside = [&](const ArrayKey &Inner, const ArrayKey &Outer) {
    // named, not bound: a lambda cannot capture a binding in C++17
    BasicBlock *First = Extents[Outer].first, *Last = Extents[Outer].second;
    auto [Lo, Hi] = span(Groups[Outer]);
    int64_t Start = divideFloorSigned(Lo, Outer.Stride) * Outer.Stride;
    auto [InLo, InHi] = span(Groups[Inner]);
    return Hi <= Start + Outer.Stride && InLo >= Start &&
           InHi <= Start + Outer.Stride &&
           all_of(Groups[Inner], [&](const AccessExpr *M) {
             BasicBlock *BB = M->Inst->getParent();
             return BB != First && DT.dominates(First, BB) &&
                    PDT.dominates(Last, BB);
           });
  };
  std::map<ArrayKey, ArrayKey> Into;
  for (auto &[Inner, A] : Groups)
    for (auto &[Outer, B] : Groups)
      if (!(Inner.Head == Outer.Head) && SameArray(Inner, Outer) &&
          Inside(Inner, Outer)) {
        Into.insert({Inner, Outer});
        break;
      }
  // Nested extents: join the outermost.
  std::map<ArrayKey, std::vector<const AccessExpr *>> Beside;
  for (auto &[Inner, Outer] : Into) {
    ArrayKey Root = Outer;
    while (Into.count(Root))
      Root = Into.at(Root);
    llvm::append_range(Beside[Root], Groups[Inner]);
    NumJoinedBeside += Groups[Inner].size();
  }
  for (auto &[Inner, Outer] : Into)
    Groups.erase(Inner);
  return Beside;
}

} // namespace

void placeCandidate(StagingCandidate &C, const DominatorTree &DT) {
  std::vector<const AccessExpr *> Class;
  for (const StagedArray &A : C.Arrays)
    for (const AccessExpr *M : A.Accesses)
      if (!A.Conditional.contains(M->Inst))
        Class.push_back(M);
  std::tie(C.Block, C.LastBlock) = extent(Class, DT);
}

BasicBlock *controlClassHead(BasicBlock *BB, const DominatorTree &DT,
                             const PostDominatorTree &PDT,
                             const CycleInfo &Cycles) {
  if (Cycles.getCycle(BB) || !DT.isReachableFromEntry(BB))
    return BB;
  BasicBlock *Head = BB;
  while (const DomTreeNode *Up = DT.getNode(Head)->getIDom()) {
    BasicBlock *Above = Up->getBlock();
    // A loop on the way up (a data-dependent loop between two member
    // accesses, at -O0 every loop): step over it to the block before it.
    while (const auto *Loop = Cycles.getCycle(Above)) {
      while (Loop->getParentCycle())
        Loop = Loop->getParentCycle();
      const DomTreeNode *Before =
          Loop->isReducible() ? DT.getNode(Loop->getHeader())->getIDom()
                              : nullptr;
      if (!Before)
        return Head;
      Above = Before->getBlock();
    }
    if (!PDT.dominates(BB, Above))
      break;
    Head = Above;
  }
  return Head;
}

std::pair<Instruction *, Instruction *> accessSpan(const StagingCandidate &C) {
  Instruction *First = nullptr, *Last = nullptr;
  for (const StagedArray &A : C.Arrays)
    for (const AccessExpr *M : A.Accesses) {
      if (M->Inst->getParent() == C.Block &&
          (!First || M->Inst->comesBefore(First)))
        First = M->Inst;
      if (M->Inst->getParent() == C.LastBlock &&
          (!Last || Last->comesBefore(M->Inst)))
        Last = M->Inst;
    }
  return {First, Last};
}

std::vector<StagingOutcome>
collectStagings(const CoalescingInfo &Info,
                const DenseSet<const Instruction *> &Claimed,
                const DominatorTree &DT, const PostDominatorTree &PDT,
                const CycleInfo &Cycles) {
  auto Staged = [&](const AccessExpr &A) {
    return A.isKnown() && isElementAccess(A) && !Claimed.contains(A.Inst) &&
           !isTransposedStore(A, Info);
  };
  DenseMap<BasicBlock *, BasicBlock *> Heads;
  auto HeadOf = [&](const AccessExpr &A) {
    BasicBlock *&H = Heads[A.Inst->getParent()];
    if (!H)
      H = controlClassHead(A.Inst->getParent(), DT, PDT, Cycles);
    return H;
  };
  std::map<ArrayKey, std::vector<const AccessExpr *>> Groups;
  for (const AccessExpr &A : Info.Accesses)
    if (Staged(A))
      Groups[{HeadOf(A), A.Base, A.Lane, *A.constantStride(), A.Uniform}]
          .push_back(&A);
  BlockOrder Order;
  if (!Groups.empty())
    Order = blockOrder(*Groups.begin()->second.front()->Inst->getFunction());
  std::map<ArrayKey, std::vector<const AccessExpr *>> Beside =
      joinBeside(Groups, DT, PDT);

  // Classes in the order of their first access, for stable reports.
  MapVector<BasicBlock *, StagingCandidate> ByHead;
  for (const AccessExpr &A : Info.Accesses)
    if (Staged(A) && Groups.count({HeadOf(A), A.Base, A.Lane,
                                   *A.constantStride(), A.Uniform}))
      ByHead.insert({HeadOf(A), StagingCandidate()});
  for (auto &[Key, Accs] : Groups) {
    StagingCandidate &C = ByHead[const_cast<BasicBlock *>(Key.Head)];
    std::vector<StagedArray> Parts = makeArrays(Key, Accs, Beside[Key], Order);
    if (Parts.size() > 1)
      C.SeveralElements.insert(Key.Base);
    for (StagedArray &A : Parts)
      C.Arrays.push_back(std::move(A));
  }
  std::vector<StagingOutcome> Out;
  for (auto &[Head, C] : ByHead) {
    if (C.Arrays.empty())
      continue;
    placeCandidate(C, DT);
    // Written arrays first: the plan's run-time checks pair them with the
    // rest.
    llvm::sort(C.Arrays, [&](const StagedArray &L, const StagedArray &R) {
      const Instruction *LI = L.Accesses.front()->Inst;
      const Instruction *RI = R.Accesses.front()->Inst;
      if (L.Written != R.Written)
        return L.Written;
      return programOrder(LI, RI, Order);
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
