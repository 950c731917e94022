#version 450
// Block-decorated workgroup variables (VK_KHR_workgroup_memory_explicit_
// layout: workgroupMemoryExplicitLayout, its 8- and 16-bit access and the
// scalar layout): three blocks alias one another, so words one invocation
// writes through A are read back as halfwords through B, as bytes through
// C, and as a tightly packed vec3 array (scalar layout) through D. Read by
// test_compute_features.c (explicit_shared).
#extension GL_EXT_shared_memory_block : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
shared A { uint words[64]; } a;
shared B { u16vec2 halves[64]; } b;
shared C { uint8_t bytes[256]; } c;
layout(scalar) shared D { uvec3 triples[21]; } d;
layout(std430, binding = 0) writeonly buffer Out { uint r[]; };
void main()
{
   uint i = gl_LocalInvocationIndex;
   a.words[i] = i * 0x01020304u + 0x10u;
   barrier();
   uint j = 63u - i;
   r[i * 4u + 0u] = uint(b.halves[j].x) | uint(b.halves[j].y) << 16;
   r[i * 4u + 1u] = uint(c.bytes[4u * j + (i & 3u)]);
   r[i * 4u + 2u] = i < 21u ? d.triples[i].y : 0u;
   barrier();
   if (i < 32u)
      b.halves[i] = u16vec2(i, i + 1000u);
   barrier();
   r[i * 4u + 3u] = a.words[i];
}
