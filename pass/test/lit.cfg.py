# lit configuration for COALDA's pass tests.
import os

import lit.formats

config.name = "COALDA"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".cu"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

tools = config.llvm_tools_dir
plugin = config.coalda_plugin
# %opt runs LLVM 19's opt with the plugin and the verifier after every pass.
config.substitutions.append(
    ("%opt", f"{tools}/opt -load-pass-plugin={plugin} -verify-each"))
config.substitutions.append(("%plugin", plugin))
# the run-time choice of reshaped launches, built beside the plugin
config.substitutions.append(
    ("%launch_runtime", os.path.join(os.path.dirname(plugin), "coalda-launch-runtime.bc")))
config.substitutions.append(("%clang", os.path.join(tools, "clang++")))
config.substitutions.append(("%cuda_path", os.environ.get("COALDA_CUDA_PATH", "")))
config.environment["PATH"] = os.pathsep.join([tools, config.environment.get("PATH", "")])
if os.environ.get("COALDA_CUDA_PATH"):
    config.available_features.add("cuda")
