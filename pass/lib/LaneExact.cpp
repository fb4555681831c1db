//===- LaneExact.cpp - Addresses read exactly for the 32 lanes of a warp --===//
//
// Lane-exact evaluation: what the linear automaton (CoalescingAnalysis.cpp)
// rejects for an operation it cannot keep linear is read again for one warp.
//
// A warp is 32 consecutive threadIdx.x of one row (blockDim.x a multiple of
// 32, an assumption the findings state): tid.x = 32*warp + lane. Every
// integer is read as
//
//     v = U + F[lane]          lane = 0..31
//
// where U is equal for the 32 lanes (a polynomial of row-uniform atoms and
// `warp`, or only a power of two 2^a known to divide it) and F is a table of
// 32 exact integers. Linear subexpressions come from the automaton, with
// tid.x replaced by 32*warp + lane (ntid.x counts as a multiple of 32). The
// rules, with 2^a the alignment of U:
//
//   v1 +/- v2, v*c, v << c     U and F termwise
//   v1 * v2, both U = 0        F lane by lane
//   v & c  (0 <= c < 2^a)      F & c, U = 0  (U's low a bits are zero)
//   v & c  (c < 0, ~c < 2^a)   U + (F & c)   (c clears low bits only)
//   v | c, v ^ c (0<=c<2^a)    U + (F op c)
//   v ^ -1                     -1 - v
//   v1 op v2 (U2 = 0, 0 <= F2 < 2^a)   as with a constant, lane by lane
//   v >> c, v / 2^c (c <= a)   U / 2^c + floor(F / 2^c)
//   v % 2^c                    v & (2^c - 1)
//   v & (2^k - 1), k >= 24     v  (only bits a non-wrapping index lacks)
//   v / d, v % d  (U = 0)      F lane by lane
//   select(c, v1, v2)          c per lane, when U1 = U2 exactly
//   min/max(v1, v2)            the same, c the comparison
//   phi                        when every incoming value reads the same
//
// Indices are assumed not to wrap and not to be negative (as the automaton
// assumes of clang's inbounds address arithmetic), so shifts and divisions
// floor. Anything else is rejected with a reason in the source's terms.
//
// A pointer is read as the automaton reads it (GEP indices scaled by their
// element sizes; a pointer stepped by a uniform amount in a loop as its
// start, valid inside that loop) down to its base: a parameter, a global, or any pointer the
// threads of a row share (loaded from a uniform address: a parameter
// struct's field, a __constant__ pointer table at a uniform index). The
// result is a WarpPattern: the 32 lanes' byte offsets from base + U.
//
//===----------------------------------------------------------------------===//

#include "LaneExact.h"
#include "RowUniformity.h"
#include "SourceNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <set>

#define DEBUG_TYPE "coalda-lane-exact"

using namespace llvm;

STATISTIC(NumWarpPatterns, "Addresses read lane by lane for one warp");
STATISTIC(NumLaneRejected, "Addresses lane-exact evaluation cannot read");

namespace coalda {

namespace {

using Table = std::array<int64_t, WarpLanes>;
using Reading = LaneReading<LaneValue>;
using Condition = std::array<bool, WarpLanes>;

LaneValue constantValue(int64_t C) {
  LaneValue V;
  V.F.fill(C);
  return V;
}

/// V is the same constant C in every lane.
bool isConstant(const LaneValue &V, int64_t &C) {
  if (!V.uniformZero())
    return false;
  C = V.F[0];
  return all_of(V.F, [&](int64_t X) { return X == C; });
}

/// Bits needed for a non-negative C (0 for 0).
unsigned bitLength(int64_t C) { return 64 - countl_zero((uint64_t)C); }

Reading ok(LaneValue V) { return {std::move(V), {}}; }

/// A mask of at least this many low bits keeps every index that does not
/// wrap (16M elements and more).
constexpr unsigned WideMaskBits = 24;

/// Applies Op to every lane; nullopt on overflow.
template <typename Fn>
std::optional<Table> perLane(const Table &A, const Table &B, Fn Op) {
  Table R;
  for (unsigned L = 0; L < WarpLanes; ++L) {
    std::optional<int64_t> X = Op(A[L], B[L]);
    if (!X)
      return std::nullopt;
    R[L] = *X;
  }
  return R;
}

std::optional<int64_t> checkedAdd(int64_t A, int64_t B) {
  int64_t R;
  return __builtin_add_overflow(A, B, &R) ? std::nullopt
                                          : std::optional<int64_t>(R);
}

std::optional<int64_t> checkedMul(int64_t A, int64_t B) {
  int64_t R;
  return __builtin_mul_overflow(A, B, &R) ? std::nullopt
                                          : std::optional<int64_t>(R);
}

int64_t floorShift(int64_t X, unsigned C) { return X >> C; } // arithmetic

/// " to `rand_int`": the callee as the source names it, where it has one.
std::string calleeName(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->getName().empty())
    return "";
  return " to `" + sourceName(*Callee) + "`";
}

/// `&` etc., or what the operation is (SourceNames.cpp).
std::string operation(const Instruction &I) { return operationWords(&I); }

} // namespace

LaneEvaluator::LaneEvaluator(const DataLayout &DL,
                             const RowUniformity &Uniformity,
                             const std::vector<Atom> &Atoms, AtomTable AtomFor,
                             LinearReader Linear)
    : DL(DL), Uniformity(Uniformity), Atoms(Atoms),
      AtomFor(std::move(AtomFor)), Linear(std::move(Linear)) {
  LaneAtom = this->AtomFor({Atom::ThreadIdx, 0, nullptr});
  WarpAtom = this->AtomFor({Atom::WarpIdx, 0, nullptr});
}

//===----------------------------------------------------------------------===//
// Alignment of the warp-uniform part
//===----------------------------------------------------------------------===//

unsigned LaneEvaluator::atomAlign(unsigned Id) const {
  const Atom &A = Atoms[Id];
  if (A.Kind == Atom::BlockDim && A.Dim == 0)
    return 5; // blocks are whole warps: the stated assumption
  if ((A.Kind == Atom::Opaque || A.Kind == Atom::Argument) && A.V &&
      A.V->getType()->isIntegerTy())
    return std::min(63u, computeKnownBits(A.V, DL).countMinTrailingZeros());
  return 0;
}

unsigned LaneEvaluator::alignOf(const Poly &P) const {
  unsigned Min = 64;
  for (const auto &[M, C] : P.Terms) {
    if (!C)
      continue;
    unsigned A = countr_zero((uint64_t)C);
    for (unsigned Id : M)
      A += atomAlign(Id);
    Min = std::min(Min, A);
  }
  return std::min(Min, 64u);
}

//===----------------------------------------------------------------------===//
// Arithmetic on lane values
//===----------------------------------------------------------------------===//

Reading LaneEvaluator::add(const LaneValue &A, const LaneValue &B,
                           int64_t Sign) {
  std::optional<Table> F = perLane(A.F, B.F, [&](int64_t X, int64_t Y) {
    std::optional<int64_t> SY = checkedMul(Y, Sign);
    return SY ? checkedAdd(X, *SY) : std::nullopt;
  });
  if (!F)
    return Reading::fail("expression too large");
  LaneValue R;
  R.F = *F;
  R.Inductions = A.Inductions;
  for (const Value *Phi : B.Inductions)
    if (!is_contained(R.Inductions, Phi))
      R.Inductions.push_back(Phi);
  if (A.U && B.U) {
    R.U = *A.U + B.U->scaled(Sign);
    R.UAlign = alignOf(*R.U);
  } else {
    R.U = std::nullopt;
    R.UAlign = std::min(A.UAlign, B.UAlign);
  }
  return ok(std::move(R));
}

Reading LaneEvaluator::scale(const LaneValue &V, int64_t C) {
  if (C == 0)
    return ok(constantValue(0));
  Table Cs;
  Cs.fill(C);
  std::optional<Table> F = perLane(V.F, Cs, checkedMul);
  if (!F)
    return Reading::fail("expression too large");
  LaneValue R = V;
  R.F = *F;
  if (R.U)
    R.U = R.U->scaled(C);
  if (!V.uniformZero())
    R.UAlign = std::min(63u, V.UAlign + countr_zero((uint64_t)C));
  return ok(std::move(R));
}

Reading LaneEvaluator::shiftRight(const LaneValue &V, unsigned C,
                                  const Instruction &I) {
  if (V.UAlign < C)
    return Reading::fail(operation(I) + " of a thread-dependent value whose "
                                        "warp-uniform part may not be a "
                                        "multiple of " +
                         std::to_string(uint64_t(1) << C));
  LaneValue R;
  for (unsigned L = 0; L < WarpLanes; ++L)
    R.F[L] = floorShift(V.F[L], C);
  if (V.uniformZero())
    return ok(std::move(R));
  R.Inductions = V.Inductions;
  R.UAlign = V.UAlign - C;
  R.U = std::nullopt;
  if (V.U && all_of(V.U->Terms, [&](const auto &T) {
        return T.second % (int64_t(1) << C) == 0;
      })) {
    Poly U;
    for (const auto &[M, K] : V.U->Terms)
      U.Terms[M] = K >> C;
    R.U = std::move(U);
  }
  return ok(std::move(R));
}

/// v op c for a constant c >= 0 with bits at and above U's alignment 2^a,
/// when every lane's F lies in [0, 2^a): U and F then have no bit in common,
/// so v op c = (U op c_hi) + (F op c_lo), c_lo the low a bits of c. The first
/// term is equal for the warp, unknown, and still a multiple of 2^a
/// (`(32*warp + lane) & 63` = `32*(warp & 1) + lane`).
std::optional<LaneValue> LaneEvaluator::bitwiseSplit(unsigned Opcode,
                                                     const LaneValue &V,
                                                     int64_t C) {
  if (V.UAlign >= 63 || any_of(V.F, [&](int64_t X) {
        return X < 0 || X >= (int64_t(1) << V.UAlign);
      }))
    return std::nullopt;
  int64_t Low = C & ((int64_t(1) << V.UAlign) - 1);
  int64_t High = C - Low;
  LaneValue R = V;
  for (unsigned L = 0; L < WarpLanes; ++L)
    R.F[L] = Opcode == Instruction::And  ? V.F[L] & Low
             : Opcode == Instruction::Or ? V.F[L] | Low
                                         : V.F[L] ^ Low;
  R.U = std::nullopt;
  if (Opcode == Instruction::And) // U & c_hi: a multiple of c_hi's low bit
    R.UAlign = std::max<unsigned>(V.UAlign, countr_zero((uint64_t)High));
  return R;
}

/// v op c for a constant c, op one of & | ^.
Reading LaneEvaluator::bitwiseConstant(unsigned Opcode, const LaneValue &V,
                                       int64_t C, const Instruction &I) {
  // A mask of the low 24 bits or more only drops what would have wrapped
  // (clang's `(t << 1) >> 5` on unsigned becomes `(t >> 4) & 0x7ffffff`):
  // with indices that do not wrap, it changes nothing.
  if (Opcode == Instruction::And && C > 0 && isPowerOf2_64((uint64_t)C + 1) &&
      bitLength(C) >= WideMaskBits)
    return ok(V);
  if (Opcode == Instruction::Xor && C == -1) { // ~v = -1 - v
    Reading Negated = scale(V, -1);
    return Negated.Value ? add(*Negated.Value, constantValue(-1), 1) : Negated;
  }
  unsigned Bits = bitLength(C < 0 ? ~C : C);
  if (V.UAlign < Bits && C >= 0)
    if (std::optional<LaneValue> R = bitwiseSplit(Opcode, V, C))
      return ok(std::move(*R));
  if (V.UAlign < Bits || (C < 0 && Opcode != Instruction::And))
    return Reading::fail(operation(I) +
                         " of a thread-dependent value whose warp-uniform "
                         "part may have bits in common with " +
                         std::to_string(C));
  LaneValue R = V;
  for (unsigned L = 0; L < WarpLanes; ++L)
    R.F[L] = Opcode == Instruction::And  ? V.F[L] & C
             : Opcode == Instruction::Or ? V.F[L] | C
                                         : V.F[L] ^ C;
  if (Opcode == Instruction::And && C >= 0) { // the mask clears U
    R.U = Poly();
    R.UAlign = 64;
    R.Inductions.clear();
  }
  return ok(std::move(R));
}

/// v op t, for t a lane table below v's alignment.
std::optional<LaneValue> LaneEvaluator::bitwiseTable(unsigned Opcode,
                                                     const LaneValue &V,
                                                     const LaneValue &T) {
  if (!T.uniformZero() || any_of(T.F, [](int64_t X) { return X < 0; }))
    return std::nullopt;
  if (V.UAlign < bitLength(*max_element(T.F)))
    return std::nullopt;
  LaneValue R = V;
  for (unsigned L = 0; L < WarpLanes; ++L)
    R.F[L] = Opcode == Instruction::And  ? V.F[L] & T.F[L]
             : Opcode == Instruction::Or ? V.F[L] | T.F[L]
                                         : V.F[L] ^ T.F[L];
  if (Opcode == Instruction::And) {
    R.U = Poly();
    R.UAlign = 64;
    R.Inductions.clear();
  }
  return R;
}

Reading LaneEvaluator::divide(const LaneValue &V, int64_t D, bool Remainder,
                              const Instruction &I) {
  if (D <= 0)
    return Reading::fail(operation(I) + " by " + std::to_string(D));
  if (isPowerOf2_64(D)) {
    unsigned C = Log2_64(D);
    return Remainder ? bitwiseConstant(Instruction::And, V, D - 1, I)
                     : shiftRight(V, C, I);
  }
  if (!V.uniformZero())
    return Reading::fail(operation(I) + " by " + std::to_string(D) +
                         " of a thread-dependent value whose warp-uniform "
                         "part may not be a multiple of " + std::to_string(D));
  LaneValue R;
  for (unsigned L = 0; L < WarpLanes; ++L) {
    if (V.F[L] < 0)
      return Reading::fail(operation(I) + " of a negative index");
    R.F[L] = Remainder ? V.F[L] % D : V.F[L] / D;
  }
  return ok(std::move(R));
}

//===----------------------------------------------------------------------===//
// The reading
//===----------------------------------------------------------------------===//

Reading LaneEvaluator::fromPoly(const Poly &P) {
  LaneValue R;
  Poly U;
  for (const auto &[M, C] : P.Terms) {
    unsigned K = count(M, LaneAtom);
    if (K > 1)
      return Reading::fail("non-linear in threadIdx.x");
    if (K == 0) {
      if (M.empty())
        for (int64_t &X : R.F)
          X += C;
      else
        U.Terms[M] += C;
      for (unsigned Id : M)
        if (Atoms[Id].Kind == Atom::Iteration &&
            !is_contained(R.Inductions, Atoms[Id].V))
          R.Inductions.push_back(Atoms[Id].V);
      continue;
    }
    if (M.size() != 1)
      return Reading::fail("threadIdx.x times a run-time value, inside an "
                           "expression read lane by lane");
    for (unsigned L = 0; L < WarpLanes; ++L)
      R.F[L] += C * L;
    U.Terms[Monomial{WarpAtom}] += 32 * C;
  }
  R.UAlign = alignOf(U);
  R.U = std::move(U);
  return ok(std::move(R));
}

LaneReading<LaneValue> LaneEvaluator::readInteger(const Value *V) {
  if (auto It = Memo.find(V); It != Memo.end())
    return It->second;
  Reading R = step(V);
  LLVM_DEBUG(if (!R.Value) dbgs() << "coalda-lane-exact: " << *V
                                  << "\n    rejected: " << R.Reject << "\n");
  Memo[V] = R;
  return R;
}

Reading LaneEvaluator::step(const Value *V) {
  if (std::optional<Poly> P = Linear(V))
    return fromPoly(*P);
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return Reading::fail("unsupported constant expression");
  switch (I->getOpcode()) {
  case Instruction::SExt:
  case Instruction::ZExt:
    return readInteger(I->getOperand(0));
  case Instruction::Trunc: {
    Reading R = readInteger(I->getOperand(0));
    unsigned Bits = I->getType()->getIntegerBitWidth();
    if (!R.Value)
      return R; // what truncates is unknown already (data, a call)
    if (R.Value->uniformZero() && Bits < 64 &&
        all_of(R.Value->F, [&](int64_t X) {
          return X >= 0 && bitLength(X) < Bits;
        }))
      return R;
    return Reading::fail("index truncated to " + std::to_string(Bits) +
                         " bits (it may wrap)");
  }
  case Instruction::Select: {
    const auto *Sel = cast<SelectInst>(I);
    return select(Sel->getCondition(), Sel->getTrueValue(),
                  Sel->getFalseValue());
  }
  case Instruction::PHI:
    return phi(*cast<PHINode>(I));
  case Instruction::Freeze: // the same value where it is not poison
    return readInteger(I->getOperand(0));
  case Instruction::Load:
    return Reading::fail("data-dependent index (loaded from memory)");
  case Instruction::ExtractValue:
    if (!isa<AtomicCmpXchgInst>(I->getOperand(0)))
      return Reading::fail("index taken from a record a call returned");
    [[fallthrough]];
  case Instruction::AtomicRMW:
  case Instruction::AtomicCmpXchg:
    return Reading::fail("data-dependent index (returned by an atomic "
                         "operation: a slot each thread claims)");
  case Instruction::ExtractElement:
    return Reading::fail("data-dependent index (an element of a vector "
                         "loaded from memory)");
  case Instruction::FPToSI:
  case Instruction::FPToUI:
    return Reading::fail("index computed from a floating-point value");
  case Instruction::Call:
    if (const auto *II = dyn_cast<IntrinsicInst>(I))
      return minMax(*II);
    return Reading::fail("index returned by a call" +
                         calleeName(*cast<CallBase>(I)));
  default:
    if (const auto *B = dyn_cast<BinaryOperator>(I))
      return binary(*B);
    return Reading::fail("non-linear " + operation(*I) +
                         " of a thread-dependent value");
  }
}

Reading LaneEvaluator::binary(const BinaryOperator &I) {
  Reading L = readInteger(I.getOperand(0));
  if (!L.Value)
    return L;
  Reading R = readInteger(I.getOperand(1));
  if (!R.Value)
    return R;
  const LaneValue &A = *L.Value, &B = *R.Value;
  int64_t C;
  switch (I.getOpcode()) {
  case Instruction::Add:
    return add(A, B, 1);
  case Instruction::Sub:
    return add(A, B, -1);
  case Instruction::Mul:
    if (isConstant(B, C))
      return scale(A, C);
    if (isConstant(A, C))
      return scale(B, C);
    if (A.uniformZero() && B.uniformZero()) {
      std::optional<Table> F = perLane(A.F, B.F, checkedMul);
      if (!F)
        return Reading::fail("expression too large");
      LaneValue P;
      P.F = *F;
      return ok(std::move(P));
    }
    return Reading::fail("product of a thread-dependent value and a "
                         "run-time value, inside an expression read lane by "
                         "lane");
  case Instruction::Shl:
    if (isConstant(B, C) && C >= 0 && C < 62)
      return scale(A, int64_t(1) << C);
    break;
  case Instruction::LShr:
  case Instruction::AShr:
    if (isConstant(B, C) && C >= 0 && C < 63)
      return shiftRight(A, C, I);
    break;
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
    if (isConstant(B, C))
      return bitwiseConstant(I.getOpcode(), A, C, I);
    if (isConstant(A, C))
      return bitwiseConstant(I.getOpcode(), B, C, I);
    if (std::optional<LaneValue> V = bitwiseTable(I.getOpcode(), A, B))
      return ok(std::move(*V));
    if (std::optional<LaneValue> V = bitwiseTable(I.getOpcode(), B, A))
      return ok(std::move(*V));
    return Reading::fail(operation(I) + " of two thread-dependent values, "
                                        "or with a run-time mask");
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem: {
    bool Rem = I.getOpcode() == Instruction::URem ||
               I.getOpcode() == Instruction::SRem;
    if (isConstant(B, C))
      return divide(A, C, Rem, I);
    if (A.uniformZero() && B.uniformZero()) {
      LaneValue Q;
      for (unsigned K = 0; K < WarpLanes; ++K) {
        if (A.F[K] < 0 || B.F[K] <= 0)
          return Reading::fail(operation(I) + " by a non-positive value");
        Q.F[K] = Rem ? A.F[K] % B.F[K] : A.F[K] / B.F[K];
      }
      return ok(std::move(Q));
    }
    return Reading::fail(operation(I) + " of a thread-dependent value by a "
                                        "run-time value");
  }
  default:
    break;
  }
  return Reading::fail("non-linear " + operation(I) +
                       " of a thread-dependent value by a run-time amount");
}

LaneReading<Condition> LaneEvaluator::readCondition(const Value *V) {
  using Result = LaneReading<Condition>;
  Condition C;
  if (const auto *K = dyn_cast<ConstantInt>(V)) {
    C.fill(!K->isZero());
    return {C, {}};
  }
  if (const auto *Cmp = dyn_cast<ICmpInst>(V)) {
    Reading L = readInteger(Cmp->getOperand(0));
    if (!L.Value)
      return Result::fail(L.Reject);
    Reading R = readInteger(Cmp->getOperand(1));
    if (!R.Value)
      return Result::fail(R.Reject);
    if (!L.Value->U || !R.Value->U || *L.Value->U != *R.Value->U)
      return Result::fail("a choice by comparing a thread-dependent value "
                          "with a bound whose distance to it differs per "
                          "warp or is a run-time value");
    for (unsigned K = 0; K < WarpLanes; ++K) {
      int64_t A = L.Value->F[K], B = R.Value->F[K];
      // Indices are not negative: unsigned and signed orders agree.
      C[K] = ICmpInst::compare(APInt(64, A, true), APInt(64, B, true),
                               ICmpInst::getSignedPredicate(
                                   Cmp->getPredicate()));
    }
    return {C, {}};
  }
  if (const auto *B = dyn_cast<BinaryOperator>(V);
      B && B->getType()->isIntegerTy(1)) {
    Result L = readCondition(B->getOperand(0));
    if (!L.Value)
      return L;
    Result R = readCondition(B->getOperand(1));
    if (!R.Value)
      return R;
    for (unsigned K = 0; K < WarpLanes; ++K)
      C[K] = B->getOpcode() == Instruction::And  ? (*L.Value)[K] && (*R.Value)[K]
             : B->getOpcode() == Instruction::Or ? (*L.Value)[K] || (*R.Value)[K]
                                                 : (*L.Value)[K] != (*R.Value)[K];
    return {C, {}};
  }
  return Result::fail("a choice by a condition COALDA cannot evaluate per "
                      "lane");
}

Reading LaneEvaluator::choose(const Condition &C, const LaneValue &T,
                              const LaneValue &F) {
  if (T == F)
    return ok(T);
  if (!T.U || !F.U || *T.U != *F.U)
    return Reading::fail("a choice between two values that differ by a "
                         "run-time amount (a min, max or ?: of an index and "
                         "a bound)");
  LaneValue R = T;
  for (const Value *Phi : F.Inductions)
    if (!is_contained(R.Inductions, Phi))
      R.Inductions.push_back(Phi);
  for (unsigned L = 0; L < WarpLanes; ++L)
    R.F[L] = C[L] ? T.F[L] : F.F[L];
  return ok(std::move(R));
}

Reading LaneEvaluator::select(const Value *Cond, const Value *T,
                              const Value *F) {
  Reading RT = readInteger(T);
  if (!RT.Value)
    return RT;
  Reading RF = readInteger(F);
  if (!RF.Value)
    return RF;
  if (*RT.Value == *RF.Value)
    return RT;
  LaneReading<Condition> C = readCondition(Cond);
  if (!C.Value)
    return Reading::fail(C.Reject);
  return choose(*C.Value, *RT.Value, *RF.Value);
}

Reading LaneEvaluator::minMax(const IntrinsicInst &II) {
  Intrinsic::ID ID = II.getIntrinsicID();
  if (ID != Intrinsic::smin && ID != Intrinsic::smax &&
      ID != Intrinsic::umin && ID != Intrinsic::umax)
    return Reading::fail("index returned by a call");
  Reading L = readInteger(II.getArgOperand(0));
  if (!L.Value)
    return L;
  Reading R = readInteger(II.getArgOperand(1));
  if (!R.Value)
    return R;
  bool Min = ID == Intrinsic::smin || ID == Intrinsic::umin;
  Condition C;
  for (unsigned K = 0; K < WarpLanes; ++K)
    C[K] = Min ? L.Value->F[K] <= R.Value->F[K]
               : L.Value->F[K] >= R.Value->F[K];
  return choose(C, *L.Value, *R.Value);
}

static std::string decidingBranch(const PHINode &Phi);


Reading LaneEvaluator::phi(const PHINode &Phi) {
  if (!OpenPhis.insert(&Phi).second)
    return Reading::fail("a value carried around a loop that is not an "
                         "induction");
  Reading Same = Reading::fail("phi without incoming values");
  for (const Value *In : Phi.incoming_values()) {
    Reading R = readInteger(In);
    if (!R.Value) {
      Same = R;
      break;
    }
    if (Same.Value && !(*Same.Value == *R.Value)) {
      Same = Reading::fail("the threads reach it from paths that compute "
                           "different addresses (" +
                           decidingBranch(Phi) + ")");
      break;
    }
    if (!Same.Value)
      Same = R;
  }
  OpenPhis.erase(&Phi);
  return Same;
}

/// Where the paths into Phi part, for the reader: "the branch at line 12",
/// or what the paths are where no line is known.
static std::string decidingBranch(const PHINode &Phi) {
  for (const BasicBlock *In : Phi.blocks())
    for (const BasicBlock *B = In; B; B = B->getSinglePredecessor()) {
      const auto *Br = dyn_cast<BranchInst>(B->getTerminator());
      if (Br && Br->isConditional()) {
        if (const DebugLoc &DL = Br->getDebugLoc(); DL && DL.getLine())
          return "the branch at line " + std::to_string(DL.getLine());
        break;
      }
      if (B == &Phi.getParent()->getParent()->getEntryBlock())
        break;
    }
  return "a branch on a thread-dependent value, or a loop-carried value "
         "that is not an induction";
}

LaneReading<WarpPattern> LaneEvaluator::readPointer(const Value *Ptr) {
  LaneReading<WarpPattern> R = readAddress(Ptr);
  if (R.Value)
    ++NumWarpPatterns;
  else
    ++NumLaneRejected;
  return R;
}

LaneReading<WarpPattern> LaneEvaluator::readAddress(const Value *Ptr) {
  using Result = LaneReading<WarpPattern>;
  LaneValue Offset = constantValue(0);
  while (true) {
    Ptr = Ptr->stripPointerCastsSameRepresentation();
    if (const auto *ASC = dyn_cast<AddrSpaceCastOperator>(Ptr)) {
      Ptr = ASC->getPointerOperand();
      continue;
    }
    if (const auto *Phi = dyn_cast<PHINode>(Ptr)) {
      // A pointer stepped by a uniform amount per iteration: the start's
      // lanes, moved by the same steps in every lane.
      std::optional<std::pair<const Value *, unsigned>> Start =
          pointerInduction(*Phi);
      if (!Start)
        break;
      Offset.U = std::nullopt;
      Offset.UAlign = std::min(Offset.UAlign, Start->second);
      if (!is_contained(Offset.Inductions, Phi))
        Offset.Inductions.push_back(Phi);
      Ptr = Start->first;
      continue;
    }
    const auto *GEP = dyn_cast<GEPOperator>(Ptr);
    if (!GEP)
      break;
    for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
         GTI != E; ++GTI) {
      const Value *Idx = GTI.getOperand();
      int64_t Bytes;
      Reading R;
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        Bytes = DL.getStructLayout(ST)->getElementOffset(
            cast<ConstantInt>(Idx)->getZExtValue());
        R = ok(constantValue(1));
      } else {
        TypeSize Size = GTI.getSequentialElementStride(DL);
        if (Size.isScalable())
          return Result::fail("scalable vector index");
        Bytes = Size.getFixedValue();
        R = readInteger(Idx);
      }
      if (!R.Value)
        return Result::fail(R.Reject);
      Reading Scaled = scale(*R.Value, Bytes);
      if (!Scaled.Value)
        return Result::fail(Scaled.Reject);
      Reading Sum = add(Offset, *Scaled.Value, 1);
      if (!Sum.Value)
        return Result::fail(Sum.Reject);
      Offset = std::move(*Sum.Value);
    }
    Ptr = GEP->getPointerOperand();
  }
  // A parameter's or global's allocation starts a sector (cudaMalloc aligns
  // to 256 bytes); a pointer loaded or chosen at run time may not.
  bool Allocation = isa<Argument>(Ptr);
  if (const auto *GV = dyn_cast<GlobalVariable>(Ptr))
    Allocation = GV->getAlign().valueOrOne().value() >= 32;
  if (!isa<Argument, GlobalVariable, AllocaInst>(Ptr) &&
      !Uniformity.isUniform(Ptr))
    return Result::fail(""); // the automaton's reason stands
  WarpPattern P;
  P.Base = Ptr;
  P.Offsets = Offset.F;
  P.SectorAligned = Allocation && Offset.UAlign >= 5;
  P.Inductions = Offset.Inductions;
  LLVM_DEBUG(dbgs() << "coalda-lane-exact: read for one warp, base "
                    << baseName(Ptr) << "\n");
  return {P, {}};
}

std::optional<std::pair<const Value *, unsigned>>
LaneEvaluator::pointerInduction(const PHINode &Phi) const {
  if (Phi.getNumIncomingValues() != 2 || !Phi.getType()->isPointerTy())
    return std::nullopt;
  for (unsigned Back = 0; Back < 2; ++Back) {
    // Next = Phi + uniform indices: walk its GEPs down to Phi.
    const Value *P = Phi.getIncomingValue(Back);
    unsigned Align = 64;
    bool Uniform = true;
    while (P != &Phi && Uniform) {
      const auto *GEP = dyn_cast<GEPOperator>(P);
      if (!GEP)
        break;
      for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
           GTI != E && Uniform; ++GTI) {
        if (GTI.getStructTypeOrNull())
          continue; // a constant field offset: bounded by the record
        TypeSize Size = GTI.getSequentialElementStride(DL);
        const Value *Idx = GTI.getOperand();
        Uniform = !Size.isScalable() && Uniformity.isUniform(Idx);
        unsigned Bits =
            countr_zero(Size.getKnownMinValue()) +
            (isa<ConstantInt>(Idx)
                 ? countr_zero(cast<ConstantInt>(Idx)->getZExtValue())
                 : computeKnownBits(Idx, DL).countMinTrailingZeros());
        Align = std::min(Align, std::min(63u, Bits));
      }
      P = GEP->getPointerOperand();
    }
    if (P == &Phi && Uniform)
      return std::make_pair(Phi.getIncomingValue(1 - Back), Align);
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Warp patterns: sectors and banks
//===----------------------------------------------------------------------===//

namespace {

int64_t floorDiv(int64_t A, int64_t B) {
  return A >= 0 ? A / B : -((-A + B - 1) / B);
}

/// The offsets moved so that the lowest starts a sector: the best alignment.
Table bestAligned(const Table &O) {
  int64_t Min = *min_element(O);
  Table R;
  for (unsigned L = 0; L < WarpLanes; ++L)
    R[L] = O[L] - Min;
  return R;
}

unsigned sectorCount(const Table &O, uint64_t Piece) {
  std::set<int64_t> Sectors;
  for (int64_t Start : O)
    for (int64_t S = floorDiv(Start, 32),
                 E = floorDiv(Start + (int64_t)Piece - 1, 32);
         S <= E; ++S)
      Sectors.insert(S);
  return Sectors.size();
}

} // namespace

unsigned WarpPattern::sectors(uint64_t Piece) const {
  return sectorCount(SectorAligned ? Offsets : bestAligned(Offsets), Piece);
}

unsigned WarpPattern::idealSectors(uint64_t Piece) const {
  std::vector<std::pair<int64_t, int64_t>> Spans;
  for (int64_t Start : Offsets)
    Spans.push_back({Start, Start + (int64_t)Piece});
  llvm::sort(Spans);
  int64_t Bytes = 0, End = INT64_MIN;
  for (auto [S, E] : Spans) {
    S = std::max(S, End);
    if (E > S)
      Bytes += E - S;
    End = std::max(End, E);
  }
  return (Bytes + 31) / 32;
}

bool WarpPattern::sameAddress() const {
  return all_of(Offsets, [&](int64_t X) { return X == Offsets[0]; });
}

bool WarpPattern::isCoalesced(uint64_t Piece) const {
  return sectorCount(bestAligned(Offsets), Piece) <= idealSectors(Piece);
}

unsigned WarpPattern::bankConflictWays(uint64_t Piece) const {
  // A request of more than 4 bytes per lane is served in phases: 8 bytes in
  // two half-warps, 16 bytes in four quarter-warps.
  unsigned Words = std::max<uint64_t>(1, (Piece + 3) / 4);
  unsigned PhaseLanes = std::max(1u, WarpLanes / std::min(Words, 4u));
  unsigned Worst = 1;
  for (unsigned First = 0; First < WarpLanes; First += PhaseLanes) {
    std::map<int64_t, std::set<int64_t>> ByBank;
    for (unsigned L = First; L < First + PhaseLanes; ++L)
      for (int64_t W = floorDiv(Offsets[L], 4),
                   E = floorDiv(Offsets[L] + (int64_t)Piece - 1, 4);
           W <= E; ++W)
        ByBank[((W % 32) + 32) % 32].insert(W);
    for (const auto &[Bank, Distinct] : ByBank)
      Worst = std::max<unsigned>(Worst, Distinct.size());
  }
  return Worst;
}

} // namespace coalda
