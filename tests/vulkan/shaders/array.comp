// Arrays of descriptors, indexed with constants: every source is copied to
// its own output column, so a wrong descriptor shows which one it is.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } ins[3];
layout(set = 0, binding = 1) readonly buffer More { uint v[]; } more[2];
layout(set = 0, binding = 2) uniform U { uvec4 w; } us[4];
layout(set = 0, binding = 3) writeonly buffer Out { uint o[]; };
void main()
{
   uint t = gl_LocalInvocationID.x;
   o[t * 9u + 0u] = ins[0].v[t];
   o[t * 9u + 1u] = ins[1].v[t];
   o[t * 9u + 2u] = ins[2].v[t];
   o[t * 9u + 3u] = more[0].v[t];
   o[t * 9u + 4u] = more[1].v[t];
   o[t * 9u + 5u] = us[0].w[t % 4u];
   o[t * 9u + 6u] = us[1].w[t % 4u];
   o[t * 9u + 7u] = us[2].w[t % 4u];
   o[t * 9u + 8u] = us[3].w[t % 4u];
}
