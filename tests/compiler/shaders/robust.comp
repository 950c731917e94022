#version 450
// Compiled with robust buffer access: reads past a descriptor's range
// return 0 and writes past it are dropped (sc_compiler.h). Scalar and
// vector accesses.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint y[]; };
layout(std430, set = 0, binding = 2) readonly buffer InV { uvec4 xv[]; };
layout(std430, set = 0, binding = 3) writeonly buffer OutR { uint r[]; };
layout(push_constant) uniform Push { uint n; } pc;

void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   y[g] = x[g] + 1u;
   uvec4 v = xv[g];
   r[g] = v.x + v.y + v.z + v.w;
}
