#version 450
// 72 uvec4 values (288 registers) all live at once: more than the 256
// vector registers a program may use, and the compiler does not spill.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uvec4 d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec4 o[]; };

#define LD(i) uvec4 v##i = d[g * 72u + uint(i)];
#define LD8(a, b, c, e, f, h, k, m) LD(a) LD(b) LD(c) LD(e) LD(f) LD(h) LD(k) LD(m)
#define MUL(i, j) acc = acc * 3u + (v##i ^ v##j);

void main()
{
   uint g = gl_GlobalInvocationID.x;
   LD8(0, 1, 2, 3, 4, 5, 6, 7) LD8(8, 9, 10, 11, 12, 13, 14, 15)
   LD8(16, 17, 18, 19, 20, 21, 22, 23) LD8(24, 25, 26, 27, 28, 29, 30, 31)
   LD8(32, 33, 34, 35, 36, 37, 38, 39) LD8(40, 41, 42, 43, 44, 45, 46, 47)
   LD8(48, 49, 50, 51, 52, 53, 54, 55) LD8(56, 57, 58, 59, 60, 61, 62, 63)
   LD8(64, 65, 66, 67, 68, 69, 70, 71)
   uvec4 acc = uvec4(0u);
   MUL(71, 0) MUL(70, 1) MUL(69, 2) MUL(68, 3) MUL(67, 4) MUL(66, 5) MUL(65, 6) MUL(64, 7)
   MUL(63, 8) MUL(62, 9) MUL(61, 10) MUL(60, 11) MUL(59, 12) MUL(58, 13) MUL(57, 14) MUL(56, 15)
   MUL(55, 16) MUL(54, 17) MUL(53, 18) MUL(52, 19) MUL(51, 20) MUL(50, 21) MUL(49, 22) MUL(48, 23)
   MUL(47, 24) MUL(46, 25) MUL(45, 26) MUL(44, 27) MUL(43, 28) MUL(42, 29) MUL(41, 30) MUL(40, 31)
   MUL(39, 32) MUL(38, 33) MUL(37, 34) MUL(36, 35)
   MUL(0, 1) MUL(2, 3) MUL(4, 5) MUL(6, 7) MUL(8, 9) MUL(10, 11) MUL(12, 13) MUL(14, 15)
   MUL(16, 17) MUL(18, 19) MUL(20, 21) MUL(22, 23) MUL(24, 25) MUL(26, 27) MUL(28, 29) MUL(30, 31)
   MUL(32, 33) MUL(34, 35) MUL(36, 37) MUL(38, 39) MUL(40, 41) MUL(42, 43) MUL(44, 45) MUL(46, 47)
   MUL(48, 49) MUL(50, 51) MUL(52, 53) MUL(54, 55) MUL(56, 57) MUL(58, 59) MUL(60, 61) MUL(62, 63)
   MUL(64, 65) MUL(66, 67) MUL(68, 69) MUL(70, 71)
   o[g] = acc;
}
