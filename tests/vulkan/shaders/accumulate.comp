// y[i] = y[i] * mul + x[i] * k over n words.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { uint x[]; };
layout(set = 0, binding = 1) buffer Y { uint y[]; };
layout(push_constant) uniform P { uint mul; uint k; uint n; } p;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < p.n)
      y[i] = y[i] * p.mul + x[i] * p.k;
}
