// The interface of the "map" shaders (tests/compiler/sct.h): invocation
// i < pc.n reads INS words at in_w[i * INS] and writes OUTS words at
// out_w[i * OUTS]. The local size is specialization constant 0.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint in_w[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint out_w[]; };
layout(push_constant) uniform Push { uint n; } pc;

uint iu(uint k) { return in_w[gl_GlobalInvocationID.x * INS + k]; }
int ii(uint k) { return int(iu(k)); }
float if_(uint k) { return uintBitsToFloat(iu(k)); }
void ou(uint k, uint v) { out_w[gl_GlobalInvocationID.x * OUTS + k] = v; }
void oi(uint k, int v) { ou(k, uint(v)); }
void of(uint k, float v) { ou(k, floatBitsToUint(v)); }
