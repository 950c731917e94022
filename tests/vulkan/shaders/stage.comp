// One stage of a pipeline of work: y = x * mul + add over n words.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { uint x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { uint y[]; };
layout(push_constant) uniform P { uint mul; uint add; uint n; } p;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < p.n)
      y[i] = x[i] * p.mul + p.add;
}
