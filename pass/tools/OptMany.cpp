//===- OptMany.cpp - opt's -passes= over many IR files in one process -----===//
//
//   coalda-opt-many -load-pass-plugin=libCoalda.so -passes=PIPELINE
//                   [-coalda-OPTION...] INPUT.ll...
//
// does for each input, in turn, what
//
//   opt-19 -load-pass-plugin=libCoalda.so -passes=PIPELINE -disable-output
//          INPUT.ll
//
// does: the input is parsed into a fresh LLVMContext (a module without a
// data layout gets its target's, as opt gives it) and verified, a target
// machine is made for its triple, a PassBuilder with the plugin's callbacks,
// the default alias analyses, the triple's TargetLibraryInfo and every
// standard analysis parses PIPELINE, and the pipeline runs, followed by the
// verifier; the output is discarded.
//
// It exists for valgrind. Under memcheck opt spends most of its 3.9 s a lit
// input starting (LLVM's static constructors, valgrind translating libLLVM)
// and translating the code the run takes; tests/test_pass_memory.py and
// `make memcheck` run one valgrind over many inputs through this tool and
// pay that once (1 lit input 3.8 CPU s, all 131 together 7.6). So that
// valgrind's reports can be told apart by input, every input is framed on
// stderr by
//
//   coalda-opt-many: begin INPUT
//   coalda-opt-many: end INPUT ok valgrind-errors=N     (or: failed)
//
// valgrind prints an error only the first time it sees its stack: an input
// that repeats an earlier input's error shows it only in N, valgrind's count
// of the errors during the input (left out outside valgrind, and where the
// tool was built without <valgrind/valgrind.h>).
//
// An input that does not parse or verify, or over which PIPELINE does not
// parse, has one line `coalda-opt-many: INPUT: error: ...` inside its frame;
// the other inputs still run, and the exit status is 1. A crash leaves the
// input it happened in without its `end` line.
//
// Options are read as opt reads them: a -load-pass-plugin loads its plugin
// while the command line is parsed, so the plugin's own options (-coalda-*)
// are known from there on and must come after it.
//
//===----------------------------------------------------------------------===//

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

// Valgrind's client requests, where valgrind is installed: a few no-op
// instructions outside valgrind.
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define COALDA_HAVE_VALGRIND_H 1
#endif

using namespace llvm;

static cl::list<std::string>
    PassPlugins("load-pass-plugin",
                cl::desc("Load passes from a plugin library (as opt)"));
static cl::opt<std::string>
    PassPipeline("passes", cl::Required,
                 cl::desc("The new pass manager's pipeline (as opt)"));
static cl::list<std::string> Inputs(cl::Positional, cl::OneOrMore,
                                    cl::desc("<input IR files>"));

namespace {

constexpr const char *ToolName = "coalda-opt-many";

/// Say why File failed, in one line, and return false.
bool fail(StringRef File, const Twine &Why) {
  errs() << ToolName << ": " << File << ": error: " << Why << "\n";
  return false;
}

/// Valgrind's count of the errors so far, the ones it did not print again
/// too; nothing outside valgrind or without <valgrind/valgrind.h>.
std::optional<unsigned> valgrindErrors() {
#ifdef COALDA_HAVE_VALGRIND_H
  if (RUNNING_ON_VALGRIND)
    return VALGRIND_COUNT_ERRORS;
#endif
  return std::nullopt;
}

/// A target machine for Triple as opt makes one without -mcpu or -mattr, or
/// nullptr where the triple names no architecture or no target is built in.
std::unique_ptr<TargetMachine> targetMachineFor(StringRef TripleName) {
  Triple T(TripleName);
  if (T.getArch() == Triple::UnknownArch)
    return nullptr;
  std::string Error;
  const Target *TheTarget = TargetRegistry::lookupTarget(T.str(), Error);
  if (!TheTarget) {
    errs() << ToolName << ": warning: no target machine for '" << T.str()
           << "': " << Error << "\n";
    return nullptr;
  }
  return std::unique_ptr<TargetMachine>(TheTarget->createTargetMachine(
      T.str(), /*CPU=*/"", /*Features=*/"", TargetOptions(), std::nullopt));
}

/// Parse File into Ctx as opt does: a module with a triple and no data
/// layout gets its target machine's.
std::unique_ptr<Module> parseInput(StringRef File, LLVMContext &Ctx) {
  auto DataLayoutFor = [](StringRef IRTriple,
                          StringRef IRLayout) -> std::optional<std::string> {
    if (!IRLayout.empty() || IRTriple.empty())
      return std::nullopt;
    if (std::unique_ptr<TargetMachine> TM = targetMachineFor(IRTriple))
      return TM->createDataLayout().getStringRepresentation();
    return std::nullopt;
  };
  SMDiagnostic Diag;
  std::unique_ptr<Module> M =
      parseIRFile(File, Diag, Ctx, ParserCallbacks(DataLayoutFor));
  if (!M && Diag.getLineNo() > 0)
    fail(File, "does not parse: line " + Twine(Diag.getLineNo()) + ": " +
                   Diag.getMessage());
  else if (!M)
    fail(File, "does not parse: " + Diag.getMessage());
  return M;
}

/// Run PassPipeline over M as opt's runPassPipeline does with
/// -disable-output, then verify M. False (having said why) when the
/// pipeline does not parse or the result does not verify.
bool runPipeline(Module &M, TargetMachine *TM, ArrayRef<PassPlugin> Plugins,
                 StringRef File) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassInstrumentationCallbacks PIC;
  StandardInstrumentations SI(M.getContext(), /*DebugLogging=*/false);
  SI.registerCallbacks(PIC, &MAM);
  PassBuilder PB(TM, PipelineTuningOptions(), std::nullopt, &PIC);
  for (const PassPlugin &Plugin : Plugins)
    Plugin.registerPassBuilderCallbacks(PB);

  // opt's -aa-pipeline=default, registered before the standard analyses
  // so that it is the one used, and the module triple's library functions.
  AAManager AA;
  if (Error E = PB.parseAAPipeline(AA, "default"))
    return fail(File, "alias analyses: " + toString(std::move(E)));
  FAM.registerPass([&] { return std::move(AA); });
  TargetLibraryInfoImpl TLII(Triple(M.getTargetTriple()));
  FAM.registerPass([&] { return TargetLibraryAnalysis(TLII); });
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, PassPipeline))
    return fail(File,
                "pipeline '" + PassPipeline + "': " + toString(std::move(E)));
  MPM.run(M, MAM);
  // opt ends the pipeline with the verifier, whose failure is fatal there;
  // here it fails this input only.
  if (verifyModule(M, &errs()))
    return fail(File, "the pipeline's result does not verify");
  return true;
}

/// One input, start to end: parse, verify, run. False when it failed.
bool runOne(StringRef File, ArrayRef<PassPlugin> Plugins) {
  PrettyStackTraceFormat Frame("%s: running '%s' over %s", ToolName,
                               PassPipeline.c_str(), File.str().c_str());
  LLVMContext Ctx;
  Ctx.enableDebugTypeODRUniquing();
  std::unique_ptr<Module> M = parseInput(File, Ctx);
  if (!M)
    return false;
  if (verifyModule(*M, &errs()))
    return fail(File, "input module is broken");
  std::unique_ptr<TargetMachine> TM = targetMachineFor(M->getTargetTriple());
  return runPipeline(*M, TM.get(), Plugins, File);
}

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmPrinters();
  InitializeAllAsmParsers();

  // As opt: each plugin is loaded when its option is parsed, so that the
  // options it registers are parsed after it.
  std::vector<PassPlugin> Plugins;
  PassPlugins.setCallback([&](const std::string &Path) {
    Expected<PassPlugin> Plugin = PassPlugin::Load(Path);
    if (!Plugin)
      report_fatal_error(Plugin.takeError(), /*gen_crash_diag=*/false);
    Plugins.push_back(*Plugin);
  });
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "opt -disable-output's -passes= over many IR files in one process\n");

  bool AllOk = true;
  for (const std::string &File : Inputs) {
    errs() << ToolName << ": begin " << File << "\n";
    std::optional<unsigned> ErrorsBefore = valgrindErrors();
    bool Ok = runOne(File, Plugins);
    std::optional<unsigned> ErrorsAfter = valgrindErrors();
    errs() << ToolName << ": end " << File << (Ok ? " ok" : " failed");
    if (ErrorsBefore && ErrorsAfter)
      errs() << " valgrind-errors=" << *ErrorsAfter - *ErrorsBefore;
    errs() << "\n";
    AllOk &= Ok;
  }
  return AllOk ? 0 : 1;
}
