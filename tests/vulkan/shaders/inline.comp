// An inline uniform block (VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64
// bytes) copied out word by word.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform Inline { uvec4 a; uvec4 b[3]; } ib;
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
void main()
{
   uint t = gl_LocalInvocationID.x;
   o[t] = t < 4u ? ib.a[t] : ib.b[t / 4u - 1u][t % 4u];
}
