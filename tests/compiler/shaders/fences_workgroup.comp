#version 450
// test_cc_memory "fences": workgroup-scope barriers and memory barriers
// only. A CTA runs on one execution unit, so none of them needs a MEMBAR
// (a host fence); the workgroup barrier needs its BAR.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Buf { uint v[]; };
shared uint sh[64];
void main()
{
    uint i = gl_LocalInvocationID.x;
    sh[i] = v[i];
    memoryBarrierShared();
    groupMemoryBarrier();
    barrier();
    v[i] = sh[63u - i];
}
