#version 450
// Dynamic storage and uniform buffers (their offsets come from the root
// table), including an array of two dynamic storage buffers, written too.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer S { uint s[]; };
layout(std140, set = 0, binding = 1) uniform U { uvec4 u[4]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
layout(std430, set = 0, binding = 3) buffer D { uint d[]; } darr[2];
layout(push_constant) uniform Push { uint n; } pc;

void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   o[g * 2u] = s[g] + u[g & 3u].y;
   o[g * 2u + 1u] = darr[0].d[g] * 2u + darr[1].d[g];
   darr[1].d[g] += 1000u;
}
