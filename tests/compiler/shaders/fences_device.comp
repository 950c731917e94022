#version 450
// test_cc_memory "fences": device-scope memory barriers order against other
// workgroups and the host, so each needs a MEMBAR.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Buf { uint v[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    v[i] = 1u;
    memoryBarrierBuffer();
    v[i + 64u] = 2u;
    memoryBarrier();
    v[i + 128u] = 3u;
}
