// The one C++ file: a thin shim with a C interface over SPIRV-Tools'
// optimizer, whose API Debian 12 ships for C++ only. It applies the
// specialization constants, then the optimization passes.
#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "sc_opt.h"

namespace {

// Passes that make the module what the translator expects (one function,
// SSA values instead of local variables) and cheaper to run.
void register_passes(spvtools::Optimizer &opt, bool optimize)
{
   opt.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass());
   opt.RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass());
   // The inliner leaves functions with early returns alone unless their
   // returns are merged first; merging refuses functions with blocks no
   // path reaches (an OpUnreachable after a return, valid SPIR-V), which
   // dead branch elimination removes.
   opt.RegisterPass(spvtools::CreateDeadBranchElimPass());
   opt.RegisterPass(spvtools::CreateMergeReturnPass());
   opt.RegisterPass(spvtools::CreateInlineExhaustivePass());
   opt.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
   if (optimize) {
      opt.RegisterPerformancePasses();
   } else {
      opt.RegisterPass(spvtools::CreateScalarReplacementPass());
      opt.RegisterPass(spvtools::CreateSSARewritePass());
      opt.RegisterPass(spvtools::CreateAggressiveDCEPass());
   }
}

// FunctionControl DontInline: "Strong request, to the extent possible, to
// not inline the function" (SPIR-V 3.24) is a request, which softgpu
// cannot grant: it has no calls, as "recursion is not allowed" (Vulkan,
// Shader Modules) lets every call be inlined. The inliner honours the
// request, so the module it sees has none.
void drop_dont_inline(std::vector<uint32_t> &w)
{
   for (size_t at = 5; at < w.size() && (w[at] >> 16) != 0; at += w[at] >> 16) {
      if ((w[at] & 0xffff) == SpvOpFunction && (w[at] >> 16) >= 5 && at + 3 < w.size())
         w[at + 3] &= ~static_cast<uint32_t>(SpvFunctionControlDontInlineMask);
   }
}

}  // namespace

extern "C" uint32_t *sc_optimize(const uint32_t *words, size_t count,
                                 const struct sc_spec_value *spec, uint32_t spec_count,
                                 bool optimize, size_t *out_count, char *err, size_t err_size)
{
   try {
      spvtools::Optimizer opt(SPV_ENV_VULKAN_1_3);
      std::string messages;
      opt.SetMessageConsumer([&messages](spv_message_level_t level, const char *, const spv_position_t &,
                                         const char *m) {
         if (level <= SPV_MSG_ERROR)
            messages += m ? m : "";
      });
      std::unordered_map<uint32_t, std::vector<uint32_t>> values;
      for (uint32_t i = 0; i < spec_count; i++) {
         std::vector<uint32_t> bits;
         if (spec[i].size == 8) {
            bits.push_back(static_cast<uint32_t>(spec[i].value));
            bits.push_back(static_cast<uint32_t>(spec[i].value >> 32));
         } else {
            bits.push_back(static_cast<uint32_t>(spec[i].value));
         }
         values[spec[i].id] = bits;
      }
      if (!values.empty())
         opt.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(values));
      register_passes(opt, optimize);
      spv_optimizer_options options = spvOptimizerOptionsCreate();
      spvOptimizerOptionsSetRunValidator(options, false);   // validated already, and cached
      std::vector<uint32_t> module(words, words + count);
      drop_dont_inline(module);
      std::vector<uint32_t> out;
      bool ok = opt.Run(module.data(), module.size(), &out, options);
      spvOptimizerOptionsDestroy(options);
      if (!ok) {
         std::snprintf(err, err_size, "the SPIR-V optimizer failed: %s", messages.c_str());
         return nullptr;
      }
      uint32_t *result = static_cast<uint32_t *>(std::malloc(out.size() * sizeof(uint32_t)));
      if (!result) {
         std::snprintf(err, err_size, "out of memory");
         return nullptr;
      }
      std::memcpy(result, out.data(), out.size() * sizeof(uint32_t));
      *out_count = out.size();
      return result;
   } catch (const std::exception &ex) {
      std::snprintf(err, err_size, "the SPIR-V optimizer failed: %s", ex.what());
      return nullptr;
   } catch (...) {
      std::snprintf(err, err_size, "the SPIR-V optimizer failed");
      return nullptr;
   }
}
