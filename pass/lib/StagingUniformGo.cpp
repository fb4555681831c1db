//===- StagingUniformGo.cpp - Decide a staging's go without a vote -------===//
//
// Part of staging legality (Staging.h). A staged block decides whether it
// takes the staged path (go) alike in every thread. The general way is a
// vote, go = barrier0.and(active && checks): a block barrier in front of
// every block's first load (about 1% of axpy3's time and 2.5% of a 32x8
// transpose's, measured with hand-written forms: docs/benchmarks.md). This
// file finds the blocks where every thread computes the same go without
// one:
//
//   active  Each condition on the way to the accesses (the guard's and the
//           early returns', split at `&&` and `||`) is block-uniform, or a
//           bound `Lo < Hi` (<=, >, >=; signed or not) whose one side X is
//           `lane + uniform` (lane = tid.x; tid.x or tid.y in a transposed
//           block) with coefficient +1 on Lo or -1 on Hi, computed from the
//           arguments and special registers alone (isThreadFunction). Lane t
//           of the block computes X = S + t (or S - t) in X's width (32 or
//           64 bits), where S is X's computation with the lane's register 0.
//           The last lane's value S + (ntid - 1) (or S - (ntid - 1)) does not
//           overflow X's type (signed or not, as the bound compares) exactly
//           when no lane's X wraps; then the lanes' X are consecutive and all
//           pass when the last does. S, ntid and the other side are
//           block-uniform, so every thread computes the same answer. (Forms
//           computed in 64 bits from each thread's X - tid, or sharing
//           ntid's 64-bit extension with the load phase, cost d4_update 4-5
//           registers: at 1024 threads half its occupancy, 1.46x -> 1.03x.)
//           Each part is frozen: a later early return's bound may be poison
//           where an earlier part fails (and false is false whatever the
//           other side).
//   checks  Each run-time overlap check compares two addresses that are a
//           kernel argument plus the same thread-dependent GEP terms (the
//           same values at the same scales) plus terms of integer kernel
//           arguments plus a constant. Their difference is the same in
//           every thread, so the check is computed on the argument terms.
//
// Block-uniform: in a 1-D block (an element staging runs only there) a row
// is the block, so RowUniformity's row-uniform values are; a transposed
// block has several rows, so there only polynomials of ctaid, ntid, nctaid
// and integer kernel arguments are. Anything else keeps the vote.
//
//===----------------------------------------------------------------------===//

#include "ActiveThreads.h"
#include "MemoryFacts.h"
#include "Options.h"
#include "RowUniformity.h"
#include "Staging.h"
#include "ThreadFunctions.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-staging-go"

using namespace llvm;

STATISTIC(NumUniformGo, "Stagings that decide go without a vote");
STATISTIC(NumVoteKept, "Stagings that keep the vote");

namespace coalda {

namespace {

/// How a term reaches 64 bits: itself (i64), or sign- or zero-extended.
enum class Widen { None, Signed, Unsigned };
using Term = std::pair<Value *, Widen>;
using LinearTerms = MapVector<Term, APInt>;

class UniformGoFinder {
public:
  UniformGoFinder(const StagingCandidate &C, StagingPlan &P,
                  const CoalescingInfo &Info)
      : C(C), P(P), Info(Info), DL(C.Block->getModule()->getDataLayout()) {}

  /// Fills P's parts and checks; false when one cannot be made uniform.
  bool find() { return findParts() && findChecks(); }

private:
  const StagingCandidate &C;
  StagingPlan &P;
  const CoalescingInfo &Info;
  const DataLayout &DL;

  bool findParts();
  bool addCondition(Value *Cond, bool Holds);
  bool blockUniform(const Poly &X) const;
  bool blockUniform(Value *Cond) const;
  std::optional<unsigned> laneOf(PrefixBound &B) const;
  bool findChecks();
  bool addCheck(Value *X, int64_t XShift, uint64_t XWidth, Value *Y,
                int64_t YShift, uint64_t YWidth);
  std::optional<StagingPlan::UniformAddress>
  split(Value *Ptr, LinearTerms &ThreadTerms) const;
};

bool UniformGoFinder::findParts() {
  if (!P.Guard)
    return true;
  SmallVector<std::pair<BranchInst *, bool>, 4> Branches{
      {P.Guard, P.ActiveOnTrue}};
  for (const StagingPlan::InnerGuard &G : P.InnerGuards)
    Branches.push_back({G.Branch, G.ActiveOnTrue});
  for (auto [Br, OnTrue] : Branches) {
    SmallVector<std::pair<Value *, bool>, 4> Conditions;
    if (!edgeConditions(Br, Br->getSuccessor(OnTrue ? 0 : 1), Conditions)) {
      LLVM_DEBUG(dbgs() << "coalda: vote kept: the guard " << *Br
                        << " is not a branch with two ways\n");
      return false;
    }
    for (auto [Cond, Holds] : Conditions)
      if (!addCondition(Cond, Holds))
        return false;
  }
  return true;
}

bool UniformGoFinder::addCondition(Value *Cond, bool Holds) {
  if (blockUniform(Cond)) {
    P.GoParts.push_back({Cond, Holds, {}, 0});
    return true;
  }
  PrefixBound B;
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || !asLessThan(Cmp, Holds, B)) {
    LLVM_DEBUG(dbgs() << "coalda: vote kept: " << *Cond
                      << " is neither block-uniform nor a bound\n");
    return false;
  }
  std::optional<unsigned> Dim = laneOf(B);
  if (!Dim) {
    LLVM_DEBUG(dbgs() << "coalda: vote kept: " << *Cmp
                      << " is not a bound on a lane index\n");
    return false;
  }
  P.GoParts.push_back({nullptr, true, B, *Dim});
  return true;
}

/// Every atom of X is alike in the block's threads.
bool UniformGoFinder::blockUniform(const Poly &X) const {
  const std::vector<Atom> &Atoms = Info.atoms();
  for (const auto &[M, K] : X.Terms)
    for (unsigned Id : M)
      switch (Atoms[Id].Kind) {
      case Atom::BlockIdx:
      case Atom::BlockDim:
      case Atom::GridDim:
      case Atom::Argument:
        break;
      case Atom::Opaque: // row-uniform: the block's, in a 1-D block
        if (C.transposed())
          return false;
        break;
      default:
        return false;
      }
  return true;
}

bool UniformGoFinder::blockUniform(Value *Cond) const {
  if (isa<Constant>(Cond))
    return true;
  if (!C.transposed() && Info.uniformity().isUniform(Cond))
    return true;
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp)
    return false;
  std::optional<Poly> L = Info.readInteger(Cmp->getOperand(0));
  std::optional<Poly> R = Info.readInteger(Cmp->getOperand(1));
  return L && R && blockUniform(*L) && blockUniform(*R);
}

/// The lane (0: tid.x, 1: tid.y) B bounds from above, or nullopt.
std::optional<unsigned> UniformGoFinder::laneOf(PrefixBound &B) const {
  std::optional<Poly> L = Info.readInteger(B.Lo);
  std::optional<Poly> H = Info.readInteger(B.Hi);
  if (!L || !H)
    return std::nullopt;
  std::optional<unsigned> Found;
  Poly Rest[2] = {*L, *H};
  for (unsigned Dim : {0u, 1u}) {
    if (Dim == 1 && !C.transposed())
      break;
    unsigned Lane = Info.registerAtom(Atom::ThreadIdx, Dim);
    LaneSide Side = laneSide(*L, *H, Lane);
    if (Side == LaneSide::None)
      continue;
    if (Found || (Side != LaneSide::Lo && Side != LaneSide::Hi))
      return std::nullopt; // two lanes, or a suffix of the block
    Found = Dim;
    B.LaneOnHi = Side == LaneSide::Hi;
    Rest[0].Terms.erase(Monomial{Lane});
    Rest[1].Terms.erase(Monomial{Lane});
  }
  if (!Found || !blockUniform(Rest[0]) || !blockUniform(Rest[1]))
    return std::nullopt;
  // The side is computed again for the block's first lane (its computation
  // with the lane's register 0), from block-uniform values only.
  Value *Side = B.LaneOnHi ? B.Hi : B.Lo;
  unsigned Bits = Side->getType()->getIntegerBitWidth();
  if (!isThreadFunction(Side) || (Bits != 32 && Bits != 64))
    return std::nullopt;
  if (!laneSideInOneWidth(Side, Info, *Found))
    return std::nullopt;
  return Found;
}

/// The checks the emitter would make per thread (checksHold), in uniform
/// form.
bool UniformGoFinder::findChecks() {
  auto ElementPointer = [](const StagedArray &A) {
    const AccessExpr &First = *A.Accesses.front();
    return std::make_pair(First.pointer(), -A.offsetInElement(First));
  };
  for (const OverlapCheck &Check : P.Checks) {
    Value *Ptr = getLoadStorePointerOperand(Check.Access);
    for (const StagedArray &A : C.Arrays)
      if ((A.Written || Check.IsStore) && !provablyDisjoint(Ptr, A.Base)) {
        auto [Element, Shift] = ElementPointer(A);
        if (!addCheck(Ptr, 0, Check.Width, Element, Shift, A.Stride))
          return false;
      }
  }
  for (auto [J, K] : P.ArrayChecks) {
    auto [X, XShift] = ElementPointer(C.Arrays[J]);
    auto [Y, YShift] = ElementPointer(C.Arrays[K]);
    if (!addCheck(X, XShift, C.Arrays[J].Stride, Y, YShift, C.Arrays[K].Stride))
      return false;
  }
  return true;
}

bool UniformGoFinder::addCheck(Value *X, int64_t XShift, uint64_t XWidth,
                               Value *Y, int64_t YShift, uint64_t YWidth) {
  LinearTerms XThread, YThread;
  std::optional<StagingPlan::UniformAddress> XU = split(X, XThread);
  std::optional<StagingPlan::UniformAddress> YU = split(Y, YThread);
  auto SameTerms = [&] {
    return XThread.size() == YThread.size() &&
           all_of(XThread, [&](const std::pair<Term, APInt> &T) {
             auto It = YThread.find(T.first);
             return It != YThread.end() && It->second == T.second;
           });
  };
  if (!XU || !YU || !SameTerms()) {
    LLVM_DEBUG(dbgs() << "coalda: vote kept: the overlap check of " << *X
                      << " and " << *Y << " differs between threads\n");
    return false;
  }
  XU->Offset += XShift;
  YU->Offset += YShift;
  P.UniformChecks.push_back({*XU, *YU, XWidth, YWidth});
  return true;
}

/// X's arithmetic keeps its widened value exact: any i64 arithmetic (it
/// wraps like the address), else no signed (unsigned) wrap under a sign
/// (zero) extension. Where the flag's promise fails the value is poison and
/// the access that uses it does not run or is undefined.
bool exactUnder(const Instruction *X, Widen W) {
  if (W == Widen::None)
    return true;
  if (const auto *Or = dyn_cast<PossiblyDisjointInst>(X))
    return Or->isDisjoint(); // no carries: no wrap either way
  if (!isa<OverflowingBinaryOperator>(X))
    return false;
  return W == Widen::Signed ? X->hasNoSignedWrap() : X->hasNoUnsignedWrap();
}

/// Adds Scale * widen(V) to Out and Constant, V split through adds,
/// subtractions, disjoint ors, multiplications and shifts by constants and
/// extensions where that is exact: `sext(or disjoint (shl nsw %i, 3), 1)` is
/// 8 * sext(%i) + 1.
void addLinear(Value *V, Widen W, const APInt &Scale, LinearTerms &Out,
               APInt &Constant, unsigned Depth) {
  using namespace PatternMatch;
  Value *X, *Y;
  const APInt *K;
  auto Wide = [&](const APInt &C) {
    return W == Widen::Unsigned ? C.zextOrTrunc(64) : C.sextOrTrunc(64);
  };
  auto *I = dyn_cast<Instruction>(V);
  if (match(V, m_APInt(K))) {
    Constant += Wide(*K) * Scale;
  } else if (!I || Depth > 8) {
    Out.insert({{V, W}, APInt(64, 0)}).first->second += Scale;
  } else if (match(V, m_SExt(m_Value(X))) && W != Widen::Unsigned) {
    addLinear(X, Widen::Signed, Scale, Out, Constant, Depth + 1);
  } else if (match(V, m_ZExt(m_Value(X)))) {
    addLinear(X, Widen::Unsigned, Scale, Out, Constant, Depth + 1);
  } else if (!exactUnder(I, W)) {
    Out.insert({{V, W}, APInt(64, 0)}).first->second += Scale;
  } else if (match(V, m_Add(m_Value(X), m_Value(Y))) ||
             match(V, m_DisjointOr(m_Value(X), m_Value(Y)))) {
    addLinear(X, W, Scale, Out, Constant, Depth + 1);
    addLinear(Y, W, Scale, Out, Constant, Depth + 1);
  } else if (match(V, m_Sub(m_Value(X), m_Value(Y)))) {
    addLinear(X, W, Scale, Out, Constant, Depth + 1);
    addLinear(Y, W, -Scale, Out, Constant, Depth + 1);
  } else if (match(V, m_Mul(m_Value(X), m_APInt(K)))) {
    addLinear(X, W, Scale * Wide(*K), Out, Constant, Depth + 1);
  } else if (match(V, m_Shl(m_Value(X), m_APInt(K))) &&
             K->ult(V->getType()->getIntegerBitWidth())) {
    addLinear(X, W, Scale.shl(K->getZExtValue()), Out, Constant, Depth + 1);
  } else {
    Out.insert({{V, W}, APInt(64, 0)}).first->second += Scale;
  }
}

/// Ptr as a kernel argument plus GEP terms plus a constant: the terms of
/// integer kernel arguments go into the result, the others (thread terms)
/// into ThreadTerms, nonzero scales only.
std::optional<StagingPlan::UniformAddress>
UniformGoFinder::split(Value *Ptr, LinearTerms &ThreadTerms) const {
  MapVector<Value *, APInt> Indices;
  APInt Constant(64, 0);
  Value *V = Ptr->stripPointerCasts();
  while (auto *GEP = dyn_cast<GEPOperator>(V)) {
    if (DL.getIndexTypeSizeInBits(GEP->getType()) != 64 ||
        !GEP->collectOffset(DL, 64, Indices, Constant))
      return std::nullopt;
    V = GEP->getPointerOperand()->stripPointerCasts();
  }
  if (!isa<Argument>(V) || !V->getType()->isPointerTy())
    return std::nullopt;
  // The indices (sign-extended by the GEP where narrower) as sums of scaled
  // values.
  LinearTerms Linear;
  for (auto &[Index, Scale] : Indices)
    addLinear(Index,
              Index->getType()->isIntegerTy(64) ? Widen::None : Widen::Signed,
              Scale, Linear, Constant, 0);
  StagingPlan::UniformAddress Out;
  Out.Root = V;
  Out.Offset = Constant.getSExtValue();
  for (auto &[T, Scale] : Linear) {
    if (Scale.isZero())
      continue;
    if (isa<Argument>(T.first))
      Out.Terms.push_back(
          {T.first, T.second == Widen::Unsigned, Scale.getSExtValue()});
    else
      ThreadTerms.insert({T, Scale});
  }
  return Out;
}

} // namespace

void findUniformGo(const StagingCandidate &C, StagingPlan &P,
                   const CoalescingInfo &Info) {
  if (!P.votes() || C.windowed() || opts::StageAlwaysVote)
    return;
  UniformGoFinder Finder(C, P, Info);
  P.UniformGo = Finder.find();
  if (P.UniformGo) {
    ++NumUniformGo;
    return;
  }
  ++NumVoteKept;
  P.GoParts.clear();
  P.UniformChecks.clear();
}

} // namespace coalda
