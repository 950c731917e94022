#version 450
// bench_compute "grid": dispatch cost against grid size. Every invocation
// of the grid stores one u32 derived from its global index, so the work is
// proportional to the grid and every result can be checked.
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
    uint salt;
} pc;

layout(std430, set = 0, binding = 0) writeonly buffer Out {
    uint v[];
} o;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    o.v[i] = (i * 2654435761u) ^ pc.salt;
}
