#version 450
// 8- and 16-bit storage: halfs, 16- and 8-bit integers read from a buffer
// and push constants, widened signed and unsigned; narrowed into a buffer
// where neighbouring invocations write neighbouring halfwords and bytes.
// Invocations from pc.n on read past the end of the input's range (robust
// access zeroes them) and write past the output's (robust access drops).
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x_id = 0) in;
struct In { float16_t h; int16_t s; uint16_t u; int8_t b; uint8_t c; };   // 8 bytes
layout(std430, set = 0, binding = 0) readonly buffer Ins { In x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint o[]; };
struct Narrow { float16_t h; uint16_t u; uint8_t c; int8_t b; };        // 6 bytes
layout(std430, set = 0, binding = 2) writeonly buffer Out16 { Narrow w[]; };
layout(std430, push_constant) uniform Push { uint n; float16_t scale; int8_t bias; };

void main()
{
   uint g = gl_GlobalInvocationID.x;
   float f = float(x[g].h) * float(scale);
   o[g * 5u + 0u] = floatBitsToUint(f);
   o[g * 5u + 1u] = uint(int(x[g].s) + int(bias));
   o[g * 5u + 2u] = uint(x[g].u);
   o[g * 5u + 3u] = uint(int(x[g].b));
   o[g * 5u + 4u] = uint(x[g].c);
   w[g].h = float16_t(f * 3.0);
   w[g].u = uint16_t(uint(x[g].u) + g);
   w[g].c = uint8_t(uint(x[g].c) * 3u);
   w[g].b = int8_t(int(x[g].b) - 1);
}
