#version 450
// 64-bit integers: OpCapability Int64, which needs shaderInt64 enabled.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint64_t v[]; } data;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   data.v[i] += uint64_t(i) << 33;
}
