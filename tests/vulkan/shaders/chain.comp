// Step i of a dependent chain: row i = f(row i-1, i). Each dispatch reads
// what the previous one wrote.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint d[]; };
layout(push_constant) uniform P { uint i; } p;
void main()
{
   uint t = gl_LocalInvocationID.x;
   uint prev = d[(p.i - 1u) * 32u + (t + p.i) % 32u];
   d[p.i * 32u + t] = prev * 3u + p.i + t;
}
