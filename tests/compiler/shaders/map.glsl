// The interface of the "map" shaders (tests/compiler/sct.h): invocation
// i < pc.n reads INS words at in_w[i * INS] and writes OUTS words at
// out_w[i * OUTS]. The local size is specialization constant 0.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint in_w[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint out_w[]; };
layout(push_constant) uniform Push { uint n; } pc;

// Macros rather than functions: a module without function calls takes the
// driver's default path (no SPIRV-Tools optimizer), which keeps Function
// variables in registers; the runner's "optimized" runs take the other.
#define iu(k) (in_w[gl_GlobalInvocationID.x * INS + (k)])
#define ii(k) int(iu(k))
#define if_(k) uintBitsToFloat(iu(k))
#define ou(k, v) (out_w[gl_GlobalInvocationID.x * OUTS + (k)] = (v))
#define oi(k, v) ou(k, uint(v))
#define of(k, v) ou(k, floatBitsToUint(v))
