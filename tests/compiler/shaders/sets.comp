#version 450
// Several descriptor sets and bindings: sets 0, 1 and 3 (2 unused),
// bindings out of order and far apart in their set's memory, a uniform
// buffer next to storage buffers.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { uint b[]; };
layout(std430, set = 1, binding = 0) readonly buffer C { uint c[]; };
layout(std140, set = 1, binding = 5) uniform D { uvec4 d; };
layout(std430, set = 3, binding = 7) writeonly buffer O { uint o[]; };
layout(push_constant) uniform Push { uint n; } pc;

void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   o[g] = a[g] + b[g] * 3u + c[g] * 7u + d[g & 3u];
}
