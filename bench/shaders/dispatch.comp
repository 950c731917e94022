#version 450
// bench_compute "dispatch": one workgroup of 64 invocations per
// vkCmdDispatch(1, 1, 1); push constant `index` is the dispatch's number.
// Each invocation stores one u32 into its own slot, which the host checks.
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
    uint index;
    uint salt;
} pc;

layout(std430, set = 0, binding = 0) writeonly buffer Out {
    uint v[];
} o;

void main()
{
    uint i = pc.index * 64u + gl_LocalInvocationID.x;
    o.v[i] = (i * 2654435761u) ^ pc.salt;
}
