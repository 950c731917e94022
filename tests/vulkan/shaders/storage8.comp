#version 450
// 8-bit storage (storageBuffer8BitAccess, storagePushConstant8): bytes
// loaded signed and unsigned, converted, stored; neighbouring lanes store
// neighbouring bytes. Read by test_compute_features.c (storage8).
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 64) in;
struct Pair { int8_t s; uint8_t u; };
layout(std430, binding = 0) readonly buffer Bytes { Pair b[]; };
layout(std430, binding = 1) writeonly buffer Out { ivec2 r[]; };
layout(std430, binding = 2) writeonly buffer Out8 { uint8_t o[]; };
layout(push_constant) uniform P { uint8_t add; int8_t sub; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   r[i] = ivec2(int(b[i].s) - int(sub), int(uint(b[i].u) + uint(add)));
   o[i] = uint8_t(uint(b[i].u) * 5u + 1u);
}
