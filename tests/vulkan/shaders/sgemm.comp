// C (M x N) = A (M x K) * B (K x N), row-major, 16x16 tiles through shared
// memory; M, N and K need not be multiples of 16.
#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint M; uint N; uint K; } p;
shared float As[16][16];
shared float Bs[16][16];
void main()
{
   uint row = gl_GlobalInvocationID.y;
   uint col = gl_GlobalInvocationID.x;
   uint ty = gl_LocalInvocationID.y;
   uint tx = gl_LocalInvocationID.x;
   float acc = 0.0;
   uint tiles = (p.K + 15u) / 16u;
   for (uint t = 0u; t < tiles; t++) {
      uint ak = t * 16u + tx;
      uint bk = t * 16u + ty;
      As[ty][tx] = (row < p.M && ak < p.K) ? a[row * p.K + ak] : 0.0;
      Bs[ty][tx] = (bk < p.K && col < p.N) ? b[bk * p.N + col] : 0.0;
      barrier();
      for (uint k = 0u; k < 16u; k++)
         acc += As[ty][k] * Bs[k][tx];
      barrier();
   }
   if (row < p.M && col < p.N)
      c[row * p.N + col] = acc;
}
