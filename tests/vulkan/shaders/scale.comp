// y[i] = y[i] * 2 + 1 over n words (a pipeline distinct from accumulate).
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer X { uint x[]; };
layout(set = 0, binding = 1) buffer Y { uint y[]; };
layout(push_constant) uniform P { uint mul; uint k; uint n; } p;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < p.n)
      y[i] = y[i] * 2u + 1u;
}
