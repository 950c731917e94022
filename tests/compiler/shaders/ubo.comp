#version 450
// A std140 uniform buffer: vec3 followed by a float packed into its last
// word, arrays with a 16-byte stride indexed dynamically, a column-major
// mat4, a row-major mat3 (whole and by column), an array of structs.
layout(local_size_x_id = 0) in;
struct S {
   float x;
   uvec2 y;
};
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint o[]; };
layout(std140, set = 0, binding = 1) uniform U {
   float a;                   // 0
   vec3 v;                    // 16
   float b;                   // 28
   vec4 arr4[3];              // 32
   float farr[4];             // 80 (stride 16)
   mat4 m;                    // 144
   layout(row_major) mat3 r;  // 208 (rows 16 apart)
   ivec2 iv;                  // 256
   S s[2];                    // 272, 288
} u;
layout(push_constant) uniform Push { uint n; } pc;

void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   uint b = g * 16u;
   o[b + 0u] = floatBitsToUint(u.a);
   o[b + 1u] = floatBitsToUint(u.v.y);
   o[b + 2u] = floatBitsToUint(u.b);
   o[b + 3u] = floatBitsToUint(u.arr4[g % 3u].z);
   o[b + 4u] = floatBitsToUint(u.farr[g & 3u]);
   vec4 mv = u.m * vec4(1.0, 2.0, 3.0, 4.0);
   o[b + 5u] = floatBitsToUint(mv.x);
   o[b + 6u] = floatBitsToUint(mv.y);
   o[b + 7u] = floatBitsToUint(mv.z);
   o[b + 8u] = floatBitsToUint(mv.w);
   vec3 rv = u.r * vec3(1.0, 10.0, 100.0);
   o[b + 9u] = floatBitsToUint(rv.x);
   o[b + 10u] = floatBitsToUint(rv.y);
   o[b + 11u] = floatBitsToUint(rv.z);
   o[b + 12u] = floatBitsToUint(u.r[g % 3u][(g + 1u) % 3u]);
   o[b + 13u] = uint(u.iv.x + u.iv.y);
   o[b + 14u] = u.s[g & 1u].y.y;
   o[b + 15u] = floatBitsToUint(u.s[g & 1u].x);
}
