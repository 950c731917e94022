#version 450
// determinant() and inverse() (GLSL.std.450 Determinant, MatrixInverse).
#define INS 4
#define OUTS 3
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   mat2 m = mat2(float(ii(0) % 8), float(ii(1) % 8), float(ii(2) % 8), float(ii(3) % 8) + 20.0);
   of(0, determinant(m));
   mat2 inv = inverse(m);
   of(1, inv[0][0] * determinant(m));
   of(2, determinant(mat3(m)));
}
