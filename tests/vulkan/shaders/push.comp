// Reads a push constant block of PUSH_WORDS words (64: 256 bytes, 32: 128
// bytes) with a dynamic index: invocation i writes word i.
#version 450
#ifndef PUSH_WORDS
#define PUSH_WORDS 64
#endif
layout(local_size_x = PUSH_WORDS) in;
layout(push_constant, std430) uniform P { uint w[PUSH_WORDS]; } p;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
void main()
{
   uint i = gl_LocalInvocationID.x;
   o[i] = p.w[i];
}
