#version 450
// 16-bit storage (storageBuffer16BitAccess, storagePushConstant16): halfs
// and 16-bit integers loaded, converted, stored; neighbouring lanes store
// neighbouring halfwords. Read by test_compute_features.c (storage16).
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Halfs { f16vec2 hv[]; };
struct Shorts { int16_t s; uint16_t u; };
layout(std430, binding = 1) readonly buffer In16 { Shorts s[]; };
struct Wide { vec2 f; int si; uint ui; };
layout(std430, binding = 2) writeonly buffer Out { Wide r[]; };
struct Narrow { float16_t h; uint16_t u; };
layout(std430, binding = 3) writeonly buffer Out16 { Narrow n[]; };
layout(push_constant) uniform P { float16_t scale; int16_t bias; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   vec2 f = vec2(hv[i]) * float(scale);
   r[i].f = f;
   r[i].si = int(s[i].s) + int(bias);
   r[i].ui = uint(s[i].u);
   n[i].h = float16_t(f.x * 3.0);
   n[i].u = uint16_t(uint(s[i].u) * 3u + i);
}
