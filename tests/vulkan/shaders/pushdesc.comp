// y = y * mul + x * k, the buffers in set 0 (push descriptors in the test),
// the factors in a uniform buffer of an ordinary set 1.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { uint x[]; };
layout(set = 0, binding = 1) buffer Y { uint y[]; };
layout(set = 1, binding = 0) uniform F { uint mul; uint k; uint n; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < n)
      y[i] = y[i] * mul + x[i] * k;
}
