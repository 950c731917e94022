#version 450
// Vectors and matrices: geometric functions, matrix products, transpose,
// outer products, swizzles, dynamic component and column indexing, and a
// struct passed to and returned from a function. Inputs are small
// multiples of 1/2, so sums and products are exact in any order.
#define INS 16
#define OUTS 52
#include "map.glsl"

struct Pair {
   vec3 p;
   float s;
   ivec2 k;
};

Pair combine(Pair x, Pair y)
{
   Pair r;
   r.p = x.p * y.s + y.p;
   r.s = x.s - y.s;
   r.k = x.k.yx + y.k;
   return r;
}

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   float f[16];
   for (uint j = 0u; j < 16u; j++)
      f[j] = if_(j);
   vec3 a = vec3(f[0], f[1], f[2]);
   vec3 b = vec3(f[3], f[4], f[5]);
   vec4 c = vec4(f[6], f[7], f[8], f[9]);
   mat3 M = mat3(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]);
   mat4 N = mat4(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11],
                 f[12], f[13], f[14], f[15]);
   int k = int(iu(15) >> 4) & 3;

   vec3 cr = cross(a, b);
   of(0, cr.x); of(1, cr.y); of(2, cr.z);
   of(3, dot(a, b));
   of(4, length(a));
   of(5, distance(a, b));
   vec3 nrm = normalize(b);
   of(6, nrm.x); of(7, nrm.y); of(8, nrm.z);
   vec3 mv = M * b;
   of(9, mv.x); of(10, mv.y); of(11, mv.z);
   vec3 vm = b * M;
   of(12, vm.x); of(13, vm.y); of(14, vm.z);
   vec4 nc = N * c;
   of(15, nc.x); of(16, nc.y); of(17, nc.z); of(18, nc.w);
   vec4 nn = (N * N)[1];
   of(19, nn.x); of(20, nn.y); of(21, nn.z); of(22, nn.w);
   vec3 tr = transpose(M)[0];
   of(23, tr.x); of(24, tr.y); of(25, tr.z);
   vec3 op = outerProduct(a, b)[2];
   of(26, op.x); of(27, op.y); of(28, op.z);
   vec3 cm = matrixCompMult(M, M)[1];
   of(29, cm.x); of(30, cm.y); of(31, cm.z);
   vec3 sw = a.zyx * 2.0 + b.xxy;
   of(32, sw.x); of(33, sw.y); of(34, sw.z);
   of(35, c[k]);
   vec4 ins = c;
   ins[k] = 99.0;
   of(36, ins.x); of(37, ins.y); of(38, ins.z); of(39, ins.w);
   vec3 col = M[k % 3];
   of(40, col.x); of(41, col.y); of(42, col.z);
   of(43, M[k % 3][(k + 1) % 3]);
   vec3 lin = a * 3.0 - b / 2.0;
   of(44, lin.x); of(45, lin.y); of(46, lin.z);
   Pair p = Pair(a, f[9], ivec2(k, 7));
   Pair q = Pair(b, f[10], ivec2(-3, k * 2));
   Pair r = combine(p, q);
   of(47, r.p.x); of(48, r.p.y); of(49, r.p.z); of(50, r.s);
   oi(51, r.k.x * 1000 + r.k.y);
}
