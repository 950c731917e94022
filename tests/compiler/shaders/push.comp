#version 450
// Push constants at every std430 offset: scalars, vectors, a matrix,
// arrays indexed dynamically, and a member at an explicit offset near the
// end of the 256 bytes softgpu provides.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint o[]; };
layout(std430, push_constant) uniform Push {
   uint n;        // 0
   int i;         // 4
   float f;       // 8
   uint pad;      // 12
   vec2 v2;       // 16
   vec4 v4;       // 32
   uint arr[4];   // 48
   mat2 m;        // 64
   uvec3 u3;      // 80
   float last;    // 92
   uint tail[8];  // 96
   layout(offset = 252) uint far;
} pc;

void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   uint b = g * 12u;
   o[b + 0u] = uint(pc.i + int(g));
   o[b + 1u] = floatBitsToUint(pc.f * float(g));
   o[b + 2u] = floatBitsToUint(pc.v2.x + pc.v2.y);
   o[b + 3u] = floatBitsToUint(dot(pc.v4, vec4(1.0, 2.0, 3.0, 4.0)));
   o[b + 4u] = pc.arr[g % 4u];
   vec2 mv = pc.m * vec2(1.0, 2.0);
   o[b + 5u] = floatBitsToUint(mv.x);
   o[b + 6u] = floatBitsToUint(mv.y);
   o[b + 7u] = pc.u3.z + pc.u3.x;
   o[b + 8u] = floatBitsToUint(pc.last);
   o[b + 9u] = pc.tail[g & 7u];
   o[b + 10u] = pc.far;
   o[b + 11u] = pc.pad;
}
