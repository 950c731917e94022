#version 450
// 8- and 16-bit integers in storage buffers (StorageBuffer8BitAccess,
// StorageBuffer16BitAccess), common for packed data.
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint8_t b[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint16_t h[]; };
layout(push_constant) uniform Push { uint n; } pc;
void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   h[g] = uint16_t(uint(b[g]) * 3u);
}
