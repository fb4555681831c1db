//===- LaneExact.h - Addresses read exactly for the 32 lanes of a warp ----===//
//
// Where the linear automaton (CoalescingAnalysis.cpp) rejects an address
// for an operation it cannot keep linear (`tid & 31`, `tid >> 5`, `tid ^ 1`,
// `tid % 4`, a select or min of two lane functions), the lane-exact
// evaluator reads it again for one warp: every integer is U + F[lane], U the
// same for the warp's 32 lanes and F a table of 32 exact values. The
// algorithm is at the top of LaneExact.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_LANEEXACT_H
#define COALDA_LIB_LANEEXACT_H

#include "coalda/CoalescingAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

namespace llvm {
class BinaryOperator;
class DataLayout;
class Instruction;
class IntrinsicInst;
class PHINode;
} // namespace llvm

namespace coalda {

class RowUniformity;

/// An integer as the 32 lanes of one warp see it: U + F[lane].
struct LaneValue {
  std::array<int64_t, WarpLanes> F{};
  /// U in the analysis's atoms, when it is known exactly (selects and phis
  /// compare it); otherwise only its alignment is.
  std::optional<Poly> U = Poly();
  /// U is a multiple of 2^UAlign; 64 when U is zero.
  unsigned UAlign = 64;
  /// Induction phis whose iteration atoms U holds (see WarpPattern).
  llvm::SmallVector<const llvm::Value *, 2> Inductions;

  bool uniformZero() const { return UAlign >= 64; }
  bool operator==(const LaneValue &O) const {
    return F == O.F && U && O.U && *U == *O.U;
  }
};

/// The outcome of a lane-exact reading: a value, or why not.
template <typename T> struct LaneReading {
  std::optional<T> Value;
  std::string Reject;
  static LaneReading fail(std::string Why) { return {std::nullopt, Why}; }
};

class LaneEvaluator {
public:
  /// Reads V linearly (the automaton, state I), or nullopt.
  using LinearReader = std::function<std::optional<Poly>(const llvm::Value *)>;
  /// The id of an atom in the analysis's table (adds it when new).
  using AtomTable = std::function<unsigned(Atom)>;

  LaneEvaluator(const llvm::DataLayout &DL, const RowUniformity &Uniformity,
                const std::vector<Atom> &Atoms, AtomTable AtomFor,
                LinearReader Linear);

  /// Reads an address into a warp pattern, or the reason it cannot.
  LaneReading<WarpPattern> readPointer(const llvm::Value *Ptr);
  LaneReading<LaneValue> readInteger(const llvm::Value *V);

private:
  const llvm::DataLayout &DL;
  const RowUniformity &Uniformity;
  const std::vector<Atom> &Atoms;
  AtomTable AtomFor;
  LinearReader Linear;
  unsigned LaneAtom, WarpAtom;
  llvm::DenseMap<const llvm::Value *, LaneReading<LaneValue>> Memo;
  /// Phis being read; a phi that reaches itself is loop-carried.
  llvm::DenseSet<const llvm::Value *> OpenPhis;

  LaneReading<WarpPattern> readAddress(const llvm::Value *Ptr);
  LaneReading<LaneValue> step(const llvm::Value *V);
  LaneReading<LaneValue> fromPoly(const Poly &P);
  LaneReading<LaneValue> binary(const llvm::BinaryOperator &I);
  LaneReading<LaneValue> select(const llvm::Value *Cond,
                                const llvm::Value *T, const llvm::Value *F);
  LaneReading<LaneValue> minMax(const llvm::IntrinsicInst &II);
  LaneReading<LaneValue> choose(const std::array<bool, WarpLanes> &C,
                                const LaneValue &T, const LaneValue &F);
  LaneReading<LaneValue> add(const LaneValue &A, const LaneValue &B,
                             int64_t Sign);
  LaneReading<LaneValue> scale(const LaneValue &V, int64_t C);
  LaneReading<LaneValue> shiftRight(const LaneValue &V, unsigned C,
                                    const llvm::Instruction &I);
  LaneReading<LaneValue> bitwiseConstant(unsigned Opcode, const LaneValue &V,
                                         int64_t C,
                                         const llvm::Instruction &I);
  std::optional<LaneValue> bitwiseSplit(unsigned Opcode, const LaneValue &V,
                                        int64_t C);
  std::optional<LaneValue> bitwiseTable(unsigned Opcode, const LaneValue &V,
                                        const LaneValue &T);
  LaneReading<LaneValue> divide(const LaneValue &V, int64_t D, bool Remainder,
                                const llvm::Instruction &I);
  LaneReading<LaneValue> phi(const llvm::PHINode &Phi);
  LaneReading<std::array<bool, WarpLanes>> readCondition(const llvm::Value *V);
  unsigned alignOf(const Poly &P) const;
  /// Of `p = phi [start, ...], [p + uniform, latch]`: start, and a power of
  /// two dividing the step (its log).
  std::optional<std::pair<const llvm::Value *, unsigned>>
  pointerInduction(const llvm::PHINode &Phi) const;
  unsigned atomAlign(unsigned Id) const;
};

} // namespace coalda

#endif // COALDA_LIB_LANEEXACT_H
