# The machine-learning kernels' SPIR-V variants: "<name>|<source>|<glslc
# options>" (options separated by spaces), each built as ml_<name>.spv by
# tests/vulkan (test_compute_ml) and, for the ones it runs, by bench/
# (bench_compute). Every source includes ml.glsl.
set(SGT_ML_SHADERS
  "matvec_f16|matvec.comp|-DA_F16"
  "matvec_f16_h|matvec.comp|-DA_F16 -DARITH_F16"
  "matvec_f16_h_shuffle|matvec.comp|-DA_F16 -DARITH_F16 -DSHUFFLE_CLUSTERS"
  "matvec_q8|matvec.comp|-DA_Q8"
  "matvec_q4|matvec.comp|-DA_Q4"
  "quantize|quantize.comp|"
  "quantize_shuffle|quantize.comp|-DSHUFFLE_CLUSTERS"
  "matvec_q8_dot|matvec_dot.comp|-DW_Q8"
  "matvec_q4_dot|matvec_dot.comp|-DW_Q4"
  "matvec_q8_i8|matvec_dot.comp|-DW_Q8 -DDOT_EMULATED"
  "matmul_f16|matmul.comp|-DA_F16"
  "matmul_f16_h|matmul.comp|-DA_F16 -DARITH_F16"
  "matmul_q8|matmul.comp|-DA_Q8"
  "matmul_q4|matmul.comp|-DA_Q4"
  "softmax|softmax.comp|"
  "softmax_h|softmax.comp|-DARITH_F16"
  "rmsnorm|rmsnorm.comp|"
  "rope|rope.comp|"
  "act|act.comp|"
  "qkv|qkv.comp|")
set(SGT_ML_SHADER_SRC ${CMAKE_CURRENT_LIST_DIR})

# sgt_ml_shader_args(<entry> <name var> <source path var> <options var>)
function(sgt_ml_shader_args entry name_var src_var opts_var)
  string(REPLACE "|" ";" _parts "${entry}")
  list(LENGTH _parts _n)
  list(GET _parts 0 _name)
  list(GET _parts 1 _src)
  set(_opts "")
  if(_n GREATER 2)
    list(GET _parts 2 _opt_text)
    separate_arguments(_opts UNIX_COMMAND "${_opt_text}")
  endif()
  set(${name_var} ${_name} PARENT_SCOPE)
  set(${src_var} ${SGT_ML_SHADER_SRC}/${_src} PARENT_SCOPE)
  set(${opts_var} "${_opts}" PARENT_SCOPE)
endfunction()
