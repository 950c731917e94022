// array.comp with dynamically uniform indices (needs
// shaderStorageBufferArrayDynamicIndexing and
// shaderUniformBufferArrayDynamicIndexing).
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } ins[3];
layout(set = 0, binding = 1) readonly buffer More { uint v[]; } more[2];
layout(set = 0, binding = 2) uniform U { uvec4 w; } us[4];
layout(set = 0, binding = 3) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform P { uint one; } p;   // 1, unknown to the compiler
void main()
{
   uint t = gl_LocalInvocationID.x;
   for (uint j = 0u; j < 3u * p.one; j++)
      o[t * 9u + j] = ins[j].v[t];
   for (uint j = 0u; j < 2u * p.one; j++)
      o[t * 9u + 3u + j] = more[j].v[t];
   for (uint j = 0u; j < 4u * p.one; j++)
      o[t * 9u + 5u + j] = us[j].w[t % 4u];
}
